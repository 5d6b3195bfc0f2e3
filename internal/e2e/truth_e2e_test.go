//go:build e2e

package e2e

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/e2e/fakemodel"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// The truth matrix (issue 36): what each view says of an agent session, at
// each moment a user meets every day, against what the agent really does.
// A view is `ls` (its state, "?" when it marks it unsure), the tmux pane
// option, and the outer terminal's last OSC 7501 record of the session and
// last OSC 9;4 progress, in iTerm2's environment inside tmux. Each is read
// within 2 s of the event, or of the shell's next prompt after an exit.
// Where the agent sends its hooks nothing (its gaps, measured:
// docs/agents.md "What ends each state") the view must show the last state
// reported, marked unsure in ls; everywhere else, the agent's own state.
// Codex as users start it (its daemon, no terminal) must show none of ours
// anywhere. The matrix took over codex-term-daemon and claude-term-killed.

// A truthSpec drives one agent through the matrix.
type truthSpec struct {
	// ready waits for the agent's prompt box (answering what it asks at
	// startup): false when it never came.
	ready func(r *run) bool
	// dialog matches its permission dialog, which approve and decline
	// answer; stop are the keys that stop it mid-turn; quit is what a user
	// types to leave it; asks is the event the recorder logs for each dialog.
	dialog, approve, decline, quit, asks string
	stop                                 []string
	// want is what every view says (a state; "?" after it where ls must
	// mark it unsure) once the agent asks for a permission, once the
	// approved slow command runs, after Esc while it runs, and after Esc at
	// a second dialog.
	want [4]string
}

func TestTruth(t *testing.T) {
	for _, c := range []termCase{
		{name: "claude-truth", agent: "claude", product: "Claude Code", fixture: claudeFixture, marker: "claude-marker.txt",
			drive: truthDrive(truthSpec{ready: claudeReady, dialog: `Do you want to proceed`, asks: "PermissionRequest",
				approve: "Enter", stop: []string{"Escape"}, decline: "Escape", quit: "/exit",
				// nothing after an approval, nor at either Esc
				want: [4]string{"attention?", "attention?", "attention?", "attention?"}})},
		{name: "gemini-truth", agent: "gemini", product: "Gemini CLI", fixture: geminiFixture, marker: "gemini-marker.txt",
			drive: truthDrive(truthSpec{ready: geminiReady, dialog: `Allow execution of`, asks: "Notification",
				approve: "Enter", stop: []string{"Escape"}, decline: "Escape", quit: "/quit",
				// nothing after an approval; the stopped tool's AfterTool says
				// working; nothing at Esc on the dialog
				want: [4]string{"attention?", "attention?", "working?", "attention?"}})},
		{name: "opencode-truth", agent: "opencode", product: "opencode", fixture: opencodeFixture, marker: "opencode-marker.txt",
			drive: truthDrive(truthSpec{ready: opencodeReady, dialog: `Permission required`, asks: "event:permission.asked",
				approve: "Enter", stop: []string{"Escape", "Escape"}, decline: "Escape", quit: "/exit",
				// Esc at the dialog: permission.replied "reject", then
				// session.idle: the turn is over, the agent at its prompt
				want: [4]string{"attention", "working", "interrupted", "done"}})},
		// Codex as users start it: its hooks run in its daemon, with no
		// terminal, so none of ours is shown anywhere
		{name: "codex-truth", agent: "codex", product: "Codex", fixture: codexFixture, marker: "codex-marker.txt", daemon: true,
			drive: truthDrive(truthSpec{ready: codexReady, dialog: `Would you like to run the following command`, asks: "PermissionRequest",
				approve: "y", stop: []string{"Escape"}, decline: "Escape", quit: "/quit"})},
	} {
		c.via, c.truth, c.server, c.xtversion = "tmux", true, iterm2Server, "iTerm2 3.6.6"
		c.want = terminal.Terminal{Dialect: terminal.OSC9, Name: "iterm2", Tmux: true}
		t.Run(c.name, func(t *testing.T) { runTermCase(t, c) })
	}
}

