package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

type removeOptions struct {
	*globalOptions
	Agents []string
	All    bool
	DryRun bool
	Force  bool
}

func newRemoveCmd(g *globalOptions, runF func(*removeOptions) error) *cobra.Command {
	o := &removeOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "remove AGENT...|--all",
		Short: "Remove the state hooks, giving the user's files back byte for byte",
		Example: `  hookinstall remove claude
  hookinstall remove --all --dry-run`,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Agents = args
			if runF != nil {
				return runF(o)
			}
			return runRemove(o)
		},
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "every agent with our manifest or entries")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "name the files and print a unified diff; write nothing")
	cmd.Flags().BoolVar(&o.Force, "force", false, "also remove our entries that were edited by hand")
	return cmd
}

func runRemove(o *removeOptions) error {
	w := o.writer(writer.Options{DryRun: o.DryRun, Force: o.Force})
	ts, err := o.targets(o.Agents, o.All, w.Installed)
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		if o.JSON {
			return o.printReports("remove", o.DryRun, nil)
		}
		fmt.Fprintln(o.IO.Out, "no installs found; nothing removed")
		return nil
	}
	var reports []writer.Report
	for _, t := range ts {
		reports = append(reports, w.Remove(context.Background(), t))
	}
	return o.printReports("remove", o.DryRun, reports)
}

var _ = adapters.Names
