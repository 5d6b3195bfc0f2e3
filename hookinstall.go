package hookinstall

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/internal/testonly"
	"github.com/hookinstall/hookinstall/scripts"
	"github.com/hookinstall/hookinstall/writer"
)

// DefaultNamespace is the namespace used when neither Options.Namespace nor
// $HOOKINSTALL_NAMESPACE gives one.
const DefaultNamespace = terminal.DefaultNamespace

// namespaceEnv is the environment variable that gives the namespace when
// Options.Namespace is empty.
const namespaceEnv = "HOOKINSTALL_NAMESPACE"

// Options say where and for whom an Installer works. The zero value
// installs into $HOME in namespace $HOOKINSTALL_NAMESPACE or "hookinstall".
type Options struct {
	// Namespace owns everything written: the hooks dir <NS>-hooks, the
	// environment variables <NS>_TASK_ID and <NS>_PTY, the OSC title. It
	// must match ^[a-z][a-z0-9-]{1,31}$. "" means $HOOKINSTALL_NAMESPACE,
	// then "hookinstall".
	Namespace string
	// Home is the home directory to install into. "" means $HOME. Either
	// must be an absolute path to a directory that exists: New refuses
	// anything else with an *OptionError (wrapping fs.ErrNotExist or
	// syscall.ENOTDIR where that is why), and hookinstall never creates a home. The agents' own directory variables
	// ($CLAUDE_CONFIG_DIR, $CODEX_HOME, ...) are honoured only when Home
	// is "": an explicit home is taken as it is. When it is not $HOME, the
	// header of every file written names it (--home) in the command that
	// removes the install.
	Home string
	// AsHome, with Home, is the home as the agents will see it (a
	// container's home, where Home is mounted): every path written into a
	// config or script names it instead of Home. It must be absolute.
	AsHome string
	// Getenv reads the environment: HOME, PATH (agents are detected, and
	// their programs found, on it), the agents' directory variables and
	// $HOOKINSTALL_NAMESPACE. nil means os.Getenv.
	Getenv func(string) string
	// Version names the installing program in the manifests it writes; ""
	// means this module's version as the build info records it (the
	// version a host's go.mod requires, or "(devel)").
	Version string
}

// An Installer installs, checks and removes the hooks of every agent under
// one home, in one namespace. Its methods may be called concurrently: runs
// on the same agent serialise on a lock in the agent's hooks dir.
type Installer struct {
	ns, home, asHome string
	homeGiven        bool
	nsNamed          bool // by Options.Namespace or namespaceEnv
	getenv           func(string) string
	version          string
}

// New checks o and returns an Installer. It returns an *OptionError when a
// field cannot be used; it reads no file, and stats only the home.
func New(o Options) (*Installer, error) {
	in := &Installer{getenv: o.Getenv, version: cmp.Or(o.Version, moduleVersion())}
	if in.getenv == nil {
		in.getenv = os.Getenv
	}
	ns, err := ResolveNamespace(o.Namespace, in.getenv)
	if err != nil {
		return nil, err
	}
	in.ns, in.nsNamed = ns, o.Namespace != "" || in.getenv(namespaceEnv) != ""
	home, what := o.Home, "Home"
	if home == "" {
		home, what = in.getenv(homeEnv), "$"+homeEnv
	}
	if err := checkHome(what, home); err != nil {
		return nil, &OptionError{Option: "Home", Err: err}
	}
	in.home, in.homeGiven = filepath.Clean(home), o.Home != ""
	if o.AsHome != "" {
		if o.Home == "" {
			return nil, &OptionError{Option: "AsHome", Err: errors.New("AsHome needs Home")}
		}
		if !filepath.IsAbs(o.AsHome) {
			return nil, &OptionError{Option: "AsHome", Err: &homeError{fmt.Sprintf("AsHome %q is not an absolute path", o.AsHome), nil}}
		}
		in.asHome = filepath.Clean(o.AsHome)
	}
	return in, nil
}

