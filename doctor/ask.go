package doctor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// askResult is what one run of an agent's binary printed.
type askResult struct {
	Out  []byte
	Err  error
	Dur  time.Duration
	Path string
}

// runAgent runs an agent's program, found on PATH, with args, env added to
// a fixed minimal environment, no stdin and a timeout. ok is false when the
// program is not on PATH.
func (r *run) runAgent(name string, args []string, env []string) (askResult, bool) {
	path, err := r.d.LookPath(name)
	if err != nil {
		return askResult{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.d.AskTimeout)
	defer cancel()
	cmd := r.agentCmd(ctx, path, args, env)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	res := askResult{Out: out.Bytes(), Dur: time.Since(start), Path: path}
	if ctx.Err() != nil {
		res.Err = fmt.Errorf("did not answer within %s", r.d.AskTimeout)
	} else if err != nil {
		res.Err = err
	}
	return res, true
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
	r.add(Check{ID: id, Result: Info, File: file, Millis: millis(msOf(res.Dur)),
		Verdict: fmt.Sprintf("%s failed: %v", what, res.Err), Hint: hint})
	return true
}

var claudeVersion = regexp.MustCompile(`Running: .*\(([0-9][^)]*)\)`)

// askClaude runs `claude doctor`, which works offline in Claude Code 2.1.332
// and lists under "Invalid settings" each settings file it could not parse
// and each entry it skipped (an unknown hook event, for one).
func askClaude(r *run, _ *jsonMap) {
	res, ok := r.runAgent("claude", []string{"doctor"}, []string{
		"CLAUDE_CONFIG_DIR=" + r.t.Dir,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
	})
	file := r.cfg.Path
	if !ok {
		r.skip("binary.claude", file, "claude is not on PATH, so it was not asked what it resolved")
		return
	}
	ms := msOf(res.Dur)
	if r.askFailed("binary.claude", file, res, "'"+res.Path+" doctor'", "run 'claude doctor' yourself") {
		return
	}
	version := "?"
	if m := claudeVersion.FindSubmatch(res.Out); m != nil {
		version = string(m[1])
	}
	var ours, others []string
	in := false
	for _, line := range strings.Split(string(res.Out), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.TrimSpace(line) == "Invalid settings":
			in = true
		case in && strings.TrimSpace(line) == "":
			in = false
		case in && strings.HasPrefix(line, "- "):
			item := strings.TrimPrefix(line, "- ")
			if strings.HasPrefix(item, file) {
				ours = append(ours, item)
			} else {
				others = append(others, item)
			}
		}
	}
	switch {
	case len(ours) > 0:
		r.add(Check{ID: "binary.claude", Result: Fail, File: file, Millis: millis(ms),
			Verdict: fmt.Sprintf("claude %s doctor says: %s", version, strings.Join(ours, "; ")),
			Hint:    "fix what it names in " + file + ", then run 'hookinstall doctor' again"})
	default:
		r.add(Check{ID: "binary.claude", Result: Pass, File: file, Millis: millis(ms),
			Verdict: fmt.Sprintf("claude %s doctor reports no invalid settings in %s", version, file)})
	}
	if len(others) > 0 {
		r.info("binary.claude.other", "", fmt.Sprintf("claude %s doctor also says: %s", version, strings.Join(others, "; ")), "")
	}
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

// codexHook is one entry of Codex's app-server hooks/list reply.
type codexHook struct {
	Key         string `json:"key"`
	Command     string `json:"command"`
	Enabled     bool   `json:"enabled"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
	SourcePath  string `json:"sourcePath"`
}

// askCodex asks `codex app-server` (JSON-RPC on stdio: initialize,
// initialized, hooks/list) which hooks Codex resolved, with their trust. It
// works offline in Codex 0.171.0 and answers in well under a second.
func askCodex(r *run, _ *jsonMap) {
	file := r.cfg.Path
	path, err := r.d.LookPath("codex")
	if err != nil {
		r.skip("binary.codex", file, "codex is not on PATH, so it was not asked what it resolved")
		return
	}
	lines := []string{
		`{"id":1,"method":"initialize","params":{"clientInfo":{"name":"hookinstall-doctor","version":"0"}}}`,
		`{"method":"initialized"}`,
		fmt.Sprintf(`{"id":2,"method":"hooks/list","params":{"cwds":[%q]}}`, r.t.Home),
	}
	res := r.rpc(path, []string{"app-server"}, []string{"CODEX_HOME=" + r.t.Dir}, lines, 2)
	ms := msOf(res.Dur)
	if r.askFailed("binary.codex", file, res, "'"+path+" app-server' hooks/list", "open codex and look at /hooks yourself") {
		return
	}
	var reply struct {
		Result struct {
			Data []struct {
				Hooks    []codexHook `json:"hooks"`
				Warnings []string    `json:"warnings"`
				Errors   []any       `json:"errors"`
			} `json:"data"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(res.Out, &reply); err != nil || reply.Error != nil || len(reply.Result.Data) == 0 {
		msg := "no answer"
		if reply.Error != nil {
			msg = reply.Error.Message
		} else if err != nil {
			msg = err.Error()
		}
		r.add(Check{ID: "binary.codex", Result: Info, File: file, Millis: millis(ms), Verdict: fmt.Sprintf("codex app-server hooks/list: %s", msg)})
		return
	}
	d := reply.Result.Data[0]
	var problems []string
	for _, w := range d.Warnings {
		problems = append(problems, "warning: "+w)
	}
	for _, e := range d.Errors {
		b, _ := json.Marshal(e)
		problems = append(problems, "error: "+string(b))
	}
	var missing, off, listed []string
	for _, c := range ourCommands(r) {
		var found *codexHook
		for i := range d.Hooks {
			if d.Hooks[i].Command == c {
				found = &d.Hooks[i]
				break
			}
		}
		switch {
		case found == nil:
			missing = append(missing, c)
		case !found.Enabled:
			off = append(off, c)
		default:
			listed = append(listed, fmt.Sprintf("%s (%s)", found.Key, found.TrustStatus))
		}
	}
	if len(missing) > 0 || len(off) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "does not list "+strings.Join(missing, ", "))
		}
		if len(off) > 0 {
			parts = append(parts, "lists as disabled "+strings.Join(off, ", "))
		}
		parts = append(parts, problems...)
		r.add(Check{ID: "binary.codex", Result: Fail, File: file, Millis: millis(ms),
			Verdict: fmt.Sprintf("codex app-server hooks/list %s: Codex will not run them", strings.Join(parts, "; ")),
			Hint:    "fix what it names, then run 'hookinstall doctor codex' again"})
		return
	}
	// Codex's own word on trust against the trust check's.
	for _, c := range ourCommands(r) {
		for _, h := range d.Hooks {
			if h.Command != c {
				continue
			}
			if ours, ok := r.trusted[c]; ok && ours != (h.TrustStatus == "trusted") {
				r.add(Check{ID: "trust.codex-binary", Result: Fail, File: file, Millis: millis(ms),
					Verdict: fmt.Sprintf("codex app-server says %s is %s (current hash %s), but the trust check read the record as %s", h.Key, h.TrustStatus, h.CurrentHash, map[bool]string{true: "trusted", false: "untrusted"}[ours]),
					Hint:    "Codex is right: open codex, type /hooks, and trust the " + r.t.NS + " hooks"})
			}
		}
	}
	verdict := fmt.Sprintf("codex app-server hooks/list resolves every hook of ours: %s", strings.Join(listed, ", "))
	if len(problems) > 0 {
		verdict += "; it also says " + strings.Join(problems, "; ")
	}
	r.add(Check{ID: "binary.codex", Result: Pass, File: file, Millis: millis(ms), Verdict: verdict})
}

