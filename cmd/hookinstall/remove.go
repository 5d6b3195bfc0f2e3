package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

type removeOptions struct {
	*globalOptions
	Agents []string
	All    bool
	DryRun bool
	Force  bool
}

func newRemoveCmd(g *globalOptions) *cobra.Command {
	o := &removeOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:        "remove AGENT...|--all",
		SuggestFor: []string{"uninstall", "rm", "delete"},
		Short:      "Remove the state hooks, giving the user's files back byte for byte",
		Example: `  hookinstall remove claude
  hookinstall remove --all --dry-run`,
		ValidArgsFunction: g.completeInstalled,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Agents = args
			return runRemove(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "every agent with our manifest or entries")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "name the files and print a unified diff; write nothing")
	cmd.Flags().BoolVar(&o.Force, "force", false, "also remove our entries that were edited by hand")
	return cmd
}

func runRemove(ctx context.Context, o *removeOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	sel, err := o.selectAgents(in, o.Agents, o.All)
	if err != nil {
		return err
	}
	opts := hookinstall.RemoveOptions{DryRun: o.DryRun, Force: o.Force, Base: sel.base}
	var results []done
	if sel.all {
		rs, err := in.RemoveAll(ctx, opts)
		if rs == nil && err != nil {
			return err
		}
		for _, r := range rs {
			d := done{Result: r}
			if r.Base != "" {
				d.Also = "clone of " + r.Base
			}
			results = append(results, d)
		}
	} else {
		for _, a := range sel.agents {
			results = append(results, done{Result: in.Remove(ctx, a, opts)})
		}
	}
	if len(results) == 0 && !o.JSON {
		fmt.Fprintf(o.IO.Out, "no installs found under %s; nothing removed\n", in.Home())
		return nil
	}
	return o.printResults(in, "remove", o.DryRun, false, results, nil, nil, nil)
}

// installerFor is an Installer like the flags', in namespace ns.
func (g *globalOptions) installerFor(ns string) (*hookinstall.Installer, error) {
	h := *g
	h.NS = ns
	return h.installer()
}
