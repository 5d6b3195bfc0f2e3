//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// Your own terminal (issue 17): the agents run from an interactive bash
// whose rc file ran `hookinstall init bash`, with no host; the bytes that
// reach the outer terminal (the pane of an outer tmux that shows either an
// inner tmux or an ssh session) hold the terminal-mode sequences of each
// state. They are decoded twice: by DecodeTerminal, and by xterm.js's own
// parser (@xterm/headless, VS Code's terminal engine) with OSC handlers for
// 9, 99, 777, 7501 and 21337.

func init() {
	pins["xterm"] = struct{ pkg, version, bin string }{"@xterm/headless", "6.0.0", ""}
	binPaths["xterm"] = "node_modules/@xterm/headless/package.json" // no program: its package file
}

// xtermScript feeds a byte file to xterm.js's headless terminal and prints,
// as JSON, every OSC 9, 99, 777, 7501 and 21337 its parser dispatched, in
// order.
const xtermScript = `
const { Terminal } = require(process.argv[2]);
const fs = require("fs");
const term = new Terminal({ cols: 160, rows: 45, allowProposedApi: true });
const seen = [];
for (const code of [9, 99, 777, 7501, 21337]) {
  term.parser.registerOscHandler(code, (data) => { seen.push({ code, payload: data }); return true; });
}
term.write(fs.readFileSync(process.argv[3]), () => { console.log(JSON.stringify(seen)); process.exit(0); });
`

// A termCase is one agent reached one way.
type termCase struct {
	name, agent, product string
	via                  string            // "tmux", "tmux-bg" (the agent's window in the background), "ssh" or "ssh-tmux" (ssh from inside a local tmux)
	env                  map[string]string // set in the rc file before init
	// server are the variables of the terminal the user's tmux was started
	// in (tmux passes them to its panes, but sets TERM and TERM_PROGRAM
	// itself); xtversion, when set, is the terminal's answer to tmux's
	// XTVERSION query, which tmux keeps as #{client_termtype}: the outer
	// terminal is then a pty of the test's that answers it (an outer tmux
	// answers "tmux 3.3a").
	server    map[string]string
	xtversion string
	// own: the agent notifies the attention itself in this terminal (its
	// description's ShowsItself), so the hooks leave their notification out
	own bool
	// daemon: the agent's hooks run in a daemon of its own, with no
	// terminal: nothing of ours may reach the terminal (issue 36)
	daemon bool
	// truth: the drive checks every view itself (the truth matrix); the
	// agent is started from the shell, not exec'd
	truth   bool
	want    terminal.Terminal
	marker  string
	fixture func(*run)
	drive   func(*run)
}

// iterm2Server is iTerm2's environment on a tmux server (its XTVERSION
// answer: "iTerm2 3.6.6").
var iterm2Server = map[string]string{"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.6.6", "LC_TERMINAL": "iTerm2", "ITERM_SESSION_ID": "w0t0p0:F00D"}

