package scripts

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// TestTmuxWindowBell runs generated hook scripts (Gemini's AfterAgent, done;
// its BeforeAgent, working) in background windows of a private tmux server,
// set up as init sets a shell inside tmux (terminal:tmux+osc9, the pane's
// own tty), with passthrough off as tmux ships it: the window whose agent is
// done has its bell flag set in tmux's window list, the working one not.
func TestTmuxWindowBell(t *testing.T) {
	tm := ptytest.StartTmux(t)
	dir := t.TempDir()
	var specs []Spec
	for _, c := range terminalSpecs[:2] {
		specs = append(specs, c.spec)
	}
	specs[0].NS = "hookinstall"
	rt, err := Runtime(specs...)
	if err != nil || os.WriteFile(filepath.Join(dir, RuntimeName), rt, 0o755) != nil {
		t.Fatal(err)
	}
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
		tm.Run("new-window", "-d", "-t", "s:"+string(rune('1'+i)), cmd)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, e1 := os.Stat(filepath.Join(dir, "BeforeAgent.sh.ran"))
		_, e2 := os.Stat(filepath.Join(dir, "AfterAgent.sh.ran"))
		if e1 == nil && e2 == nil && tm.Run("display", "-p", "-t", "s:2", "#{window_bell_flag}") == "1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the done window's bell flag: %q (ran: %v %v), want 1", tm.Run("display", "-p", "-t", "s:2", "#{window_bell_flag}"), e1, e2)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if f := tm.Run("display", "-p", "-t", "s:1", "#{window_bell_flag}"); f != "0" {
		t.Errorf("the working window's bell flag: %q, want 0", f)
	}
}
