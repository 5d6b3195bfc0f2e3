package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
	"github.com/hookinstall/hookinstall/writer"
)

// A Check is one finding about one agent: the vocabulary is adapters'.
type Check = adapters.Check

// took is d to the microsecond, what a check reports.
func took(d time.Duration) time.Duration { return d.Truncate(time.Microsecond) }

// ms words d for a verdict: "12.3ms".
func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }

// An Agent is everything doctor found about one agent.
type Agent struct {
	Agent     string
	Status    adapters.Status
	OK        bool
	Config    string
	HooksDir  string
	Installed bool
	Detected  bool
	Checks    []Check
}

// Failed returns the checks that failed.
func (a Agent) Failed() []Check {
	var cs []Check
	for _, c := range a.Checks {
		if c.Result == adapters.Fail {
			cs = append(cs, c)
		}
	}
	return cs
}

// Options say what doctor may read and run.
type Options struct {
	// Getenv gives PATH for finding agent binaries and the scripts'
	// environment; nil means os.Getenv.
	Getenv func(string) string
	// Cwd is where a project-level config of ours would double-fire; ""
	// skips that check.
	Cwd string
	// Fire runs each installed script against a pty.
	Fire bool
	// Ask runs the agent's own binary, where it is on PATH, to say what it
	// resolved.
	Ask bool
	// FireTimeout bounds one run of one script; AskTimeout one run of an
	// agent's binary (0: agentexec.Timeout).
	FireTimeout time.Duration
	AskTimeout  time.Duration
}

// A Doctor checks installs.
type Doctor struct{ Options }

// New returns a Doctor with defaults filled in.
func New(o Options) *Doctor {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.FireTimeout == 0 {
		o.FireTimeout = time.Duration(adapters.HookTimeout) * time.Second
	}
	return &Doctor{o}
}

// A run is the state of checking one agent.
type run struct {
	ctx context.Context // the caller's: cancelling it stops what the run runs
	d   *Doctor
	t   adapters.Target
	a   *Agent
	cfg file
	man *manifest.Manifest
	// manErr is why the manifest could not be read (nil when absent).
	manErr error
	// trusted is the trust check's verdict per command of ours, for
	// comparing with what the agent's binary says.
	trusted map[string]bool
	pty     *capture // the last fire's, open until the next one's is
	shell   []string // what runs a script: on Windows, Git Bash's bash
}

// A file is what was read of one file.
type file = adapters.File

// maxRead bounds what doctor reads of any one file.
const maxRead = adapters.MaxDocSize

// readFile reads a regular file without blocking on a FIFO or device.
func readFile(path string) file {
	f := file{Path: path}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f
	}
	if err != nil {
		f.Err = err
		return f
	}
	switch {
	case fi.IsDir():
		f.Err = errors.New("is a directory, not a file")
		return f
	case !fi.Mode().IsRegular():
		f.Err = fmt.Errorf("is not a regular file (%s)", fi.Mode().Type())
		return f
	case fi.Size() > maxRead:
		f.Err = fmt.Errorf("is %d bytes, larger than the %d bytes doctor reads", fi.Size(), maxRead)
		return f
	}
	fh, err := os.Open(path)
	if err != nil {
		f.Err = err
		return f
	}
	defer fh.Close()
	f.Data, f.Err = io.ReadAll(io.LimitReader(fh, maxRead+1))
	f.Exists = f.Err == nil
	return f
}

func (r *run) add(c Check) { r.a.Checks = append(r.a.Checks, c) }

// staleChecks fail for each install of ours for another home that the
// files still name (adapters.Stale): entries synced or copied from another
// machine or user, which the agent runs beside ours.
func (r *run) staleChecks() {
	var recorded string
	if r.man != nil {
		recorded = r.man.AsHome
	}
	files := r.input().Present()
	for _, alt := range adapters.Stale(r.t, files, recorded) {
		does := "runs them too: each state is reported by theirs as well"
		if _, err := os.Stat(alt.Prefix()); err != nil {
			does = "reports each of them failed, every turn: that folder is not there"
		}
		for _, f := range r.t.Adapter.Holds(alt, files) {
			r.fail("entries.stale", f, fmt.Sprintf("%s holds this namespace's hooks of another home (%s...): %s %s", f, alt.Prefix(), r.t.Adapter.Product, does),
				fmt.Sprintf("run '%s' (it puts this home's in their place) or '%s' (it takes them out)", r.t.Command("add"), r.t.Command("remove")))
		}
	}
}

