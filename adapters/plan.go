package adapters

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/scripts"
)

// A Role says what a file of a plan is to the agent.
type Role string

const (
	// RoleConfig is the hook config that holds our entries.
	RoleConfig Role = "config"
	// RoleTrust is the agent's record of the user's trust in hooks
	// (Codex's config.toml [hooks.state] tables).
	RoleTrust Role = "trust"
)

// A Probe is what only I/O can tell a plan. The writer gathers it, before
// it plans, so no caller can skip it.
type Probe struct {
	// VersionOut is what TrustWrite.Program printed for --version, asked only
	// when PlanInput.Trust is set; VersionErr says why it could not be asked.
	// Binary is the path of the binary run, "" when it is not on PATH.
	Binary     string
	VersionOut string
	VersionErr error
	// RealDir is the agent's config dir with its symlinks resolved, ""
	// when it could not be resolved (it does not exist yet).
	RealDir string
	// Reply is the binary's reply to the agent's TrustQuery, nil when it
	// asked nothing.
	Reply *Reply
}

// A PlanInput is everything a plan is computed from: the files of Reads(t),
// read under the lock, and what the manifest says about them.
type PlanInput struct {
	Files   map[string][]byte  // every file of Reads(t) that exists, by path
	Records map[string]*Record // what the last install wrote into each file, by path
	// Restore holds, by path, the edit that gives a file back exactly as
	// it was before the install: its backup, or deletion of a file the
	// install created. The writer offers it for each file that still holds
	// exactly what the install wrote; a remove plan takes it as that
	// file's edit, and looks no further into the file.
	Restore map[string]Edit
	Force   bool // replace or remove our entries even where edited by hand
	Trust   bool // record the user's trust for our hooks (codex)
	Probe   Probe
}

// A FileEdit is the planned new content of one file of a plan.
type FileEdit struct {
	Path string
	Role Role
	Edit
}

// A Plan is what an add or a remove does to one agent's files. The writer
// applies it as one transaction: under one lock, with one manifest write,
// each file backed up once and re-read just before it is replaced.
type Plan struct {
	Edits   []FileEdit // applied in this order; the config first
	Scripts []Script   // add: the hook scripts to install; remove: those it deletes (no Content)
	Notes   []string   // what the user should read
	// Next says what the user must do before the hooks run (trust them in
	// the agent), "" when nothing.
	Next string
	// Verify, when set, is asked of the agent's binary once the plan is
	// written; its fault rolls the plan back.
	Verify *Verify
}

// Kept reports whether an entry of ours is still in a file after a remove
// (edited by hand, so left alone): the scripts it runs must stay.
func (p Plan) Kept() bool {
	for _, e := range p.Edits {
		if e.Kept {
			return true
		}
	}
	return false
}

// Reads lists every file t's plans read: the config first, then the others
// the agent reads (Agent.Files: switch files, dead paths, the trust file).
func Reads(t Target) []string {
	return append([]string{t.Adapter.File(t)}, t.Adapter.Files(t)...)
}

// Adopt is jsonedit.Adopt, for the writer: the first install of a file in a
// namespace takes over the containers that other namespaces' installs of it
// created, so that whichever is removed last deletes them.
func Adopt(ed Edit, others []*Record) Edit { return jsonedit.Adopt(ed, others) }

// FileContainer is jsonedit.FileContainer: in a record's containers, the
// file itself, created by another namespace's install.
const FileContainer = jsonedit.FileContainer

// ErrTrustUnsupported is the error of a trust request for an agent whose
// trust records hookinstall does not write.
var ErrTrustUnsupported = errors.New("--trust is not supported for this agent: trust its hooks in the agent")

// A FileError is a plan's failure on one file other than the config.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// PlanAdd plans an install: the edits of every file of Reads(t) it needs,
// from in (the files as read under the lock). It returns an *OffError when
// the agent's hooks are switched off, and refuses in.Trust with
// ErrTrustUnsupported, or ErrTrustVersion when the probed version is not
// the one its trust hash is exact for.
func (a *Agent) PlanAdd(t Target, in PlanInput) (Plan, error) {
	if t.GOOS == "windows" && !a.OnWindows {
		return Plan{}, &OffError{Verdict: fmt.Sprintf("on Windows %s runs its hooks %s, and no hook run there "+
			"is proven to reach the terminal, so hookinstall does not install it (docs/windows.md)", a.Product, cmp.Or(a.WindowsHooks, "with a shell not measured here"))}
	}
	if a.planAdd != nil {
		return a.planAdd(a, t, in)
	}
	if in.Trust {
		if !a.TrustWritable() {
			return Plan{}, ErrTrustUnsupported
		}
		return a.Trust.Write.Add(a, t, in)
	}
	p, err := configAdd(a, t, in)
	if err != nil {
		return p, err
	}
	if a.Trust != nil && a.Trust.Hint != nil {
		p.Next = a.Trust.Hint(t)
	}
	if a.Next != nil && !bytes.Equal(p.Edits[0].Doc, in.Files[a.File(t)]) {
		p.Next = a.Next(t)
	}
	return p, nil
}

