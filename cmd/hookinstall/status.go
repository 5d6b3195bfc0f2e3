package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

type statusOptions struct {
	*globalOptions
	Agents []string
}

func newStatusCmd(g *globalOptions) *cobra.Command {
	o := &statusOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "status [AGENT...]",
		Short: "Say in one word per agent whether our hooks will run",
		Long: `status says, per agent, in one word whether our hooks will run: installed,
drifted, disabled, untrusted, not-installed or not-detected. With no
agent named it also lists every install of another namespace and every clone
found under the home, under a line of their own. It exits 1 when an install is drifted, disabled or
untrusted, and 0 otherwise.`,
		Example: `  hookinstall status
  hookinstall status claude --json`,
		ValidArgsFunction: completeAgents,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Agents = args
			return runStatus(cmd.Context(), o)
		},
	}
}

// jsonStatus is status's --json document (docs/json.md).
type jsonStatus struct {
	Schema    int                        `json:"schema"`
	Command   string                     `json:"command"`
	Namespace string                     `json:"namespace"`
	Home      string                     `json:"home"`
	ExitCode  int                        `json:"exit_code"`
	Agents    []*hookinstall.AgentStatus `json:"agents"`
}

// statusFails are the statuses that make status exit 1: ours are there,
// but they will not run as installed (as gh auth status does for a broken
// login).
var statusFails = map[hookinstall.Status]bool{
	hookinstall.StatusDrifted: true, hookinstall.StatusDisabled: true, hookinstall.StatusUntrusted: true,
}

func runStatus(ctx context.Context, o *statusOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	sel, err := o.everyAgent(in, o.Agents)
	if err != nil {
		return err
	}
	states := []*hookinstall.AgentStatus{}
	code := exitOK
	add := func(nin *hookinstall.Installer, agent, base string) error {
		s, err := nin.Status(ctx, agent, hookinstall.StatusOptions{Base: base})
		if err != nil {
			return err
		}
		if statusFails[s.Status] {
			code = exitFail
		}
		states = append(states, s)
		return nil
	}
	for _, a := range sel.agents {
		if err := add(in, a, sel.base); err != nil {
			return err
		}
	}
	if len(o.Agents) == 0 && o.AgentID == "" {
		// Every other install found: other namespaces, and clones.
		installs, err := in.Installs()
		if err != nil {
			return err
		}
		for _, i := range installs {
			if i.Namespace == in.Namespace() && i.Base == "" {
				continue
			}
			nin, err := o.installerFor(i.Namespace)
			if err != nil {
				return err
			}
			if err := add(nin, i.Agent, i.Base); err != nil {
				return err
			}
		}
	}
	if o.JSON {
		_ = jsonEncoder(o.IO.Out).Encode(jsonStatus{Schema: jsonSchema, Command: "status", Namespace: in.Namespace(), Home: in.Home(), ExitCode: code, Agents: states})
	} else {
		tw := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
		others := false
		for _, s := range states {
			if (s.Namespace != in.Namespace() || s.Base != "") && !others {
				// the rows of this namespace's agents end here: what
				// follows is installed beside them, not a second row of theirs
				others = true
				tw.Flush()
				fmt.Fprintln(o.IO.Out, "also installed (other namespaces, clones):")
			}
			var q []string
			if s.Namespace != in.Namespace() {
				q = append(q, "namespace "+s.Namespace)
			}
			if s.Base != "" {
				q = append(q, "clone of "+s.Base)
			}
			if len(q) == 0 {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Agent, s.Status, s.Config)
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Agent, s.Status, s.Config, strings.Join(q, ", "))
		}
		tw.Flush()
		for _, s := range states {
			for _, r := range s.Reasons {
				printWrapped(o.IO.Out, "  "+s.Agent+": ", "    ", r)
			}
		}
		next := "next:\n"
		for _, s := range states {
			if s.Next != "" {
				fmt.Fprint(o.IO.Out, next)
				printWrapped(o.IO.Out, "  "+s.Agent+": ", "    ", s.Next)
				next = ""
			}
		}
	}
	if code != exitOK {
		return exitError{code}
	}
	return nil
}
