package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

type agentsOptions struct {
	*globalOptions
}

func newAgentsCmd(g *globalOptions) *cobra.Command {
	o := &agentsOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "agents",
		Short: "List the agents hookinstall knows, where it writes, and what each reports",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return runAgents(o)
		},
	}
}

// jsonAgents is agents's --json document (docs/json.md).
type jsonAgents struct {
	Schema    int                 `json:"schema"`
	Command   string              `json:"command"`
	Namespace string              `json:"namespace"`
	Home      string              `json:"home"`
	ExitCode  int                 `json:"exit_code"`
	Agents    []hookinstall.Agent `json:"agents"`
}

func runAgents(o *agentsOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	if o.AgentID != "" || o.Base != "" {
		if _, err := o.selectAgents(in, nil, true); err != nil {
			return err
		}
	}
	agents, err := in.Agents()
	if err != nil {
		return err
	}
	if o.JSON {
		return jsonEncoder(o.IO.Out).Encode(jsonAgents{Schema: jsonSchema, Command: "agents", Namespace: in.Namespace(), Home: in.Home(), Agents: agents})
	}
	tw := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tDETECTED\tCONFIG\tVERSIONS\tEVENTS")
	for _, i := range agents {
		var evs []string
		for _, e := range i.Events {
			evs = append(evs, e.Name+"→"+string(e.State))
		}
		det := "no"
		if i.Detected {
			det = "yes"
		}
		if i.ByNameOnly {
			det += " (by name only)"
		}
		vs := i.Versions.Text()
		if vs == "" {
			vs = "not measured"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", i.Name, det, i.Config, vs, strings.Join(evs, ", "))
	}
	return tw.Flush()
}
