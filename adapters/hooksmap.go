package adapters

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
)

// A ShapeError says that a value the agent reads has the wrong JSON type.
type ShapeError = SyntaxError

func shapeErr(doc []byte, v gjson.Result, what string) error {
	return syntaxErrorAt(doc, int64(v.Index), what)
}

func typeName(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	case v.Type == gjson.String:
		return "a string"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.True, v.Type == gjson.False:
		return "a boolean"
	default:
		return "null"
	}
}

// An entry is one element of an event array: a {matcher, hooks} group or,
// where an agent takes them directly, a handler.
type entryKind int

const (
	foreign   entryKind = iota // no command of ours
	oursPure                   // every command in it is ours
	oursMixed                  // ours beside the user's handlers
)

// commands returns the command strings of an entry: the handlers of a group,
// or the entry itself when it is a handler.
func commands(e gjson.Result) []string {
	var cs []string
	if !e.IsObject() {
		return nil
	}
	if hs := e.Get("hooks"); hs.IsArray() {
		for _, h := range elements(hs) {
			if c := h.Get("command"); c.Type == gjson.String {
				cs = append(cs, c.Str)
			} else {
				cs = append(cs, "")
			}
		}
		return cs
	}
	if c := e.Get("command"); c.Type == gjson.String {
		return []string{c.Str}
	}
	return nil
}

func classify(e gjson.Result, prefix string) entryKind {
	cs := commands(e)
	ours := 0
	for _, c := range cs {
		if strings.HasPrefix(c, prefix) {
			ours++
		}
	}
	switch {
	case ours == 0:
		return foreign
	case ours == len(cs):
		return oursPure
	default:
		return oursMixed
	}
}

// An EventEntry is what we install for one event.
type EventEntry struct {
	Event string
	Entry Obj
}

// A Record is what an earlier install wrote into one file, from the manifest.
// A nil *Record means there is no manifest: every entry under our prefix is
// then taken to be ours as written.
type Record struct {
	Entries map[string][]string // event -> compact JSON of each entry written
	Created []string            // containers created: "hooks", "hooks/Stop"
	PostSHA string              // sha256 of the file after the install
}

func (r *Record) wrote(event, raw string) bool {
	if r == nil {
		return true
	}
	for _, w := range r.Entries[event] {
		if SameRaw(raw, w) {
			return true
		}
	}
	return false
}

func (r *Record) created(path string) bool {
	if r == nil {
		return true
	}
	for _, c := range r.Created {
		if c == path {
			return true
		}
	}
	return false
}

// An Edit is the planned new content of one config file.
type Edit struct {
	Doc     []byte              // the new bytes; nil with Delete set means remove the file
	Delete  bool                // remove the file
	Entries map[string][]string // entries now installed, for the manifest
	Created []string            // containers created, for the manifest
	Notes   []string            // things the user must hear (hand-edited entries left alone)
	Kept    bool                // some entry of ours is still in the file after a remove
}

// mapEdit edits the event map at root[key] ("hooks" for Claude-style files).
type mapEdit struct {
	Key    string
	Prefix string // ownership: a command is ours when it starts with Prefix
	Want   []EventEntry
	Prev   *Record
	Force  bool
	Fmt    *Format // layout for a new document; nil means detect
}

func (m mapEdit) path(event string) string { return m.Key + "/" + event }

func (m mapEdit) want(event string) (Obj, bool) {
	for _, w := range m.Want {
		if w.Event == event {
			return w.Entry, true
		}
	}
	return nil, false
}

// parse parses doc and finds the event map, checking its type.
func (m mapEdit) parse(doc []byte) (root gjson.Result, f Format, hooks member, ok bool, err error) {
	root, err = ParseObject(doc)
	if err != nil {
		return
	}
	f = DetectFormat(doc, root)
	hooks, ok, err = lookup(doc, root, m.Key)
	if err != nil || !ok {
		return
	}
	if !hooks.Val.IsObject() {
		err = shapeErr(doc, hooks.Val, fmt.Sprintf("%q is %s, not an object", m.Key, typeName(hooks.Val)))
		return
	}
	for _, ev := range members(hooks.Val) {
		if _, wanted := m.want(ev.Key); wanted {
			if _, _, err = lookup(doc, hooks.Val, ev.Key); err != nil {
				return
			}
			if !ev.Val.IsArray() {
				err = shapeErr(doc, ev.Val, fmt.Sprintf("%q in %q is %s, not an array", ev.Key, m.Key, typeName(ev.Val)))
				return
			}
		}
	}
	return
}

