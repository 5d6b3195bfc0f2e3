package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookinstall/hookinstall/internal/agentexec"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

func newInitCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "init bash|zsh|fish|powershell|pwsh",
		Short: "Print the line for your shell's rc file that lets the hooks reach your own terminal",
		Long: `init prints shell code for your rc file, as starship and zoxide do. In an
interactive shell on a terminal where no terminal host set the hooks' variables,
it sets <NS>_TASK_ID (to terminal:<dialect>) and <NS>_PTY (the shell's own tty),
so every hook hookinstall installed shows tab progress (OSC 9;4) while the agent
works and a desktop notification naming the agent and the project folder when it
needs you and when it is done, in the terminal's own language: OSC 99 for kitty,
OSC 777 for Ghostty, WezTerm, foot, Konsole and urxvt, a bell (BEL) for Windows
Terminal, Apple Terminal, VS Code, Alacritty, JetBrains, VTE terminals and GNU
screen, OSC 9 otherwise; wrapped for tmux's passthrough inside tmux (and over ssh
from inside tmux, where TERM names tmux), with a plain BEL that marks the window
in tmux's window list (tmux passes them with allow-passthrough on, from the window
on screen alone; tmux 3.4's allow-passthrough all passes every window's). Over ssh,
put it in the remote machine's rc file: the
sequences ride the ssh session back to your terminal. On Windows, init powershell
sets <NS>_TASK_ID alone, which Claude Code's hooks answer (docs/windows.md).

It runs one program (tty; inside tmux also tmux, to read the TERM of the client
attached now) when the shell starts and nothing per prompt. Set
<NS>_TERMINAL before it to choose the dialect yourself (osc9, osc777, osc99,
bell, or a terminal's name: kitty, ghostty, iterm2, vscode, ...; optionally
prefixed tmux+), or to off.`,
		Example: `  eval "$(hookinstall init bash)"      # in ~/.bashrc
  eval "$(hookinstall init zsh)"       # in ~/.zshrc
  hookinstall init fish | source       # in ~/.config/fish/config.fish
  hookinstall init powershell | Out-String | Invoke-Expression  # in $PROFILE`,
		ValidArgs: terminal.Shells(),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("name one shell (%s)", strings.Join(terminal.Shells(), ", "))}
			}
			ns, err := g.namespace()
			if err != nil {
				return err
			}
			code, err := terminal.Init(args[0], ns)
			if err != nil {
				return usageError{err}
			}
			var said []string
			tm, _ := inTmux(g.Getenv)
			if says, fix := tm.words(); fix != "" {
				said = append(said, says+";\n  "+fix)
			}
			dir, fixed, err := prepareSessions(g)
			if fixed != "" || err != nil {
				said = append(said, cmp.Or(fixed, fmt.Sprint("the hooks keep no record for 'hookinstall ls': ", err)))
			}
			if args[0] == "powershell" || args[0] == "pwsh" {
				said = nil // Windows: no tmux, no records
			} else if err == nil {
				code += terminal.PromptHook(args[0], ns, dir, self(g.Getenv))
			}
			for _, w := range said {
				// said by the shell, and only by an interactive one on a
				// terminal: a script that sources the rc file, or Claude
				// Code's hook shell on Windows (bash -i), stays quiet
				q := terminal.Quote(args[0], "hookinstall init: "+w)
				if args[0] == "fish" {
					code += "status is-interactive; and isatty stderr; and printf '%s\\n' " + q + " >&2\n"
				} else {
					code += "case $- in *i*) [ ! -t 0 ] || printf '%s\\n' " + q + " >&2 ;; esac\n"
				}
			}
			_, err = fmt.Fprint(g.IO.Out, code)
			return err
		},
	}
}

