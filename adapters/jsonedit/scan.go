package jsonedit

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// scan is the strict JSON validator ParseObject gates on: one iterative
// pass over doc that gives encoding/json.Valid's verdict (FuzzValidAgrees
// holds it to that, on every input), depth limit included, without
// recursing (a file of a million '[' costs no stack).
//
// With levels > 0 it also returns where things are, so that the usual add
// and remove can edit the caller's bytes without a copy of them and without
// listing a container twice (addFast, removeFast): the children of every
// container at depth 1 to levels (3 for a config: the root, its values, and
// their values, such as its event map and event arrays): how many, the
// first and the last, and every one for depth 1 and 2, within a budget of
// children proportional to the document's size (a container past it is
// left out).
func scan[D Text](doc D, levels int) (*scanIndex, bool) {
	var ix *scanIndex
	budget := 0
	if levels > 0 {
		ix = &scanIndex{nodes: map[int]*scanNode{}, firstNL: -1}
		budget = len(doc)/32 + 4096
		line(ix, doc, 0)
	}
	type frame struct {
		node     *scanNode // nil when not indexed
		start    int       // the container's first byte
		obj      bool
		keyStart int // the current member's key, in an object
	}
	var st []frame
	n := len(doc)
	i := 0
	const (
		sValue = iota // a value comes next
		sAfter        // a value ended at i (vStart, vEnd)
		sKey          // an object member's key comes next
	)
	state := sValue
	vStart, vEnd := 0, 0
	for {
		switch state {
		case sValue:
			i = skip(ix, doc, i)
			if i >= n {
				return nil, false
			}
			vStart = i
			switch c := doc[i]; {
			case c == '{' || c == '[':
				if len(st) >= maxDepth {
					return nil, false
				}
				f := frame{start: i, obj: c == '{', keyStart: -1}
				if ix != nil && len(st) < levels {
					f.node = &scanNode{start: i, obj: f.obj, all: len(st) < 2}
					ix.nodes[i] = f.node
				}
				st = append(st, f)
				i = skip(ix, doc, i+1)
				if i < n && (doc[i] == '}' && f.obj || doc[i] == ']' && !f.obj) {
					i++
					st = st[:len(st)-1]
					if f.node != nil {
						f.node.end = i
					}
					vStart, vEnd, state = f.start, i, sAfter
					continue
				}
				if f.obj {
					state = sKey
				}
				continue
			case c == '"':
				j, esc, ok := scanString(doc, i)
				if !ok {
					return nil, false
				}
				if esc && ix != nil {
					ix.esc = true
				}
				i = j
			case c == 't':
				if !hasLit(doc, i, "true") {
					return nil, false
				}
				i += 4
			case c == 'f':
				if !hasLit(doc, i, "false") {
					return nil, false
				}
				i += 5
			case c == 'n':
				if !hasLit(doc, i, "null") {
					return nil, false
				}
				i += 4
			case c == '-' || c >= '0' && c <= '9':
				j, ok := scanNumber(doc, i)
				if !ok {
					return nil, false
				}
				i = j
			default:
				return nil, false
			}
			vEnd, state = i, sAfter
		case sAfter:
			if len(st) == 0 {
				return ix, skipWS(doc, i) == n // trailing white space: no line of the body
			}
			top := &st[len(st)-1]
			if nd := top.node; nd != nil {
				k := scanKid{keyStart: int32(top.keyStart), start: int32(vStart), end: int32(vEnd)}
				if nd.n == 0 {
					nd.first = k
				}
				nd.last = k
				nd.n++
				switch {
				case !nd.all:
				case budget > 0:
					budget--
					nd.kids = append(nd.kids, k)
				default:
					nd.partial = true
				}
			}
			i = skip(ix, doc, i)
			if i >= n {
				return nil, false
			}
			switch c := doc[i]; {
			case c == ',':
				i++
				if top.obj {
					state = sKey
				} else {
					state = sValue
				}
			case c == '}' && top.obj || c == ']' && !top.obj:
				i++
				if top.node != nil {
					top.node.end = i
				}
				vStart, vEnd = top.start, i
				st = st[:len(st)-1]
			default:
				return nil, false
			}
		case sKey:
			i = skip(ix, doc, i)
			if i >= n || doc[i] != '"' {
				return nil, false
			}
			top := &st[len(st)-1]
			top.keyStart = i
			j, esc, ok := scanString(doc, i)
			if !ok {
				return nil, false
			}
			if esc && ix != nil {
				ix.esc = true
			}
			i = skip(ix, doc, j)
			if i >= n || doc[i] != ':' {
				return nil, false
			}
			i++
			state = sValue
		}
	}
}

