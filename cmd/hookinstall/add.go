package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

type addOptions struct {
	*globalOptions
	Agents []string
	All    bool
	DryRun bool
	Force  bool
	Trust  bool
	Linked bool
	Print  bool
}

func newAddCmd(g *globalOptions) *cobra.Command {
	o := &addOptions{globalOptions: g}
	var agents strings.Builder
	printWrapped(&agents, "Agents: ", "", strings.Join(hookinstall.AgentNames(), ", ")+" (agy is antigravity).")
	cmd := &cobra.Command{
		Use:        "add AGENT...|--all",
		SuggestFor: []string{"install", "setup"},
		Short:      "Install the state hooks into agents' global configs",
		Long:       "add installs the state hooks into each named agent's global config (with\n--all, into every agent detected on this machine) and says what happens next.\n\n" + agents.String(),
		Example: `  hookinstall add claude
  hookinstall add --all --dry-run
  hookinstall add claude --home /srv/agents/claude-1 --as-home /root`,
		ValidArgsFunction: completeAgents,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Agents = args
			return runAdd(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "every agent detected on this machine (codex only when named)")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "name the files and print a unified diff; write nothing")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace our entries even where they were edited by hand")
	cmd.Flags().BoolVar(&o.Linked, "linked", false, "write through a symlink into a git repository (dotfiles): its files get this machine's paths")
	cmd.Flags().BoolVar(&o.Print, "print", false, "for a config your own tool writes (home-manager): write our scripts, not the config, and print the entries to put in it")
	cmd.Flags().BoolVar(&o.Trust, "trust", false, "codex: also record your trust for our hooks in config.toml, so they run with no review (asks the installed Codex for the hashes and checks it trusts them)")
	for _, f := range []string{"all", "dry-run", "trust"} {
		cmd.MarkFlagsMutuallyExclusive("print", f)
	}
	return cmd
}

func runAdd(ctx context.Context, o *addOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	if o.Trust && !o.All && o.AgentID == "" {
		// --trust applies to agents whose trust records hookinstall
		// writes (Codex); for the others it is a usage mistake.
		agents, err := in.Agents()
		if err != nil {
			return err
		}
		var writable []string
		for _, a := range agents {
			if a.TrustWritable {
				writable = append(writable, a.Name)
			}
		}
		for _, n := range o.Agents {
			if a, err := in.Agent(n); err == nil && !a.TrustWritable {
				return usageError{hinted{fmt.Errorf("--trust: hookinstall records trust only for %s, not for %s", strings.Join(writable, ", "), a.Name),
					fmt.Sprintf("drop --trust: '%s' says what %s needs, if anything, before its hooks run", in.Command("add "+a.Name), a.Name)}}
			}
		}
	}
	sel, err := o.selectAgents(in, o.Agents, o.All)
	if err != nil {
		return err
	}
	opts := hookinstall.InstallOptions{DryRun: o.DryRun, Force: o.Force, Trust: o.Trust, Linked: o.Linked, Print: o.Print, Base: sel.base}
	var results []done
	var skipped []skip
	var missing []string        // named agents not found on this machine
	absent := map[string]bool{} // and by name
	if sel.all {
		rs, err := in.InstallAll(ctx, opts)
		if rs == nil && err != nil {
			return err // no agent could be picked
		}
		for _, r := range rs {
			results = append(results, done{Result: r})
		}
		agents, err := in.Agents()
		if err != nil {
			return err
		}
		for _, a := range agents {
			if a.Skip != "" {
				skipped = append(skipped, skip{Agent: a.Name, Reason: a.Skip})
			}
		}
	} else {
		for _, a := range sel.agents {
			// asked before the install, which creates the agent's folder
			ag, err := in.Clone(a, sel.base)
			r := in.Install(ctx, a, opts)
			results = append(results, done{Result: r})
			if err == nil && !ag.Detected && r.Err == nil && r.Status == hookinstall.StatusInstalled {
				missing = append(missing, notFound(ag))
				absent[a] = true
			}
		}
	}
	if len(results) == 0 && !o.JSON {
		fmt.Fprintf(o.IO.Out, "no agents detected under %s; nothing installed\n", in.Home())
		for _, s := range skipped {
			printWrapped(o.IO.Out, "  "+s.Agent+": ", "    ", s.Reason)
		}
		fmt.Fprintln(o.IO.Out, "name one to install it anyway: "+in.Command("add AGENT"))
		return nil
	}
	steps, text := nextSteps(in, o.Getenv, results, absent)
	return o.printResults(in, "add", o.DryRun, sel.all, results, skipped, slices.Concat(missing, steps), slices.Concat(missing, text))
}

