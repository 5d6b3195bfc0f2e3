package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// TestInitFollowsTmuxClient: inside tmux, init reads the tmux client
// attached now before the variables tmux's server kept. A private tmux
// server started from Ghostty (GHOSTTY_RESOURCES_DIR in the shell's
// environment) gets the attached client's terminal, in real bash, zsh and
// fish on a pty: urxvt by its TERM (rxvt-unicode: Debian's essential
// ncurses-base has its terminfo, which tmux's client needs; alacritty's is
// in ncurses-term, which a fresh machine lacks), and iTerm2, whose TERM is xterm-256color, by what it
// answers tmux's XTVERSION query (client_termtype).
func TestInitFollowsTmuxClient(t *testing.T) {
	for _, c := range []struct{ term, xtversion, want string }{
		{"rxvt-unicode", "", "terminal:tmux+osc777:urxvt"},
		{"xterm-256color", "iTerm2 3.6.6", "terminal:tmux+osc9:iterm2"},
	} {
		t.Run(c.term, func(t *testing.T) { followClient(t, c.term, c.xtversion, c.want) })
	}
}

func followClient(t *testing.T, term, xtversion, want string) {
	tm := ptytest.StartTmux(t)
	dir := t.TempDir()
	client := tm.Command("attach", "-t", "s")
	client.Env = append(tm.Env, "TERM="+term)
	f, err := pty.Start(client)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer f.Close()
	go func() { // the client's terminal: answers XTVERSION, drains the rest
		b := make([]byte, 1<<16)
		for {
			n, err := f.Read(b)
			if err != nil {
				return
			}
			if xtversion != "" && strings.Contains(string(b[:n]), "\x1b[>q") {
				_, _ = f.Write([]byte("\x1bP>|" + xtversion + "\x1b\\"))
			}
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out, _ := tm.Command("list-clients", "-F", "#{client_termname} #{client_termtype}").Output()
		if strings.TrimSpace(string(out)) == strings.TrimSpace(term+" "+xtversion) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s client attached: %q", term, out)
		}
	}
	shellEnv := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TERM=tmux-256color", "TMUX=" + tm.Sock + ",1,0", "GHOSTTY_RESOURCES_DIR=/g"}
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
		if !strings.Contains(out, "RESULT="+want+"|") {
			t.Errorf("%s: init left %q, want %s (the client attached)", sh, out, want)
		}
	}
}