func TestTerminal(t *testing.T) {
	cases := []termCase{
		{name: "claude-term-tmux", agent: "claude", product: "Claude Code", via: "tmux",
			want: terminal.Terminal{Dialect: terminal.OSC9, Tmux: true}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
		{name: "gemini-term-tmux", agent: "gemini", product: "Gemini CLI", via: "tmux",
			env:  map[string]string{"GHOSTTY_RESOURCES_DIR": "/usr/share/ghostty"},
			want: terminal.Terminal{Dialect: terminal.OSC777, Name: "ghostty", Tmux: true}, marker: "gemini-marker.txt", fixture: geminiFixture, drive: geminiDrive},
		// Never twice (issue 23): Claude Code in the user's tmux (passthrough
		// on) in Ghostty, kitty and iTerm2, each terminal's variables on the
		// tmux server and its own XTVERSION answer, which Claude asks tmux
		// for (#{client_termtype}) and notifies a permission prompt itself
		// after 6 s: one notification per attention (Claude's) and per done
		// (ours), and one writer of the tab's progress (ours: inside tmux
		// Claude draws none).
		{name: "claude-term-ghostty", agent: "claude", product: "Claude Code", via: "tmux", own: true,
			server:    map[string]string{"GHOSTTY_RESOURCES_DIR": "/usr/share/ghostty", "TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.2.3"},
			xtversion: "ghostty 1.2.3",
			want:      terminal.Terminal{Dialect: terminal.OSC777, Name: "ghostty", Tmux: true}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeOwnDrive},
		{name: "claude-term-kitty", agent: "claude", product: "Claude Code", via: "tmux", own: true,
			server:    map[string]string{"KITTY_WINDOW_ID": "1", "KITTY_PID": "4242"},
			xtversion: "kitty(0.44.0)",
			want:      terminal.Terminal{Dialect: terminal.OSC99, Name: "kitty", Tmux: true}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeOwnDrive},
		{name: "claude-term-iterm2", agent: "claude", product: "Claude Code", via: "tmux", own: true,
			server:    iterm2Server,
			xtversion: "iTerm2 3.6.6",
			want:      terminal.Terminal{Dialect: terminal.OSC9, Name: "iterm2", Tmux: true}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeOwnDrive},
		// a pty agent in iTerm2's environment (issue 29): its OSC 7501
		// records go blocked, working again after the approval, done
		{name: "gemini-term-iterm2", agent: "gemini", product: "Gemini CLI", via: "tmux",
			server:    iterm2Server,
			xtversion: "iTerm2 3.6.6",
			want:      terminal.Terminal{Dialect: terminal.OSC9, Name: "iterm2", Tmux: true}, marker: "gemini-marker.txt", fixture: geminiFixture, drive: geminiDrive},
		// Codex in iTerm2's environment, inside tmux: it writes its own 7501
		// unwrapped there, which tmux drops, so its hooks send theirs
		{name: "codex-term-iterm2", agent: "codex", product: "Codex", via: "tmux",
			server:    iterm2Server,
			xtversion: "iTerm2 3.6.6",
			want:      terminal.Terminal{Dialect: terminal.OSC9, Name: "iterm2", Tmux: true}, marker: "codex-marker.txt", fixture: codexFixture, drive: codexDrive("trust", true, "")},
		// tmux's window list (issue 23): Claude in a background window of the
		// user's tmux; its attention hook's plain BEL sets that window's bell
		// flag (passthrough from a window nobody sees is dropped: tmux's
		// allow-passthrough on, not all).
		// kitty (issue 29): Gemini CLI notifies nothing itself, so ours show
		// only while the window is unfocused, and the attention one is
		// closed when Gemini works again after the approval
		{name: "gemini-term-kitty", agent: "gemini", product: "Gemini CLI", via: "tmux",
			server:    map[string]string{"KITTY_WINDOW_ID": "1", "KITTY_PID": "4242"},
			xtversion: "kitty(0.44.0)",
			want:      terminal.Terminal{Dialect: terminal.OSC99, Name: "kitty", Tmux: true}, marker: "gemini-marker.txt", fixture: geminiFixture, drive: geminiDrive},
		// Warp with its agent protocol on (issue 29): Claude's states go to
		// Warp's sidebar as warp://cli-agent events, in place of a
		// notification; inside tmux, a BEL for the window list
		{name: "claude-term-warp", agent: "claude", product: "Claude Code", via: "tmux",
			server: map[string]string{"WARP_CLI_AGENT_PROTOCOL_VERSION": "1"},
			want:   terminal.Terminal{Dialect: terminal.OSC777, Name: "warp", Tmux: true}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
		{name: "claude-term-bg", agent: "claude", product: "Claude Code", via: "tmux-bg",
			want: terminal.Terminal{Dialect: terminal.OSC9, Tmux: true}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeBellDrive},
		{name: "claude-term-ssh", agent: "claude", product: "Claude Code", via: "ssh",
			env:  map[string]string{"HOOKINSTALL_TERMINAL": "osc99"},
			want: terminal.Terminal{Dialect: terminal.OSC99}, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
		{name: "gemini-term-ssh", agent: "gemini", product: "Gemini CLI", via: "ssh",
			want: terminal.Terminal{Dialect: terminal.OSC9}, marker: "gemini-marker.txt", fixture: geminiFixture, drive: geminiDrive},
		// ssh from inside a local tmux (issue 23): no HOOKINSTALL_TERMINAL, the
		// remote sees only TERM=tmux-256color, and init wraps for that tmux
		{name: "gemini-term-ssh-tmux", agent: "gemini", product: "Gemini CLI", via: "ssh-tmux",
			want: terminal.Terminal{Dialect: terminal.OSC9, Tmux: true}, marker: "gemini-marker.txt", fixture: geminiFixture, drive: geminiDrive},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runTermCase(t, c) })
	}
}

var (
	sshdOnce sync.Once
	sshdErr  error
	sshdPort int
	sshdKey  string
)

// startSSHD starts Debian's sshd on a free loopback port with a throwaway
// host key and client key, for this run only (stopped by the watchdog's
// cleanups and at the end of the run).
func startSSHD(t *testing.T) (port int, key string) {
	t.Helper()
	sshdOnce.Do(func() {
		sshd := "/usr/sbin/sshd"
		if _, err := os.Stat(sshd); err != nil {
			sshdErr = fmt.Errorf("no %s: the ssh cases need Debian's openssh-server (apt-get install openssh-server; .ci/run installs it)", sshd)
			return
		}
		dir := filepath.Join(artRoot, "sshd")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			sshdErr = err
			return
		}
		_ = os.MkdirAll("/run/sshd", 0o755) // its privilege-separation dir
		for _, k := range []string{"host", "client"} {
			if out, err := cmdOut(30*time.Second, dir, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "hookinstall-e2e", "-f", filepath.Join(dir, k)); err != nil {
				sshdErr = fmt.Errorf("ssh-keygen: %v %s", err, out)
				return
			}
		}
		pub, _ := os.ReadFile(filepath.Join(dir, "client.pub"))
		if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600); err != nil {
			sshdErr = err
			return
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			sshdErr = err
			return
		}
		sshdPort = l.Addr().(*net.TCPAddr).Port
		l.Close()
		conf := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers %s
AcceptEnv LANG LC_*
LogLevel VERBOSE
`, sshdPort, filepath.Join(dir, "host"), filepath.Join(dir, "sshd.pid"), filepath.Join(dir, "authorized_keys"), osUser())
		if err := os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(conf), 0o600); err != nil {
			sshdErr = err
			return
		}
		logf, _ := os.Create(filepath.Join(dir, "sshd.log"))
		c := exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
		c.Env = append(os.Environ(), "HOOKINSTALL_E2E_RUN="+runID+"/sshd")
		c.Stdout, c.Stderr = logf, logf
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			sshdErr = fmt.Errorf("start sshd: %v", err)
			return
		}
		stop := func() { _ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL); _, _ = c.Process.Wait() }
		onWatchdog("sshd", stop)
		for i := 0; i < 100; i++ {
			if conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", sshdPort)); err == nil {
				conn.Close()
				sshdKey = filepath.Join(dir, "client")
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		stop()
		b, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
		sshdErr = fmt.Errorf("sshd did not listen on port %d:\n%s", sshdPort, b)
	})
	if sshdErr != nil {
		t.Fatal(sshdErr)
	}
	return sshdPort, sshdKey
}

// sshTo is the ssh command that runs shell on this run's sshd, on a pty.
func sshTo(t *testing.T, shell string) string {
	port, key := startSSHD(t)
	return fmt.Sprintf("ssh -F /dev/null -i %s -p %d -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes -tt %s@127.0.0.1 %s",
		shq(key), port, osUser(), shq(shell))
}

// rcFile is the user's ~/.bashrc for the case: the agent's environment, the
// work dir, then the one line the README gives.
func (r *run) rcFile(extra map[string]string) string {
	env := []string{"PATH=" + r.bin.pathEnv(), "HOME=" + r.home, "LANG=C.UTF-8", "USER=" + osUser(), "HOOKINSTALL_E2E_RUN=" + r.mark}
	env = append(env, r.env...)
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	var b strings.Builder
	// A user's interactive shell is not a CI job: with CI set (as .ci/run
	// sets it) Gemini CLI 0.61.0 takes itself for non-interactive, prints "No
	// input provided via stdin" and exits at once (seen in .ci/run).
	b.WriteString("# the user's ~/.bashrc for this case\nunset HOOKINSTALL_TASK_ID HOOKINSTALL_PTY HOOKINSTALL_TERMINAL CI CONTINUOUS_INTEGRATION BUILD_NUMBER RUN_ID\n")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s=%s\n", k, shq(v))
	}
	fmt.Fprintf(&b, "cd %s || exit 97\n", shq(r.work))
	fmt.Fprintf(&b, "eval \"$(%s init bash)\"\n", shq(hiBin))
	b.WriteString("PS1='term-e2e$ '\n")
	return r.writeFile(filepath.Join(r.dir, "bashrc"), b.String(), 0o644)
}

// claudeOwnDrive is claudeDrive where Claude notifies the permission prompt
// itself: it waits (up to 20 s; Claude's timer is 6 s) for that
// notification before approving.
func claudeOwnDrive(r *run) {
	claudeDriveWith(r, func() {
		if !r.waitOSC(hasState("own"), 20*time.Second) {
			r.problem("Claude Code's own notification of the permission prompt never reached the terminal")
		}
	})
}

// claudeBellDrive is claudeDrive with the agent's window in the background:
// while the permission prompt is up, that window's bell flag must be set
// (it is checked clear before the prompt, in runTermCase).
func claudeBellDrive(r *run) {
	claudeDriveWith(r, func() {
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			flag, _ := r.tm("display-message", "-p", "-t", r.sess, "#{window_bell_flag}")
			if flag == "1" {
				list, _ := r.tm("list-windows", "-t", r.sess, "-F", "#{window_index} #{window_flags} #{window_bell_flag}")
				r.note("the agent's window's bell flag is set at attention; list-windows: %q", list)
				return
			}
			if time.Now().After(end) {
				r.problem("the agent's background window's bell flag (#{window_bell_flag}) was %q 10 s into attention, want 1", flag)
				return
			}
		}
	})
}

// outerPTY starts the outer terminal as a pty of the test's running cmd:
// all it writes is appended to r.raw, and tmux's XTVERSION query (ESC [ > q)
// is answered as the terminal xtversion names would (ESC P > | NAME ESC \).
func (r *run) outerPTY(cmd, xtversion string) {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	c := exec.Command("sh", "-c", cmd)
	c.Env = append(env, "TERM=xterm-256color", "HOOKINSTALL_E2E_RUN="+r.mark)
	f, err := pty.StartWithSize(c, &pty.Winsize{Rows: 50, Cols: 170})
	if err != nil {
		r.t.Fatalf("%s: outer pty: %v", r.who, err)
	}
	raw, err := os.OpenFile(r.raw, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		r.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := make([]byte, 32<<10)
		for {
			n, err := f.Read(b)
			if n > 0 {
				_, _ = raw.Write(b[:n])
				if bytes.Contains(b[:n], []byte("\x1b[>q")) {
					_, _ = f.Write([]byte("\x1bP>|" + xtversion + "\x1b\\"))
				}
			}
			if err != nil {
				return
			}
		}
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = c.Process.Kill()
			_ = c.Wait()
			f.Close()
			<-done
			raw.Close()
		})
	}
	onWatchdog(r.name+"/outer", stop)
	r.t.Cleanup(func() { stop(); offWatchdog(r.name + "/outer") })
}

// outerTmux starts the outer terminal: a tmux pane running cmd, whose raw
// output (what a terminal would receive) is piped to r.raw.
func (r *run) outerTmux(sock, cmd string) {
	tmo := func(args ...string) (string, error) {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
				env = append(env, kv)
			}
		}
		env = append(env, "HOOKINSTALL_E2E_RUN="+r.mark)
		out, err := cmdOut(15*time.Second, r.dir, env, "tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		return strings.TrimRight(out, "\n"), err
	}
	kill := func() {
		_, _ = tmo("kill-server")
		os.Remove(tmuxSocketPath(sock))
	}
	onWatchdog(r.name+"/outer", kill)
	r.t.Cleanup(func() { kill(); offWatchdog(r.name + "/outer") })
	if out, err := tmo("new-session", "-d", "-s", "outer", "-x", "170", "-y", "50", cmd); err != nil {
		r.t.Fatalf("%s: outer tmux: %v %s", r.who, err, out)
	}
	if out, err := tmo("pipe-pane", "-t", "outer", "-o", "cat >> "+shq(r.raw)); err != nil {
		r.t.Fatalf("%s: pipe-pane: %v %s", r.who, err, out)
	}
}

// termDecode maps our terminal-mode sequences onto OSC values (namespace
// ns), so the agents' drives wait on them as on the host protocol; a
// desktop notification not ours (the agent's own) is state "own".
func termDecode(product, folder string) func([]byte) []OSC {
	return func(b []byte) []OSC {
		var out []OSC
		for _, o := range DecodeTerminal(b) {
			s, _ := TermState(o, product, folder)
			if s == "" && isNotification(o) {
				s = "own"
			}
			if s == "working" || s == "attention" || s == "done" || s == "own" {
				out = append(out, OSC{Offset: o.Offset, NS: ns, Body: o.Payload, State: s, Form: "terminal", Term: "BEL"})
			}
		}
		return out
	}
}

// isNotification reports a sequence that shows a desktop notification:
// OSC 9 but 9;4 progress, OSC 777 notify, and an OSC 99 that ends its
// notification (kitty's protocol sends one in parts: all but the last say
// d=0).
func isNotification(o TermOSC) bool {
	switch o.Code {
	case 9:
		return !strings.HasPrefix(o.Payload, "4;")
	case 777: // (Warp shows no toast for a prompt submitted)
		return strings.HasPrefix(o.Payload, "notify;") && !strings.Contains(o.Payload, `"event":"prompt_submit"`)
	case 99: // (p=close takes one away)
		meta, _, _ := strings.Cut(o.Payload, ";")
		return !slices.Contains(strings.Split(meta, ":"), "d=0") && !slices.Contains(strings.Split(meta, ":"), "p=close")
	}
	return false
}

func runTermCase(t *testing.T, c termCase) {
	if !wanted(c.name) {
		t.Skip("not in HOOKINSTALL_E2E_AGENTS")
	}
	cleanupMu.Lock()
	currentCase = c.name
	cleanupMu.Unlock()
	// the watchdog's budget was set for the host cases: each of these adds
	// its own (they took 17 to 75 s each on a loaded machine)
	extendWatchdog(90 * time.Second)
	start := time.Now()
	r := newRun(t, c.name, c.agent, c.name)
	defer func() {
		if t.Failed() {
			anyFailed = true
		}
	}()
	r.bin = agent(t, c.agent, "")
	hk := hooksFor(t, c.agent)
	if _, _, out, err := npmInstall("xterm", ""); err != nil {
		t.Fatalf("npm install @xterm/headless: %v\n%s", err, out)
	}
	r.startServer(c.marker)
	c.fixture(r)
	if c.daemon {
		r.args = nil
	}
	if out, err := hk.add(r); err != nil {
		t.Fatalf("%s: hookinstall add: %v\n%s", r.who, err, out)
	}
	if os.Getenv("HOOKINSTALL_E2E_BREAK_TERMINAL") != "" {
		// SELF-TEST: the hooks put the wrong folder in their notifications.
		ents, _ := filepath.Glob(filepath.Join(r.home, "."+c.agent, "hookinstall*-hooks", "*.sh"))
		for _, p := range ents {
			b, _ := os.ReadFile(p)
			if nb := strings.ReplaceAll(string(b), "d=${PWD##*/}\n", "d=${PWD##*/}x\n"); nb != string(b) {
				_ = os.WriteFile(p, []byte(nb), 0o755)
				r.note("SELF-TEST: broke the folder in %s", p)
			}
		}
	}
	r.decode = termDecode(c.product, filepath.Base(r.work))
	// the case's own records folder: a record another case left for a
	// pty of the same number would be cleared at this shell's first prompt
	extra := map[string]string{"XDG_RUNTIME_DIR": filepath.Join(r.dir, "run")}
	maps.Copy(extra, c.env)
	if err := os.MkdirAll(extra["XDG_RUNTIME_DIR"], 0o700); err != nil {
		t.Fatal(err)
	}
	rc := r.rcFile(extra)
	shell := "exec bash --noprofile --rcfile " + shq(rc) + " -i"
	switch c.via {
	case "tmux", "tmux-bg":
		// inner tmux: the user's, with passthrough on, where the shell runs
		r.sock = fmt.Sprintf("hie2e-%d-%s-in", os.Getpid(), c.name)
		onWatchdog(r.name+"/tmux", r.killTmux)
		t.Cleanup(func() { r.killTmux(); offWatchdog(r.name + "/tmux") })
		args := []string{"new-session", "-d", "-s", r.sess, "-x", "160", "-y", "45"}
		for k, v := range c.server {
			args = append(args, "-e", k+"="+v)
		}
		if out, err := r.tm(append(args, "/bin/sh -c "+shq(shell))...); err != nil {
			t.Fatalf("%s: inner tmux: %v %s", r.who, err, out)
		}
		_, _ = r.tm("set-option", "-g", "allow-passthrough", "on")
		if c.via == "tmux-bg" {
			// a second window, the one the user looks at: the agent's
			// (window 0, still driven by name) is in the background
			if out, err := r.tm("new-window", "-t", r.sess+":1", "sleep 3600"); err != nil {
				t.Fatalf("%s: second window: %v %s", r.who, err, out)
			}
			r.sess += ":0"
		}
		attach := "env -u TMUX -u TMUX_PANE tmux -L " + r.sock + " attach -t " + strings.TrimSuffix(r.sess, ":0")
		if c.xtversion != "" {
			r.outerPTY(attach, c.xtversion)
		} else {
			r.outerTmux(fmt.Sprintf("hie2e-%d-%s-out", os.Getpid(), c.name), attach)
		}
	case "ssh":
		// ssh from a plain terminal: the recorder is a tmux, whose TERM
		// (tmux-256color) would tell the remote init it runs under one
		// (ssh-tmux is that case), so ssh gets a plain terminal's TERM
		r.sock = fmt.Sprintf("hie2e-%d-%s-out", os.Getpid(), c.name)
		r.sess = "outer"
		onWatchdog(r.name+"/tmux", r.killTmux)
		r.outerTmux(r.sock, "env TERM=xterm-256color "+sshTo(t, shell))
	case "ssh-tmux":
		// the user's local tmux (passthrough on, and default-terminal
		// tmux-256color, tmux 3.5's default; 3.3a's is screen) runs ssh in
		// its current window; the remote shell has no $TMUX
		r.sock = fmt.Sprintf("hie2e-%d-%s-in", os.Getpid(), c.name)
		onWatchdog(r.name+"/tmux", r.killTmux)
		t.Cleanup(func() { r.killTmux(); offWatchdog(r.name + "/tmux") })
		if out, err := r.tm("new-session", "-d", "-s", r.sess, "-x", "160", "-y", "45", "sleep 3600"); err != nil {
			t.Fatalf("%s: local tmux: %v %s", r.who, err, out)
		}
		_, _ = r.tm("set-option", "-g", "allow-passthrough", "on")
		_, _ = r.tm("set-option", "-g", "default-terminal", "tmux-256color")
		if out, err := r.tm("new-window", "-t", r.sess, sshTo(t, shell)); err != nil {
			t.Fatalf("%s: ssh in the local tmux: %v %s", r.who, err, out)
		}
		r.outerTmux(fmt.Sprintf("hie2e-%d-%s-out", os.Getpid(), c.name),
			"env -u TMUX -u TMUX_PANE tmux -L "+r.sock+" attach -t "+r.sess)
	}
	if !r.need(`term-e2e\$`, 30*time.Second, "shell", "the interactive shell did not start", "C-d") {
		t.Fatalf("%s:\n%s", r.who, strings.Join(r.problems, "\n"))
	}
	if c.via == "tmux-bg" {
		if flag, _ := r.tm("display-message", "-p", "-t", r.sess, "#{window_bell_flag}"); flag != "0" {
			r.problem("the agent's window's bell flag was %q before the agent started, want 0", flag)
		}
	}
	envFile := filepath.Join(r.dir, "shell-env.txt")
	exec := "exec "
	if c.truth {
		exec = ""
	}
	line := fmt.Sprintf(`echo "$HOOKINSTALL_TASK_ID $HOOKINSTALL_PTY $(tty)" > %s; %s%s`, shq(envFile), exec, r.command())
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", line)
	_, _ = r.tm("send-keys", "-t", r.sess, "Enter")
	r.t0 = time.Now()
	c.drive(r)

	// what the shell's init set
	b, _ := os.ReadFile(envFile)
	f := strings.Fields(string(b))
	key := c.agent + "-" // the agent session's key in the tab: its pty's name
	if len(f) == 3 {
		key += filepath.Base(f[1])
	}
	switch {
	case len(f) != 3:
		r.problem("the shell recorded %q, want the task id, the pty and its tty", b)
	case f[0] != c.want.TaskID():
		r.problem("init set HOOKINSTALL_TASK_ID=%s, want %s", f[0], c.want.TaskID())
	case f[1] != f[2] || !strings.HasPrefix(f[1], "/dev/"):
		r.problem("init set HOOKINSTALL_PTY=%s, but the shell's tty is %s", f[1], f[2])
	default:
		r.note("the shell that ran init had HOOKINSTALL_TASK_ID=%s HOOKINSTALL_PTY=%s", f[0], f[1])
	}
	if _, err := os.Stat(filepath.Join(r.work, c.marker)); err != nil {
		r.problem("the approved tool never ran (%s missing)", c.marker)
	}

	if got := DecodeTerminal(mustRead(r.raw)); c.daemon && len(got) > 0 {
		r.problem("hooks run in the daemon reached the outer terminal: %v", got)
	}
	if c.truth || c.daemon {
		termReport(t, r, c, start, nil)
		return
	}
	if c.via == "tmux-bg" {
		// what reaches the outer terminal from a background window is its
		// bell alone; the flag was read during attention (claudeBellDrive)
		termReport(t, r, c, start, nil)
		return
	}
	raw, _ := os.ReadFile(r.raw)
	ours := DecodeTerminal(raw)
	var seq []string
	for _, o := range ours {
		s, d := TermState(o, c.product, filepath.Base(r.work))
		if s == "" {
			continue
		}
		if o.Tmux {
			r.problem("a sequence reached the outer terminal still wrapped for tmux: %v", o)
		}
		if d != "" && d != string(c.want.Dialect) {
			r.problem("a %s notification, want %s: %v", d, c.want.Dialect, o)
		}
		if len(seq) == 0 || seq[len(seq)-1] != s {
			seq = append(seq, s)
		}
	}
	// working; attention (paused, notification); working again after the
	// approval (docs/agents.md "After an approval"); done (progress
	// cleared, notification): one writer of the progress
	want := []string{"working", "paused", "attention", "working", "clear", "done"}
	if c.own {
		want = []string{"working", "paused", "working", "clear", "done"}
	}
	if strings.Join(seq, " ") != strings.Join(want, " ") {
		r.problem("states on the outer terminal: %v, want %v", seq, want)
	}
	// one desktop notification per attention (from the paused progress to
	// the clear) and per done (after the clear), whoever sends it
	var paused, clear = -1, -1
	for _, o := range ours {
		switch st, _ := TermState(o, c.product, filepath.Base(r.work)); {
		case st == "paused" && paused < 0:
			paused = o.Offset
		case st == "clear" && paused >= 0 && clear < 0:
			clear = o.Offset
		}
	}
	// (kitty's parts of one notification share its i=ID: one notification;
	// our attention and done notifications share the session's, one each)
	var atAttention, atDone []string
	ids := map[string]bool{}
	for _, o := range ours {
		meta, _, _ := strings.Cut(o.Payload, ";")
		id := ""
		for _, kv := range strings.Split(meta, ":") {
			if strings.HasPrefix(kv, "i=") && o.Code == 99 {
				id = kv
			}
		}
		if clear >= 0 && o.Offset >= clear {
			id += "@done"
		}
		switch {
		case !isNotification(o) || paused < 0 || o.Offset < paused || ids[id]:
			continue
		case clear < 0 || o.Offset < clear:
			atAttention = append(atAttention, o.String())
		default:
			atDone = append(atDone, o.String())
		}
		ids[id] = !strings.HasPrefix(id, "@") && id != ""
	}
	if len(atAttention) != 1 || len(atDone) != 1 {
		r.problem("desktop notifications: %d at attention %q, %d at done %q; want one each", len(atAttention), atAttention, len(atDone), atDone)
	} else {
		r.note("one notification at attention (%s), one at done (%s)", atAttention[0], atDone[0])
	}
	// byte for byte: each sequence of each state, unwrapped, as the terminal
	// gets it (tmux forwards each passthrough on its own, between its own
	// drawing, so a state's sequences need not be adjacent); what is sent
	// depends on tmux (no 21337 through it; a BEL for its window list)
	for _, s := range []hookinstall.State{hookinstall.Working, hookinstall.Attention, hookinstall.Done} {
		var own *terminal.Own // the agent notifies attention itself
		if c.own {
			own = &terminal.Own{Notifies: []terminal.State{hookinstall.Attention}, In: []string{"*"}, InTmux: []string{"*"}}
		}
		for _, w := range terminal.Sequences(c.want, terminal.Agent{ID: c.agent, Product: c.product, Own: own}, false, terminal.SafeFolder(r.work), key, s) {
			if c.agent == "claude" && strings.HasPrefix(w, "\x1b]99;") {
				// Claude re-emits an OSC 99 ended by ST, as kitty's protocol
				// writes it (2.1.332's zA), whatever the hook's terminator
				w = strings.TrimSuffix(w, "\a") + "\x1b\\"
			}
			if w != "" && !strings.Contains(string(raw), w) {
				r.problem("the outer terminal never got the exact %s bytes %q", s, w)
			}
		}
	}

	// the tab's program status (OSC 7501), where this terminal holds it:
	// blocked at the prompt, working again after the approval, then done
	if slices.Contains((terminal.Agent{ID: c.agent, Product: c.product}).Holds(c.want), terminal.ProgramStatus) {
		var st []string
		for _, o := range ours {
			if v, ok := strings.CutPrefix(o.Payload, "state="); ok && o.Code == 7501 {
				v, _, _ = strings.Cut(v, ":")
				if len(st) == 0 || st[len(st)-1] != v {
					st = append(st, v)
				}
			}
		}
		if got := strings.Join(st, " "); got != "working blocked working done" {
			r.problem("OSC 7501 records on the outer terminal: %q, want working, blocked, working, done", got)
		} else {
			r.note("OSC 7501 records: %s", got)
		}
	}
	// kitty: our attention notification shows only while the window is
	// unfocused, and is closed (p=close, its id) when the agent works again
	if c.want.Dialect == terminal.OSC99 && !c.own {
		id, closed := "", false
		for _, o := range ours {
			meta, _, _ := strings.Cut(o.Payload, ";")
			kv := strings.Split(meta, ":")
			switch st, _ := TermState(o, c.product, filepath.Base(r.work)); {
			case o.Code != 99:
			case st == "attention":
				if !slices.Contains(kv, "o=unfocused") {
					r.problem("the attention notification %v does not say o=unfocused", o)
				}
				id = kv[0]
			case id != "" && slices.Contains(kv, "p=close") && kv[0] == id:
				closed = true
			case id != "" && st == "done":
				if !closed {
					r.problem("the attention notification (%s) was not closed before done", id)
				}
				id = ""
			}
		}
		if closed {
			r.note("the attention notification was closed when the agent worked again")
		}
	}

	// xterm.js's parser must see the same OSC 9, 99, 777, 7501 and 21337 as ours
	script := r.writeFile(filepath.Join(r.dir, "xterm.cjs"), xtermScript, 0o644)
	pkg := filepath.Join(cacheDir(), "xterm-"+pins["xterm"].version, "node_modules", "@xterm", "headless")
	out, err := cmdOut(60*time.Second, r.dir, nil, "node", script, pkg, r.raw)
	var xs []struct {
		Code    int    `json:"code"`
		Payload string `json:"payload"`
	}
	if err != nil || json.Unmarshal([]byte(strings.TrimSpace(out)), &xs) != nil {
		r.problem("xterm.js headless: %v %s", err, out)
	}
	var mine []string
	for _, o := range ours {
		if slices.Contains([]int{9, 99, 777, 7501, 21337}, o.Code) {
			mine = append(mine, strconv.Itoa(o.Code)+";"+o.Payload)
		}
	}
	var theirs []string
	for _, x := range xs {
		theirs = append(theirs, strconv.Itoa(x.Code)+";"+x.Payload)
	}
	if strings.Join(mine, "\n") != strings.Join(theirs, "\n") {
		r.problem("xterm.js's parser saw %q, our decoder %q", theirs, mine)
	} else {
		r.note("xterm.js's parser saw the same %d OSC 9/99/777/7501/21337 sequences: %q", len(theirs), theirs)
	}

	termReport(t, r, c, start, ours)
}

// termReport writes and logs the case's report: each sequence of ours
// (and each notification not ours), the notes, the problems; and fails
// the test on a problem.
func termReport(t *testing.T, r *run, c termCase, start time.Time, ours []TermOSC) {
	var rep strings.Builder
	fmt.Fprintf(&rep, "== %s (%s via %s), took %.1fs\n", r.name, r.bin.version, c.via, time.Since(start).Seconds())
	for _, o := range ours {
		if s, d := TermState(o, c.product, filepath.Base(r.work)); s != "" {
			fmt.Fprintf(&rep, "  %-9s %-6s %v\n", s, d, o)
		} else if isNotification(o) {
			fmt.Fprintf(&rep, "  %-9s %-6s %v\n", "its own", "", o)
		}
	}
	for _, n := range r.notes {
		fmt.Fprintf(&rep, "note: %s\n", n)
	}
	for _, p := range r.problems {
		fmt.Fprintf(&rep, "FAIL %s\n", p)
	}
	if len(r.problems) == 0 {
		fmt.Fprintf(&rep, "PASS %s\n", r.name)
	}
	_ = os.WriteFile(filepath.Join(r.dir, "report.txt"), []byte(rep.String()), 0o644)
	t.Log("\n" + rep.String())
	if len(r.problems) > 0 {
		t.Errorf("FAIL %s\n%s\nartifacts: %s", r.name, strings.Join(r.problems, "\n"), r.dir)
	}
}

func mustRead(p string) []byte { b, _ := os.ReadFile(p); return b }

// command is the shell's command line that starts the agent with its
// arguments.
func (r *run) command() string {
	line := shq(r.bin.path)
	for _, a := range r.args {
		line += " " + shq(a)
	}
	return line
}

// codexDaemonStops has the case stop Codex's app-server daemon before it
// looks for processes left over.
func codexDaemonStops(r *run) {
	env := []string{"PATH=" + r.bin.pathEnv(), "HOME=" + r.home, "USER=" + osUser(), "CODEX_HOME=" + filepath.Join(r.home, ".codex"),
		"XDG_RUNTIME_DIR=" + filepath.Join(r.dir, "run")}
	r.beforeStrays = func() {
		// (10 s: with a stopped command's sleep still running in it, the stop
		// did not return in 30 s; the processes are killed below)
		out, err := cmdOut(10*time.Second, r.work, env, r.bin.path, "app-server", "daemon", "stop")
		r.note("codex app-server daemon stop: %v %s", err, strings.TrimSpace(out))
		// its updater ("app-server daemon pid-update-loop") outlives a stop
		for _, p := range killStrays(r.mark, 2*time.Second) {
			r.note("left by codex's daemon (killed now): %s", p)
		}
	}
}
