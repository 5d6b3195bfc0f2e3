package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

type emitOptions struct {
	*globalOptions
	State    string
	Tmux     bool
	Terminal string // "" for the host protocol, "auto" or a terminal
	Agent    string // whose product name the notification says
	dropped  bool   // tmux drops what it writes (allow-passthrough off)
}

func stateNames() []string {
	var names []string
	for _, s := range hookinstall.States() {
		names = append(names, string(s))
	}
	return names
}

func newEmitCmd(g *globalOptions) *cobra.Command {
	o := &emitOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "emit STATE",
		Short: "Write one state's exact OSC to stdout, to watch a host react",
		Long: `emit writes the exact bytes a hook sends for one state (working, attention,
done or interrupted) to stdout, with no newline: ESC ] 777 ; notify ; NS ; BODY BEL.
With --tmux it writes the tmux passthrough form Claude Code sends inside tmux:
ESC P tmux; ESC ESC ] 777 ; notify ; NS ; BODY BEL ESC \.
Run it in a tab of your terminal host to watch the host show the state.

With --terminal it writes what the hooks send your own terminal where
'hookinstall init' or 'run' set them up: tab progress (OSC 9;4) and, for
attention and done, a desktop notification naming the agent (--agent) and the
current folder, in the dialect init picks here (or the one named:
--terminal=osc9, osc777, osc99, bell or a terminal's name such as kitty,
optionally tmux+), wrapped for tmux inside
tmux. Run it in your terminal to see what it does with each state; working and
attention leave the tab's progress set, and 'emit interrupted --terminal' clears it.

'emit clear' is what init's prompt hook runs when this terminal has an agent
session's record: the shell prompts again, so the agent is gone; it removes the
record and clears the tab's progress, its 7501 record and the tmux pane's option.`,
		Example: `  hookinstall emit attention
  hookinstall emit done --namespace termic
  hookinstall emit working --tmux | od -c
  hookinstall emit attention --terminal --agent claude
  hookinstall emit done --terminal=osc777 | od -c`,
		ValidArgs: stateNames(),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("name one state (%s)", strings.Join(stateNames(), ", "))}
			}
			o.State = args[0]
			return runEmit(o)
		},
	}
	cmd.Flags().BoolVar(&o.Tmux, "tmux", false, "wrap the sequence in tmux's DCS passthrough, as Claude Code does inside tmux")
	cmd.Flags().StringVar(&o.Terminal, "terminal", "", "write what the hooks send your own terminal (init's dialect here, or osc9, osc777, osc99, bell, kitty, tmux+...)")
	cmd.Flags().Lookup("terminal").NoOptDefVal = "auto"
	cmd.Flags().StringVar(&o.Agent, "agent", "", "with --terminal: the agent the notification names (default \"An agent\")")
	_ = cmd.RegisterFlagCompletionFunc("agent", completeAgents)
	return cmd
}

// namespace is the namespace of a command that needs no home: --namespace,
// then $HOOKINSTALL_NAMESPACE, then the default.
func (g *globalOptions) namespace() (string, error) {
	ns, err := hookinstall.ResolveNamespace(g.NS, g.Getenv)
	if err != nil {
		return "", usageError{err}
	}
	return ns, nil
}

