package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// kimi is Kimi Code (npm @moonshot-ai/kimi-code, measured on 2.1.0 with Node
// 22.19): its hooks are [[hooks]] tables {event, matcher?, command, timeout?}
// in ~/.kimi-code/config.toml ($KIMI_CODE_HOME moves the folder), which is
// the user's whole config, shared with everything else they set there. We
// append one table per event at the end and take exactly those bytes out
// again. Kimi's schema is strict per entry: ONE entry with an unknown key or
// an event this version does not know makes Kimi run none of the file's
// hooks, saying so only in `kimi doctor config`; so we write only entries
// that are valid, and refuse to install beside an invalid one. Hooks run
// through `sh -c` in a session of their own with no terminal, so the scripts
// write to the host's pty. Kimi reads its hooks only at start (/reload in a
// running Kimi reads them again).
func init() {
	register(&Agent{
		ID: "kimi", Product: "Kimi Code", Programs: []string{"kimi"},
		// 2.1.0 (docs/agents.md "Its own notifications"): it notifies an
		// approval and a finished turn while the terminal is unfocused (OSC 9
		// in iTerm2, WezTerm, Ghostty, Warp and kitty, a BEL elsewhere), and
		// draws 9;4 progress by these variables (clearing it while it asks).
		ShowsItself: &terminal.Own{Notifies: []terminal.State{terminal.Attention, terminal.Done},
			In: []string{"iterm2", "wezterm", "ghostty", "warp", "kitty", "osc9", "bell"}, InTmux: []string{"bell"},
			Progress: []terminal.Rule{{Var: "TERM_PROGRAM", Value: "ghostty"}, {Var: "TERM_PROGRAM", Value: "WezTerm"},
				{Var: "TERM", Value: "xterm-ghostty"}, {Var: "WT_SESSION"}}},
		Dir: func(home string, getenv func(string) string) (string, string) {
			return envDir(getenv, "KIMI_CODE_HOME", filepath.Join(home, ".kimi-code"))
		},
		File: func(t Target) string { return filepath.Join(t.Dir, "config.toml") },
		// Interrupt ends a turn cancelled by Esc or Ctrl-C (no Stop follows),
		// while Esc on the approval dialog is a Reject whose turn ends with
		// Stop (measured).
		Hooks: []Hook{
			{Event: "UserPromptSubmit", State: terminal.Working},
			{Event: "PermissionRequest", State: terminal.Attention},
			// whatever the decision: a rejected call's turn goes on (the
			// model is told and answers; measured), so the user has answered
			{Event: "PermissionResult", State: terminal.Working, Note: "the user's answer to the prompt, approved or not"},
			{Event: "Stop", State: terminal.Done},
			{Event: "Interrupt", State: terminal.Interrupted, Note: "a turn cancelled by Esc or Ctrl-C"},
		},
		Transport: scripts.PTY,
		Format:    TOMLHooks{},
		// measured on 2.1.0: a config.toml that starts with a BOM still
		// ran its hooks
		ReadsBOM: true,
		check:    kimiCheck,
		// measured: Kimi Code reads [[hooks]] at start and on /reload only
		Next: func(Target) string {
			return "Kimi Code reads its hooks only when it starts: in a Kimi Code that is running now, type /reload (or restart it)"
		},
		Ask: &Ask{
			ID: "binary.kimi", Program: "kimi", Args: []string{"doctor", "config"},
			Env:     func(t Target) []string { return []string{"KIMI_CODE_HOME=" + t.Dir} },
			AnyExit: true,
			What:    "'%s doctor config'",
			Hint:    "run 'kimi doctor config' yourself (Kimi Code needs Node 22.19 or newer on PATH)",
			Read:    readKimiDoctor,
		},
		Payloads: "kimi",
		Range:    kimiRange,
	})
}