// inTmux asks this pane's tmux server, once, with a timeout (a wedged
// tmux must not hang a shell's start), what init, run, emit and doctor
// need: what it does with what the hooks send (tmuxState; the zero one
// outside tmux, or when tmux cannot say), and getenv that also answers
// terminal.Client and ClientType, the TERM of the tmux client attached now
// and its XTVERSION, and inside Zellij terminal.ZellijVersion.
func inTmux(getenv func(string) string) (tmuxState, func(string) string) {
	var s tmuxState
	var client, ctype string
	if tm := getenv("TMUX"); tm != "" {
		// $TMUX is "socket,pid,session": ask that server
		sock, _, _ := strings.Cut(tm, ",")
		args := []string{"-S", sock, "display-message", "-p"}
		if p := getenv("TMUX_PANE"); p != "" {
			args = append(args, "-t", p)
		}
		r := agentexec.Run(context.Background(), getenv, agentexec.Cmd{Name: "tmux", Args: append(args, "#{version} #{allow-passthrough} "+terminal.ClientFormat),
			Env: []string{"TMUX=" + tm, "TMUX_PANE=" + getenv("TMUX_PANE")}, Timeout: 2 * time.Second})
		if f := strings.SplitN(strings.TrimSuffix(string(r.Out), "\n"), " ", 4); r.Err == nil && len(f) == 4 {
			s.version, client, ctype = f[0], f[2], f[3]
			// the option's word, or its number (tmux 3.3's formats)
			s.pass = map[string]string{"": "off", "0": "off", "off": "off", "1": "on", "on": "on", "2": "all", "all": "all"}[f[1]]
		}
	}
	// inside Zellij, its version, as init asks it: once, when asked
	zellij := sync.OnceValue(func() string {
		r := agentexec.Run(context.Background(), getenv, agentexec.Cmd{Name: "zellij", Args: []string{"--version"}, Timeout: 2 * time.Second})
		return strings.TrimSpace(string(r.Out))
	})
	return s, func(k string) string {
		switch {
		case k == terminal.Client:
			return client
		case k == terminal.ClientType:
			return ctype
		case k == terminal.ZellijVersion && getenv("ZELLIJ") != "":
			return zellij()
		}
		return getenv(k)
	}
}

// A tmuxState is what a pane's tmux server does with what the hooks send:
// its allow-passthrough ("off", "on" or, from tmux 3.4, "all"; "" when not
// asked) and its version.
type tmuxState struct{ version, pass string }

// drops reports whether tmux drops what the hooks send, every window's.
func (s tmuxState) drops() bool { return s.pass == "off" }

// words say what tmux does with what the hooks send where it does not pass
// every window's, and the fix where there is one here: tmux below 3.4
// passes only the window on screen's at best, so an agent in another
// window reaches the terminal as that window's bell alone.
func (s tmuxState) words() (says, fix string) {
	var major, minor int
	_, _ = fmt.Sscanf(strings.TrimPrefix(s.version, "next-"), "%d.%d", &major, &minor)
	best := "on"
	if major > 3 || major == 3 && minor >= 4 {
		best = "all"
	}
	if s.pass == "off" || s.pass == "on" && best == "all" {
		fix = fmt.Sprintf("add 'set -g allow-passthrough %s' to ~/.tmux.conf, and run 'tmux set -g allow-passthrough %[1]s' for the tmux running now", best)
	}
	switch {
	case s.pass == "off":
		return "tmux's allow-passthrough is off, so tmux drops what the hooks send: only a window's bell gets through", fix
	case s.pass == "on" && best == "all":
		return "tmux passes what the hooks send only from the window on screen: an agent in another window reaches the terminal as that window's bell alone", fix
	case s.pass == "on":
		return "tmux " + s.version + " passes what the hooks send only from the window on screen: an agent in another window reaches the terminal as that window's bell alone (tmux 3.4's allow-passthrough all passes every window's)", ""
	}
	return "", ""
}

