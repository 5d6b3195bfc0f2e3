package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

type addOptions struct {
	*globalOptions
	Agents []string
	All    bool
	DryRun bool
	Force  bool
	Trust  bool
}

func newAddCmd(g *globalOptions) *cobra.Command {
	o := &addOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "add AGENT...|--all",
		Short: "Install the state hooks into agents' global configs",
		Long: "add installs the state hooks into each named agent's global config (with\n--all, into every agent detected on this machine) and says what happens next.\n\nAgents: " +
			strings.Join(hookinstall.AgentNames(), ", ") + " (agy is antigravity).",
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
	cmd.Flags().BoolVar(&o.Trust, "trust", false, "codex: also record your trust for our hooks in config.toml, so they run with no review (checks the Codex version first)")
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
		var writable []string
		for _, a := range hookinstall.AgentNames() {
			if hookinstall.TrustWritable(a) {
				writable = append(writable, a)
			}
		}
		for _, n := range o.Agents {
			if a, ok := hookinstall.AgentName(n); ok && !hookinstall.TrustWritable(a) {
				return usageError{hinted{fmt.Errorf("--trust: hookinstall records trust only for %s, not for %s", strings.Join(writable, ", "), a),
					fmt.Sprintf("drop --trust: 'hookinstall add %s' says what %s needs, if anything, before its hooks run", a, a)}}
			}
		}
	}
	sel, err := o.selectAgents(in, o.Agents, o.All)
	if err != nil {
		return err
	}
	opts := hookinstall.InstallOptions{DryRun: o.DryRun, Force: o.Force, Trust: o.Trust, Base: sel.base}
	var results []done
	var skipped []skip
	if sel.all {
		rs, err := in.InstallAll(ctx, opts)
		if rs == nil && err != nil {
			return err // no agent could be picked
		}
		for _, r := range rs {
			results = append(results, done{Result: r, NS: in.Namespace()})
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
			r, _ := in.Install(ctx, a, opts)
			results = append(results, done{Result: r, NS: in.Namespace(), Base: sel.base})
		}
	}
	if len(results) == 0 && !o.JSON {
		fmt.Fprintf(o.IO.Out, "no agents detected under %s; nothing installed\n", in.Home())
		for _, s := range skipped {
			fmt.Fprintf(o.IO.Out, "  %s: %s\n", s.Agent, s.Reason)
		}
		fmt.Fprintln(o.IO.Out, "name one to install it anyway: hookinstall add AGENT")
		return nil
	}
	return o.printResults(in, "add", o.DryRun, sel.all, results, skipped, nextSteps(in, results, in.HomeFlags()))
}

// nextSteps is what add tells the user once something was installed: what
// the host must set, that running agents need a restart, how to check.
func nextSteps(in *hookinstall.Installer, results []done, flags string) []string {
	var installed []string
	for _, r := range results {
		if r.Err == nil && r.Outcome == hookinstall.OutcomeInstalled {
			installed = append(installed, r.Agent)
		}
	}
	if len(installed) == 0 {
		return nil
	}
	env := in.Env("", "")
	task, pty := strings.TrimSuffix(env[0], "="), strings.TrimSuffix(env[1], "=")
	check := "hookinstall status"
	if in.Namespace() != hookinstall.DefaultNamespace {
		check += " --namespace " + in.Namespace()
	}
	check += flags
	return []string{
		fmt.Sprintf("The hooks stay silent until your terminal host starts the agent with %s (any non-empty id) and %s (the tab's pty) in its environment.", task, pty),
		fmt.Sprintf("Restart any %s already running: an agent reads its hooks when it starts.", strings.Join(installed, ", ")),
		fmt.Sprintf("Check with '%s' (one word per agent) or '%s' (fires each hook); 'hookinstall emit attention' shows what your host receives.", check, strings.Replace(check, "status", "doctor", 1)),
	}
}
