package adapters

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// An OffError says that an agent's hooks are switched off, so an install
// would never fire.
type OffError struct {
	File   string
	Key    string
	Reason string
	// Verdict and Hint, when set, are the words of the agent's switch
	// finding (Check.Off) that refused: add and doctor say it alike.
	Verdict, Hint string
}

func (e *OffError) Error() string {
	if e.Verdict != "" {
		if e.Hint == "" {
			return e.Verdict
		}
		return e.Verdict + "; " + e.Hint
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Reason)
}

// A Target is one agent install resolved against a home.
type Target struct {
	ID      string // the agent id: "claude", or a clone's "claude-2"
	Adapter *Agent // the agent (a clone's base)
	NS      string
	Home    string // where files are written
	AsHome  string // the home as the agent sees it (Docker), written into files
	Dir     string // the agent's config dir, on disk
	DirFrom string // the variable that chose Dir ("CODEX_HOME"), or ""
	// AsHomeNamed says the caller named AsHome (Options.AsHome). When it
	// did not, AsHome is Home, and remove, status and doctor take the home
	// the install recorded instead (writer.Recorded decides, for all three).
	AsHomeNamed bool
	// SystemRoot is where the agent's machine-wide files (/etc/...) are
	// read: "/" on the machine itself, a scratch folder in tests, "" for
	// none (a Docker target's system files are the container's).
	SystemRoot string
	// GOOS is the OS whose system files are read ("linux", "darwin"):
	// where each agent keeps them differs (SystemPath).
	GOOS string
	// getenv gives the variables that move an agent's system files
	// (GEMINI_CLI_SYSTEM_SETTINGS_PATH); nil when none apply.
	getenv func(string) string
	// listDir names the files of a folder of system drop-ins, from the
	// caller (adapters read no disk); nil lists none.
	listDir func(dir string) []string
	// NameHome says that Home is not the user's own ($HOME), so the
	// command that removes the install names it (--home); see Install.
	NameHome bool
	// Cwd is the folder the user runs hookinstall in, with its symlinks
	// resolved, or "" when unknown (a Docker target): where an agent that
	// trusts folders (Gemini CLI) would be started next.
	Cwd string
	// Gate, when set, is what the agent version on PATH gets (its
	// Agent.Range judged against `--version`): events it does not know are
	// left out, timeouts written in its unit. Nil writes every event.
	Gate *Gate

	// parsed, set only for the length of one plan (PlanAdd, PlanRemove),
	// lets the agent's Check and its Add or Remove share the
	// config's strict parse: validating a large config is the costliest
	// step, and both read the same bytes. Nil everywhere else.
	parsed *jsonedit.Parsed
}

// HooksDir is the folder holding our scripts, manifest, backups and lock:
// <dir>/<NS>-hooks, or <dir>/<NS>-<agent>-hooks for an agent that shares its
// config dir with another one that came first (Gemini CLI's ~/.gemini is
// also Antigravity's), so that each keeps its own manifest.
func (t Target) HooksDir() string {
	if t.Adapter.SharesDir {
		return filepath.Join(t.Dir, t.NS+"-"+t.Adapter.ID+"-hooks")
	}
	return filepath.Join(t.Dir, t.NS+"-hooks")
}

// DetectPaths are the paths whose presence means the agent is installed on
// this machine (besides its programs on PATH): its Detect, or its config
// dir.
func DetectPaths(t Target) []string {
	if t.Adapter.Detect != nil {
		if d := t.Adapter.Detect(t); len(d) > 0 {
			return d
		}
	}
	return []string{t.Dir}
}

