package adapters

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/scripts"
)

// antigravity is Antigravity (agy): ~/.gemini/config/hooks.json, shared with
// the user, holds named hook sets, one per top-level key. We own exactly one,
// named after the namespace. PreInvocation and Stop take handlers DIRECTLY
// (wrapped in {matcher, hooks} groups they register with an empty command and
// never run). Its hooks write to the host's pty.
type antigravity struct{}

var antigravityEvents = []claudeEvent{
	{"PreInvocation", scripts.Working, scripts.Always, ""},
	{"Stop", scripts.Done, scripts.Always, ""},
}

func init() { register(antigravity{}) }

func (antigravity) Name() string       { return "antigravity" }
func (antigravity) Binaries() []string { return []string{"agy"} }
func (antigravity) OwnFile() bool      { return false }
func (antigravity) ByNameOnly() bool   { return false }

func (antigravity) Events() []EventInfo {
	var es []EventInfo
	for _, e := range antigravityEvents {
		es = append(es, EventInfo{Event: e.event, State: e.state, Note: e.note})
	}
	return es
}

func (antigravity) Dir(home string, _ func(string) string) (string, string) {
	return filepath.Join(home, ".gemini"), ""
}

// Config is the live path. ~/.gemini/antigravity-cli/hooks.json also loads,
// and never runs (measured on agy 1.1.22): it is never written.
func (antigravity) Config(t Target) string { return filepath.Join(t.Dir, "config", "hooks.json") }

func (antigravity) deadPath(t Target) string {
	return filepath.Join(t.Dir, "antigravity-cli", "hooks.json")
}

// SwitchFiles names the dead path, only to warn about a set of ours there.
func (a antigravity) SwitchFiles(t Target) []string { return []string{a.deadPath(t)} }

func (antigravity) Scripts(t Target) ([]Script, error) {
	var ss []Script
	for _, e := range antigravityEvents {
		b, err := scripts.Render(scripts.Spec{NS: t.NS, Agent: t.ID, Event: e.event, State: e.state, Transport: scripts.PTY, Rule: e.rule})
		if err != nil {
			return nil, err
		}
		ss = append(ss, Script{Event: e.event, Name: scripts.FileName(e.event), Content: b})
	}
	return ss, nil
}

// set is the named hook set we install.
func (antigravity) set(t Target) Obj {
	o := Obj{{"enabled", true}}
	for _, e := range antigravityEvents {
		h := Obj{{"type", "command"}, {"command", t.ScriptPath(scripts.FileName(e.event))}}
		o = append(o, KV{e.event, []any{h}})
	}
	return o
}

// setKind classifies a named hook set by the commands in it.
func setKind(set gjson.Result, prefix string) entryKind {
	ours, all := 0, 0
	for _, ev := range members(set) {
		if !ev.Val.IsArray() {
			continue
		}
		for _, e := range elements(ev.Val) {
			for _, c := range commands(e) {
				all++
				if strings.HasPrefix(c, prefix) {
					ours++
				}
			}
		}
	}
	switch {
	case ours == 0:
		return foreign
	case ours == all:
		return oursPure
	default:
		return oursMixed
	}
}

// find parses doc and finds our set, checking its type.
func (antigravity) find(t Target, doc []byte) (root gjson.Result, set member, ok bool, err error) {
	root, err = ParseObject(doc)
	if err != nil {
		return
	}
	set, ok, err = lookup(doc, root, t.NS)
	if err != nil || !ok {
		return
	}
	if !set.Val.IsObject() {
		err = shapeErr(doc, set.Val, fmt.Sprintf("%q is %s, not a named hook set (an object)", t.NS, typeName(set.Val)))
	}
	return
}

func (a antigravity) Check(t Target, cur []byte, files map[string][]byte) ([]string, error) {
	var notes []string
	if !IsBlank(cur) {
		if _, _, _, err := a.find(t, cur); err != nil {
			return nil, err
		}
	}
	if b, ok := files[a.deadPath(t)]; ok {
		if root, err := ParseObject(b); err == nil {
			if _, has, _ := lookup(b, root, t.NS); has {
				notes = append(notes, fmt.Sprintf("%s holds a hook set %q: Antigravity loads that file and never runs it; remove the set from there (hookinstall writes only %s)", a.deadPath(t), t.NS, a.Config(t)))
			}
		}
	}
	return notes, nil
}

func (a antigravity) Add(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want := a.set(t)
	ed := Edit{Entries: map[string][]string{t.NS: {Compact(want)}}}
	if prev != nil {
		ed.Created = append(ed.Created, prev.Created...)
	}
	if IsBlank(cur) {
		ed.Doc = []byte(render(Obj{{t.NS, want}}, DefaultFormat, "", false) + DefaultFormat.Newline)
		ed.Created = []string{t.NS}
		return ed, nil
	}
	root, set, ok, err := a.find(t, cur)
	if err != nil {
		return ed, err
	}
	f := DetectFormat(cur, root)
	switch {
	case !ok:
		ed.Doc = appendChild(cur, root, &t.NS, want, f)
		ed.Created = addUnique(ed.Created, t.NS)
	case SameJSON(set.Val.Raw, want):
		ed.Doc = cur
	case setKind(set.Val, t.Prefix()) == foreign:
		return ed, syntaxErrorAt(cur, int64(set.KeyStart), fmt.Sprintf("a hook set named %q that hookinstall did not write is already there; install under another --namespace", t.NS))
	case force || setKind(set.Val, t.Prefix()) == oursPure && prev.wrote(t.NS, set.Val.Raw):
		ed.Doc = replaceValue(cur, set.Val, want, f)
	default:
		ed.Doc = cur
		ed.Entries[t.NS] = nil
		ed.Kept = true
		ed.Notes = append(ed.Notes, fmt.Sprintf("hook set %q was edited by hand; left as it is (--force replaces it)", t.NS))
	}
	return ed, nil
}

func (a antigravity) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	ed := Edit{Entries: map[string][]string{}, Doc: cur}
	if IsBlank(cur) {
		return ed, nil
	}
	root, set, ok, err := a.find(t, cur)
	if err != nil || !ok {
		return ed, err
	}
	kind := setKind(set.Val, t.Prefix())
	switch {
	case kind == foreign:
		// Not ours: a set of the user's that happens to bear our name.
	case force || kind == oursPure && (prev.wrote(t.NS, set.Val.Raw) || SameJSON(set.Val.Raw, a.set(t))):
		ed.Doc = deleteMember(cur, root, t.NS)
	default:
		ed.Kept = true
		ed.Notes = append(ed.Notes, fmt.Sprintf("hook set %q was edited by hand; left in place (--force removes it)", t.NS))
	}
	return ed, nil
}
