package hookinstall

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/writer"
)

// A Session is one agent session on this machine, as its hooks record it
// where `hookinstall init` or `run` set them up (terminal mode; a host's
// hooks record nothing: the host holds the state), one per terminal: the
// agent, its state and since when, the project folder (as notifications
// name it), where it runs, and its process. No prompt text, nothing of a
// payload.
type Session struct {
	Agent  string    `json:"agent"`
	State  State     `json:"state"`
	Since  time.Time `json:"since"`
	Folder string    `json:"folder"`
	TTY    string    `json:"tty"`
	Mux    string    `json:"mux,omitempty"`    // the multiplexer it runs in: "tmux"
	Pane   string    `json:"pane,omitempty"`   // its pane there ("%3")
	Server string    `json:"server,omitempty"` // the multiplexer's server (tmux's socket)
	SSH    bool      `json:"ssh"`              // reached over ssh
	PID    int       `json:"pid"`
	// Unsure: the agent may have left State without a word to its hooks
	// (adapters.Agent.Unsure: docs/agents.md, "What ends each state").
	Unsure bool `json:"unsure"`
}

// Sessions lists the agent sessions on this machine, from the records in
// the user's runtime folder (<NS> in $XDG_RUNTIME_DIR, else <NS>-<user> in
// $TMPDIR or /tmp, which SessionsDir names): those waiting for the user
// first, the longest waiting first, then working, interrupted and done,
// each oldest first. A session whose agent's process is gone is dropped,
// and its record removed; a record being written is skipped; a file that
// is not a record is skipped, and a note says so. A folder another user
// owns, or others may write to, is an error.
func (in *Installer) Sessions() ([]Session, []string, error) {
	dir := in.SessionsDir()
	if dir == "" {
		return nil, nil, nil
	}
	recs, notes, err := writer.Records(dir, true)
	var ss []Session
	for _, r := range recs {
		ss = append(ss, session(r))
	}
	rank := map[State]int{Attention: 0, Working: 1, Interrupted: 2, Done: 3}
	slices.SortStableFunc(ss, func(a, b Session) int {
		return cmp.Or(rank[a.State]-rank[b.State], a.Since.Compare(b.Since), cmp.Compare(a.TTY, b.TTY))
	})
	return ss, notes, err
}

// session is a record as Session, each control byte in its text escaped
// ("\x1b"): a record is a file anyone of the user's could write, and what
// ls, jump and watch say of it reaches a terminal.
func session(r writer.Record) Session {
	f := map[string]string{}
	for k, v := range r.Fields {
		if q := strconv.Quote(v); strings.ContainsFunc(v, unicode.IsControl) {
			v = q[1 : len(q)-1]
		}
		f[k] = v
	}
	s := Session{Agent: f["agent"], State: State(f["state"]), Since: r.Since, Folder: f["folder"], TTY: f["tty"], Mux: f["mux"], Pane: f["pane"],
		Server: f["server"], SSH: f["ssh"] == "1"}
	s.PID, _ = strconv.Atoi(f["pid"])
	a, _ := adapters.Lookup(s.Agent)
	s.Unsure = a.Unsure(s.State)
	return s
}

// EndSession removes the record of the agent session in terminal tty (its
// pty: /dev/pts/3), which the shell's prompt ends, and returns it; false
// when there is none.
func (in *Installer) EndSession(tty string) (Session, bool) {
	r, ok := writer.TakeRecord(filepath.Join(in.SessionsDir(), terminal.RecordPrefix+filepath.Base(tty)))
	return session(r), ok && in.SessionsDir() != ""
}

// SessionsDir is the folder of the records Sessions reads, "" when no
// folder can be named (no $XDG_RUNTIME_DIR, $USER nor $LOGNAME).
func (in *Installer) SessionsDir() string { return terminal.RecordDir(in.ns, in.getenv) }

// PrepareSessions makes SessionsDir the user's private folder, as init,
// run, watch and doctor set terminal mode up (the hooks only check it, with
// builtins): created 0700 where it is missing, group's and others' write
// taken off where the user owns it, which fixed says. A symlink or another
// user's folder is an error: the hooks then keep no record there.
func (in *Installer) PrepareSessions() (dir, fixed string, err error) {
	if dir = in.SessionsDir(); dir == "" {
		return "", "", errors.New("no folder for the records: $XDG_RUNTIME_DIR, $USER and $LOGNAME are all unset")
	}
	fixed, err = writer.PrepareRecordDir(dir)
	return dir, fixed, err
}
