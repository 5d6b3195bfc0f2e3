package scripts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TerminalJSON returns the line a Claude hook prints for state s in
// terminal t, less what leave says: the sequences, never tmux-wrapped
// (Claude wraps them itself inside tmux, and its allowlist refuses a DCS;
// a plain BEL it writes as it is), as Claude's terminalSequence; "" when
// nothing is left.
func TerminalJSON(t terminal.Terminal, product, folder string, s terminal.State, leave terminal.Leave) string {
	seqs := terminal.Sequences(t, product, folder, string(s), leave)
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

// terminalLine is the command that sends state s in terminal t, less
// what leave says; "" when nothing is left to send.
func terminalLine(spec Spec, t terminal.Terminal, s terminal.State, leave terminal.Leave) string {
	if spec.Transport == Stdout {
		j := TerminalJSON(t, spec.Product, folderPlaceholder, s, leave)
		if j == "" {
			return ""
		}
		parts := strings.Split(j, jsonEscape(folderPlaceholder))
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
	return ptyLine(terminal.Encode(t, terminal.Sequences(t, spec.Product, folderPlaceholder, string(s), leave)))
}

// ptyLine is the command that writes seq to the pty; "" for nothing.
func ptyLine(seq []byte) string {
	if len(seq) == 0 {
		return ""
	}
	f, n := printfFormat(string(seq))
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
// $state, for a script whose state depends on the payload; and $o, "own/"
// when the agent draws its own progress, Own.Progress) with a printf per
// terminal. Where the agent shows a state's notification itself (Own.In),
// the script leaves it out; inside tmux the plain BEL that marks the
// window stays.
func terminalBlock(spec Spec, states []terminal.State) []string {
	var ls []string
	for _, s := range states {
		if terminal.Notification(string(s)) != "" {
			ls = append(ls, folderLines()...)
			break
		}
	}
	own := spec.Own
	if own == nil {
		own = &terminal.Own{}
	}
	subject := "$" + terminal.TaskVar(spec.NS)
	if len(states) > 1 || spec.Rule != Always {
		subject = "$state/" + subject
	}
	// The variants of the arms: where the agent draws its own progress
	// ($o, from its rules), Claude's arms come twice (with $o, without);
	// a pty script chooses the progress once instead ($p), or writes it
	// and is done when its states notify nothing.
	type variant struct {
		pre   string
		leave terminal.Leave
	}
	variants := []variant{{}}
	split := false
	if len(own.Progress) > 0 {
		ls = append(ls, append([]string{"o="}, progressLines(own.Progress)...)...)
		if spec.Transport == Stdout {
			subject = "$o" + subject
			variants = []variant{{"own/", terminal.Leave{Progress: true}}, {}}
		} else {
			quiet := !slices.ContainsFunc(states, func(st terminal.State) bool { return terminal.Notification(string(st)) != "" })
			ls = append(ls, progressCase(subject, states, quiet)...)
			if quiet {
				return ls
			}
			split, variants = true, []variant{{"", terminal.Leave{Progress: true}}}
		}
	}
	var arms []arm
	add := func(pats []string, t terminal.Terminal, s terminal.State, leave terminal.Leave) {
		if len(pats) > 0 {
			arms = append(arms, arm{pats, terminalLine(spec, t, s, leave)})
		}
	}
	for _, s := range states {
		for _, v := range variants {
			pre := v.pre
			if strings.Contains(subject, "$state/") {
				pre += string(s) + "/"
			}
			p := func(ids ...string) []string {
				var ps []string
				for _, id := range ids {
					ps = append(ps, pre+terminal.TaskPrefix+id)
				}
				return ps
			}
			leave, quiet := v.leave, terminal.Leave{Progress: v.leave.Progress, Notification: true}
			// Inside tmux, then outside: where the agent notifies s itself
			// (own.In: a terminal's name, a dialect's, "*"), one arm per
			// other dialect, then the default's, OSC 9, which also takes ids
			// the scripts do not know.
			for _, side := range []string{"tmux+", ""} {
				in := func(n string) bool {
					return slices.Contains(own.Notifies, string(s)) && slices.Contains(own.In, side+n)
				}
				t := terminal.Terminal{Dialect: terminal.OSC9, Tmux: side != ""}
				def := pre + "*"
				if side != "" {
					def = pre + terminal.TaskPrefix + side + "*"
				}
				if in("*") {
					add([]string{def}, t, s, quiet)
					continue
				}
				var mine []string
				for _, n := range own.In {
					n, tm := strings.CutPrefix(n, "tmux+")
					if tm != (side != "") || !in(n) {
						continue
					}
					if c, _ := terminal.Parse(n); c.Name != "" {
						mine = append(mine, p(side+c.String())...)
					} else if c.Dialect != terminal.OSC9 { // OSC 9's is the default's below
						mine = append(mine, p(side+n+"*")...)
					}
				}
				add(mine, t, s, quiet)
				for _, d := range terminal.Dialects()[1:] {
					if !in(string(d)) {
						add(p(side+string(d)+"*"), terminal.Terminal{Dialect: d, Tmux: side != ""}, s, leave)
					}
				}
				if in(string(terminal.OSC9)) {
					add([]string{def}, t, s, quiet)
				} else {
					add([]string{def}, t, s, leave)
				}
			}
		}
	}
	if split {
		// $p leads each format (no '%' is in a progress): one write
		ls = append(ls, "# shellcheck disable=SC2059")
		for i := range arms {
			if arms[i].line == "" {
				arms[i].line = `printf "$p" 2>/dev/null >"$tty"`
			}
			arms[i].line = strings.Replace(arms[i].line, "printf '", `printf "$p"'`, 1)
		}
	}
	ls = append(ls, "case "+subject+" in")
	for _, a := range merge(arms) {
		if a.line != "" {
			a.line += " "
		}
		ls = append(ls, strings.Join(a.pats, " | ")+") "+a.line+";;")
	}
	return append(ls, "esac")
}

// progressLines set $o to "own/" where one of rules holds: one line per
// variable, its values as one pattern list.
func progressLines(rules []terminal.Rule) []string {
	var ls []string
	for i, r := range rules {
		same := func(q terminal.Rule) bool { return q.Var == r.Var && q.Value != "" && r.Value != "" }
		if slices.ContainsFunc(rules[:i], same) {
			continue
		}
		for _, q := range rules[i+1:] {
			if same(q) {
				r.Value += " | " + q.Value
			}
		}
		ls = append(ls, r.Sh("o=own/"))
	}
	return ls
}

// progressCase is a pty script's case that chooses each state's progress
// ($p) unless the agent draws its own ($o); when quiet (no state notifies)
// it writes the progress itself.
func progressCase(subject string, states []terminal.State, quiet bool) []string {
	var ls []string
	if !quiet {
		ls = append(ls, "p=")
	}
	ls = append(ls, `[ -n "$o" ] || case `+subject+" in")
	for _, st := range states {
		pre := ""
		if strings.HasPrefix(subject, "$state/") {
			pre = string(st) + "/"
		}
		for _, t := range []terminal.Terminal{{Dialect: terminal.OSC9, Tmux: true}, {Dialect: terminal.OSC9}} {
			pat := pre + "*"
			if t.Tmux {
				pat = pre + terminal.TaskPrefix + "tmux+*"
			}
			seq := terminal.Encode(t, []string{terminal.Progress(string(st))})
			if f, _ := printfFormat(string(seq)); quiet {
				ls = append(ls, pat+") "+ptyLine(seq)+" ;;")
			} else {
				ls = append(ls, pat+") p="+f+" ;;")
			}
		}
	}
	return append(ls, "esac")
}

// An arm is one case of a script's terminal branch: its patterns and its
// command ("" for none).
type arm struct {
	pats []string
	line string
}

// merge joins neighbouring arms that run the same command (which keeps
// what every subject runs), and drops a pattern that another of the same
// arm already matches: one that is that other's text before its final '*',
// and more.
func merge(arms []arm) []arm {
	var out []arm
	for _, a := range arms {
		if n := len(out); n > 0 && out[n-1].line == a.line {
			out[n-1].pats = append(out[n-1].pats, a.pats...)
			continue
		}
		out = append(out, arm{slices.Clone(a.pats), a.line})
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

// jsTerminal is the JavaScript the opencode, Kilo and Pi plugins share for
// terminal mode: the same bytes as TerminalBytes, the folder made safe as
// SafeFolder makes it (byte by byte, from process.cwd()).
func jsTerminal(product string, own *terminal.Own) string {
	js := func(s string) string { return `"` + jsonEscape(s) + `"` }
	jsList := func(ss []string) string {
		var q []string
		for _, s := range ss {
			q = append(q, js(s))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	if own == nil {
		own = &terminal.Own{}
	}
	var rules []string
	for _, r := range own.Progress {
		rules = append(rules, jsList([]string{r.Var, r.Value}))
	}
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
const SAYS = { attention: ` + js(terminal.Notification(string(terminal.Attention))) + `, done: ` + js(terminal.Notification(string(terminal.Done))) + ` };
const OWN = { notifies: ` + jsList(own.Notifies) + `, in: ` + jsList(own.In) + `, progress: [` + strings.Join(rules, ", ") + `] };

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
  let [dialect, name] = (tmux ? t.slice(5) : t).split(":");
  if (!FORMS[dialect]) dialect = "osc9";
  // what the agent shows by itself here (its description's ShowsItself)
  const ownProgress = OWN.progress.some(([v, want]) => {
    const got = process.env[v] || "";
    return v === "" || (want === "" ? got !== "" : want.endsWith("*") ? got.startsWith(want.slice(0, -1)) : got === want);
  });
  const ownNotify = OWN.notifies.includes(state) && ["*", dialect, name].some((n) => n && OWN.in.includes((tmux ? "tmux+" : "") + n));
  const seqs = ownProgress ? [] : [PROGRESS[state]];
  const says = SAYS[state];
  let bell = "";
  if (says) {
    const tail = says + ` + js(terminal.Separator) + ` + folder();
    const [open, join] = FORMS[dialect];
    if (open && !ownNotify) seqs.push(open + PRODUCT + join + tail + "\u0007");
    // the bell dialect's BEL, and inside tmux every notification's: plain,
    // so that tmux marks the window in its window list
    if ((!open && !ownNotify) || tmux) bell = "\u0007";
  }
  return seqs.map((s) => (tmux ? "\u001bPtmux;" + s.replaceAll("\u001b", "\u001b\u001b") + "\u001b\\" : s)).join("") + bell;
}`
}