// askAntigravity asks `agy -p "/hooks" --output-format json`, which lists
// the command Antigravity resolved per event (seed 003: an empty command
// means a wrong shape). Not run here against a real agy (none can be
// installed on this machine): it checks only that each of our commands
// appears in the answer.
func askAntigravity(r *run, _ *jsonMap) {
	file := r.cfg.Path
	res, ok := r.runAgent("agy", []string{"-p", "/hooks", "--output-format", "json"}, nil)
	if !ok {
		r.skip("binary.antigravity", file, "agy is not on PATH, so it was not asked what it resolved")
		return
	}
	ms := msOf(res.Dur)
	if r.askFailed("binary.antigravity", file, res, "'"+res.Path+" -p /hooks'", "run 'agy -p /hooks' yourself and look for an empty command") {
		return
	}
	var missing []string
	for _, c := range ourCommands(r) {
		q, _ := json.Marshal(c)
		if !bytes.Contains(res.Out, q) && !bytes.Contains(res.Out, []byte(c)) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		r.add(Check{ID: "binary.antigravity", Result: Fail, File: file, Millis: millis(ms),
			Verdict: fmt.Sprintf("agy -p /hooks does not show %s: Antigravity resolved no such command (a wrapped handler registers with an empty command)", strings.Join(missing, ", ")),
			Hint:    "run 'hookinstall add antigravity --force'"})
		return
	}
	r.add(Check{ID: "binary.antigravity", Result: Pass, File: file, Millis: millis(ms),
		Verdict: "agy -p /hooks shows every command of ours"})
}

// rpc runs a JSON-RPC server on stdio: it writes lines one by one, and
// returns the raw reply whose id is want, within the ask timeout.
func (r *run) rpc(path string, args, env, lines []string, want int) askResult {
	ctx, cancel := context.WithTimeout(context.Background(), r.d.AskTimeout)
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