// codexReady trusts our hooks where Codex asks about them (its first start)
// and has the case stop its daemon at the end.
func codexReady(r *run) bool {
	codexDaemonStops(r)
	if !r.need(`Continue without trusting|fake-model default`, 60*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return false
	}
	return !strings.Contains(r.screen(), "Continue without trusting") || codexChoose(r, 2)
}

// truthDrive runs agent A in window 0: a slow command asked for, approved
// and stopped with Esc while it runs; a second one declined with Esc at
// its dialog. Then agent B in window 1 asks, A still open, and is killed
// (-9); then A is quit as a user does. At each moment it checks the views
// of each session (truthCheck).
func truthDrive(spec truthSpec) func(r *run) {
	return func(r *run) {
		w0 := r.sess
		tty0, _ := r.tm("display-message", "-p", "-t", w0, "#{pane_tty}")
		if !spec.ready(r) {
			return
		}
		r.prompt(thePrompt + " " + fakemodel.SlowWord)
		if !r.need(spec.dialog, 60*time.Second, "ask", "no permission dialog", "C-c", "C-c") {
			return
		}
		r.truthCheck("the dialog", tty0, spec.want[0], true)
		asked := time.Now()
		r.approve(spec.dialog, spec.approve)
		if !r.waitRunning(asked, 30*time.Second) {
			r.problem("the approved slow command never ran")
		}
		r.truthCheck("the approved command runs", tty0, spec.want[1], true)
		r.keys(spec.stop...)
		r.snap("stopped")
		r.truthCheck("Esc while it runs", tty0, spec.want[2], true)
		r.prompt(thePrompt)
		if r.need(spec.dialog, 60*time.Second, "ask2", "no permission dialog for the second prompt", "C-c", "C-c") {
			r.truthCheck("the second dialog", tty0, spec.want[0], true)
			r.approve(spec.dialog, spec.decline)
			r.snap("declined")
			r.truthCheck("Esc at the dialog", tty0, spec.want[3], true)
		}

		// B in window 1, asking while A is open; then killed
		shell := "exec bash --noprofile --rcfile " + shq(filepath.Join(r.dir, "bashrc")) + " -i"
		if out, err := r.tm("new-window", "-t", w0+":1", "/bin/sh -c "+shq(shell)); err != nil {
			r.problem("second window: %v %s", err, out)
			return
		}
		r.sess = w0 + ":1"
		tty1, _ := r.tm("display-message", "-p", "-t", r.sess, "#{pane_tty}")
		if !r.need(`term-e2e\$`, 30*time.Second, "shell2", "the second shell did not start", "C-d") {
			return
		}
		_, _ = r.tm("send-keys", "-t", r.sess, "-l", r.command())
		_, _ = r.tm("send-keys", "-t", r.sess, "Enter")
		if !spec.ready(r) {
			return
		}
		r.prompt(thePrompt)
		if !r.need(spec.dialog, 60*time.Second, "ask-b", "no permission dialog in the second session", "C-c", "C-c") {
			return
		}
		r.truthCheck("a second session asks", tty1, spec.want[0], true)
		r.truthCheck("a second session asks (the first's)", tty0, spec.want[3], false)
		pid, _ := r.tm("display-message", "-p", "-t", r.sess, "#{pane_pid}")
		if pg := agentGroup(pid); pg == 0 || syscall.Kill(-pg, syscall.SIGKILL) != nil {
			r.problem("no agent under the second shell (pid %s) to kill", pid)
		}
		if r.backAtShell(10*time.Second, "kill -9") {
			r.truthCheck("kill -9, at the shell's prompt", tty1, "", true)
		}

		// A quit as a user does, back in window 0
		r.sess = w0
		_, _ = r.tm("select-window", "-t", w0+":0")
		r.prompt(spec.quit)
		if r.backAtShell(20*time.Second, spec.quit) {
			r.truthCheck(spec.quit+", at the shell's prompt", tty0, "", true)
		}
		// every dialog's hook ran, in both sessions (Codex's in its daemon)
		n := 0
		for _, e := range r.recorded() {
			if e.event == spec.asks {
				n++
			}
		}
		if n < 3 {
			r.problem("the recorder logged %d %s hooks, want one per dialog (3)", n, spec.asks)
		}
		r.snap("end")
		r.quit("C-d")
	}
}

