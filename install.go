package hookinstall

import (
	"context"
	"errors"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

// An Outcome says what an install or a removal did for one agent.
type Outcome string

// The outcomes.
const (
	OutcomeInstalled     Outcome = "installed"      // files were written
	OutcomeUnchanged     Outcome = "unchanged"      // already installed: nothing written
	OutcomeWouldInstall  Outcome = "would-install"  // dry run: Changes say what an install writes
	OutcomeRemoved       Outcome = "removed"        // every trace of ours is gone
	OutcomePartlyRemoved Outcome = "partly-removed" // gone, except entries edited by hand (see Notes)
	OutcomeWouldRemove   Outcome = "would-remove"   // dry run: Changes say what a removal writes
	OutcomeNotInstalled  Outcome = "not-installed"  // nothing to remove
	OutcomeDisabled      Outcome = "disabled"       // the agent's hooks are off: nothing written (ErrHooksOff)
	OutcomeFailed        Outcome = "error"          // see Result.Err
)

// A Change is one file that an install or removal creates, modifies or
// deletes.
type Change struct {
	Path   string // on disk
	Kind   string // "config", "script", "manifest", "backup" or "trust"
	Action string // "create", "modify" or "delete"
	Diff   string // dry run only: a unified diff of the file
}

// A Result says what an install or a removal did for one agent.
type Result struct {
	Agent   string
	Outcome Outcome
	Config  string // the agent's config file, on disk
	Changes []Change
	// Notes are warnings the user should read: a user's entry whose trust
	// may need review, entries left alone because they were edited, ...
	Notes []string
	// Hint, after a fresh install, is what the user must still do before
	// the hooks run (Codex: trust them in /hooks), or "".
	Hint string
	// Err is the error the call returned for this agent, or nil.
	Err error
	// Namespace and HooksDir say which install a removal's Result is of;
	// RemoveAll sets Base for a clone's (its base agent).
	Namespace, Base, HooksDir string
}

// InstallOptions change how Install works.
type InstallOptions struct {
	// DryRun computes the changes, with a diff of each file, and writes
	// nothing.
	DryRun bool
	// Force replaces our entries even where they were edited by hand.
	Force bool
	// Trust also records the user's trust for our hooks in the agent's
	// own file (Codex), so they run without review. The agent's program is
	// asked which trust hashes it expects, and again once they are written
	// whether it trusts our hooks; nothing is written, or everything is put
	// back, when it cannot say or does not (ErrTrustVersion).
	Trust bool
	// Base makes agent a new clone of the agent Base names: its own
	// directory and manifest, Base's config shape and events.
	Base string
}

// RemoveOptions change how Remove works.
type RemoveOptions struct {
	DryRun bool // compute the changes, with a diff of each file; write nothing
	Force  bool // also remove our entries that were edited by hand
	// Base names the agent that agent, a clone, was made from. With ""
	// Remove finds it in the clone's manifest; give it when that manifest
	// is gone. RemoveAll takes none.
	Base string
}

// Install installs agent's hooks: its scripts, our entries in its config,
// a backup of the config as it was and a manifest. Installing again is a
// no-op; an older install is upgraded in place. The Result is filled in
// even when the error is not nil. Errors: ErrUnknownAgent, ErrHooksOff,
// ErrTrustVersion, a *FileError, ctx's.
func (in *Installer) Install(ctx context.Context, agent string, o InstallOptions) (*Result, error) {
	t, err := in.target(agent, o.Base)
	if err != nil {
		return &Result{Agent: agent, Outcome: OutcomeFailed, Err: err}, err
	}
	r := in.install(ctx, t, o)
	return r, r.Err
}

// InstallAll installs the hooks of every agent detected on this machine,
// except those that install only by name (Agent.ByNameOnly), and returns
// one Result per agent picked (none when none is detected); Agents says
// why each other agent was skipped (Agent.Skip). One agent's
// failure does not stop the others; the error joins every agent's.
func (in *Installer) InstallAll(ctx context.Context, o InstallOptions) ([]*Result, error) {
	if o.Base != "" {
		return nil, errors.New("hookinstall: InstallAll makes no clones (InstallOptions.Base is set)")
	}
	ts, err := in.pick(func(t adapters.Target) bool {
		return skipReason(t, in.writer(writer.Options{}).Detected(t)) == ""
	})
	if err != nil {
		return nil, err
	}
	var rs []*Result
	for _, t := range ts {
		rs = append(rs, in.install(ctx, t, o))
	}
	return rs, joinErrs(rs)
}

// Remove takes agent's hooks out. When the config still holds exactly what
// the install wrote, the backed-up original comes back byte for byte;
// otherwise only our entries go. Entries edited by hand are left alone
// (OutcomePartlyRemoved) unless Force. The Result is filled in even when
// the error is not nil.
func (in *Installer) Remove(ctx context.Context, agent string, o RemoveOptions) (*Result, error) {
	t, err := in.target(agent, o.Base)
	if err != nil {
		return &Result{Agent: agent, Outcome: OutcomeFailed, Err: err}, err
	}
	r := in.remove(ctx, t, o)
	return r, r.Err
}

// pick resolves every known agent and keeps those ok accepts.
func (in *Installer) pick(ok func(adapters.Target) bool) ([]adapters.Target, error) {
	var ts []adapters.Target
	for _, name := range adapters.Names() {
		t, err := in.target(name, "")
		if err != nil {
			return nil, err
		}
		if ok(t) {
			ts = append(ts, t)
		}
	}
	return ts, nil
}

func joinErrs(rs []*Result) error {
	var errs []error
	for _, r := range rs {
		errs = append(errs, r.Err)
	}
	return errors.Join(errs...)
}

func (in *Installer) install(ctx context.Context, t adapters.Target, o InstallOptions) *Result {
	fail := func(err error) *Result {
		return &Result{Agent: t.ID, Config: t.Adapter.Config(t), Outcome: OutcomeFailed, Err: err}
	}
	if err := ctxErr(ctx); err != nil {
		return fail(err)
	}
	// The agent's program on PATH says its version: a version below the
	// measured range gets only what it understands, or nothing (exit 3).
	g, notes, err := in.gate(ctx, t)
	if err != nil {
		return fail(err)
	}
	t.Gate = g
	// With Trust, the writer asks the agent's program for the trust it
	// expects, and checks it afterwards (ErrTrustVersion): no caller of the
	// writer can skip it.
	w := in.writer(writer.Options{DryRun: o.DryRun, Force: o.Force, Trust: o.Trust})
	rep := w.Add(ctx, t)
	r := result(rep)
	if rep.Err == nil { // what the version gate left out, only of an install that stands
		r.Notes = append(notes, r.Notes...)
	}
	if rep.Next != "" {
		r.Hint = t.ID + ": " + rep.Next
	}
	return r
}

func (in *Installer) remove(ctx context.Context, t adapters.Target, o RemoveOptions) *Result {
	if err := ctxErr(ctx); err != nil {
		return &Result{Agent: t.ID, Config: t.Adapter.Config(t), Outcome: OutcomeFailed, Err: err}
	}
	// the writer takes the home the install recorded (writer.Recorded)
	r := result(in.writer(writer.Options{DryRun: o.DryRun, Force: o.Force}).Remove(ctx, t))
	r.Namespace, r.HooksDir = in.ns, t.HooksDir()
	return r
}

// result turns the writer's report into a Result.
func result(rep writer.Report) *Result {
	r := &Result{Agent: rep.Agent, Outcome: Outcome(rep.Status), Config: rep.Config, Notes: rep.Notes, Err: apiError(rep.Err)}
	for _, c := range rep.Changes {
		r.Changes = append(r.Changes, Change{Path: c.Path, Kind: c.Kind, Action: c.Action, Diff: c.Diff})
	}
	return r
}
