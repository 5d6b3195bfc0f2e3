package scripts

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TerminalJSON returns the line a Claude hook prints for state s in
// terminal t, its progress left out when draws: the sequences its
// terminalSequence carries (stdoutCarries), never tmux-wrapped (Claude
// wraps them itself inside tmux, and its allowlist refuses a DCS; a plain
// BEL it writes as it is); "" when nothing is left.
func TerminalJSON(t terminal.Terminal, a terminal.Agent, draws bool, folder, key string, s terminal.State) string {
	var seqs []string
	for _, q := range terminal.Sequences(t, a, draws, folder, key, s) {
		if stdoutCarries(q) {
			seqs = append(seqs, q)
		}
	}
	if len(seqs) == 0 {
		return ""
	}
	return `{"terminalSequence":"` + jsonEscape(strings.Join(seqs, "")) + `"}`
}

// stdoutCarries reports whether Claude Code's terminalSequence carries
// seq: OSC 0, 1, 2, 9 (9;4 too), 99 and 777, and BEL (2.1.332's
// allowlist); the rest (OSC 7501, 21337) goes to the pty.
func stdoutCarries(seq string) bool {
	ps, _, _ := strings.Cut(strings.TrimPrefix(seq, "\x1b]"), ";")
	return seq == "\x07" || slices.Contains([]string{"0", "1", "2", "9", "99", "777"}, ps)
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

// The placeholders stand for what the hook knows only when it runs, while
// a sequence becomes a printf format or JSON parts: bytes no sequence
// holds. Each becomes its variable.
const (
	folderPlaceholder = "\x00" // $d, the project folder (SafeFolder)
	keyPlaceholder    = "\x01" // $k, the pty's name: one agent session's
)

// placeholderArg is the sh word of each placeholder.
var placeholderArg = map[byte]string{0: `"$d"`, 1: `"$k"`}

// printfFormat writes s as a single-quoted printf format: the escape and
// bell as \033 and \007, other control and non-ASCII bytes and '\' in
// octal, '%' doubled, and each placeholder as %s. It returns the sh words
// of the placeholders, in order.
func printfFormat(s string) (string, []string) {
	var b strings.Builder
	var args []string
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= 1:
			b.WriteString("%s")
			args = append(args, placeholderArg[c])
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
	return b.String(), args
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
// patterns, most specific first), and what it sends, with placeholders for
// what the hook knows when it runs: the progress, which the hook leaves out
// where the agent draws its own, then the rest (for the pty encoded,
// tmux-wrapped where the id says tmux; for Claude's stdout unwrapped, and
// pty what its terminalSequence does not carry, encoded for the pty).
type arm struct {
	pats                []string
	progress, rest, pty string
}

// sends is what an arm sends.
func (a arm) sends() [3]string { return [3]string{a.progress, a.rest, a.pty} }

// table is terminal.Sends, the one decision, for state s over every
// terminal init names, inside tmux and outside: an arm for each terminal
// whose sends differ from its dialect's, one for each dialect whose differ
// from the default's (OSC 9, which also takes ids the scripts do not know),
// then the default; each pattern led by pre ("working/" where the subject
// is "$state/$TASK").
func table(a terminal.Agent, key string, stdout bool, s terminal.State, pre string) []arm {
	var arms []arm
	for _, side := range []string{"tmux+", ""} {
		send := func(t terminal.Terminal) arm {
			t.Tmux = side != ""
			p, rest := terminal.Sends(t, a, folderPlaceholder, key, s)
			if !stdout {
				return arm{progress: string(terminal.Encode(t, []string{p})), rest: string(terminal.Encode(t, rest))}
			}
			var out, pty []string
			for _, q := range rest {
				if stdoutCarries(q) {
					out = append(out, q)
				} else {
					pty = append(pty, q)
				}
			}
			return arm{progress: p, rest: strings.Join(out, ""), pty: string(terminal.Encode(t, pty))}
		}
		add := func(pat string, x arm) { x.pats = []string{pat}; arms = append(arms, x) }
		id := pre + terminal.TaskPrefix + side
		def := send(terminal.Terminal{Dialect: terminal.OSC9})
		for _, n := range terminal.Names {
			if t, _ := terminal.Parse(n.Name); t.Name != "" && send(t).sends() != send(terminal.Terminal{Dialect: t.Dialect}).sends() {
				add(id+t.String(), send(t))
			}
		}
		for _, d := range terminal.Dialects()[1:] {
			if x := send(terminal.Terminal{Dialect: d}); x.sends() != def.sends() {
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
		if n := len(out); n > 0 && out[n-1].sends() == a.sends() {
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

// agent is the decision's view of the spec's agent: a clone's base's id
// (what 7501 and Warp name), and the key of its session in the tab, its id
// and the pty's name ($k).
func (spec Spec) agent() (terminal.Agent, string) {
	return terminal.Agent{ID: cmp.Or(spec.Base, spec.Agent), Product: spec.Product, Own: spec.Own}, spec.Agent + "-" + keyPlaceholder
}

// terminalBlock is the terminal branch of a script: the folder ($d), the
// pty ($tty, Claude's too) and its name ($k); where the agent draws its own
// progress, $o, empty when one of its rules holds; then one case on the
// task id (and $state, for a script whose state depends on the payload),
// an arm of the table (table) per line; then the session's record
// (recordLines).
func terminalBlock(spec Spec, states []terminal.State) []string {
	a, key := spec.agent()
	stdout := spec.Transport == Stdout
	ls := folderLines()
	if stdout { // what its terminalSequence does not carry, and the record
		ls = append(ls, "tty=${"+terminal.PTYVar(spec.NS)+":-}")
	}
	ls = append(ls, "k=${tty##*/}")
	rules := progressLines(spec.Own)
	if len(rules) > 0 {
		ls = append(append(ls, "o=1"), rules...)
		if !stdout {
			ls = append(ls, "# shellcheck disable=SC2059") // $o's progress leads the format
		}
	}
	subject, state := "$"+terminal.TaskVar(spec.NS), "'"+string(states[0])+"'"
	if len(states) > 1 || spec.Rule != Always {
		subject, state = "$state/"+subject, `"$state"`
	}
	ls = append(ls, "case "+subject+" in")
	for _, s := range states {
		for _, x := range table(a, key, stdout, s, "") {
			if state == `"$state"` {
				for j := range x.pats {
					x.pats[j] = string(s) + "/" + x.pats[j]
				}
			}
			line := armLine(x, stdout, len(rules) > 0)
			if line != "" {
				line += " "
			}
			ls = append(ls, strings.Join(x.pats, " | ")+") "+line+";;")
		}
	}
	return append(append(ls, "esac"), recordLines(spec, state)...)
}

// recordLines keep the session's record (terminal.RecordDir: one file per
// agent and pty, the state first, written whole through a rename) and,
// inside tmux, the pane's option; where the state is the record's already,
// nothing, so the file's time is when it began. A folder that is not the
// user's, or that others may write to (asked only before a write), gets
// no record. The agent's process is the
// hook's parent, or its parent's where that is a shell that ran the hook
// (read from /proc where there is one).
func recordLines(spec Spec, state string) []string {
	ns := spec.NS
	return []string{
		"u=${USER:-${LOGNAME:-}}",
		"r=${TMPDIR:-/tmp}/" + ns + "-$u",
		"[ -z \"${XDG_RUNTIME_DIR:-}\" ] || r=$XDG_RUNTIME_DIR/" + ns + " u=1",
		"[ -z \"$u\" ] || [ -d \"$r\" ] || mkdir -m 700 \"$r\" 2>/dev/null",
		"[ -n \"$u\" ] && [ -d \"$r\" ] && [ ! -h \"$r\" ] && [ -O \"$r\" ] || exit 0",
		"f=$r/" + spec.Agent + "-$k l=",
		"[ ! -f \"$f\" ] || IFS= read -r l <\"$f\"",
		"if [ \"$l\" != state=" + state + " ]; then",
		"\tfind \"$r\" -prune \\( -perm -020 -o -perm -002 \\) -exec false {} + 2>/dev/null || exit 0",
		"\ta=$PPID s=",
		"\t[ ! -r \"/proc/$a/stat\" ] || IFS= read -r s <\"/proc/$a/stat\"",
		"\tcase $s in *'(sh) '* | *'(dash) '* | *'(bash) '* | *'(zsh) '*) s=${s##*) } && a=${s#* } && a=${a%% *} ;; esac",
		"\ts=",
		"\t[ -z \"${SSH_CONNECTION:-}\" ] || s=1",
		"\tprintf '" + strings.Join(terminal.RecordFields, "=%s\\n") + "=%s\\n' " + state + " " + spec.Agent + " \"$d\" \"$tty\" \"${TMUX_PANE:-}\" \"$s\" \"$a\" 2>/dev/null >\"$f.$$\" && mv -f \"$f.$$\" \"$f\" 2>/dev/null",
		"fi",
		"[ -z \"${TMUX_PANE:-}\" ] || tmux set-option -pq -t \"$TMUX_PANE\" " + terminal.PaneOption(ns) + " " + state + " >/dev/null 2>&1",
	}
}

// armLine is the command that sends what arm a sends: its progress inside
// "${o:+...}" where the agent may draw its own (owned), in the same write
// as the rest; for Claude's stdout, the JSON line and, first, to the pty,
// what that does not carry; "" when it sends nothing.
func armLine(a arm, stdout, owned bool) string {
	if !stdout {
		format, args := printfFormat(a.progress + a.rest)
		if owned {
			p, _ := printfFormat(a.progress)
			format, args = printfFormat(a.rest)
			format = strings.TrimSuffix(`"${o:+`+strings.Trim(p, "'")+`}"`+format, "''")
		}
		return "printf " + format + argWords(args) + ` 2>/dev/null >"$tty"`
	}
	var line string
	if a.pty != "" {
		format, args := printfFormat(a.pty)
		line = `[ ! -c "$tty" ] || printf ` + format + argWords(args) + ` 2>/dev/null >"$tty"; `
	}
	json, words := `{"terminalSequence":"`+jsonEscape(a.progress+a.rest)+`"}`, placeholderWords()
	switch {
	case owned && a.rest == "":
		return line + `[ -z "$o" ] || printf '%s' ` + shWords(json, words)
	case owned: // the progress is "${o:+...}"
		json = `{"terminalSequence":"\u0002` + jsonEscape(a.rest) + `"}`
		words[`\u0002`] = `"${o:+` + jsonEscape(a.progress) + `}"`
	}
	return line + `printf '%s' ` + shWords(json, words)
}

// argWords are printf's arguments after its format.
func argWords(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return " " + strings.Join(args, " ")
}

// placeholderWords are the sh words of the placeholders JSON-escaped.
func placeholderWords() map[string]string {
	return map[string]string{jsonEscape(folderPlaceholder): placeholderArg[0], jsonEscape(keyPlaceholder): placeholderArg[1]}
}

// shWords writes s as sh words: its text single-quoted, each of words'
// keys in it its word.
func shWords(s string, words map[string]string) string {
	var ws []string
	for {
		at, key := len(s), ""
		for k := range words {
			if i := strings.Index(s, k); i >= 0 && i < at {
				at, key = i, k
			}
		}
		if at > 0 {
			ws = append(ws, singleQuote(s[:at]))
		}
		if key == "" {
			return strings.Join(ws, " ")
		}
		ws = append(ws, words[key])
		s = s[at+len(key):]
	}
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
func jsTerminal(in Install, a terminal.Agent) string {
	a.ID = cmp.Or(in.Base, in.Agent)
	js := func(s string) string { return `"` + jsonEscape(s) + `"` }
	var rules, states []string
	if a.Own != nil {
		for _, r := range a.Own.Progress {
			rules = append(rules, "["+js(r.Var)+", "+js(r.Value)+"]")
		}
	}
	for _, s := range terminal.States() {
		var arms []string
		for _, x := range table(a, in.Agent+"-"+keyPlaceholder, false, s, "") {
			var pats []string
			for _, p := range x.pats {
				pats = append(pats, js(p))
			}
			arms = append(arms, "[["+strings.Join(pats, ", ")+"], "+js(x.progress)+", "+js(x.rest)+"]")
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
const NS = ` + js(in.NS) + `, AGENT = ` + js(in.Agent) + `, PANE_OPTION = ` + js(terminal.PaneOption(in.NS)) + `;
const FIELDS = ` + js(strings.Join(terminal.RecordFields, " ")) + `.split(" ");

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

// record keeps the session's record for hookinstall ls (one file per
// agent and pty, the state first, written whole through a rename; nothing
// where the state is the record's already) and, inside tmux, the pane's
// option, as the sh hooks do; in a folder of the user's alone.
function record(state, pty) {
  try {
    const env = process.env;
    const user = env.USER || env.LOGNAME || "";
    const dir = env.XDG_RUNTIME_DIR ? env.XDG_RUNTIME_DIR + "/" + NS : user && (env.TMPDIR || "/tmp") + "/" + NS + "-" + user;
    if (!dir) return;
    try {
      fs.mkdirSync(dir, 0o700);
    } catch {}
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid() || st.mode & 0o022) return;
    const f = dir + "/" + AGENT + "-" + pty.slice(pty.lastIndexOf("/") + 1);
    let first = "";
    try {
      first = fs.readFileSync(f, "utf8").split("\n")[0];
    } catch {}
    if (first !== "state=" + state) {
      const values = [state, AGENT, folder(), pty, env.TMUX_PANE || "", env.SSH_CONNECTION ? "1" : "", String(process.pid)];
      fs.writeFileSync(f + "." + process.pid, FIELDS.map((k, i) => k + "=" + values[i] + "\n").join(""));
      fs.renameSync(f + "." + process.pid, f);
    }
    if (env.TMUX_PANE) spawn("tmux", ["set-option", "-pq", "-t", env.TMUX_PANE, PANE_OPTION, state], { stdio: "ignore", detached: true }).unref();
  } catch {}
}

// pty is the pty's path: its name tells this agent session from others.
function terminal(task, state, pty) {
  record(state, pty);
  const arm = TERMINAL[state].find(([pats]) => pats.some((p) => (p.endsWith("*") ? task.startsWith(p.slice(0, -1)) : task === p)));
  const draws = OWN_PROGRESS.some(([v, want]) => {
    const got = process.env[v] || "";
    return v === "" || (want === "" ? got !== "" : want.endsWith("*") ? got.startsWith(want.slice(0, -1)) : got === want);
  });
  return ((draws ? "" : arm[1]) + arm[2]).replaceAll("\u0000", folder()).replaceAll("\u0001", pty.slice(pty.lastIndexOf("/") + 1));
}`
}