// backAtShell waits for the shell to run in the pane again, after what
// ended its agent: false, and a problem, when it does not within timeout.
func (r *run) backAtShell(timeout time.Duration, after string) bool {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cmd, _ := r.tm("display-message", "-p", "-t", r.sess, "#{pane_current_command}"); cmd == "bash" {
			return true
		}
	}
	r.snap("no-shell")
	r.problem("the shell did not come back within %v after %s", timeout, after)
	return false
}

// agentGroup is the process group of the job the shell pid runs: the
// agent's processes.
func agentGroup(shell string) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 2 && f[1] == shell {
			pg, _ := strconv.Atoi(f[2])
			return pg
		}
	}
	return 0
}

// truthCheck wants, within 2 s, every view of the session on pty tty to
// say want: ls its state ("?" after it where ls marks it unsure), the pane
// option the state, the outer terminal's last 7501 record of the session
// its word, and, where the session's window is the one shown (progress),
// the last 9;4 its progress; want "" is no session: no ls entry, no pane
// option, the record cleared, no progress.
func (r *run) truthCheck(moment, tty, want string, progress bool) {
	st := strings.TrimSuffix(want, "?")
	key := r.agent + "-" + filepath.Base(tty)
	words := map[string]string{"working": "working", "attention": "blocked", "done": "done", "interrupted": "idle", "": "clear"}
	bars := map[string]string{"working": "4;3", "attention": "4;4;100"}
	env := []string{"PATH=" + r.bin.pathEnv(), "HOME=" + r.home, "USER=" + osUser(), "XDG_RUNTIME_DIR=" + filepath.Join(r.dir, "run")}
	record := regexp.MustCompile(`\x1b\]7501;state=([a-z]+)[^\x1b\a]*:id=` + regexp.QuoteMeta(key) + `[:\x1b\a]`)
	var seen []string
	for end := time.Now().Add(2 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		seen = nil
		raw := mustRead(r.raw)
		w7501 := ""
		for _, m := range record.FindAllSubmatch(raw, -1) {
			w7501 = string(m[1])
		}
		if w7501 != words[st] && (want != "" || w7501 != "") {
			seen = append(seen, "the last 7501 record says "+w7501)
		}
		if i := bytes.LastIndex(raw, []byte("\x1b]9;4;")); progress && (i < 0 && want != "" || i >= 0 && !bytes.HasPrefix(raw[i+4:], []byte(cmp.Or(bars[st], "4;0")))) {
			seen = append(seen, "the last progress is "+strings.Trim(string(raw[max(i, 0):min(len(raw), max(i, 0)+14)]), "\x1b\a\\"))
		}
		if pane, _ := r.tm("show-options", "-pqv", "-t", r.paneOf(tty), terminal.PaneOption("hookinstall")); pane != st {
			seen = append(seen, "the pane option says "+pane)
		}
		// ls last: a program, the slowest to ask
		if seen == nil {
			out, _ := cmdOut(30*time.Second, r.work, env, hiBin, "ls", "--json")
			var doc struct {
				Sessions []struct {
					State, TTY string
					Unsure     bool
				}
			}
			_ = json.Unmarshal([]byte(out), &doc)
			got := ""
			for _, s := range doc.Sessions {
				if s.TTY == tty {
					got = s.State + map[bool]string{true: "?"}[s.Unsure]
				}
			}
			if got != want {
				seen = append(seen, "ls says "+cmp.Or(got, "nothing"))
			}
		}
		if seen == nil || time.Now().After(end) {
			break
		}
	}
	if seen != nil {
		r.problem("%s: want %q everywhere; %s", moment, cmp.Or(want, "no session"), strings.Join(seen, "; "))
	} else {
		r.note("%s: every view says %q", moment, cmp.Or(want, "no session"))
	}
}

// paneOf is the tmux pane whose pty is tty.
func (r *run) paneOf(tty string) string {
	out, _ := r.tm("list-panes", "-s", "-t", strings.Split(r.sess, ":")[0], "-F", "#{pane_tty} #{pane_id}")
	for _, l := range strings.Split(out, "\n") {
		if p, id, _ := strings.Cut(l, " "); p == tty {
			return id
		}
	}
	return "none"
}
