package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hookinstall/hookinstall"
)

// A done is one agent's result, with the install it belongs to: a command
// that works across namespaces (remove --all) reports several.
type done struct {
	*hookinstall.Result
	// Also is said after the agent's name in text, when the command named
	// no agent (remove --all): "clone of claude".
	Also string
}

// A skip is an agent add --all did not install, and why.
type skip struct {
	Agent  string `json:"agent"`
	Reason string `json:"reason"`
}

// jsonReport is the one document --json prints for add and remove
// (docs/json.md).
type jsonReport struct {
	Schema    int          `json:"schema"`
	Command   string       `json:"command"`
	Namespace string       `json:"namespace"`
	Home      string       `json:"home"`
	DryRun    bool         `json:"dry_run"`
	ExitCode  int          `json:"exit_code"`
	Agents    []jsonResult `json:"agents"`
	// Skipped lists the agents add --all did not install, and why.
	Skipped []skip `json:"skipped"`
	// NextSteps is what add tells the user to do next (empty when
	// nothing was installed).
	NextSteps []string `json:"next_steps"`
}

// jsonResult is one agent's Result, with its error's words.
type jsonResult struct {
	*hookinstall.Result
	Error string `json:"error,omitempty"`
}

// exitCode is the exit code of add or remove. With all (add --all), an
// agent whose hooks are switched off does not fail the run when another
// agent was installed: it is reported per agent instead (disabled).
func exitCode(results []done, all bool) int {
	code, off, ok := exitOK, false, false
	for _, r := range results {
		switch {
		case r.Err == nil:
			ok = true
		case errors.Is(r.Err, hookinstall.ErrHooksOff), errors.Is(r.Err, hookinstall.ErrAgentVersion):
			off = true
		default:
			code = exitFail
		}
	}
	if code == exitOK && off && !(all && ok) {
		code = exitOff
	}
	return code
}

// printResults prints what add or remove did, and returns the exit code.
// next is --json's next_steps; text what the text output says under next:.
func (g *globalOptions) printResults(in *hookinstall.Installer, command string, dryRun, all bool, results []done, skipped []skip, next, text []string) error {
	code := exitCode(results, all)
	if g.JSON {
		doc := jsonReport{Schema: jsonSchema, Command: command, Namespace: in.Namespace(), Home: in.Home(), DryRun: dryRun,
			ExitCode: code, Agents: []jsonResult{}, Skipped: append([]skip{}, skipped...), NextSteps: append([]string{}, next...)}
		for _, r := range results {
			a := jsonResult{Result: r.Result}
			if r.Err != nil {
				a.Error = r.Err.Error()
			}
			doc.Agents = append(doc.Agents, a)
		}
		_ = jsonEncoder(g.IO.Out).Encode(doc)
	} else {
		for _, r := range results {
			g.printResult(in, command, r)
		}
		if len(skipped) > 0 {
			fmt.Fprintln(g.IO.Out, "skipped:")
			for _, s := range skipped {
				printWrapped(g.IO.Out, "  "+s.Agent+": ", "    ", s.Reason)
			}
		}
		for _, r := range results {
			if r.Hint != "" && r.Err == nil { // an error's is printed with it
				printWrapped(g.IO.Out, "", "  ", r.Hint)
			}
		}
		if len(text) > 0 {
			fmt.Fprintln(g.IO.Out, "next:")
			for _, n := range text {
				printWrapped(g.IO.Out, "  ", "    ", n)
			}
		}
	}
	if code != exitOK {
		return exitError{code}
	}
	return nil
}

var outcomeWords = map[hookinstall.Status]string{
	hookinstall.StatusInstalled:     "installed",
	hookinstall.StatusUnchanged:     "already installed; nothing changed",
	hookinstall.StatusWouldInstall:  "would install (dry run; nothing written)",
	hookinstall.StatusRemoved:       "removed",
	hookinstall.StatusPartlyRemoved: "removed, except entries edited by hand",
	hookinstall.StatusWouldRemove:   "would remove (dry run; nothing written)",
	hookinstall.StatusNotInstalled:  "not installed; nothing to remove",
	hookinstall.StatusDisabled:      "hooks are switched off; nothing installed",
	hookinstall.StatusFailed:        "failed",
}

