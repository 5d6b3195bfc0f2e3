package ptytest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A Tmux is a private tmux server for one test: its own socket in the
// test's temporary folder, no config file, a fixed environment (PATH, a
// HOME of its own, TERM=xterm-256color), and one detached session "s" of
// 80x24 whose first window waits until the server is killed, when the
// test ends.
type Tmux struct {
	Sock string   // the server's socket: TMUX is "Sock,PID,0" inside it
	Env  []string // the environment tmux runs with
	t    testing.TB
}

// StartTmux starts a private tmux server, or skips the test when tmux is
// not installed.
func StartTmux(t testing.TB) *Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	m := &Tmux{Sock: filepath.Join(dir, "tmux.sock"), Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TERM=xterm-256color"}, t: t}
	m.Run("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "exec sleep 86400")
	t.Cleanup(func() { _ = m.Command("kill-server").Run() })
	return m
}

// Command is the tmux command line args against the server, to run as
// the caller likes (a client attached on a pty).
func (m *Tmux) Command(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-S", m.Sock, "-f", "/dev/null"}, args...)...)
	c.Env = m.Env
	return c
}

// Run runs tmux args against the server and returns what it printed,
// trimmed; the test fails when tmux does.
func (m *Tmux) Run(args ...string) string {
	m.t.Helper()
	out, err := m.Command(args...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
