package writer

import (
	"errors"
	"os"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
)

// Installed reports whether any trace of an install of t is on disk: our
// entries in a file it reads (adapters.Agent.Holds), or its hooks dir. It is
// the one answer: remove, status and doctor ask it.
func Installed(t adapters.Target) bool {
	if _, err := os.Lstat(t.HooksDir()); err == nil {
		return true
	}
	return hasOurs(t)
}

// CheckPrivateDir returns an error, saying why and how to fix it, when dir
// is a symlink, not a directory, writable by group or others, or owned by
// another user: anyone who can write there can run code in the agent.
func CheckPrivateDir(dir string) error { return checkPrivateDir(dir) }

// Refusal returns the error an add of t (without trust) would stop at for
// a fault of one of the files it reads (a config that is not valid JSON, a
// folder where the file should be, ...), as a *Error naming the file, or
// nil when add would get past them. It reads t's files, runs no program
// and writes nothing: status says with it why a detected agent with
// nothing of ours installed cannot have it installed as things stand.
func (w *Writer) Refusal(t adapters.Target) error {
	_, err := w.planAdd(t, adapters.Probe{}, nil)
	var we *Error
	if errors.As(err, &we) && we.File != "" && !we.Written && !Off(err) {
		return err
	}
	return nil
}

// Detected reports whether t's agent looks installed on this machine: a
// path of DetectPaths exists (its config dir, for most), or one of its
// programs is on getenv's PATH.
func Detected(t adapters.Target, getenv func(string) string) bool {
	for _, p := range adapters.DetectPaths(t) {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	for _, b := range t.Adapter.Programs {
		if _, err := agentexec.LookPath(getenv, b); err == nil {
			return true
		}
	}
	return false
}

// ListDir names the files (not folders) of folder dir, in name order (none when
// it cannot be read): adapters.Options.ListDir, for the drop-in folders of
// agents' system settings.
func ListDir(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
