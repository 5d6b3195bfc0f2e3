package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/agentexec"
)

// extraCommands are added by files built with tags (gendocs.go).
var extraCommands []func(*globalOptions) *cobra.Command

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
	exitOff   = 3
	// exitInterrupted is a shell's status for a program SIGINT stopped.
	exitInterrupted = 130
)

// jsonSchema is the version of the --json output.
const jsonSchema = 1

// IO holds the output streams of one run.
type IO struct {
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
	g := &globalOptions{IO: IO{Out: stdout, Err: stderr}, Getenv: getenv}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// a program slow to say its version (Node's start) is said on stderr,
	// where a person reads it: a terminal
	ctx := context.Background()
	if onTerminal(stderr) {
		ctx = agentexec.Waiting(ctx, func(s string) { fmt.Fprintln(stderr, "hookinstall: "+s) })
	}
	// Ctrl-C stops the run through its ctx: the programs it started go with
	// their process group, and its scratch folders are removed; a second
	// Ctrl-C kills it at once
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	err := root.ExecuteContext(ctx)
	if ctx.Err() != nil { // (before stop, which cancels it too)
		fmt.Fprintln(stderr, "hookinstall: interrupted")
		return exitInterrupted
	}
	stop()
	if err == nil {
		return exitOK
	}
	var hint string
	if name, ok := unknownCommand(root, args); ok && isUsage(err) {
		// whatever flags follow it (cobra parses them first)
		err = usageError{fmt.Errorf("unknown command %q for %q", name, root.Name())}
		if s := root.SuggestionsFor(name); len(s) > 0 {
			hint = "did you mean '" + root.Name() + " " + s[0] + "'? "
		}
		hint += "run '" + root.Name() + " --help' for the commands"
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	code := exitFail
	if isUsage(err) {
		code = exitUsage
	}
	var h hinted
	if errors.As(err, &h) {
		hint = h.hint
	}
	if hint == "" && code == exitUsage {
		hint = "run '" + commandPath(root, args) + " --help' for usage"
	}
	printWrapped(stderr, "hookinstall: error: ", "  ", err.Error())
	if hint != "" {
		printWrapped(stderr, "hookinstall: hint: ", "  ", hint)
	}
	if g.JSON || wantsJSON(args) {
		// Under --json every run prints exactly one document, errors
		// included: what was wrong, and the hint.
		_ = jsonEncoder(stdout).Encode(jsonError{Schema: jsonSchema, Command: commandName(root, args), ExitCode: code, Error: err.Error(), Hint: hint})
	}
	return code
}

// jsonError is the --json document of a run that failed before its
// command could print its own (a usage error, a home that cannot be used).
type jsonError struct {
	Schema   int    `json:"schema"`
	Command  string `json:"command,omitempty"`
	ExitCode int    `json:"exit_code"`
	Error    string `json:"error"`
	Hint     string `json:"hint,omitempty"`
}

// wantsJSON reports a --json flag in args, for a run whose flags did not
// parse.
func wantsJSON(args []string) bool {
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}

// unknownCommand is the command args name when it is none of root's
// ("install"), past the flags, known or not.
func unknownCommand(root *cobra.Command, args []string) (string, bool) {
	if c, _, err := root.Find(args); err != nil || c != root {
		return "", false
	}
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.ParseErrorsWhitelist.UnknownFlags = true
	fs.SetOutput(io.Discard)
	fs.AddFlagSet(root.Flags())
	if fs.Parse(args) != nil || fs.NArg() == 0 {
		return "", false
	}
	return fs.Arg(0), true
}

// commandName is the name of the command args run ("add"), or "" when
// they name none.
func commandName(root *cobra.Command, args []string) string {
	c, _, err := root.Find(args)
	if err != nil || c == root {
		return ""
	}
	return c.Name()
}

// commandPath is "hookinstall add" for args that run add.
func commandPath(root *cobra.Command, args []string) string {
	c, _, err := root.Find(args)
	if err != nil {
		return root.Name()
	}
	return c.CommandPath()
}

// isUsage reports a command-line mistake (exit 2): a usageError, which
// cobra's flag and argument errors are made into (SetFlagErrorFunc,
// typeArgErrors).
func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}

