package doctor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
)

// askResult is what one run of an agent's binary printed.
type askResult struct {
	Out  []byte
	Err  error
	Dur  time.Duration
	Path string
}

// runAgent runs an agent's program at path with args, env added to a fixed
// minimal environment, no stdin and a timeout.
func (r *run) runAgent(path string, args []string, env []string) askResult {
	ctx, cancel := context.WithTimeout(r.ctx, r.d.AskTimeout)
	defer cancel()
	cmd := r.agentCmd(ctx, path, args, env)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	res := askResult{Out: out.Bytes(), Dur: time.Since(start), Path: path}
	if r.ctx.Err() != nil {
		res.Err = fmt.Errorf("stopped: %v", r.ctx.Err())
	} else if ctx.Err() != nil {
		res.Err = fmt.Errorf("did not answer within %s", r.d.AskTimeout)
	} else if err != nil {
		res.Err = err
	}
	return res
}

// agentCmd runs an agent's program in its own process group (killed whole at
// the timeout), from the home, with a fixed minimal environment plus env.
func (r *run) agentCmd(ctx context.Context, path string, args, env []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = append([]string{"PATH=" + r.pathEnv(), "HOME=" + r.t.Home, "TERM=dumb", "NO_COLOR=1"}, env...)
	cmd.Dir = r.t.Home
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd
}

// askFailed reports, as information, an agent program that could not answer
// (what says what was run), and whether it failed.
func (r *run) askFailed(id, file string, res askResult, what, hint string) bool {
	if res.Err == nil {
		return false
	}
	r.add(Check{ID: id, Result: Info, File: file, Took: took(res.Dur),
		Verdict: fmt.Sprintf("%s failed: %v", what, res.Err), Hint: hint})
	return true
}

// ourCommands lists, per event, the command of ours that the agent should
// have resolved.
func ourCommands(r *run) []string {
	ss, err := r.t.Adapter.Scripts(r.t)
	if err != nil {
		return nil
	}
	var cs []string
	for _, s := range ss {
		cs = append(cs, r.t.ScriptPath(s.Name))
	}
	return cs
}

// ask runs the agent's program, where its facts say how and it is on PATH,
// and records what the facts make of the answer.
func (r *run) ask(a *adapters.Ask) {
	if a == nil {
		return
	}
	file := r.cfg.Path
	path, err := r.d.LookPath(a.Program)
	if err != nil {
		r.skip(a.ID, file, a.Program+" is not on PATH, so it was not asked what it resolved")
		return
	}
	var env []string
	if a.Env != nil {
		env = a.Env(r.t)
	}
	var res askResult
	if a.RPC != nil {
		res = r.rpc(path, a.Args, env, a.RPC(r.t), a.ReplyID)
	} else {
		res = r.runAgent(path, a.Args, env)
		var exit *exec.ExitError
		if a.AnyExit && errors.As(res.Err, &exit) {
			res.Err = nil // the status is part of the answer; Read judges the output
		}
	}
	if r.askFailed(a.ID, file, res, fmt.Sprintf(a.What, path), a.Hint) {
		return
	}
	d := took(res.Dur)
	for _, f := range a.Read(adapters.AskInput{T: r.t, Config: file, Out: res.Out, Ours: ourCommands(r), Trusted: r.trusted}) {
		c := checkOf(f)
		if f.Timed {
			c.Took = d
		}
		r.add(c)
	}
}

// rpc runs a JSON-RPC server on stdio: it writes lines one by one, and
// returns the raw reply whose id is want, within the ask timeout.
func (r *run) rpc(path string, args, env, lines []string, want int) askResult {
	ctx, cancel := context.WithTimeout(r.ctx, r.d.AskTimeout)
	defer cancel()
	cmd := r.agentCmd(ctx, path, args, env)
	res := askResult{Path: path}
	in, err := cmd.StdinPipe()
	if err != nil {
		res.Err = err
		return res
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		res.Err = err
		return res
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.Err = err
		return res
	}
	defer func() {
		in.Close()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	replies := make(chan []byte)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 16<<20)
		for sc.Scan() {
			select {
			case replies <- append([]byte(nil), sc.Bytes()...):
			case <-ctx.Done():
				return
			}
		}
		close(replies)
	}()
	for _, l := range lines {
		if _, err := io.WriteString(in, l+"\n"); err != nil {
			res.Err = err
			return res
		}
	}
	for {
		select {
		case b, ok := <-replies:
			if !ok {
				res.Err = fmt.Errorf("it exited without answering")
				res.Dur = time.Since(start)
				return res
			}
			var m struct {
				ID *int `json:"id"`
			}
			if json.Unmarshal(b, &m) == nil && m.ID != nil && *m.ID == want {
				res.Out, res.Dur = b, time.Since(start)
				return res
			}
		case <-ctx.Done():
			res.Err = fmt.Errorf("did not answer within %s", r.d.AskTimeout)
			res.Dur = time.Since(start)
			return res
		}
	}
}
