package hookinstall

import (
	"cmp"
	"context"
	"errors"
	"os"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/doctor"
	"github.com/hookinstall/hookinstall/writer"
)

// A Status is the one-word verdict on one agent's install: what Status
// and Doctor find, and what Install and Remove did.
type Status = adapters.Status

// The statuses Status and Doctor report.
const (
	StatusInstalled    = adapters.StatusInstalled    // ours are in place and will run
	StatusNotInstalled = adapters.StatusNotInstalled // the agent is here; nothing of ours is
	StatusDisabled     = adapters.StatusDisabled     // ours are in place; the agent's hooks are off
	StatusDrifted      = adapters.StatusDrifted      // ours are in place but wrong: a script missing or changed, an entry edited, ...
	StatusOutdated     = adapters.StatusOutdated     // ours are as an older hookinstall wrote them; add brings them up to date
	StatusUntrusted    = adapters.StatusUntrusted    // ours are in place; the agent skips them until the user trusts them
	StatusNotDetected  = adapters.StatusNotDetected  // the agent is not on this machine
)

// The statuses of a Result: StatusInstalled (files were written),
// StatusNotInstalled (nothing to remove), StatusDisabled (the agent's hooks
// are off: nothing written, ErrHooksOff), and these.
const (
	StatusUnchanged     = adapters.StatusUnchanged     // already installed: nothing written
	StatusWouldInstall  = adapters.StatusWouldInstall  // dry run: Changes say what an install writes
	StatusPrinted       = adapters.StatusPrinted       // InstallOptions.Print: scripts written; the entries are for the user's own config
	StatusRemoved       = adapters.StatusRemoved       // every trace of ours is gone
	StatusPartlyRemoved = adapters.StatusPartlyRemoved // gone, except entries edited by hand (see Notes)
	StatusWouldRemove   = adapters.StatusWouldRemove   // dry run: Changes say what a removal writes
	StatusFailed        = adapters.StatusFailed        // see Result.Err
)

// An AgentStatus is one agent's status, with the reasons for it.
type AgentStatus struct {
	Agent     string `json:"agent"`
	Namespace string `json:"namespace"`
	Base      string `json:"base,omitempty"` // for a clone, the agent it was made from
	Status    Status `json:"status"`
	Config    string `json:"config"` // the agent's config file, on disk
	// Reasons say why it is not StatusInstalled, one line each. For
	// StatusNotInstalled they name a file add would refuse as it stands
	// (a config that is not valid, a folder where it should be, ...), in
	// the words of add's error: "FILE: FAULT".
	Reasons []string `json:"reasons"`
	// Next is what the user does to make it installed, when that is known:
	// the fix doctor gives for its first failed check that has one.
	Next string `json:"next,omitempty"`
}

// StatusOptions change how Status works.
type StatusOptions struct {
	Base string // for a clone: the agent it was made from ("" finds it by its manifest)
}

// Status says whether agent's hooks will run, from doctor's checks,
// without running anything.
func (in *Installer) Status(ctx context.Context, agent string, o StatusOptions) (*AgentStatus, error) {
	if err := ctxErr(ctx); err != nil {
		return nil, err
	}
	t, err := in.target(agent, o.Base)
	if err != nil {
		return nil, err
	}
	t = in.checked(ctx, t)
	a := in.doctor(false, false, 0).AgentContext(ctx, t)
	s := &AgentStatus{Agent: a.Agent, Namespace: in.ns, Base: baseOf(t), Status: a.Status, Config: a.Config, Reasons: append([]string{}, a.Reasons()...)}
	for _, c := range a.Failed() {
		s.Next = cmp.Or(s.Next, c.Hint)
	}
	if s.Status == StatusNotInstalled {
		// a config add would refuse: say so, in add's words
		var we *writer.Error
		if errors.As(in.writer(writer.Options{}).Refusal(t), &we) {
			s.Reasons = append(s.Reasons, we.File+": "+we.Err.Error())
		}
	}
	return s, nil
}

// A CheckResult is the outcome of one of doctor's checks.
type CheckResult = adapters.CheckResult

