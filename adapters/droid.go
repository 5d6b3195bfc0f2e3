package adapters

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// droid is Factory Droid (measured on 0.225.2, the platform binary
// @factory/cli-linux-x64): Claude's shape, timeouts in seconds, hooks that
// run with no tty (our scripts write to the host's pty), in TWO files of
// ~/.factory ($FACTORY_HOME_OVERRIDE replaces the home): "hooks" in
// settings.json, and hooks.json with the events at its top level (or, when
// that is absent, the legacy hooks/hooks.json). Droid merges them PER
// EVENT, hooks.json's list replacing settings.json's (an empty list too),
// so each entry of ours goes into the file that already defines its event,
// and into settings.json when neither does: ours never shadow the user's.
// Each file is read with jsonc-parser: comments are fine, a trailing comma
// voids it, and one handler outside droid's schema makes droid ignore
// every hook in that file (only its log says so). hooksDisabled, in
// settings.json's "hooks" or at hooks.json's top, switches them all off.
// Droid rewrites settings.json itself (JSON.stringify, two spaces, comments
// dropped) on its first interactive run.
type droid struct{}

// droidEvents are the event keys of droid's hook schema (read in the
// binary); other keys are ignored.
var droidEvents = []string{"PreToolUse", "PostToolUse", "Notification", "UserPromptSubmit", "Stop",
	"SubagentStop", "PreCompact", "SessionStart", "SessionEnd"}

func init() {
	var d droid
	register(&Agent{
		ID: "droid", Product: "Factory Droid", Programs: []string{"droid"},
		// ~/.factory; $FACTORY_HOME_OVERRIDE replaces the home (droid then
		// reads $FACTORY_HOME_OVERRIDE/.factory).
		Dir: func(home string, getenv func(string) string) (string, string) {
			h, from := envDir(getenv, "FACTORY_HOME_OVERRIDE", home)
			return filepath.Join(h, ".factory"), from
		},
		File: droidSettings,
		// droid's hooks files: hooks.json, and the legacy hooks/hooks.json
		// it reads when hooks.json is absent.
		Reads: func(t Target) []string { return []string{d.hooksJSON(t), d.legacyHooks(t)} },
		Hooks: []Hook{
			{Event: "UserPromptSubmit", State: terminal.Working},
			{Event: "Notification", State: terminal.Attention, Rule: scripts.FieldCases, Field: "notification_type",
				Cases: []scripts.Case{{Value: "permission_prompt", State: terminal.Attention}, {Value: "elicitation_dialog", State: terminal.Attention},
					{Value: "idle_prompt", State: terminal.Interrupted}},
				Note: "when notification_type is permission_prompt or elicitation_dialog (AskUser questions)",
				// the first state is the event's main one, which doctor's
				// fires replay with the recorded permission_prompt payload
				Also: []EventInfo{{Event: "Notification", State: terminal.Interrupted, Note: "when notification_type is idle_prompt: Esc while the model streams"}}},
			{Event: "PostToolUse", State: terminal.Working, Note: "after each tool: the first event after an approval"},
			{Event: "Stop", State: terminal.Done},
		},
		Transport:     scripts.PTY,
		Format:        HookMap{Key: "hooks"},
		ReadsComments: true,
		planAdd:       d.planAdd,
		planRemove:    d.planRemove,
		Switches:      d.switches,
		ReadFiles:     d.readFiles,
		Payloads:      "droid",
		Range:         droidRange,
		Variants: map[string][]Variant{
			"Notification": {
				{ID: "fire.interrupted", Payload: "Notification.idle", State: terminal.Interrupted,
					Why: "the recorded idle_prompt Notification (Esc while the model streams)"},
				{ID: "fire.question", Payload: "Notification.elicitation", State: terminal.Attention,
					Why: "the recorded elicitation_dialog Notification (droid's AskUser questions, waiting for the answer)"},
			},
		},
		ProjectConfigs: []string{".factory/settings.json", ".factory/hooks.json"},
	})
}

// droidRange: the versions measured with our hooks (docs/agents.md "droid").
var droidRange = &Range{Program: "droid", Oldest: "0.225.2", Newest: "0.225.2", Silent: []Gap{Approved}}

func droidSettings(t Target) string { return filepath.Join(t.Dir, "settings.json") }