// AsPath rewrites a path under Home to the same path under AsHome.
func (t Target) AsPath(p string) string {
	if t.AsHome == "" || t.AsHome == t.Home {
		return p
	}
	rel, err := filepath.Rel(t.Home, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return filepath.Join(t.AsHome, rel)
}

// Install names the install for the commands that act on it; the header
// of every file generated for it names the one that removes it: with
// --home when the home is not the user's own, and for a Docker target
// (AsHome) with --as-home and scripts.HostDir for the host folder, which is
// never written into files.
func (t Target) Install() scripts.Install {
	in := scripts.Install{NS: t.NS, Agent: t.ID}
	if t.ID != t.Adapter.ID {
		in.Base = t.Adapter.ID
	}
	switch {
	case t.AsHome != "" && t.AsHome != t.Home:
		in.Home, in.AsHome = scripts.HostDir, t.AsHome
	case t.NameHome:
		in.Home = t.Home
	}
	return in
}

// Command is the command that runs verb ("add", "remove", "add --force")
// on this install, run where hookinstall runs: every hint and refusal
// names its fix with it, so that it acts on this namespace, home and clone.
func (t Target) Command(verb string) string {
	in := t.Install()
	if in.AsHome != "" {
		in.Home = t.Home
	}
	return in.Command(verb)
}

// spec is s, one event's script, made one of t's install: its namespace,
// agent id and home.
func (t Target) spec(s scripts.Spec) scripts.Spec {
	s.Install = t.Install()
	s.Product, s.Own = t.Adapter.Product, t.Adapter.ShowsItself
	return s
}

// Prefix is the start of every command of ours, as written into configs:
// on Windows, where Claude Code runs it with Git Bash (which eats a
// backslash), in forward slashes and quoted.
func (t Target) Prefix() string {
	if p := t.AsPath(t.HooksDir()) + "/"; t.GOOS != "windows" {
		return p
	} else {
		return `"` + filepath.ToSlash(p)
	}
}

// ScriptPath is the command that runs a script, as written into configs:
// its absolute path (on Windows, quoted).
func (t Target) ScriptPath(name string) (p string) {
	if p = t.Prefix() + name; t.GOOS == "windows" {
		p += `"`
	}
	return p
}

// Options are what a run says about where and how to install.
type Options struct {
	NS     string
	Home   string              // absolute
	AsHome string              // absolute; "" means Home
	Getenv func(string) string // the agents' own overrides; nil ignores them
	Base   string              // for a clone: the adapter whose shape it uses
	// ListDir names the files of a folder, in name order (the writer's
	// ListDir): how drop-in folders of system settings are read. nil
	// reads none.
	ListDir func(dir string) []string
	// SystemRoot is where the agents' machine-wide files (/etc/...) are
	// read; "" means "/". A Docker target (AsHome set) reads none.
	SystemRoot string
	// GOOS is Target.GOOS; "" means runtime.GOOS.
	GOOS string
	// NameHome says that Home is not the user's own ($HOME): the command
	// that removes an install, which its files' headers name, then says
	// --home.
	NameHome bool
	// Cwd is Target.Cwd.
	Cwd string
}

// Resolve finds the target for agent id. A clone (opts.Base set) keeps its own
// directory, named after the base agent's with the id in place of its name.
func Resolve(id string, opts Options) (Target, error) {
	if err := terminal.ValidNamespace(opts.NS); err != nil {
		return Target{}, err
	}
	if !filepath.IsAbs(opts.Home) {
		return Target{}, fmt.Errorf("home %q is not an absolute path", opts.Home)
	}
	t := Target{ID: id, NS: opts.NS, Home: filepath.Clean(opts.Home), AsHome: opts.AsHome, AsHomeNamed: opts.AsHome != "", NameHome: opts.NameHome, Cwd: opts.Cwd, GOOS: opts.GOOS}
	if t.GOOS == "" {
		t.GOOS = runtime.GOOS
	}
	if t.AsHome == "" {
		t.AsHome = t.Home
	}
	if t.AsHome == t.Home {
		t.SystemRoot, t.getenv, t.listDir = opts.SystemRoot, opts.Getenv, opts.ListDir
		if t.SystemRoot == "" {
			t.SystemRoot = "/"
		}
	}
	base := id
	if opts.Base != "" {
		base = opts.Base
		if !validID(id) {
			return Target{}, fmt.Errorf("invalid agent id %q: use lower-case letters, digits and dashes", id)
		}
		if _, ok := Lookup(id); ok {
			return Target{}, fmt.Errorf("agent id %q is an agent's own name; a clone needs another id", id)
		}
	}
	a, ok := Lookup(base)
	if !ok {
		return Target{}, fmt.Errorf("unknown agent %q (known: %s)", base, strings.Join(Names(), ", "))
	}
	t.Adapter = a
	if opts.Base != "" {
		dir, _ := a.Dir(t.Home, nil)
		name := id
		if strings.HasPrefix(filepath.Base(dir), ".") {
			name = "." + id
		}
		t.Dir = filepath.Join(filepath.Dir(dir), name)
	} else {
		dir, from := a.Dir(t.Home, opts.Getenv)
		if from != "" && !filepath.IsAbs(dir) {
			return Target{}, fmt.Errorf("$%s is %q, not an absolute path", from, dir)
		}
		t.Dir = filepath.Clean(dir)
		t.DirFrom = from
		if !under(t.Dir, t.Home) {
			what := "its config dir"
			if from != "" {
				what = "$" + from
			}
			return Target{}, fmt.Errorf("%s %s is not under the home %s; hookinstall installs only into a user's global config under the home. To install there, run it with HOME set to the folder that holds it (HOME=%s %s), and remove it the same way", what, t.Dir, t.Home, scripts.ShellQuote(filepath.Dir(t.Dir)), scripts.Install{NS: t.NS}.Command("add "+t.ID))
		}
	}
	return t, nil
}

func validID(id string) bool {
	if len(id) < 2 || len(id) > 32 || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func under(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../")
}

// envDir returns $name when getenv gives it, and def otherwise.
func envDir(getenv func(string) string, name, def string) (string, string) {
	if getenv != nil {
		if v := getenv(name); v != "" {
			return v, name
		}
	}
	return def, ""
}
