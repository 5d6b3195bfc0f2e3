package hookinstall

import (
	"fmt"
	"strings"

	"github.com/hookinstall/hookinstall/scripts"
)

// A Terminal is the language the hooks speak when no host set them up but
// `hookinstall init` (in the user's shell) or `hookinstall run` did: a
// desktop-notification dialect, and tmux's passthrough wrapping.
type Terminal = scripts.Terminal

// A Dialect is how a terminal is asked for a desktop notification:
// "osc9", "osc777" or "osc99".
type Dialect = scripts.Dialect

// The dialects.
const (
	OSC9   = scripts.OSC9
	OSC777 = scripts.OSC777
	OSC99  = scripts.OSC99
)

// TerminalTaskPrefix starts every task id that init and run set
// ("terminal:osc777"): hooks that see it speak the terminal's language;
// any other non-empty task id is a host's, and gets the host protocol.
const TerminalTaskPrefix = scripts.TaskPrefix

// TerminalVar is the variable that overrides the terminal init and run
// pick: "osc9", "osc777", "osc99", any of them prefixed "tmux+", or "off".
func TerminalVar(ns string) string { return scripts.TerminalVar(ns) }

// TaskVar and PTYVar are the two variables every hook reads:
// <NS>_TASK_ID and <NS>_PTY.
func TaskVar(ns string) string { return scripts.TaskVar(ns) }

// PTYVar is <NS>_PTY: see TaskVar.
func PTYVar(ns string) string { return scripts.PTYVar(ns) }

// ParseTerminal reads a terminal as Terminal.String writes it ("tmux+osc9").
func ParseTerminal(s string) (Terminal, error) { return scripts.ParseTerminal(s) }

// TerminalFromTask returns the terminal a task id selects, and false for a
// host's task id (or an empty one).
func TerminalFromTask(id string) (Terminal, bool) { return scripts.TerminalFromTask(id) }

// DetectTerminal picks the terminal for an environment as init does: the
// override (TerminalVar), else the first of the detection rules that
// matches (kitty: OSC 99; Ghostty, WezTerm, foot, Windows Terminal, urxvt,
// Warp: OSC 777), else OSC 9; wrapped for tmux when TMUX is set. why names
// the terminal a rule matched, the override, or the default.
func DetectTerminal(ns string, getenv func(string) string) (t Terminal, why string) {
	t, r := scripts.DetectTerminal(ns, getenv)
	switch {
	case r != nil:
		v := "set"
		if r.Value != "" {
			v = "=" + r.Value
		}
		why = fmt.Sprintf("%s (%s %s)", r.Why, r.Var, v)
	case isTerminal(getenv(TerminalVar(ns))):
		why = "chosen by " + TerminalVar(ns)
	default:
		why = "no terminal recognised: OSC 9, which most terminals that notify understand"
	}
	return t, why
}

func isTerminal(s string) bool {
	_, err := ParseTerminal(s)
	return err == nil
}

// SafeFolder is a project folder's name as the hooks put it in a
// notification: the last element of dir, each byte outside letters,
// digits and "._+@,=~ -" made '_', at most 32 bytes.
func SafeFolder(dir string) string { return scripts.SafeFolder(dir) }

// TerminalBytes returns the exact bytes a hook that writes to the pty sends
// for state s in terminal t, for the agent named product ("Claude Code")
// working in dir: tab progress (OSC 9;4), then for attention and done a
// notification naming the agent and SafeFolder(dir); each sequence wrapped
// for tmux when t.Tmux.
func TerminalBytes(t Terminal, product, dir string, s State) []byte {
	return scripts.TerminalBytes(t, product, SafeFolder(dir), scripts.State(s))
}

// Shells are the shells InitScript knows.
func Shells() []string { return []string{"bash", "zsh", "fish"} }

// InitScript returns the code a user's shell runs at start-up (eval "$(hookinstall
// init bash)"): in an interactive shell on a terminal whose task id no host
// set (unset, or set by init itself in a parent shell), it exports
// <NS>_TASK_ID (TerminalTaskPrefix and the terminal DetectTerminal picks)
// and <NS>_PTY (the shell's own tty). It runs one process (tty) when the
// shell starts, none per prompt. TerminalVar=off undoes it.
func InitScript(shell, ns string) (string, error) {
	if err := scripts.ValidNamespace(ns); err != nil {
		return "", err
	}
	task, pty, over := TaskVar(ns), PTYVar(ns), TerminalVar(ns)
	var known []string
	for _, d := range scripts.Dialects() {
		known = append(known, string(d))
	}
	for _, d := range scripts.Dialects() {
		known = append(known, "tmux+"+string(d))
	}
	switch shell {
	case "bash", "zsh":
		return posixInit(shell, task, pty, over, known), nil
	case "fish":
		return fishInit(task, pty, over, known), nil
	}
	return "", fmt.Errorf("unknown shell %q (shells: %s)", shell, strings.Join(Shells(), ", "))
}