func runEmit(o *emitOptions) error {
	ns, err := o.namespace()
	if err != nil {
		return err
	}
	if o.State == "clear" {
		return emitClear(o, ns)
	}
	st := hookinstall.State(o.State)
	if st.Body() == "" {
		return usageError{fmt.Errorf("unknown state %q (states: %s)", o.State, strings.Join(stateNames(), ", "))}
	}
	seq := hookinstall.OSC(ns, st, o.Tmux)
	term := ""
	if o.Terminal != "" || o.Agent != "" {
		if o.Terminal == "" {
			return usageError{fmt.Errorf("--agent goes with --terminal")}
		}
		t, err := o.emitTerminal(ns)
		if err != nil {
			return err
		}
		agent := terminal.Agent{Product: "An agent"}
		if o.Agent != "" {
			in, err := o.installer()
			if err != nil {
				return err
			}
			a, err := in.Agent(o.Agent)
			if err != nil {
				return usageError{err}
			}
			ad, _ := adapters.Lookup(cmp.Or(a.Base, a.Name))
			agent = terminal.Agent{ID: ad.ID, Product: a.Product, Own: ad.ShowsItself}
		}
		// what its hooks send: without what the agent shows by itself here
		dir, _ := os.Getwd()
		seqs := terminal.Sequences(t, agent, agent.Own.Draws(o.Getenv), terminal.SafeFolder(dir), cmp.Or(agent.ID, "agent")+"-emit", st)
		if seq, term = terminal.Encode(t, seqs), t.String(); len(seq) == 0 {
			fmt.Fprintf(o.IO.Err, "hookinstall emit: %s shows this itself in this terminal: its hooks send nothing\n", agent.Product)
		}
	}
	if o.JSON {
		return jsonEncoder(o.IO.Out).Encode(jsonEmit{Schema: jsonSchema, Command: "emit", Namespace: ns, State: o.State, Tmux: o.Tmux || strings.HasPrefix(term, "tmux+"), Terminal: term, Bytes: string(seq)})
	}
	_, err = o.IO.Out.Write(seq)
	if term != "" && !o.dropped && terminal.Progress(st) != terminal.Progress(hookinstall.Done) && bytes.Contains(seq, []byte(terminal.Progress(st)[1:])) {
		fmt.Fprintf(o.IO.Err, "hookinstall emit: the tab keeps this progress until 'hookinstall emit interrupted --terminal' clears it\n")
	}
	return err
}

// emitClear is 'emit clear', which init's prompt hook runs when this
// terminal ($<NS>_PTY) has a record: the shell prompts again, so the agent
// that ran here is gone. Its record goes, and what it left in the tab and
// in its tmux pane's option is cleared; no record, nothing written.
func emitClear(o *emitOptions, ns string) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	s, ok := in.EndSession(o.Getenv(terminal.PTYVar(ns)))
	if !ok {
		return nil
	}
	o.Terminal = cmp.Or(o.Terminal, "auto")
	t, err := o.emitTerminal(ns)
	if err != nil {
		return err
	}
	a := terminal.Agent{ID: s.Agent}
	if ad, ok := adapters.Lookup(s.Agent); ok {
		a.Own = ad.ShowsItself
	}
	if s.Mux == "tmux" {
		agentexec.Run(context.Background(), o.Getenv, agentexec.Cmd{Name: "tmux", Args: []string{"-S", s.Server, "set-option", "-pu", "-t", s.Pane, terminal.PaneOption(ns)},
			Env: []string{"TMUX=" + o.Getenv("TMUX")}, Timeout: 2 * time.Second})
	}
	_, err = o.IO.Out.Write(terminal.Encode(t, terminal.Clear(t, a, s.Agent+"-"+filepath.Base(s.TTY))))
	return err
}

// emitTerminal is the terminal --terminal names: init's choice here
// (auto: the one init or run set up, else the one init would pick), or the
// one given; wrapped for tmux with --tmux.
func (o *emitOptions) emitTerminal(ns string) (terminal.Terminal, error) {
	t, ok := terminal.FromTask(o.Getenv(terminal.TaskVar(ns)))
	s, getenv := inTmux(o.Getenv)
	var err error
	switch {
	case o.Terminal != "auto":
		t, err = terminal.Parse(o.Terminal)
	case !ok:
		t, _ = terminal.Detect(ns, getenv)
	}
	if err != nil {
		return t, usageError{fmt.Errorf("--terminal: %w", err)}
	}
	t.Tmux = t.Tmux || o.Tmux
	if t.Tmux && s.drops() {
		says, fix := s.words()
		fmt.Fprintln(o.IO.Err, "hookinstall emit: warning: "+says+"; "+fix)
		o.dropped = true
	}
	return t, nil
}

// jsonEmit is emit's --json document: the bytes as a JSON string (the
// escape and bell as \u001b and \u0007), nothing written raw.
type jsonEmit struct {
	Schema    int    `json:"schema"`
	Command   string `json:"command"`
	ExitCode  int    `json:"exit_code"`
	Namespace string `json:"namespace"`
	State     string `json:"state"`
	Tmux      bool   `json:"tmux"`
	Terminal  string `json:"terminal,omitempty"` // with --terminal: "osc777", "tmux+osc9"
	Bytes     string `json:"bytes"`
}
