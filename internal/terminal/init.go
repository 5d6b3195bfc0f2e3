package terminal

import (
	"fmt"
	"regexp"
	"strings"
)

// DefaultNamespace is the namespace when none is given.
const DefaultNamespace = "hookinstall"

var nsPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{1,31}$`)

// ValidNamespace reports an error when ns may not be used as a namespace.
func ValidNamespace(ns string) error {
	if !nsPattern.MatchString(ns) {
		return fmt.Errorf("invalid namespace %q: it must match %s", ns, nsPattern)
	}
	return nil
}

// Shells are the shells Init knows.
func Shells() []string { return []string{"bash", "zsh", "fish", "powershell", "pwsh"} }

// Init returns the code a user's shell runs at start-up (eval "$(hookinstall
// init bash)"): in an interactive shell on a terminal whose task id no host
// set (unset, or set by init itself in a parent shell), it exports
// <NS>_TASK_ID (TaskPrefix and the terminal Detect picks) and <NS>_PTY
// (the shell's own tty). It runs one process (tty; inside tmux also tmux,
// for Client) when the shell starts, none per prompt. Var(ns)=off undoes it.
func Init(shell, ns string) (string, error) {
	if err := ValidNamespace(ns); err != nil {
		return "", err
	}
	task, pty, over := TaskVar(ns), PTYVar(ns), Var(ns)
	switch shell {
	case "bash", "zsh":
		return posixInit(shell, task, pty, over), nil
	case "fish":
		return fishInit(task, pty, over), nil
	case "powershell", "pwsh":
		return psInit(shell, task, over), nil
	}
	return "", fmt.Errorf("unknown shell %q (shells: %s)", shell, strings.Join(Shells(), ", "))
}

func initHeader(shell, cmd string, rc string) string {
	return "# hookinstall init " + shell + ": lets the hooks hookinstall installed show tab progress\n" +
		"# and desktop notifications in this terminal when no terminal host set them up.\n" +
		"# Add to " + rc + ":  " + cmd + "\n"
}

func posixInit(shell, task, pty, over string) string {
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
`, task, pty, over, TaskPrefix)
	for _, n := range Names {
		fmt.Fprintf(&b, "\t\t\t%[1]s | tmux+%[1]s) %[2]s=${%[3]s%%%[1]s}%[4]s ;;\n", n.Name, v, over, named(n.Name))
	}
	fmt.Fprintf(&b, "\t\t\t*)\n\t\t\t\t%s=\n", v)
	fmt.Fprintf(&b, "\t\t\t\t%[1]s=\n\t\t\t\t[ -z \"${TMUX:-}\" ] || %[1]s=$(tmux display-message -p '%[3]s' 2>/dev/null)\n"+
		"\t\t\t\t%[2]s=${%[1]s#* } %[1]s=${%[1]s%%%% *}\n", Client, ClientType, ClientFormat)
	for _, r := range checked() {
		fmt.Fprintf(&b, "\t\t\t\t[ -n \"$%s\" ] || %s\n", v, r.Sh(v+"="+named(r.Name)))
	}
	wraps := ""
	for _, r := range Wrappers {
		wraps += "\t\t\tcase $" + v + " in tmux+*) ;; *) " + r.Sh(v+"=tmux+$"+v) + " ;; esac\n"
	}
	// inside Zellij (not in a tmux within it), as Detect: its version asked once
	wraps += "\t\t\t[ -z \"${ZELLIJ:-}\" ] || case $" + v + " in tmux+*) ;; *) case $(zellij --version 2>/dev/null) in " +
		strings.ReplaceAll(strings.Join(ZellijDrops, " | "), " 0", `\ 0`) + ") " + v + "=zellij+bell ;; *) " + v + "=zellij+$" + v + " ;; esac ;; esac\n"
	fmt.Fprintf(&b, `				[ -n "$%[3]s" ] || %[3]s=%[4]s
				;;
			esac
%[6]s			export %[1]s="%[5]s$%[3]s" %[2]s="$__hookinstall_tty"
			unset %[3]s `+Client+` `+ClientType+`
		fi
		unset __hookinstall_tty
		;;
	esac
	;;
esac
`, task, pty, v, OSC9, TaskPrefix, wraps)
	return b.String()
}

// named is a name in Names as a task id says it: the dialect, then the
// terminal's name ("osc99:kitty").
func named(name string) string {
	t, _ := Parse(name)
	return t.String()
}

// Sh is sh code that runs do when r matches (always, for a rule with no
// Var).
func (r Rule) Sh(do string) string {
	if r.Var == "" {
		return do
	}
	if r.Value == "" {
		return fmt.Sprintf("[ -z \"${%s:-}\" ] || %s", r.Var, do)
	}
	return fmt.Sprintf("case ${%s:-} in %s) %s ;; esac", r.Var, r.Value, do)
}

// fishWhen is the fish condition that r matches.
func fishWhen(r Rule) string {
	if r.Value == "" {
		return fmt.Sprintf("test -n \"$%s\"", r.Var)
	}
	return fmt.Sprintf("string match -q '%s' -- \"$%s\"", r.Value, r.Var)
}

