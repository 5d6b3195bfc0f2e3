package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestInitFollowsTmuxClient: inside tmux, init reads the TERM of the client
// attached now before the variables tmux's server kept. A private tmux
// server started from Ghostty (GHOSTTY_RESOURCES_DIR in the shell's
// environment) with an Alacritty client attached (TERM=alacritty: the
// test machines' terminfo has no xterm-kitty) gets Alacritty's dialect, in
// real bash, zsh and fish on a pty.
func TestInitFollowsTmuxClient(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "tmux.sock")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	c := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "s", "sleep 60")
	c.Env = append(env, "TERM=xterm-256color")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	client := exec.Command("tmux", "-S", sock, "attach", "-t", "s")
	client.Env = append(env, "TERM=alacritty")
	f, err := pty.Start(client)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer f.Close()
	go func() { // drain the client's screen until it goes
		b := make([]byte, 1<<16)
		for {
			if _, err := f.Read(b); err != nil {
				return
			}
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out, _ := exec.Command("tmux", "-S", sock, "list-clients", "-F", "#{client_termname}").Output()
		if strings.TrimSpace(string(out)) == "alacritty" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Alacritty client attached: %q", out)
		}
	}
	shellEnv := append(env, "TERM=tmux-256color", "TMUX="+sock+",1,0", "GHOSTTY_RESOURCES_DIR=/g")
	for _, sh := range Shells() {
		if _, err := exec.LookPath(sh); err != nil {
			continue
		}
		code, _ := Init(sh, "hookinstall")
		file := filepath.Join(dir, "init."+sh)
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out := runInPTY(t, shellArgs(sh, file, `printf 'RESULT=%s|\n' "$HOOKINSTALL_TASK_ID"`), shellEnv)
		if !strings.Contains(out, "RESULT=terminal:tmux+bell|") {
			t.Errorf("%s: init left %q, want terminal:tmux+bell (Alacritty, the client attached)", sh, out)
		}
	}
}
