package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
	"github.com/hookinstall/hookinstall/scripts"
	"github.com/hookinstall/hookinstall/writer"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// testOnlyNow replaces the clock in tests, so manifests are stable.
var testOnlyNow = time.Now

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
	exitOff   = 3
)

// jsonSchema is the version of the --json output.
const jsonSchema = 1

// IO holds the streams of one run.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// globalOptions are the flags every command takes.
type globalOptions struct {
	IO      IO
	Getenv  func(string) string
	NS      string
	Home    string
	AsHome  string
	JSON    bool
	AgentID string
	Base    string
}

// usageError marks a command-line mistake (exit 2).
type usageError struct{ error }

// exitError carries an exit code for an error already reported.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	g := &globalOptions{IO: IO{In: stdin, Out: stdout, Err: stderr}, Getenv: getenv}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintf(stderr, "hookinstall: error: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) || isFlagError(err) {
		fmt.Fprintf(stderr, "hookinstall: hint: run 'hookinstall --help' for usage\n")
		return exitUsage
	}
	return exitFail
}

func isFlagError(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown flag") || strings.HasPrefix(s, "unknown shorthand") ||
		strings.HasPrefix(s, "unknown command") || strings.Contains(s, "flag needs an argument") ||
		strings.HasPrefix(s, "invalid argument") || strings.Contains(s, "accepts ") || strings.Contains(s, "requires at least")
}

func newRootCmd(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:   "hookinstall",
		Short: "Install coding agents' state hooks for a terminal host, and remove them exactly",
		Long: `hookinstall installs one tiny generated hook per state into each coding agent's
global config, so the agent reports working, needs-you, done and interrupted to its
terminal host as an OSC 777 sequence. remove gives the user's files back byte for byte.`,
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.StringVar(&g.NS, "namespace", "", "namespace of everything written (default $HOOKINSTALL_NAMESPACE or \"hookinstall\")")
	pf.StringVar(&g.Home, "home", "", "home directory to install into (default $HOME); agents' dir variables are then ignored")
	pf.StringVar(&g.AsHome, "as-home", "", "with --home: the home as the agent will see it (a container's), written into configs and scripts")
	pf.BoolVar(&g.JSON, "json", false, "print one JSON document (for hosts)")
	pf.StringVar(&g.AgentID, "agent-id", "", "a clone agent's own id (with --base on add)")
	pf.StringVar(&g.Base, "base", "", "the agent whose config shape and events a clone uses")
	root.AddCommand(newAddCmd(g, nil), newRemoveCmd(g, nil), newStatusCmd(g, nil), newDoctorCmd(g, nil), newAgentsCmd(g, nil))
	return root
}

// resolveEnv fills in the namespace and home, and checks the flags.
// testOnlySystemRoot replaces "/" as the root of the agents' system files
// (/etc/...) in tests; "" is the machine's own.
var testOnlySystemRoot string

func (g *globalOptions) adapterOptions() (adapters.Options, error) {
	ns := g.NS
	if ns == "" {
		ns = g.Getenv("HOOKINSTALL_NAMESPACE")
	}
	if ns == "" {
		ns = "hookinstall"
	}
	if err := scripts.ValidNamespace(ns); err != nil {
		return adapters.Options{}, usageError{err}
	}
	o := adapters.Options{NS: ns, SystemRoot: testOnlySystemRoot}
	if g.Home != "" {
		abs, err := filepath.Abs(g.Home)
		if err != nil {
			return o, err
		}
		o.Home = abs
	} else {
		o.Home = g.Getenv("HOME")
		o.Getenv = g.Getenv
		if o.Home == "" || !filepath.IsAbs(o.Home) {
			return o, usageError{errors.New("$HOME is not set to an absolute path; use --home")}
		}
	}
	if g.AsHome != "" {
		if g.Home == "" {
			return o, usageError{errors.New("--as-home needs --home")}
		}
		if !filepath.IsAbs(g.AsHome) {
			return o, usageError{fmt.Errorf("--as-home %q is not an absolute path", g.AsHome)}
		}
		o.AsHome = filepath.Clean(g.AsHome)
	}
	return o, nil
}

// writer returns a Writer for this run: o says what to do, the run where
// (its environment, version and clock).
func (g *globalOptions) writer(o writer.Options) *writer.Writer {
	o.Version, o.Now, o.Getenv = version, testOnlyNow, g.Getenv
	return writer.New(o)
}

// lookPath searches the run's own PATH, so tests control detection.
func lookPath(getenv func(string) string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, dir := range filepath.SplitList(getenv("PATH")) {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				return p, nil
			}
		}
		return "", errors.New("not found")
	}
}

