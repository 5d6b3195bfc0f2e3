package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// TestDoctorColourOnlyOnATerminal: doctor colours its marks only when stdout
// is a terminal, and never with NO_COLOR set (README, docs/doctor.md).
func TestDoctorColourOnlyOnATerminal(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(extra ...string) func(string) string {
		m := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin", "TERM": "xterm"}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return func(k string) string { return m[k] }
	}
	// claude detected, nothing installed: its line carries the dim mark.
	const dimMark = "\033[2m–\033[0m claude"
	args := []string{"doctor", "claude", "--no-fire"}

	p := ptytest.Open(t)
	tty, err := os.OpenFile(p.Path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()

	var stderr bytes.Buffer
	run(args, nil, tty, &stderr, env())
	if got := string(p.Drain(t)); !strings.Contains(got, dimMark) {
		t.Errorf("on a terminal: no coloured mark in %q (stderr %q)", got, stderr.String())
	}

	run(args, nil, tty, &stderr, env("NO_COLOR", "1"))
	if got := string(p.Drain(t)); strings.Contains(got, "\033[") || !strings.Contains(got, "– claude") {
		t.Errorf("NO_COLOR on a terminal: %q, want the mark without colour", got)
	}

	run(args, nil, tty, &stderr, env("TERM", "dumb"))
	if got := string(p.Drain(t)); strings.Contains(got, "\033[") || !strings.Contains(got, "– claude") {
		t.Errorf("TERM=dumb: %q, want the mark without colour", got)
	}

	var out bytes.Buffer
	run(args, nil, &out, &stderr, env())
	if got := out.String(); strings.Contains(got, "\033[") || !strings.Contains(got, "– claude") {
		t.Errorf("not a terminal: %q, want the mark without colour", got)
	}
}
