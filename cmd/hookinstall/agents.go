package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
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
	Schema    int             `json:"schema"`
	Command   string          `json:"command"`
	Namespace string          `json:"namespace"`
	Home      string          `json:"home"`
	ExitCode  int             `json:"exit_code"`
	Agents    []jsonAgentInfo `json:"agents"`
}

type jsonAgentInfo struct {
	Agent      string      `json:"agent"`
	Config     string      `json:"config"`
	HooksDir   string      `json:"hooks_dir"`
	Shared     bool        `json:"shared"`
	Detected   bool        `json:"detected"`
	ByNameOnly bool        `json:"by_name_only"`
	Skip       string      `json:"skip,omitempty"`
	States     []string    `json:"states"`
	Events     []jsonEvent `json:"events"`
}

type jsonEvent struct {
	Event string `json:"event"`
	State string `json:"state"`
	Note  string `json:"note,omitempty"`
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
	infos := []jsonAgentInfo{}
	for _, a := range agents {
		i := jsonAgentInfo{Agent: a.Name, Config: a.Config, HooksDir: a.HooksDir, Shared: a.Shared, Detected: a.Detected, ByNameOnly: a.ByNameOnly,
			Skip: a.Skip, States: []string{}, Events: []jsonEvent{}}
		for _, st := range a.States() {
			i.States = append(i.States, string(st))
		}
		for _, e := range a.Events {
			i.Events = append(i.Events, jsonEvent{Event: e.Name, State: string(e.State), Note: e.Note})
		}
		infos = append(infos, i)
	}
	if o.JSON {
		return jsonEncoder(o.IO.Out).Encode(jsonAgents{Schema: jsonSchema, Command: "agents", Namespace: in.Namespace(), Home: in.Home(), Agents: infos})
	}
	tw := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tDETECTED\tCONFIG\tEVENTS")
	for _, i := range infos {
		var evs []string
		for _, e := range i.Events {
			evs = append(evs, e.Event+"→"+e.State)
		}
		det := "no"
		if i.Detected {
			det = "yes"
		}
		if i.ByNameOnly {
			det += " (by name only)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", i.Agent, det, i.Config, strings.Join(evs, ", "))
	}
	return tw.Flush()
}