func (droid) hooksJSON(t Target) string   { return filepath.Join(t.Dir, "hooks.json") }
func (droid) legacyHooks(t Target) string { return filepath.Join(t.Dir, "hooks", "hooks.json") }

// hooksFile is the hooks file droid reads: hooks.json when it exists, else
// the legacy hooks/hooks.json when that exists, else hooks.json.
func (d droid) hooksFile(t Target, exists func(string) bool) string {
	if !exists(d.hooksJSON(t)) && exists(d.legacyHooks(t)) {
		return d.legacyHooks(t)
	}
	return d.hooksJSON(t)
}

// A droidFile is one of droid's two hook files, read as droid reads it.
type droidFile struct {
	path     string
	settings bool // settings.json (events under "hooks"), not a hooks file
	exists   bool
	data     []byte
	events   gjson.Result // the event map; !Exists() when there is none
	// err says why droid reads no hook from the file (a syntax error, or
	// an event map outside its schema); syntax says it is a syntax error,
	// so which events the file defines is unknown.
	err     error
	syntax  bool
	defines map[string]bool // the events it defines, each with a list
}

// readDroidFile reads one hook file as droid 0.225.2 does: jsonc-parser
// (comments allowed, trailing commas not), then its zod schema.
func readDroidFile(path string, data []byte, exists, settings bool) droidFile {
	f := droidFile{path: path, settings: settings, exists: exists, data: data, defines: map[string]bool{}}
	if !exists || jsonedit.IsBlank(data) {
		return f // a blank file (droid's parse fails): no hooks from it
	}
	stripped := jsonedit.Blank(data)
	root, err := jsonedit.ParseObject(stripped)
	if err != nil {
		var se *jsonedit.SyntaxError
		if errors.As(err, &se) && strings.HasSuffix(se.Msg, jsonedit.MsgComment) {
			se.Msg = strings.TrimSuffix(strings.TrimSuffix(se.Msg, jsonedit.MsgComment), " ")
		}
		f.err, f.syntax = err, true
		return f
	}
	f.events = root
	if settings {
		ev, ok, err := jsonedit.Lookup(string(stripped), root, "hooks")
		switch {
		case err != nil:
			f.err, f.syntax = err, true
			return f
		case !ok:
			f.events = gjson.Result{}
			return f
		}
		f.events = ev.Val
	}
	for _, m := range jsonedit.Members(f.events) {
		if slices.Contains(droidEvents, m.Key) {
			f.defines[m.Key] = true
		}
	}
	f.err = droidSchema(string(stripped), f.events, settings)
	return f
}

// droidSchema checks an event map against droid's schema (read in the
// 0.225.2 binary: zod objects, unknown keys dropped): each event an array of
// groups {matcher?: string, commandRegex?: string, hooks: [handler]}, each
// handler {type: "command", command: string, timeout?: number,
// preserveRiskLevel?: boolean}; hooksDisabled and showHookOutput booleans.
// A null is no "optional" value.
func droidSchema(doc string, events gjson.Result, settings bool) error {
	bad := func(v gjson.Result, format string, a ...any) error {
		return jsonedit.ErrorAt(doc, int64(v.Index), fmt.Sprintf(format, a...))
	}
	if !events.IsObject() {
		what := "the top-level value"
		if settings {
			what = `"hooks"`
		}
		return bad(events, "%s is %s, not an object", what, jsonedit.TypeName(events))
	}
	for _, m := range jsonedit.Members(events) {
		v := m.Val
		switch {
		case m.Key == "hooksDisabled" || m.Key == "showHookOutput":
			if v.Type != gjson.True && v.Type != gjson.False {
				return bad(v, "%q is %s, not a boolean", m.Key, jsonedit.TypeName(v))
			}
		case slices.Contains(droidEvents, m.Key):
			if !v.IsArray() {
				return bad(v, "%q is %s, not an array", m.Key, jsonedit.TypeName(v))
			}
			for i, g := range jsonedit.Elements(v) {
				if !g.IsObject() {
					return bad(g, "%s[%d] is %s, not an object", m.Key, i, jsonedit.TypeName(g))
				}
				for _, k := range []string{"matcher", "commandRegex"} {
					if x := g.Get(k); x.Exists() && x.Type != gjson.String {
						return bad(x, "%s[%d].%s is %s, not a string", m.Key, i, k, jsonedit.TypeName(x))
					}
				}
				hs := g.Get("hooks")
				if !hs.IsArray() {
					at := g
					if hs.Exists() {
						at = hs
					}
					return bad(at, "%s[%d].hooks is %s, not an array of handlers", m.Key, i, droidType(hs))
				}
				for j, h := range jsonedit.Elements(hs) {
					where := fmt.Sprintf("%s[%d].hooks[%d]", m.Key, i, j)
					if !h.IsObject() {
						return bad(h, "%s is %s, not an object", where, jsonedit.TypeName(h))
					}
					if ty := h.Get("type"); ty.Type != gjson.String || ty.Str != "command" {
						at := h
						if ty.Exists() {
							at = ty
						}
						return bad(at, "%s: its type is %s, but droid runs only \"command\" handlers", where, droidType(ty))
					}
					if c := h.Get("command"); c.Type != gjson.String {
						return bad(h, "%s: its command is %s, not a string", where, droidType(c))
					}
					if x := h.Get("timeout"); x.Exists() && x.Type != gjson.Number {
						return bad(x, "%s: its timeout is %s, not a number", where, jsonedit.TypeName(x))
					}
					if x := h.Get("preserveRiskLevel"); x.Exists() && x.Type != gjson.True && x.Type != gjson.False {
						return bad(x, "%s: its preserveRiskLevel is %s, not a boolean", where, jsonedit.TypeName(x))
					}
				}
			}
		}
	}
	return nil
}

