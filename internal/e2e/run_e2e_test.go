//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/e2e/fakemodel"
)

// A run is one agent case: scratch HOME, fake model server, tmux pane, checks.
type run struct {
	t        *testing.T
	name     string // case name, e.g. "claude-tmux"
	agent    string // claude, codex, opencode
	who      string // how failure lines name it, e.g. "claude ($TMUX set)"
	bin      *agentBin
	dir      string // artifacts of this case
	home     string
	work     string
	marker   string // the file the model's shell command touches in work
	rec      string // the fixture's recorder hook log
	srv      *fakemodel.Server
	sock     string // private tmux socket name (-L)
	sess     string
	raw      string // raw pty bytes (pipe-pane)
	pty      string // the pane's pty slave path, as HOOKINSTALL_PTY
	mark     string // HOOKINSTALL_E2E_RUN value for this case
	keepTmux bool
	// silent: add refused this agent version and wrote nothing (agentCase.refused)
	silent bool

	env     []string // KEY=VALUE the host passes to the agent, besides the common ones
	args    []string
	addArgs []string // extra arguments for `hookinstall add`

	t0       time.Time // when the prompt was sent
	mu       sync.Mutex
	oscTimes []time.Duration // when each decoded OSC was first seen, relative to t0
	stopRaw  chan struct{}

	problems []string
	notes    []string

	// beforeStrays, when set, runs in quit once tmux is gone, before the
	// check that no process of the case outlived it (Codex's daemon: stop it)
	beforeStrays func()

	// decode, when set, reads raw.bin in place of DecodeOSC (the terminal
	// cases: our terminal-mode sequences, as OSC values of namespace ns)
	decode func([]byte) []OSC
}

func newRun(t *testing.T, name, agentName, who string) *run {
	r := &run{t: t, name: name, agent: agentName, who: who}
	r.dir = filepath.Join(artRoot, name)
	r.home = filepath.Join(r.dir, "home")
	r.work = filepath.Join(r.dir, "work")
	r.rec = filepath.Join(r.dir, "hooks.log")
	r.raw = filepath.Join(r.dir, "raw.bin")
	r.mark = runID + "/" + name
	r.sock = fmt.Sprintf("hie2e-%d-%s", os.Getpid(), name)
	r.sess = "agent"
	for _, d := range []string{r.home, r.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *run) problem(format string, a ...any) {
	r.problems = append(r.problems, r.who+": "+fmt.Sprintf(format, a...))
}

func (r *run) note(format string, a ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, a...))
}

func (r *run) writeFile(rel, content string, mode os.FileMode) string {
	p := rel
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.home, rel)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		r.t.Fatal(err)
	}
	return p
}

// ---------------------------------------------------------------- fake model server

func (r *run) startServer(marker string) {
	f, err := os.Create(filepath.Join(r.dir, "server.jsonl"))
	if err != nil {
		r.t.Fatal(err)
	}
	srv, err := fakemodel.Start(fakemodel.Config{Marker: marker, MaxRequests: 100,
		MaxDuration: 5 * time.Minute, Log: f})
	if err != nil {
		r.t.Fatal(err)
	}
	r.srv = srv
	onWatchdog(r.name+"/server", srv.Close)
	r.t.Cleanup(func() { srv.Close(); offWatchdog(r.name + "/server"); f.Close() })
}

func (r *run) serverFinal() bool {
	for _, q := range r.srv.Requests() {
		if q.Reply == "text:final" {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- tmux

func (r *run) tm(args ...string) (string, error) {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv) // run from inside tmux: still our own private server
		}
	}
	env = append(env, "HOOKINSTALL_E2E_RUN="+r.mark)
	out, err := cmdOut(15*time.Second, r.dir, env, "tmux", append([]string{"-L", r.sock, "-f", "/dev/null"}, args...)...)
	return strings.TrimRight(out, "\n"), err
}

func (r *run) killTmux() {
	_, _ = r.tm("kill-server")
	if sock := tmuxSocketPath(r.sock); sock != "" {
		os.Remove(sock)
	}
}