// notFound tells that a named agent was installed for although it was not
// found on this machine, and what was looked for.
func notFound(a hookinstall.Agent) string {
	return fmt.Sprintf("%s was not found on this machine (%s): its hooks run once it is installed.", a.Product, a.Missing)
}

// nextSteps is what add tells the user once something was installed:
// steps, --json's next_steps (docs/json.md), say how the hooks get switched
// on (hookinstall init in the user's own shell, or a terminal host), that
// running agents need a restart, and how to check; text, the text output's,
// says only what the user must do: no host's part, and no restart of an
// agent that is absent (not found on this machine).
func nextSteps(in *hookinstall.Installer, getenv func(string) string, results []done, absent map[string]bool) (steps, text []string) {
	var installed, found []string
	for _, r := range results {
		if r.Err == nil && r.Status == hookinstall.StatusInstalled {
			installed = append(installed, r.Agent)
			if !absent[r.Agent] {
				found = append(found, r.Agent)
			}
		}
	}
	if len(installed) == 0 {
		return nil, nil
	}
	env := in.Env("", "")
	task, pty := strings.TrimSuffix(env[0], "="), strings.TrimSuffix(env[1], "=")
	// emit in this namespace: the default's sequence this namespace's host ignores
	check, doctor, emit := in.Command("status"), in.Command("doctor"), nsCommand(in.Namespace(), "emit attention")
	restart := func(agents []string) string {
		return fmt.Sprintf("Restart any %s already running: an agent reads its hooks when it starts.", strings.Join(agents, ", "))
	}
	steps, text = switchOn(in.Namespace(), getenv, task, pty)
	steps = append(steps, restart(installed),
		fmt.Sprintf("Check with '%s' (one word per agent) or '%s' (fires each hook); '%s' shows what your host receives (with --terminal, your terminal).", check, doctor, emit))
	if len(found) > 0 {
		text = append(text, restart(found))
	}
	return steps, append(text, fmt.Sprintf("Check with '%s' (it fires each hook).", doctor))
}

// nsCommand is "hookinstall VERB" in namespace ns, for the commands that
// take no home.
func nsCommand(ns, verb string) string {
	if ns != hookinstall.DefaultNamespace {
		verb += " --namespace " + ns
	}
	return "hookinstall " + verb
}

// switchOn says how the hooks get switched on, for the shell add ran in:
// already (init's task id, or a host's), or the rc line for the user's
// $SHELL, and what a terminal host sets instead (steps); text is the part
// the user does.
func switchOn(ns string, getenv func(string) string, task, pty string) (steps, text []string) {
	id := getenv(task)
	if t, ok := terminal.FromTask(id); ok {
		steps = []string{fmt.Sprintf("This shell is set up by 'hookinstall init' (%s): agents started from it show tab progress and notifications in this terminal.", t)}
		return steps, steps
	}
	if id != "" {
		steps = []string{fmt.Sprintf("This shell runs inside a terminal host (%s is set): agents started from it report to the host.", task)}
		return steps, steps
	}
	line := map[string]string{
		"bash": `add 'eval "$(` + nsCommand(ns, "init bash") + `)"' to ~/.bashrc`,
		"zsh":  `add 'eval "$(` + nsCommand(ns, "init zsh") + `)"' to ~/.zshrc`,
		"fish": `add '` + nsCommand(ns, "init fish") + ` | source' to ~/.config/fish/config.fish`,
	}[filepath.Base(getenv("SHELL"))]
	if line == "" {
		line = `add 'eval "$(` + nsCommand(ns, "init bash") + `)"' to your shell's rc file (zsh, fish: see 'hookinstall init --help')`
	}
	return []string{
		"The hooks stay silent until switched on. In your own terminal (locally, over ssh, in tmux): " + line + ", then open a new shell.",
		fmt.Sprintf("A terminal host switches them on itself: it starts the agent with %s (any non-empty id) and %s (the tab's pty).", task, pty),
	}, []string{"To switch the hooks on in your own terminal, " + line + ", then open a new shell."}
}
