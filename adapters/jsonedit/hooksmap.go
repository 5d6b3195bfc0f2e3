package jsonedit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
)

// A ShapeError says that a value the agent reads has the wrong JSON type.
type ShapeError = SyntaxError

func ShapeErrorAt[D Text](doc D, v gjson.Result, what string) error {
	return ErrorAt(doc, int64(v.Index), what)
}

func TypeName(v gjson.Result) string {
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
type Kind int

const (
	Foreign   Kind = iota // no command of ours
	OursPure              // every command in it is ours
	OursMixed             // ours beside the user's handlers
)

// Commands returns the command strings of an event-array element: the
// handlers of a {hooks: [...]} group ("" for a handler whose command is not
// a string), or the element itself when it is a handler.
func Commands(e gjson.Result) []string {
	var cs []string
	if !e.IsObject() {
		return nil
	}
	if hs := e.Get("hooks"); hs.IsArray() {
		for _, h := range elements(hs) {
			if c, ok := command(h); ok {
				cs = append(cs, c)
			} else {
				cs = append(cs, "")
			}
		}
		return cs
	}
	if c, ok := command(e); ok {
		return []string{c}
	}
	return nil
}

// command is a handler's command: its "command", or, where there is none,
// its "bash" (Copilot's key for a shell command; Copilot takes "command" as
// an alias of it).
func command(h gjson.Result) (string, bool) {
	if c := h.Get("command"); c.Type == gjson.String {
		return c.Str, true
	}
	if c := h.Get("bash"); c.Type == gjson.String && !h.Get("command").Exists() {
		return c.Str, true
	}
	return "", false
}

func Classify(e gjson.Result, prefix string) Kind {
	if !mayHold(e.Raw, prefix) {
		return Foreign
	}
	return KindOf(Commands(e), prefix)
}

// KindOf classifies commands: none under prefix, all of them, or some.
func KindOf(cs []string, prefix string) Kind {
	ours := 0
	for _, c := range cs {
		if strings.HasPrefix(c, prefix) {
			ours++
		}
	}
	switch {
	case ours == 0:
		return Foreign
	case ours == len(cs):
		return OursPure
	default:
		return OursMixed
	}
}

// mayHold reports whether the JSON text raw may hold a string that starts
// with prefix. It is false only when that is certain: when the prefix has no
// byte that JSON must escape, and raw has none of the escapes (\u, \/) that
// could spell one of its bytes otherwise, every such string holds the prefix
// verbatim. A config with thousands of user hooks is then classified at
// the speed of a substring search, not of a parse of each entry.
func mayHold(raw, prefix string) bool {
	for i := 0; i < len(prefix); i++ {
		if c := prefix[i]; c < 0x20 || c == '"' || c == '\\' {
			return true
		}
	}
	return strings.Contains(raw, prefix) || strings.Contains(raw, `\u`) || strings.Contains(raw, `\/`)
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
	// Emptied are the user's containers that were empty before the
	// install, with the white space inside them, by path ("" is the root).
	Emptied map[string]string
	// CreatedFile says the install created the file: a remove that leaves
	// an empty object in it deletes it.
	CreatedFile bool
}

func (r *Record) Wrote(event, raw string) bool {
	return r == nil || slices.ContainsFunc(r.Entries[event], func(w string) bool { return SameRaw(raw, w) })
}

func (r *Record) created(path string) bool { return r == nil || slices.Contains(r.Created, path) }

// FileContainer, in a Record's Created (the manifest's containers), says
// that the file itself was not the user's: another namespace's install
// created it, and this install took that over (Adopt). A removal that
// leaves the file holding nothing then deletes it, as for a file this
// install created (Record.CreatedFile), but an exact restore does not: the
// backup holds the other namespace's entries.
const FileContainer = "(file)"

// Adopt is the rule that gives the user's file back whatever order the
// installs of several namespaces (each with its own manifest) are removed
// in. A container (the file, an object or array in it) created by one
// namespace may be kept alive by another's entries when the first leaves,
// and whichever namespace leaves last must delete it. So the first install
// of a file in a namespace takes over, from the records of the other
// namespaces' installs of the same file (others), every container they
// created (with FileContainer for a file they created) and the white space
// of every user's container they found empty: none of them was in the
// user's file. A removal deletes a container only when it leaves it empty,
// so one that the user has since put something in stays. ed is the
// install's own edit; the result is ed with its Created and Emptied grown.
func Adopt(ed Edit, others []*Record) Edit {
	for _, o := range others {
		if o == nil {
			continue
		}
		if o.CreatedFile {
			ed.Created = AddUnique(ed.Created, FileContainer)
		}
		for _, c := range o.Created {
			ed.Created = AddUnique(ed.Created, c)
		}
		for p, ws := range o.Emptied {
			ed.NoteEmpty(p, ws)
		}
	}
	return ed
}

// NotUsers reports whether r says that the file was not the user's: the
// install created it, or took it over from another namespace's (Adopt). A
// removal that leaves such a file holding nothing deletes it.
func (r *Record) NotUsers() bool {
	return r != nil && (r.CreatedFile || slices.Contains(r.Created, FileContainer))
}

// An Edit is the planned new content of one config file.
type Edit struct {
	Doc     []byte              // the new bytes; nil with Delete set means remove the file
	Delete  bool                // remove the file
	Entries map[string][]string // entries now installed, for the manifest
	Created []string            // containers created, for the manifest
	Emptied map[string]string   // user's empty containers filled, for the manifest (Record.Emptied)
	Notes   []string            // things the user must hear (hand-edited entries left alone)
	Kept    bool                // some entry of ours is still in the file after a remove
}

// A MapEdit edits the event map at root[Key] ("hooks" for Claude-style
// files): Add installs Want, Remove takes every entry of ours out.
type MapEdit struct {
	Key    string
	Prefix string // ownership: a command is ours when it starts with Prefix
	Want   []EventEntry
	Prev   *Record
	Force  bool
	Fmt    *Format // layout for a new document; nil means detect
	// Comments: the agent reads JSONC (// and /* */ comments, no trailing
	// commas), so the document may hold comments, which stay (jsonc.go).
	Comments bool
	// cur, when set, follows one add or remove of a JSONC document.
	cur *cursor
	// parsed is the plan's shared parse (Target.parsed), or nil.
	Parsed *Parsed
	// noOnePass makes add and remove edit step by step only (tests
	// compare the two).
	noOnePass bool
}

// A cursor is what one add or remove keeps between its edits. jsonc: the
// document edited is a JSONC document with its comments blanked, and orig
// is that document with them, edit for edit.
type cursor struct {
	jsonc bool
	orig  string
}

// begin returns m with a fresh cursor, for one add or remove.
func (m MapEdit) begin() MapEdit {
	m.cur = &cursor{}
	return m
}

// apply makes e in doc (and in the JSONC document with its comments).
func (m MapEdit) apply(doc string, e edit) string {
	if c := m.cur; c != nil && c.jsonc {
		c.orig = e.apply(c.orig)
		e.text = blank(e.text)
	}
	return e.apply(doc)
}

func (m MapEdit) path(event string) string { return m.Key + "/" + event }

func (m MapEdit) want(event string) (Obj, bool) {
	for _, w := range m.Want {
		if w.Event == event {
			return w.Entry, true
		}
	}
	return nil, false
}

// parse parses doc and finds the event map, checking its type, and reads
// the layout that inserted text imitates.
func (m MapEdit) parse(in []byte) (doc string, root gjson.Result, f Format, hooks member, ok bool, err error) {
	doc, root, _, hooks, ok, err = m.CheckRoot(in)
	if err == nil {
		f = detectFormat(doc, root)
	}
	return
}

// check is parse without the layout, for callers that insert nothing.
func (m MapEdit) Check(in []byte) (root gjson.Result, hooks member, ok bool, err error) {
	_, root, _, hooks, ok, err = m.CheckRoot(in)
	return
}

// checkRoot is check, also giving the root's members (one scan of a large
// document, which callers that read other root keys can reuse).
//
// The document comes back as the string that the results point into.
func (m MapEdit) CheckRoot(in []byte) (doc string, root gjson.Result, rms []member, hooks member, ok bool, err error) {
	// An add or remove (a cursor) takes the plan's parse over.
	doc, root, rms, err = m.Parsed.parse(in, m.Comments, m.cur != nil)
	if err != nil {
		return
	}
	if m.Comments && m.cur != nil {
		m.cur.jsonc, m.cur.orig = true, string(in)
	}
	hooks, ok, err = lookupIn(doc, rms, m.Key)
	if err != nil || !ok {
		return
	}
	if !hooks.Val.IsObject() {
		err = ShapeErrorAt(doc, hooks.Val, fmt.Sprintf("%q is %s, not an object", m.Key, TypeName(hooks.Val)))
		return
	}
	evs := members(hooks.Val)
	second := repeats(evs)
	for _, ev := range evs {
		if _, wanted := m.want(ev.Key); wanted {
			if at, dup := second[ev.Key]; dup {
				err = ErrorAt(doc, int64(at), fmt.Sprintf("duplicate key %q", ev.Key))
				return
			}
			if !ev.Val.IsArray() {
				err = ShapeErrorAt(doc, ev.Val, fmt.Sprintf("%q in %q is %s, not an array", ev.Key, m.Key, TypeName(ev.Val)))
				return
			}
		}
	}
	return
}

// CheckKeys is CheckRoot for a caller that reads a few top-level keys: the
// same errors, and a lookup of the first member of each name.
func (m MapEdit) CheckKeys(in []byte) (func(key string) gjson.Result, error) {
	_, _, rms, _, _, err := m.CheckRoot(in)
	return lookupOf(rms), err
}

// repeats maps each key that appears more than once in ms to the offset of
// its second appearance (where lookup reports it).
func repeats(ms []member) map[string]int {
	seen := make(map[string]bool, len(ms))
	second := map[string]int{}
	for _, m := range ms {
		if !seen[m.Key] {
			seen[m.Key] = true
		} else if _, ok := second[m.Key]; !ok {
			second[m.Key] = m.KeyStart
		}
	}
	return second
}

// locate finds the event map in doc without checking doc again: doc is one
// that parse accepted, or was made from one by our own splices (which keep
// it valid and keep the shapes parse checked).
func (m MapEdit) locate(doc string) (hooks member, ok bool) {
	return Find(rootOf(doc), m.Key)
}

func hooksObj(entries []EventEntry) Obj {
	var o Obj
	for _, w := range entries {
		o = append(o, KV{w.Event, []any{w.Entry}})
	}
	return o
}

// add installs m.Want into doc. A blank doc becomes a new file.
func (m MapEdit) Add(in []byte) (Edit, error) {
	m = m.begin()
	ed := Edit{Entries: map[string][]string{}}
	for _, w := range m.Want {
		ed.Entries[w.Event] = []string{Compact(w.Entry)}
	}
	if m.Prev != nil {
		ed.Created = append(ed.Created, m.Prev.Created...)
		for p, ws := range m.Prev.Emptied {
			ed.NoteEmpty(p, ws)
		}
	}
	if IsBlank(in) {
		f := DefaultFormat()
		if m.Fmt != nil {
			f = *m.Fmt
		}
		ed.Doc = []byte(Render(Obj{{m.Key, hooksObj(m.Want)}}, f, "", false) + f.Newline)
		ed.Created = []string{m.Key}
		for _, w := range m.Want {
			ed.Created = append(ed.Created, m.path(w.Event))
		}
		return ed, nil
	}
	// The edits below work on doc, a string: each makes a new one, and in
	// is never changed.
	doc, root, f, hooks, ok, err := m.parse(in)
	if err != nil {
		return ed, err
	}
	if !ok {
		m.noteEmptied(&ed, "", root)
		e := m.appendEdit(doc, root, &m.Key, hooksObj(m.Want), f)
		ed.Doc = Splice(in, e.from, e.to, e.text)
		ed.Created = AddUnique(ed.Created, m.Key)
		for _, w := range m.Want {
			ed.Created = AddUnique(ed.Created, m.path(w.Event))
		}
		return ed, nil
	}
	if m.Prev == nil && m.onlyOurs(hooks.Val) {
		// No manifest, and the map holds nothing but our entries (an agent
		// wrote back a copy with them after a remove): it is ours to take
		// away again, as remove without a manifest would.
		ed.Created = AddUnique(ed.Created, m.Key)
	}
	if edits, ok := m.appends(doc, hooks, f, &ed); ok {
		ed.Doc = spliceLarge(in, edits)
		return ed, nil
	}
	for _, w := range m.Want {
		doc, err = m.addEvent(doc, w, f, &ed)
		if err != nil {
			return ed, err
		}
	}
	doc, err = m.dropStale(doc, &ed)
	if err != nil {
		return ed, err
	}
	ed.Doc = []byte(m.out(doc))
	return ed, nil
}

// appends are add's edits for the usual case, all read from doc and made
// in one splice of the caller's bytes: no entry of ours anywhere in the
// map, so each event gets one entry appended (to its array, or as a new
// member at the end of the map for at most one event that is not there
// yet), each at its own place. ok is false when the case is another: add
// then makes its edits one by one, each in a new copy of the document.
func (m MapEdit) appends(doc string, hooks member, f Format, ed *Edit) ([]edit, bool) {
	if m.noOnePass || mayHold(hooks.Val.Raw, m.Prefix) {
		return nil, false
	}
	var edits []edit
	var created, emptied []string
	var emptiedVal []gjson.Result
	missing := 0
	for _, w := range m.Want {
		ev, ok := Find(hooks.Val, w.Event)
		if !ok {
			if missing++; missing > 1 {
				return nil, false
			}
			created = append(created, m.path(w.Event))
			emptied, emptiedVal = append(emptied, m.Key), append(emptiedVal, hooks.Val)
			edits = append(edits, m.appendEdit(doc, hooks.Val, &w.Event, []any{w.Entry}, f))
			continue
		}
		emptied, emptiedVal = append(emptied, m.path(w.Event)), append(emptiedVal, ev.Val)
		edits = append(edits, m.appendEdit(doc, ev.Val, nil, w.Entry, f))
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	for i := 1; i < len(edits); i++ {
		if edits[i].from < edits[i-1].to || edits[i].from == edits[i-1].from {
			return nil, false
		}
	}
	for _, c := range created {
		ed.Created = AddUnique(ed.Created, c)
	}
	for i, p := range emptied {
		m.noteEmptied(ed, p, emptiedVal[i])
	}
	return edits, true
}

// addEvent makes the array of one event hold our entry exactly once.
func (m MapEdit) addEvent(doc string, w EventEntry, f Format, ed *Edit) (string, error) {
	hooks, _ := m.locate(doc)
	ev, ok := Find(hooks.Val, w.Event)
	if !ok {
		ed.Created = AddUnique(ed.Created, m.path(w.Event))
		m.noteEmptied(ed, m.Key, hooks.Val)
		return m.apply(doc, m.appendEdit(doc, hooks.Val, &w.Event, []any{w.Entry}, f)), nil
	}
	// Keep the first canonical entry; upgrade an old one of ours in place;
	// delete further copies; leave hand-edited ones alone.
	keep := -1
	var drop []int
	var stale []int
	var els []gjson.Result
	if mayHold(ev.Val.Raw, m.Prefix) { // else every entry is the user's
		els = elements(ev.Val)
	}
	for i, e := range els {
		switch Classify(e, m.Prefix) {
		case OursPure:
			switch {
			case SameJSON(e.Raw, w.Entry):
				if keep < 0 {
					keep = i
				} else {
					drop = append(drop, i)
				}
			case m.Prev.Wrote(w.Event, e.Raw) || m.Force:
				stale = append(stale, i)
			default:
				ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d of ours was edited by hand; left as it is (--force replaces it)", w.Event, i))
				ed.Kept = true
				if keep < 0 {
					keep = -2
				}
			}
		case OursMixed:
			ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d mixes our hook with others; left as it is", w.Event, i))
			ed.Kept = true
			if keep < 0 {
				keep = -2
			}
		}
	}
	if m.Prev == nil && m.onlyOurs(ev.Val) {
		ed.Created = AddUnique(ed.Created, m.path(w.Event))
	}
	if keep == -2 {
		ed.Entries[w.Event] = nil
		drop = append(drop, stale...)
		stale = nil
	}
	if keep < 0 && len(stale) > 0 {
		// Upgrade in place: the first stale entry becomes the canonical one.
		doc = m.apply(doc, replaceEdit(doc, els[stale[0]], w.Entry, f))
		drop = append(drop, stale[1:]...)
		keep = stale[0]
	} else {
		drop = append(drop, stale...)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(drop)))
	for _, i := range drop {
		hooks, _ = m.locate(doc)
		ev, _ = Find(hooks.Val, w.Event)
		doc = m.apply(doc, m.delEdit(doc, ev.Val, i))
	}
	if keep == -1 {
		if len(drop) > 0 {
			hooks, _ = m.locate(doc)
			ev, _ = Find(hooks.Val, w.Event)
		}
		m.noteEmptied(ed, m.path(w.Event), ev.Val)
		doc = m.apply(doc, m.appendEdit(doc, ev.Val, nil, w.Entry, f))
	}
	return doc, nil
}

// NoteEmptied records container c at path, when it is empty and holds white
// space that appending to it drops: a removal that empties it again puts
// that white space back.
func (ed *Edit) NoteEmptied(path string, c gjson.Result) {
	if len(c.Raw) < 2 || (c.IsObject() && len(members(c)) > 0) || (c.IsArray() && len(elements(c)) > 0) {
		return
	}
	if inner := c.Raw[1 : len(c.Raw)-1]; inner != "" {
		ed.NoteEmpty(path, inner)
	}
}

func (ed *Edit) NoteEmpty(path, ws string) {
	if _, ok := ed.Emptied[path]; ok {
		return
	}
	if ed.Emptied == nil {
		ed.Emptied = map[string]string{}
	}
	ed.Emptied[path] = strings.Clone(ws)
}

// deleteEdit is deleteEdit(c, i), except that a container at path that the
// install found empty gets back the white space it held then, once its
// last child goes.
func (m MapEdit) deleteEdit(doc string, c gjson.Result, i int, path string) edit {
	e := m.delEdit(doc, c, i)
	if full := deleteEdit(c, i); full.from == c.Index && full.to == end(c) {
		if r, ok := m.restoreEmptied(doc, c, path); ok {
			return r
		}
	}
	return e
}

// deleteMember deletes key from obj at path (see deleteEdit).
func (m MapEdit) DeleteMember(doc string, obj gjson.Result, key, path string) string {
	for i, mb := range members(obj) {
		if mb.Key == key {
			if o := m.orig(); o != "" && o[mb.Val.Index:mb.end()] != doc[mb.Val.Index:mb.end()] {
				return doc // it holds a comment, which is the user's: it stays
			}
			return m.apply(doc, m.deleteEdit(doc, obj, i, path))
		}
	}
	return doc
}

// WasEmpty returns the white space that the container at path held when the
// install found it empty, and whether it was.
func (r *Record) WasEmpty(path string) (string, bool) {
	if r == nil {
		return "", false
	}
	ws, ok := r.Emptied[path]
	return ws, ok
}

// dropStale removes entries of ours under events we no longer install (an
// older version's), when they are as written.
func (m MapEdit) dropStale(doc string, ed *Edit) (string, error) {
	keep := map[string]bool{}
	for _, w := range m.Want {
		keep[w.Event] = true
	}
	out, _, err := m.removeWhere(doc, func(event string) bool { return !keep[event] }, ed, false)
	if out == "" {
		return doc, err
	}
	return out, err
}

// remove takes every entry of ours out of doc.
func (m MapEdit) Remove(in []byte) (Edit, error) {
	m = m.begin()
	ed := Edit{Entries: map[string][]string{}}
	if IsBlank(in) {
		ed.Doc = in
		return ed, nil
	}
	doc, _, _, _, ok, err := m.CheckRoot(in)
	if err != nil || !ok {
		ed.Doc = in
		return ed, err
	}
	out, edits, err := m.removeWhere(doc, func(string) bool { return true }, &ed, !m.noOnePass)
	switch {
	case err != nil:
		return ed, err
	case edits != nil:
		ed.Doc = spliceLarge(in, edits)
	case out == "":
		ed.Doc = in // nothing of ours: the caller's bytes, not a copy
	default:
		ed.Doc = []byte(m.out(out))
	}
	return ed, nil
}

// A cut is what a removal deletes in one event's array: how many
// deletions (one per entry of ours as written, or under --force one per
// handler of ours in a mixed group), and whether they empty the array.
type cut struct {
	event     string
	dels      int
	emptiesIt bool
	arr       gjson.Result // the event's array
	first     int          // its first entry of ours to delete, if pure
	mixed     bool         // some deletion is a handler in a mixed group
}

// A left is an entry of ours that a removal leaves (edited by hand, or
// mixed), as found before the cuts: its index moves when one cut is made
// before it (see onePass).
type left struct {
	event string
	i     int
	k     Kind
	cut   int // index into the cuts of its event's cut, or -1
}

// deletable reports whether entry e of event's array, of kind k, is one of
// ours that a removal takes out: as written (the manifest's record, or the
// entry we install now), or any pure one under --force.
func (m MapEdit) deletable(event string, e gjson.Result, k Kind) bool {
	return k == OursPure && (m.Prev.Wrote(event, e.Raw) || isCanonical(m, event, e.Raw) || m.Force)
}

// removeWhere deletes our entries under the events that pick selects, then
// the containers that we created and that became empty, and returns the
// new document; "" when nothing is cut. doc has passed parse.
//
// With onePass, when each event loses one entry of ours and keeps others
// (the usual removal), it returns instead the deletions, read from doc,
// for one splice of the caller's bytes: they are at separate places and
// need no edit after another. Otherwise it deletes edit by edit, each in
// a new copy of the document (removeStepwise).
func (m MapEdit) removeWhere(doc string, pick func(event string) bool, ed *Edit, onePass bool) (string, []edit, error) {
	hooks, ok := m.locate(doc)
	if !ok {
		return "", nil, nil
	}
	// One pass finds the events that hold something to delete, and what
	// to report if nothing is deleted.
	evs := members(hooks.Val)
	second := repeats(evs)
	var cuts []cut
	var notes []string
	kept := false
	var lefts []left // what stays of ours, if the cuts are one per event
	for _, ev := range evs {
		if !pick(ev.Key) || !ev.Val.IsArray() {
			continue
		}
		if at, dup := second[ev.Key]; dup {
			return "", nil, ErrorAt(doc, int64(at), fmt.Sprintf("duplicate key %q", ev.Key))
		}
		if !mayHold(ev.Val.Raw, m.Prefix) {
			continue // nothing of ours in this event
		}
		c := cut{event: ev.Key, arr: ev.Val, first: -1}
		pure, i := 0, -1
		nLefts := len(lefts)
		ev.Val.ForEach(func(_, e gjson.Result) bool {
			i++
			k := Classify(e, m.Prefix)
			switch {
			case m.deletable(ev.Key, e, k):
				c.dels++
				pure++
				if c.first < 0 {
					c.first = i
				}
			case k == OursMixed && m.Force:
				for _, h := range elements(e.Get("hooks")) {
					if cm := h.Get("command"); cm.Type == gjson.String && strings.HasPrefix(cm.Str, m.Prefix) {
						c.dels++
						c.mixed = true
					}
				}
			}
			if n := leftNote(ev.Key, i, k); n != "" {
				notes = append(notes, n)
				kept = true
				if i != c.first {
					lefts = append(lefts, left{ev.Key, i, k, -1})
				}
			}
			return true
		})
		if c.dels > 0 {
			c.emptiesIt = pure == i+1
			for j := nLefts; j < len(lefts); j++ {
				lefts[j].cut = len(cuts)
			}
			cuts = append(cuts, c)
		}
	}
	if len(cuts) == 0 {
		ed.Notes = append(ed.Notes, notes...)
		ed.Kept = ed.Kept || kept
		return "", nil, nil
	}
	for _, c := range cuts {
		onePass = onePass && c.dels == 1 && !c.mixed && !c.emptiesIt && c.first >= 0
	}
	if !onePass {
		return m.removeStepwise(doc, cuts, pick, ed), nil, nil
	}
	edits := make([]edit, len(cuts))
	for j, c := range cuts { // in the order of the events: in doc order
		edits[j] = m.deleteEdit(doc, c.arr, c.first, m.path(c.event))
	}
	for _, l := range lefts { // their indexes after the cuts
		i := l.i
		if l.cut >= 0 && i > cuts[l.cut].first {
			i-- // the entry before it went
		}
		ed.Notes = append(ed.Notes, leftNote(l.event, i, l.k))
		ed.Kept = true
	}
	return "", edits, nil
}

// removeStepwise makes the cuts in doc one deletion at a time, each found
// again in the document the last one made; then deletes the event arrays
// and the event map that we created and that became empty, and reports
// what is left of ours under the events that pick selects.
func (m MapEdit) removeStepwise(doc string, cuts []cut, pick func(event string) bool, ed *Edit) string {
	for _, c := range cuts {
		event := c.event
		for d := 0; d < c.dels; d++ {
			hooks, _ := m.locate(doc)
			ev, _ := Find(hooks.Val, event)
			changed := false
			for i, e := range elements(ev.Val) {
				k := Classify(e, m.Prefix)
				if m.deletable(event, e, k) {
					doc = m.apply(doc, m.deleteEdit(doc, ev.Val, i, m.path(event)))
					changed = true
					break
				}
				if k == OursMixed && m.Force {
					hs := e.Get("hooks")
					for j, h := range elements(hs) {
						if c := h.Get("command"); c.Type == gjson.String && strings.HasPrefix(c.Str, m.Prefix) {
							doc = m.apply(doc, m.delEdit(doc, hs, j))
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
		}
		if !c.emptiesIt {
			continue
		}
		hooks, _ := m.locate(doc)
		ev, _ := Find(hooks.Val, event)
		if len(elements(ev.Val)) == 0 && m.Prev.created(m.path(event)) {
			doc = m.DeleteMember(doc, hooks.Val, event, m.Key)
		}
	}
	// Report what is left of ours.
	hooks, _ := m.locate(doc)
	for _, ev := range members(hooks.Val) {
		if !pick(ev.Key) || !ev.Val.IsArray() || !mayHold(ev.Val.Raw, m.Prefix) {
			continue
		}
		for i, e := range elements(ev.Val) {
			if n := leftNote(ev.Key, i, Classify(e, m.Prefix)); n != "" {
				ed.Notes = append(ed.Notes, n)
				ed.Kept = true
			}
		}
	}
	if len(members(hooks.Val)) == 0 && m.Prev.created(m.Key) {
		doc = m.DeleteMember(doc, rootOf(doc), m.Key, "")
	}
	return doc
}

// leftNote says why entry i of event, of kind k, stays after a removal.
func leftNote(event string, i int, k Kind) string {
	switch k {
	case OursPure:
		return fmt.Sprintf("%s entry %d of ours was edited by hand; left in place (--force removes it)", event, i)
	case OursMixed:
		return fmt.Sprintf("%s entry %d mixes our hook with others; left in place (--force removes our handler)", event, i)
	}
	return ""
}

// onlyOurs reports whether c (the event map, or one event's array) holds
// entries and every one of them is purely ours.
//
// It stops at the first entry that is not ours, and answers without a scan
// when c cannot hold our prefix at all (mayHold): on a user's large config
// that is the usual case.
func (m MapEdit) onlyOurs(c gjson.Result) bool {
	if !mayHold(c.Raw, m.Prefix) {
		return false
	}
	n := 0
	ok := true
	if c.IsObject() {
		c.ForEach(func(k, v gjson.Result) bool {
			if _, wanted := m.want(k.Str); !wanted || !v.IsArray() || !m.onlyOurs(v) {
				ok = false
			}
			n++
			return ok
		})
		return ok && n > 0
	}
	c.ForEach(func(_, e gjson.Result) bool {
		if Classify(e, m.Prefix) != OursPure {
			ok = false
		}
		n++
		return ok
	})
	return ok && n > 0
}

func isCanonical(m MapEdit, event, raw string) bool {
	w, ok := m.want(event)
	return ok && SameJSON(raw, w)
}

func AddUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
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
