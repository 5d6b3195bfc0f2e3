package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

type doctorOptions struct {
	*globalOptions
	Agents      []string
	NoFire      bool
	NoAsk       bool
	FireTimeout time.Duration
}

func newDoctorCmd(g *globalOptions) *cobra.Command {
	o := &doctorOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "doctor [AGENT...]",
		Short: "Prove what each agent will really run: check configs, scripts and switches, and fire each hook against a pty",
		Long: `doctor checks, per agent, everything that can make an install look fine and do
nothing: the config parses the way the agent parses it, our entries sit at the
exact path in the shape the agent runs, exactly once; each script exists, is
executable, matches the manifest and keeps its gates; kill switches; dead
paths; double firing; trust. It then runs each installed script with a
recorded payload against a pty it opens and compares the bytes that arrive
with the documented OSC. It exits 1 when a check fails. See docs/doctor.md.`,
		Example: `  hookinstall doctor
  hookinstall doctor claude --json`,
		ValidArgsFunction: completeAgents,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Agents = args
			return runDoctor(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.NoFire, "no-fire", false, "do not run the installed scripts")
	cmd.Flags().BoolVar(&o.NoAsk, "no-ask", false, "do not run the agents' own programs")
	cmd.Flags().DurationVar(&o.FireTimeout, "fire-timeout", 5*time.Second, "how long one run of one script may take before it is killed and fails")
	return cmd
}

// jsonDoctor is the one document doctor --json prints (docs/doctor.md).
type jsonDoctor struct {
	Schema    int               `json:"schema"`
	Command   string            `json:"command"`
	Namespace string            `json:"namespace"`
	Home      string            `json:"home"`
	OK        bool              `json:"ok"`
	ExitCode  int               `json:"exit_code"`
	Millis    float64           `json:"ms"`
	Agents    []jsonDoctorAgent `json:"agents"`
}

type jsonDoctorAgent struct {
	Agent     string      `json:"agent"`
	Status    string      `json:"status"`
	OK        bool        `json:"ok"`
	Config    string      `json:"config"`
	HooksDir  string      `json:"hooks_dir"`
	Installed bool        `json:"installed"`
	Detected  bool        `json:"detected"`
	Checks    []jsonCheck `json:"checks"`
}

type jsonCheck struct {
	ID      string   `json:"id"`
	Result  string   `json:"result"`
	File    string   `json:"file,omitempty"`
	Verdict string   `json:"verdict"`
	Hint    string   `json:"hint,omitempty"`
	Millis  *float64 `json:"ms,omitempty"`
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func runDoctor(ctx context.Context, o *doctorOptions) error {
	start := time.Now()
	if o.FireTimeout <= 0 {
		return usageError{fmt.Errorf("--fire-timeout must be positive")}
	}
	in, err := o.installer()
	if err != nil {
		return err
	}
	sel, err := o.everyAgent(in, o.Agents)
	if err != nil {
		return err
	}
	agents := []jsonDoctorAgent{}
	code := exitOK
	// The agents are checked side by side (their checks share nothing), and
	// reported in order: the live fires of the plugin agents each start a
	// JavaScript runtime, which dominates the time of a whole doctor.
	type result struct {
		r   *hookinstall.Report
		err error
	}
	results := make([]result, len(sel.agents))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, name := range sel.agents {
		wg.Add(1)
		go func(i int, name string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := in.Doctor(ctx, name, hookinstall.DoctorOptions{Base: sel.base, NoFire: o.NoFire, NoAsk: o.NoAsk, FireTimeout: o.FireTimeout})
			results[i] = result{r, err}
		}(i, name)
	}
	wg.Wait()
	for _, res := range results {
		r, err := res.r, res.err
		if err != nil {
			return err
		}
		if !r.OK {
			code = exitFail
		}
		a := jsonDoctorAgent{Agent: r.Agent, Status: string(r.Status), OK: r.OK, Config: r.Config, HooksDir: r.HooksDir,
			Installed: r.Installed, Detected: r.Detected, Checks: []jsonCheck{}}
		for _, c := range r.Checks {
			jc := jsonCheck{ID: c.ID, Result: string(c.Result), File: c.File, Verdict: c.Verdict, Hint: c.Hint}
			if c.Took != 0 {
				ms := millis(c.Took)
				jc.Millis = &ms
			}
			a.Checks = append(a.Checks, jc)
		}
		agents = append(agents, a)
	}
	if o.JSON {
		_ = jsonEncoder(o.IO.Out).Encode(jsonDoctor{Schema: jsonSchema, Command: "doctor", Namespace: in.Namespace(), Home: in.Home(),
			OK: code == exitOK, ExitCode: code, Millis: millis(time.Since(start)), Agents: agents})
	} else {
		printDoctor(o, agents)
	}
	if code != exitOK {
		return exitError{code}
	}
	return nil
}

var resultWords = map[string]string{"pass": "ok  ", "fail": "FAIL", "info": "info", "skip": "skip"}

func printDoctor(o *doctorOptions, agents []jsonDoctorAgent) {
	w := o.IO.Out
	failed, checks := 0, 0
	for _, a := range agents {
		fmt.Fprintf(w, "%s: %s (%s)\n", a.Agent, a.Status, a.Config)
		for _, c := range a.Checks {
			checks++
			if c.Result == string(hookinstall.CheckFail) {
				failed++
			}
			fmt.Fprintf(w, "  %s %s %s: %s\n", resultWords[c.Result], a.Agent, c.ID, c.Verdict)
			if c.Hint != "" && c.Result != string(hookinstall.CheckPass) {
				fmt.Fprintf(w, "       hint: %s\n", c.Hint)
			}
		}
	}
	switch {
	case failed > 0:
		fmt.Fprintf(w, "doctor: %d of %d checks failed\n", failed, checks)
	case checks == 0:
		fmt.Fprintln(w, "doctor: nothing of ours is installed here, so there is nothing to check")
	default:
		fmt.Fprintf(w, "doctor: all %d checks passed\n", checks)
	}
}
