package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEFirstRun: the output the README's "A first run" quotes is what
// the commands print. Each `$ hookinstall ...` line of that block runs, in
// order, on a scratch home (the README's /home/me) whose
// ~/.claude/settings.json exists, and every output line the README quotes
// under it must be the line the command printed; a line "  ..." stands for
// the rest of that command's output.
func TestREADMEFirstRun(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "\n## A first run\n")
	_, block, ok2 := strings.Cut(rest, "```console\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok1 || !ok2 || !ok3 {
		t.Fatal("README.md: no ```console block under \"## A first run\"")
	}
	home := filepath.Join(t.TempDir(), "me")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		switch k {
		case "HOME":
			return home
		case "PATH":
			return "/usr/bin:/bin"
		case "SHELL":
			return "/bin/bash"
		}
		return ""
	}
	type step struct {
		line string
		want []string
	}
	var steps []step
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			cmd, _, _ = strings.Cut(cmd, " #")
			steps = append(steps, step{line: cmd})
		} else if len(steps) > 0 {
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, l)
		}
	}
	quoted := 0
	for _, s := range steps {
		args := strings.Fields(s.line)
		if len(args) == 0 || args[0] != "hookinstall" {
			t.Fatalf("README.md: %q is not a hookinstall command", s.line)
		}
		var out, errb bytes.Buffer
		if code := run(args[1:], strings.NewReader(""), &out, &errb, env); code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", s.line, code, out.String(), errb.String())
		}
		got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(out.String(), home, "/home/me"), "\n"), "\n")
		for i, w := range s.want {
			if w == "  ..." {
				break
			}
			quoted++
			if i >= len(got) || got[i] != w {
				t.Errorf("README.md quotes %q under %q; the command printed:\n%s", w, s.line, strings.Join(got, "\n"))
				break
			}
			if i == len(s.want)-1 && len(got) > len(s.want) {
				t.Errorf("README.md quotes %d lines under %q; the command printed %d (end with \"  ...\" to quote only the start):\n%s",
					len(s.want), s.line, len(got), strings.Join(got, "\n"))
			}
		}
	}
	if quoted == 0 {
		t.Fatal("README.md's first run quotes no output")
	}
}