// homeEnv names the variable that holds the user's home: USERPROFILE on
// Windows, where Claude Code reads %USERPROFILE%\.claude.
var homeEnv = map[bool]string{false: "HOME", true: "USERPROFILE"}[runtime.GOOS == "windows"]

// checkHome is the one place that says which homes hookinstall works in,
// for the library and the command alike: an absolute path (never one
// resolved under the current directory) to a directory that exists
// (hookinstall never creates a home). what names where home came from,
// "Home" or "$HOME", in the message. The error wraps fs.ErrNotExist or
// syscall.ENOTDIR where that is why, so that a caller (the command) can
// word it as its own flag.
func checkHome(what, home string) error {
	if home == "" || !filepath.IsAbs(home) {
		if what == "$"+homeEnv {
			return &homeError{what + " is not set to an absolute path", nil}
		}
		return &homeError{fmt.Sprintf("%s %q is not an absolute path", what, home), nil}
	}
	fi, err := os.Stat(home)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &homeError{fmt.Sprintf("%s %q does not exist", what, home), fs.ErrNotExist}
	case err != nil:
		return &homeError{fmt.Sprintf("%s %q: %v", what, home, err), err}
	case !fi.IsDir():
		return &homeError{fmt.Sprintf("%s %q is not a directory", what, home), syscall.ENOTDIR}
	}
	return nil
}

// ResolveNamespace returns the namespace an Installer made with
// Options{Namespace: ns, Getenv: getenv} uses: ns, else
// $HOOKINSTALL_NAMESPACE, else DefaultNamespace. It returns an *OptionError
// when that is not a valid namespace. getenv nil means os.Getenv.
func ResolveNamespace(ns string, getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if ns == "" {
		ns = cmp.Or(getenv(namespaceEnv), DefaultNamespace)
	}
	if err := terminal.ValidNamespace(ns); err != nil {
		return "", &OptionError{Option: "Namespace", Err: err}
	}
	return ns, nil
}

// Namespace is the namespace in use.
func (in *Installer) Namespace() string { return in.ns }

// Home is the home directory installed into, on disk.
func (in *Installer) Home() string { return in.home }

// Env returns the variables a host sets, as "NAME=value", in the
// environment of an agent it starts in a tab: <NS>_TASK_ID, which switches
// the hooks on (they stay silent when it is unset or empty), and <NS>_PTY,
// the path of the tab's pty (its slave side), where the hooks of every
// agent but Claude write their sequence.
func (in *Installer) Env(taskID, ptyPath string) []string {
	return []string{terminal.TaskVar(in.ns) + "=" + taskID, terminal.PTYVar(in.ns) + "=" + ptyPath}
}

// An Agent is one coding agent as it resolves under the Installer's home.
type Agent struct {
	Name     string `json:"agent"`     // "claude", or a clone's own id
	Product  string `json:"-"`         // its name for people: "Claude Code"
	Base     string `json:"-"`         // for a clone, the agent whose shape and events it uses
	Config   string `json:"config"`    // the file our entries go into, on disk
	HooksDir string `json:"hooks_dir"` // our scripts, manifest, backups and lock
	// Shared reports a config shared with the user (our entries are merged
	// in and taken out) rather than a file of ours alone (removal deletes
	// it).
	Shared bool `json:"shared"`
	// Detected reports that the agent looks installed on this machine:
	// its config dir exists or its program is on PATH.
	Detected bool `json:"detected"`
	// Missing says what was looked for and not found ("no ~/.claude and
	// no claude on PATH") when the agent is not detected, else "".
	Missing string `json:"-"`
	// Skip says why InstallAll skips the agent (not detected), or is ""
	// when InstallAll installs it.
	Skip string `json:"skip,omitempty"`
	// States are the states the agent reports, each once, in the order
	// of the State constants.
	States []State `json:"states"`
	// Events are the agent's hook events and the state each reports.
	Events []Event `json:"events"`
	// Versions are the agent's versions measured with these hooks, nil
	// where none could be run (docs/agents.md "Versions").
	Versions *VersionRange `json:"versions,omitempty"`
	// TrustWritable reports that hookinstall can record the user's trust
	// in the agent's hooks itself (InstallOptions.Trust): Codex. Every
	// other agent runs its hooks once installed, or is trusted in the
	// agent.
	TrustWritable bool `json:"-"`
}