func hooksObj(entries []EventEntry) Obj {
	var o Obj
	for _, w := range entries {
		o = append(o, KV{w.Event, []any{w.Entry}})
	}
	return o
}

// add installs m.Want into doc. A blank doc becomes a new file.
func (m mapEdit) add(doc []byte) (Edit, error) {
	ed := Edit{Entries: map[string][]string{}}
	for _, w := range m.Want {
		ed.Entries[w.Event] = []string{Compact(w.Entry)}
	}
	if m.Prev != nil {
		ed.Created = append(ed.Created, m.Prev.Created...)
	}
	if IsBlank(doc) {
		f := DefaultFormat
		if m.Fmt != nil {
			f = *m.Fmt
		}
		ed.Doc = []byte(render(Obj{{m.Key, hooksObj(m.Want)}}, f, "", false) + f.Newline)
		ed.Created = []string{m.Key}
		for _, w := range m.Want {
			ed.Created = append(ed.Created, m.path(w.Event))
		}
		return ed, nil
	}
	root, f, hooks, ok, err := m.parse(doc)
	if err != nil {
		return ed, err
	}
	if !ok {
		ed.Doc = appendChild(doc, root, &m.Key, hooksObj(m.Want), f)
		ed.Created = addUnique(ed.Created, m.Key)
		for _, w := range m.Want {
			ed.Created = addUnique(ed.Created, m.path(w.Event))
		}
		return ed, nil
	}
	_ = hooks
	for _, w := range m.Want {
		doc, err = m.addEvent(doc, w, &ed)
		if err != nil {
			return ed, err
		}
	}
	doc, err = m.dropStale(doc, &ed)
	if err != nil {
		return ed, err
	}
	ed.Doc = doc
	return ed, nil
}

// addEvent makes the array of one event hold our entry exactly once.
func (m mapEdit) addEvent(doc []byte, w EventEntry, ed *Edit) ([]byte, error) {
	_, f, hooks, _, err := m.parse(doc)
	if err != nil {
		return nil, err
	}
	ev, ok, err := lookup(doc, hooks.Val, w.Event)
	if err != nil {
		return nil, err
	}
	if !ok {
		ed.Created = addUnique(ed.Created, m.path(w.Event))
		return appendChild(doc, hooks.Val, &w.Event, []any{w.Entry}, f), nil
	}
	// Keep the first canonical entry; upgrade an old one of ours in place;
	// delete further copies; leave hand-edited ones alone.
	keep := -1
	var drop []int
	var stale []int
	for i, e := range elements(ev.Val) {
		switch classify(e, m.Prefix) {
		case oursPure:
			switch {
			case SameJSON(e.Raw, w.Entry):
				if keep < 0 {
					keep = i
				} else {
					drop = append(drop, i)
				}
			case m.Prev.wrote(w.Event, e.Raw) || m.Force:
				stale = append(stale, i)
			default:
				ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d of ours was edited by hand; left as it is (--force replaces it)", w.Event, i))
				ed.Kept = true
				if keep < 0 {
					keep = -2
				}
			}
		case oursMixed:
			ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d mixes our hook with others; left as it is", w.Event, i))
			ed.Kept = true
			if keep < 0 {
				keep = -2
			}
		}
	}
	if keep == -2 {
		ed.Entries[w.Event] = nil
		drop = append(drop, stale...)
		stale = nil
	}
	if keep < 0 && len(stale) > 0 {
		// Upgrade in place: the first stale entry becomes the canonical one.
		doc = replaceValue(doc, elements(ev.Val)[stale[0]], w.Entry, f)
		drop = append(drop, stale[1:]...)
		keep = stale[0]
	} else {
		drop = append(drop, stale...)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(drop)))
	for _, i := range drop {
		_, _, hooks, _, err = m.parse(doc)
		if err != nil {
			return nil, err
		}
		ev, _, _ = lookup(doc, hooks.Val, w.Event)
		doc = deleteChild(doc, ev.Val, i)
	}
	if keep == -1 {
		_, _, hooks, _, err = m.parse(doc)
		if err != nil {
			return nil, err
		}
		ev, _, _ = lookup(doc, hooks.Val, w.Event)
		doc = appendChild(doc, ev.Val, nil, w.Entry, f)
	}
	return doc, nil
}