// TrustQuery is the question an add with in.Trust puts to the agent's
// binary before it plans (the writer asks it and hands the reply in as
// in.Probe.Reply), or nil.
func (a *Agent) TrustQuery(t Target, in PlanInput) *Query {
	if !in.Trust || !a.TrustWritable() || a.Trust.Write.Query == nil {
		return nil
	}
	return a.Trust.Write.Query(a, t, in)
}

// PlanRemove plans taking our entries out of every file, using in.Restore
// where the writer offers an exact restore: the config, and the trust
// records of our hooks where the agent keeps them (harmless where there are
// none). Its Scripts are the scripts of ours it deletes, by name: one per
// hook, whatever version wrote them, and their runtime.
func (a *Agent) PlanRemove(t Target, in PlanInput) (Plan, error) {
	p, err := a.planRemoveFiles(t, in)
	if _, mod := a.Format.(Module); err == nil && !mod {
		for _, h := range a.Hooks {
			p.Scripts = append(p.Scripts, Script{Event: h.Event, Name: scripts.FileName(h.Event)})
		}
		p.Scripts = append(p.Scripts, Script{Name: scripts.RuntimeName})
	}
	return p, err
}

func (a *Agent) planRemoveFiles(t Target, in PlanInput) (Plan, error) {
	if a.planRemove != nil {
		return a.planRemove(a, t, in)
	}
	p, err := configRemove(a, t, in)
	if err != nil || a.Trust == nil || a.Trust.Drop == nil {
		return p, err
	}
	file := a.Trust.File(t)
	if ed, ok := in.Restore[file]; ok {
		p.Edits = append(p.Edits, FileEdit{Path: file, Role: RoleTrust, Edit: ed})
		return p, nil
	}
	cur, ok := in.Files[file]
	if !ok {
		return p, nil
	}
	doc, err := a.Trust.Drop(t, cur, TrustKeyPath(t, in.Probe.RealDir), in.Records[file])
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v; trust records of our hooks, if any, are left in it", file, err))
		return p, nil
	}
	if !bytes.Equal(doc, cur) {
		p.Edits = append(p.Edits, FileEdit{Path: file, Role: RoleTrust, Edit: Edit{Doc: doc}})
	}
	return p, nil
}

// configAdd plans an install into t's config: the agent's Check (an
// *OffError when its hooks are switched off), the config's edit and the
// scripts.
func configAdd(a *Agent, t Target, in PlanInput) (Plan, error) {
	t.parsed = &jsonedit.Parsed{} // Check and Add parse the config once
	path := a.File(t)
	cur, exists := in.Files[path]
	if exists && jsonedit.IsBlank(cur) && a.RewritesInPlace {
		// Agents (Claude Code) rewrite their config in place, truncating
		// it first: an empty file is most likely one caught mid-write, and
		// replacing it would throw away everything the agent is writing.
		return Plan{}, errors.New("is empty; an agent may be rewriting it right now (Claude Code writes it in place): run add again, and if it stays empty put {} in it or delete it")
	}
	notes, err := a.Check(t, cur, in.Files)
	if err != nil {
		return Plan{}, err
	}
	ed, err := a.Add(t, cur, in.Records[path], in.Force)
	if err != nil {
		return Plan{}, err
	}
	ss, err := a.Scripts(t)
	if err != nil {
		return Plan{}, err
	}
	return Plan{
		Edits:   []FileEdit{{Path: path, Role: RoleConfig, Edit: ed}},
		Scripts: ss,
		Notes:   append(notes, ed.Notes...),
	}, nil
}

