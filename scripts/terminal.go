package scripts

import (
	"fmt"
	"strings"

	"github.com/hookinstall/hookinstall/terminal"
)

// TerminalJSON returns the line a Claude hook prints for state s in
// terminal t: the sequences, never tmux-wrapped (Claude wraps them itself
// inside tmux, and its allowlist refuses a DCS), as Claude's
// terminalSequence.
func TerminalJSON(t terminal.Terminal, product, folder string, s State) string {
	return `{"terminalSequence":"` + jsonEscape(strings.Join(terminal.Sequences(t, product, folder, string(s)), "")) + `"}`
}

// jsonEscape writes s as the inside of a JSON string in ASCII: control
// bytes and non-ASCII characters as \uXXXX.
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// folderPlaceholder stands for the folder while a sequence becomes a printf
// format or JSON parts: a byte no sequence holds.
const folderPlaceholder = "\x00"

// printfFormat writes s as a single-quoted printf format: the escape and
// bell as \033 and \007, other control and non-ASCII bytes and '\' in
// octal, '%' doubled, and each folderPlaceholder as %s. It returns the number
// of %s.
func printfFormat(s string) (string, int) {
	var b strings.Builder
	n := 0
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0:
			b.WriteString("%s")
			n++
		case c == '%':
			b.WriteString("%%")
		case c == '\\':
			b.WriteString(`\134`) // not \\, which shellcheck reads as an escaped quote before '
		case c == '\'':
			b.WriteString(`'\''`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String(), n
}

// singleQuote writes s in single quotes for sh.
func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// terminalLine is the command that sends state s in terminal t.
func terminalLine(spec Spec, t terminal.Terminal, s State) string {
	if spec.Transport == Stdout {
		parts := strings.Split(TerminalJSON(t, spec.Product, folderPlaceholder, s), jsonEscape(folderPlaceholder))
		var b strings.Builder
		b.WriteString("printf '%s'")
		for i, p := range parts {
			if i > 0 {
				b.WriteString(` "$d"`)
			}
			b.WriteString(" " + singleQuote(p))
		}
		return b.String()
	}
	f, n := printfFormat(string(terminal.Bytes(t, spec.Product, folderPlaceholder, string(s))))
	return "printf " + f + strings.Repeat(` "$d"`, n) + ` 2>/dev/null >"$tty"`
}

// folderLines compute $d, the project folder made safe (SafeFolder), with
// builtins; LC_ALL=C makes every shell match bytes, as dash does.
func folderLines() []string {
	set := strings.ReplaceAll(terminal.FolderSafe, " ", `\ `)
	long := strings.Repeat("?", terminal.FolderMax)
	return []string{
		"LC_ALL=C",
		"d=${PWD##*/}",
		"case $d in",
		"'') d=/ ;;",
		"*[!" + set + "]*)",
		"\tr=$d d=",
		"\twhile [ -n \"$r\" ]; do",
		"\t\tc=${r%\"${r#?}\"}",
		"\t\tr=${r#?}",
		"\t\tcase $c in [!" + set + "]) c=_ ;; esac",
		"\t\td=$d$c",
		"\tdone",
		"\t;;",
		"esac",
		"case $d in " + long + "?*) r=${d#" + long + "}; d=${d%\"$r\"} ;; esac",
	}
}

// terminalBlock is the terminal branch of a script: the folder when a
// state it sends has a notification, then one case on the task id (and
// $state, for a script whose state depends on the payload) with a printf
// per terminal.
func terminalBlock(spec Spec, states []State) []string {
	var ls []string
	for _, s := range states {
		if terminal.Notification(string(s)) != "" {
			ls = append(ls, folderLines()...)
			break
		}
	}
	subject := "$" + terminal.TaskVar(spec.NS)
	if len(states) > 1 || spec.Rule != Always {
		subject = "$state/" + subject
	}
	ls = append(ls, "case "+subject+" in")
	for _, s := range states {
		pre := ""
		if strings.HasPrefix(subject, "$state/") {
			pre = string(s) + "/"
		}
		type arm struct {
			pat string
			t   terminal.Terminal
		}
		p := func(t string) string { return pre + terminal.TaskPrefix + t }
		// One arm per dialect (tmux's first, for a pty), then the
		// default's, OSC 9, which also takes ids the scripts do not know.
		var arms, bare []arm
		switch {
		case spec.Transport == Stdout && terminal.Notification(string(s)) == "":
		case spec.Transport == Stdout:
			for _, d := range terminal.Dialects()[1:] {
				arms = append(arms, arm{p(string(d)) + " | " + p("tmux+"+string(d)), terminal.Terminal{Dialect: d}})
			}
		case terminal.Notification(string(s)) == "":
			arms = []arm{{p("tmux+*"), terminal.Terminal{Dialect: terminal.OSC9, Tmux: true}}}
		default:
			for _, d := range terminal.Dialects()[1:] {
				arms = append(arms, arm{p("tmux+" + string(d)), terminal.Terminal{Dialect: d, Tmux: true}})
				bare = append(bare, arm{p(string(d)), terminal.Terminal{Dialect: d}})
			}
			arms = append(arms, arm{p("tmux+*"), terminal.Terminal{Dialect: terminal.OSC9, Tmux: true}})
		}
		for _, a := range append(append(arms, bare...), arm{pre + "*", terminal.Terminal{Dialect: terminal.OSC9}}) {
			ls = append(ls, a.pat+") "+terminalLine(spec, a.t, s)+" ;;")
		}
	}
	return append(ls, "esac")
}

// jsTerminal is the JavaScript the opencode, Kilo and Pi plugins share for
// terminal mode: the same bytes as TerminalBytes, the folder made safe as
// SafeFolder makes it (byte by byte, from process.cwd()).
func jsTerminal(product string) string {
	js := func(s string) string { return `"` + jsonEscape(s) + `"` }
	var forms []string
	for _, f := range terminal.Forms {
		forms = append(forms, js(string(f.Dialect))+": ["+js(f.Open)+", "+js(f.Join)+"]")
	}
	jsForms := strings.Join(forms, ", ")
	return `// Set up by hookinstall init or run (a task id starting "` + terminal.TaskPrefix + `"), not
// by a host: the terminal's own language, tab progress and a desktop
// notification naming the agent and the project folder, wrapped for tmux's
// passthrough where init found tmux.
const PRODUCT = ` + js(product) + `;
const FORMS = {` + jsForms + `};
const PROGRESS = { working: ` + js(terminal.Progress("working")) + `, attention: ` + js(terminal.Progress("attention")) + `, done: ` + js(terminal.Progress("done")) + `, interrupted: ` + js(terminal.Progress("done")) + ` };
const SAYS = { attention: ` + js(terminal.Notification(string(Attention))) + `, done: ` + js(terminal.Notification(string(Done))) + ` };

function folder() {
  let name = "";
  try {
    const cwd = process.cwd();
    name = cwd.slice(cwd.lastIndexOf("/") + 1);
  } catch {}
  if (!name) return "/";
  const safe = ` + js(terminal.FolderSafe) + `;
  let out = "";
  for (const b of Buffer.from(name, "utf8")) {
    const c = String.fromCharCode(b);
    out += safe.includes(c) ? c : "_";
  }
  return out.slice(0, ` + fmt.Sprint(terminal.FolderMax) + `);
}

function terminal(t, state) {
  const tmux = t.startsWith("tmux+");
  const dialect = tmux ? t.slice(5) : t;
  const seqs = [PROGRESS[state]];
  const says = SAYS[state];
  let bell = "";
  if (says) {
    const tail = says + ` + js(terminal.Separator) + ` + folder();
    const [open, join] = FORMS[dialect] || FORMS.osc9;
    if (open) seqs.push(open + PRODUCT + join + tail + "\u0007");
    // the bell dialect's BEL, and inside tmux every notification's: plain,
    // so that tmux marks the window in its window list
    if (!open || tmux) bell = "\u0007";
  }
  return seqs.map((s) => (tmux ? "\u001bPtmux;" + s.replaceAll("\u001b", "\u001b\u001b") + "\u001b\\" : s)).join("") + bell;
}`
}
