package scripts

import (
	"fmt"
	"strings"
)

// A Dialect is how a terminal is asked for a desktop notification.
type Dialect string

// The dialects. Every one of them also gets tab progress as OSC 9;4.
const (
	// OSC9 is ESC ] 9 ; TEXT BEL (iTerm2, WezTerm, Ghostty, kitty, foot).
	OSC9 Dialect = "osc9"
	// OSC777 is ESC ] 777 ; notify ; TITLE ; BODY BEL (Ghostty, WezTerm,
	// foot, kitty, urxvt's notify extension, Windows Terminal with
	// compatibility.allowOSC777).
	OSC777 Dialect = "osc777"
	// OSC99 is kitty's ESC ] 99 ; ; TITLE BEL (kitty, foot).
	OSC99 Dialect = "osc99"
)

// Dialects lists every dialect in a fixed order.
func Dialects() []Dialect { return []Dialect{OSC9, OSC777, OSC99} }

// A Terminal is what the hooks speak when no host set them up but `init`
// or `run` did: a notification dialect, wrapped for tmux's passthrough
// when the shell runs inside tmux.
type Terminal struct {
	Dialect Dialect
	Tmux    bool
}

// TaskPrefix starts the <NS>_TASK_ID that `init` and `run` set: a task id
// that starts with it selects the terminal's language instead of the host
// protocol, and says the id was not set by a host (so `init` may set it
// again in a nested shell).
const TaskPrefix = "terminal:"

// String is the terminal as written in <NS>_TERMINAL and after TaskPrefix:
// "osc777", "tmux+osc9".
func (t Terminal) String() string {
	if t.Tmux {
		return "tmux+" + string(t.Dialect)
	}
	return string(t.Dialect)
}

// TaskID is the <NS>_TASK_ID value that selects t: "terminal:tmux+osc9".
func (t Terminal) TaskID() string { return TaskPrefix + t.String() }

// ParseTerminal reads a terminal as String writes it.
func ParseTerminal(s string) (Terminal, error) {
	var t Terminal
	rest, tmux := strings.CutPrefix(s, "tmux+")
	t.Tmux = tmux
	for _, d := range Dialects() {
		if rest == string(d) {
			t.Dialect = d
			return t, nil
		}
	}
	return Terminal{}, fmt.Errorf("unknown terminal %q: want osc9, osc777 or osc99, optionally prefixed tmux+", s)
}

// TerminalFromTask returns the terminal a task id selects, and false when
// the id is a host's (or empty).
func TerminalFromTask(id string) (Terminal, bool) {
	rest, ok := strings.CutPrefix(id, TaskPrefix)
	if !ok {
		return Terminal{}, false
	}
	t, err := ParseTerminal(rest)
	if err != nil {
		// What the scripts do with a value they do not know: OSC 9.
		t = Terminal{Dialect: OSC9, Tmux: strings.HasPrefix(rest, "tmux+")}
	}
	return t, true
}

// A DetectRule picks a dialect when an environment variable is set (Value
// "") or holds a value (a shell pattern: "foot*").
type DetectRule struct {
	Var, Value string
	Dialect    Dialect
	Why        string // the terminal, for docs and doctor
}

// DetectRules are checked in order; the first that matches wins, and OSC 9
// is the rest's. Inside tmux TERM_PROGRAM and TERM name tmux, so the
// variables a terminal sets for its own panes (which tmux passes on) come
// first. Over ssh only TERM (and LC_*) arrive.
var DetectRules = []DetectRule{
	{"KITTY_WINDOW_ID", "", OSC99, "kitty"},
	{"TERM", "xterm-kitty", OSC99, "kitty (over ssh)"},
	{"GHOSTTY_RESOURCES_DIR", "", OSC777, "Ghostty"},
	{"TERM_PROGRAM", "ghostty", OSC777, "Ghostty"},
	{"TERM", "xterm-ghostty", OSC777, "Ghostty (over ssh)"},
	{"WT_SESSION", "", OSC777, "Windows Terminal (shows it with compatibility.allowOSC777 on)"},
	{"WEZTERM_PANE", "", OSC777, "WezTerm"},
	{"TERM_PROGRAM", "WezTerm", OSC777, "WezTerm"},
	{"TERM", "foot*", OSC777, "foot"},
	{"TERM", "rxvt*", OSC777, "urxvt (with its notify extension)"},
	{"TERM_PROGRAM", "WarpTerminal", OSC777, "Warp"},
	{"ITERM_SESSION_ID", "", OSC9, "iTerm2"},
	{"LC_TERMINAL", "iTerm2", OSC9, "iTerm2 (over ssh)"},
}

// match is a tiny shell-pattern match: an exact value, or a prefix ending
// in '*'.
func (r DetectRule) match(v string) bool {
	if r.Value == "" {
		return v != ""
	}
	if p, ok := strings.CutSuffix(r.Value, "*"); ok {
		return strings.HasPrefix(v, p)
	}
	return v == r.Value
}

