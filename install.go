package hookinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

// A Change is one file that an install or removal creates, modifies or
// deletes: its Path on disk, its Kind ("config", "script", "manifest",
// "backup" or "trust"), the Action ("create", "modify" or "delete") and,
// on a dry run only, a unified Diff of the file.
type Change = writer.Change

// A Result says what an install or a removal did for one agent.
type Result struct {
	Agent     string   `json:"agent"`
	Namespace string   `json:"namespace"`
	Base      string   `json:"base,omitempty"` // for a clone, the agent it was made from
	Status    Status   `json:"status"`
	Config    string   `json:"config,omitempty"` // the agent's config file, on disk
	Changes   []Change `json:"changes"`
	// Notes are warnings the user should read: a user's entry whose trust
	// may need review, entries left alone because they were edited, ...
	Notes []string `json:"notes"`
	// Hint, after a fresh install, is what the user must still do before
	// the hooks run (Codex: trust them in /hooks); after a removal that
	// could not read a file, what is left and how to finish; or "".
	Hint string `json:"hint,omitempty"`
	// Err is this agent's failure (Status is StatusFailed or
	// StatusDisabled), or nil.
	Err error `json:"-"`
	// HooksDir is the install's hooks dir, on disk (a removal's names
	// what it left there).
	HooksDir string `json:"-"`
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
	// Linked writes through a symlink that leads into a git repository
	// (dotfiles managed by GNU stow, chezmoi's symlink mode, ...): the
	// config gains this machine's paths there, and an agent folder linked
	// there gets our scripts too. Without it such an install is refused,
	// saying where the link leads.
	Linked bool
	// Print, for a config the user's own tool writes (home-manager), writes
	// the scripts and manifest but not the config (Status "printed"): the
	// Change whose Action is "merge" holds, as its Diff, the config our
	// entries alone make, for the user to merge into theirs. Remove then
	// leaves the config to them.
	Print bool
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
// no-op; an older install is upgraded in place. The Result's Err says
// whether it failed: ErrUnknownAgent, ErrHooksOff, ErrAgentVersion,
// ErrTrustVersion, a *FileError, ctx's.
func (in *Installer) Install(ctx context.Context, agent string, o InstallOptions) *Result {
	t, err := in.target(agent, o.Base)
	if err != nil {
		return in.failed(agent, err)
	}
	return in.install(ctx, t, o)
}

// InstallAll installs the hooks of every agent detected on this machine,
// and returns one Result per agent picked (none when none is detected);
// Agents says why each other agent was skipped (Agent.Skip). One agent's
// failure does not stop the others; the error joins every agent's.
func (in *Installer) InstallAll(ctx context.Context, o InstallOptions) ([]*Result, error) {
	if o.Base != "" {
		return nil, errors.New("hookinstall: InstallAll makes no clones (InstallOptions.Base is set)")
	}
	ts, err := in.pick(func(t adapters.Target) bool { return writer.Detected(t, in.getenv) })
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
// (StatusPartlyRemoved) unless Force. The Result's Err says whether it
// failed.
func (in *Installer) Remove(ctx context.Context, agent string, o RemoveOptions) *Result {
	t, err := in.target(agent, o.Base)
	if err != nil {
		return in.failed(agent, err)
	}
	return in.remove(ctx, t, o)
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
	if err := ctxErr(ctx); err != nil {
		r := in.failed(t.ID, err)
		r.Base, r.Config = baseOf(t), t.Adapter.File(t)
		return r
	}
	// The writer asks the agent's program its version (the gate: ErrAgentVersion)
	// and, with Trust, the trust it expects, and checks it afterwards
	// (ErrTrustVersion): no caller of the writer can skip either.
	rep := in.writer(writer.Options{DryRun: o.DryRun, Force: o.Force, Trust: o.Trust, Linked: o.Linked, Print: o.Print}).Add(ctx, t)
	r := in.result(t, rep)
	if rep.Next != "" {
		r.Hint = t.ID + ": " + rep.Next
	}
	return r
}

func (in *Installer) remove(ctx context.Context, t adapters.Target, o RemoveOptions) *Result {
	if err := ctxErr(ctx); err != nil {
		r := in.failed(t.ID, err)
		r.Base, r.Config = baseOf(t), t.Adapter.File(t)
		return r
	}
	// the writer takes the home the install recorded (writer.Recorded)
	r := in.result(t, in.writer(writer.Options{DryRun: o.DryRun, Force: o.Force}).Remove(ctx, t))
	r.HooksDir = t.HooksDir()
	var fe *FileError
	if errors.As(r.Err, &fe) && !fe.Written {
		// nothing was written: the file may still hold our entries (it
		// could not be read to say), and the scripts stay where it may
		// point at them
		if _, err := os.Lstat(r.HooksDir); errors.Is(err, fs.ErrNotExist) {
			r.Hint = fmt.Sprintf("nothing was removed: %s may still hold hookinstall's entries, but hookinstall cannot read it; fix %s, then run '%s' again",
				fe.Path, fe.Path, t.Command("remove"))
		} else {
			r.Hint = fmt.Sprintf("nothing was removed: hookinstall cannot read %s, which may still hold its entries, so the scripts in %s stay in place (the file may point at them); fix %s, then run '%s' again",
				fe.Path, r.HooksDir, fe.Path, t.Command("remove"))
		}
	}
	return r
}

// failed is the Result of a call that failed before the writer ran.
func (in *Installer) failed(agent string, err error) *Result {
	return &Result{Agent: agent, Namespace: in.ns, Status: StatusFailed, Changes: []Change{}, Notes: []string{}, Err: err}
}

// result turns the writer's report on t into a Result.
func (in *Installer) result(t adapters.Target, rep writer.Report) *Result {
	return &Result{Agent: rep.Agent, Namespace: in.ns, Base: baseOf(t), Status: rep.Status, Config: rep.Config,
		Changes: append([]Change{}, rep.Changes...), Notes: append([]string{}, rep.Notes...), Err: apiError(rep.Err)}
}

// baseOf is the agent a clone t was made from, "" for an agent's own.
func baseOf(t adapters.Target) string {
	if t.ID != t.Adapter.ID {
		return t.Adapter.ID
	}
	return ""
}
