//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/ptytest"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TestTmuxWarning asks a real tmux (a private server) for a pane's
// allow-passthrough: off gets init's warning and its fix, on says that only
// the window on screen passes (on this tmux, 3.3, with no fix); outside
// tmux, or when tmux cannot answer, nothing is said. The same question
// gives the client attached now (none here).
func TestTmuxWarning(t *testing.T) {
	tm := ptytest.StartTmux(t)
	pane := tm.Run("display-message", "-p", "-t", "s", "#{pane_id}")
	env := map[string]string{"PATH": os.Getenv("PATH"), "TMUX": tm.Sock + ",1,0", "TMUX_PANE": pane}
	getenv := func(k string) string { return env[k] }
	version := tm.Run("display-message", "-p", "#{version}")

	tm.Run("set-option", "-g", "allow-passthrough", "off")
	s, withClient := inTmux(getenv)
	if says, fix := s.words(); !s.drops() || !strings.Contains(says, "allow-passthrough is off") || !strings.Contains(fix, "set -g allow-passthrough ") {
		t.Errorf("passthrough off: %+v says %q, fix %q", s, says, fix)
	}
	if c := withClient(terminal.Client); c != "" {
		t.Errorf("no client is attached, yet its TERM is %q", c)
	}
	tm.Run("set-option", "-g", "allow-passthrough", "on")
	if s, _ := inTmux(getenv); s.drops() || s.version != version {
		t.Errorf("passthrough on: %+v, version want %q", s, version)
	} else if says, _ := s.words(); !strings.Contains(says, "only from the window on screen") {
		t.Errorf("passthrough on: says %q", says)
	}
	if s, _ := inTmux(func(string) string { return "" }); s != (tmuxState{}) {
		t.Errorf("outside tmux: %+v", s)
	}
	env["TMUX"] = "/nonexistent/socket,1,0"
	if s, _ := inTmux(getenv); s != (tmuxState{}) {
		t.Errorf("tmux cannot answer: %+v", s)
	}
}

// TestTmuxWords: below tmux 3.4 the best is on, which passes only the
// window on screen's; from 3.4, all, which the words suggest.
func TestTmuxWords(t *testing.T) {
	for _, c := range []struct {
		s              tmuxState
		says, fix      string
		hasSays, hasFx bool
	}{
		{tmuxState{"3.3a", "off"}, "drops", "allow-passthrough on'", true, true},
		{tmuxState{"3.4", "off"}, "drops", "allow-passthrough all'", true, true},
		{tmuxState{"3.3a", "on"}, "3.4's allow-passthrough all", "", true, false},
		{tmuxState{"3.5a", "on"}, "only from the window on screen", "allow-passthrough all'", true, true},
		{tmuxState{"next-3.6", "on"}, "only from the window on screen", "allow-passthrough all'", true, true},
		{tmuxState{"3.4", "all"}, "", "", false, false},
		{tmuxState{}, "", "", false, false},
	} {
		says, fix := c.s.words()
		if (says != "") != c.hasSays || !strings.Contains(says, c.says) || (fix != "") != c.hasFx || !strings.Contains(fix, c.fix) {
			t.Errorf("%+v: says %q, fix %q", c.s, says, fix)
		}
	}
}

// TestTmuxHung: a tmux that never answers holds init, run and emit for its
// timeout only, and then nothing is said of it.
func TestTmuxHung(t *testing.T) {
	bin, release := t.TempDir(), filepath.Join(t.TempDir(), "release")
	if err := syscall.Mkfifo(release, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte("#!/bin/sh\nread x <"+release+"\necho off\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		return map[string]string{"PATH": bin + ":/usr/bin:/bin", "TMUX": "/tmp/tmux-hung,1,0"}[k]
	}
	done := make(chan tmuxState, 1)
	go func() {
		s, _ := inTmux(getenv)
		done <- s
	}()
	select {
	case s := <-done:
		if s != (tmuxState{}) {
			t.Errorf("a tmux that did not answer: %+v", s)
		}
	case <-time.After(20 * time.Second):
		t.Error("a hung tmux held inTmux")
		_ = os.WriteFile(release, []byte("go\n"), 0)
	}
}