// DetectTerminal picks the terminal for an environment: <NS>_TERMINAL when
// it holds a terminal, else the first DetectRules match, else OSC 9; tmux
// wrapping when TMUX is set. rule is the rule that matched, nil for the
// override or the default.
func DetectTerminal(ns string, getenv func(string) string) (t Terminal, rule *DetectRule) {
	if o, err := ParseTerminal(getenv(TerminalVar(ns))); err == nil {
		if getenv("TMUX") != "" {
			o.Tmux = true
		}
		return o, nil
	}
	t = Terminal{Dialect: OSC9, Tmux: getenv("TMUX") != ""}
	for i, r := range DetectRules {
		if r.match(getenv(r.Var)) {
			t.Dialect = r.Dialect
			return t, &DetectRules[i]
		}
	}
	return t, nil
}

// TerminalVar is the override `init` and `run` read: a terminal as
// Terminal.String writes it, or "off".
func TerminalVar(ns string) string { return EnvPrefix(ns) + "_TERMINAL" }

// The OSC 9;4 progress sequences.
const (
	progressBusy   = "\x1b]9;4;3\x07"     // indeterminate
	progressPaused = "\x1b]9;4;4;100\x07" // paused (a full bar, in the warning colour)
	progressClear  = "\x1b]9;4;0\x07"
)

// notification is what a state says in a desktop notification, after the
// agent's name; "" for the states that notify nothing.
func (s State) notification() string {
	switch s {
	case Attention:
		return "needs your input"
	case Done:
		return "is done"
	}
	return ""
}

// Separator stands between the agent's words and the project folder:
// " · " (U+00B7).
const Separator = " \u00b7 "

// notify is the notification sequence of a dialect.
func notify(d Dialect, product, text, folder string) string {
	switch d {
	case OSC777:
		return "\x1b]777;notify;" + product + ";" + text + Separator + folder + "\x07"
	case OSC99:
		return "\x1b]99;;" + product + " " + text + Separator + folder + "\x07"
	}
	return "\x1b]9;" + product + " " + text + Separator + folder + "\x07"
}

// TerminalSequences returns what a hook sends for state s in terminal t,
// unwrapped (no tmux passthrough): progress, then the notification when
// the state has one. folder must already be safe (SafeFolder).
func TerminalSequences(t Terminal, product, folder string, s State) []string {
	var seqs []string
	switch s {
	case Working:
		seqs = append(seqs, progressBusy)
	case Attention:
		seqs = append(seqs, progressPaused)
	default:
		seqs = append(seqs, progressClear)
	}
	if n := s.notification(); n != "" {
		seqs = append(seqs, notify(t.Dialect, product, n, folder))
	}
	return seqs
}

// TmuxWrap wraps one sequence in tmux's DCS passthrough: ESC P tmux ;
// the sequence with every ESC doubled, ESC \.
func TmuxWrap(seq string) string {
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}

// TerminalBytes returns the exact bytes a PTY hook writes for state s in
// terminal t: TerminalSequences, each wrapped for tmux when t.Tmux.
func TerminalBytes(t Terminal, product, folder string, s State) []byte {
	var b strings.Builder
	for _, q := range TerminalSequences(t, product, folder, s) {
		if t.Tmux {
			q = TmuxWrap(q)
		}
		b.WriteString(q)
	}
	return []byte(b.String())
}