func fishInit(task, pty, over string) string {
	var b strings.Builder
	b.WriteString(initHeader("fish", "hookinstall init fish | source", "~/.config/fish/config.fish"))
	v := "__hookinstall_t"
	// stderr, not stdin: "hookinstall init fish | source" reads the code on stdin
	fmt.Fprintf(&b, `if status is-interactive; and isatty stderr
    if test -z "$%[1]s"; or string match -q '%[4]s*' -- "$%[1]s"
        if test "$%[3]s" = off
            set -e %[1]s
            set -e %[2]s
        else if set -g __hookinstall_tty (tty 0<&2 2>/dev/null)
            set -g %[5]s
            switch "$%[3]s"
`, task, pty, over, TaskPrefix, v)
	for _, n := range Names {
		fmt.Fprintf(&b, "                case %[1]s tmux+%[1]s\n                    set %[2]s (string replace %[1]s %[4]s -- $%[3]s)\n", n.Name, v, over, named(n.Name))
	}
	fmt.Fprintf(&b, "                case '*'\n                    set -g %[1]s\n                    set -g %[2]s\n"+
		"                    test -n \"$TMUX\"; and set %[1]s (string split -m1 ' ' -- (tmux display-message -p '%[3]s' 2>/dev/null))\n"+
		"                    set %[2]s $%[1]s[2]\n                    set %[1]s $%[1]s[1]\n", Client, ClientType, ClientFormat)
	for i, r := range checked() {
		kw := map[bool]string{true: "if", false: "else if"}[i == 0]
		fmt.Fprintf(&b, "                    %s %s\n                        set %s %s\n", kw, fishWhen(r), v, named(r.Name))
	}
	wraps := ""
	for _, r := range Wrappers {
		wraps += "            if " + fishWhen(r) + "; and not string match -q 'tmux+*' -- $" + v + "\n                set " + v + " tmux+$" + v + "\n            end\n"
	}
	var drops []string // ZellijDrops as regular expressions (fish globs take no [...])
	for _, p := range ZellijDrops {
		drops = append(drops, strings.NewReplacer(".", `\.`, "*", ".*").Replace(p))
	}
	wraps += "            if test -n \"$ZELLIJ\"; and not string match -q 'tmux+*' -- $" + v + "\n" +
		"                if string match -qr '^(" + strings.Join(drops, "|") + ")' -- (zellij --version 2>/dev/null)\n" +
		"                    set " + v + " zellij+bell\n                else\n                    set " + v + " zellij+$" + v + "\n                end\n            end\n"
	fmt.Fprintf(&b, `                    else
                        set %[3]s %[4]s
                    end
            end
%[6]s            set -gx %[1]s %[5]s$%[3]s
            set -gx %[2]s $__hookinstall_tty
            set -e %[3]s `+Client+` `+ClientType+`
        end
        set -e __hookinstall_tty
    end
end
`, task, pty, v, OSC9, TaskPrefix, wraps)
	return b.String()
}

// psInit is init for PowerShell on Windows, where no hook has a tty: it
// sets the task id alone, which Claude Code's hooks answer with its
// terminalSequence, from the rules a Windows terminal sets (no tmux).
func psInit(shell, task, over string) string {
	var b strings.Builder
	b.WriteString(initHeader(shell, "hookinstall init "+shell+" | Out-String | Invoke-Expression", "$PROFILE"))
	fmt.Fprintf(&b, "if ($env:%[2]s -eq 'off') { Remove-Item Env:%[1]s -ErrorAction SilentlyContinue }\n"+
		"elseif (-not [Console]::IsInputRedirected -and (-not $env:%[1]s -or $env:%[1]s -like '%[3]s*')) {\n"+
		"\t$t = switch -exact ($env:%[2]s) {\n", task, over, TaskPrefix)
	for _, n := range Names {
		fmt.Fprintf(&b, "\t\t'%s' { '%s' }\n", n.Name, named(n.Name))
	}
	b.WriteString("\t\tdefault {\n")
	for _, r := range Rules {
		when := "$env:" + r.Var
		if r.Value != "" {
			when += " -like '" + r.Value + "'"
		}
		if !strings.HasPrefix(r.Var, "__") {
			fmt.Fprintf(&b, "\t\t\tif (%s) { '%s'; break }\n", when, named(r.Name))
		}
	}
	fmt.Fprintf(&b, "\t\t\t'%s'\n\t\t}\n\t}\n\t$env:%s = '%s' + $t\n}\n", OSC9, task, TaskPrefix)
	return b.String()
}

// PromptHook is the code that clears, at the shell's next prompt, what an
// agent run from it left (it exited, crashed or was killed): when this
// terminal has a record in dir, 'hookinstall emit clear'. One builtin test
// a prompt; nothing runs while there is no record. self is how init was
// called (a path, or "hookinstall" from PATH), which the hook calls back.
func PromptHook(shell, ns, dir, self string) string {
	rec, run := Quote(shell, dir+"/"+RecordPrefix), " command "+Quote(shell, self)+" --namespace "+ns+" emit clear"
	if shell == "fish" {
		return "function __hookinstall_prompt --on-event fish_prompt\n    test -f " + rec +
			"(string replace -r '.*/' '' -- \"$" + PTYVar(ns) + "\"); and" + run + "\nend\n"
	}
	fn := "__hookinstall_prompt() { [ ! -f " + rec + "\"${" + PTYVar(ns) + "##*/}\" ] ||" + run + "; }\n"
	if shell == "zsh" {
		return fn + "precmd_functions=(${precmd_functions:#__hookinstall_prompt} __hookinstall_prompt)\n"
	}
	return fn + `case ${PROMPT_COMMAND:-} in *__hookinstall_prompt*) ;; *) PROMPT_COMMAND="__hookinstall_prompt${PROMPT_COMMAND:+;$PROMPT_COMMAND}" ;; esac` + "\n"
}

// Quote is s as one word in shell's code, in single quotes (fish escapes
// inside them, bash and zsh end and reopen them).
func Quote(shell, s string) string {
	if shell == "fish" {
		return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