// configRemove plans taking our entries out of t's config: the exact
// restore when the writer offers one, else only our entries, and a file
// the install created that holds nothing else is deleted.
func configRemove(a *Agent, t Target, in PlanInput) (Plan, error) {
	t.parsed = &jsonedit.Parsed{} // Check and Remove parse the config once
	path := a.File(t)
	cur, exists := in.Files[path]
	rec := in.Records[path]
	if rec != nil && exists && jsonedit.IsBlank(cur) && a.RewritesInPlace {
		// As in add: most likely caught mid-write by the agent; finding
		// nothing of ours in it and deleting our scripts would leave the
		// agent's entries pointing at nothing.
		return Plan{}, errors.New("is empty; an agent may be rewriting it right now (Claude Code writes it in place): run remove again, and if it stays empty put {} in it or delete it")
	}
	if ed, ok := in.Restore[path]; ok {
		return Plan{Edits: []FileEdit{{Path: path, Role: RoleConfig, Edit: ed}}}, nil
	}
	if !exists {
		return Plan{Edits: []FileEdit{{Path: path, Role: RoleConfig, Edit: Edit{Delete: true}}}}, nil
	}
	// Hooks switched off: removal still works.
	if _, err := a.Check(t, cur, in.Files); err != nil && !errors.As(err, new(*OffError)) {
		return Plan{}, err
	}
	ed, err := a.Remove(t, cur, rec, in.Force)
	if err != nil {
		return Plan{}, err
	}
	if rec.NotUsers() && !ed.Kept && !ed.Delete && a.Format.empty(ed.Doc) {
		ed = Edit{Delete: true, Notes: ed.Notes}
	}
	return Plan{Edits: []FileEdit{{Path: path, Role: RoleConfig, Edit: ed}}, Notes: ed.Notes}, nil
}

// CheckVersion accepts only the probed version of the release whose trust
// hash this package reproduces itself: a wrong hash silently leaves the
// hooks skipped.
func (w *TrustWrite) CheckVersion(pr Probe) *TrustVersionError {
	e := &TrustVersionError{Name: w.Program, Binary: pr.Binary, Want: w.Version, Err: pr.VersionErr}
	if pr.Binary == "" || pr.VersionErr != nil {
		return e
	}
	first, _, _ := strings.Cut(pr.VersionOut, "\n")
	e.Said = strings.TrimSpace(first)
	if ParseVersion(pr.VersionOut) != w.Version {
		return e
	}
	return nil
}

// A TrustVersionError refuses a trust request: the agent's binary is not
// on PATH or could not be asked its version, or could not say which trust
// hashes it expects (Asked: a Codex older than app-server's hooks/list with
// hashes) and is another release than the one whose trust hash hookinstall
// reproduces itself (a wrong hash silently leaves the hooks skipped). It
// matches ErrTrustVersion.
type TrustVersionError struct {
	Name   string // the program: "codex"
	Binary string // its path on PATH; "" when it is not there
	Said   string // the first line it printed; "" when it could not be asked
	Want   string // the version whose hash hookinstall computes itself
	Err    error  // why it could not be asked its version
	Asked  error  // why it could not say which hashes it expects
}

// ErrTrustVersion is what every *TrustVersionError and *TrustCheckError is
// (errors.Is): the agent's binary does not say it will accept the trust
// records hookinstall can write.
var ErrTrustVersion = errors.New("the agent's binary cannot confirm the trust records")

func (e *TrustVersionError) Error() string {
	switch {
	case e.Binary == "":
		return fmt.Sprintf("--trust needs %s on PATH to ask it which trust hashes it expects; trust the hooks in /hooks instead", e.Name)
	case e.Err != nil:
		return fmt.Sprintf("--trust: %s --version failed: %v; nothing written: trust the hooks in /hooks instead", e.Binary, e.Err)
	case e.Asked != nil:
		return fmt.Sprintf("--trust: %s says %q, and %v; hookinstall computes trust hashes itself only for %s; nothing written: trust the hooks in /hooks instead", e.Binary, e.Said, e.Asked, e.Want)
	}
	return fmt.Sprintf("--trust: %s says %q, but hookinstall computes trust hashes exactly only for %s; nothing written: trust the hooks in /hooks instead", e.Binary, e.Said, e.Want)
}

func (e *TrustVersionError) Is(target error) bool { return target == ErrTrustVersion }
func (e *TrustVersionError) Unwrap() error        { return e.Err }

// A TrustCheckError says that the agent's binary, asked once the trust
// records were written, does not report our hooks trusted. The writer then
// puts every file back (Undone), or says why it could not (UndoErr). It
// matches ErrTrustVersion.
type TrustCheckError struct {
	Binary   string
	Problems []string
	Undone   bool
	UndoErr  error
	Remove   string // the command that takes out what is left after UndoErr
}

func (e *TrustCheckError) Error() string {
	msg := fmt.Sprintf("--trust: after writing, %s does not report our hooks trusted (%s)", e.Binary, strings.Join(e.Problems, "; "))
	switch {
	case e.Undone:
		return msg + "; everything was put back as it was: trust the hooks in /hooks instead"
	case e.UndoErr != nil:
		return msg + fmt.Sprintf("; putting the files back stopped: %v; '%s' takes out what is left", e.UndoErr, e.Remove)
	}
	return msg
}

func (e *TrustCheckError) Is(target error) bool { return target == ErrTrustVersion }
