package hookinstall

import (
	"errors"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/writer"
)

// Errors that calls return wrapped, for errors.Is. The message of the
// wrapping error says more (which agent, which file, what to do).
var (
	// ErrHooksOff says that an agent's own settings switch its hooks off
	// (Claude's disableAllHooks, Codex's [features] hooks = false, ...):
	// an install would never fire, so nothing was written.
	ErrHooksOff = errors.New("the agent's hooks are switched off")
	// ErrTrustVersion says that trust was asked for an agent whose own
	// program could not say which trust records it expects (not on PATH,
	// or a release without that question, such as Codex before 0.129.0)
	// and is not the release whose records hookinstall computes itself, or
	// did not report our hooks trusted once they were written (then the
	// install was undone): nothing was written.
	ErrTrustVersion = adapters.ErrTrustVersion
	// ErrAgentVersion says that the agent's program on PATH is a version
	// for which hookinstall can write nothing useful and safe (measured: its
	// hooks would report nothing, or it would reject the config): nothing
	// was written. The error says which program said which version, and
	// why; the command line exits 3.
	ErrAgentVersion = adapters.ErrAgentVersion
	// ErrUnknownAgent says that a name is no agent hookinstall knows, nor
	// a valid clone of one.
	ErrUnknownAgent = errors.New("unknown agent")
)

// A FileError is a failure to use one agent's file: it cannot be read or
// parsed (then Line, Column and Offset say where), or written.
type FileError struct {
	Agent  string // the agent's name
	Path   string // the file, on disk
	Line   int    // 1-based line of the fault, 0 when not known
	Column int    // 1-based column, 0 when not known
	Offset int64  // byte offset of the fault, -1 when not known
	// Written reports that files were changed before the failure; when
	// false, nothing was written for this agent.
	Written bool
	Err     error
}

// Error reads as the writer's error it was made from.
func (e *FileError) Error() string {
	return (&writer.Error{Agent: e.Agent, File: e.Path, Err: e.Err, Written: e.Written}).Error()
}

func (e *FileError) Unwrap() error { return e.Err }

// An OptionError says that an Options field holds a value New cannot use.
type OptionError struct {
	Option string // the field: "Namespace", "Home" or "AsHome"
	Err    error
}

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// homeError is a home New refuses: its message, and what it is (nil for a
// path that is not absolute, fs.ErrNotExist, syscall.ENOTDIR) for
// errors.Is.
type homeError struct {
	msg  string
	kind error
}

func (e *homeError) Error() string { return e.msg }
func (e *homeError) Unwrap() error { return e.kind }

// tagged is err, also matching tag for errors.Is, with err's message.
type tagged struct{ err, tag error }

func (e *tagged) Error() string   { return e.err.Error() }
func (e *tagged) Unwrap() []error { return []error{e.err, e.tag} }

func tag(err, sentinel error) error { return &tagged{err, sentinel} }

// apiError turns an engine error into this package's: a *FileError for a
// file, tagged with ErrHooksOff when the agent's hooks are off.
func apiError(err error) error {
	if err == nil {
		return nil
	}
	if writer.Off(err) {
		return tag(err, ErrHooksOff)
	}
	var we *writer.Error
	if !errors.As(err, &we) || we.File == "" {
		return err
	}
	fe := &FileError{Agent: we.Agent, Path: we.File, Offset: -1, Written: we.Written, Err: we.Err}
	var se *jsonedit.SyntaxError
	if errors.As(we.Err, &se) && se.Offset >= 0 {
		fe.Line, fe.Column, fe.Offset = se.Line, se.Col, se.Offset
	}
	return fe
}
