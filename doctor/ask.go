package doctor

import (
	"errors"
	"fmt"
	"os/exec"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
)

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
	// The user's HOME, run from it: the question is what the agent
	// resolves from their config.
	c := agentexec.Cmd{Name: a.Program, Args: a.Args, Env: []string{"HOME=" + r.t.Home}, Dir: r.t.Home,
		Input: a.Input, ReplyID: a.ReplyID, Timeout: r.d.AskTimeout}
	if a.Env != nil {
		c.Env = append(c.Env, a.Env(r.t)...)
	}
	res := agentexec.Run(r.ctx, r.d.Getenv, c)
	if res.Path == "" {
		r.skip(a.ID, file, a.Program+" is not on PATH, so it was not asked what it resolved")
		return
	}
	var exit *exec.ExitError
	if a.AnyExit && errors.As(res.Err, &exit) {
		res.Err = nil // the status is part of the answer; Read judges the output
	}
	d := took(res.Dur)
	if res.Err != nil { // information: the agent's own word is missing
		r.add(Check{ID: a.ID, Result: adapters.Info, File: file, Took: d, Hint: a.Hint,
			Verdict: fmt.Sprintf(a.What+" failed: %v", res.Path, res.Err)})
		return
	}
	for _, f := range a.Read(adapters.AskInput{T: r.t, Config: file, Out: res.Out, Ours: ourCommands(r), Trusted: r.trusted}) {
		if f.Timed {
			f.Took = d
		}
		r.add(f)
	}
}
