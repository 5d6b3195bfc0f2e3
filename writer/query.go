package writer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
)

// queryTimeout bounds one Query: Codex's app-server answers hooks/list in
// about a second (docs/codex-trust.md).
const queryTimeout = 30 * time.Second

// query asks an agent's binary q's question (see adapters.Query): found on
// Getenv's PATH, run in its own process group with a minimal environment,
// for at most queryTimeout. Nothing of it is a seam: callers and tests
// choose the binary only through PATH.
func (w *Writer) query(ctx context.Context, q *adapters.Query) *adapters.Reply {
	r := &adapters.Reply{}
	path, err := w.lookPath(q.Argv[0])
	if err != nil {
		r.Err = fmt.Errorf("%s: %w", q.Argv[0], err)
		return r
	}
	dir := q.Dir
	scratch := ""
	if q.Files != nil {
		tmp, err := os.MkdirTemp("", "hookinstall-query-")
		if err != nil {
			r.Err = err
			return r
		}
		defer os.RemoveAll(tmp)
		if scratch, err = filepath.EvalSymlinks(tmp); err != nil {
			r.Err = err
			return r
		}
		for name, data := range q.Files {
			if err := os.WriteFile(filepath.Join(scratch, name), data, 0o600); err != nil {
				r.Err = err
				return r
			}
		}
		dir, r.Scratch = scratch, scratch
	}
	ctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, q.Argv[1:]...)
	cmd.Env = []string{"PATH=" + w.o.Getenv("PATH"), "TERM=dumb", "NO_COLOR=1"}
	for _, kv := range q.Env {
		cmd.Env = append(cmd.Env, strings.ReplaceAll(kv, "$SCRATCH", scratch))
	}
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		r.Err = err
		return r
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		r.Err = err
		return r
	}
	if err := cmd.Start(); err != nil {
		r.Err = err
		return r
	}
	lines, stop := make(chan []byte), make(chan struct{})
	go func() {
		defer close(lines)
		br := bufio.NewReader(out)
		for {
			l, err := br.ReadBytes('\n')
			if len(l) > 0 {
				select {
				case lines <- l:
				case <-stop:
					_, _ = io.Copy(io.Discard, br) // until it exits
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { _, _ = in.Write(q.Input) }()
	var got []byte
	done, silent := false, false
	for !done {
		select {
		case l, ok := <-lines:
			if !ok {
				silent, done = true, true // the error once Wait has its stderr
				break
			}
			got = append(got, l...)
			done = q.Done(got)
		case <-ctx.Done():
			r.Err = fmt.Errorf("%s did not answer within %v", path, queryTimeout)
			if errors.Is(ctx.Err(), context.Canceled) {
				r.Err = ctx.Err()
			}
			done = true
		}
	}
	close(stop)
	in.Close()
	// A server that answered exits at the end of its input; one that
	// does not is stopped, with whatever it started.
	exited := make(chan struct{})
	go func() {
		select {
		case <-exited:
		case <-time.After(2 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	for range lines { // the reader ends at the output's end
	}
	_ = cmd.Wait()
	close(exited)
	if silent {
		// Read only now: exec copies stderr until Wait returns.
		r.Err = fmt.Errorf("%s exited without answering%s", path, stderrTail(stderr.Bytes()))
	}
	r.Out = got
	return r
}

// stderrTail is the last line the binary printed on stderr, for an error.
func stderrTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return " (" + s + ")"
}
