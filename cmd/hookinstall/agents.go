package main

import (
	"strings"

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
	// Three lines an agent: whether it is here, the versions measured, and
	// under them where it writes and what each event reports.
	for _, i := range agents {
		var evs []string
		for _, e := range i.Events {
			evs = append(evs, e.Name+"→"+string(e.State))
		}
		det := "not detected"
		if i.Detected {
			det = "detected"
		}
		vs := i.Versions.Text()
		if vs == "" {
			vs = "not measured"
		}
		printWrapped(o.IO.Out, i.Name+": "+det+"; versions ", "    ", vs)
		printWrapped(o.IO.Out, "  config: ", "    ", i.Config)
		printWrapped(o.IO.Out, "  events: ", "    ", strings.Join(evs, ", "))
	}
	return nil
}
