package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

type doctorOptions struct {
	*globalOptions
	Agents      []string
	NoFire      bool
	Ask         bool
	NoAsk       bool // the default; kept so old command lines still work
	Verbose     bool
	FireTimeout time.Duration
}

func newDoctorCmd(g *globalOptions) *cobra.Command {
	o := &doctorOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "doctor [AGENT...]",
		Short: "Prove what each agent will really run, and fire each hook against a pty",
		Long: `doctor checks, per agent, everything that can make an install look fine and do
nothing: the config parses the way the agent parses it, our entries sit at the
exact path in the shape the agent runs, exactly once; each script exists, is
executable, matches the manifest and keeps its gates; kill switches; dead
paths; double firing; trust. It then runs each installed script with a
recorded payload against a pty it opens and compares the bytes that arrive
with the documented OSC. It exits 1 when a check fails.

It prints a summary first, one line per agent with a mark (✓ works, ✗ has a
failed check, ! works with something to know, – nothing installed), then only
what failed or needs attention, each with its hint; -v prints every check.
With --ask it also asks each agent's own program what it resolved (claude
doctor, codex app-server, agy -p /hooks): off by default, since those programs
write files of their own into your home. Check ids and the JSON document:
docs/doctor.md in the source, or 'hookinstall doctor --json'.`,
		Example: `  hookinstall doctor
  hookinstall doctor claude -v
  hookinstall doctor --ask
  hookinstall doctor claude --json`,
		ValidArgsFunction: completeAgents,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Agents = args
			return runDoctor(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.NoFire, "no-fire", false, "do not run the installed scripts")
	cmd.Flags().BoolVar(&o.Ask, "ask", false, "also ask each agent's own program what it resolved (each bounded in time; they may write files of their own into your home)")
	cmd.Flags().BoolVar(&o.NoAsk, "no-ask", false, "do not run the agents' own programs (the default)")
	_ = cmd.Flags().MarkHidden("no-ask")
	cmd.Flags().BoolVarP(&o.Verbose, "verbose", "v", false, "print every check, not only what failed or needs attention")
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

// jsonDoctorAgent is one agent's Report, with the shell doctor runs in.
type jsonDoctorAgent struct {
	*hookinstall.Report
	// Shell says, for an installed agent, what its hooks send when it is
	// started from the shell doctor runs in.
	Shell *jsonShell `json:"shell,omitempty"`
}

// jsonShell is whether the shell doctor runs in is set up for the hooks,
// and by what: "host" (a terminal host's task id), "init" (hookinstall
// init or run: the terminal's own language) or "none" (the hooks stay
// silent); Sends says what the agent's hooks send from it.
type jsonShell struct {
	SetUp    string `json:"set_up"`
	Terminal string `json:"terminal,omitempty"` // with init: "osc777", "tmux+osc9"
	Sends    string `json:"sends"`
	Hint     string `json:"hint,omitempty"`
	Failed   bool   `json:"failed,omitempty"` // nothing the hooks send can reach the terminal
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
	if o.Ask && o.NoAsk {
		return usageError{fmt.Errorf("--ask and --no-ask contradict each other")}
	}
	if o.Ask && !o.JSON {
		// Asking a program can take seconds: say so before waiting.
		fmt.Fprintln(o.IO.Err, "hookinstall: asking each agent's own program what it resolved, where it is on PATH (each run is bounded in time) ...")
	}
	agents := []jsonDoctorAgent{}
	code := exitOK
	// The agents are checked side by side (their checks share nothing), and
	// reported in order: the live fires of the plugin agents each start a
	// JavaScript runtime, which dominates the time of a whole doctor.
	reports, errs := make([]*hookinstall.Report, len(sel.agents)), make([]error, len(sel.agents))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, name := range sel.agents {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			reports[i], errs[i] = in.Doctor(ctx, name, hookinstall.DoctorOptions{Base: sel.base, NoFire: o.NoFire, NoAsk: !o.Ask, FireTimeout: o.FireTimeout})
		})
	}
	wg.Wait()
	for i, r := range reports {
		if errs[i] != nil {
			return errs[i]
		}
		if !r.OK {
			code = exitFail
		}
		a := jsonDoctorAgent{Report: r}
		if r.Installed {
			sh := o.shellReport(in, r.Agent)
			a.Shell = &sh
			if sh.Failed {
				code = exitFail
			}
		}
		agents = append(agents, a)
	}
	if o.JSON {
		_ = jsonEncoder(o.IO.Out).Encode(jsonDoctor{Schema: jsonSchema, Command: "doctor", Namespace: in.Namespace(), Home: in.Home(),
			OK: code == exitOK, ExitCode: code, Millis: millis(time.Since(start)), Agents: agents})
	} else {
		printDoctor(o, in, agents)
	}
	if code != exitOK {
		return exitError{code}
	}
	return nil
}

