package adapters

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/scripts"
)

// A HookMap is a JSON config whose event map sits at root[Key]: the shape
// Claude Code defined, hooks.<Event>[] = {"hooks":[{"type":"command",
// "command":ABS,"timeout":5}]}, and the agents that copied it. jsonedit
// edits it byte for byte.
type HookMap struct {
	// Key is the root key that holds the event map: "hooks".
	Key string
	// Bare: the event arrays hold handlers directly (Copilot), not
	// {"hooks": [handler]} groups.
	Bare bool
	// Named: each handler carries a "name" first (Gemini CLI, whose
	// hooksConfig.disabled and /hooks name hooks by it; see HookName).
	Named bool
	// CommandKey and TimeoutKey name the handler's command and timeout:
	// "command" and "timeout" when empty (Copilot's are "bash" and
	// "timeoutSec").
	CommandKey, TimeoutKey string
	// Timeout is each handler's timeout in the agent's unit; 0 means
	// HookTimeout seconds. A Hook's own Timeout overrides it.
	Timeout int
	// Start is what a new file holds before our entries ("" is {}):
	// Copilot's {"version": 1}.
	Start string
	// Keep are the root keys besides Key that an own file (Agent.Own) may
	// hold and still be ours alone: a remove that leaves only them deletes
	// the file (Copilot's "version").
	Keep []string
}

// handler is the handler object we write for one hook.
func (m HookMap) handler(t Target, h Hook) jsonedit.Obj {
	timeout := cmp.Or(h.Timeout, m.Timeout, HookTimeout)
	if t.Gate != nil && t.Gate.TimeoutMS && m.Timeout == 0 {
		timeout *= 1000 // this version reads milliseconds (Qwen Code 0.15)
	}
	ck, tk := cmp.Or(m.CommandKey, "command"), cmp.Or(m.TimeoutKey, "timeout")
	o := jsonedit.Obj{{K: "type", V: "command"}, {K: ck, V: t.ScriptPath(scripts.FileName(h.Event))}, {K: tk, V: timeout}}
	if m.Named {
		o = append(jsonedit.Obj{{K: "name", V: HookName(t, h.Event)}}, o...)
	}
	return o
}

// entry is the element we add to one event's array: the handler, in a
// group unless the agent takes handlers directly.
func (m HookMap) entry(t Target, h Hook) jsonedit.Obj {
	if m.Bare {
		return m.handler(t, h)
	}
	return jsonedit.Obj{{K: "hooks", V: []any{m.handler(t, h)}}}
}

// HookName is the name of our handler for event, where an agent names its
// hooks: the namespace and the script's name, "hookinstall-before-agent".
func HookName(t Target, event string) string {
	return t.NS + "-" + strings.TrimSuffix(scripts.FileName(event), ".sh")
}

// want are the entries we install for a in t: one per hook its version
// knows.
func (m HookMap) want(a *Agent, t Target) []jsonedit.EventEntry {
	var ws []jsonedit.EventEntry
	for _, h := range gated(t, a.Hooks) {
		ws = append(ws, jsonedit.EventEntry{Event: h.Event, Entry: m.entry(t, h)})
	}
	return ws
}

// edit is the edit of a's event map in t, from the plan's shared parse.
func (m HookMap) edit(a *Agent, t Target, prev *Record, force bool) jsonedit.MapEdit {
	return jsonedit.MapEdit{Key: m.Key, Prefix: t.Prefix(), Want: m.want(a, t), Prev: prev, Force: force, Parsed: t.parsed,
		Comments: a.ReadsComments}
}

func (m HookMap) add(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	if m.Start != "" && jsonedit.IsBlank(cur) {
		cur = []byte(m.Start)
	}
	return m.edit(a, t, prev, force).Add(cur)
}

