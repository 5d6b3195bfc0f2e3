//go:build gendocs

package main

// Built only with -tags gendocs (make dist, goreleaser's before hook), so the
// released binary carries no man-page generator:
//
//	go run -tags gendocs ./cmd/hookinstall __gendocs DIR
//
// writes DIR/man/*.1 (one page per command, from the cobra tree) and
// DIR/completions/{hookinstall.bash,_hookinstall,hookinstall.fish}.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func init() {
	extraCommands = append(extraCommands, newGendocsCmd)
}

func newGendocsCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:    "__gendocs DIR",
		Short:  "Write the man pages and shell completions into DIR",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return gendocs(cmd.Root(), args[0])
		},
	}
}

func gendocs(root *cobra.Command, dir string) error {
	man := filepath.Join(dir, "man")
	comp := filepath.Join(dir, "completions")
	for _, d := range []string{man, comp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	// The pages' date is the commit's (SOURCE_DATE_EPOCH, as goreleaser and
	// reproducible builds set it), so a rebuild gives the same bytes.
	when := time.Now()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH %q: %v", s, err)
		}
		when = time.Unix(sec, 0).UTC()
	}
	root.DisableAutoGenTag = true
	hdr := &doc.GenManHeader{Title: "HOOKINSTALL", Section: "1", Date: &when,
		Source: "hookinstall " + buildVersion().Version, Manual: "hookinstall manual"}
	if err := doc.GenManTree(root, hdr, man); err != nil {
		return err
	}
	for name, gen := range map[string]func(*os.File) error{
		"hookinstall.bash": func(f *os.File) error { return root.GenBashCompletionV2(f, true) },
		"_hookinstall":     func(f *os.File) error { return root.GenZshCompletion(f) },
		"hookinstall.fish": func(f *os.File) error { return root.GenFishCompletion(f, true) },
	} {
		f, err := os.Create(filepath.Join(comp, name))
		if err != nil {
			return err
		}
		if err := gen(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