// kimiBadEntry is what add (refusing) and doctor (failing) say of an
// invalid [[hooks]] entry i (0-based) with problem p.
func kimiBadEntry(file string, i int, p string) (verdict, hint string) {
	return fmt.Sprintf("%s: [[hooks]] entry %d %s, so Kimi Code runs NONE of the hooks in this file, ours included, and says so only in 'kimi doctor config'", file, i+1, p), "fix or remove that entry"
}

// TOMLHooks is Kimi Code's config.toml, the user's whole config, whose
// [[hooks]] tables ({event, matcher, command, timeout}) hold the hooks; we
// edit it byte for byte.
type TOMLHooks struct{}

func (TOMLHooks) empty(doc []byte) bool { return jsonedit.IsBlank(doc) }

func (TOMLHooks) escapes() string { return tomlEscapes }

// kimiKnownEvents are the hook events Kimi Code 2.1.0 accepts (its
// HOOK_EVENT_TYPES, as `kimi doctor config` lists them); any other makes the
// whole [[hooks]] list invalid.
var kimiKnownEvents = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionResult",
	"UserPromptSubmit", "UserPromptQueued", "TurnStarted", "Stop", "StopFailure", "Interrupt",
	"SessionStart", "SessionEnd", "SessionHeartbeat", "SubagentStart", "SubagentStop",
	"TaskStarted", "PreCompact", "PostCompact", "Notification",
}

// KimiVersion is the Kimi Code release the schema above was read from.
const KimiVersion = "2.1.0"

// kimiFinalNewline is what an add records (Edit.Created) when it had to end
// the user's last line before appending, so that remove takes it out too.
const kimiFinalNewline = "final newline"

// kimiEntry is one [[hooks]] table of ours, in the order we write its keys.
func kimiEntry(t Target, event string) jsonedit.Obj {
	return jsonedit.Obj{{K: "event", V: event}, {K: "command", V: t.ScriptPath(scripts.FileName(event))}, {K: "timeout", V: HookTimeout}}
}

// kimiTable renders one entry as the TOML table we append.
func kimiTable(t Target, event string) string {
	return "[[hooks]]\nevent = " + tomlString(event) + "\ncommand = " +
		tomlString(t.ScriptPath(scripts.FileName(event))) + "\ntimeout = " + strconv.Itoa(HookTimeout) + "\n"
}

// kimiDoc is config.toml as parsed: the document, and its [[hooks]] list.
type kimiDoc struct {
	doc   map[string]any
	hooks []any // nil when there is no hooks key
}

// parseKimi parses config.toml. A blank file is an empty config (Kimi itself
// writes a comment-only one). It fails on invalid TOML, a BOM, or a hooks
// key that is not an array of tables.
func parseKimi(cur []byte) (kimiDoc, error) {
	if bytes.HasPrefix(cur, []byte("\xef\xbb\xbf")) {
		return kimiDoc{}, &jsonedit.SyntaxError{Offset: 0, Line: 1, Col: 1, Msg: jsonedit.MsgBOM}
	}
	doc, err := parseTOML(cur)
	if err != nil {
		return kimiDoc{}, err
	}
	d := kimiDoc{doc: doc}
	if v, ok := doc["hooks"]; ok {
		l, isList := v.([]any)
		if !isList {
			return kimiDoc{}, errors.New(`"hooks" is not a list of [[hooks]] tables, so Kimi Code reads no hooks from it`)
		}
		d.hooks = l
	}
	return d, nil
}