// droidType is typeName, or "missing" for a value that is not there, and a
// string's value.
func droidType(v gjson.Result) string {
	switch {
	case !v.Exists():
		return "missing"
	case v.Type == gjson.String:
		return fmt.Sprintf("%q", v.Str)
	}
	return jsonedit.TypeName(v)
}

// ignored says, for messages, that droid reads no hook from f and why.
func (f droidFile) ignored() string {
	if f.settings {
		return fmt.Sprintf("droid ignores every hook in %s (%v)", f.path, f.err)
	}
	return fmt.Sprintf("droid ignores all of %s (%v)", f.path, f.err)
}

// disabled reports hooksDisabled in f's event map, and whether it is set.
func (f droidFile) disabled() (on, set bool) {
	if f.err != nil || !f.events.Exists() {
		return false, false
	}
	v, ok := jsonedit.Find(f.events, "hooksDisabled")
	if !ok {
		return false, false
	}
	return v.Val.Type == gjson.True, true
}

// A droidView is droid's two files as one plan or one doctor run sees them.
type droidView struct {
	settings, hooks droidFile
}

func (d droid) view(t Target, files map[string][]byte) droidView {
	has := func(p string) bool { _, ok := files[p]; return ok }
	hp := d.hooksFile(t, has)
	sp := droidSettings(t)
	return droidView{
		settings: readDroidFile(sp, files[sp], has(sp), true),
		hooks:    readDroidFile(hp, files[hp], has(hp), false),
	}
}

// off says where droid's merged hooksDisabled is true, if it is:
// hooks.json's, where it is set, wins over settings.json's.
func (v droidView) off() (file, key string, on bool) {
	f := v.hooks
	on, set := f.disabled()
	if !set {
		f = v.settings
		on, _ = f.disabled()
	}
	if !on {
		return "", "", false
	}
	key = "hooks.hooksDisabled"
	if !f.settings {
		key = "hooksDisabled"
	}
	return f.path, key, true
}

