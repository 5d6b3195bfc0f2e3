//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// One view of every agent (issue 30): Codex, Gemini CLI and Claude Code in
// windows 0, 1 and 2 of the user's tmux, each started from a shell whose rc
// ran `hookinstall init bash`; Codex and Gemini after an approved turn,
// Claude left at its permission prompt. `hookinstall ls` lists the three
// with those states; `jump`, run with window 0 active, makes Claude's window
// and pane the active ones; Gemini's pane killed, `ls` drops it.
func TestSessions(t *testing.T) {
	if !wanted("sessions") {
		t.Skip("not in HOOKINSTALL_E2E_AGENTS")
	}
	extendWatchdog(240 * time.Second)
	rundir := filepath.Join(artRoot, "sessions-xdg") // the user's $XDG_RUNTIME_DIR
	if err := os.MkdirAll(rundir, 0o700); err != nil {
		t.Fatal(err)
	}
	sock := fmt.Sprintf("hie2e-%d-sessions", os.Getpid())
	specs := []struct {
		agent, product, marker string
		fixture                func(*run)
	}{
		{"codex", "Codex", "codex-marker.txt", codexFixture},
		{"gemini", "Gemini CLI", "gemini-marker.txt", geminiFixture},
		{"claude", "Claude Code", "claude-marker.txt", claudeFixture},
	}
	var runs []*run
	for i, s := range specs {
		r := newRun(t, "sessions-"+s.agent, s.agent, s.agent+" (sessions)")
		r.bin = agent(t, s.agent, "")
		r.startServer(s.marker)
		s.fixture(r)
		if out, err := hooksFor(t, s.agent).add(r); err != nil {
			t.Fatalf("%s: hookinstall add: %v\n%s", r.who, err, out)
		}
		r.decode = termDecode(s.product, filepath.Base(r.work))
		r.sock, r.sess = sock, fmt.Sprintf("s:%d", i)
		rc := r.rcFile(map[string]string{"XDG_RUNTIME_DIR": rundir})
		shell := "/bin/sh -c " + shq("exec bash --noprofile --rcfile "+shq(rc)+" -i")
		var out string
		var err error
		if i == 0 {
			onWatchdog("sessions/tmux", r.killTmux)
			t.Cleanup(func() { r.killTmux(); offWatchdog("sessions/tmux") })
			out, err = r.tm("new-session", "-d", "-s", "s", "-x", "160", "-y", "45", shell)
			_, _ = r.tm("set-option", "-g", "allow-passthrough", "on")
		} else {
			out, err = r.tm("new-window", "-t", r.sess, shell)
		}
		if err != nil {
			t.Fatalf("%s: tmux: %v %s", r.who, err, out)
		}
		if out, err := r.tm("pipe-pane", "-t", r.sess, "-o", "cat >> "+shq(r.raw)); err != nil {
			t.Fatalf("%s: pipe-pane: %v %s", r.who, err, out)
		}
		runs = append(runs, r)
	}
	for _, r := range runs {
		if !r.need(`term-e2e\$`, 30*time.Second, "shell", "the interactive shell did not start", "C-d") {
			t.Fatalf("%s:\n%s", r.who, strings.Join(r.problems, "\n"))
		}
		line := "exec " + shq(r.bin.path)
		for _, a := range r.args {
			line += " " + shq(a)
		}
		_, _ = r.tm("send-keys", "-t", r.sess, "-l", line)
		_, _ = r.tm("send-keys", "-t", r.sess, "Enter")
		r.t0 = time.Now()
	}
	codex, gemini, claude := runs[0], runs[1], runs[2]

	// Codex: the hook review (ours are new: it always asks), trust all,
	// then an approved turn
	if codex.need(`Continue without trusting`, 60*time.Second, "start", "codex did not ask to review the new hooks") {
		if !codexChoose(codex, 2) {
			codex.problem("the TUI did not become ready after the hook review")
		} else {
			codex.snap("ready")
			codex.approvedTurn(`Would you like to run the following command`, 60*time.Second)
		}
	}
	// Gemini CLI: ready once its SessionStart hooks ran (the user's
	// recorder logs it), then an approved turn ("1. Allow once" is
	// preselected)
	if gemini.need(`Type your message`, 120*time.Second, "start", "the TUI did not come up") {
		gemini.waitStarted(30 * time.Second)
		gemini.approvedTurn(`Allow execution of`, 90*time.Second)
	}
	// Claude Code: left at its permission prompt
	if claude.need(`manual mode|for shortcuts|Make auto mode`, 60*time.Second, "start", "the TUI did not come up") {
		if strings.Contains(claude.screen(), "Make auto mode your default") {
			claude.keys("Down", "Enter")
		}
		claude.waitScreen(`manual mode on|for shortcuts`, 15*time.Second)
		claude.prompt(thePrompt)
		if claude.need(`Do you want to proceed`, 60*time.Second, "permission", "no permission prompt ('Do you want to proceed')") &&
			!claude.waitOSC(hasState("attention"), 15*time.Second) {
			claude.problem("no attention on the pty at the permission prompt")
		}
	}

	// what the user runs, from their own shell
	sockPath := tmuxSocketPath(sock)
	hi := func(args ...string) (string, error) {
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + claude.home, "LANG=C.UTF-8", "USER=" + osUser(),
			"XDG_RUNTIME_DIR=" + rundir, "TMUX=" + sockPath + ",1,0"}
		out, err := cmdOut(20*time.Second, claude.dir, env, hookinstallBin(t), args...)
		_ = os.WriteFile(filepath.Join(artRoot, "sessions-"+strings.Join(args, "-")+".out"), []byte(out), 0o644)
		return out, err
	}
	type session struct {
		Agent, State, Folder, TTY string
		Pane                      string `json:"pane"`
	}
	ls := func() map[string]session {
		out, err := hi("ls", "--json")
		var doc struct{ Sessions []session }
		if err != nil || json.Unmarshal([]byte(out), &doc) != nil {
			claude.problem("hookinstall ls --json: %v %s", err, out)
		}
		m := map[string]session{}
		for _, s := range doc.Sessions {
			m[s.Agent] = s
		}
		return m
	}
	got := ls()
	for r, want := range map[*run]string{codex: "done", gemini: "done", claude: "attention"} {
		pane, _ := r.tm("display-message", "-p", "-t", r.sess, "#{pane_id}")
		s, ok := got[r.agent]
		switch {
		case !ok:
			claude.problem("ls does not list %s: %v", r.agent, got)
		case s.State != want || s.Pane != pane || s.Folder != filepath.Base(r.work):
			claude.problem("ls lists %s as %+v, want state %s in pane %s, folder %s", r.agent, s, want, pane, filepath.Base(r.work))
		default:
			claude.note("ls: %s %s in pane %s (%s)", s.Agent, s.State, s.Pane, s.TTY)
		}
	}
	if out, _ := hi("ls"); !strings.HasPrefix(out, "claude ") {
		claude.problem("ls does not list the waiting claude first:\n%s", out)
	}

	// jump, with window 0 the active one
	_, _ = codex.tm("select-window", "-t", "s:0")
	if out, err := hi("jump"); err != nil {
		claude.problem("hookinstall jump: %v %s", err, out)
	}
	want, _ := claude.tm("display-message", "-p", "-t", claude.sess, "#{window_index} #{pane_id}")
	if active, _ := claude.tm("display-message", "-p", "-t", "s:", "#{window_index} #{pane_id}"); active != want {
		claude.problem("after jump the active window and pane are %q, want Claude's %q", active, want)
	} else {
		claude.note("jump made Claude's window and pane active: %s", active)
	}

	// Gemini's pane killed: ls no longer lists it
	_, _ = gemini.tm("kill-pane", "-t", gemini.sess)
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if _, ok := ls()["gemini"]; !ok {
			claude.note("gemini's pane killed: ls dropped it")
			break
		}
		if time.Now().After(end) {
			claude.problem("ls still lists gemini 10 s after its pane was killed")
			break
		}
	}
	if _, ok := ls()["claude"]; !ok {
		claude.problem("ls no longer lists claude, which still waits")
	}
	var probs []string
	for _, r := range runs {
		probs = append(probs, r.problems...)
	}
	for _, n := range claude.notes {
		t.Log(n)
	}
	if len(probs) > 0 {
		t.Errorf("FAIL sessions\n%s\nartifacts: %s", strings.Join(probs, "\n"), artRoot)
	}
}

// waitStarted waits (up to timeout) until the agent's SessionStart hooks
// have run, the user's recorder having logged the event: the TUI is past
// its start (Gemini CLI draws its prompt box before).
func (r *run) waitStarted(timeout time.Duration) {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		for _, e := range r.recorded() {
			if e.event == "SessionStart" {
				return
			}
		}
	}
	r.note("the user's SessionStart hook had not run %v after start", timeout)
}