// dropStale removes entries of ours under events we no longer install (an
// older version's), when they are as written.
func (m mapEdit) dropStale(doc []byte, ed *Edit) ([]byte, error) {
	keep := map[string]bool{}
	for _, w := range m.Want {
		keep[w.Event] = true
	}
	return m.removeWhere(doc, func(event string) bool { return !keep[event] }, ed)
}

// remove takes every entry of ours out of doc.
func (m mapEdit) remove(doc []byte) (Edit, error) {
	ed := Edit{Entries: map[string][]string{}}
	if IsBlank(doc) {
		ed.Doc = doc
		return ed, nil
	}
	if _, _, _, ok, err := m.parse(doc); err != nil || !ok {
		ed.Doc = doc
		return ed, err
	}
	doc, err := m.removeWhere(doc, func(string) bool { return true }, &ed)
	if err != nil {
		return ed, err
	}
	ed.Doc = doc
	return ed, nil
}

// removeWhere deletes our entries under the events that pick selects, then
// the containers that we created and that became empty.
func (m mapEdit) removeWhere(doc []byte, pick func(event string) bool, ed *Edit) ([]byte, error) {
	_, _, hooks, ok, err := m.parse(doc)
	if err != nil || !ok {
		return doc, err
	}
	var events []string
	for _, ev := range members(hooks.Val) {
		if pick(ev.Key) && ev.Val.IsArray() {
			events = append(events, ev.Key)
		}
	}
	removedAny := false
	for _, event := range events {
		removed := false
		for {
			_, _, hooks, _, err := m.parse(doc)
			if err != nil {
				return nil, err
			}
			ev, _, err := lookup(doc, hooks.Val, event)
			if err != nil {
				return nil, err
			}
			changed := false
			for i, e := range elements(ev.Val) {
				k := classify(e, m.Prefix)
				if k == oursPure && (m.Prev.wrote(event, e.Raw) || isCanonical(m, event, e.Raw) || m.Force) {
					doc = deleteChild(doc, ev.Val, i)
					changed = true
					break
				}
				if k == oursMixed && m.Force {
					hs := e.Get("hooks")
					for j, h := range elements(hs) {
						if c := h.Get("command"); c.Type == gjson.String && strings.HasPrefix(c.Str, m.Prefix) {
							doc = deleteChild(doc, hs, j)
							changed = true
							break
						}
					}
					break
				}
			}
			if !changed {
				break
			}
			removed = true
		}
		if !removed {
			continue
		}
		removedAny = true
		_, _, hooks, _, err := m.parse(doc)
		if err != nil {
			return nil, err
		}
		ev, _, _ := lookup(doc, hooks.Val, event)
		if len(elements(ev.Val)) == 0 && m.Prev.created(m.path(event)) {
			doc = deleteMember(doc, hooks.Val, event)
		}
	}
	// Report what is left of ours.
	_, _, hooks, _, err = m.parse(doc)
	if err != nil {
		return nil, err
	}
	for _, ev := range members(hooks.Val) {
		if !pick(ev.Key) || !ev.Val.IsArray() {
			continue
		}
		for i, e := range elements(ev.Val) {
			switch classify(e, m.Prefix) {
			case oursPure:
				ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d of ours was edited by hand; left in place (--force removes it)", ev.Key, i))
				ed.Kept = true
			case oursMixed:
				ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d mixes our hook with others; left in place (--force removes our handler)", ev.Key, i))
				ed.Kept = true
			}
		}
	}
	if removedAny && len(members(hooks.Val)) == 0 && m.Prev.created(m.Key) {
		root, _ := ParseObject(doc)
		doc = deleteMember(doc, root, m.Key)
	}
	return doc, nil
}

func isCanonical(m mapEdit, event, raw string) bool {
	w, ok := m.want(event)
	return ok && SameJSON(raw, w)
}

func deleteMember(doc []byte, obj gjson.Result, key string) []byte {
	for i, m := range members(obj) {
		if m.Key == key {
			return deleteChild(doc, obj, i)
		}
	}
	return doc
}

func addUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// SameRaw reports whether two JSON texts hold the same value, ignoring white
// space.
func SameRaw(a, b string) bool {
	ra, rb := gjson.Parse(a), gjson.Parse(b)
	return ra.Exists() && rb.Exists() && compactString(a) == compactString(b)
}

func compactString(s string) string {
	var b strings.Builder
	in, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if in {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			in = true
		}
		b.WriteByte(c)
	}
	return b.String()
}
