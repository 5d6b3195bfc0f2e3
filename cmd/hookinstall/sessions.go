package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/agentexec"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// The one view of every agent session on this machine: ls, jump and watch
// read the records terminal-mode hooks keep (hookinstall.Installer.Sessions).

type sessionsOptions struct {
	*globalOptions
	Short bool
	After time.Duration
	Exec  string
}

func newLsCmd(g *globalOptions) *cobra.Command {
	o := &sessionsOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "List every agent session on this machine: those waiting for you first",
		Long: `ls lists the agent sessions whose hooks run where hookinstall init or run set
them up (a terminal host's hooks record nothing: it holds the state itself):
the agent, its state and for how long, the project folder, and where it runs
(its tty, tmux pane, ssh). Those waiting for you come first, the longest
waiting first. A session whose agent is gone is dropped. A state marked ? is
one the agent may have left without telling its hooks (docs/agents.md).
--short prints one line of at most 40 columns for a status line (tmux
status-right, a prompt), nothing when no agent runs.`,
		Example: `  hookinstall ls
  hookinstall ls --short      # in tmux: set -g status-right '#(hookinstall ls --short)'`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error { return runLs(o) },
	}
	cmd.Flags().BoolVar(&o.Short, "short", false, "one line of at most 40 columns for a status line: the count in each state")
	return cmd
}

