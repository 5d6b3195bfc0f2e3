package main

import (
	"context"
	"fmt"
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
		Use:               "status [AGENT...]",
		Short:             "Say, per agent, in one word, whether our hooks will run: installed, drifted, disabled, untrusted, not-installed, not-detected or not-needed",
		ValidArgsFunction: completeAgents,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Agents = args
			return runStatus(cmd.Context(), o)
		},
	}
}

type jsonStatus struct {
	Schema    int               `json:"schema"`
	Command   string            `json:"command"`
	Namespace string            `json:"namespace"`
	Home      string            `json:"home"`
	Agents    []jsonAgentStatus `json:"agents"`
}

type jsonAgentStatus struct {
	Agent   string   `json:"agent"`
	Status  string   `json:"status"`
	Config  string   `json:"config"`
	Reasons []string `json:"reasons,omitempty"`
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
	states := []jsonAgentStatus{}
	for _, a := range sel.agents {
		s, err := in.Status(ctx, a, hookinstall.StatusOptions{Base: sel.base})
		if err != nil {
			return err
		}
		states = append(states, jsonAgentStatus{Agent: s.Agent, Status: string(s.Status), Config: s.Config, Reasons: s.Reasons})
	}
	if o.JSON {
		return jsonEncoder(o.IO.Out).Encode(jsonStatus{Schema: jsonSchema, Command: "status", Namespace: in.Namespace(), Home: in.Home(), Agents: states})
	}
	tw := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
	for _, s := range states {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Agent, s.Status, s.Config)
	}
	tw.Flush()
	for _, s := range states {
		for _, r := range s.Reasons {
			fmt.Fprintf(o.IO.Out, "  %s: %s\n", s.Agent, r)
		}
	}
	return nil
}
