package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

type agentsOptions struct {
	*globalOptions
}

func newAgentsCmd(g *globalOptions, runF func(*agentsOptions) error) *cobra.Command {
	o := &agentsOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "agents",
		Short: "List the agents hookinstall knows, where it writes, and what each reports",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runAgents(o)
		},
	}
}

type jsonAgentInfo struct {
	Agent      string               `json:"agent"`
	Config     string               `json:"config"`
	HooksDir   string               `json:"hooks_dir"`
	Shared     bool                 `json:"shared"`
	Detected   bool                 `json:"detected"`
	ByNameOnly bool                 `json:"by_name_only"`
	Events     []adapters.EventInfo `json:"events"`
}

func runAgents(o *agentsOptions) error {
	w := o.writer(writer.Options{})
	ts, err := o.targets(nil, true, nil)
	if err != nil {
		return err
	}
	var infos []jsonAgentInfo
	for _, t := range ts {
		infos = append(infos, jsonAgentInfo{
			Agent: t.ID, Config: t.Adapter.Config(t), HooksDir: t.HooksDir(), Shared: !t.Adapter.OwnFile(),
			Detected: w.Detected(t), ByNameOnly: t.Adapter.ByNameOnly(), Events: t.Adapter.Events(),
		})
	}
	if o.JSON {
		enc := json.NewEncoder(o.IO.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(map[string]any{"schema": jsonSchema, "command": "agents", "agents": infos})
	}
	tw := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tDETECTED\tCONFIG\tEVENTS")
	for _, i := range infos {
		var evs []string
		for _, e := range i.Events {
			evs = append(evs, e.Event+"→"+string(e.State))
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
