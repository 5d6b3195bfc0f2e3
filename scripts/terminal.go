package scripts

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

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

// The placeholders stand for what the runtime knows only when it runs,
// while a sequence becomes a printf format or JSON: bytes no sequence
// holds. Each becomes its variable.
const (
	folderPlaceholder = "\x00" // $d, the project folder (SafeFolder)
	keyPlaceholder    = "\x01" // $k, the pty's name: one agent session's
)

// format writes s as a printf format: the escape and bell as \033 and
// \007, other control and non-ASCII bytes and '\' in octal, '%' doubled;
// the placeholders as they are.
func format(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= 1:
			b.WriteByte(c)
		case c == '%':
			b.WriteString("%%")
		case c == '\\' || c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dq writes s for the inside of sh double quotes: '"', '$' and '`' and a
// '\' that would escape one of them escaped, each placeholder as its
// variable ($d, $k). The folder and the pty's name hold no '%' or '\', so
// they may stand in a printf format.
func dq(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= 1:
			b.WriteString([]string{"$d", "$k"}[c])
			if i+1 < len(s) && (s[i+1] == '_' || s[i+1] >= '0' && s[i+1] <= '9' || s[i+1]|0x20 >= 'a' && s[i+1]|0x20 <= 'z') {
				b.WriteString("\"\"") // the variable's name ends here
			}
		case c == '"' || c == '$' || c == '`' || c == '\\' && i+1 < len(s) && strings.IndexByte("\"$`\\", s[i+1]) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// An arm is one case of the terminal table: the task ids it takes (shell
// patterns, most specific first), and what it sends after the progress:
// the sequences, unwrapped, with placeholders for what the runtime knows
// when it runs, which wraps them for tmux where the id says tmux (as
// terminal.Encode does).
type arm struct{ pats, rest []string }

// sides are where a terminal may be: inside tmux, inside Zellij, in
// neither.
var sides = []terminal.Terminal{{Tmux: true}, {Zellij: true}, {}}

// table is terminal.Sends, the one decision, for state s over every
// terminal init names, on every side: an arm for each terminal whose sends
// differ from its dialect's, one for each dialect whose differ from the
// default's (OSC 9, which also takes ids the scripts do not know), then the
// defaults, which arms that send nothing end; each pattern led by pre
// ("working/" where the subject is "$state/$TASK"), without cut
// (TaskPrefix, where the subject is without it).
func table(a terminal.Agent, key string, s terminal.State, pre, cut string) []arm {
	rest := func(t terminal.Terminal) []string {
		_, r := terminal.Sends(t, a, folderPlaceholder, key, s)
		return r
	}
	var arms []arm
	add := func(pat string, r []string) {
		arms = append(arms, arm{[]string{pre + strings.TrimPrefix(pat, cut)}, r})
	}
	for _, named := range []bool{true, false} { // the terminals, then the dialects
		for _, n := range terminal.Names {
			for _, side := range sides {
				t, _ := terminal.Parse(n.Name)
				t.Tmux, t.Zellij = side.Tmux, side.Zellij
				dialect, osc9 := side, side
				dialect.Dialect, osc9.Dialect = t.Dialect, terminal.OSC9
				switch {
				case named && t.Name != "" && !slices.Equal(rest(t), rest(dialect)):
					add(t.TaskID(), rest(t))
				case !named && t.Name == "" && t.Dialect != terminal.OSC9 && !slices.Equal(rest(t), rest(osc9)):
					add(t.TaskID()+"*", rest(t))
				}
			}
		}
	}
	for _, side := range sides {
		side.Dialect = terminal.OSC9
		add(strings.TrimSuffix(side.TaskID(), "osc9")+"*", rest(side))
	}
	arms = merge(arms)
	for len(arms) > 0 && len(arms[len(arms)-1].rest) == 0 {
		arms = arms[:len(arms)-1]
	}
	return arms
}

// safeClass is terminal.FolderSafe as the inside of a sh bracket pattern,
// its letters and digits [:alnum:] (the runtime matches bytes: LC_ALL=C).
func safeClass() string {
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	return "[:alnum:]" + strings.ReplaceAll(strings.TrimPrefix(terminal.FolderSafe, alnum), " ", `\ `)
}

// bare are the task id prefixes of the sides where the terminal gets no
// progress in any state (terminal.Sends: inside Zellij).
func bare(a terminal.Agent) []string {
	var ps []string
	for _, side := range sides {
		side.Dialect = terminal.OSC9
		if !slices.ContainsFunc(terminal.States(), func(s terminal.State) bool { p, _ := terminal.Sends(side, a, "", "", s); return p != "" }) {
			ps = append(ps, strings.TrimSuffix(side.TaskID(), "osc9"))
		}
	}
	return ps
}

// merge joins arms that send the same, where nothing in between takes one
// of the later's subjects (which keeps what every subject sends), and
// drops a pattern that another of the same arm already matches: one that
// is that other's text before its final '*', and more.
func merge(arms []arm) []arm {
	var out []arm
next:
	for _, a := range arms {
		for i := len(out) - 1; i >= 0 && !overlap(out[i].pats, a.pats); i-- {
			if slices.Equal(out[i].rest, a.rest) {
				out[i].pats = append(out[i].pats, a.pats...)
				continue next
			}
		}
		if n := len(out); n > 0 && slices.Equal(out[n-1].rest, a.rest) {
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

// overlap reports whether a subject may match a pattern of ps and one of
// qs, each a text or a prefix ending in '*'.
func overlap(ps, qs []string) bool {
	for _, p := range ps {
		for _, q := range qs {
			pp, pw := strings.CutSuffix(p, "*")
			qp, qw := strings.CutSuffix(q, "*")
			if pp == qp || pw && strings.HasPrefix(qp, pp) || qw && strings.HasPrefix(pp, qp) {
				return true
			}
		}
	}
	return false
}

// agent is the decision's view of the spec's agent: a clone's base's id
// (what 7501 and Warp name), and the key of its session in the tab, its id
// and the pty's name ($k).
func (spec Spec) agent() (terminal.Agent, string) {
	return terminal.Agent{ID: cmp.Or(spec.Base, spec.Agent), Product: spec.Product, Own: spec.Own}, spec.Agent + "-" + keyPlaceholder
}

// RuntimeName is the file name of an install's terminal runtime, beside
// its hooks.
const RuntimeName = "terminal.sh"

var runtimeTmpl = parsed(templates, "templates/terminal.sh.tmpl")

// Runtime returns the terminal runtime of one install, whose hooks are specs
// (the first names the install, its transport, product and Own) and source
// it in terminal mode alone: the pty ($tty, Claude's too) and its name ($k),
// the folder ($d, made safe as SafeFolder makes it), for every state they
// report its progress ($p, emptied where the agent draws its own) and one
// arm per terminal of the table (table: terminal.Sends, the one decision),
// and the terminal's record. The bytes depend only on specs.
func Runtime(specs ...Spec) ([]byte, error) {
	spec := specs[0]
	if err := terminal.ValidNamespace(spec.NS); err != nil {
		return nil, err
	}
	a, key := spec.agent()
	stdout := spec.Transport == Stdout
	d := struct {
		Spec
		Stdout                                  bool
		TaskVar, PTYVar, TaskPrefix, PaneOption string
		Safe, Long, Prefix, End                 string
		States, Rules, Arms, Fields, Bare       []string
	}{Spec: spec, Stdout: stdout, TaskVar: terminal.TaskVar(spec.NS), PTYVar: terminal.PTYVar(spec.NS), TaskPrefix: terminal.TaskPrefix,
		PaneOption: terminal.PaneOption(spec.NS), Safe: safeClass(), Long: strings.Repeat("?", terminal.FolderMax),
		Prefix: terminal.RecordPrefix, End: terminal.RecordEnd, Fields: terminal.RecordFields, Rules: progressLines(spec.Own), Bare: bare(a)}
	for _, s := range terminal.States() {
		if !slices.ContainsFunc(specs, func(sp Spec) bool { return slices.Contains(sp.reports(), s) }) {
			continue
		}
		arms := table(a, key, s, string(s)+"/", terminal.TaskPrefix)
		// a sequence more than one arm sends is said once, as $v1, $v2, ...
		count, names := map[string]int{}, map[string]string{}
		seq := func(q string) string { return shSeq(q, stdout && stdoutCarries(q)) }
		for _, x := range arms {
			for _, q := range x.rest {
				count[seq(q)]++
			}
		}
		line := string(s) + `) p="` + shSeq(terminal.Progress(s), stdout) + `"`
		for _, x := range arms {
			for _, q := range x.rest {
				if e := seq(q); count[e] > 1 && names[e] == "" && len(e) > 8 {
					names[e] = fmt.Sprint("v", len(names)+1)
					line += " " + names[e] + `="` + e + `"`
				}
			}
		}
		d.States = append(d.States, line+" ;;")
		for _, x := range arms {
			d.Arms = append(d.Arms, strings.Join(x.pats, " | ")+") "+assign(x, stdout, names))
		}
	}
	return execute(runtimeTmpl(), d)
}

// shSeq writes sequence q for the inside of sh double quotes: for the pty,
// a printf format wrapped for tmux through $W, $E and $Z (the wrapper's
// start, an escape, its end: the escape alone outside tmux), but a plain
// BEL; for Claude's stdout (json), JSON-escaped, never wrapped.
func shSeq(q string, json bool) string {
	switch {
	case json:
		return dq(strings.NewReplacer(`\u0000`, folderPlaceholder, `\u0001`, keyPlaceholder).Replace(jsonEscape(q)))
	case q == "\x07":
		return `\007`
	}
	return "$W" + strings.ReplaceAll(dq(format(q)), `\033`, "$E") + "$Z"
}

// assign is the assignments of what arm a sends after the progress (none
// when it sends nothing), then the arm's ";;": $x, the printf format for the
// pty; for Claude's stdout, $x holds what its terminalSequence does not
// carry, and $y what it carries; a sequence names holds as its variable.
func assign(a arm, stdout bool, names map[string]string) string {
	var x, y string
	for _, q := range a.rest {
		json := stdout && stdoutCarries(q)
		e := shSeq(q, json)
		if n := names[e]; n != "" {
			e = "$" + n
		}
		if json {
			y += e
		} else {
			x += e
		}
	}
	var words []string
	if x != "" {
		words = append(words, `x="`+x+`"`)
	}
	if y != "" {
		words = append(words, `y="`+y+`"`)
	}
	return strings.Join(append(words, ";;"), " ")
}

// progressLines empty $p where one of own's progress rules holds: one line
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
		ls = append(ls, r.Sh("p="))
	}
	return ls
}

// jsTerminal is what the opencode, Kilo and Pi plugins' terminal mode
// (writer.js.tmpl) is made of for agent a of install in: each state's
// progress and table (table), the progress rules, the record's lines.
type jsTerminal struct {
	Progress, Seqs, Table, Rules, Fields, Bare string
	PaneOption, Safe, Prefix, End, Max         string
}

func newJSTerminal(in Install, a terminal.Agent) jsTerminal {
	a.ID = cmp.Or(in.Base, in.Agent)
	list := func(ss []string) string {
		var qs []string
		for _, s := range ss {
			qs = append(qs, jsString(s))
		}
		return "[" + strings.Join(qs, ", ") + "]"
	}
	var rules, progress, states []string
	if a.Own != nil {
		for _, r := range a.Own.Progress {
			rules = append(rules, list([]string{r.Var, r.Value}))
		}
	}
	var seqs []string // every sequence once; an arm names them by index
	for _, s := range terminal.States() {
		var arms []string
		for _, x := range table(a, in.Agent+"-"+keyPlaceholder, s, "", terminal.TaskPrefix) {
			var is []string
			for _, q := range x.rest {
				i := slices.Index(seqs, q)
				if i < 0 {
					i, seqs = len(seqs), append(seqs, q)
				}
				is = append(is, fmt.Sprint(i))
			}
			arms = append(arms, "["+list(x.pats)+", ["+strings.Join(is, ", ")+"]]")
		}
		progress = append(progress, string(s)+": "+jsString(terminal.Progress(s)))
		states = append(states, "  "+string(s)+": [\n    "+strings.Join(arms, ",\n    ")+",\n  ],")
	}
	for i, q := range seqs {
		seqs[i] = "  " + jsString(q) + ",\n"
	}
	var bares []string
	for _, b := range bare(a) {
		bares = append(bares, strings.TrimPrefix(b, terminal.TaskPrefix))
	}
	return jsTerminal{Progress: strings.Join(progress, ", "), Seqs: strings.Join(seqs, ""), Table: strings.Join(states, "\n"), Bare: list(bares), Rules: strings.Join(rules, ", "),
		Fields: list(terminal.RecordFields), PaneOption: terminal.PaneOption(in.NS), Safe: terminal.FolderSafe, Prefix: terminal.RecordPrefix,
		End: terminal.RecordEnd, Max: fmt.Sprint(terminal.FolderMax)}
}

// jsString is s as a JavaScript string literal, in ASCII: control bytes
// as \xXX, other characters outside ASCII as \uXXXX.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
