package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
)

type emitOptions struct {
	*globalOptions
	State string
	Tmux  bool
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
Run it in a tab of your terminal host to watch the host show the state.`,
		Example: `  hookinstall emit attention
  hookinstall emit done --namespace termic
  hookinstall emit working --tmux | od -c`,
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
	st := hookinstall.State(o.State)
	if st.Body() == "" {
		return usageError{fmt.Errorf("unknown state %q (states: %s)", o.State, strings.Join(stateNames(), ", "))}
	}
	seq := hookinstall.OSC(ns, st, o.Tmux)
	if o.JSON {
		return jsonEncoder(o.IO.Out).Encode(jsonEmit{Schema: jsonSchema, Command: "emit", Namespace: ns, State: o.State, Tmux: o.Tmux, Bytes: string(seq)})
	}
	_, err = o.IO.Out.Write(seq)
	return err
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
	Bytes     string `json:"bytes"`
}