// kimiProblem says why Kimi Code 2.1.0's schema rejects one [[hooks]] entry
// (and with it every hook of the file), or "" when it accepts it.
func kimiProblem(e any) string {
	m, ok := e.(map[string]any)
	if !ok {
		return "is not a table"
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "event", "matcher", "command", "timeout":
		default:
			return fmt.Sprintf("has the key %q, which Kimi Code does not know (it allows only event, matcher, command and timeout)", k)
		}
	}
	ev, ok := m["event"].(string)
	switch {
	case m["event"] == nil:
		return "has no event"
	case !ok:
		return "has an event that is not a string"
	}
	if !slices.Contains(kimiKnownEvents, ev) {
		return fmt.Sprintf("has the event %q, which Kimi Code %s does not know", ev, KimiVersion)
	}
	if v, present := m["matcher"]; present {
		if _, ok := v.(string); !ok {
			return "has a matcher that is not a string"
		}
	}
	if c, ok := m["command"].(string); !ok || c == "" {
		return "has no command (a non-empty string)"
	}
	if v, present := m["timeout"]; present {
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return "has a timeout that is not a number"
		}
		if f != math.Trunc(f) || f < 1 || f > 600 {
			return fmt.Sprintf("has the timeout %v, but Kimi Code takes only whole seconds from 1 to 600", v)
		}
	}
	return ""
}

// kimiJSON renders a parsed entry as compact JSON with sorted keys (the form
// the manifest records and doctor compares), or "" when it cannot.
func kimiJSON(e any) string {
	b, err := json.Marshal(e)
	if err != nil {
		return ""
	}
	return string(b)
}

// ours lists the indexes of the [[hooks]] entries whose command is one of
// ours.
func (d kimiDoc) ours(t Target) []int {
	var is []int
	for i, e := range d.hooks {
		if m, ok := e.(map[string]any); ok {
			if c, ok := m["command"].(string); ok && strings.HasPrefix(c, t.Prefix()) {
				is = append(is, i)
			}
		}
	}
	return is
}

// exact reports whether entry i is ours exactly as we write it (or as the
// manifest says the last install wrote it).
func (d kimiDoc) exact(t Target, i int, prev *Record) bool {
	m, _ := d.hooks[i].(map[string]any)
	ev, _ := m["event"].(string)
	got := kimiJSON(m)
	return got == kimiJSON(jsonValue(kimiEntry(t, ev))) || prev != nil && prev.Wrote(ev, got)
}

// jsonValue turns an Obj into plain values (map[string]any, int64) as the
// TOML parser gives them.
func jsonValue(o jsonedit.Obj) map[string]any {
	m := map[string]any{}
	for _, kv := range o {
		switch v := kv.V.(type) {
		case int:
			m[kv.K] = int64(v)
		default:
			m[kv.K] = v
		}
	}
	return m
}

// Check refuses an install that would never fire: an invalid [[hooks]]
// entry anywhere in the file makes Kimi Code run none of them.
func kimiCheck(a *Agent, t Target, cur []byte, _ map[string][]byte) ([]string, error) {
	d, err := parseKimi(cur)
	if err != nil {
		return nil, err
	}
	for i, e := range d.hooks {
		if p := kimiProblem(e); p != "" {
			verdict, hint := kimiBadEntry(a.File(t), i, p)
			return nil, &OffError{File: a.File(t), Key: fmt.Sprintf("[[hooks]] entry %d", i+1), Verdict: verdict, Hint: hint}
		}
	}
	return nil, nil
}

// tables maps each [[hooks]] entry to its table in the text, or fails when
// the entries are not all written as [[hooks]] tables (an inline array).
func (d kimiDoc) tables(cur []byte) ([]tomlHeader, []tomlHeader, error) {
	hs, all := hooksTables(cur)
	if len(hs) != len(d.hooks) {
		return nil, nil, fmt.Errorf("its %d hooks entries are not all written as [[hooks]] tables (found %d), and hookinstall edits only those: write them as [[hooks]] tables, then run again", len(d.hooks), len(hs))
	}
	return hs, all, nil
}

// hooksTables are the [[hooks]] headers of cur, and all its headers.
func hooksTables(cur []byte) (hs, all []tomlHeader) {
	all = tomlHeaders(cur)
	for _, h := range all {
		if h.Array && h.Name == "hooks" {
			hs = append(hs, h)
		}
	}
	return hs, all
}

