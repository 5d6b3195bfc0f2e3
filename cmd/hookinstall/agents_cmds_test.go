package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agenttest"
)

// Testscript commands that take the agents from the registry, so that the
// scripts about every agent need no line for a new one (CONTRIBUTING.md, "To
// add an agent").

// execagents PROG [ARGS...]: exec PROG with ARGS and then every agent of the
// registry, by name ("execagents hookinstall add" installs every one).
func cmdExecagents(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: execagents PROG [ARGS...]")
	}
	err := ts.Exec(args[0], append(args[1:], adapters.Names()...)...)
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s: %v", strings.Join(args, " "), err)
	case err == nil && neg:
		ts.Fatalf("unexpected command success")
	}
}

// healthyhome HOME: write under HOME the "healthy" files of every agent's
// adapters/testdata/agents/<agent>.json: what a user's home holds for
// doctor to pass each of the agent's checks (an approval mode that asks,
// say), $HOME in them being HOME.
func cmdHealthyhome(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: healthyhome HOME")
	}
	home := ts.MkAbs(args[0])
	for _, name := range adapters.Names() {
		f, err := agenttest.Load(name)
		ts.Check(err)
		for rel, body := range f.Healthy {
			p := filepath.Join(home, filepath.FromSlash(rel))
			if !strings.HasPrefix(p, home+string(filepath.Separator)) {
				ts.Fatalf("%s: healthy file %s is not under the home", agenttest.Path(name), rel)
			}
			ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
			ts.Check(os.WriteFile(p, []byte(strings.ReplaceAll(body, "$HOME", home)), 0o644))
		}
	}
}

// lines REGEXP FILE OUT: write the lines of FILE (or stdout, stderr) that
// match REGEXP to OUT, so that cmp (and -update) can pin them.
func cmdLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: lines REGEXP FILE OUT")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	var b strings.Builder
	for _, l := range strings.SplitAfter(ts.ReadFile(args[1]), "\n") {
		if l != "" && re.MatchString(strings.TrimSuffix(l, "\n")) {
			b.WriteString(l)
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(b.String()), 0o644))
}
