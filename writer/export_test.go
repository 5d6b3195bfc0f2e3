package writer

import (
	"context"
	"io/fs"
	"path/filepath"

	"github.com/hookinstall/hookinstall/internal/agentexec"
)

// WithFault returns w writing through a fault system: fault is called
// before each call of the system with "before <call>" and after it with
// "after <call>" (see faultSystem.name); an error before stops the call
// undone, an error after is returned once the call is done (as when a
// process dies right after it).
func WithFault(w *Writer, fault func(call string) error) *Writer {
	if fault != nil {
		w.wrap = func(s system) system { return faultSystem{sys: s, fault: fault} }
	}
	return w
}

// WithProbe returns w asking an agent's binary its version through
// lookPath and ask, and finding no other program (its PATH is empty): only
// tests fake a version.
func WithProbe(w *Writer, lookPath func(string) (string, error), ask func(context.Context, string, ...string) ([]byte, error)) *Writer {
	w.version = func(ctx context.Context, name string) agentexec.Version {
		path, err := lookPath(name)
		if err != nil {
			return agentexec.Version{Err: err}
		}
		out, err := ask(ctx, path, "--version")
		return agentexec.Version{Path: path, Out: string(out), Err: err}
	}
	getenv := w.o.Getenv
	w.o.Getenv = func(k string) string {
		if k == "PATH" {
			return ""
		}
		return getenv(k)
	}
	return w
}

// faultSystem is a system that fails where fault says (crash_test.go).
type faultSystem struct {
	sys   system
	fault func(string) error
}

// name is how a call is named to fault: the method and the kind of file
// (config, trust, script, manifest, backup), or the file's name, quoted,
// for the others (a folder, the lock file, a stray).
func name(method, path string, o op) string {
	if o.kind != "" {
		return method + " " + o.kind
	}
	return method + " '" + filepath.Base(path) + "'"
}

func (f faultSystem) do(call string, act func() error) error {
	if err := f.fault("before " + call); err != nil {
		return err
	}
	if err := act(); err != nil {
		return err
	}
	return f.fault("after " + call)
}

func (f faultSystem) WriteFile(path string, data []byte, o op) error {
	return f.do(name("write", path, o), func() error { return f.sys.WriteFile(path, data, o) })
}

func (f faultSystem) Link(oldname, newname string, o op) error {
	return f.do(name("link", newname, o), func() error { return f.sys.Link(oldname, newname, o) })
}

func (f faultSystem) Rename(oldname, newname string, o op) error {
	return f.do(name("rename", newname, o), func() error { return f.sys.Rename(oldname, newname, o) })
}

func (f faultSystem) Remove(path string, o op) error {
	return f.do(name("remove", path, o), func() error { return f.sys.Remove(path, o) })
}

func (f faultSystem) Mkdir(path string) error {
	return f.do(name("mkdir", path, op{}), func() error { return f.sys.Mkdir(path) })
}

func (f faultSystem) Chmod(path string, mode fs.FileMode) error {
	return f.do(name("chmod", path, op{}), func() error { return f.sys.Chmod(path, mode) })
}

func (f faultSystem) Lock(ctx context.Context, path string) (heldLock, error) {
	var l heldLock
	err := f.do("lock", func() (err error) {
		l, err = f.sys.Lock(ctx, path)
		return err
	})
	if err != nil && l != nil {
		l.Close() // failed after taking it: as a process that dies, it holds it no more
		return nil, err
	}
	return l, err
}

func (f faultSystem) Rewrite(path string, data []byte) error {
	return f.do(name("rewrite", path, op{}), func() error { return f.sys.Rewrite(path, data) })
}