// tomlSpan is the bytes of table h: its header through its last line that is not
// blank or a comment (those belong to what follows), and the blank line
// before it that add wrote.
func tomlSpan(cur []byte, h tomlHeader, all []tomlHeader) (int, int) {
	end := len(cur)
	for _, o := range all {
		if o.Start > h.Start {
			end = o.Start
			break
		}
	}
	// back over trailing blank and comment lines
	lines := strings.SplitAfter(string(cur[h.End:end]), "\n")
	cut := end
	for i := len(lines) - 1; i >= 0; i-- {
		s := strings.TrimSpace(lines[i])
		if s != "" && !strings.HasPrefix(s, "#") {
			break
		}
		cut -= len(lines[i])
	}
	start := h.Start
	if start >= 2 && cur[start-1] == '\n' && cur[start-2] == '\n' {
		start--
	} else if start == 0 && cut < len(cur) && cur[cut] == '\n' {
		cut++ // a table that opens the file takes the blank line after it
	}
	return start, cut
}

func (k TOMLHooks) add(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	d, err := parseKimi(cur)
	if err != nil {
		return Edit{}, err
	}
	out := append([]byte(nil), cur...)
	var notes []string
	if force {
		// take every entry of ours out, then write them afresh
		rm, err := k.remove(a, t, cur, prev, true)
		if err != nil {
			return Edit{}, err
		}
		out = rm.Doc
		if d, err = parseKimi(out); err != nil {
			return Edit{}, err
		}
	}
	have := map[string]bool{} // events with an entry of ours, exact or edited
	entries := map[string][]string{}
	kept := false
	for _, i := range d.ours(t) {
		m, _ := d.hooks[i].(map[string]any)
		ev, _ := m["event"].(string)
		have[ev] = true
		if d.exact(t, i, prev) {
			entries[ev] = append(entries[ev], kimiJSON(m))
		} else {
			kept = true
			notes = append(notes, fmt.Sprintf("[[hooks]] entry %d (event %q) runs our script but was edited by hand; left as it is (--force replaces it)", i+1, ev))
		}
	}
	var add []string
	for _, h := range gated(t, a.Hooks) {
		if !have[h.Event] {
			add = append(add, h.Event)
		}
	}
	var created []string
	var emptied map[string]string
	if prev != nil {
		created = append(created, prev.Created...)
		if ws, ok := prev.Emptied[kimiEmptyHooks]; ok {
			emptied = map[string]string{kimiEmptyHooks: ws}
		}
	}
	if len(add) > 0 {
		if _, _, err := d.tables(out); err != nil {
			return Edit{}, err
		}
		if d.hooks != nil && len(d.hooks) == 0 {
			// `hooks = []` (Kimi's own default config holds it): our tables
			// take its place, and remove puts its bytes back where they were
			if s, e, ok := tomlEmptyInline(out, "hooks"); ok {
				ls := bytes.LastIndexByte(out[:max(s-1, 0)], '\n') + 1 // the line before
				if s == 0 {
					ls = 0
				}
				rec, _ := json.Marshal(kimiEmptied{At: s, After: string(out[ls:s]), Text: string(out[s:e])})
				emptied = map[string]string{kimiEmptyHooks: string(rec)}
				out = append(out[:s:s], out[e:]...)
			}
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
			created = append(created, kimiFinalNewline)
		}
		for _, ev := range add {
			if len(out) > 0 {
				out = append(out, '\n')
			}
			out = append(out, kimiTable(t, ev)...)
			entries[ev] = append(entries[ev], kimiJSON(jsonValue(kimiEntry(t, ev))))
		}
		// what Kimi will read: the same document, with ours appended
		want := maps.Clone(d.doc)
		hooks := append([]any(nil), d.hooks...)
		for _, ev := range add {
			hooks = append(hooks, jsonValue(kimiEntry(t, ev)))
		}
		want["hooks"] = hooks
		got, err := parseTOML(out)
		if err != nil || !reflect.DeepEqual(got, want) {
			return Edit{}, fmt.Errorf("appending our [[hooks]] tables would not give Kimi Code the same config plus our hooks (%v); add them by hand", err)
		}
	}
	return Edit{Doc: out, Entries: entries, Created: dedupe(created), Emptied: emptied, Notes: notes, Kept: kept}, nil
}