func newRunCmd(g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [--] CMD [ARGS...]",
		Short: "Run one command with the hooks reaching your own terminal (as init does for a shell)",
		Long: `run starts CMD with <NS>_TASK_ID and <NS>_PTY set as init sets them for a
shell: the terminal's language, and the tty of run's standard input. When CMD
ends, what it left in the tab is cleared, as init's prompt hook does, and run
exits with CMD's status. Where a terminal host set them already, or standard
input is not a terminal, it becomes CMD, with the environment as it is.`,
		Example: `  hookinstall run -- claude
  hookinstall run gemini --model gemini-2.5-pro`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ns, err := g.namespace()
			if err != nil {
				return err
			}
			return runCommand(g, ns, args)
		},
	}
	c.Flags().SetInterspersed(false) // CMD's own flags are CMD's
	return c
}

// ttyOf returns the path of the terminal open on standard input, as tty(1)
// prints it, or "" when it is not a terminal.
func ttyOf(getenv func(string) string) string {
	r := agentexec.Run(context.Background(), getenv, agentexec.Cmd{Name: "tty", Stdin: os.Stdin, Timeout: 2 * time.Second})
	if p := strings.TrimSpace(string(r.Out)); r.Err == nil && strings.HasPrefix(p, "/") {
		return p
	}
	return ""
}

// runCommand execs args with the terminal's variables set, where init would
// set them.
func runCommand(g *globalOptions, ns string, args []string) error {
	cmd := args[0]
	path, err := exec.LookPath(cmd)
	if err != nil {
		return hinted{error: fmt.Errorf("run: %w", err), hint: "name a program on PATH, or give its path"}
	}
	env := os.Environ()
	task, pty, over := terminal.TaskVar(ns), terminal.PTYVar(ns), terminal.Var(ns)
	id := g.Getenv(task)
	_, ours := terminal.FromTask(id)
	switch {
	case id != "" && !ours:
		// a host's: leave it alone
	case g.Getenv(over) == "off":
		env = withoutVars(env, task, pty)
	default:
		if tty := ttyOf(g.Getenv); tty != "" {
			s, getenv := inTmux(g.Getenv)
			t, _ := terminal.Detect(ns, getenv)
			env = append(withoutVars(env, task, pty), task+"="+t.TaskID(), pty+"="+tty)
			// when CMD ends, however, what it left is cleared, as init's prompt hook does
			path, args = "/bin/sh", append([]string{"sh", "-c", `trap : INT QUIT; "$@"; s=$?; "$0" --namespace ` + ns + ` emit clear; exit $s`, self(g.Getenv), path}, args[1:]...)
			if says, fix := s.words(); fix != "" {
				fmt.Fprintln(g.IO.Err, "hookinstall run: "+says+";\n  "+fix)
			}
			if _, fixed, err := prepareSessions(g); fixed != "" || err != nil {
				fmt.Fprintln(g.IO.Err, "hookinstall run:", cmp.Or(fixed, fmt.Sprint("the hooks keep no record for 'hookinstall ls': ", err)))
			}
		} else {
			fmt.Fprintf(g.IO.Err, "hookinstall run: standard input is not a terminal, so the hooks stay silent; running %s as it is\n", args[0])
		}
	}
	return fmt.Errorf("run %s: %w", cmd, syscall.Exec(path, args, env))
}

// prepareSessions sets up the folder of the records where terminal mode is
// set up (init, run): what it fixed, or why the hooks can keep no record.
func prepareSessions(g *globalOptions) (dir, fixed string, err error) {
	in, err := g.installer()
	if err != nil {
		return "", "", err
	}
	return in.PrepareSessions()
}

// withoutVars drops the named variables from env.
func withoutVars(env []string, names ...string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, k)
	})
}

// self is how a shell calls this hookinstall back (init's prompt hook,
// run): "hookinstall" where the one on PATH is this program (kept across
// upgrades), else its path.
func self(getenv func(string) string) string {
	exe, err := os.Executable()
	p, err1 := agentexec.LookPath(getenv, "hookinstall")
	a, err2 := os.Stat(p)
	b, err3 := os.Stat(exe)
	if err != nil || err1 == nil && err2 == nil && err3 == nil && os.SameFile(a, b) {
		return "hookinstall"
	}
	return exe
}
