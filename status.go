package hookinstall

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/doctor"
	"github.com/hookinstall/hookinstall/writer"
)

// A Status is the one-word verdict on whether an agent's hooks will run.
type Status string

// The statuses.
const (
	StatusInstalled    Status = "installed"     // ours are in place and will run
	StatusNotInstalled Status = "not-installed" // the agent is here; nothing of ours is
	StatusDisabled     Status = "disabled"      // ours are in place; the agent's hooks are off
	StatusDrifted      Status = "drifted"       // ours are in place but wrong: a script missing or changed, an entry edited, ...
	StatusOutdated     Status = "outdated"      // ours are in place as an older hookinstall wrote them; add brings them up to date
	StatusUntrusted    Status = "untrusted"     // ours are in place; the agent skips them until the user trusts them
	StatusNotDetected  Status = "not-detected"  // the agent is not on this machine
	StatusNotNeeded    Status = "not-needed"    // its terminal reports these states already (Codex), and nothing of ours is installed
)

// An AgentStatus is one agent's status, with the reasons for it.
type AgentStatus struct {
	Agent  string
	Status Status
	Config string // the agent's config file, on disk
	// Reasons say why it is not StatusInstalled, one line each. For
	// StatusNotInstalled they name a file add would refuse as it stands
	// (a config that is not valid, a folder where it should be, ...), in
	// the words of add's error: "FILE: FAULT".
	Reasons []string
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
	s := &AgentStatus{Agent: a.Agent, Status: Status(a.Status), Config: a.Config, Reasons: a.Reasons()}
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
type CheckResult string

// The check results. Only CheckFail means the install will not do what it
// promises.
const (
	CheckPass CheckResult = "pass"
	CheckFail CheckResult = "fail" // Hint says how to fix it
	CheckInfo CheckResult = "info" // worth knowing, not a fault
	CheckSkip CheckResult = "skip" // could not be checked (Verdict says why)
)

// A Check is one of doctor's findings about one agent.
type Check struct {
	ID      string // stable: "config.parse", "switch.disableAllHooks", "fire.Stop", ...
	Result  CheckResult
	File    string
	Verdict string
	Hint    string
	// Took is how long the script or program the check ran took, to the
	// microsecond; 0 when it ran none.
	Took time.Duration
}

// A Report is everything Doctor found about one agent.
type Report struct {
	Agent     string
	Status    Status
	OK        bool // no check failed
	Config    string
	HooksDir  string
	Installed bool // a hooks dir or entries of ours are there
	Detected  bool
	Checks    []Check
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
	r := &Report{Agent: a.Agent, Status: Status(a.Status), OK: a.OK, Config: a.Config, HooksDir: a.HooksDir,
		Installed: a.Installed, Detected: a.Detected, Checks: []Check{}}
	for _, c := range a.Checks {
		r.Checks = append(r.Checks, Check{ID: c.ID, Result: CheckResult(c.Result), File: c.File, Verdict: c.Verdict, Hint: c.Hint, Took: c.Took})
	}
	return r, nil
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
	if _, err := os.Lstat(t.HooksDir()); err == nil {
		t.Gate, _ = in.judge(ctx, t, t.Adapter.Range)
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
	o := doctor.Options{Getenv: in.getenv, Fire: fire, Ask: ask, FireTimeout: fireTimeout}
	if !in.homeGiven {
		if wd, err := os.Getwd(); err == nil {
			o.Cwd = wd
		}
	}
	if fireTimeout == 0 {
		o.FireTimeout = time.Duration(adapters.HookTimeout) * time.Second
	}
	return doctor.New(o)
}