func tmuxSocketPath(name string) string {
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), name)
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// startAgent starts the agent in a fresh tmux pane the way a host does: the pane's
// raw output is piped to raw.bin before the agent starts, and the agent gets
// HOOKINSTALL_TASK_ID and HOOKINSTALL_PTY (the pane's pty slave path).
func (r *run) startAgent() {
	gate := filepath.Join(r.dir, "go")
	launch := filepath.Join(r.dir, "launch.sh")
	wait := fmt.Sprintf("n=0; while [ ! -e %s ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done; [ -e %[1]s ] && exec /bin/sh %s", shq(gate), shq(launch))
	onWatchdog(r.name+"/tmux", r.killTmux)
	r.t.Cleanup(func() { r.killTmux(); offWatchdog(r.name + "/tmux") })
	if out, err := r.tm("new-session", "-d", "-s", r.sess, "-x", "160", "-y", "45", "/bin/sh -c "+shq(wait)); err != nil {
		r.t.Fatalf("%s: tmux new-session: %v %s", r.who, err, out)
	}
	_, _ = r.tm("set-option", "-t", r.sess, "remain-on-exit", "on")
	if out, err := r.tm("pipe-pane", "-t", r.sess, "-o", "cat >> "+shq(r.raw)); err != nil {
		r.t.Fatalf("%s: tmux pipe-pane: %v %s", r.who, err, out)
	}
	pty, err := r.tm("display-message", "-p", "-t", r.sess, "#{pane_tty}")
	if err != nil || !strings.HasPrefix(pty, "/dev/") {
		r.t.Fatalf("%s: pane tty: %q %v", r.who, pty, err)
	}
	r.pty = pty
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n# How the host starts %s in this tmux pane (%s).\n", r.agent, r.who)
	fmt.Fprintf(&b, "# HOOKINSTALL_PTY is this pane's pty slave, from tmux #{pane_tty}.\n")
	fmt.Fprintf(&b, "[ \"$(tty)\" = %s ] || echo \"e2e: warning: tty is $(tty), not %s\" >&2\n", shq(pty), pty)
	fmt.Fprintf(&b, "cd %s || exit 97\nexec /usr/bin/env -i \\\n", shq(r.work))
	env := []string{"PATH=" + r.bin.pathEnv(), "HOME=" + r.home, "LANG=C.UTF-8", "USER=" + osUser(),
		"HOOKINSTALL_TASK_ID=e2e-" + r.name, "HOOKINSTALL_PTY=" + pty, "HOOKINSTALL_E2E_RUN=" + r.mark}
	env = append(env, r.env...)
	for _, kv := range env {
		fmt.Fprintf(&b, "  %s \\\n", shq(kv))
	}
	b.WriteString("  \"TERM=$TERM\" \\\n")
	if r.keepTmux {
		b.WriteString("  \"TMUX=$TMUX\" \"TMUX_PANE=$TMUX_PANE\" \\\n")
	}
	b.WriteString("  " + shq(r.bin.path))
	for _, a := range r.args {
		b.WriteString(" " + shq(a))
	}
	b.WriteString("\n")
	r.writeFile(launch, b.String(), 0o755)
	r.t0 = time.Now()
	r.stopRaw = make(chan struct{})
	go r.watchRaw()
	r.t.Cleanup(func() { close(r.stopRaw) })
	r.writeFile(gate, "", 0o644)
}

func osUser() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "root"
}

// watchRaw stamps the time each OSC first shows up in raw.bin.
func (r *run) watchRaw() {
	tk := time.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-r.stopRaw:
			return
		case <-tk.C:
		}
		n := len(r.osc())
		r.mu.Lock()
		for len(r.oscTimes) < n {
			r.oscTimes = append(r.oscTimes, time.Since(r.t0))
		}
		r.mu.Unlock()
	}
}

func (r *run) osc() []OSC {
	b, _ := os.ReadFile(r.raw)
	if r.decode != nil {
		return r.decode(b)
	}
	return DecodeOSC(b)
}

func (r *run) screen() string {
	s, _ := r.tm("capture-pane", "-p", "-t", r.sess)
	return s
}

var snapN int

func (r *run) snap(label string) {
	snapN++
	_ = os.WriteFile(filepath.Join(r.dir, fmt.Sprintf("screen-%02d-%s.txt", snapN, label)), []byte(r.screen()), 0o644)
}

func (r *run) keys(ks ...string) {
	for _, k := range ks {
		_, _ = r.tm("send-keys", "-t", r.sess, k)
		time.Sleep(300 * time.Millisecond)
	}
}

// prompt types text, waits until the screen shows it once more than before
// (a TUI still settling drops keys: then it is typed again, once), then
// Enter half a second later, and starts the turn clock. (The half second is
// no wait for an event: a TUI takes keys that come together for a paste,
// whose Enter is a newline; Kimi Code 2.1.0 did, on 2026-12-07.)
func (r *run) prompt(text string) {
	n := strings.Count(r.screen(), text)
	shown := func() bool { return strings.Count(r.screen(), text) > n }
	for try := 0; try < 2; try++ {
		_, _ = r.tm("send-keys", "-t", r.sess, "-l", text)
		end := time.Now().Add(5 * time.Second)
		for !shown() && time.Now().Before(end) {
			time.Sleep(100 * time.Millisecond)
		}
		if shown() {
			break
		}
		r.note("%q did not show within 5 s of typing it", text)
	}
	time.Sleep(500 * time.Millisecond)
	r.mu.Lock()
	r.t0 = time.Now()
	r.oscTimes = nil
	r.mu.Unlock()
	_, _ = r.tm("send-keys", "-t", r.sess, "Enter")
}

