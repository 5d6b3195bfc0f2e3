package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxWindowBell runs generated hook scripts (Gemini's AfterAgent, done;
// its BeforeAgent, working) in background windows of a private tmux server,
// set up as init sets a shell inside tmux (terminal:tmux+osc9, the pane's
// own tty), with passthrough off as tmux ships it: the window whose agent is
// done has its bell flag set in tmux's window list, the working one not.
func TestTmuxWindowBell(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		c := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TERM=xterm-256color"}
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tmux("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 60")
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	for i, c := range terminalSpecs[:2] { // working, then done
		c.spec.NS = "hookinstall"
		script, err := Render(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, c.spec.Event+".sh")
		if err := os.WriteFile(path, script, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := "p=$(tty); printf '%s' '" + c.payload + "' | HOOKINSTALL_TASK_ID=terminal:tmux+osc9 HOOKINSTALL_PTY=$p sh " + path + "; touch " + path + ".ran; sleep 60"
		tmux("new-window", "-d", "-t", "s:"+string(rune('1'+i)), cmd)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, e1 := os.Stat(filepath.Join(dir, "BeforeAgent.sh.ran"))
		_, e2 := os.Stat(filepath.Join(dir, "AfterAgent.sh.ran"))
		if e1 == nil && e2 == nil && tmux("display", "-p", "-t", "s:2", "#{window_bell_flag}") == "1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the done window's bell flag: %q (ran: %v %v), want 1", tmux("display", "-p", "-t", "s:2", "#{window_bell_flag}"), e1, e2)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if f := tmux("display", "-p", "-t", "s:1", "#{window_bell_flag}"); f != "0" {
		t.Errorf("the working window's bell flag: %q, want 0", f)
	}
}
