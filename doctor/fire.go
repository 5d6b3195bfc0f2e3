package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/hookinstall/hookinstall/adapters"
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
	if contains(f.Reconstructed, s.Event) {
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
	for _, s := range infos {
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
	env := []string{"PATH=" + r.pathEnv(), "HOME=" + r.t.Home}
	if c.Task {
		env = append(env, terminal.TaskVar(ns)+"=hookinstall-doctor")
	}
	env = append(env, c.Env...)
	res := r.d.fire(r.ctx, []string{s.Path}, payload(c.Payload), env, terminal.PTYVar(ns), r.d.FireTimeout)
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
	var faults []string
	if res.Err != nil {
		faults = append(faults, res.Err.Error())
	} else if res.Exit != 0 {
		faults = append(faults, fmt.Sprintf("exited %d (a hook must exit 0 on every path)", res.Exit))
	}
	if !bytes.Equal(res.Stdout, wantOut) {
		faults = append(faults, fmt.Sprintf("printed %s on stdout, want %s", show(res.Stdout), show(wantOut)))
	}
	if !bytes.Equal(res.PTY, wantPTY) {
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
			Verdict: fmt.Sprintf("%s: %s", base, joinFaults(faults)), Hint: hint})
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

func joinFaults(fs []string) string {
	var b bytes.Buffer
	for i, f := range fs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f)
	}
	return b.String()
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

func (r *run) pathEnv() string {
	if p := r.d.Getenv("PATH"); p != "" {
		return p
	}
	return "/usr/bin:/bin"
}

// A fireResult is what one run of a script did.
type fireResult struct {
	Stdout, Stderr, PTY []byte
	Exit                int
	Err                 error
	Dur                 time.Duration
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
	seen     chan struct{}
}

func openCapture() (*capture, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("cannot open a pty: %v", err)
	}
	c := &capture{Path: tty.Name(), ptmx: ptmx, tty: tty, seen: make(chan struct{}),
		sentinel: []byte(fmt.Sprintf("<hookinstall-doctor-end-%d>", sentinelSeq.Add(1)))}
	go func() {
		buf := make([]byte, 4096)
		closed := false
		for {
			n, err := ptmx.Read(buf)
			c.mu.Lock()
			c.got = append(c.got, buf[:n]...)
			if !closed && bytes.Contains(c.got, c.sentinel) {
				close(c.seen)
				closed = true
			}
			c.mu.Unlock()
			if err != nil {
				if !closed {
					close(c.seen)
				}
				return
			}
		}
	}()
	return c, nil
}

// finish returns what arrived on the pty and closes it. Everything a hook
// wrote is ahead of the sentinel that finish writes itself.
func (c *capture) finish() []byte {
	defer c.ptmx.Close()
	defer c.tty.Close()
	if _, err := c.tty.Write(c.sentinel); err == nil {
		select {
		case <-c.seen:
		case <-time.After(2 * time.Second):
		}
	}
	c.mu.Lock()
	out := append([]byte(nil), c.got...)
	c.mu.Unlock()
	if i := bytes.Index(out, c.sentinel); i >= 0 {
		out = out[:i]
	}
	return out
}

// fire runs argv once with payload on stdin and env (plus ptyVar naming a
// fresh pty slave), in a new session with no controlling terminal, as agents
// run hooks. It returns what arrived on stdout, stderr and the pty.
func (d *Doctor) fire(ctx context.Context, argv []string, payload []byte, env []string, ptyVar string, timeout time.Duration) fireResult {
	c, err := openCapture()
	if err != nil {
		return fireResult{Err: err}
	}
	res := run1(ctx, argv, payload, append(env, ptyVar+"="+c.Path), timeout)
	res.PTY = c.finish()
	return res
}

// run1 runs argv in its own session, killing the whole session at the
// timeout or when parent is cancelled.
func run1(parent context.Context, argv []string, stdin []byte, env []string, timeout time.Duration) fireResult {
	var res fireResult
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// The hook leads its own session: kill everything it started.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// After the hook exits (or is killed), its output pipes get this long
	// to drain; only a hook that leaves a child holding its output waits
	// it out. (200 ms was reported too short on a loaded machine: "WaitDelay
	// expired before I/O complete".)
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err := cmd.Run()
	res.Dur = time.Since(start)
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	var ee *exec.ExitError
	switch {
	case parent.Err() != nil:
		res.Err = fmt.Errorf("stopped: %v", parent.Err())
	case ctx.Err() != nil:
		res.Err = fmt.Errorf("did not finish within %s (killed)", timeout)
	case errors.As(err, &ee):
		res.Exit = ee.ExitCode()
	case err != nil:
		res.Err = fmt.Errorf("cannot run it: %v", err)
	}
	return res
}