// approve answers a permission dialog that matches dialogRe with key. Claude Code
// 2.1.332 ignores a key that arrives right after its dialog is drawn (measured: an
// Enter sent within ~0.7s of the dialog is dropped), so wait a moment first, and
// press again (bounded) while the dialog is still up.
func (r *run) approve(dialogRe, key string) {
	rx := regexp.MustCompile(dialogRe)
	time.Sleep(1500 * time.Millisecond)
	for try := 1; try <= 3; try++ {
		r.keys(key)
		end := time.Now().Add(4 * time.Second)
		for time.Now().Before(end) {
			if !rx.MatchString(r.screen()) {
				if try > 1 {
					r.note("the permission dialog took %d key presses", try)
				}
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	r.problem("the permission dialog did not go away after 3 presses of %s", key)
}

// waitRunning waits until the model's shell command has touched the marker
// at since or later: the command runs (a slow one sleeps after the touch),
// so an Escape now stops a running tool. False when timeout passes first.
func (r *run) waitRunning(since time.Time, timeout time.Duration) bool {
	end := time.Now().Add(timeout)
	for {
		if fi, err := os.Stat(filepath.Join(r.work, r.marker)); err == nil && !fi.ModTime().Before(since) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitScreen polls the visible pane until it matches re or timeout passes.
// need waits up to timeout for the screen to match re. When it does not, it
// keeps the screen as snap, records that what did not happen within the
// timeout, types the keys that quit the agent, and reports false.
func (r *run) need(re string, timeout time.Duration, snap, what string, quit ...string) bool {
	if r.waitScreen(re, timeout) {
		return true
	}
	r.snap(snap)
	r.problem("%s within %.0fs", what, timeout.Seconds())
	r.quit(quit...)
	return false
}

func (r *run) waitScreen(re string, timeout time.Duration) bool {
	rx := regexp.MustCompile(re)
	end := time.Now().Add(timeout)
	for time.Now().Before(end) {
		if rx.MatchString(r.screen()) {
			return true
		}
		if r.paneDead() {
			return rx.MatchString(r.screen())
		}
		time.Sleep(250 * time.Millisecond)
	}
	return false
}

func (r *run) paneDead() bool {
	out, err := r.tm("display-message", "-p", "-t", r.sess, "#{pane_dead}")
	return err != nil || out == "1"
}

// waitOSC polls raw.bin until ok holds for our sequences or timeout passes.
func (r *run) waitOSC(ok func([]OSC) bool, timeout time.Duration) bool {
	if r.silent {
		return ok(OfNS(r.osc(), ns)) // nothing of ours is installed: nothing to wait for
	}
	end := time.Now().Add(timeout)
	for time.Now().Before(end) {
		if ok(OfNS(r.osc(), ns)) {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return ok(OfNS(r.osc(), ns))
}

func hasState(state string) func([]OSC) bool {
	return func(s []OSC) bool {
		for _, o := range s {
			if o.State == state {
				return true
			}
		}
		return false
	}
}

func doneAfterAttention(s []OSC) bool {
	a := -1
	for i, o := range s {
		if o.State == "attention" && a < 0 {
			a = i
		}
		if o.State == "done" && a >= 0 && i > a {
			return true
		}
	}
	return false
}

// approvedTurn is the first turn of most agents' drives: the prompt, the
// agent's permission dialog (dialogRe) within wait, attention on the pty,
// the dialog's preselected choice taken with Enter, and the turn's end
// within wait. False (after sending quit) when the dialog never came.
func (r *run) approvedTurn(dialogRe string, wait time.Duration, quit ...string) bool {
	return r.answeredTurn(dialogRe, "Enter", wait, quit...)
}

// answeredTurn is approvedTurn with the dialog answered by key (Escape: the
// call is rejected; the turns that go on after that end as approved ones do).
func (r *run) answeredTurn(dialogRe, key string, wait time.Duration, quit ...string) bool {
	r.prompt(thePrompt)
	if !r.need(dialogRe, wait, "permission", "no permission prompt ('"+dialogRe+"')", quit...) {
		return false
	}
	r.snap("permission")
	r.waitOSC(hasState("attention"), 8*time.Second)
	r.approve(dialogRe, key)
	r.waitTurnEnd(true, wait, wait/6)
	r.snap("done")
	return true
}

// waitTurnEnd waits for the done OSC after the attention; once the fake server has
// sent the final text, it waits at most grace more (so a broken done hook fails fast).
// With hooks=false (untrusted codex) it waits for the final text and then for the
// screen to settle.
func (r *run) waitTurnEnd(hooks bool, timeout, grace time.Duration) {
	hooks = hooks && !r.silent
	end := time.Now().Add(timeout)
	sawFinal := false
	for time.Now().Before(end) {
		if hooks && doneAfterAttention(OfNS(r.osc(), ns)) {
			return
		}
		if !sawFinal && r.serverFinal() {
			sawFinal = true
			if !hooks {
				grace = 3 * time.Second // nothing to wait for but the screen to settle
			}
			if e := time.Now().Add(grace); e.Before(end) {
				end = e
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !sawFinal {
		r.problem("the turn did not end within %v (the fake model never sent its final text)", timeout)
	}
}

// quit sends the agent's exit keys, waits (bounded) for it to exit, and presses
// them again (at most 3 rounds) if a key landed while the agent was busy (Claude
// takes a Ctrl-C during its Stop hooks as an interrupt, not as exit). Then it stops
// tmux and checks that no process of this case outlived it.
func (r *run) quit(ks ...string) {
	r.snap("before-quit")
	for round := 1; round <= 3 && !r.paneDead(); round++ {
		for _, k := range ks {
			_, _ = r.tm("send-keys", "-t", r.sess, k)
			time.Sleep(700 * time.Millisecond)
		}
		end := time.Now().Add(6 * time.Second)
		for time.Now().Before(end) && !r.paneDead() {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if !r.paneDead() {
		r.note("%s did not exit on 3 rounds of %v; the tmux server was killed", r.agent, ks)
	} else if st, _ := r.tm("display-message", "-p", "-t", r.sess, "#{pane_dead_status}"); st != "" && st != "0" {
		r.note("%s exited with status %s", r.agent, st)
	}
	r.snap("exit")
	time.Sleep(300 * time.Millisecond) // let pipe-pane's cat drain
	r.killTmux()
	if r.beforeStrays != nil {
		r.beforeStrays()
	}
	if strays := killStrays(r.mark, 3*time.Second); len(strays) > 0 {
		r.problem("processes outlived the agent (killed now): %s", strings.Join(strays, "; "))
	}
}

// ---------------------------------------------------------------- the recorder hook

// recorderScript is the fixture user's own hook: it logs each call with its payload.
// It prints nothing, so it never changes what the agent does.
const recorderScript = `#!/bin/sh
# e2e fixture: the user's own hook. Logs one line per call: time, event, what the
# hook process saw of the host env, and the payload (newlines folded).
ts=$(date +%s.%N)
payload=$(cat)
pty=unset
if [ -n "${HOOKINSTALL_PTY:-}" ]; then pty=set; [ -c "$HOOKINSTALL_PTY" ] && pty=chardev; fi
log=$1 ev=$2
# the agent's terminal as terminal.sh reads it: the tty_nr of this hook's
# parent, or of the agent beyond a shell of its own session
s=
[ -r /proc/$PPID/stat ] && read -r s </proc/$PPID/stat
set -- ${s##*) }
case $s in *'(sh) '* | *'(dash) '* | *'(bash) '* | *'(zsh) '*) [ "$5" != 0 ] || { read -r s </proc/$2/stat; set -- ${s##*) }; } ;; esac
printf '%s\t%s\ttask=%s pty=%s tty=%s\t%s\n' "$ts" "$ev" "${HOOKINSTALL_TASK_ID:-}" "$pty" "${5:-}" "$(printf '%s' "$payload" | tr '\n' ' ')" >> "$log"
exit 0
`

// ttyHeld says where a recorded hook ran under an agent not in the pane
// (the tty_nr it logged is not that of /dev/pts/N): terminal mode's
// runtime and plugins would then send nothing (issue 36).
func (r *run) ttyHeld(ev []recEvent) {
	n, err := strconv.Atoi(strings.TrimPrefix(r.pty, "/dev/pts/"))
	if err != nil {
		return
	}
	for _, e := range ev {
		if got, ok := strings.CutPrefix(e.env[strings.LastIndex(e.env, " ")+1:], "tty="); ok && got != strconv.Itoa(34816+n) {
			r.problem("the %s hook ran under an agent whose terminal (tty_nr %q) is not the pane's %s: terminal mode would be silent", e.event, got, r.pty)
			return
		}
	}
}

// jsRecorder is the head of the fixture user's own JavaScript plugins and
// extensions (opencode's and Kilo's, Pi's, oh-my-pi's): rec logs a line as
// recorderScript does, the tty the agent's own (the plugin runs in it). Its
// %s is the log's path.
const jsRecorder = `import { appendFileSync, readFileSync } from "node:fs";

const LOG = %s;
function rec(event, payload) {
  try {
    const pty = process.env.HOOKINSTALL_PTY ? "set" : "unset";
    let tty = "";
    try {
      const st = readFileSync("/proc/self/stat", "utf8");
      tty = st.slice(st.lastIndexOf(") ") + 2).split(" ")[4];
    } catch {}
    const env = "task=" + (process.env.HOOKINSTALL_TASK_ID || "") + " pty=" + pty + " tty=" + tty;
    appendFileSync(LOG, (Date.now() / 1000) + "\t" + event + "\t" + env + "\t" + JSON.stringify(payload ?? null) + "\n");
  } catch {}
}
`

type recEvent struct {
	ts    float64
	event string
	env   string
	keys  []string
	p     map[string]any
}

func (r *run) recorded() []recEvent {
	f, err := os.Open(r.rec)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []recEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4<<20), 4<<20)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 4)
		if len(parts) < 4 {
			continue
		}
		e := recEvent{event: parts[1], env: parts[2]}
		e.ts, _ = strconv.ParseFloat(parts[0], 64)
		if json.Unmarshal([]byte(parts[3]), &e.p) == nil {
			for k := range e.p {
				e.keys = append(e.keys, k)
			}
			sort.Strings(e.keys)
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ts < out[j].ts })
	return out
}

// ---------------------------------------------------------------- hookinstall add/remove

// A hooker installs and removes our hooks for one agent: the real CLI, or (while an
// adapter is not on main yet) the suite's stand-in. Switching is one line in hooksFor.
type hooker interface {
	add(r *run) (string, error)
	remove(r *run) (string, error)
}

func hooksFor(t *testing.T, agentName string) hooker {
	t.Helper()
	return cli{bin: hookinstallBin(t)}
}

type cli struct{ bin string }

// removeEdit judges a change remove made to path p (relative to HOME) that add did
// not make: ("", nil) not recognised, (why, nil) accepted, (_, err) wrong.
type removeEdit func(r *run, p string, s1, s2, s3 Snapshot) (string, error)

func (c cli) do(r *run, verb string) (string, error) {
	// the agent's own bin dir first, as for a user who has it installed
	// (add codex --trust asks `codex --version`)
	// (add asks every agent's --version: kimi's needs its own Node, r.bin.pathEnv)
	env := []string{"PATH=" + filepath.Dir(r.bin.path) + ":" + r.bin.pathEnv(), "HOME=" + r.home, "LANG=C.UTF-8"}
	args := []string{verb, r.agent, "--home", r.home}
	if verb == "add" {
		args = append(args, r.addArgs...)
	}
	out, err := cmdOut(60*time.Second, r.work, env, c.bin, args...)
	log := fmt.Sprintf("$ hookinstall %s\n%s", strings.Join(args, " "), out)
	if err != nil {
		log += fmt.Sprintf("(exit: %v)\n", err)
	}
	_ = os.WriteFile(filepath.Join(r.dir, verb+".out"), []byte(log), 0o644)
	return out, err
}

func (c cli) add(r *run) (string, error)    { return c.do(r, "add") }
func (c cli) remove(r *run) (string, error) { return c.do(r, "remove") }

// ---------------------------------------------------------------- a whole case

type agentCase struct {
	name     string // case name
	agent    string
	version  string // the agent's npm version; "" is its pin
	who      string
	form     string // "verbatim" or "tmux"
	keepTmux bool
	hooks    bool // false: the hooks must NOT run (codex untrusted)
	addArgs  []string
	// userHooksSilent: the fixture's own (untrusted) recorder hooks must not run
	userHooksSilent bool
	// removeMayEdit accepts an edit by remove of a file add did not touch but the
	// agent wrote during the run (codex's trust records for our hooks)
	removeMayEdit removeEdit
	// agentOwn names paths (relative to HOME) that the agent's own binary wrote
	// while add ran it (add codex --trust runs codex app-server, which keeps its
	// state in CODEX_HOME as any codex run does): not hookinstall's, so not
	// expected back after remove
	agentOwn func(p string) bool
	marker   string // file the model's shell command creates in the work dir
	// expect, when set, is the exact sequence of states our OSC must put on the pty,
	// in place of the approved turn CheckTurn knows (working, attention, done)
	expect []string
	// userHooksFire: the user's own recorder hooks must run (a version add
	// reduced: ours must not cost the user theirs)
	userHooksFire bool
	// userEvents, with userHooksFire: the events the recorder must have
	// logged each (those ours share with it in this drive: a version that
	// kills a slow hook loses the user's on the same events)
	userEvents []string
	// refused, when set, is what `hookinstall add` must say when it refuses this
	// agent version (exit 3, nothing written); the agent must then start and run
	// the user's own hooks, with none of ours on the pty
	refused string
	// declined: the drive answers the permission prompt with no, so the tool must not
	// run (the marker must be absent)
	declined bool
	fixture  func(r *run)
	drive    func(r *run)
}

func runCase(t *testing.T, c agentCase) {
	if !wanted(c.name) {
		t.Skipf("not in HOOKINSTALL_E2E_AGENTS")
	}
	start := time.Now()
	cleanupMu.Lock()
	currentCase = c.who
	cleanupMu.Unlock()
	r := newRun(t, c.name, c.agent, c.who)
	r.keepTmux = c.keepTmux
	r.addArgs = c.addArgs
	defer func() {
		if t.Failed() {
			anyFailed = true
		}
	}()
	r.bin = agent(t, c.agent, c.version)
	hk := hooksFor(t, c.agent)
	r.marker = c.marker
	r.startServer(c.marker)
	c.fixture(r)

	// before/after add: what hookinstall touched
	s0 := mustSnap(t, r.home)
	out, err := hk.add(r)
	if c.refused != "" {
		refusedCase(r, c, s0, out, err)
		return
	}
	if err != nil {
		t.Fatalf("%s: hookinstall add %s failed: %v\n%s", r.who, c.agent, err, out)
	}
	s1 := mustSnap(t, r.home)
	touched := Changed(s0, s1)
	if c.agentOwn != nil {
		var ours, own []string
		for _, p := range touched {
			if c.agentOwn(p) {
				own = append(own, p)
			} else {
				ours = append(ours, p)
			}
		}
		if len(own) > 0 {
			r.note("the agent's own files its binary wrote while add asked it (not checked after remove): %s", strings.Join(own, ", "))
		}
		touched = ours
	}
	if len(touched) == 0 {
		t.Fatalf("%s: hookinstall add %s changed nothing under %s\n%s", r.who, c.agent, r.home, out)
	}
	var files []string
	for _, p := range touched {
		if !s1[p].Mode.IsDir() {
			files = append(files, p)
		}
	}
	r.note("files hookinstall add created or changed: %s", strings.Join(files, ", "))
	restore := r.breakHooks(s1, touched)

	r.startAgent()
	c.drive(r)
	restore()

	// after the agent: remove, then compare
	s2 := mustSnap(t, r.home)
	for _, p := range touched {
		if e, ok := s2[p]; ok && !e.Mode.IsDir() && !s1[p].Same(e) {
			r.note("the agent itself changed a file hookinstall touched: %s", s1.Describe(s2, p))
		}
	}
	if out, err := hk.remove(r); err != nil {
		r.problem("hookinstall remove %s failed: %v\n%s", c.agent, err, out)
	}
	s3 := mustSnap(t, r.home)
	r.checkRestored(s0, s1, s2, s3, touched, c.removeMayEdit)

	// the OSC sequences
	all := r.osc()
	if c.hooks {
		if c.expect != nil {
			r.problems = append(r.problems, CheckStates(r.who, all, ns, c.form, c.expect)...)
		} else {
			r.problems = append(r.problems, CheckTurn(r.who, all, ns, c.form)...)
		}
		_, err := os.Stat(filepath.Join(r.work, c.marker))
		switch {
		case c.declined && err == nil:
			r.problem("the tool ran (%s exists) although the permission prompt was declined", c.marker)
		case !c.declined && err != nil:
			r.problem("the approved tool never ran (%s missing): the permission prompt was not approved", c.marker)
		}
		r.ttyHeld(r.recorded())
		if ev := r.recorded(); c.userHooksFire && len(ev) == 0 {
			r.problem("the user's own hooks did not run beside ours (the recorder logged nothing)")
		} else if c.userHooksFire {
			for _, want := range c.userEvents {
				if !slices.ContainsFunc(ev, func(e recEvent) bool { return e.event == want }) {
					r.problem("the user's own %s hook did not run beside ours (the recorder logged %d calls, none of it)", want, len(ev))
				}
			}
		}
		if ev := r.recorded(); c.userHooksSilent && len(ev) > 0 {
			r.problem("the user's untrusted hooks ran: the recorder hook logged %d call(s)", len(ev))
		}
	} else {
		if got := OfNS(all, ns); len(got) > 0 {
			r.problem("untrusted hooks ran: %d OSC sequence(s) of ours reached the pty", len(got))
		}
		if ev := r.recorded(); len(ev) > 0 {
			r.problem("untrusted hooks ran: the recorder hook logged %d call(s)", len(ev))
		}
		switch _, err := os.Stat(filepath.Join(r.work, c.marker)); {
		case c.declined && err == nil:
			r.problem("the tool ran (%s exists) although it was to be refused", c.marker)
		case !c.declined && err != nil:
			r.problem("the approved tool never ran (%s missing)", c.marker)
		}
	}
	rep := r.report(all, time.Since(start))
	_ = os.WriteFile(filepath.Join(r.dir, "report.txt"), []byte(rep), 0o644)
	t.Log("\n" + rep)
	if len(r.problems) > 0 {
		t.Errorf("FAIL %s\n%s\ndecoded OSC 777 sequences on the pty:\n%s\nartifacts: %s",
			r.who, strings.Join(r.problems, "\n"), Describe(all), r.dir)
	}
}

func mustSnap(t *testing.T, dir string) Snapshot {
	t.Helper()
	s, err := Snap(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkRestored: every path `add` created or changed is, after `remove`, exactly what
// it was before `add`. A lock file left in the hooks dir (PRODUCT.md: never deleted)
// and directories left empty are reported, not failed.
func (r *run) checkRestored(s0, s1, s2, s3 Snapshot, touched []string, mayEdit removeEdit) {
	in := map[string]bool{}
	for _, p := range touched {
		in[p] = true
		e0, was := s0[p]
		e3, is := s3[p]
		switch {
		case was && is && e0.Same(e3):
		case !was && !is:
		case !was && is && e3.Mode.IsDir():
			var left []string
			for q := range s3 {
				if strings.HasPrefix(q, p+"/") {
					left = append(left, q)
				}
			}
			sort.Strings(left)
			r.note("directory created by add left after remove: %s %v", p, left)
		case !was && is && isLockFile(p):
			r.note("lock file left after remove (by design): %s", p)
		case !was && is && (p == ".cache/hookinstall" || p == ".cache" || strings.HasPrefix(p, ".cache/hookinstall/")):
			// what agents' programs said to --version, kept for the next run
			// (docs/reliability.md): a cache, not a config
			r.note("hookinstall's cache of the agents' versions left after remove (by design): %s", p)
		case is && s2[p].Mode.IsRegular() && !s2[p].Same(s1[p]) && mayEdit != nil:
			// the agent wrote this file too during the run (codex rewrites config.toml):
			// remove must then take out exactly ours and keep the agent's changes
			if why, err := mayEdit(r, p, s1, s2, s3); err == nil && why != "" {
				r.note("%s changed during the run (the agent's own edit); remove %s", p, why)
			} else {
				r.problem("not restored after remove: %s; the agent changed it during the run, and remove's edit is not just ours taken out (%v)", s0.Describe(s3, p), err)
			}
		default:
			r.problem("not restored after remove: %s", s0.Describe(s3, p))
		}
	}
	for _, p := range Changed(s2, s3) {
		if in[p] {
			continue
		}
		if e0, ok := s0[p]; ok && s3[p].Same(e0) {
			r.note("remove also restored %s (changed during the run)", p)
			continue
		}
		if mayEdit != nil {
			if why, err := mayEdit(r, p, s1, s2, s3); err == nil && why != "" {
				r.note("remove edited %s, which the agent wrote during the run: %s", p, why)
				continue
			} else if err != nil {
				r.problem("remove changed %s, which add never touched, beyond what is ours: %v", p, err)
				continue
			}
		}
		r.problem("remove changed a path that add never touched: %s", s2.Describe(s3, p))
	}
}

func isLockFile(p string) bool {
	b := filepath.Base(p)
	return strings.Contains(strings.ToLower(b), "lock")
}

func (r *run) report(all []OSC, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s: %s (%s), took %.1fs\n", r.name, r.who, r.bin.version, took.Seconds())
	fmt.Fprintf(&b, "HOOKINSTALL_PTY=%s\n", r.pty)
	fmt.Fprintf(&b, "OSC 777 sequences on the pty (time after the prompt's Enter):\n")
	r.mu.Lock()
	times := append([]time.Duration(nil), r.oscTimes...)
	r.mu.Unlock()
	if len(all) == 0 {
		b.WriteString("  (none)\n")
	}
	for i, o := range all {
		at := "?"
		if i < len(times) {
			at = fmt.Sprintf("+%.2fs", times[i].Seconds())
		}
		fmt.Fprintf(&b, "  %7s %s\n", at, o)
	}
	ev := r.recorded()
	fmt.Fprintf(&b, "hook calls seen by the fixture's recorder (%d), time after the prompt's Enter:\n", len(ev))
	t0 := float64(r.t0.UnixNano()) / 1e9
	for i := 0; i < len(ev); {
		e := ev[i]
		j := i + 1 // fold a run of the same event (opencode's bus is chatty)
		for j < len(ev) && ev[j].event == e.event && strings.Join(ev[j].keys, ",") == strings.Join(e.keys, ",") {
			j++
		}
		rep := ""
		if j-i > 1 {
			rep = fmt.Sprintf(" (x%d)", j-i)
		}
		fmt.Fprintf(&b, "  %+7.2fs %-26s %s keys=%s%s\n", e.ts-t0, e.event, e.env, strings.Join(e.keys, ","), rep)
		i = j
	}
	fmt.Fprintf(&b, "model requests, time after the prompt's Enter:\n")
	for _, q := range r.srv.Requests() {
		fmt.Fprintf(&b, "  %+7.2fs #%d %s %s -> %s (model=%s, tools=%d)\n", q.Time.Sub(r.t0).Seconds(), q.N, q.Method, q.Path, q.Reply, q.Model, len(q.Tools))
	}
	for _, n := range r.notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if len(r.problems) == 0 {
		fmt.Fprintf(&b, "PASS %s\n", r.who)
	} else {
		for _, p := range r.problems {
			fmt.Fprintf(&b, "FAIL %s\n", p)
		}
	}
	return b.String()
}

// ---------------------------------------------------------------- self-test: break a hook

// breakHooks implements HOOKINSTALL_E2E_BREAK=AGENT:STATE[,...]: in every file add
// created or changed (other than the agent's config files the fixture made), the OSC
// body of STATE is corrupted. It returns a func that puts the original bytes back, so
// `remove` sees what `add` wrote.
func (r *run) breakHooks(s1 Snapshot, touched []string) func() {
	v := os.Getenv("HOOKINSTALL_E2E_BREAK")
	if v == "" {
		return func() {}
	}
	var states []string
	for _, f := range strings.Split(v, ",") {
		a, st, ok := strings.Cut(strings.TrimSpace(f), ":")
		if !ok || (a != r.agent && a != r.name && a != "*") {
			continue
		}
		if _, known := stateBodies[st]; !known {
			r.t.Fatalf("HOOKINSTALL_E2E_BREAK: unknown state %q", st)
		}
		states = append(states, st)
	}
	if len(states) == 0 {
		return func() {}
	}
	orig := map[string][]byte{}
	for _, p := range touched {
		e := s1[p]
		if !e.Mode.IsRegular() || e.Data == nil {
			continue
		}
		data := string(e.Data)
		for _, st := range states {
			body := stateBodies[st]
			data = strings.ReplaceAll(data, body, body[:len(body)-1]+"!")
		}
		if data != string(e.Data) {
			full := filepath.Join(r.home, p)
			orig[full] = e.Data
			if err := os.WriteFile(full, []byte(data), e.Mode.Perm()); err != nil {
				r.t.Fatal(err)
			}
			r.note("SELF-TEST: corrupted the OSC body of %v in %s", states, p)
		}
	}
	if len(orig) == 0 {
		r.t.Fatalf("%s: HOOKINSTALL_E2E_BREAK=%s: no installed file holds the body of %v", r.who, v, states)
	}
	return func() {
		for p, b := range orig {
			info, err := os.Stat(p)
			mode := os.FileMode(0o755)
			if err == nil {
				mode = info.Mode().Perm()
			}
			_ = os.WriteFile(p, b, mode)
		}
	}
}

// refusedCase finishes a case whose agent version add must refuse: add exited
// 3 saying c.refused and changed nothing under HOME; the agent still starts and
// runs the user's own hooks; no OSC of ours reaches the pty.
func refusedCase(r *run, c agentCase, s0 Snapshot, out string, err error) {
	start := time.Now()
	var xe *exec.ExitError
	switch {
	case err == nil:
		r.problem("hookinstall add %s succeeded; want exit 3 (refused for %s):\n%s", c.agent, r.bin.version, out)
	case !errors.As(err, &xe) || xe.ExitCode() != 3:
		r.problem("hookinstall add %s: %v; want exit 3:\n%s", c.agent, err, out)
	case !strings.Contains(out, c.refused):
		r.problem("hookinstall add %s did not say %q:\n%s", c.agent, c.refused, out)
	}
	var ch []string
	for _, p := range Changed(s0, mustSnap(r.t, r.home)) {
		if p != ".cache" && p != ".cache/hookinstall" && !strings.HasPrefix(p, ".cache/hookinstall/") {
			ch = append(ch, p) // (the agents' --version answers are kept: a cache)
		}
	}
	if len(ch) > 0 {
		r.problem("the refused add changed %s", strings.Join(ch, ", "))
	}
	r.note("hookinstall add refused: %s", strings.TrimSpace(out))
	r.silent = true
	r.startAgent()
	c.drive(r)
	all := r.osc()
	if got := OfNS(all, ns); len(got) > 0 {
		r.problem("%d OSC sequence(s) of ours reached the pty, though nothing was installed", len(got))
	}
	if ev := r.recorded(); len(ev) == 0 {
		r.problem("the user's own hooks did not run (the recorder logged nothing)")
	}
	if !r.serverFinal() {
		r.problem("the agent did not finish the turn (the fake model never sent its final text)")
	}
	rep := r.report(all, time.Since(start))
	_ = os.WriteFile(filepath.Join(r.dir, "report.txt"), []byte(rep), 0o644)
	r.t.Log("\n" + rep)
	if len(r.problems) > 0 {
		r.t.Errorf("FAIL %s\n%s\nartifacts: %s", r.who, strings.Join(r.problems, "\n"), r.dir)
	}
}
