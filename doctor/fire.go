package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/creack/pty"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// payload returns the recorded payload name ("claude.Stop") or nil.
func payload(name string) []byte { return adapters.Payload(name) }

// A fireCase is one run of one script.
type fireCase struct {
	ID      string
	Payload string         // payload name
	State   terminal.State // what must arrive; "" means nothing may
	Task    bool           // set the task env
	Env     []string       // more environment
	Why     string         // what the run proves, for the verdict
}

func (r *run) fireCases(s scriptInfo, state terminal.State) ([]fireCase, string) {
	f := r.t.Adapter
	p := f.Payloads + "." + s.Event
	if payload(p) == nil {
		return nil, p
	}
	kind := "recorded"
	if slices.Contains(f.Reconstructed, s.Event) {
		kind = "reconstructed"
	}
	cs := []fireCase{{ID: "fire." + string(state), Payload: p, State: state, Task: true, Why: "the " + kind + " " + s.Event + " payload"}}
	for _, v := range f.Variants[s.Event] {
		cs = append(cs, fireCase{ID: v.ID, Payload: f.Payloads + "." + v.Payload, State: v.State, Task: true, Why: v.Why})
	}
	cs = append(cs, fireCase{ID: "fire.silent", Payload: p, Why: "no " + terminal.TaskVar(r.t.NS) + " (outside the host)"})
	for _, q := range f.Quiet {
		cs = append(cs, fireCase{ID: "fire." + q.ID, Payload: p, Task: true, Env: []string{q.Var + "=" + snake(s.Event)},
			Why: q.Var + " set (" + q.Why + ")"})
	}
	return cs, p
}

