package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/doctor"
)

type doctorOptions struct {
	*globalOptions
	Agents      []string
	NoFire      bool
	NoAsk       bool
	FireTimeout time.Duration
}

func newDoctorCmd(g *globalOptions, runF func(*doctorOptions) error) *cobra.Command {
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
		RunE: func(_ *cobra.Command, args []string) error {
			o.Agents = args
			if runF != nil {
				return runF(o)
			}
			return runDoctor(o)
		},
	}
	cmd.Flags().BoolVar(&o.NoFire, "no-fire", false, "do not run the installed scripts")
	cmd.Flags().BoolVar(&o.NoAsk, "no-ask", false, "do not run the agents' own programs")
	cmd.Flags().DurationVar(&o.FireTimeout, "fire-timeout", 5*time.Second, "how long one run of one script may take before it is killed and fails")
	return cmd
}

// jsonDoctor is the one document doctor --json prints (docs/doctor.md).
type jsonDoctor struct {
	Schema    int            `json:"schema"`
	Command   string         `json:"command"`
	Namespace string         `json:"namespace"`
	Home      string         `json:"home"`
	OK        bool           `json:"ok"`
	ExitCode  int            `json:"exit_code"`
	Millis    float64        `json:"ms"`
	Agents    []doctor.Agent `json:"agents"`
}

// checkTargets are the targets doctor and status check. With --home they
// read no system files: the home may be a Docker target's, whose /etc is
// not ours to read.
func (g *globalOptions) checkTargets(names []string) ([]adapters.Target, error) {
	ts, err := g.targets(names, len(names) == 0 && g.AgentID == "", nil)
	if g.Home != "" {
		for i := range ts {
			ts[i].SystemRoot = ""
		}
	}
	return ts, err
}

// newDoctor builds the checker for a run; status uses it without firing.
func (g *globalOptions) newDoctor(fire, ask bool, fireTimeout time.Duration) *doctor.Doctor {
	o := doctor.Options{Getenv: g.Getenv, LookPath: lookPath(g.Getenv), Fire: fire, Ask: ask, FireTimeout: fireTimeout}
	if g.Home == "" {
		if wd, err := os.Getwd(); err == nil {
			o.Cwd = wd
		}
	}
	return doctor.New(o)
}

func runDoctor(o *doctorOptions) error {
	start := time.Now()
	if o.FireTimeout <= 0 {
		return usageError{fmt.Errorf("--fire-timeout must be positive")}
	}
	d := o.newDoctor(!o.NoFire, !o.NoAsk, o.FireTimeout)
	ts, err := o.checkTargets(o.Agents)
	if err != nil {
		return err
	}
	agents := []doctor.Agent{}
	code := exitOK
	for _, t := range ts {
		a := d.Agent(t)
		if !a.OK {
			code = exitFail
		}
		agents = append(agents, a)
	}
	if o.JSON {
		ao, _ := o.adapterOptions()
		doc := jsonDoctor{Schema: jsonSchema, Command: "doctor", Namespace: ao.NS, Home: ao.Home, OK: code == exitOK,
			ExitCode: code, Millis: float64(time.Since(start).Microseconds()) / 1000, Agents: agents}
		enc := json.NewEncoder(o.IO.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(doc)
	} else {
		printDoctor(o, ts, agents)
	}
	if code != exitOK {
		return exitError{code}
	}
	return nil
}

var resultWords = map[doctor.Result]string{doctor.Pass: "ok  ", doctor.Fail: "FAIL", doctor.Info: "info", doctor.Skip: "skip"}

func printDoctor(o *doctorOptions, ts []adapters.Target, agents []doctor.Agent) {
	w := o.IO.Out
	failed, checks := 0, 0
	for _, a := range agents {
		fmt.Fprintf(w, "%s: %s (%s)\n", a.Agent, a.Status, a.Config)
		for _, c := range a.Checks {
			checks++
			if c.Result == doctor.Fail {
				failed++
			}
			fmt.Fprintf(w, "  %s %s %s: %s\n", resultWords[c.Result], a.Agent, c.ID, c.Verdict)
			if c.Hint != "" && c.Result != doctor.Pass {
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