// The check results. Only CheckFail means the install will not do what it
// promises.
const (
	CheckPass = adapters.Pass
	CheckFail = adapters.Fail // Hint says how to fix it
	CheckInfo = adapters.Info // worth knowing, not a fault
	CheckSkip = adapters.Skip // could not be checked (Verdict says why)
)

// A Check is one of doctor's findings about one agent: ID is stable
// ("config.parse", "switch.disableAllHooks", "fire.Stop", ...), Took is
// how long the script or program it ran took (0 when it ran none).
type Check = adapters.Check

// A Report is everything Doctor found about one agent.
type Report struct {
	Agent     string  `json:"agent"`
	Status    Status  `json:"status"`
	OK        bool    `json:"ok"` // no check failed
	Config    string  `json:"config"`
	HooksDir  string  `json:"hooks_dir"`
	Installed bool    `json:"installed"` // a hooks dir or entries of ours are there
	Detected  bool    `json:"detected"`
	Checks    []Check `json:"checks"`
}

// DoctorOptions change what Doctor runs.
type DoctorOptions struct {
	Base string // for a clone: the agent it was made from
	// NoFire skips running each installed script with a recorded payload
	// against a pty.
	NoFire bool
	// NoAsk skips asking the agent's own program, where it is on PATH,
	// what it resolved.
	NoAsk bool
	// FireTimeout bounds one run of one script; 0 means the agents' hook
	// timeout (5 s).
	FireTimeout time.Duration
}

// Doctor checks what agent will really run: the config parses the way the
// agent parses it; our entries sit where it reads them, in the shape it
// runs; each script exists, is executable and matches the manifest; kill
// switches (the system-wide ones too, when the Installer works on $HOME),
// dead paths, double firing, trust. Unless told not to, it then runs each
// installed script against a pty and compares the bytes that arrive with
// the documented OSC, and asks the agent's program what it resolved.
// Cancelling ctx stops what it runs, and Doctor then returns ctx's error.
func (in *Installer) Doctor(ctx context.Context, agent string, o DoctorOptions) (*Report, error) {
	if err := ctxErr(ctx); err != nil {
		return nil, err
	}
	if o.FireTimeout < 0 {
		return nil, errors.New("hookinstall: DoctorOptions.FireTimeout is negative")
	}
	t, err := in.target(agent, o.Base)
	if err != nil {
		return nil, err
	}
	a := in.doctor(!o.NoFire, !o.NoAsk, o.FireTimeout).AgentContext(ctx, in.checked(ctx, t))
	if err := ctx.Err(); err != nil {
		return nil, err // what it ran was stopped: the checks say nothing
	}
	return &Report{Agent: a.Agent, Status: a.Status, OK: a.OK, Config: a.Config, HooksDir: a.HooksDir,
		Installed: a.Installed, Detected: a.Detected, Checks: append([]Check{}, a.Checks...)}, nil
}

// checked is t as doctor and status check it. The system-wide files the
// agent reads (adapters.Agent.Reads, under SystemPath) concern the machine's own
// user only: with an explicit Home they are not read. An install made for a
// Docker target is checked as made (writer.Recorded).
func (in *Installer) checked(ctx context.Context, t adapters.Target) adapters.Target {
	t, _ = writer.Recorded(t) // a named AsHome that is not the recorded one is checked as named
	// the agent version on PATH: what add would write for it is what the
	// checks expect (and doctor says what that version does with our hooks)
	// (asked only where an install of ours is: status over agents with
	// nothing installed runs no program)
	if writer.Installed(t) {
		t = in.writer(writer.Options{}).Gated(ctx, t)
	}
	if in.homeGiven {
		t.SystemRoot = ""
	}
	return t
}

// doctor builds the checker. The current directory (where a project config
// of ours would double-fire) concerns the machine's own user only: with an
// explicit Home it is not read.
func (in *Installer) doctor(fire, ask bool, fireTimeout time.Duration) *doctor.Doctor {
	o := doctor.Options{Getenv: in.getenv, Fire: fire, Ask: ask, FireTimeout: cmp.Or(fireTimeout, time.Duration(adapters.HookTimeout)*time.Second)}
	if !in.homeGiven {
		if wd, err := os.Getwd(); err == nil {
			o.Cwd = wd
		}
	}
	return doctor.New(o)
}
