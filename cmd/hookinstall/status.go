package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/writer"
)

type statusOptions struct {
	*globalOptions
	Agents []string
}

func newStatusCmd(g *globalOptions, runF func(*statusOptions) error) *cobra.Command {
	o := &statusOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "status [AGENT...]",
		Short: "Say, per agent, in one word, whether our hooks will run: installed, drifted, disabled, untrusted, not-installed, not-detected or not-needed",
		RunE: func(_ *cobra.Command, args []string) error {
			o.Agents = args
			if runF != nil {
				return runF(o)
			}
			return runStatus(o)
		},
	}
}

type jsonStatus struct {
	Schema    int            `json:"schema"`
	Command   string         `json:"command"`
	Namespace string         `json:"namespace"`
	Home      string         `json:"home"`
	Agents    []writer.State `json:"agents"`
}

func runStatus(o *statusOptions) error {
	d := o.newDoctor(false, false, 0)
	ts, err := o.checkTargets(o.Agents)
	if err != nil {
		return err
	}
	states := []writer.State{}
	for _, t := range ts {
		// The same checks as doctor, without running anything.
		a := d.Agent(t)
		states = append(states, writer.State{Agent: a.Agent, Status: a.Status, Config: a.Config, Reasons: a.Reasons()})
	}
	if o.JSON {
		ao, _ := o.adapterOptions()
		doc := jsonStatus{Schema: jsonSchema, Command: "status", Namespace: ao.NS, Home: ao.Home, Agents: states}
		enc := json.NewEncoder(o.IO.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(doc)
	} else {
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
	}
	return nil
}
