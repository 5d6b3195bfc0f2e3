package doctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/adapters/jsonedit"
)

// controlFields are keys that change how an agent runs a hook or what it does
// with the result. We write none of them: async makes Claude drop
// terminalSequence, and the others gate the agent instead of observing it.
var controlFields = map[string]bool{
	"async": true, "asyncRewake": true, "once": true, "decision": true,
	"permissionDecision": true, "continue": true, "stopReason": true,
	"suppressOutput": true, "systemMessage": true, "hookSpecificOutput": true,
	"reason": true, "blocking": true, "background": true,
}

// decode parses JSON text into plain Go values for comparison.
func decode(raw string) any {
	var v any
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// stripControl removes control fields from an element and its handlers and
// returns the fields it removed, sorted.
func stripControl(v any) (any, []string) {
	var found []string
	strip := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, x := range m {
			if controlFields[k] {
				found = append(found, k)
				continue
			}
			out[k] = x
		}
		return out
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	m = strip(m)
	if hs, ok := m["hooks"].([]any); ok {
		var nhs []any
		for _, h := range hs {
			if hm, ok := h.(map[string]any); ok {
				nhs = append(nhs, strip(hm))
			} else {
				nhs = append(nhs, h)
			}
		}
		m["hooks"] = nhs
	}
	sort.Strings(found)
	return m, found
}

// shapeDiff says how an element of ours differs from what the agent runs,
// control fields aside; "" when it does not.
func shapeDiff(got gjson.Result, want string) string {
	g, _ := stripControl(decode(got.Raw))
	w, _ := stripControl(decode(want))
	if reflect.DeepEqual(g, w) {
		return ""
	}
	gm, _ := g.(map[string]any)
	wm, _ := w.(map[string]any)
	_, gGroup := gm["hooks"]
	_, wGroup := wm["hooks"]
	switch {
	case gm == nil:
		return "is not an object"
	case gGroup && !wGroup:
		return "is wrapped in a {\"matcher\", \"hooks\"} group, but this event takes handlers directly: the agent registers it with an empty command and never runs it"
	case !gGroup && wGroup:
		return "is a bare handler, but the agent runs only handlers inside a {\"hooks\": [...]} group here"
	}
	return "is not as hookinstall writes it: " + compact(got.Raw) + ", want " + want
}

func compact(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil {
		return raw
	}
	return b.String()
}

// configJSON runs config.parse (the agent's facts read the config as the
// agent parses it) and the entries.* checks on its event map.
func (r *run) configJSON(p *jsonProfile) *adapters.EventMap {
	cfg := r.cfg
	file := cfg.Path
	switch {
	case cfg.Err != nil:
		r.fail("config.parse", file, fmt.Sprintf("%s: cannot be read: %v", file, cfg.Err), "make it a readable regular file, then run '"+r.t.Command("add")+"'")
		return nil
	case !cfg.Exists && r.a.Config == file: // no other file holds ours (droid's hooks.json)
		r.fail("config.parse", file, fmt.Sprintf("%s does not exist, so %s reads none of our entries", file, p.f.Product), r.addHint())
		return nil
	}
	fs, m := p.f.Read(r.input())
	for _, f := range fs {
		r.add(f)
	}
	if m == nil {
		return nil
	}
	r.entryChecks(p, m)
	return m
}

// entryChecks runs entries.present, entries.shape, entries.unique and
// entries.async.
func (r *run) entryChecks(p *jsonProfile, m *adapters.EventMap) {
	file := r.a.Config // the file that holds ours
	want, events, err := p.wantEntries(r.t)
	if err != nil {
		r.fail("entries.present", file, fmt.Sprintf("cannot compute our entries: %v", err), "")
		return
	}
	scriptOf := map[string]string{} // event -> our command
	for _, ev := range events {
		if cs := jsonedit.Commands(gjson.Parse(want[ev])); len(cs) > 0 {
			scriptOf[ev] = cs[0]
		}
	}
	at := func(o adapters.Occurrence) string { return fmt.Sprintf("%s.%s[%d]", m.Where, o.Event, o.Index) }

	// what the install recorded it wrote into this file, by event (nil
	// without a manifest record)
	var recorded map[string][]string
	if rel, err := filepath.Rel(r.t.Home, file); err == nil {
		if f := r.man.File(rel); f != nil {
			recorded = f.Entries
			if recorded == nil {
				recorded = map[string][]string{}
			}
		}
	}
	wroteAs := func(o adapters.Occurrence) bool {
		return slices.ContainsFunc(recorded[o.Event], func(w string) bool { return jsonedit.SameRaw(o.Elem.Raw, w) })
	}

	// entries.present: our command under each event, at the exact path.
	var missing, newer []string
	for _, ev := range events {
		found := false
		for _, o := range m.Ours {
			if o.Event == ev && slices.Contains(o.Commands, scriptOf[ev]) {
				found = true
			}
		}
		switch {
		case found:
		case recorded != nil && len(recorded[ev]) == 0 && len(m.Ours) > 0:
			newer = append(newer, ev) // the install never wrote one: an older hookinstall's
		default:
			missing = append(missing, ev)
		}
	}
	if len(newer) > 0 {
		r.fail("outdated.entries", file, fmt.Sprintf("%s: no entry of ours under %s: the install (hookinstall %s) has none, and add now writes one", file, quoteList(m.Where, newer), r.man.ToolVersion), r.upHint())
	}
	switch {
	case len(missing) == len(events) && len(m.Ours) == 0:
		why := ""
		if p.f.RewritesStale {
			why = fmt.Sprintf(" (%s has been seen to write back a stale copy of its settings that drops %q)", p.f.Product, "hooks")
		}
		gone := "gone" + why
		if r.man != nil && len(r.man.Files) == 0 { // add --print: the config is the user's
			gone = "not in it (add --print wrote our scripts only)"
		}
		r.fail("entries.present", file, fmt.Sprintf("%s: our entries are %s, so %s runs none of our hooks", file, gone, p.f.Product), r.addHint())
	case len(missing) > 0:
		r.fail("entries.present", file, fmt.Sprintf("%s: no entry of ours under %s, so %s never reports it", file, quoteList(m.Where, missing), p.f.Product), r.addHint())
	default:
		r.pass("entries.present", file, fmt.Sprintf("%s: our entries are under %s", file, quoteList(m.Where, events)))
	}

	// entries.shape: each element of ours under a real event, as written.
	bad := 0
	for _, o := range m.Ours {
		w, ok := want[o.Event]
		if !ok && wroteAs(o) {
			r.fail("outdated.entries", file, fmt.Sprintf("%s: %s is as the install (hookinstall %s) wrote it, but add now writes no entry under %q", file, at(o), r.man.ToolVersion, o.Event), r.upHint())
			bad++
			continue
		}
		if !ok {
			hint := "remove it, then run '" + r.t.Command("add") + "'"
			verdict := fmt.Sprintf("%s: %s holds our hook, but %s runs no event named %q", file, at(o), p.f.Product, o.Event)
			if fix := matchFold(events, o.Event); fix != "" {
				verdict += fmt.Sprintf(" (event names are case-sensitive: %q)", fix)
			}
			r.fail("entries.shape", file, verdict, hint)
			bad++
			continue
		}
		if o.Mixed {
			r.fail("entries.shape", file, fmt.Sprintf("%s: %s mixes our hook with other handlers", file, at(o)), "move the other handlers into an entry of their own, then run '"+r.t.Command("add")+"'")
			bad++
			continue
		}
		if d := shapeDiff(o.Elem, w); d != "" && wroteAs(o) {
			r.fail("outdated.entries", file, fmt.Sprintf("%s: %s is as the install (hookinstall %s) wrote it, not as add writes it now: %s", file, at(o), r.man.ToolVersion, d), r.upHint())
			bad++
		} else if d != "" {
			r.fail("entries.shape", file, fmt.Sprintf("%s: %s %s", file, at(o), d), r.addHint()+" (--force replaces an entry edited by hand)")
			bad++
		}
	}
	if bad == 0 && len(m.Ours) > 0 {
		r.pass("entries.shape", file, fmt.Sprintf("%s: every entry of ours is in the shape %s runs", file, p.f.Product))
	}

	// entries.unique: each of our commands registered once.
	count := map[string][]string{}
	for _, o := range m.Ours {
		for _, c := range o.Commands {
			count[c] = append(count[c], at(o))
		}
	}
	dups := 0
	for _, ev := range events {
		c := scriptOf[ev]
		if n := len(count[c]); n > 1 {
			r.fail("entries.unique", file, fmt.Sprintf("%s: %s is registered %d times (%s), so it fires %d times", file, c, n, strings.Join(count[c], ", "), n), r.addHint()+" (it keeps one copy)")
			dups++
		}
	}
	if dups == 0 && len(m.Ours) > 0 {
		r.pass("entries.unique", file, fmt.Sprintf("%s: each hook of ours is registered exactly once", file))
	}

	// entries.async: no async and no control field.
	ctl := 0
	for _, o := range m.Ours {
		if _, found := stripControl(decode(o.Elem.Raw)); len(found) > 0 {
			why := "we observe, never gate"
			if slices.Contains(found, "async") {
				why = "an async hook's terminalSequence is silently dropped"
			}
			r.fail("entries.async", file, fmt.Sprintf("%s: %s sets %s (%s)", file, at(o), strings.Join(found, ", "), why), "remove "+strings.Join(found, ", ")+" from it, or run '"+r.t.Command("add --force")+"'")
			ctl++
		}
	}
	if ctl == 0 && len(m.Ours) > 0 {
		r.pass("entries.async", file, fmt.Sprintf("%s: no entry of ours is async or sets a control field", file))
	}
}

func quoteList(where string, events []string) string {
	var qs []string
	for _, e := range events {
		qs = append(qs, where+"."+e)
	}
	return strings.Join(qs, ", ")
}

func matchFold(events []string, e string) string {
	for _, x := range events {
		if strings.EqualFold(x, e) {
			return x
		}
	}
	return ""
}
