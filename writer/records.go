package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// A Record is one agent session's, as its terminal-mode hooks keep it in
// the user's runtime folder (terminal.RecordDir): its fields by name
// (terminal.RecordFields), and since when its state holds (the file's time:
// a hook that finds the state unchanged writes nothing).
type Record struct {
	Fields map[string]string
	Since  time.Time
}

// Records reads the records in folder dir, the user's own: a folder
// another user owns, a symlink, or one others may write to is refused (the
// hooks write nothing there). A file that is not a record (corrupt,
// truncated, foreign) is skipped with a note; one whose agent's process is
// gone is removed, and not listed. No folder: no records.
func Records(dir string) ([]Record, []string, error) {
	if err := checkPrivateDir(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var recs []Record
	var notes []string
	for _, e := range es {
		if strings.Contains(e.Name(), ".") {
			continue // a record being written: it is renamed into place
		}
		path := filepath.Join(dir, e.Name())
		r, why := readRecord(path)
		switch {
		case why != "":
			notes = append(notes, path+": "+why+"; skipped")
		case !alive(r.Fields["pid"]):
			_ = os.Remove(path) // its agent is gone
		default:
			recs = append(recs, r)
		}
	}
	return recs, notes, nil
}

// readRecord reads the record at path, or says why it is none.
func readRecord(path string) (Record, string) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return Record{}, "not a record (a regular file of at most 4096 bytes)"
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Record{}, err.Error()
	}
	r := Record{Fields: map[string]string{}, Since: fi.ModTime()}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != len(terminal.RecordFields) {
		return Record{}, fmt.Sprintf("not a record (%d lines, want %d)", len(lines), len(terminal.RecordFields))
	}
	for i, l := range lines {
		k, v, ok := strings.Cut(l, "=")
		if !ok || k != terminal.RecordFields[i] {
			return Record{}, fmt.Sprintf("not a record (line %d is not %s=...)", i+1, terminal.RecordFields[i])
		}
		r.Fields[k] = v
	}
	if terminal.State(r.Fields["state"]).Body() == "" {
		return Record{}, fmt.Sprintf("not a record (state %q)", r.Fields["state"])
	}
	return r, ""
}

// alive reports whether process pid runs (or cannot be told: not ours to
// signal).
func alive(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return !errors.Is(syscall.Kill(n, 0), syscall.ESRCH)
}
