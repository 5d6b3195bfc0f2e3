package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestTmuxWarning asks a real tmux (a private server) for a pane's
// allow-passthrough: off gets init's warning, on gets none; outside tmux,
// or when tmux cannot answer, nothing is said.
func TestTmuxWarning(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	sock := fmt.Sprintf("hi-test-%d", os.Getpid())
	tm := func(args ...string) string {
		c := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		c.Env = append(os.Environ(), "TMUX=")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tm("new-session", "-d", "-s", "s", "sleep 60")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	path := tm("display-message", "-p", "#{socket_path}")
	pane := tm("display-message", "-p", "#{pane_id}")
	env := map[string]string{"TMUX": path + ",1,0", "TMUX_PANE": pane}
	getenv := func(k string) string { return env[k] }

	tm("set-option", "-g", "allow-passthrough", "off")
	if w := tmuxWarning(getenv); !strings.Contains(w, "allow-passthrough is off") || !strings.Contains(w, "set -g allow-passthrough on") {
		t.Errorf("passthrough off: warning %q", w)
	}
	tm("set-option", "-g", "allow-passthrough", "on")
	if w := tmuxWarning(getenv); w != "" {
		t.Errorf("passthrough on: warning %q", w)
	}
	if w := tmuxWarning(func(string) string { return "" }); w != "" {
		t.Errorf("outside tmux: %q", w)
	}
	env["TMUX"] = "/nonexistent/socket,1,0"
	if w := tmuxWarning(getenv); w != "" {
		t.Errorf("tmux cannot answer: %q", w)
	}
}