// A VersionRange is the agent versions whose binaries were run with
// hookinstall's hooks: Oldest to Newest with every event, the user's own
// hook still firing and the config back byte for byte after remove. add
// asks the agent's program on PATH for its version and writes for older
// ones what Older says; Text renders it for people.
type VersionRange = adapters.Range

// An Event is one of an agent's hook events and the state it reports.
type Event struct {
	Name  string `json:"event"` // the agent's own event name: "PermissionRequest"
	State State  `json:"state"`
	Note  string `json:"note,omitempty"` // the condition, where the state depends on the payload
	// Script is the file name, in the Agent's HooksDir, of the script
	// Install writes for this event ("permission-request.sh"), as the
	// writer names it; "" for an agent whose hooks are a plugin or
	// extension module of ours (its Config), which has no script per
	// event. Events that share a hook share its script.
	Script string `json:"script,omitempty"`
}

// Payloads returns the hook payloads recorded for the agent, for a host's
// own tests: what the agent gives a hook on stdin (for a plugin or
// extension agent, what it passes to the module's handlers), keyed by the
// event's name ("Stop"), or event.variant for a further payload of one
// event ("Stop.background"), as the files of adapters/payloads are named
// (its README.md says where each comes from). An agent that runs another
// agent's engine, and a clone, have that agent's payloads. Every call
// returns fresh copies.
func (a Agent) Payloads() map[string][]byte {
	ad, ok := adapters.Lookup(cmp.Or(a.Base, a.Name))
	if !ok {
		return nil
	}
	return adapters.Payloads(ad.Payloads)
}

// AgentNames lists the agents hookinstall knows, in name order.
func AgentNames() []string { return adapters.Names() }

// Agents describes every agent hookinstall knows (clones not included),
// in name order. It fails when an agent's directory variable points
// outside the home.
func (in *Installer) Agents() ([]Agent, error) {
	var as []Agent
	for _, name := range adapters.Names() {
		t, err := in.target(name, "")
		if err != nil {
			return nil, err
		}
		as = append(as, in.describe(t))
	}
	return as, nil
}

// Agent describes one agent: name is one of AgentNames in any case
// ("Claude"), the name of its program ("agy"), or a clone installed
// before (found by its manifest).
func (in *Installer) Agent(name string) (Agent, error) {
	return in.Clone(name, "")
}

// Clone describes the clone id of agent base, installed or not: its own
// folder and manifest, base's config shape and events (InstallOptions.Base
// makes it). With base "" it is Agent.
func (in *Installer) Clone(id, base string) (Agent, error) {
	t, err := in.target(id, base)
	if err != nil {
		return Agent{}, err
	}
	return in.describe(t), nil
}

func (in *Installer) describe(t adapters.Target) Agent {
	a := Agent{
		Name: t.ID, Product: t.Adapter.Product, Config: t.Adapter.File(t), HooksDir: t.HooksDir(), Shared: !t.Adapter.Own,
		Detected: writer.Detected(t, in.getenv),
		States:   []State{}, Events: []Event{}, TrustWritable: t.Adapter.TrustWritable(),
	}
	if !a.Detected {
		a.Missing = missing(t)
	}
	if t.ID != t.Adapter.ID {
		a.Base = t.Adapter.ID
	} else if !a.Detected { // the one rule of the --all selection
		a.Skip = "not detected: " + a.Missing
	}
	// each event's script, as the writer gets them (named, not rendered)
	script := t.Adapter.ScriptNames(t)
	for _, e := range t.Adapter.Events() {
		a.Events = append(a.Events, Event{Name: e.Event, State: e.State, Note: e.Note, Script: script[e.Event]})
	}
	for _, s := range States() {
		if slices.ContainsFunc(a.Events, func(e Event) bool { return e.State == s }) {
			a.States = append(a.States, s)
		}
	}
	if r := t.Adapter.Range; r != nil { // the host's own copy
		c := *r
		c.Older = slices.Clone(r.Older)
		for i := range c.Older {
			c.Older[i].Drop = slices.Clone(c.Older[i].Drop)
		}
		a.Versions = &c
	}
	return a
}

