package writer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
)

// Options change how a Writer works. They are fixed when New makes it.
type Options struct {
	DryRun  bool // plan and report, write nothing
	Force   bool // replace or remove our entries even where they were edited by hand
	Trust   bool // also record the user's trust for our hooks where the agent keys it (codex)
	Linked  bool // write through a symlink that leads into a git repository (dotfiles)
	Print   bool // add: write the scripts and manifest, not the config; report its entries (Change "merge")
	Version string
	Now     func() time.Time
	// Getenv gives the PATH that agents' binaries are looked up on and run
	// with (with Trust, `codex --version` is asked there, never faked); nil
	// means os.Getenv.
	Getenv func(string) string
	// Versions holds what agents' programs said to --version in this run
	// (an Installer's); nil asks afresh.
	Versions *agentexec.Versions
}

// A Writer applies adapters' plans to disk. It is the only code that does.
type Writer struct {
	o Options
	// version asks an agent's program on Getenv's PATH its version. Only
	// tests replace it (export_test.go): no importer can fake a version.
	version func(ctx context.Context, name string) agentexec.Version
	// wrap, when set, wraps the real system of every run (tests: the fault
	// system of export_test.go).
	wrap func(system) system
}

// New returns a Writer with defaults filled in.
func New(o Options) *Writer {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	o.Version = cmp.Or(o.Version, "dev")
	o.Versions = cmp.Or(o.Versions, &agentexec.Versions{})
	return &Writer{o: o, version: func(ctx context.Context, name string) agentexec.Version {
		return o.Versions.Ask(ctx, o.Getenv, name)
	}}
}

// system is the system a run writes through.
func (w *Writer) system() system {
	if w.wrap != nil {
		return w.wrap(realSystem{})
	}
	return realSystem{}
}

// A Change is one file that a run creates, modifies or deletes.
type Change struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`   // config, trust, script, manifest, backup
	Action string `json:"action"` // create, modify, delete
	Diff   string `json:"diff,omitempty"`
}

// A Report says what a run did for one agent.
type Report struct {
	Agent   string
	Status  adapters.Status
	Config  string
	Changes []Change
	Notes   []string
	// Next says what the user must do before the hooks run (trust them in
	// the agent), after an install that wrote something.
	Next string
	Err  error
}

// failed is r with err as its outcome.
func (r Report) failed(err error) Report {
	r.Err, r.Status = err, adapters.StatusFailed
	if Off(err) {
		r.Status = adapters.StatusDisabled
	}
	return r
}

// An Error is a failure for one agent. Nothing was written unless Written.
// File is the file at fault, "" when the failure is not about one file (the
// agent's hooks are switched off, its version is not the one trust is exact
// for).
type Error struct {
	Agent   string
	File    string
	Err     error
	Written bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Agent)
	if e.File != "" {
		b.WriteString(": " + e.File)
	}
	b.WriteString(": " + e.Err.Error())
	if !e.Written {
		b.WriteString(", file not modified")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Off reports whether err says an agent's hooks are switched off.
func Off(err error) bool {
	var off *adapters.OffError
	return errors.As(err, &off)
}

var errRaced = errors.New("config changed while hookinstall was writing it")

// maxAttempts bounds the re-read-and-retry loop against agents that rewrite
// their config without taking our lock.
const maxAttempts = 20

// retryRaced runs step again, from a fresh read, while it reports that the
// agent rewrote file between our read and our rename; at most maxAttempts
// times. When it gives up, file itself was not modified.
func retryRaced(t adapters.Target, file string, step func() error) error {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if err := step(); !errors.Is(err, errRaced) {
			return err
		}
	}
	return &Error{Agent: t.ID, File: file, Err: fmt.Errorf("%w %d times in a row; try again", errRaced, maxAttempts)}
}

func (w *Writer) rel(t adapters.Target, p string) string {
	if r, err := filepath.Rel(t.Home, p); err == nil {
		return r
	}
	return p
}

// fail is err as an *Error of t's, naming file unless err names its own
// (an *adapters.FileError) or is about no file at all.
func (w *Writer) fail(t adapters.Target, file string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var fe *adapters.FileError
	if errors.As(err, &fe) {
		return &Error{Agent: t.ID, File: fe.File, Err: adapters.Explain(t, fe.File, fe.Err)}
	}
	err = adapters.Explain(t, file, err)
	var off *adapters.OffError
	if errors.As(err, &off) || errors.Is(err, adapters.ErrTrustVersion) || errors.Is(err, adapters.ErrTrustUnsupported) {
		return &Error{Agent: t.ID, Err: err}
	}
	return &Error{Agent: t.ID, File: file, Err: err}
}