// kimiEmptyHooks is the Record.Emptied key of an empty inline hooks array
// that add took out; its value is a kimiEmptied in JSON.
const kimiEmptyHooks = "hooks = []"

// kimiEmptied is where add took an empty inline hooks array out: its
// offset, the line before it, and its own lines.
type kimiEmptied struct {
	At    int    `json:"at"`
	After string `json:"after"`
	Text  string `json:"text"`
}

// kimiPutBack puts an empty inline hooks array that add took out back into
// out (which has no hooks left), among the root keys before the first
// table: at its old offset when the line before it is still there, else
// after the first copy of that line, else at the end of the root keys.
func kimiPutBack(out []byte, rec string) ([]byte, bool) {
	var e kimiEmptied
	if json.Unmarshal([]byte(rec), &e) != nil || e.Text == "" {
		return out, false
	}
	prelude := len(out)
	if hs := tomlHeaders(out); len(hs) > 0 {
		prelude = hs[0].Start
	}
	lineStart := func(at int) bool { return at == 0 || out[at-1] == '\n' }
	at := -1
	switch {
	case e.At <= prelude && e.At >= len(e.After) && lineStart(e.At) && string(out[e.At-len(e.After):e.At]) == e.After:
		at = e.At
	case e.After != "":
		for i := 0; i+len(e.After) <= prelude; i++ {
			if lineStart(i) && string(out[i:i+len(e.After)]) == e.After {
				at = i + len(e.After)
				break
			}
		}
	}
	text := e.Text
	if at < 0 {
		at = prelude
		if !lineStart(at) {
			text = "\n" + text
		}
	}
	return append(append(append([]byte(nil), out[:at]...), text...), out[at:]...), true
}

func (TOMLHooks) remove(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	d, err := parseKimi(cur)
	if err != nil {
		return Edit{}, err
	}
	var drop []int
	var notes []string
	kept := false
	for _, i := range d.ours(t) {
		if force || d.exact(t, i, prev) {
			drop = append(drop, i)
			continue
		}
		m, _ := d.hooks[i].(map[string]any)
		kept = true
		notes = append(notes, fmt.Sprintf("[[hooks]] entry %d (event %q) runs our script but was edited by hand; left in place (--force removes it)", i+1, m["event"]))
	}
	if len(drop) == 0 {
		return Edit{Doc: cur, Notes: notes, Kept: kept}, nil
	}
	hs, all, err := d.tables(cur)
	if err != nil {
		return Edit{}, err
	}
	out := append([]byte(nil), cur...)
	atEnd := false
	for j := len(drop) - 1; j >= 0; j-- {
		start, end := tomlSpan(out, hs[drop[j]], all)
		if end == len(out) {
			atEnd = true
		}
		out = append(out[:start:start], out[end:]...)
		hs, all = hooksTables(out) // later headers moved: rescan
	}
	if atEnd && prev != nil && slices.Contains(prev.Created, kimiFinalNewline) && bytes.HasSuffix(out, []byte("\n")) {
		out = out[:len(out)-1]
	}
	// what Kimi will read: the same document without the entries taken out
	want := maps.Clone(d.doc)
	var hooks []any
	for i, e := range d.hooks {
		if !slices.Contains(drop, i) {
			hooks = append(hooks, e)
		}
	}
	if len(hooks) > 0 {
		want["hooks"] = hooks
	} else {
		delete(want, "hooks")
		if rec, ok := prev.WasEmpty(kimiEmptyHooks); ok {
			if o, put := kimiPutBack(out, rec); put {
				out = o
				want["hooks"] = []any{}
			}
		}
	}
	got, err := parseTOML(out)
	if err != nil || !reflect.DeepEqual(got, want) {
		return Edit{}, fmt.Errorf("taking our [[hooks]] tables out would not leave Kimi Code the same config without them (%v); take them out by hand", err)
	}
	return Edit{Doc: out, Notes: notes, Kept: kept}, nil
}