func initHeader(shell, cmd string, rc string) string {
	return "# hookinstall init " + shell + ": lets the hooks hookinstall installed show tab progress\n" +
		"# and desktop notifications in this terminal when no terminal host set them up.\n" +
		"# Add to " + rc + ":  " + cmd + "\n"
}

func posixInit(shell, task, pty, over string, known []string) string {
	rc := map[string]string{"bash": "~/.bashrc", "zsh": "~/.zshrc"}[shell]
	var b strings.Builder
	b.WriteString(initHeader(shell, `eval "$(hookinstall init `+shell+`)"`, rc))
	v := "__hookinstall_t"
	fmt.Fprintf(&b, `case $- in
*i*)
	case ${%[1]s:-%[4]s} in
	%[4]s*)
		if [ "${%[3]s:-}" = off ]; then
			unset %[1]s %[2]s
		elif [ -t 0 ] && __hookinstall_tty=$(tty 2>/dev/null); then
			case ${%[3]s:-} in
			%[5]s) %[6]s=$%[3]s ;;
			*)
				%[6]s=
`, task, pty, over, TerminalTaskPrefix, strings.Join(known, " | "), v)
	for _, r := range scripts.DetectRules {
		if r.Value == "" {
			fmt.Fprintf(&b, "\t\t\t\t[ -n \"$%s\" ] || [ -z \"${%s:-}\" ] || %s=%s\n", v, r.Var, v, r.Dialect)
		} else {
			fmt.Fprintf(&b, "\t\t\t\t[ -n \"$%s\" ] || case ${%s:-} in %s) %s=%s ;; esac\n", v, r.Var, r.Value, v, r.Dialect)
		}
	}
	fmt.Fprintf(&b, `				[ -n "$%[3]s" ] || %[3]s=%[4]s
				;;
			esac
			case $%[3]s in tmux+*) ;; *) [ -z "${TMUX:-}" ] || %[3]s=tmux+$%[3]s ;; esac
			export %[1]s="%[5]s$%[3]s" %[2]s="$__hookinstall_tty"
			unset %[3]s
		fi
		unset __hookinstall_tty
		;;
	esac
	;;
esac
`, task, pty, v, scripts.OSC9, TerminalTaskPrefix)
	return b.String()
}

func fishInit(task, pty, over string, known []string) string {
	var b strings.Builder
	b.WriteString(initHeader("fish", "hookinstall init fish | source", "~/.config/fish/config.fish"))
	v := "__hookinstall_t"
	fmt.Fprintf(&b, `if status is-interactive; and isatty stdin
    if test -z "$%[1]s"; or string match -q '%[4]s*' -- "$%[1]s"
        if test "$%[3]s" = off
            set -e %[1]s
            set -e %[2]s
        else if set -g __hookinstall_tty (tty 2>/dev/null)
            set -g %[6]s
            switch "$%[3]s"
                case %[5]s
                    set %[6]s $%[3]s
                case '*'
`, task, pty, over, TerminalTaskPrefix, strings.Join(known, " "), v)
	for i, r := range scripts.DetectRules {
		kw := "else if"
		if i == 0 {
			kw = "if"
		}
		if r.Value == "" {
			fmt.Fprintf(&b, "                    %s test -n \"$%s\"\n", kw, r.Var)
		} else {
			fmt.Fprintf(&b, "                    %s string match -q '%s' -- \"$%s\"\n", kw, r.Value, r.Var)
		}
		fmt.Fprintf(&b, "                        set %s %s\n", v, r.Dialect)
	}
	fmt.Fprintf(&b, `                    else
                        set %[3]s %[4]s
                    end
            end
            if test -n "$TMUX"; and not string match -q 'tmux+*' -- $%[3]s
                set %[3]s tmux+$%[3]s
            end
            set -gx %[1]s %[5]s$%[3]s
            set -gx %[2]s $__hookinstall_tty
            set -e %[3]s
        end
        set -e __hookinstall_tty
    end
end
`, task, pty, v, scripts.OSC9, TerminalTaskPrefix)
	return b.String()
}