// missing is what the detection rule looks for, said as not found: the
// paths it checks (Antigravity's is ~/.gemini/config, not ~/.gemini) and
// the programs on PATH.
func missing(t adapters.Target) string {
	what := "no " + strings.Join(adapters.DetectPaths(t), " or ")
	if bs := t.Adapter.Programs; len(bs) > 0 {
		what += " and no " + strings.Join(bs, " or ") + " on PATH"
	}
	return what
}

func (in *Installer) options() adapters.Options {
	o := adapters.Options{NS: in.ns, Home: in.home, AsHome: in.asHome, SystemRoot: testonly.SystemRoot, GOOS: testonly.GOOS, ListDir: writer.ListDir, NameHome: in.homeGiven && !in.ownHome()}
	if !in.homeGiven {
		o.Getenv = in.getenv
	}
	if in.asHome == "" {
		o.Cwd = workDir()
	}
	return o
}

// workDir is the current folder with its symlinks resolved (as Gemini CLI
// resolves it to match its trusted folders), or "" when it cannot be said.
func workDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		return real
	}
	return wd
}

// Command is the hookinstall command that runs verb ("status", "doctor")
// on this Installer's installs: with --namespace outside the default one,
// --home for a home that is not the user's own ($HOME), and --as-home for a
// Docker target, each path quoted for the shell where it needs it.
func (in *Installer) Command(verb string) string {
	c := scripts.Install{NS: in.ns, AsHome: in.asHome}
	if in.asHome != "" || in.homeGiven && !in.ownHome() {
		c.Home = in.home
	}
	return c.Command(verb)
}

// ownHome reports whether the home is the user's own, $HOME: a command
// that acts on an install there needs no --home. The headers of the files
// an install writes name the command that removes it, so this decides their
// bytes: they depend on the home and $HOME, never on how the home was
// spelled.
func (in *Installer) ownHome() bool {
	h := in.getenv(homeEnv)
	return h != "" && filepath.IsAbs(h) && filepath.Clean(h) == in.home
}

// target resolves an agent: a known one, a new clone of base, or (base
// "") a clone found by its manifest.
func (in *Installer) target(name, base string) (adapters.Target, error) {
	o := in.options()
	if base == "" {
		if _, ok := adapters.Lookup(name); ok {
			return adapters.Resolve(name, o)
		}
		b, err := in.cloneBase(name)
		if err != nil {
			// the CLI's spellings too: any case, or the agent's program
			if n, ok := agentName(name); ok {
				return adapters.Resolve(n, o)
			}
			return adapters.Target{}, err
		}
		base = b
	}
	o.Base, o.Getenv = base, nil
	t, err := adapters.Resolve(name, o)
	if err != nil {
		return adapters.Target{}, tag(err, ErrUnknownAgent)
	}
	return t, nil
}

// cloneBase finds which agent clone id was made from, by its manifest
// (Installs).
func (in *Installer) cloneBase(id string) (string, error) {
	is, err := in.Installs()
	for _, i := range is {
		if i.Agent == id && i.Base != "" && i.Namespace == in.ns {
			return i.Base, nil
		}
	}
	if err == nil {
		err = fmt.Errorf("unknown agent %q (known: %s)", id, strings.Join(adapters.Names(), ", "))
	}
	return "", tag(err, ErrUnknownAgent)
}

// writer makes a Writer with o's run options and the Installer's own (a
// nil Now is time.Now).
func (in *Installer) writer(o writer.Options) *writer.Writer {
	o.Version, o.Now, o.Getenv = in.version, testonly.Now, in.getenv
	return writer.New(o)
}

// ctxErr is ctx's error, for a call that has not started.
func ctxErr(ctx context.Context) error {
	if ctx == nil {
		return errors.New("hookinstall: nil Context")
	}
	return ctx.Err()
}
