package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// antigravity is Antigravity (agy): ~/.gemini/config/hooks.json, shared with
// the user, holds named hook sets, one per top-level key. We own exactly one,
// named after the namespace. PreInvocation and Stop take handlers DIRECTLY
// (wrapped in {matcher, hooks} groups they register with an empty command and
// never run). Its hooks write to the host's pty.
func init() {
	register(&Agent{
		ID: "antigravity", Product: "Antigravity", Programs: []string{"agy"}, WindowsHooks: "with cmd /c",
		Dir: func(home string, _ func(string) string) (string, string) {
			return filepath.Join(home, ".gemini"), ""
		},
		// The live path. ~/.gemini/antigravity-cli/hooks.json also loads,
		// and never runs (measured on agy 1.1.22): it is never written.
		File: antigravityConfig,
		// ~/.gemini alone is Gemini CLI's too: Antigravity keeps its hook
		// sets in ~/.gemini/config (its program is agy).
		Detect: func(t Target) []string { return []string{filepath.Dir(antigravityConfig(t))} },
		// The dead path, only to warn about a set of ours there.
		Reads: func(t Target) []string { return []string{antigravityDeadPath(t)} },
		Hooks: []Hook{
			{Event: "PreInvocation", State: terminal.Working},
			{Event: "Stop", State: terminal.Done},
		},
		Transport:       scripts.PTY,
		Format:          NamedSet{},
		RewritesInPlace: true,
		check:           antigravityCheck,
		Switches:        antigravitySwitches,
		DeadPaths:       antigravityDeadPaths,
		// Not run here against a real agy (none can be installed on this
		// machine): Read checks only that each of our commands appears.
		Ask: &Ask{
			ID: "binary.antigravity", Program: "agy", Args: []string{"-p", "/hooks", "--output-format", "json"},
			What: "'%s -p /hooks'", Hint: "run 'agy -p /hooks' yourself and look for an empty command",
			Read: readAgyHooks,
		},
		Payloads:       "antigravity",
		Reconstructed:  []string{"PreInvocation"},
		ProjectConfigs: []string{".agents/hooks.json"},
	})
}

func antigravityConfig(t Target) string { return filepath.Join(t.Dir, "config", "hooks.json") }

func antigravityDeadPath(t Target) string {
	return filepath.Join(t.Dir, "antigravity-cli", "hooks.json")
}

// A NamedSet is Antigravity's hooks.json: named hook sets, one per top-level
// key, whose events take handlers DIRECTLY (wrapped in {matcher, hooks}
// groups they register with an empty command and never run). We own exactly
// one set, named after the namespace.
type NamedSet struct{}

// set is the named hook set we install.
func (NamedSet) set(a *Agent, t Target) jsonedit.Obj {
	o := jsonedit.Obj{{K: "enabled", V: true}}
	for _, h := range a.Hooks {
		hd := jsonedit.Obj{{K: "type", V: "command"}, {K: "command", V: t.ScriptPath(scripts.FileName(h.Event))}}
		o = append(o, jsonedit.KV{K: h.Event, V: []any{hd}})
	}
	return o
}

// setKind classifies a named hook set by the commands in it.
func setKind(set gjson.Result, prefix string) jsonedit.Kind {
	var cs []string
	for _, ev := range jsonedit.Members(set) {
		if ev.Val.IsArray() {
			for _, e := range jsonedit.Elements(ev.Val) {
				cs = append(cs, jsonedit.Commands(e)...)
			}
		}
	}
	return jsonedit.KindOf(cs, prefix)
}

// find parses doc and finds our set, checking its type.
func (NamedSet) find(t Target, doc []byte) (root gjson.Result, set jsonedit.Member, ok bool, err error) {
	root, err = jsonedit.ParseObject(doc)
	if err != nil {
		return
	}
	set, ok, err = jsonedit.Lookup(doc, root, t.NS)
	if err != nil || !ok {
		return
	}
	if !set.Val.IsObject() {
		err = jsonedit.ShapeErrorAt(doc, set.Val, fmt.Sprintf("%q is %s, not a named hook set (an object)", t.NS, jsonedit.TypeName(set.Val)))
	}
	return
}

func antigravityCheck(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error) {
	var notes []string
	if !jsonedit.IsBlank(cur) {
		if _, _, _, err := (NamedSet{}).find(t, cur); err != nil {
			return nil, err
		}
	}
	if b, ok := files[antigravityDeadPath(t)]; ok {
		if root, err := jsonedit.ParseObject(b); err == nil {
			if _, has, _ := jsonedit.Lookup(b, root, t.NS); has {
				notes = append(notes, fmt.Sprintf("%s holds a hook set %q: Antigravity loads that file and never runs it; remove the set from there (hookinstall writes only %s)", antigravityDeadPath(t), t.NS, a.File(t)))
			}
		}
	}
	return notes, nil
}

