package hookinstall

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/writer"
)

// A Session is one agent session on this machine, as its hooks record it
// where `hookinstall init` or `run` set them up (terminal mode; a host's
// hooks record nothing: the host holds the state): the agent, its state
// and since when, the project folder (as notifications name it), where it
// runs, and its process. No prompt text, nothing of a payload.
type Session struct {
	Agent  string    `json:"agent"`
	State  State     `json:"state"`
	Since  time.Time `json:"since"`
	Folder string    `json:"folder"`
	TTY    string    `json:"tty"`
	Pane   string    `json:"tmux_pane,omitempty"` // its tmux pane ("%3"), inside tmux
	SSH    bool      `json:"ssh"`                 // reached over ssh
	PID    int       `json:"pid"`
}

// Sessions lists the agent sessions on this machine, from the records in
// the user's runtime folder (<NS> in $XDG_RUNTIME_DIR, else <NS>-<user> in
// $TMPDIR or /tmp): those waiting for the user first, the longest waiting
// first, then working, interrupted and done, each oldest first. A session
// whose agent's process is gone is dropped, and its record removed; a file
// that is not a record is skipped, and a note says so. A folder another
// user owns, or others may write to, is an error.
func (in *Installer) Sessions() ([]Session, []string, error) {
	dir := terminal.RecordDir(in.ns, in.getenv)
	if dir == "" {
		return nil, nil, nil
	}
	recs, notes, err := writer.Records(dir)
	var ss []Session
	for _, r := range recs {
		f := r.Fields
		s := Session{Agent: f["agent"], State: State(f["state"]), Since: r.Since, Folder: f["folder"], TTY: f["tty"], Pane: f["pane"], SSH: f["ssh"] == "1"}
		s.PID, _ = strconv.Atoi(f["pid"])
		ss = append(ss, s)
	}
	rank := map[State]int{Attention: 0, Working: 1, Interrupted: 2, Done: 3}
	slices.SortStableFunc(ss, func(a, b Session) int {
		return cmp.Or(rank[a.State]-rank[b.State], a.Since.Compare(b.Since), cmp.Compare(a.TTY, b.TTY))
	})
	return ss, notes, err
}