var resultWords = map[hookinstall.CheckResult]string{hookinstall.CheckPass: "ok  ", hookinstall.CheckFail: "FAIL", hookinstall.CheckInfo: "info", hookinstall.CheckSkip: "skip"}

// Marks, one per agent line: works, a check failed, works with something
// to know, nothing of ours installed.
const (
	markOK   = "✓"
	markFail = "✗"
	markInfo = "!"
	markNone = "–"
)

var markColors = map[string]string{markOK: "\033[32m", markFail: "\033[31m", markInfo: "\033[33m", markNone: "\033[2m"}

// useColor reports whether doctor's marks are coloured: only on a terminal,
// and never with NO_COLOR set (https://no-color.org).
func (g *globalOptions) useColor() bool {
	if g.Getenv("NO_COLOR") != "" {
		return false
	}
	return onTerminal(g.IO.Out) && g.Getenv("TERM") != "dumb"
}

// onTerminal reports whether w is a terminal (a character device).
func onTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func agentMark(a jsonDoctorAgent) string {
	switch {
	case !a.OK:
		return markFail
	case !a.Installed:
		return markNone
	case slices.ContainsFunc(a.Checks, func(c hookinstall.Check) bool { return c.Result == hookinstall.CheckInfo }):
		return markInfo
	}
	return markOK
}