func dedupe(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// read reads config.toml as Kimi Code does: TOML, and every [[hooks]]
// entry valid, or none of them runs.
func (TOMLHooks) read(a *Agent, t Target, cfg File) ([]Check, *EventMap) {
	file := cfg.Path
	data := cfg.Data
	var fs []Check
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		// Kimi Code 2.1.0 ran the hooks of such a file (measured), though
		// 'kimi doctor config' calls it invalid TOML
		fs = append(fs, info("config.bom", file, file+" "+a.BOMVerdict()+"; 'kimi doctor config' calls it invalid TOML", BOMHint(file)))
		data = data[3:]
	}
	d, err := parseKimi(data)
	if err != nil {
		return []Check{fail("config.parse", file, fmt.Sprintf("%s: %v: Kimi Code cannot use it, so none of its hooks run", file, err), "fix the file, then run '"+t.Command("doctor")+"' again")}, nil
	}
	bad := false
	for i, e := range d.hooks {
		if p := kimiProblem(e); p != "" {
			bad = true
			verdict, hint := kimiBadEntry(file, i, p)
			fs = append(fs, fail("config.parse", file, verdict, hint))
		}
	}
	if !bad {
		fs = append(fs, pass("config.parse", file, fmt.Sprintf("%s parses the way Kimi Code %s parses it (TOML; every [[hooks]] entry in its strict schema)", file, KimiVersion)))
	}
	m := &EventMap{Where: "hooks"}
	for _, i := range d.ours(t) {
		mm, _ := d.hooks[i].(map[string]any)
		ev, _ := mm["event"].(string)
		c, _ := mm["command"].(string)
		m.Ours = append(m.Ours, Occurrence{Event: ev, Index: i, Elem: gjson.Parse(kimiJSON(mm)), Commands: []string{c}})
	}
	return fs, m
}

// readKimiDoctor judges what `kimi doctor config` printed: "OK config.toml
// <path>" when Kimi accepts the file, "ERROR config.toml <path>" and the
// validation issues (exit 1) when it does not.
func readKimiDoctor(in AskInput) []Check {
	out := string(in.Out)
	var verdict []string
	for _, l := range strings.Split(out, "\n") {
		if s := strings.TrimSpace(l); s != "" {
			verdict = append(verdict, s)
		}
	}
	said := strings.Join(verdict, " / ")
	var f Check
	switch {
	case strings.Contains(out, "ERROR config.toml") || strings.Contains(out, "Invalid configuration"):
		f = fail("binary.kimi", in.Config, "'kimi doctor config' rejects the config, so Kimi Code runs none of its hooks: "+said, "fix what it names, then run '"+in.T.Command("doctor")+"' again")
	case strings.Contains(out, "OK config.toml"):
		f = pass("binary.kimi", in.Config, "'kimi doctor config' accepts the config: "+said)
	default:
		f = info("binary.kimi", in.Config, "'kimi doctor config' gave no verdict on config.toml: "+said, "run 'kimi doctor config' yourself")
	}
	f.Timed = true
	return []Check{f}
}

// kimiRange: Kimi Code 0.10.0 does not know Interrupt and refuses to start
// with one in its config; 0.20.0 knows it (docs/agents.md "Versions").
var kimiRange = &Range{Program: "kimi", Oldest: "0.20.0", Newest: "2.1.0", Floor: "0.10.0",
	Older: []Older{{Below: "0.20.0", Drop: []string{"Interrupt"},
		Why: "Kimi Code 0.10.0 refuses to start with an Interrupt hook in its config (hooks[4].event: Invalid option)"}}}