func newJumpCmd(g *globalOptions) *cobra.Command {
	o := &sessionsOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "jump",
		Short: "Go to the agent waiting longest for you (inside tmux, its pane)",
		Long: `jump selects, inside tmux, the window and pane of the agent session that has
waited longest for you (across the sessions of this tmux server); outside tmux
it says where that agent is. It exits 1 when no agent waits.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runJump(cmd.Context(), o) },
	}
}

func newWatchCmd(g *globalOptions) *cobra.Command {
	o := &sessionsOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "A live list of the agent sessions; with --exec, a command for each that waits",
		Long: `watch prints the list of agent sessions (as ls does) each time a session's
record changes (file notifications, no polling), until interrupted. With
--exec it runs CMD (with sh -c) once for each waiting episode that lasts
--after: ` + terminal.EnvPrefix("hookinstall") + `_AGENT, _STATE, _FOLDER, _TTY and _PANE
say which (with --namespace, its prefix); _UNSURE is ? where ls marks one.
Network stays out of the hooks: a notification to your phone, a webhook,
notify-send or say is CMD's to send (docs/commands.md has recipes, and how to
run watch as a user service).`,
		Example: `  hookinstall watch --after 30s --exec 'notify-send "$HOOKINSTALL_AGENT" "$HOOKINSTALL_FOLDER"'`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runWatch(cmd.Context(), o) },
	}
	cmd.Flags().DurationVar(&o.After, "after", 0, "with --exec: how long a session must have waited for you before CMD runs")
	cmd.Flags().StringVar(&o.Exec, "exec", "", "run CMD (with sh -c) once per waiting episode that lasts --after")
	return cmd
}

// jsonLs is ls's --json document (docs/json.md).
type jsonLs struct {
	Schema    int                   `json:"schema"`
	Command   string                `json:"command"`
	Namespace string                `json:"namespace"`
	ExitCode  int                   `json:"exit_code"`
	Sessions  []hookinstall.Session `json:"sessions"`
	Skipped   []string              `json:"skipped"` // files in the folder that are no record
}

// stateWords are the states as ls says them.
var stateWords = map[hookinstall.State]string{hookinstall.Attention: "waiting", hookinstall.Working: "working",
	hookinstall.Interrupted: "interrupted", hookinstall.Done: "done"}

// marks mark a state a session may have left unsaid (Session.Unsure).
var marks = map[bool]string{true: "?"}

// briefWords are short's where stateWords are too long.
var briefWords = map[hookinstall.State]string{hookinstall.Attention: "wait", hookinstall.Working: "work",
	hookinstall.Interrupted: "stop", hookinstall.Done: "done"}

func runLs(o *sessionsOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	ss, notes, err := in.Sessions()
	if err != nil {
		return err
	}
	switch {
	case o.JSON:
		return jsonEncoder(o.IO.Out).Encode(jsonLs{Schema: jsonSchema, Command: "ls", Namespace: in.Namespace(),
			Sessions: append([]hookinstall.Session{}, ss...), Skipped: append([]string{}, notes...)})
	case o.Short:
		if line := short(ss); line != "" {
			fmt.Fprintln(o.IO.Out, line)
		}
		return nil
	}
	printSessions(o.IO.Out, ss, time.Now(), in.SessionsDir())
	warn(o.IO.Err, "ls", notes)
	return nil
}

// short is the status line: the count in each state, in ls's order
// (waiting first), in plain ASCII ("2 waiting, 1 working"), in four-letter
// words where that is over 40 columns ("12 wait 13 work 12 stop"); "" when no
// agent runs.
func short(ss []hookinstall.Session) string {
	var states []hookinstall.State
	n, q := map[hookinstall.State]int{}, map[hookinstall.State]string{}
	for _, s := range ss { // (sorted by state)
		if n[s.State]++; n[s.State] == 1 {
			states = append(states, s.State)
		}
		q[s.State] = cmp.Or(q[s.State], marks[s.Unsure])
	}
	var long, brief []string
	for _, st := range states {
		long = append(long, fmt.Sprintf("%d %s%s", n[st], stateWords[st], q[st]))
		brief = append(brief, fmt.Sprintf("%d %s%s", n[st], briefWords[st], q[st]))
	}
	if s := strings.Join(long, ", "); len(s) <= 40 {
		return s
	}
	return strings.Join(brief, " ")
}

// printSessions prints one line a session: agent, state, for how long,
// folder, where; or that there is none in dir.
func printSessions(w io.Writer, ss []hookinstall.Session, now time.Time, dir string) {
	if len(ss) == 0 {
		fmt.Fprintf(w, "no agent sessions in %s\n  (their hooks record them where hookinstall init or run set them up)\n", dir)
		return
	}
	q := ""
	for _, s := range ss {
		fmt.Fprintf(w, "%-9s %-11s %6s  %-20s %s\n", s.Agent, stateWords[s.State]+marks[s.Unsure], ago(now.Sub(s.Since)), s.Folder, where(s))
		q += marks[s.Unsure]
	}
	if q != "" {
		fmt.Fprintln(w, "  ? the agent may have moved on without telling its hooks (docs/agents.md)")
	}
}

// ago words a duration as ls shows it: 42s, 3m, 2h.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

// where says where a session runs: "tmux %3, /dev/pts/3, over ssh".
func where(s hookinstall.Session) string {
	w := s.TTY
	if s.Pane != "" {
		w = s.Mux + " " + s.Pane + ", " + w
	}
	if s.SSH {
		w += ", over ssh"
	}
	return w
}

func runJump(ctx context.Context, o *sessionsOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	ss, _, err := in.Sessions()
	if err != nil {
		return err
	}
	mux := func(name string, args ...string) agentexec.Result {
		return agentexec.Run(ctx, o.Getenv, agentexec.Cmd{Name: name, Args: args, Env: []string{"TMUX=" + o.Getenv("TMUX"), "ZELLIJ=" + o.Getenv("ZELLIJ")}, Timeout: 2 * time.Second})
	}
	// From a key binding, tmux's run-shell (its job's stdin and stdout are
	// one socket), what jump says goes to tmux's message line and it exits
	// 0: tmux puts a job's output, or its failure, in view mode.
	in0, err1 := os.Stdin.Stat()
	out, err2 := os.Stdout.Stat()
	keyed := o.Getenv("TMUX") != "" && err1 == nil && err2 == nil && in0.Mode()&fs.ModeSocket != 0 && os.SameFile(in0, out)
	if len(ss) == 0 || ss[0].State != hookinstall.Attention {
		if keyed {
			mux("tmux", "display-message", "hookinstall jump: no agent waits for you")
			return nil
		}
		fmt.Fprintln(o.IO.Err, "hookinstall jump: no agent waits for you")
		return exitError{exitFail}
	}
	s := ss[0] // the longest waiting
	// its pane, where this multiplexer's server (tmux) or session (Zellij) is
	// the agent's: pane ids are per server
	var r agentexec.Result
	switch sock, _, _ := strings.Cut(o.Getenv("TMUX"), ","); {
	case sock != "" && s.Mux == "tmux" && s.Server == sock:
		if r = mux("tmux", "-S", sock, "select-window", "-t", s.Pane, ";", "select-pane", "-t", s.Pane); r.Err == nil {
			mux("tmux", "-S", sock, "switch-client", "-t", s.Pane) // to its session, where a client is attached
		}
	case o.Getenv("ZELLIJ") != "" && s.Mux == "zellij" && s.Server == o.Getenv("ZELLIJ_SESSION_NAME"):
		r = mux("zellij", "--session", s.Server, "action", "focus-pane-id", s.Pane)
	case keyed:
		mux("tmux", "display-message", fmt.Sprintf("%s has waited for you for %s in %s: %s", s.Agent, ago(time.Since(s.Since)), s.Folder, where(s)))
		return nil
	default:
		fmt.Fprintf(o.IO.Out, "%s has waited for you for %s in %s: %s\n", s.Agent, ago(time.Since(s.Since)), s.Folder, where(s))
		return nil
	}
	if err = nil; r.Err != nil {
		err = fmt.Errorf("%s could not select %s's pane %s: %v %s", s.Mux, s.Agent, s.Pane, r.Err, strings.TrimSpace(string(r.Out)))
	}
	if keyed && err != nil {
		mux("tmux", "display-message", "hookinstall jump: "+err.Error())
		return nil
	}
	return err
}

func runWatch(ctx context.Context, o *sessionsOptions) error {
	in, err := o.installer()
	if err != nil {
		return err
	}
	dir, fixed, err := in.PrepareSessions()
	if err != nil {
		return err
	} else if fixed != "" {
		fmt.Fprintln(o.IO.Err, "hookinstall watch: "+fixed)
	}
	wt, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer wt.Close()
	if err := wt.Add(dir); err != nil {
		return err
	}
	fired := map[string]time.Time{}
	var next <-chan time.Time
	last := "" // the list last printed: a change is printed once, with its time
	for {
		ss, notes, err := in.Sessions()
		if err != nil { // a folder made group-writable since: made private again, once
			if _, fixed, err2 := in.PrepareSessions(); err2 == nil && fixed != "" {
				fmt.Fprintln(o.IO.Err, "hookinstall watch: "+fixed)
				ss, notes, err = in.Sessions()
			}
		}
		if err != nil {
			return err
		}
		if now := time.Now(); fmt.Sprint(ss) != last {
			last = fmt.Sprint(ss)
			fmt.Fprintln(o.IO.Out, now.Format("15:04:05"))
			printSessions(o.IO.Out, ss, now, dir)
			fmt.Fprintln(o.IO.Out)
		}
		warn(o.IO.Err, "watch", notes)
		if o.Exec != "" {
			run, wait := due(ss, fired, o.After, time.Now())
			for _, s := range run {
				o.execFor(in.Namespace(), s)
			}
			next = nil
			if wait > 0 {
				next = time.After(wait)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case err := <-wt.Errors: // (an overflow): said, and the list read again
			fmt.Fprintln(o.IO.Err, "hookinstall watch:", err)
		case <-wt.Events:
		case <-next:
		}
	}
}

// due are the sessions whose waiting episode has lasted after by now and
// that CMD has not run for (fired holds the episodes it ran for, by agent
// and tty; an episode that ended is forgotten), and how long until the next
// one is due (0 for none).
func due(ss []hookinstall.Session, fired map[string]time.Time, after time.Duration, now time.Time) (run []hookinstall.Session, wait time.Duration) {
	waiting := map[string]bool{}
	for _, s := range ss {
		k := s.Agent + " " + s.TTY
		if s.State != hookinstall.Attention {
			continue
		}
		waiting[k] = true
		switch at := s.Since.Add(after); {
		case fired[k].Equal(s.Since):
		case !now.Before(at):
			fired[k] = s.Since
			run = append(run, s)
		case wait == 0 || at.Sub(now) < wait:
			wait = at.Sub(now)
		}
	}
	for k := range fired {
		if !waiting[k] {
			delete(fired, k)
		}
	}
	return run, wait
}

// execFor runs --exec for session s, saying which in its environment.
func (o *sessionsOptions) execFor(ns string, s hookinstall.Session) {
	p := terminal.EnvPrefix(ns)
	cmd := exec.Command("/bin/sh", "-c", o.Exec)
	cmd.Env = append(os.Environ(), p+"_AGENT="+s.Agent, p+"_STATE="+string(s.State), p+"_FOLDER="+s.Folder, p+"_TTY="+s.TTY, p+"_PANE="+s.Pane,
		p+"_UNSURE="+marks[s.Unsure])
	cmd.Stdout, cmd.Stderr = o.IO.Out, o.IO.Err
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(o.IO.Err, "hookinstall watch: --exec for %s: %v\n", s.Agent, err)
	}
}