// printDoctor prints the summary first, one line per agent with a mark,
// then only the checks that failed or carry information (every check with
// -v), each with its hint.
func printDoctor(o *doctorOptions, in *hookinstall.Installer, agents []jsonDoctorAgent) {
	w := o.IO.Out
	color := o.useColor()
	// Notes (info) are findings, not checks that passed or failed: the
	// summary counts them apart, so that its numbers and the footer's agree.
	failed, checks, notes, installed, skipped := 0, 0, 0, 0, 0
	for _, a := range agents {
		if a.Installed {
			installed++
		}
		for _, c := range a.Checks {
			switch c.Result {
			case hookinstall.CheckInfo:
				notes++
				continue
			case hookinstall.CheckFail:
				failed++
			case hookinstall.CheckSkip:
				skipped++
			}
			checks++
		}
	}
	noteWord := "notes"
	if notes == 1 {
		noteWord = "note"
	}
	// What the hooks send from this shell: one check and one line (the same
	// for every agent but its name), the first installed agent's, counted
	// where it failed.
	var sh *jsonShell
	if i := slices.IndexFunc(agents, func(a jsonDoctorAgent) bool { return a.Shell != nil }); i >= 0 {
		sh = agents[i].Shell
	}
	shell := "shell: "
	if sh != nil && sh.Failed {
		shell, failed, checks = "shell: FAIL: ", failed+1, checks+1
	}
	switch {
	case failed > 0:
		fmt.Fprintf(w, "doctor: %d of %d checks failed\n", failed, checks)
	case skipped > 0: // not "all passed": some were not run
		fmt.Fprintf(w, "doctor: %d of %d checks passed; %d could not be checked\n", checks-skipped, checks, skipped)
	case installed == 0:
		printWrapped(w, "doctor: ", hintIndent, "nothing of hookinstall's is installed here, so no hook can fire; install with '"+in.Command("add AGENT")+"' or '"+in.Command("add --all")+"'")
	case notes > 0 && !o.Verbose:
		fmt.Fprintf(w, "doctor: all %d checks passed; %d %s below\n", checks, notes, noteWord)
	default:
		fmt.Fprintf(w, "doctor: all %d checks passed\n", checks)
	}
	if sh != nil {
		printWrapped(w, shell, hintIndent, sh.Sends)
		if sh.Hint != "" {
			printWrapped(w, "       hint: ", hintIndent, sh.Hint)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, a := range agents {
		// An agent not on this machine, with nothing of ours, is a line
		// only with -v or when named.
		if !o.Verbose && len(o.Agents) == 0 && !a.Installed && !a.Detected && a.OK {
			continue
		}
		m := agentMark(a)
		if color {
			m = markColors[m] + m + "\033[0m"
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\n", m, a.Agent, a.Status, a.Config)
	}
	tw.Flush()
	hidden, skipped := 0, 0
	for _, a := range agents {
		var lines []hookinstall.Check
		more := map[int]int{} // by index in lines: the checks it stands for besides itself
		for _, c := range a.Checks {
			switch {
			case o.Verbose:
				lines = append(lines, c)
			case c.Result == hookinstall.CheckFail || c.Result == hookinstall.CheckInfo:
				// One entry per problem: checks of the same id, result
				// and fix (one per script of an untrusted install) are one.
				if i := sameProblem(lines, c); i >= 0 {
					more[i]++
					continue
				}
				lines = append(lines, c)
			case c.Result == hookinstall.CheckSkip:
				skipped++
			default:
				hidden++
			}
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s: %s (%s)\n", a.Agent, a.Status, a.Config)
		lastHint := ""
		for i, c := range lines {
			word := resultWords[c.Result]
			if color && c.Result == hookinstall.CheckFail {
				word = markColors[markFail] + word + "\033[0m"
			}
			id := c.ID
			if n := more[i]; n > 0 {
				// in the prefix, which is never broken
				id += fmt.Sprintf(" (and %d more like it; -v shows each)", n)
			}
			printWrapped(w, fmt.Sprintf("  %s %s %s: ", word, a.Agent, id), hintIndent, c.Verdict)
			// One hint once: three untrusted hooks share one fix.
			if c.Hint != "" && c.Result != hookinstall.CheckPass && (o.Verbose || c.Hint != lastHint) {
				printWrapped(w, "       hint: ", hintIndent, c.Hint)
				lastHint = c.Hint
			}
		}
		if o.Verbose && a.Shell != nil {
			// what this agent's hooks send from this shell (its own name
			// in the notification)
			printWrapped(w, "  note "+a.Agent+" shell: ", hintIndent, a.Shell.Sends)
		}
	}
	if hidden+skipped > 0 && (installed > 0 || failed > 0) {
		var also string
		if skipped > 0 {
			also = fmt.Sprintf(" (%d more could not be checked)", skipped)
		}
		printWrapped(w, "doctor: ", hintIndent, fmt.Sprintf("%d checks passed and are not shown%s; run '%s' to see every check", hidden, also, in.Command("doctor -v")))
	}
}

// sameProblem is the index in lines of a check that reports the same
// problem as c (same id, result and hint), or -1.
func sameProblem(lines []hookinstall.Check, c hookinstall.Check) int {
	for i, l := range lines {
		if l.ID == c.ID && l.Result == c.Result && l.Hint == c.Hint {
			return i
		}
	}
	return -1
}

// shellReport says, for one installed agent, whether the shell doctor runs
// in is set up (by a terminal host, or by hookinstall init) and what the
// agent's hooks will send from it.
func (o *doctorOptions) shellReport(in *hookinstall.Installer, agent string) jsonShell {
	ns := in.Namespace()
	task, pty := terminal.TaskVar(ns), terminal.PTYVar(ns)
	id, path := o.Getenv(task), o.Getenv(pty)
	t, ours := terminal.FromTask(id)
	product, own, agentID := agent, (*terminal.Own)(nil), agent
	if a, err := in.Agent(agent); err == nil && a.Product != "" {
		ad, _ := adapters.Lookup(cmp.Or(a.Base, a.Name))
		product, own, agentID = a.Product, ad.ShowsItself, ad.ID
	}
	switch {
	case id == "":
		return jsonShell{SetUp: "none", Sends: fmt.Sprintf("not set up: %s is unset, so the hooks of an agent started from this shell stay silent", task),
			Hint: "in your own terminal, add 'eval \"$(" + nsCommand(ns, "init bash") + ")\"' to ~/.bashrc (zsh, fish: 'hookinstall init --help') and open a new shell; a terminal host sets the variables itself"}
	case !ours:
		return jsonShell{SetUp: "host", Sends: fmt.Sprintf("set up by a terminal host (%s=%s): the hooks send it the host protocol on %s, ESC ] 777 ; notify ; %s ; BODY BEL", task, id, path, ns)}
	}
	wd, _ := os.Getwd()
	sh := jsonShell{SetUp: "init", Terminal: t.String(),
		Sends: fmt.Sprintf("set up by hookinstall init (%s=%s): the hooks send this terminal (%s) tab progress (OSC 9;4) and %s", task, id, path, terminal.Shows(t.Dialect, product+" needs your input \u00b7 "+terminal.SafeFolder(wd)))}
	tm, getenv := inTmux(o.Getenv)
	if t.Zellij {
		sh.Sends += fmt.Sprintf("; inside %s, which takes any OSC 9 (9;4 too) for a notification and drops OSC 7501: no tab progress nor state, ", cmp.Or(getenv(terminal.ZellijVersion), "Zellij"))
		if t.Dialect == terminal.Bell {
			sh.Sends += "and, as it passes on no notification (before 0.45.0), the bell alone, which marks its tab"
		} else {
			sh.Sends += "the notification, which it passes on to your terminal (as OSC 9 or 99), and a bell that marks its tab"
		}
	}
	if t.Tmux {
		sh.Sends += ", wrapped for tmux's passthrough"
		if says, fix := tm.words(); says != "" {
			sh.Failed, sh.Sends, sh.Hint = tm.drops(), sh.Sends+"; but "+says, fix
		}
	} else if term := o.Getenv("TERM"); strings.HasPrefix(term, "screen") && o.Getenv("STY") == "" {
		// ssh from inside a tmux whose default-terminal is screen*: TERM
		// cannot tell it from GNU screen's
		sh.Hint = fmt.Sprintf("TERM=%s and no $STY: if you reached this shell by ssh from inside tmux, set %s=tmux+%s before the init line", term, terminal.Var(ns), t.Dialect)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		sh.Sends += fmt.Sprintf("; but %s is not a terminal here, so they would write nothing", path)
		sh.Hint = "open a new shell: init sets " + pty + " to the shell's own tty"
	}
	if _, fixed, err := in.PrepareSessions(); err != nil {
		sh.Sends += "; but they keep no record for 'hookinstall ls' here: " + err.Error()
	} else if fixed != "" {
		sh.Sends += "; " + fixed
	}
	// what the agent shows by itself here, which its hooks leave out
	var when []string
	if own.NotifiesIn(t, hookinstall.Attention) {
		when = append(when, "needs you")
	}
	if own.NotifiesIn(t, hookinstall.Done) {
		when = append(when, "is done")
	}
	switch {
	case len(when) > 0 && t.Tmux && tm.drops():
		sh.Sends += "; " + product + "'s own notification, which its hooks leave out here, is dropped by tmux as well"
	case len(when) > 0:
		sh.Sends += "; " + product + " notifies you itself when it " + strings.Join(when, " and when it ") + " here, so its hooks leave that notification out"
	}
	if hs := (terminal.Agent{ID: agentID, Own: own}).Holds(t); len(hs) > 0 {
		sh.Sends += "; they hold its state in the tab as " + says(hs)
	}
	if hs := own.HoldsIn(t); len(hs) > 0 {
		sh.Sends += "; " + product + " sends " + says(hs) + " itself, so its hooks leave that out"
	}
	if own.Draws(o.Getenv) {
		sh.Sends += "; it draws its own tab progress in this terminal, so its hooks leave theirs out"
	}
	return sh
}

// says is hs in doctor's words, joined by "and".
func says(hs []terminal.Status) string {
	var ws []string
	for _, h := range hs {
		ws = append(ws, h.Says())
	}
	return strings.Join(ws, " and ")
}
