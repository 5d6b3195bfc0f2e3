package main

import (
	"context"
	"fmt"

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
	sel, err := o.selectAgents(in, o.Agents, o.All)
	if err != nil {
		return err
	}
	opts := hookinstall.InstallOptions{DryRun: o.DryRun, Force: o.Force, Trust: o.Trust, Base: sel.base}
	var results []*hookinstall.Result
	if sel.all {
		var err error
		if results, err = in.InstallAll(ctx, opts); results == nil && err != nil {
			return err // no agent could be picked
		}
	} else {
		for _, a := range sel.agents {
			r, _ := in.Install(ctx, a, opts)
			results = append(results, r)
		}
	}
	if len(results) == 0 {
		if o.JSON {
			return o.printResults(in, "add", o.DryRun, nil)
		}
		fmt.Fprintln(o.IO.Out, "no agents detected; nothing installed")
		return nil
	}
	err = o.printResults(in, "add", o.DryRun, results)
	if !o.JSON {
		for _, r := range results {
			if r.Hint != "" {
				fmt.Fprintln(o.IO.Out, r.Hint)
			}
		}
	}
	return err
}
