package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

type addOptions struct {
	*globalOptions
	Agents []string
	All    bool
	DryRun bool
	Force  bool
	Trust  bool
}

func newAddCmd(g *globalOptions, runF func(*addOptions) error) *cobra.Command {
	o := &addOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "add AGENT...|--all",
		Short: "Install the state hooks into agents' global configs",
		Example: `  hookinstall add claude
  hookinstall add --all --dry-run
  hookinstall add claude --home /srv/agents/claude-1 --as-home /root`,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Agents = args
			if runF != nil {
				return runF(o)
			}
			return runAdd(o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "every agent detected on this machine (codex only when named)")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "name the files and print a unified diff; write nothing")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace our entries even where they were edited by hand")
	cmd.Flags().BoolVar(&o.Trust, "trust", false, "codex: also record your trust for our hooks in config.toml, so they run with no review (checks the Codex version first)")
	return cmd
}

func runAdd(o *addOptions) error {
	w := o.writer(writer.Options{DryRun: o.DryRun, Force: o.Force, Trust: o.Trust})
	ts, err := o.targets(o.Agents, o.All, func(t adapters.Target) bool {
		return !t.Adapter.ByNameOnly() && w.Detected(t)
	})
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		if o.JSON {
			return o.printReports("add", o.DryRun, nil)
		}
		fmt.Fprintln(o.IO.Out, "no agents detected; nothing installed")
		return nil
	}
	var reports []writer.Report
	for _, t := range ts {
		if o.Trust {
			if err := o.checkTrustVersion(t); err != nil {
				reports = append(reports, writer.Report{Agent: t.ID, Config: t.Adapter.Config(t), Status: "error", Err: err})
				continue
			}
		}
		reports = append(reports, w.Add(context.Background(), t))
	}
	err = o.printReports("add", o.DryRun, reports)
	if !o.JSON && !o.DryRun {
		for _, r := range reports {
			if r.Err == nil && r.Status == "installed" && !o.Trust {
				if hint := trustHint(r.Agent, ts); hint != "" {
					fmt.Fprintln(o.IO.Out, hint)
				}
			}
		}
	}
	return err
}

// trustHint tells the user what an agent needs before our hooks run.
func trustHint(agent string, ts []adapters.Target) string {
	for _, t := range ts {
		if t.ID == agent {
			if th, ok := t.Adapter.(adapters.TrustHinter); ok {
				return th.TrustHint(t)
			}
		}
	}
	return ""
}