// targets resolves the agents a command names. With all set, pick chooses.
func (g *globalOptions) targets(names []string, all bool, pick func(adapters.Target) bool) ([]adapters.Target, error) {
	o, err := g.adapterOptions()
	if err != nil {
		return nil, err
	}
	if g.AgentID != "" {
		if len(names) > 0 || all {
			return nil, usageError{errors.New("--agent-id names one clone agent: give no agent names and no --all")}
		}
		base := g.Base
		if base == "" {
			base, err = findCloneBase(g.AgentID, o)
			if err != nil {
				return nil, err
			}
		}
		o.Base = base
		o.Getenv = nil
		t, err := adapters.Resolve(g.AgentID, o)
		if err != nil {
			return nil, usageError{err}
		}
		return []adapters.Target{t}, nil
	}
	if g.Base != "" {
		return nil, usageError{errors.New("--base goes with --agent-id")}
	}
	if all && len(names) > 0 {
		return nil, usageError{errors.New("give agent names or --all, not both")}
	}
	if !all && len(names) == 0 {
		return nil, usageError{fmt.Errorf("name an agent (%s) or use --all", strings.Join(adapters.Names(), ", "))}
	}
	if all {
		names = adapters.Names()
	}
	var ts []adapters.Target
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		t, err := adapters.Resolve(n, o)
		if err != nil {
			if _, ok := adapters.Lookup(n); !ok {
				return nil, usageError{err}
			}
			return nil, err
		}
		if all && pick != nil && !pick(t) {
			continue
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// findCloneBase finds which agent a clone was made from, by its manifest.
func findCloneBase(id string, o adapters.Options) (string, error) {
	for _, name := range adapters.Names() {
		o.Base = name
		t, err := adapters.Resolve(id, o)
		if err != nil {
			continue
		}
		// Clones of different bases can share a dir name (.ID), so the
		// manifest's own record of the base decides.
		raw, err := os.ReadFile(filepath.Join(t.HooksDir(), manifest.FileName))
		if err != nil {
			continue
		}
		if m, err := manifest.Load(raw); err == nil && m.Agent == id && m.Base == name {
			return name, nil
		}
	}
	return "", usageError{fmt.Errorf("no install of clone agent %q found under %s; name its --base", id, o.Home)}
}

// jsonReport is the one document --json prints for add and remove.
type jsonReport struct {
	Schema    int         `json:"schema"`
	Command   string      `json:"command"`
	Namespace string      `json:"namespace"`
	Home      string      `json:"home"`
	DryRun    bool        `json:"dry_run"`
	ExitCode  int         `json:"exit_code"`
	Agents    []jsonAgent `json:"agents"`
}

type jsonAgent struct {
	writer.Report
	Error string `json:"error,omitempty"`
}

func exitCode(reports []writer.Report) int {
	code := exitOK
	for _, r := range reports {
		if r.Err == nil {
			continue
		}
		if writer.Off(r.Err) {
			if code == exitOK {
				code = exitOff
			}
			continue
		}
		code = exitFail
	}
	return code
}

// printReports prints what add or remove did, and returns the exit code.
func (g *globalOptions) printReports(command string, dryRun bool, reports []writer.Report) error {
	code := exitCode(reports)
	if g.JSON {
		o, _ := g.adapterOptions()
		doc := jsonReport{Schema: jsonSchema, Command: command, Namespace: o.NS, Home: o.Home, DryRun: dryRun, ExitCode: code, Agents: []jsonAgent{}}
		for _, r := range reports {
			a := jsonAgent{Report: r}
			if a.Changes == nil {
				a.Changes = []writer.Change{}
			}
			if r.Err != nil {
				a.Error = r.Err.Error()
			}
			doc.Agents = append(doc.Agents, a)
		}
		enc := json.NewEncoder(g.IO.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(doc)
	} else {
		for _, r := range reports {
			g.printReport(r)
		}
	}
	if code != exitOK {
		return exitError{code}
	}
	return nil
}

var statusWords = map[string]string{
	"installed":      "installed",
	"unchanged":      "already installed; nothing changed",
	"would-install":  "would install (dry run; nothing written)",
	"removed":        "removed",
	"partly-removed": "removed, except entries edited by hand",
	"would-remove":   "would remove (dry run; nothing written)",
	"not-installed":  "not installed; nothing to remove",
	"disabled":       "hooks are switched off; nothing installed",
	"error":          "failed",
}

func (g *globalOptions) printReport(r writer.Report) {
	w := g.IO.Out
	if r.Err != nil {
		fmt.Fprintf(g.IO.Err, "hookinstall: error: %v\n", r.Err)
		if writer.Off(r.Err) {
			fmt.Fprintf(g.IO.Err, "hookinstall: hint: %s: an install would never fire, so nothing was written\n", r.Agent)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(g.IO.Err, "hookinstall: warning: %s: %s\n", r.Agent, n)
		}
		return
	}
	word := statusWords[r.Status]
	if word == "" {
		word = r.Status
	}
	fmt.Fprintf(w, "%s: %s\n", r.Agent, word)
	verbs := map[string]string{"create": "created ", "modify": "modified", "delete": "deleted "}
	if r.Status == "would-install" || r.Status == "would-remove" {
		verbs = map[string]string{"create": "would create", "modify": "would modify", "delete": "would delete"}
	}
	for _, c := range r.Changes {
		fmt.Fprintf(w, "  %s %s\n", verbs[c.Action], c.Path)
	}
	for _, c := range r.Changes {
		if c.Diff != "" {
			fmt.Fprint(w, c.Diff)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(g.IO.Err, "hookinstall: warning: %s: %s\n", r.Agent, n)
	}
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