func newRootCmd(g *globalOptions) *cobra.Command {
	var showVersion bool
	root := &cobra.Command{
		Use:   "hookinstall",
		Short: "Install coding agents' state hooks for a terminal host, and remove them exactly",
		Long: `hookinstall installs one tiny generated hook per state into each coding
agent's global config, so the agent reports working, attention, done and
interrupted to its terminal host as an OSC 777 sequence. remove gives the
user's files back byte for byte.`,
		SilenceErrors:      true,
		SilenceUsage:       true,
		DisableSuggestions: true, // run says them, as a hint
		Args:               cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				return printVersion(g)
			}
			if g.JSON {
				// --json promises one document: help text is none.
				var names []string
				for _, c := range cmd.Commands() {
					if c.IsAvailableCommand() { // as the help lists them (not help itself)
						names = append(names, c.Name())
					}
				}
				return usageError{errors.New("name a command: " + strings.Join(names, ", "))}
			}
			return cmd.Help()
		},
	}
	// --version has no -v: -v is --verbose, as in gh, chezmoi and lefthook.
	root.Flags().BoolVar(&showVersion, "version", false, "print the version, commit, build date and Go version (as 'hookinstall version')")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	// flags' help wrapped to the width of the text output
	root.SetUsageTemplate(strings.ReplaceAll(root.UsageTemplate(), "FlagUsages", "FlagUsagesWrapped "+strconv.Itoa(textWidth)))
	pf := root.PersistentFlags()
	pf.StringVar(&g.NS, "namespace", "", "namespace of everything written (default $HOOKINSTALL_NAMESPACE or \"hookinstall\")")
	pf.StringVar(&g.Home, "home", "", "home directory to install into (default $HOME); agents' dir variables are then ignored")
	pf.StringVar(&g.AsHome, "as-home", "", "with --home: the home as the agent will see it (a container's), written into configs and scripts")
	pf.BoolVar(&g.JSON, "json", false, "print one JSON document (for hosts)")
	pf.StringVar(&g.AgentID, "agent-id", "", "a clone agent's own id (with --base on add)")
	pf.StringVar(&g.Base, "base", "", "the agent whose config shape and events a clone uses")
	_ = root.RegisterFlagCompletionFunc("namespace", g.completeNamespaces)
	_ = root.RegisterFlagCompletionFunc("base", completeAgents)
	_ = root.RegisterFlagCompletionFunc("agent-id", g.completeClones)
	for _, f := range []string{"home", "as-home"} {
		_ = root.MarkPersistentFlagDirname(f)
	}
	root.AddCommand(newAddCmd(g), newRemoveCmd(g), newStatusCmd(g), newDoctorCmd(g), newAgentsCmd(g), newEmitCmd(g), newInitCmd(g), newRunCmd(g), newLsCmd(g), newJumpCmd(g), newWatchCmd(g), newVersionCmd(g))
	for _, c := range extraCommands {
		root.AddCommand(c(g))
	}
	// cobra's completion command now rather than inside Execute, so that
	// its argument checks are typed as well
	root.InitDefaultCompletionCmd()
	typeArgErrors(root)
	return root
}

// typeArgErrors makes the argument check of c and of every command under
// it (cobra's NoArgs, MinimumNArgs, ...: an unknown command, a wrong
// count) return a usageError, with cobra's message unchanged. Flag errors
// are typed by the root's SetFlagErrorFunc, which every command inherits.
// (cobra's hidden __complete command, which it adds inside Execute, is
// out of reach; shells always give it arguments.)
func typeArgErrors(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		typeArgErrors(sub)
	}
}

// installer builds the library's Installer from the flags. Every default
// and check ($HOOKINSTALL_NAMESPACE, --home and $HOME, --as-home) is the
// library's (hookinstall.New); this only words its errors as flags.
func (g *globalOptions) installer() (*hookinstall.Installer, error) {
	in, err := hookinstall.New(hookinstall.Options{Namespace: g.NS, Home: g.Home, AsHome: g.AsHome, Getenv: g.Getenv, Version: buildVersion().String()})
	var oe *hookinstall.OptionError
	switch {
	case err == nil:
		return in, nil
	case !errors.As(err, &oe):
		return nil, err
	case oe.Option == "Home" && g.Home != "":
		return nil, homeFlagError("--home", g.Home, oe.Err)
	case oe.Option == "Home":
		return nil, usageError{fmt.Errorf("%v; use --home", oe.Err)}
	case oe.Option == "AsHome" && g.Home == "":
		return nil, usageError{errors.New("--as-home needs --home")}
	case oe.Option == "AsHome":
		return nil, homeFlagError("--as-home", g.AsHome, oe.Err)
	}
	return nil, usageError{err}
}

// A selection is what a command was asked to act on: every agent (all), a
// clone (agents holds its id, base its base or ""), or named agents.
type selection struct {
	all    bool
	agents []string
	base   string
}

// selectAgents checks the agent names and flags of a command, and resolves
// each agent named, so that nothing is written when one of them is wrong.
func (g *globalOptions) selectAgents(in *hookinstall.Installer, names []string, all bool) (selection, error) {
	if g.AgentID != "" {
		if len(names) > 0 || all {
			return selection{}, usageError{errors.New("--agent-id names one clone agent: give no agent names and no --all")}
		}
		if _, err := in.Clone(g.AgentID, g.Base); err != nil {
			if errors.Is(err, hookinstall.ErrUnknownAgent) {
				if g.Base == "" {
					err = fmt.Errorf("no install of clone agent %q found under %s; name its --base", g.AgentID, in.Home())
				}
				return selection{}, usageError{err}
			}
			return selection{}, err
		}
		return selection{agents: []string{g.AgentID}, base: g.Base}, nil
	}
	if g.Base != "" {
		return selection{}, usageError{errors.New("--base goes with --agent-id")}
	}
	if all && len(names) > 0 {
		return selection{}, usageError{errors.New("give agent names or --all, not both")}
	}
	if all {
		return selection{all: true}, nil
	}
	if len(names) == 0 {
		return selection{}, usageError{fmt.Errorf("name an agent (%s) or use --all", strings.Join(hookinstall.AgentNames(), ", "))}
	}
	var sel selection
	for _, n := range names {
		a, err := in.Agent(n) // "agy" is antigravity, "Claude" claude
		if err != nil {
			if errors.Is(err, hookinstall.ErrUnknownAgent) {
				return selection{}, unknownAgent(in, n, err)
			}
			return selection{}, err
		}
		if !slices.Contains(sel.agents, a.Name) {
			sel.agents = append(sel.agents, a.Name)
		}
	}
	return sel, nil
}

// everyAgent is the selection of status and doctor with no names: every
// agent known, or the clone --agent-id names.
func (g *globalOptions) everyAgent(in *hookinstall.Installer, names []string) (selection, error) {
	if len(names) == 0 && g.AgentID == "" {
		names = hookinstall.AgentNames()
	}
	return g.selectAgents(in, names, false)
}

// jsonEncoder is the encoder of every --json document.
func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc
}
