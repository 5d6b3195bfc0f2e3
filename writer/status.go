package writer

import (
	"bytes"
	"errors"
	"io/fs"
	"os"

	"github.com/hookinstall/hookinstall/adapters"
)

// Statuses that Status reports.
const (
	StatusInstalled    = "installed"
	StatusNotInstalled = "not-installed"
	StatusDisabled     = "disabled"
	StatusDrifted      = "drifted"
	StatusUntrusted    = "untrusted"
	StatusNotDetected  = "not-detected"
	StatusNotNeeded    = "not-needed"
	StatusError        = "error"
)

// A State is the one-word verdict on one agent, with the reasons.
type State struct {
	Agent   string   `json:"agent"`
	Status  string   `json:"status"`
	Config  string   `json:"config"`
	Reasons []string `json:"reasons,omitempty"`
	Err     error    `json:"-"`
}

// Detected reports whether the agent looks installed on this machine: its
// config dir exists, or one of its programs is on PATH.
func (w *Writer) Detected(t adapters.Target) bool {
	if fi, err := os.Stat(t.Dir); err == nil && fi.IsDir() {
		return true
	}
	for _, b := range t.Adapter.Binaries() {
		if _, err := w.LookPath(b); err == nil {
			return true
		}
	}
	return false
}

// Installed reports whether any trace of an install of t is on disk: our
// entries in its config, or its hooks dir.
func (w *Writer) Installed(t adapters.Target) bool {
	if _, err := os.Lstat(t.HooksDir()); err == nil {
		return true
	}
	return w.hasOurs(t)
}

// Status says what state t's hooks are in.
func (w *Writer) Status(t adapters.Target) State {
	s := State{Agent: t.ID, Config: t.Adapter.Config(t)}
	_, dirErr := os.Lstat(t.HooksDir())
	ours := w.hasOurs(t)
	if !ours && errors.Is(dirErr, fs.ErrNotExist) {
		switch {
		case t.Adapter.ByNameOnly():
			s.Status = StatusNotNeeded
			s.Reasons = append(s.Reasons, "its terminal already reports these states")
		case w.Detected(t):
			s.Status = StatusNotInstalled
		default:
			s.Status = StatusNotDetected
		}
		return s
	}
	p, err := w.planAdd(t)
	if err != nil {
		if Off(err) && ours {
			s.Status = StatusDisabled
			s.Reasons = append(s.Reasons, err.Error())
			return s
		}
		s.Status, s.Err = StatusError, err
		s.Reasons = append(s.Reasons, err.Error())
		return s
	}
	if !ours {
		s.Status = StatusDrifted
		s.Reasons = append(s.Reasons, "our entries are missing from "+s.Config)
		return s
	}
	for _, c := range w.addChanges(p, false) {
		switch c.Kind {
		case "config":
			s.Reasons = append(s.Reasons, "our entries in "+c.Path+" are not as hookinstall writes them")
		case "script":
			s.Reasons = append(s.Reasons, "script "+c.Path+" is missing or changed")
		case "manifest":
			s.Reasons = append(s.Reasons, "manifest "+c.Path+" is missing or out of date")
		}
	}
	s.Reasons = append(s.Reasons, p.edit.Notes...)
	if len(s.Reasons) > 0 {
		s.Status = StatusDrifted
		return s
	}
	s.Status = StatusInstalled
	return s
}

var _ = bytes.Equal
