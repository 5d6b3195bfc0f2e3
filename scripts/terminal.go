package scripts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TerminalJSON returns the line a Claude hook prints for state s in
// terminal t, its progress left out when draws: the sequences, never
// tmux-wrapped (Claude wraps them itself inside tmux, and its allowlist
// refuses a DCS; a plain BEL it writes as it is), as Claude's
// terminalSequence; "" when nothing is left.
func TerminalJSON(t terminal.Terminal, own *terminal.Own, draws bool, product, folder string, s terminal.State) string {
	seqs := terminal.Sequences(t, own, draws, product, folder, s)
	if len(seqs) == 0 {
		return ""
	}
	return `{"terminalSequence":"` + jsonEscape(strings.Join(seqs, "")) + `"}`
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

// An arm is one case of the terminal table: the task ids it takes (shell
// patterns, most specific first), and what it sends, with folderPlaceholder
// for the folder: the progress, which the hook leaves out where the agent
// draws its own, then the rest (for the pty encoded, tmux-wrapped where the
// id says tmux; for Claude's stdout unwrapped).
type arm struct {
	pats           []string
	progress, rest string
}

// table is terminal.Sends, the one decision, for state s over every
// terminal init names, inside tmux and outside: an arm for each terminal
// whose sends differ from its dialect's, one for each dialect whose differ
// from the default's (OSC 9, which also takes ids the scripts do not know),
// then the default; each pattern led by pre ("working/" where the subject
// is "$state/$TASK").
func table(product string, own *terminal.Own, stdout bool, s terminal.State, pre string) []arm {
	type sends struct{ progress, rest string }
	var arms []arm
	add := func(pat string, x sends) { arms = append(arms, arm{[]string{pat}, x.progress, x.rest}) }
	for _, side := range []string{"tmux+", ""} {
		send := func(t terminal.Terminal) sends {
			t.Tmux = side != ""
			p, rest := terminal.Sends(t, own, product, folderPlaceholder, s)
			if stdout {
				return sends{p, strings.Join(rest, "")}
			}
			return sends{string(terminal.Encode(t, []string{p})), string(terminal.Encode(t, rest))}
		}
		id := pre + terminal.TaskPrefix + side
		def := send(terminal.Terminal{Dialect: terminal.OSC9})
		for _, n := range terminal.Names {
			if t, _ := terminal.Parse(n.Name); t.Name != "" && send(t) != send(terminal.Terminal{Dialect: t.Dialect}) {
				add(id+t.String(), send(t))
			}
		}
		for _, d := range terminal.Dialects()[1:] {
			if x := send(terminal.Terminal{Dialect: d}); x != def {
				add(id+string(d)+"*", x)
			}
		}
		if side == "" {
			id = pre
		}
		add(id+"*", def)
	}
	return merge(arms)
}

// merge joins neighbouring arms that send the same (which keeps what every
// subject sends), and drops a pattern that another of the same arm already
// matches: one that is that other's text before its final '*', and more.
func merge(arms []arm) []arm {
	var out []arm
	for _, a := range arms {
		if n := len(out); n > 0 && out[n-1].progress == a.progress && out[n-1].rest == a.rest {
			out[n-1].pats = append(out[n-1].pats, a.pats...)
			continue
		}
		out = append(out, a)
	}
	for i, a := range out {
		out[i].pats = slices.DeleteFunc(slices.Clone(a.pats), func(p string) bool {
			for _, q := range a.pats {
				if pre, ok := strings.CutSuffix(q, "*"); ok && q != p && strings.HasPrefix(p, pre) {
					return true
				}
			}
			return false
		})
	}
	return out
}

// terminalBlock is the terminal branch of a script: the folder when a
// state it sends has a notification; where the agent draws its own
// progress, $o, empty when one of its rules holds; then one case on the
// task id (and $state, for a script whose state depends on the payload),
// an arm of the table (table) per line.
func terminalBlock(spec Spec, states []terminal.State) []string {
	var ls []string
	for _, s := range states {
		if terminal.Notification(s) != "" {
			ls = append(ls, folderLines()...)
			break
		}
	}
	rules := progressLines(spec.Own)
	if len(rules) > 0 {
		ls = append(append(ls, "o=1"), rules...)
		if spec.Transport != Stdout {
			ls = append(ls, "# shellcheck disable=SC2059") // $o's progress leads the format
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
		for _, a := range table(spec.Product, spec.Own, spec.Transport == Stdout, s, pre) {
			line := armLine(a, spec.Transport == Stdout, len(rules) > 0)
			if line != "" {
				line += " "
			}
			ls = append(ls, strings.Join(a.pats, " | ")+") "+line+";;")
		}
	}
	return append(ls, "esac")
}

// armLine is the command that sends what arm a sends: its progress inside
// "${o:+...}" where the agent may draw its own (owned), in the same write
// as the rest; "" when it sends nothing.
func armLine(a arm, stdout, owned bool) string {
	if stdout {
		var b strings.Builder
		parts := strings.Split(jsonEscape(a.rest), jsonEscape(folderPlaceholder))
		p := jsonEscape(a.progress)
		switch {
		case owned && a.rest == "":
			return `[ -z "$o" ] || printf '%s' '{"terminalSequence":"` + p + `"}'`
		case owned:
			b.WriteString(`printf '%s' '{"terminalSequence":"' "${o:+` + p + `}" ` + singleQuote(parts[0]))
		default:
			b.WriteString(`printf '%s' ` + singleQuote(`{"terminalSequence":"`+p+parts[0]))
		}
		for _, part := range parts[1:] {
			b.WriteString(` "$d" ` + singleQuote(part))
		}
		return strings.TrimSuffix(b.String(), "'") + `"}'`
	}
	format, n := printfFormat(a.progress + a.rest)
	if owned {
		p, _ := printfFormat(a.progress)
		format, n = printfFormat(a.rest)
		format = `"${o:+` + strings.Trim(p, "'") + `}"` + format
		format = strings.TrimSuffix(format, "''")
	}
	return "printf " + format + strings.Repeat(` "$d"`, n) + ` 2>/dev/null >"$tty"`
}

// progressLines empty $o where one of own's progress rules holds: one line
// per variable, its values as one pattern list; a rule with no Var holds
// always.
func progressLines(own *terminal.Own) []string {
	if own == nil {
		return nil
	}
	var ls []string
	for i, r := range own.Progress {
		same := func(q terminal.Rule) bool { return q.Var == r.Var && q.Value != "" && r.Value != "" }
		if slices.ContainsFunc(own.Progress[:i], same) {
			continue
		}
		for _, q := range own.Progress[i+1:] {
			if same(q) {
				r.Value += " | " + q.Value
			}
		}
		ls = append(ls, r.Sh("o="))
	}
	return ls
}

// jsTerminal is the JavaScript the opencode, Kilo and Pi plugins share for
// terminal mode: the table of every state (table), and its progress rules,
// so that it sends what the sh hooks send, the folder made safe as
// SafeFolder makes it (byte by byte, from process.cwd()).
func jsTerminal(product string, own *terminal.Own) string {
	js := func(s string) string { return `"` + jsonEscape(s) + `"` }
	var rules, states []string
	if own != nil {
		for _, r := range own.Progress {
			rules = append(rules, "["+js(r.Var)+", "+js(r.Value)+"]")
		}
	}
	for _, s := range terminal.States() {
		var arms []string
		for _, a := range table(product, own, false, s, "") {
			var pats []string
			for _, p := range a.pats {
				pats = append(pats, js(p))
			}
			arms = append(arms, "[["+strings.Join(pats, ", ")+"], "+js(a.progress)+", "+js(a.rest)+"]")
		}
		states = append(states, "  "+string(s)+": [\n    "+strings.Join(arms, ",\n    ")+",\n  ],")
	}
	return `// Set up by hookinstall init or run (a task id starting "` + terminal.TaskPrefix + `"), not
// by a host: the terminal's own language, tab progress and a desktop
// notification naming the agent and the project folder, wrapped for tmux's
// passthrough where init found tmux. Per state, the task ids each sends to
// (a pattern ending in * takes every id it starts), its progress, and the rest.
const TERMINAL = {
` + strings.Join(states, "\n") + `
};
// where the agent draws its own progress (its description's ShowsItself)
const OWN_PROGRESS = [` + strings.Join(rules, ", ") + `];

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

function terminal(task, state) {
  const arm = TERMINAL[state].find(([pats]) => pats.some((p) => (p.endsWith("*") ? task.startsWith(p.slice(0, -1)) : task === p)));
  const draws = OWN_PROGRESS.some(([v, want]) => {
    const got = process.env[v] || "";
    return v === "" || (want === "" ? got !== "" : want.endsWith("*") ? got.startsWith(want.slice(0, -1)) : got === want);
  });
  return (draws ? "" : arm[1]) + arm[2].replaceAll("\u0000", folder());
}`
}
