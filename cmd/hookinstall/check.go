package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

// A hinted error carries the hint run prints after it, instead of the
// generic one.
type hinted struct {
	error
	hint string
}

func (h hinted) Unwrap() error { return h.error }

// homeFlagError words the library's refusal of a home (hookinstall.New
// holds the rules: absolute, existing, a directory) as the flag that gave
// it, --home or --as-home, with what to do.
func homeFlagError(flag, value string, err error) error {
	switch {
	case !filepath.IsAbs(value) && strings.HasPrefix(value, "~"):
		return usageError{hinted{fmt.Errorf("%s %q starts with ~, which the shell did not expand", flag, value),
			fmt.Sprintf("give an absolute path: %s \"$HOME%s\", or %s ~%s with a space instead of = so the shell expands it",
				flag, strings.TrimPrefix(value, "~"), flag, strings.TrimPrefix(value, "~"))}}
	case !filepath.IsAbs(value):
		return usageError{hinted{fmt.Errorf("%s %q is not an absolute path", flag, value),
			"give an absolute path: hookinstall never writes under the current directory"}}
	case errors.Is(err, fs.ErrNotExist):
		return usageError{hinted{fmt.Errorf("%s %q does not exist", flag, value),
			"check it for a typo, or create it first: hookinstall does not create a home"}}
	case errors.Is(err, syscall.ENOTDIR):
		return usageError{fmt.Errorf("%s %q is not a directory", flag, value)}
	}
	return usageError{fmt.Errorf("%s %q: %v", flag, value, errors.Unwrap(err))}
}

// unknownAgent words an unknown agent name, with the names it may mean.
func unknownAgent(in *hookinstall.Installer, name string, err error) error {
	if s := suggestAgents(in, name); len(s) > 0 {
		return usageError{hinted{err, fmt.Sprintf("did you mean %s?", strings.Join(s, " or "))}}
	}
	return usageError{hinted{err, "run 'hookinstall agents' for the agents this build knows"}}
}

// suggestAgents returns the agents a mistyped name may mean: those within
// two edits of it, or that it starts, or whose product's name it starts or
// begins, once spaces and signs are out ("claude-code", "Claude Code",
// "opencode-ai", "github-copilot"). Each part of an npm package's name counts alone
// ("@anthropic-ai/claude-code", "@oh-my-pi/pi-coding-agent").
func suggestAgents(in *hookinstall.Installer, name string) []string {
	agents, _ := in.Agents()
	var out []string
	for _, a := range agents {
		for _, n := range strings.Split(strings.ToLower(name), "/") {
			s, p := squash(n), squash(strings.ToLower(a.Product))
			if levenshtein(n, a.Name) <= 2 || len(n) >= 3 && strings.HasPrefix(a.Name, n) ||
				min(len(s), len(p)) >= 3 && (strings.HasPrefix(s, p) || strings.HasPrefix(p, s)) {
				out = append(out, a.Name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// squash takes spaces and signs out of a name in lower case.
var squash = strings.NewReplacer(" ", "", "-", "", "_", "", ".", "", "@", "").Replace

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Completion.

// completeAgents completes agent names not yet on the command line.
func completeAgents(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	return without(hookinstall.AgentNames(), args), cobra.ShellCompDirectiveNoFileComp
}

// completeInstalled completes the agents installed in the namespace in use,
// clones included (remove finds a clone by its id).
func (g *globalOptions) completeInstalled(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	return without(g.installed(func(hookinstall.Install) bool { return true }), args), cobra.ShellCompDirectiveNoFileComp
}

// installed is the agents (ids, for a clone) installed in the namespace in
// use that keep accepts.
func (g *globalOptions) installed(keep func(hookinstall.Install) bool) []string {
	in, err := g.installer()
	if err != nil {
		return nil
	}
	is, _ := in.Installs()
	var ids []string
	for _, i := range is {
		if i.Namespace == in.Namespace() && keep(i) {
			ids = append(ids, i.Agent)
		}
	}
	return ids
}

// completeNamespaces completes the namespaces that have an install.
func (g *globalOptions) completeNamespaces(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	in, err := g.installerFor("") // what is typed so far need not be a valid namespace yet
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ns, _ := in.Namespaces()
	return ns, cobra.ShellCompDirectiveNoFileComp
}

// completeClones completes the ids of the clones installed.
func (g *globalOptions) completeClones(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	return g.installed(func(i hookinstall.Install) bool { return i.Base != "" }), cobra.ShellCompDirectiveNoFileComp
}

func without(names, given []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(given, n) })
}

func (u usageError) Unwrap() error { return u.error }