// remove takes our entries out. Where the agent keys trust on position, it
// warns about a user's entry that moves up; an own file left with nothing
// but the keys it may Keep is deleted.
func (m HookMap) remove(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	ed, err := m.edit(a, t, prev, force).Remove(cur)
	if err != nil || ed.Delete {
		return ed, err
	}
	if a.Trust != nil && a.Trust.Positional {
		ed.Notes = append(ed.Notes, movedNotes(a, t, cur, ed.Doc)...)
	}
	if a.Own && !ed.Kept && !bytes.Equal(ed.Doc, cur) && onlyKeys(ed.Doc, m.Keep) {
		ed = Edit{Delete: true, Notes: ed.Notes}
	}
	return ed, nil
}

func (m HookMap) read(a *Agent, t Target, cfg File) ([]Check, *EventMap) {
	return a.readJSONMap(t, cfg, m.Key)
}

func (HookMap) empty(doc []byte) bool { return jsonedit.IsEmptyObject(doc) }

func (HookMap) escapes() string { return jsonedit.Escapes }

func (m HookMap) eventsKey(Target) string { return m.Key }

// onlyKeys reports whether doc is an object holding no key but those of
// keep (or nothing at all).
func onlyKeys(doc []byte, keep []string) bool {
	root, err := jsonedit.ParseObject(doc)
	if err != nil {
		return false
	}
	for _, m := range jsonedit.Members(root) {
		if !slices.Contains(keep, m.Key) {
			return false
		}
	}
	return true
}

// movedNotes warns where a user's entry moved up because an entry of ours
// before it went: an agent that keys trust on position (Codex) takes it for
// a new hook.
func movedNotes(a *Agent, t Target, before, after []byte) []string {
	var notes []string
	was, now := foreignPositions(before, t.Prefix()), foreignPositions(after, t.Prefix())
	for _, ev := range was.order {
		w, n := was.at[ev], now.at[ev]
		for k := range w {
			if k < len(n) && n[k] != w[k] {
				notes = append(notes, fmt.Sprintf("%s entry %d (not ours) is now entry %d: %s keys trust on position, so it may need to be trusted again in /hooks", ev, w[k], n[k], a.Product))
			}
		}
	}
	return notes
}

type positions struct {
	order []string
	at    map[string][]int
}

// foreignPositions lists, per event, the indexes of the entries that are not
// ours.
func foreignPositions(doc []byte, prefix string) positions {
	p := positions{at: map[string][]int{}}
	root, err := jsonedit.ParseObject(doc)
	if err != nil {
		return p
	}
	hooks, ok, _ := jsonedit.Lookup(doc, root, "hooks")
	if !ok || !hooks.Val.IsObject() {
		return p
	}
	for _, ev := range jsonedit.Members(hooks.Val) {
		if !ev.Val.IsArray() {
			continue
		}
		p.order = append(p.order, ev.Key)
		for i, e := range jsonedit.Elements(ev.Val) {
			if jsonedit.Classify(e, prefix) == jsonedit.Foreign {
				p.at[ev.Key] = append(p.at[ev.Key], i)
			}
		}
	}
	return p
}

// hookMap is a's Format as a HookMap; every agent whose checks parse its
// event map has one.
func (a *Agent) hookMap() HookMap { return a.Format.(HookMap) }

// parseShared parses a's JSON config as add does and checks the shape at
// our path; a blank config gives an empty result.
func (a *Agent) parseShared(t Target, cur []byte) (gjson.Result, error) {
	if jsonedit.IsBlank(cur) {
		return gjson.Result{}, nil
	}
	root, _, _, err := a.hookMap().edit(a, t, nil, false).Check(cur)
	if err != nil {
		return gjson.Result{}, err
	}
	return root, nil
}

// noteCheck is an agent's check that parses its config as add does and
// adds the note that note finds in it ("" for none).
func noteCheck(note func(config string, root gjson.Result) string) func(*Agent, Target, []byte, map[string][]byte) ([]string, error) {
	return func(a *Agent, t Target, cur []byte, _ map[string][]byte) ([]string, error) {
		root, err := a.parseShared(t, cur) // an empty result for a blank file
		if err != nil {
			return nil, err
		}
		if n := note(a.File(t), root); n != "" {
			return []string{n}, nil
		}
		return nil, nil
	}
}
