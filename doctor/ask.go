package doctor

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
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
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = append([]string{"PATH=" + r.pathEnv(), "HOME=" + r.t.Home, "TERM=dumb", "NO_COLOR=1"}, env...)
	cmd.Dir = r.t.Home
	cmd.WaitDelay = time.Second
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

var claudeVersion = regexp.MustCompile(`Running: .*\(([0-9][^)]*)\)`)

// askClaude runs `claude doctor`, which works offline in Claude Code 2.1.332
// and lists under "Invalid settings" each settings file it could not parse
// and each entry it skipped (an unknown hook event, for one).
func askClaude(r *run) {
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
	ms := float64(res.Dur.Microseconds()) / 1000
	if res.Err != nil {
		r.add(Check{ID: "binary.claude", Result: Info, File: file, Millis: ms,
			Verdict: fmt.Sprintf("'%s doctor' failed: %v", res.Path, res.Err), Hint: "run 'claude doctor' yourself"})
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
		r.add(Check{ID: "binary.claude", Result: Fail, File: file, Millis: ms,
			Verdict: fmt.Sprintf("claude %s doctor says: %s", version, strings.Join(ours, "; ")),
			Hint:    "fix what it names in " + file + ", then run 'hookinstall doctor' again"})
	default:
		r.add(Check{ID: "binary.claude", Result: Pass, File: file, Millis: ms,
			Verdict: fmt.Sprintf("claude %s doctor reports no invalid settings in %s", version, file)})
	}
	if len(others) > 0 {
		r.info("binary.claude.other", "", fmt.Sprintf("claude %s doctor also says: %s", version, strings.Join(others, "; ")), "")
	}
}