func (n NamedSet) add(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want := n.set(a, t)
	ed := Edit{Entries: map[string][]string{t.NS: {jsonedit.Compact(want)}}}
	if prev != nil {
		ed.Created = append(ed.Created, prev.Created...)
		for p, ws := range prev.Emptied {
			ed.NoteEmpty(p, ws)
		}
	}
	if jsonedit.IsBlank(cur) {
		ed.Doc = []byte(jsonedit.Render(jsonedit.Obj{{K: t.NS, V: want}}, jsonedit.DefaultFormat(), "", false) + jsonedit.DefaultFormat().Newline)
		ed.Created = []string{t.NS}
		return ed, nil
	}
	root, set, ok, err := n.find(t, cur)
	if err != nil {
		return ed, err
	}
	f := jsonedit.DetectFormat(cur, root)
	switch {
	case !ok:
		ed.NoteEmptied("", root)
		ed.Doc = jsonedit.AppendChild(cur, root, &t.NS, want, f)
		ed.Created = jsonedit.AddUnique(ed.Created, t.NS)
	case jsonedit.SameJSON(set.Val.Raw, want):
		ed.Doc = cur
	case setKind(set.Val, t.Prefix()) == jsonedit.Foreign:
		return ed, jsonedit.ErrorAt(cur, int64(set.KeyStart), fmt.Sprintf("a hook set named %q that hookinstall did not write is already there; install under another --namespace", t.NS))
	case force || setKind(set.Val, t.Prefix()) == jsonedit.OursPure && prev.Wrote(t.NS, set.Val.Raw):
		ed.Doc = jsonedit.ReplaceValue(cur, set.Val, want, f)
	default:
		ed.Doc = cur
		ed.Entries[t.NS] = nil
		ed.Kept = true
		ed.Notes = append(ed.Notes, fmt.Sprintf("hook set %q was edited by hand; left as it is (--force replaces it)", t.NS))
	}
	return ed, nil
}

func (n NamedSet) remove(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	ed := Edit{Entries: map[string][]string{}, Doc: cur}
	if jsonedit.IsBlank(cur) {
		return ed, nil
	}
	root, set, ok, err := n.find(t, cur)
	if err != nil || !ok {
		return ed, err
	}
	kind := setKind(set.Val, t.Prefix())
	switch {
	case kind == jsonedit.Foreign:
		// Not ours: a set of the user's that happens to bear our name.
	case force || kind == jsonedit.OursPure && (prev.Wrote(t.NS, set.Val.Raw) || jsonedit.SameJSON(set.Val.Raw, n.set(a, t))):
		ed.Doc = []byte(jsonedit.MapEdit{Prev: prev}.DeleteMember(string(cur), root, t.NS, ""))
	default:
		ed.Kept = true
		ed.Notes = append(ed.Notes, fmt.Sprintf("hook set %q was edited by hand; left in place (--force removes it)", t.NS))
	}
	return ed, nil
}

func (NamedSet) read(a *Agent, t Target, cfg File) ([]Check, *EventMap) {
	return a.readJSONMap(t, cfg, t.NS)
}

func (NamedSet) empty(doc []byte) bool { return jsonedit.IsEmptyObject(doc) }

func (NamedSet) escapes() string { return jsonedit.Escapes }

func (NamedSet) eventsKey(t Target) string { return t.NS }

// antigravitySwitches checks our hook set's own switch.
func antigravitySwitches(in Input) []Check {
	f := in.Config
	if !f.Exists || !gjson.ValidBytes(f.Data) {
		return nil
	}
	ns := in.T.NS
	set := gjson.ParseBytes(f.Data).Get(gjson.Escape(ns))
	if !set.Exists() {
		return nil
	}
	if e := set.Get("enabled"); e.Exists() && e.Type != gjson.True {
		return []Check{fail("switch.enabled", f.Path, fmt.Sprintf("%s: hook set %q has \"enabled\": %s, so Antigravity runs none of it", f.Path, ns, e.Raw), "set it to true, or run '"+in.T.Command("add --force")+"'")}
	}
	return []Check{pass("switch.enabled", f.Path, fmt.Sprintf("%s: hook set %q is enabled", f.Path, ns))}
}

// antigravityDeadPaths flags a set of ours in ~/.gemini/antigravity-cli/hooks.json:
// Antigravity loads that file and never runs it (measured on agy 1.1.22:
// "loaded 1 named hooks", then nothing).
func antigravityDeadPaths(in Input) []Check {
	t := in.T
	path := antigravityDeadPath(t)
	f := in.File(path)
	if f.Exists && (bytes.Contains(f.Data, []byte(t.Prefix())) || gjson.ValidBytes(f.Data) && gjson.ParseBytes(f.Data).Get(gjson.Escape(t.NS)).Exists()) {
		return []Check{fail("deadpath.antigravity-cli", path, fmt.Sprintf("%s holds our hook set %q: Antigravity loads that file and never runs it (the live path is %s)", path, t.NS, antigravityConfig(t)),
			fmt.Sprintf("delete the %q set from %s, then run '%s'", t.NS, path, t.Command("add")))}
	}
	return []Check{pass("deadpath.antigravity-cli", path, fmt.Sprintf("nothing of ours in %s (a path Antigravity loads and never runs)", path))}
}

// readAgyHooks reads `agy -p "/hooks" --output-format json`, which lists the
// command Antigravity resolved per event (seed 003: an empty command means a
// wrong shape).
func readAgyHooks(in AskInput) []Check {
	var missing []string
	for _, c := range in.Ours {
		q, _ := json.Marshal(c)
		if !bytes.Contains(in.Out, q) && !bytes.Contains(in.Out, []byte(c)) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return []Check{{ID: "binary.antigravity", Result: Fail, File: in.Config, Timed: true,
			Verdict: fmt.Sprintf("agy -p /hooks does not show %s: Antigravity resolved no such command (a wrapped handler registers with an empty command)", strings.Join(missing, ", ")),
			Hint:    "run '" + in.T.Command("add --force") + "'"}}
	}
	return []Check{{ID: "binary.antigravity", Result: Pass, File: in.Config, Timed: true,
		Verdict: "agy -p /hooks shows every command of ours"}}
}