// place returns the file each of our events goes into: the hooks file
// when it defines the event (droid reads that event's hooks from there
// alone), else settings.json. It fails where droid would ignore the file
// the event must go into.
func (v droidView) place(events []string) (map[string]*droidFile, error) {
	h := &v.hooks
	if h.exists && h.syntax {
		return nil, &FileError{File: h.path, Err: fmt.Errorf("%v: Factory Droid ignores all of this file, so hookinstall cannot tell which events it defines (an event defined there silences settings.json's hooks for it); fix it, then run add again", h.err)}
	}
	out := map[string]*droidFile{}
	for _, e := range events {
		if h.defines[e] {
			if h.err != nil {
				return nil, &FileError{File: h.path, Err: fmt.Errorf("%v: Factory Droid ignores all of this file, and it defines %q, so ours for that event could only run from it; fix it (droid's log says \"Invalid hooks file, ignoring\"), then run add again", h.err, e)}
			}
			out[e] = h
			continue
		}
		if v.settings.err != nil && v.settings.syntax {
			return nil, &FileError{File: v.settings.path, Err: fmt.Errorf("%v: Factory Droid ignores the whole file (its models too), so none of its hooks would run; fix it, then run add again", v.settings.err)}
		}
		if v.settings.err != nil {
			return nil, &FileError{File: v.settings.path, Err: fmt.Errorf("\"hooks\": %v: Factory Droid ignores every hook in this file, so ours would never run; fix it, then run add again", v.settings.err)}
		}
		out[e] = &v.settings
	}
	return out, nil
}

// hooksWrap turns a hooks file (events at its top level) into a document
// with those events under "hooks", so that the event-map edits work on it
// unchanged; unwrap takes the wrapper off again.
const hooksWrapHead, hooksWrapTail = `{"hooks":`, "\n}" // a // comment on the file's last line ends before the wrapper's }

func hooksWrap(doc []byte) []byte {
	return append(append([]byte(hooksWrapHead), doc...), hooksWrapTail...)
}

func hooksUnwrap(orig, doc []byte) []byte {
	if bytes.HasPrefix(doc, []byte(hooksWrapHead)) && bytes.HasSuffix(doc, []byte(hooksWrapTail)) {
		return doc[len(hooksWrapHead) : len(doc)-len(hooksWrapTail)]
	}
	// The edit took the whole event map away (all of it was ours): an
	// empty object, with what was around the original one.
	lead := len(orig) - len(bytes.TrimLeft(orig, " \t\r\n"))
	trail := len(bytes.TrimRight(orig, " \t\r\n"))
	return append(append(append([]byte(nil), orig[:lead]...), "{}"...), orig[trail:]...)
}

// hooksRecord is rec for the wrapped document: the wrapper's "hooks" is
// never ours to delete (the file's root).
func hooksRecord(rec *Record) *Record {
	if rec == nil {
		return nil
	}
	c := *rec
	c.Created = nil
	for _, p := range rec.Created {
		if p != "hooks" {
			c.Created = append(c.Created, p)
		}
	}
	return &c
}

// fileEdit installs want into one file, or takes ours out of it when want
// is empty; ok is false when the file needs no edit.
func (droid) fileEdit(t Target, f *droidFile, want []jsonedit.EventEntry, rec *Record, force bool) (Edit, bool, error) {
	if len(want) == 0 && (!f.exists || !MayHold(t, f.data) && rec == nil) {
		return Edit{}, false, nil
	}
	data := f.data
	if !f.settings {
		rec, data = hooksRecord(rec), hooksWrap(f.data)
	}
	m := jsonedit.MapEdit{Key: "hooks", Prefix: t.Prefix(), Want: want, Prev: rec, Force: force, Comments: true}
	edit := m.Add
	if len(want) == 0 {
		edit = m.Remove
	}
	ed, err := edit(data)
	if f.settings {
		return ed, true, err
	}
	if err != nil {
		return ed, true, unwrapErr(err)
	}
	ed.Doc = hooksUnwrap(f.data, ed.Doc)
	ed.Created = hooksRecord(&Record{Created: ed.Created}).Created
	return ed, true, nil
}

// unwrapErr moves a syntax error's position from the wrapped document
// back to the file's own.
func unwrapErr(err error) error {
	var se *jsonedit.SyntaxError
	if errors.As(err, &se) && se.Offset >= int64(len(hooksWrapHead)) {
		c := *se
		c.Offset -= int64(len(hooksWrapHead))
		if c.Line == 1 {
			c.Col -= len(hooksWrapHead)
		}
		return &c
	}
	return err
}