// label names an agent's install in text: "grok", or "grok (namespace
// termic)" outside the namespace in use, "claude-2 (clone of claude)" in
// remove --all.
func label(in *hookinstall.Installer, r done) string {
	var q []string
	if r.Namespace != "" && r.Namespace != in.Namespace() {
		q = append(q, "namespace "+r.Namespace)
	}
	if r.Also != "" {
		q = append(q, r.Also)
	}
	if len(q) == 0 {
		return r.Agent
	}
	return r.Agent + " (" + strings.Join(q, ", ") + ")"
}

func (g *globalOptions) printResult(in *hookinstall.Installer, command string, r done) {
	w := g.IO.Out
	name := label(in, r)
	if r.Err != nil {
		printWrapped(g.IO.Err, "hookinstall: error: ", "  ", r.Err.Error())
		if errors.Is(r.Err, hookinstall.ErrHooksOff) {
			printWrapped(g.IO.Err, "hookinstall: hint: "+name+": ", "  ", "an install would never fire, so nothing was written")
		}
		if r.Hint != "" {
			printWrapped(g.IO.Err, "hookinstall: hint: "+name+": ", "  ", r.Hint)
		}
		warn(g.IO.Err, name, r.Notes)
		return
	}
	word := cmp.Or(outcomeWords[r.Status], string(r.Status))
	if r.Status == hookinstall.StatusInstalled && !slices.ContainsFunc(r.Changes, func(c hookinstall.Change) bool { return c.Kind == "config" || c.Kind == "script" }) {
		word = "trusted: only the trust for our hooks was added" // add --trust to an install that stood
	}
	if r.Status == hookinstall.StatusPrinted { // add --print
		w = g.IO.Err // stdout is the entries alone
		word = "scripts written; merge the entries on stdout into " + r.Config + " at its source"
	}
	printWrapped(w, name+": ", "  ", word)
	verbs := map[string]string{"create": "created ", "modify": "modified", "delete": "deleted "}
	if r.Status == hookinstall.StatusWouldInstall || r.Status == hookinstall.StatusWouldRemove {
		verbs = map[string]string{"create": "would create", "modify": "would modify", "delete": "would delete"}
	}
	for _, c := range r.Changes {
		if c.Action != "merge" {
			fmt.Fprintf(w, "  %s %s\n", verbs[c.Action], c.Path)
		}
	}
	for _, c := range r.Changes {
		if c.Diff != "" {
			fmt.Fprint(g.IO.Out, c.Diff)
		}
	}
	warn(g.IO.Err, name, r.Notes)
}

// warn prints each note about agent name as a warning.
func warn(w io.Writer, name string, notes []string) {
	for _, n := range notes {
		printWrapped(w, "hookinstall: warning: "+name+": ", "  ", n)
	}
}

// textWidth is the widest line of the text output: longer text goes on to
// lines of their own, indented under the first. The testscripts, whose
// paths are long and vary, print unbroken lines (TestMain);
// TestEveryLineFits100 holds the width.
var textWidth = 100

// hintIndent starts each line after the first of a check, a hint or a note:
// deeper than a check's line and its hint's, so each entry reads as one.
const hintIndent = "         "

// printWrapped prints prefix and text to w, broken at spaces so that no
// line is wider than textWidth (a single word wider than that, a long path,
// stays whole); the lines after the first start with indent.
func printWrapped(w io.Writer, prefix, indent, text string) {
	line, width, sep := prefix, utf8.RuneCountInString(prefix), ""
	for _, word := range strings.Split(text, " ") {
		n := utf8.RuneCountInString(word)
		if width+len(sep)+n > textWidth && strings.TrimSpace(line) != "" {
			fmt.Fprintln(w, line)
			line, width, sep = indent, utf8.RuneCountInString(indent), ""
		}
		line += sep + word
		width += len(sep) + n
		sep = " "
	}
	fmt.Fprintln(w, line)
}
