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
// allow-passthrough: off gets init's warning, on gets none; outside tmux,
// or when tmux cannot answer, nothing is said. The same question gives the
// client attached now (none here).
func TestTmuxWarning(t *testing.T) {
	tm := ptytest.StartTmux(t)
	pane := tm.Run("display-message", "-p", "-t", "s", "#{pane_id}")
	env := map[string]string{"PATH": os.Getenv("PATH"), "TMUX": tm.Sock + ",1,0", "TMUX_PANE": pane}
	getenv := func(k string) string { return env[k] }

	tm.Run("set-option", "-g", "allow-passthrough", "off")
	w, withClient := inTmux(getenv)
	if !strings.Contains(w, "allow-passthrough is off") || !strings.Contains(w, "set -g allow-passthrough on") {
		t.Errorf("passthrough off: warning %q", w)
	}
	if c := withClient(terminal.Client); c != "" {
		t.Errorf("no client is attached, yet its TERM is %q", c)
	}
	tm.Run("set-option", "-g", "allow-passthrough", "on")
	if w, _ := inTmux(getenv); w != "" {
		t.Errorf("passthrough on: warning %q", w)
	}
	if w, _ := inTmux(func(string) string { return "" }); w != "" {
		t.Errorf("outside tmux: %q", w)
	}
	env["TMUX"] = "/nonexistent/socket,1,0"
	if w, _ := inTmux(getenv); w != "" {
		t.Errorf("tmux cannot answer: %q", w)
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
	done := make(chan string, 1)
	go func() {
		w, _ := inTmux(getenv)
		done <- w
	}()
	select {
	case w := <-done:
		if w != "" {
			t.Errorf("a tmux that did not answer: warning %q", w)
		}
	case <-time.After(20 * time.Second):
		t.Error("a hung tmux held inTmux")
		_ = os.WriteFile(release, []byte("go\n"), 0)
	}
}
