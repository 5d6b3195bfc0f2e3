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
	// Versions is absent where no binary of the agent could be run here.
	Versions *jsonVersions `json:"versions,omitempty"`
}

// jsonVersions is an agent's measured version range (docs/agents.md).
type jsonVersions struct {
	Program string      `json:"program"`
	Oldest  string      `json:"oldest"`
	Newest  string      `json:"newest"`
	Floor   string      `json:"floor"`
	Older   []jsonOlder `json:"older"`
}

type jsonOlder struct {
	Below     string   `json:"below"`
	Drop      []string `json:"drop"`
	TimeoutMS bool     `json:"timeout_ms"`
	Refused   string   `json:"refused,omitempty"`
	Why       string   `json:"why"`
}

type jsonEvent struct {
	Event  string `json:"event"`
	State  string `json:"state"`
	Note   string `json:"note,omitempty"`
	Script string `json:"script,omitempty"`
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
	texts := map[string]string{}
	for _, a := range agents {
		i := jsonAgentInfo{Agent: a.Name, Config: a.Config, HooksDir: a.HooksDir, Shared: a.Shared, Detected: a.Detected, ByNameOnly: a.ByNameOnly,
			Skip: a.Skip, States: []string{}, Events: []jsonEvent{}}
		for _, st := range a.States() {
			i.States = append(i.States, string(st))
		}
		for _, e := range a.Events {
			i.Events = append(i.Events, jsonEvent{Event: e.Name, State: string(e.State), Note: e.Note, Script: e.Script})
		}
		if v := a.Versions; v != nil {
			i.Versions = &jsonVersions{Program: v.Program, Oldest: v.Oldest, Newest: v.Newest, Floor: v.Floor, Older: []jsonOlder{}}
			for _, o := range v.Older {
				i.Versions.Older = append(i.Versions.Older, jsonOlder{Below: o.Below, Drop: append([]string{}, o.Drop...), TimeoutMS: o.TimeoutMS, Refused: o.Refused, Why: o.Why})
			}
			texts[a.Name] = v.Text()
		}
		infos = append(infos, i)
	}
	if o.JSON {
		return jsonEncoder(o.IO.Out).Encode(jsonAgents{Schema: jsonSchema, Command: "agents", Namespace: in.Namespace(), Home: in.Home(), Agents: infos})
	}
	tw := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tDETECTED\tCONFIG\tVERSIONS\tEVENTS")
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
		vs := texts[i.Agent]
		if vs == "" {
			vs = "not measured"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", i.Agent, det, i.Config, vs, strings.Join(evs, ", "))
	}
	return tw.Flush()
}