// skip is skipWS, or skipLines when the scan makes an index.
func skip[D Text](ix *scanIndex, doc D, i int) int {
	if ix == nil {
		return skipWS(doc, i)
	}
	return skipLines(ix, doc, i)
}

func skipWS[D Text](doc D, i int) int {
	for i < len(doc) {
		switch c := doc[i]; {
		case c > ' ':
			return i
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipLines is skipWS inside the root value (or before it), where every
// line break of a valid document is: it notes, for the layout (format),
// the first line break and the indent of each line that starts there.
func skipLines[D Text](ix *scanIndex, doc D, i int) int {
	for i < len(doc) {
		switch c := doc[i]; {
		case c > ' ':
			return i
		case c == '\n':
			if ix.firstNL < 0 {
				ix.firstNL = i
			}
			i = line(ix, doc, i+1)
		case c == ' ' || c == '\t' || c == '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// line notes the indent of the line that starts at l (formatOf's rule: a
// line of white space only, or with none before its text, says nothing; one
// that starts with a tab makes the unit a tab) and returns where it ends.
func line[D Text](ix *scanIndex, doc D, l int) int {
	k := l
	for k < len(doc) && (doc[k] == ' ' || doc[k] == '\t') {
		k++
	}
	if k == l || k == len(doc) || doc[k] == '\n' || ix.tab {
		return k
	}
	if doc[l] == '\t' {
		ix.tab = true
	} else if ix.minSpaces == 0 || k-l < ix.minSpaces {
		ix.minSpaces = k - l
	}
	return k
}

// format is formatOf(doc, first) from what the scan noted.
func (ix *scanIndex) format(doc []byte, first [][3]int) Format {
	f := DefaultFormat()
	if ix.firstNL < 0 {
		f.Compact = true
	} else if ix.firstNL > 0 && doc[ix.firstNL-1] == '\r' {
		f.Newline = "\r\n"
	}
	if ix.tab {
		f.Unit = "\t"
	} else if ix.minSpaces > 0 {
		f.Unit = strings.Repeat(" ", ix.minSpaces)
	}
	formatMembers(&f, doc, first)
	return f
}

func hasLit[D Text](doc D, i int, lit string) bool {
	if len(doc)-i < len(lit) {
		return false
	}
	for k := 0; k < len(lit); k++ {
		if doc[i+k] != lit[k] {
			return false
		}
	}
	return true
}

// scanString checks the string that starts at doc[i] ('"') and returns the
// offset after it. esc reports whether the string's text holds a backslash
// before a 'u' or a '/' (an escape that may spell a byte otherwise, or an
// escaped backslash before such a letter: what mayHold's substring search
// finds).
func scanString[D Text](doc D, i int) (end int, esc bool, ok bool) {
	n := len(doc)
	for j := i + 1; j < n; j++ {
		c := doc[j]
		switch {
		case c == '"':
			return j + 1, esc, true
		case c == '\\':
			j++
			if j >= n {
				return 0, false, false
			}
			switch doc[j] {
			case '"', 'b', 'f', 'n', 'r', 't':
			case '\\':
				if j+1 < n && (doc[j+1] == 'u' || doc[j+1] == '/') {
					esc = true
				}
			case '/':
				esc = true
			case 'u':
				esc = true
				if n-j < 5 {
					return 0, false, false
				}
				for k := 1; k <= 4; k++ {
					if !isHex(doc[j+k]) {
						return 0, false, false
					}
				}
				j += 4
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		}
	}
	return 0, false, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// scanNumber checks the number at doc[i] (RFC 8259's grammar) and returns
// the offset after it.
func scanNumber[D Text](doc D, i int) (int, bool) {
	n := len(doc)
	if doc[i] == '-' {
		i++
	}
	digits := func() bool {
		if i >= n || doc[i] < '0' || doc[i] > '9' {
			return false
		}
		for i < n && doc[i] >= '0' && doc[i] <= '9' {
			i++
		}
		return true
	}
	switch {
	case i >= n:
		return 0, false
	case doc[i] == '0':
		i++
	case !digits():
		return 0, false
	}
	if i < n && doc[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < n && (doc[i] == 'e' || doc[i] == 'E') {
		i++
		if i < n && (doc[i] == '+' || doc[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	return i, true
}

// A scanIndex is what scan found: the containers at depth 1 to 3 by their
// first byte's offset, each with its children.
type scanIndex struct {
	nodes map[int]*scanNode
	root  *scanNode // the root object (index sets it)
	// esc: some string holds `\u` or `\/` in its text (see scanString);
	// without it, a string holds a prefix free of bytes JSON escapes
	// verbatim or not at all.
	esc bool
	// The layout (format): the first line break in the document's body,
	// -1 for none; the least indent of its lines in spaces; whether a line
	// starts with a tab.
	firstNL, minSpaces int
	tab                bool
}

// A scanNode is one container: its span, how many children it has, the
// first and the last, and, at depth 1 and 2 (all), every one of them.
type scanNode struct {
	start, end  int
	obj         bool
	n           int
	first, last scanKid
	all         bool      // kids is every child
	kids        []scanKid // with all
	partial     bool      // the budget ran out: kids is not the whole list
}

// A scanKid is a child: a member (keyStart is its key's opening quote) or
// an element (keyStart -1), and its value's span.
type scanKid struct{ keyStart, start, end int32 }

// node returns the complete record of the container whose first byte is at
// off, or nil.
func (ix *scanIndex) node(off int) *scanNode {
	if nd := ix.nodes[off]; nd != nil && !nd.partial {
		return nd
	}
	return nil
}

// key is the member's key, unescaped as gjson gives it.
func key[D Text](doc D, k scanKid) string {
	end, _, _ := scanString(doc, int(k.keyStart))
	raw := doc[k.keyStart:end]
	if bytesIndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	return gjson.Parse(string(raw)).Str
}

// value is the member or element's value, parsed from its own copy (a
// gjson result whose Index is its offset in doc).
func value[D Text](doc D, k scanKid) gjson.Result {
	v := gjson.Parse(string(doc[k.start:k.end]))
	v.Index = int(k.start)
	return v
}

// bytesIndexByte is strings.IndexByte or bytes.IndexByte, as D is.
func bytesIndexByte[D Text](d D, c byte) int {
	switch s := any(d).(type) {
	case string:
		return strings.IndexByte(s, c)
	case []byte:
		return bytes.IndexByte(s, c)
	}
	for i := 0; i < len(d); i++ {
		if d[i] == c {
			return i
		}
	}
	return -1
}

// lastIndexByte is strings.LastIndexByte or bytes.LastIndexByte, as D is.
func lastIndexByte[D Text](d D, c byte) int {
	switch s := any(d).(type) {
	case string:
		return strings.LastIndexByte(s, c)
	case []byte:
		return bytes.LastIndexByte(s, c)
	}
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] == c {
			return i
		}
	}
	return -1
}

// index returns the scan index of in, when in is one strict JSON object
// (no BOM, valid UTF-8, not too large), or nil: the general parse then says
// what is wrong. Through p, Check and Add of one plan scan the plan's bytes
// once: p keeps in itself, not a copy, and knows it again by identity (the
// same slice). The plan's bytes are the writer's read, which nothing
// changes while the plan is made; each edit still checks the brackets it
// relies on (addFast).
func (p *Parsed) index(in []byte) *scanIndex {
	if p != nil && p.scanned && len(p.fin) == len(in) && (len(in) == 0 || &p.fin[0] == &in[0]) {
		return p.ix
	}
	var ix *scanIndex
	if len(in) <= MaxDocSize && !bytes.HasPrefix(in, []byte("\xef\xbb\xbf")) && utf8.Valid(in) {
		if x, ok := scan(in, 3); ok {
			if root := x.node(skipWS(in, 0)); root != nil && root.obj {
				x.root = root
				ix = x
			}
		}
	}
	if p != nil {
		p.fin, p.ix, p.scanned = in, ix, true
	}
	return ix
}

// Lookup returns a lookup of the top-level keys of in (the first member of
// each name, as gjson's Get finds it), from the plan's scan or parse of in
// through p, when there was one (a large config is then not read again).
func (p *Parsed) Lookup(in []byte) (func(key string) gjson.Result, bool) {
	if p != nil && p.scanned && p.ix != nil && len(p.fin) == len(in) && (len(in) == 0 || &p.fin[0] == &in[0]) {
		return p.ix.lookup(in), true
	}
	if ms, ok := p.Members(in); ok {
		return func(key string) gjson.Result {
			m, _ := First(ms, key)
			return m.Val
		}, true
	}
	return nil, false
}

// lookup is Lookup on the index of doc.
func (ix *scanIndex) lookup(doc []byte) func(string) gjson.Result {
	return func(k string) gjson.Result {
		for _, kid := range ix.root.kids {
			if key(doc, kid) == k {
				return value(doc, kid)
			}
		}
		return gjson.Result{}
	}
}

// fastStart is where addFast and removeFast begin: the scan's index of in
// and the event map it finds (nil when there is none); false when the
// case is the general path's (comments, a path the fast ones do not
// take, no index of in, or a root the check refuses).
func (m MapEdit) fastStart(in []byte) (*scanIndex, *scanNode, bool) {
	if m.Comments || m.noOnePass || m.noFast {
		return nil, nil, false
	}
	ix := m.Parsed.index(in)
	if ix == nil {
		return nil, nil, false
	}
	hk, ok := m.checkFast(in, ix)
	return ix, hk, ok
}

// checkFast is CheckRoot's verdict from the scan index ix of in: ok when
// CheckRoot finds nothing wrong (the event map, if any, is one object,
// each event we install under it appears once and is an array), with the
// map's node (nil when there is none). Not ok: CheckRoot must say what is
// wrong, or the map is past the index's budget.
func (m MapEdit) checkFast(in []byte, ix *scanIndex) (*scanNode, bool) {
	var hooks scanKid
	n := 0
	for _, k := range ix.root.kids {
		if key(in, k) == m.Key {
			hooks = k
			n++
		}
	}
	switch {
	case n > 1:
		return nil, false
	case n == 0:
		return nil, true
	}
	hk := ix.node(int(hooks.start))
	if hk == nil || !hk.obj || !hk.all {
		return nil, false
	}
	seen := map[string]bool{}
	for _, k := range hk.kids {
		ev := key(in, k)
		if _, wanted := m.want(ev); !wanted {
			continue
		}
		if seen[ev] || in[k.start] != '[' {
			return nil, false
		}
		seen[ev] = true
	}
	return hk, true
}

// CheckKeys is CheckRoot for a caller that reads a few top-level keys: the
// same errors, and a lookup of the first member of each name (its value
// parsed from a copy of its own bytes). On a large document that CheckRoot
// finds nothing wrong with, it costs one scan, which Add shares through
// m.Parsed, and no copy of the whole.
func (m MapEdit) CheckKeys(in []byte) (func(key string) gjson.Result, error) {
	if !m.Comments && !m.noFast {
		if ix := m.Parsed.index(in); ix != nil {
			if _, ok := m.checkFast(in, ix); ok {
				return ix.lookup(in), nil
			}
		}
	}
	_, _, rms, _, _, err := m.CheckRoot(in)
	if err != nil {
		return nil, err
	}
	return func(key string) gjson.Result {
		mb, _ := First(rms, key)
		return mb.Val
	}, nil
}

// addFast is add's one pass (addAppends) on the caller's bytes in
// themselves, from their scan index: no string copy of the document, no
// listing of a container again, no search of it for our prefix beyond one.
// It covers the usual install into a large config (an event map with
// nothing of ours in it; no comments); false leaves the case to the
// general path, which gives the same result (TestAddFastSameResult).
func (m MapEdit) addFast(in []byte, ed *Edit) bool {
	ix, hk, ok := m.fastStart(in)
	if !ok || hk == nil || in[hk.start] != '{' || in[hk.end-1] != '}' {
		return false
	}
	if mayHoldEsc(in[hk.start:hk.end], []byte(m.Prefix), ix.esc) {
		return false // Add's onlyOurs and addAppends need a look inside
	}
	var first [][3]int
	for _, k := range ix.root.kids[:min(2, len(ix.root.kids))] {
		first = append(first, [3]int{int(k.keyStart), int(k.start), int(k.end)})
	}
	f := ix.format(in, first)
	var edits []edit
	var created, emptied []string
	var emptiedNode []*scanNode
	missing := 0
	for _, w := range m.Want {
		var ev *scanNode
		for _, k := range hk.kids {
			if key(in, k) == w.Event {
				if ev = ix.node(int(k.start)); ev == nil || ev.obj {
					return false
				}
				break
			}
		}
		if ev == nil {
			if missing++; missing > 1 {
				return false
			}
			created = append(created, m.path(w.Event))
			emptied, emptiedNode = append(emptied, m.Key), append(emptiedNode, hk)
			edits = append(edits, appendNode(in, hk, &w.Event, []any{w.Entry}, f))
			continue
		}
		if in[ev.start] != '[' || in[ev.end-1] != ']' {
			return false
		}
		emptied, emptiedNode = append(emptied, m.path(w.Event)), append(emptiedNode, ev)
		edits = append(edits, appendNode(in, ev, nil, w.Entry, f))
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	for i := 1; i < len(edits); i++ {
		if edits[i].from < edits[i-1].to || edits[i].from == edits[i-1].from {
			return false
		}
	}
	for _, c := range created {
		ed.Created = AddUnique(ed.Created, c)
	}
	for i, p := range emptied {
		if nd := emptiedNode[i]; nd.n == 0 && nd.end-nd.start > 2 {
			ed.NoteEmpty(p, string(in[nd.start+1:nd.end-1]))
		}
	}
	ed.Doc = splice(in, edits)
	return true
}

// appendNode is appendEdit on the indexed container nd of doc.
func appendNode(doc []byte, nd *scanNode, key *string, v any, f Format) edit {
	var firstStart, lastStart, lastEnd int
	n := nd.n
	if n > 0 {
		a, z := nd.first, nd.last
		firstStart, lastStart, lastEnd = int(a.start), int(z.start), int(z.end)
		if key != nil {
			firstStart, lastStart = int(a.keyStart), int(z.keyStart)
		}
	}
	return appendAt(doc, nd.start, nd.end, n, firstStart, lastStart, lastEnd, key, v, f)
}

// mayHoldEsc is mayHold, told whether the document raw lies in holds any
// `\u` or `\/` at all (scanIndex.esc): without one, a search for the prefix
// is enough. prefix is the prefix as bytes (made once by the caller: one
// conversion per call of thousands would be garbage).
func mayHoldEsc(raw, prefix []byte, esc bool) bool {
	for _, c := range prefix {
		if c < 0x20 || c == '"' || c == '\\' {
			return true
		}
	}
	return bytes.Contains(raw, prefix) || esc && (bytes.Contains(raw, []byte(`\u`)) || bytes.Contains(raw, []byte(`\/`)))
}

// removeFast is Remove's one pass (removeFrom, removeOnePass) on the
// caller's bytes in themselves, from their scan index, as addFast is add's:
// the usual removal (each event loses one entry of ours as written and
// keeps others) with no string copy of the document. An event array that
// may hold our prefix is listed by a scan of its own span, and only its
// elements that may hold it are parsed (each from its own copy). false
// leaves the case to the general path, which gives the same result
// (TestRemoveFastSameResult).
func (m MapEdit) removeFast(in []byte, ed *Edit) bool {
	ix, hk, ok := m.fastStart(in)
	if !ok {
		return false
	}
	if hk == nil {
		ed.Doc = in // no event map: nothing of ours
		return true
	}
	if in[hk.start] != '{' || in[hk.end-1] != '}' {
		return false
	}
	prefix := []byte(m.Prefix)
	keys := make([]string, len(hk.kids))
	count := map[string]int{}
	for i, k := range hk.kids {
		keys[i] = key(in, k)
		count[keys[i]]++
	}
	type fastCut struct {
		event string
		els   []scanKid
		first int
	}
	var cuts []fastCut
	var notes []string
	var lefts []left
	for i, k := range hk.kids {
		event := keys[i]
		if in[k.start] != '[' {
			continue
		}
		if count[event] > 1 {
			return false // the general path's error
		}
		if !mayHoldEsc(in[k.start:k.end], prefix, ix.esc) {
			continue
		}
		els := elementsOf(in, int(k.start), int(k.end))
		if els == nil {
			return false
		}
		c := fastCut{event: event, first: -1, els: els}
		dels := 0
		nLefts := len(lefts)
		for j, e := range els {
			kind := Foreign
			var v gjson.Result
			if mayHoldEsc(in[e.start:e.end], prefix, ix.esc) {
				v = value(in, e)
				kind = Classify(v, m.Prefix)
			}
			switch {
			case m.deletable(event, v, kind):
				dels++
				if c.first < 0 {
					c.first = j
				}
			case kind == OursMixed && m.Force:
				return false // handlers cut out of a group: the general path
			}
			if n := leftNote(event, j, kind); n != "" {
				notes = append(notes, n)
				if j != c.first {
					lefts = append(lefts, left{event, j, kind, -1})
				}
			}
		}
		if dels == 0 {
			continue
		}
		if dels != 1 || len(els) < 2 {
			return false // more than one deletion, or the array emptied
		}
		for j := nLefts; j < len(lefts); j++ {
			lefts[j].cut = len(cuts)
		}
		cuts = append(cuts, c)
	}
	if len(cuts) == 0 {
		ed.Notes = append(ed.Notes, notes...)
		ed.Kept = ed.Kept || len(notes) > 0
		ed.Doc = in
		return true
	}
	n := len(in)
	edits := make([]edit, len(cuts))
	for j, c := range cuts {
		if i := c.first; i > 0 {
			edits[j] = edit{int(c.els[i-1].end), int(c.els[i].end), ""}
		} else {
			edits[j] = edit{int(c.els[0].start), int(c.els[1].start), ""}
		}
		n += edits[j].delta()
	}
	out := make([]byte, 0, n)
	at := 0
	for _, e := range edits { // in the order of the events: in doc order
		out = append(out, in[at:e.from]...)
		out = append(out, e.text...)
		at = e.to
	}
	ed.Doc = append(out, in[at:]...)
	for _, l := range lefts {
		i := l.i
		if l.cut >= 0 && i > cuts[l.cut].first {
			i-- // the entry before it went
		}
		ed.Notes = append(ed.Notes, leftNote(l.event, i, l.k))
		ed.Kept = true
	}
	return true
}

// elementsOf lists the elements of the array doc[a:b], a value of a
// document that scan accepted, by a scan of that span alone; nil when the
// list is past the scan's budget.
func elementsOf(doc []byte, a, b int) []scanKid {
	ix, ok := scan(doc[a:b], 1)
	if !ok {
		return nil
	}
	root := ix.node(0)
	if root == nil || root.obj {
		return nil
	}
	for i := range root.kids {
		k := &root.kids[i]
		k.start, k.end = k.start+int32(a), k.end+int32(a)
	}
	return root.kids
}