// TerminalJSON returns the line a Claude hook prints for state s in
// terminal t: the sequences, never tmux-wrapped (Claude wraps them itself
// inside tmux, and its allowlist refuses a DCS), as Claude's
// terminalSequence.
func TerminalJSON(t Terminal, product, folder string, s State) string {
	return `{"terminalSequence":"` + jsonEscape(strings.Join(TerminalSequences(t, product, folder, s), "")) + `"}`
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

// FolderMax bounds a folder name in a notification, in bytes.
const FolderMax = 32

// folderSafe are the bytes a folder name keeps; every other byte becomes
// '_'. None is a control byte, ';', '"' or '\', so the name can split
// no sequence, end none, and needs no escape in JSON.
const folderSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+@,=~ -"

// SafeFolder is the last element of dir as the hooks put it in a
// notification: every byte outside folderSafe (control bytes, ';', quotes,
// and each byte of a non-ASCII character) becomes '_', then it is cut to
// FolderMax bytes; "/" for the root. The scripts compute the same from
// $PWD with builtins.
func SafeFolder(dir string) string {
	name := dir[strings.LastIndexByte(dir, '/')+1:]
	if name == "" {
		return "/"
	}
	b := []byte(name)
	for i, c := range b {
		if strings.IndexByte(folderSafe, c) < 0 {
			b[i] = '_'
		}
	}
	if len(b) > FolderMax {
		b = b[:FolderMax]
	}
	return string(b)
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
func terminalLine(spec Spec, t Terminal, s State) string {
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
	f, n := printfFormat(string(TerminalBytes(t, spec.Product, folderPlaceholder, s)))
	return "printf " + f + strings.Repeat(` "$d"`, n) + ` 2>/dev/null >"$tty"`
}

// folderLines compute $d, the project folder made safe (SafeFolder), with
// builtins; LC_ALL=C makes every shell match bytes, as dash does.
func folderLines() []string {
	set := strings.ReplaceAll(folderSafe, " ", `\ `)
	long := strings.Repeat("?", FolderMax)
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
		if s.notification() != "" {
			ls = append(ls, folderLines()...)
			break
		}
	}
	subject := "$" + TaskVar(spec.NS)
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
			pats []string
			t    Terminal
		}
		var arms []arm
		switch {
		case spec.Transport == Stdout && s.notification() == "":
			arms = []arm{{[]string{"*"}, Terminal{Dialect: OSC9}}}
		case spec.Transport == Stdout:
			arms = []arm{
				{[]string{TaskPrefix + "osc777", TaskPrefix + "tmux+osc777"}, Terminal{Dialect: OSC777}},
				{[]string{TaskPrefix + "osc99", TaskPrefix + "tmux+osc99"}, Terminal{Dialect: OSC99}},
				{[]string{"*"}, Terminal{Dialect: OSC9}},
			}
		case s.notification() == "":
			arms = []arm{
				{[]string{TaskPrefix + "tmux+*"}, Terminal{Dialect: OSC9, Tmux: true}},
				{[]string{"*"}, Terminal{Dialect: OSC9}},
			}
		default:
			arms = []arm{
				{[]string{TaskPrefix + "tmux+osc777"}, Terminal{Dialect: OSC777, Tmux: true}},
				{[]string{TaskPrefix + "tmux+osc99"}, Terminal{Dialect: OSC99, Tmux: true}},
				{[]string{TaskPrefix + "tmux+*"}, Terminal{Dialect: OSC9, Tmux: true}},
				{[]string{TaskPrefix + "osc777"}, Terminal{Dialect: OSC777}},
				{[]string{TaskPrefix + "osc99"}, Terminal{Dialect: OSC99}},
				{[]string{"*"}, Terminal{Dialect: OSC9}},
			}
		}
		for _, a := range arms {
			var ps []string
			for _, p := range a.pats {
				ps = append(ps, pre+p)
			}
			ls = append(ls, strings.Join(ps, " | ")+") "+terminalLine(spec, a.t, s)+" ;;")
		}
	}
	return append(ls, "esac")
}

// jsTerminal is the JavaScript the opencode, Kilo and Pi plugins share for
// terminal mode: the same bytes as TerminalBytes, the folder made safe as
// SafeFolder makes it (byte by byte, from process.cwd()).
func jsTerminal(product string) string {
	js := func(s string) string { return `"` + jsonEscape(s) + `"` }
	return `// Set up by hookinstall init or run (a task id starting "` + TaskPrefix + `"), not
// by a host: the terminal's own language, tab progress and a desktop
// notification naming the agent and the project folder, wrapped for tmux's
// passthrough where init found tmux.
const PRODUCT = ` + js(product) + `;
const PROGRESS = { working: ` + js(progressBusy) + `, attention: ` + js(progressPaused) + `, done: ` + js(progressClear) + `, interrupted: ` + js(progressClear) + ` };
const SAYS = { attention: ` + js(Attention.notification()) + `, done: ` + js(Done.notification()) + ` };

function folder() {
  let name = "";
  try {
    const cwd = process.cwd();
    name = cwd.slice(cwd.lastIndexOf("/") + 1);
  } catch {}
  if (!name) return "/";
  const safe = ` + js(folderSafe) + `;
  let out = "";
  for (const b of Buffer.from(name, "utf8")) {
    const c = String.fromCharCode(b);
    out += safe.includes(c) ? c : "_";
  }
  return out.slice(0, ` + fmt.Sprint(FolderMax) + `);
}

function terminal(t, state) {
  const tmux = t.startsWith("tmux+");
  const dialect = tmux ? t.slice(5) : t;
  const seqs = [PROGRESS[state]];
  const says = SAYS[state];
  if (says) {
    const tail = says + ` + js(Separator) + ` + folder();
    if (dialect === "osc777") seqs.push("\u001b]777;notify;" + PRODUCT + ";" + tail + "\u0007");
    else if (dialect === "osc99") seqs.push("\u001b]99;;" + PRODUCT + " " + tail + "\u0007");
    else seqs.push("\u001b]9;" + PRODUCT + " " + tail + "\u0007");
  }
  return seqs.map((s) => (tmux ? "\u001bPtmux;" + s.replaceAll("\u001b", "\u001b\u001b") + "\u001b\\" : s)).join("");
}`
}