// planAdd places each entry of ours (see place) and edits both files:
// ours move to where they now belong, and leave the other file.
func (d droid) planAdd(a *Agent, t Target, in PlanInput) (Plan, error) {
	if in.Trust {
		return Plan{}, ErrTrustUnsupported
	}
	sp := droidSettings(t)
	if cur, ok := in.Files[sp]; ok && jsonedit.IsBlank(cur) {
		return Plan{}, errors.New("is empty; Factory Droid may be rewriting it right now: run add again, and if it stays empty put {} in it or delete it")
	}
	if off := a.switchedOff(t, in.Files[sp], in.Files); off != nil {
		return Plan{}, off
	}
	v := d.view(t, in.Files)
	var events []string
	for _, h := range a.Hooks {
		events = append(events, h.Event)
	}
	where, err := v.place(events)
	if err != nil {
		return Plan{}, err
	}
	var wantS, wantH []jsonedit.EventEntry
	for _, w := range a.hookMap().want(a, t) {
		if where[w.Event].settings {
			wantS = append(wantS, w)
		} else {
			wantH = append(wantH, w)
		}
	}
	p := Plan{}
	for _, x := range []struct {
		f    *droidFile
		want []jsonedit.EventEntry
	}{{&v.settings, wantS}, {&v.hooks, wantH}} {
		ed, ok, err := d.fileEdit(t, x.f, x.want, in.Records[x.f.path], in.Force)
		if err != nil {
			if x.f.settings {
				return Plan{}, err
			}
			return Plan{}, &FileError{File: x.f.path, Err: Explain(t, x.f.path, err)}
		}
		if ok && (!bytes.Equal(ed.Doc, x.f.data) || ed.Delete || len(x.want) > 0 || in.Records[x.f.path] != nil) {
			p.Edits = append(p.Edits, FileEdit{Path: x.f.path, Role: RoleConfig, Edit: ed})
			p.Notes = append(p.Notes, ed.Notes...)
		}
	}
	if v.hooks.exists && v.hooks.err != nil {
		p.Notes = append(p.Notes, v.hooks.ignored()+"; so its hooks do not run, and ours went into "+sp)
	}
	ss, err := a.Scripts(t)
	if err != nil {
		return Plan{}, err
	}
	p.Scripts = ss
	return p, nil
}

// planRemove takes ours out of settings.json and both hooks files, with the
// exact restore where the writer offers one.
func (d droid) planRemove(a *Agent, t Target, in PlanInput) (Plan, error) {
	p := Plan{}
	sp := droidSettings(t)
	for _, path := range []string{sp, d.hooksJSON(t), d.legacyHooks(t)} {
		cur, exists := in.Files[path]
		rec := in.Records[path]
		if ed, ok := in.Restore[path]; ok {
			p.Edits = append(p.Edits, FileEdit{Path: path, Role: RoleConfig, Edit: ed})
			continue
		}
		if !exists {
			if rec != nil {
				p.Edits = append(p.Edits, FileEdit{Path: path, Role: RoleConfig, Edit: Edit{Delete: true}})
			}
			continue
		}
		if rec == nil && !MayHold(t, cur) {
			continue
		}
		if rec != nil && jsonedit.IsBlank(cur) && path == sp {
			return Plan{}, errors.New("is empty; Factory Droid may be rewriting it right now: run remove again, and if it stays empty put {} in it or delete it")
		}
		f := readDroidFile(path, cur, true, path == sp)
		ed, _, err := d.fileEdit(t, &f, nil, rec, in.Force)
		if err != nil {
			if path == sp {
				return Plan{}, err
			}
			return Plan{}, &FileError{File: path, Err: Explain(t, path, err)}
		}
		if rec.NotUsers() && !ed.Kept && !ed.Delete && jsonedit.IsEmptyObject(ed.Doc) {
			ed = Edit{Delete: true, Notes: ed.Notes}
		}
		p.Edits = append(p.Edits, FileEdit{Path: path, Role: RoleConfig, Edit: ed})
		p.Notes = append(p.Notes, ed.Notes...)
	}
	return p, nil
}

// switches checks hooksDisabled in both files.
func (d droid) switches(in Input) []Check {
	v := d.view(in.T, in.Present())
	if file, key, on := v.off(); on {
		return []Check{switchOff(fail("switch.hooksDisabled", file, fmt.Sprintf("%s: %s is true, so Factory Droid runs no hooks at all", file, key), "set it to false or remove it (or /hooks in droid)"))}
	}
	return []Check{pass("switch.hooksDisabled", v.settings.path, fmt.Sprintf("hooksDisabled is not on in %s or %s", v.settings.path, v.hooks.path))}
}