func (r *run) pass(id, file, verdict string) {
	r.add(Check{ID: id, Result: adapters.Pass, File: file, Verdict: verdict})
}

func (r *run) fail(id, file, verdict, hint string) {
	r.add(Check{ID: id, Result: adapters.Fail, File: file, Verdict: verdict, Hint: hint})
}

func (r *run) skip(id, file, verdict string) {
	r.add(Check{ID: id, Result: adapters.Skip, File: file, Verdict: verdict})
}

// upHint is the fix for an install an older hookinstall made.
func (r *run) upHint() string {
	return fmt.Sprintf("run '%s' to bring it up to date (remove still gives your files back)", r.t.Command("add"))
}

// addHint is the fix for most drift: install again.
func (r *run) addHint() string {
	if r.man != nil && len(r.man.Files) == 0 { // add --print: the config is the user's
		return fmt.Sprintf("put the entries '%s' prints into your own configuration (the source of %s), or run '%s' to write them there", r.t.Command("add --print"), r.a.Config, r.t.Command("add"))
	}
	return fmt.Sprintf("run '%s' to write it again", r.t.Command("add"))
}

// Agent checks one agent.
func (d *Doctor) Agent(t adapters.Target) Agent { return d.AgentContext(context.Background(), t) }

// AgentContext checks one agent; cancelling ctx stops the scripts and
// programs it runs.
func (d *Doctor) AgentContext(ctx context.Context, t adapters.Target) Agent {
	a := &Agent{Agent: t.ID, Config: t.Adapter.File(t), HooksDir: t.HooksDir(), Checks: []Check{}}
	r := &run{ctx: ctx, d: d, t: t, a: a}
	r.cfg = readFile(a.Config)
	manPath := filepath.Join(t.HooksDir(), manifest.FileName)
	if mf := readFile(manPath); mf.Err != nil {
		r.manErr = mf.Err
	} else if mf.Exists {
		r.man, r.manErr = manifest.Load(mf.Data)
	}
	a.Detected = writer.Detected(t, d.Getenv)
	p := profileFor(t)
	held := t.Adapter.Holds(t, r.input().Present())
	a.Installed = writer.Installed(t)
	if len(held) > 0 && !slices.Contains(held, a.Config) {
		a.Config = held[0] // where ours are: droid's hooks.json
	}
	var infos []scriptInfo
	if a.Installed {
		p.config(r)
		if _, plugin := p.(*pluginProfile); !plugin {
			infos = r.scriptChecks()
		} else {
			r.manifestCheck()
		}
		p.switches(r)
		r.versionCheck()
		p.trust(r)
	}
	r.staleChecks()
	r.projectChecks(p)
	p.deadPaths(r)
	if a.Installed && d.Fire {
		if f, ok := p.(interface{ fire(*run) }); ok {
			f.fire(r)
		} else {
			r.fireChecks(infos)
		}
		if r.pty != nil {
			r.pty.close()
		}
	}
	if a.Installed && d.Ask {
		p.ask(r)
	}
	a.Status = status(t, a)
	a.OK = len(a.Failed()) == 0
	return *a
}

// status turns the checks into the one word `status` prints. Switches come
// first (an install would never fire whatever else is true), then drift,
// then trust.
func status(t adapters.Target, a *Agent) adapters.Status {
	switch {
	case !a.Installed && a.Detected:
		return adapters.StatusNotInstalled
	case !a.Installed:
		return adapters.StatusNotDetected
	}
	disabled, drifted, outdated, untrusted := false, false, false, false
	for _, c := range a.Checks {
		if c.Result != adapters.Fail {
			continue
		}
		switch {
		case strings.HasPrefix(c.ID, "switch."):
			disabled = true
		case strings.HasPrefix(c.ID, "trust."):
			untrusted = true
		case strings.HasPrefix(c.ID, "outdated."):
			outdated = true
		default:
			drifted = true
		}
	}
	switch {
	case disabled:
		return adapters.StatusDisabled
	case drifted:
		return adapters.StatusDrifted
	case outdated:
		return adapters.StatusOutdated
	case untrusted:
		return adapters.StatusUntrusted
	}
	return adapters.StatusInstalled
}

// Reasons are the verdicts of the failed checks, for `status`.
func (a Agent) Reasons() []string {
	var rs []string
	for _, c := range a.Failed() {
		s := c.Verdict
		if c.File != "" && !strings.Contains(s, c.File) {
			s = c.File + ": " + s
		}
		rs = append(rs, s)
	}
	return rs
}