// snake turns "UserPromptSubmit" into "user_prompt_submit", as an agent that
// runs another's hooks (Grok) spells the event in its variable.
func snake(event string) string {
	var b []byte
	for i := 0; i < len(event); i++ {
		c := event[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// fireChecks runs every runnable script with its recorded payloads.
func (r *run) fireChecks(infos []scriptInfo) {
	states := map[string]terminal.State{}
	for _, e := range r.t.Adapter.Events() {
		if _, ok := states[e.Event]; !ok { // an event's first state is its main one
			states[e.Event] = e.State
		}
	}
	// Claude Code runs a hook on Windows with Git Bash's bash: so do the fires
	bash, err := agentexec.LookPath(r.d.Getenv, "bash.exe")
	if v := r.d.Getenv("CLAUDE_CODE_GIT_BASH_PATH"); v != "" {
		bash, err = v, nil
	}
	if runtime.GOOS == "windows" {
		r.shell = []string{bash}
	}
	for _, s := range infos {
		if s.Event == "" {
			continue // the runtime: the hooks' terminal mode, which the fires leave out
		}
		if r.shell != nil && err != nil {
			r.skip("fire."+string(states[s.Event]), s.Path, s.Path+" was not run: no Git Bash (bash on PATH, or CLAUDE_CODE_GIT_BASH_PATH)")
			continue
		}
		if !s.Runnable {
			r.skip("fire."+string(states[s.Event]), s.Path, fmt.Sprintf("%s was not run: it is missing or not executable", s.Path))
			continue
		}
		cases, name := r.fireCases(s, states[s.Event])
		if cases == nil {
			r.skip("fire."+string(states[s.Event]), s.Path, fmt.Sprintf("%s was not run: no recorded payload for %s", s.Path, name))
			continue
		}
		for _, c := range cases {
			r.fireOne(s, c)
		}
	}
}

func (r *run) fireOne(s scriptInfo, c fireCase) {
	ns := r.t.NS
	env := []string{"HOME=" + r.t.Home}
	if c.Task {
		env = append(env, terminal.TaskVar(ns)+"=hookinstall-doctor")
	}
	res := r.fire(append(r.shell, s.Path), payload(c.Payload), append(env, c.Env...), r.d.FireTimeout)
	d := took(res.Dur)
	var wantOut, wantPTY []byte
	if c.State != "" {
		if s.stdoutTransport() {
			wantOut = []byte(scripts.TerminalSequence(ns, c.State))
		} else {
			wantPTY = scripts.OSC(ns, c.State)
		}
	}
	base := fmt.Sprintf("%s with %s", s.Path, c.Why)
	if errors.Is(res.Err, agentexec.ErrScratch) { // not the hook's fault
		r.skip(c.ID, s.Path, fmt.Sprintf("%s was not run: %v", base, res.Err))
		return
	}
	var faults []string
	if res.Err != nil {
		faults = append(faults, res.Err.Error())
	} else if res.Exit != 0 {
		faults = append(faults, fmt.Sprintf("exited %d (a hook must exit 0 on every path)", res.Exit))
	}
	if !bytes.Equal(res.Stdout, wantOut) {
		faults = append(faults, fmt.Sprintf("printed %s on stdout, want %s", show(res.Stdout), show(wantOut)))
	}
	if res.Unread == nil && !bytes.Equal(res.PTY, wantPTY) {
		faults = append(faults, fmt.Sprintf("wrote %s to the pty, want %s", show(res.PTY), show(wantPTY)))
	}
	if len(res.Stderr) > 0 {
		faults = append(faults, fmt.Sprintf("wrote %s on stderr", show(res.Stderr)))
	}
	if len(faults) > 0 {
		hint := r.addHint()
		if c.State == "" {
			hint = "the script must keep its gates; " + hint
		}
		r.add(Check{ID: c.ID, Result: adapters.Fail, File: s.Path, Took: d,
			Verdict: fmt.Sprintf("%s: %s", base, strings.Join(faults, "; ")), Hint: hint})
		return
	}
	if res.Unread != nil {
		r.skip(c.ID, s.Path, fmt.Sprintf("%s: %v, so what it wrote there is not known (run doctor again)", base, res.Unread))
		return
	}
	var got string
	switch {
	case c.State == "":
		got = "stayed silent (nothing on stdout, the pty or stderr; exit 0)"
	case s.stdoutTransport():
		got = fmt.Sprintf("printed %s on stdout (the %s OSC)", show(wantOut), c.State)
	default:
		got = fmt.Sprintf("wrote %s to the pty", show(wantPTY))
	}
	r.add(Check{ID: c.ID, Result: adapters.Pass, File: s.Path, Took: d, Verdict: fmt.Sprintf("%s %s in %s", base, got, ms(d))})
}

func show(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	if len(b) > 200 {
		return strconv.Quote(string(b[:200])) + "..."
	}
	return strconv.Quote(string(b))
}

// A fireResult is what one run of a script did.
type fireResult struct {
	Stdout, Stderr, PTY []byte
	// Unread says why what reached the pty could not be read back: PTY
	// is then not what the hook wrote.
	Unread error
	Exit   int
	Err    error
	Dur    time.Duration
}

var sentinelSeq atomic.Uint64

// A capture is a fresh pty whose slave path a hook is given, and whose
// master collects every byte written to it.
type capture struct {
	Path     string
	ptmx     *os.File
	tty      *os.File
	sentinel []byte
	mu       sync.Mutex
	got      []byte
	seen     chan struct{} // closed when the sentinel arrived, or the pty closed
}

func openCapture() (*capture, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("cannot open a pty: %v", err)
	}
	c := &capture{Path: tty.Name(), ptmx: ptmx, tty: tty, seen: make(chan struct{}),
		sentinel: []byte(fmt.Sprintf("<hookinstall-doctor-end-%d>", sentinelSeq.Add(1)))}
	go func() {
		defer close(c.seen)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			c.mu.Lock()
			c.got = append(c.got, buf[:n]...)
			found := bytes.Contains(c.got, c.sentinel)
			c.mu.Unlock()
			if found || err != nil {
				return
			}
		}
	}()
	return c, nil
}

// read writes the sentinel and returns what arrived on the pty ahead of
// it: all that the hook wrote, once it and whatever it started are gone
// (the kernel keeps a tty's bytes in the order written). err says why it
// was not read back within wait, or before ctx was done.
func (c *capture) read(ctx context.Context, wait time.Duration) ([]byte, error) {
	unread := fmt.Errorf("could not read the pty back within %s", wait)
	_ = c.tty.SetWriteDeadline(time.Now().Add(wait))
	if _, err := c.tty.Write(c.sentinel); err != nil {
		return nil, fmt.Errorf("could not read the pty back (%v)", err)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-c.seen:
	case <-t.C:
		return nil, unread
	case <-ctx.Done():
		return nil, fmt.Errorf("could not read the pty back: stopped (%v)", ctx.Err())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i := bytes.Index(c.got, c.sentinel)
	if i < 0 {
		return nil, unread
	}
	return c.got[:i:i], nil
}

func (c *capture) close() {
	c.tty.Close()
	c.ptmx.Close()
}

// fire runs argv once with stdin and env, plus the variable that names a
// fresh pty, and returns what arrived on stdout, stderr and the pty. The
// pty of the fire before stays open until this one is, so that two fires
// in a row never share a /dev/pts number.
func (r *run) fire(argv []string, stdin []byte, env []string, timeout time.Duration) fireResult {
	c, err := openCapture()
	if err != nil && runtime.GOOS == "windows" {
		return r.exec(argv, stdin, env, timeout) // no pty: Claude Code's hooks answer on stdout
	} else if err != nil {
		return fireResult{Err: err}
	}
	if r.pty != nil {
		r.pty.close()
	}
	r.pty = c
	res := r.exec(argv, stdin, append(env, terminal.PTYVar(r.t.NS)+"="+c.Path), timeout)
	res.PTY, res.Unread = c.read(r.ctx, timeout)
	return res
}

// exec runs argv as an agent runs a hook: in a session of its own, with no
// controlling terminal; whatever it started is killed and gone when it
// returns.
func (r *run) exec(argv []string, stdin []byte, env []string, timeout time.Duration) fireResult {
	var stderr bytes.Buffer
	a := agentexec.Run(r.ctx, r.d.Getenv, agentexec.Cmd{Name: argv[0], Args: argv[1:], Env: env, Input: stdin,
		Stderr: &stderr, Session: true, Timeout: timeout})
	res := fireResult{Stdout: a.Out, Stderr: stderr.Bytes(), Err: a.Err, Dur: a.Dur}
	var ee *exec.ExitError
	if errors.As(a.Err, &ee) {
		res.Exit, res.Err = ee.ExitCode(), nil
	}
	return res
}