// readFiles reads both files as droid does, for doctor: how each parses,
// which file each event's hooks come from (an event defined in both runs
// only hooks.json's), and our entries where droid reads them.
func (d droid) readFiles(in Input) ([]Check, *EventMap) {
	t := in.T
	v := d.view(t, in.Present())
	s, h := v.settings, v.hooks
	var fs []Check
	const note = "JSON with comments allowed, no trailing commas, no BOM"
	switch {
	case !s.exists:
		fs = append(fs, pass("config.parse", s.path, fmt.Sprintf("%s does not exist, so every event's hooks come from %s", s.path, h.path)))
	case s.err != nil && s.syntax:
		return append(fs, fail("config.parse", s.path, fmt.Sprintf("%s: %v: Factory Droid ignores the whole file (its models too), so none of its hooks run", s.path, s.err), "fix the file, then run '"+t.Command("doctor")+"' again")), nil
	case s.err != nil:
		fs = append(fs, fail("config.parse", s.path, fmt.Sprintf("%s: \"hooks\": %v: Factory Droid ignores every hook in the file", s.path, s.err), "fix the entry it names, then run '"+t.Command("doctor")+"' again"))
	default:
		fs = append(fs, pass("config.parse", s.path, fmt.Sprintf("%s parses the way Factory Droid parses it (%s; hooks in its schema)", s.path, note)))
	}
	switch {
	case !h.exists:
		fs = append(fs, pass("config.hooksfile", h.path, fmt.Sprintf("%s does not exist, so every event's hooks come from %s", h.path, s.path)))
	case h.err != nil:
		fs = append(fs, fail("config.hooksfile", h.path, h.ignored()+"; only its log says so (\"Invalid hooks file, ignoring\")", "fix the file, then run '"+t.Command("doctor")+"' again"))
	default:
		fs = append(fs, pass("config.hooksfile", h.path, fmt.Sprintf("%s parses the way Factory Droid parses it (%s; top-level events in its schema)", h.path, note)))
		if wrapped, ok := jsonedit.Find(h.events, "hooks"); ok && wrapped.Val.IsObject() && len(h.defines) == 0 {
			fs = append(fs, info("config.hooksfile.wrapped", h.path, fmt.Sprintf("%s wraps its events in \"hooks\", but droid reads them at the top level of this file, so none of them run", h.path), "move the events to the top level"))
		}
	}
	m := &EventMap{Where: "hooks"}
	var both []string
	for _, e := range droidEvents {
		from := &s
		if h.err == nil && h.defines[e] {
			from = &h
			if s.defines[e] {
				both = append(both, e)
			}
		}
		if from.err != nil || !from.events.Exists() {
			continue
		}
		ev, ok := jsonedit.Find(from.events, e)
		if !ok {
			continue
		}
		m.Ours = append(m.Ours, FindOurs(wrapOne(e, ev.Val), t.Prefix())...)
	}
	for _, e := range both {
		ev, _ := jsonedit.Find(s.events, e)
		if len(FindOurs(wrapOne(e, ev.Val), t.Prefix())) > 0 {
			fs = append(fs, fail("config.shadowed", s.path, fmt.Sprintf("%s and %s both define %s: droid runs only %s's list, so our entry in %s never runs", s.path, h.path, e, h.path, s.path), "run '"+t.Command("add")+"' (it moves ours next to the list droid reads)"))
		} else {
			fs = append(fs, info("config.shadowed", s.path, fmt.Sprintf("%s and %s both define %s: droid runs only %s's list, so the %s hooks in %s never run", s.path, h.path, e, h.path, e, s.path), "move them into "+h.path+" (or take "+e+" out of it)"))
		}
	}
	if len(both) == 0 && h.exists && h.err == nil {
		fs = append(fs, pass("config.shadowed", s.path, fmt.Sprintf("no event is defined in both %s and %s, so no list silences another", s.path, h.path)))
	}
	return fs, m
}

// wrapOne is an event map holding one event's array, for FindOurs.
func wrapOne(event string, arr gjson.Result) gjson.Result {
	return gjson.Parse("{" + strconv.Quote(event) + ":" + arr.Raw + "}")
}
