package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEveryLineFits100 runs the commands a new user runs in a scratch home
// (add, status, doctor, doctor -v, agents, remove, and the --help of every
// command) and fails on any line of their default output, stdout or
// stderr, wider than 100 columns.
func TestEveryLineFits100(t *testing.T) {
	dir, err := os.MkdirTemp("", "w")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".claude", ".codex", ".gemini", ".zerotwo"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
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
	cmds := [][]string{
		{"doctor"}, {"remove", "--all"}, {"add", "--all", "--home", filepath.Join(dir, "empty")},
		{"add", "--all"}, {"add", "codex"}, {"add", "qwen"}, {"status"}, {"doctor"}, {"doctor", "-v"},
		{"agents"}, {"add", "--all", "--namespace", "termic"}, {"remove", "--all"},
		{"--help"},
	}
	root := newRootCmd(&globalOptions{})
	for _, c := range root.Commands() {
		cmds = append(cmds, []string{c.Name(), "--help"})
	}
	for _, args := range cmds {
		var out, errb bytes.Buffer
		run(args, nil, &out, &errb, getenv)
		for _, l := range strings.Split(out.String()+errb.String(), "\n") {
			if n := utf8.RuneCountInString(l); n > 100 {
				t.Errorf("hookinstall %s: a line of %d columns:\n%s", strings.Join(args, " "), n, l)
			}
		}
	}
}
