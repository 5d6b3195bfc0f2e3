package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// A Record is one terminal's agent session, as its terminal-mode hooks keep
// it in the user's runtime folder (terminal.RecordDir): its fields by name
// (terminal.RecordFields), and since when its state holds (the file's time:
// a hook that finds the state unchanged writes nothing).
type Record struct {
	Fields map[string]string
	Since  time.Time
}

// stale is how old a file must be before sweep takes it for litter: a hook
// writes a record in well under a second.
const stale = time.Minute

// Records reads the records in folder dir, the user's own: a folder another
// user owns, a symlink, or one others may write to is refused (the hooks
// write nothing there). A record is written in place, so one without its
// last line (terminal.RecordEnd) is being written: it is read again once,
// then skipped, never shown. A file that is no record at all is skipped with
// a note. A record whose agent's process is gone is not returned. With sweep
// (ls, watch; never doctor) it is removed once its terminal is closed (until
// then init's prompt hook takes it, to clear the tab), and so is what stayed
// half written for a minute (a hook killed mid-write; an older version's
// record) and an older version's temporary files (<name>.<pid>). No folder:
// no records.
func Records(dir string, sweep bool) ([]Record, []string, error) {
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
		path := filepath.Join(dir, e.Name())
		r, whole, why := readRecord(path)
		if !whole && why == "" {
			r, whole, why = readRecord(path) // once more: it was being written
		}
		old := time.Since(r.Since) > stale
		switch {
		case why != "":
			notes = append(notes, path+": "+why+"; skipped")
		case whole && !alive(r.Fields["pid"]) || !whole && old:
			// a gone agent's record is its shell's prompt's to clear, while its terminal is open
			if _, err := os.Stat(r.Fields["tty"]); sweep && (!whole || err != nil) {
				_ = os.Remove(path)
			}
		case whole:
			recs = append(recs, r)
		}
	}
	return recs, notes, nil
}

// TakeRecord reads the whole record at path and removes it (the shell's
// prompt ends the session it records); false when there is none.
func TakeRecord(path string) (Record, bool) {
	r, whole, _ := readRecord(path)
	return r, whole && os.Remove(path) == nil
}

// readRecord reads the record at path: whole, or being written (no why),
// or none, and why not.
func readRecord(path string) (r Record, whole bool, why string) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return r, false, "not a record (a regular file of at most 4096 bytes)"
	}
	r.Since = fi.ModTime()
	if strings.Contains(fi.Name(), ".") {
		return r, false, "" // an older version's temporary file
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return r, false, err.Error()
	}
	if len(b) > 0 && !bytes.HasPrefix(b, []byte("state=")) {
		return r, false, "not a record"
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) != len(terminal.RecordFields)+2 || lines[len(lines)-2] != terminal.RecordEnd {
		return r, false, ""
	}
	r.Fields = map[string]string{}
	for i, k := range terminal.RecordFields {
		v, ok := strings.CutPrefix(lines[i], k+"=")
		if !ok {
			return r, false, fmt.Sprintf("not a record (line %d is not %s=...)", i+1, k)
		}
		r.Fields[k] = v
	}
	if terminal.State(r.Fields["state"]).Body() == "" {
		return r, false, fmt.Sprintf("not a record (state %q)", r.Fields["state"])
	}
	return r, true, ""
}

// alive reports whether process pid runs (or cannot be told: not ours to
// signal).
func alive(pid string) bool {
	n, err := strconv.Atoi(pid)
	return err == nil && n > 0 && running(n)
}

// PrepareRecordDir makes dir the user's private folder for the records, as
// init, run, watch and doctor set terminal mode up (the hooks only check
// it, with builtins): created 0700 where it is missing; where the user owns
// it, group's and others' write taken off, which fixed says. A symlink, not
// a folder, or another user's folder is refused: the hooks then keep no
// record.
func PrepareRecordDir(dir string) (fixed string, err error) {
	if err := os.Mkdir(dir, 0o700); err == nil || !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	err = checkPrivateDir(dir)
	var f *fixable
	fi, lerr := os.Lstat(dir)
	if !errors.As(err, &f) || lerr != nil || !fi.IsDir() {
		return "", err
	}
	if uid, _, _, _ := sysOf(fi); uid != os.Geteuid() {
		return "", err
	}
	if err := os.Chmod(dir, fi.Mode().Perm()&^0o022); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s was writable by group or others (mode %04o): made it yours alone (%04o)", dir, fi.Mode().Perm(), fi.Mode().Perm()&^0o022), checkPrivateDir(dir)
}
