package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// A SyntaxError says why a config file is not the strict JSON its agent reads,
// and where.
type SyntaxError struct {
	Offset int64 // byte offset of the fault, -1 when there is none
	Line   int   // 1-based, 0 when Offset is -1
	Col    int   // 1-based byte column
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.Offset < 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s at line %d, column %d (byte offset %d)", e.Msg, e.Line, e.Col, e.Offset)
}

// text is a document's bytes, as the caller holds them ([]byte) or as the
// edits below work on them (string: immutable, so gjson's results, whose
// strings point into the document, stay valid whatever happens next).
type Text interface{ ~string | ~[]byte }

func ErrorAt[D Text](doc D, off int64, msg string) *SyntaxError {
	if off < 0 {
		return &SyntaxError{Offset: -1, Msg: msg}
	}
	if off > int64(len(doc)) {
		off = int64(len(doc))
	}
	line, ls := 1, 0
	for i := 0; i < int(off); i++ {
		if doc[i] == '\n' {
			line, ls = line+1, i+1
		}
	}
	return &SyntaxError{Offset: off, Line: line, Col: int(off) - ls + 1, Msg: msg}
}

// MaxDocSize is the largest config file hookinstall edits. Agent configs are
// kilobytes; a larger file is refused rather than loaded whole.
const MaxDocSize = 32 << 20

// IsBlank reports whether doc holds only white space (an empty config file).
func IsBlank(doc []byte) bool { return len(bytes.TrimSpace(doc)) == 0 }

// ParseObject checks that doc is one strict JSON object (RFC 8259: no comments,
// no trailing commas, no BOM, valid UTF-8, nothing after the value) and returns
// its root. Errors are *SyntaxError values that carry the position. The
// result holds a copy of doc: the caller may change doc afterwards.
func ParseObject(doc []byte) (gjson.Result, error) {
	if len(doc) > MaxDocSize {
		return gjson.Result{}, tooLarge(len(doc))
	}
	return parseObject(string(doc))
}

func tooLarge(n int) *SyntaxError {
	return &SyntaxError{Offset: -1, Msg: fmt.Sprintf("file is %d bytes, larger than the %d bytes hookinstall edits", n, MaxDocSize)}
}

// parseObject is ParseObject on the string that the edits work on.
func parseObject(doc string) (gjson.Result, error) {
	if len(doc) > MaxDocSize {
		return gjson.Result{}, tooLarge(len(doc))
	}
	if strings.HasPrefix(doc, "\xef\xbb\xbf") {
		return gjson.Result{}, ErrorAt(doc, 0, MsgBOM)
	}
	if !utf8.ValidString(doc) {
		off := 0
		for off < len(doc) {
			r, n := utf8.DecodeRuneInString(doc[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return gjson.Result{}, ErrorAt(doc, int64(off), "invalid UTF-8")
	}
	if !validJSON(doc) {
		var v any
		err := json.Unmarshal([]byte(doc), &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			msg := "invalid JSON: " + se.Error()
			off := max(se.Offset-1, 0)
			if int(off) < len(doc) && doc[off] == '/' {
				msg += " " + MsgComment
			}
			if int(off) < len(doc) && (doc[off] == '}' || doc[off] == ']') {
				// A comma right before a closing bracket: name it.
				i := int(off) - 1
				for i >= 0 && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
					i--
				}
				if i >= 0 && doc[i] == ',' {
					return gjson.Result{}, ErrorAt(doc, off, "invalid JSON: a trailing comma before '"+string(doc[off])+"' (JSON allows none; take the comma out)")
				}
			}
			return gjson.Result{}, ErrorAt(doc, off, msg)
		}
		if err != nil {
			return gjson.Result{}, &SyntaxError{Offset: -1, Msg: "invalid JSON: " + err.Error()}
		}
		return gjson.Result{}, &SyntaxError{Offset: -1, Msg: "invalid JSON"}
	}
	root := rootOf(doc)
	if !root.IsObject() {
		return gjson.Result{}, ErrorAt(doc, int64(root.Index), "top-level value is not a JSON object")
	}
	return root, nil
}

// A Parsed is one document that parseObject (or, for JSONC, parseJSONC)
// accepted, its root and the root's members, shared by the checks and the
// edit of one plan. The edit (Add, Remove) takes it over, and p forgets
// it: the copy of a large config lives no longer than the edit needs it.
type Parsed struct {
	src      string // the bytes as given
	doc      string // what the results point into: src, or src with its comments blanked
	root     gjson.Result
	rms      []member // root's members
	comments bool
}

// parse is parseObject(string(in)), or with comments parseJSONC (the
// document it returns is then in with its comments blanked), and the
// root's members: through p when p holds the same bytes (compared in full:
// the bytes may have changed since), which forgets them when take is set.
// A nil p parses.
func (p *Parsed) parse(in []byte, comments, take bool) (doc string, root gjson.Result, rms []member, err error) {
	if p != nil && p.src != "" && p.comments == comments && string(in) == p.src {
		doc, root, rms = p.doc, p.root, p.rms
		if take {
			*p = Parsed{}
		}
		return doc, root, rms, nil
	}
	if len(in) > MaxDocSize {
		return "", gjson.Result{}, nil, tooLarge(len(in))
	}
	src := string(in)
	doc = src
	if comments {
		doc, root, err = parseJSONC(src)
	} else {
		root, err = parseObject(doc)
	}
	if err != nil {
		return "", gjson.Result{}, nil, err
	}
	rms = members(root)
	if p != nil && !take {
		*p = Parsed{src: src, doc: doc, root: root, rms: rms, comments: comments}
	}
	return doc, root, rms, nil
}

// Lookup returns a lookup of the top-level keys of in (the first member of
// each name, as gjson's Get finds it), from the plan's parse of in through
// p, when there was one: a check of a few root keys of a large document
// then costs no scan.
func (p *Parsed) Lookup(in []byte) (func(key string) gjson.Result, bool) {
	if p == nil || p.src == "" || string(in) != p.src {
		return nil, false
	}
	return lookupOf(p.rms), true
}

// lookupOf is a lookup of the first member of each name in ms.
func lookupOf(ms []member) func(key string) gjson.Result {
	return func(key string) gjson.Result {
		m, _ := First(ms, key)
		return m.Val
	}
}

// maxDepth is encoding/json's nesting limit, which validJSON keeps.
const maxDepth = 10000

// validJSON is json.Valid, several times faster on large documents: scan,
// which FuzzValidAgrees holds to the same verdicts, depth limit included.
func validJSON[D Text](doc D) bool { return scan(doc) }

// rootOf locates the root value of doc, which must already be known to be
// valid JSON: after parseObject, or after splicing valid JSON into such a
// document at a value boundary. The result's strings point into doc, which
// no one can change.
func rootOf(doc string) gjson.Result {
	start := len(doc) - len(strings.TrimLeft(doc, " \t\r\n"))
	root := gjson.Parse(doc[start:])
	root.Index = start
	root.Raw = strings.TrimRight(doc[start:], " \t\r\n")
	return root
}

// A member is one key/value pair of an object, with absolute offsets.
type member struct {
	Key      string
	KeyStart int
	Val      gjson.Result // Val.Index is absolute
}

func (m member) end() int { return m.Val.Index + len(m.Val.Raw) }

func members(obj gjson.Result) []member { return firstMembers(obj, math.MaxInt) }

// firstMembers is members for the first n only: it scans no further.
func firstMembers(obj gjson.Result, n int) []member {
	var ms []member
	obj.ForEach(func(k, v gjson.Result) bool {
		ms = append(ms, member{Key: k.Str, KeyStart: k.Index, Val: v})
		return len(ms) < n
	})
	return ms
}

// A Member is one key/value pair of a JSON object: the key (unescaped), the
// key's byte offset, and the value with its absolute offset.
type Member = member

// Members lists an object's members in order, duplicates included.
func Members(obj gjson.Result) []Member { return members(obj) }

// Elements lists an array's elements in order.
func Elements(arr gjson.Result) []gjson.Result { return elements(arr) }

func elements(arr gjson.Result) []gjson.Result {
	var es []gjson.Result
	arr.ForEach(func(_, v gjson.Result) bool {
		es = append(es, v)
		return true
	})
	return es
}

func end(v gjson.Result) int { return v.Index + len(v.Raw) }

// lookup finds key in obj. It is an error for the key to appear twice, since
// agents disagree on which copy wins.
func Lookup[D Text](doc D, obj gjson.Result, key string) (member, bool, error) {
	return lookupIn(doc, members(obj), key)
}

// lookupIn is lookup in an object's members, already listed.
func lookupIn[D Text](doc D, ms []member, key string) (member, bool, error) {
	var found member
	n := 0
	for _, m := range ms {
		if m.Key == key {
			if n == 1 {
				return member{}, false, ErrorAt(doc, int64(m.KeyStart), fmt.Sprintf("duplicate key %q", key))
			}
			found = m
			n++
		}
	}
	return found, n == 1, nil
}

// first returns the first member named key in ms, as gjson's Get finds it.
func First(ms []member, key string) (member, bool) {
	for _, m := range ms {
		if m.Key == key {
			return m, true
		}
	}
	return member{}, false
}

// find returns the first member key of obj, scanning no further. It is for
// objects whose keys parse has already checked for repeats.
func Find(obj gjson.Result, key string) (member, bool) {
	var found member
	ok := false
	obj.ForEach(func(k, v gjson.Result) bool {
		if k.Str == key {
			found, ok = member{Key: k.Str, KeyStart: k.Index, Val: v}, true
			return false
		}
		return true
	})
	return found, ok
}

// Format is the layout of an existing document that inserted text imitates.
type Format struct {
	Newline    string // "\n" or "\r\n"
	Unit       string // one level of indent: "  ", "    " or "\t"
	Compact    bool   // the whole document is on one line
	ColonSpace bool   // `"k": v` rather than `"k":v` (inline text)
	CommaSpace bool   // `a, b` rather than `a,b` (inline text)
}

// DefaultFormat is the layout of files hookinstall creates.
func DefaultFormat() Format {
	return Format{Newline: "\n", Unit: "  ", ColonSpace: true, CommaSpace: true}
}

// DetectFormat reads the indent unit, newline style and separator spacing of doc.
func DetectFormat(doc []byte, root gjson.Result) Format { return detectFormat(string(doc), root) }

func detectFormat(doc string, root gjson.Result) Format {
	f := DefaultFormat()
	body := strings.TrimRight(doc, " \t\r\n")
	if i := strings.IndexByte(body, '\n'); i < 0 {
		f.Compact = true
	} else if i > 0 && body[i-1] == '\r' {
		f.Newline = "\r\n"
	}
	minSpaces := 0
	for rest, more := body, true; more; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		n := 0
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
		if n == len(line) || n == 0 {
			continue
		}
		if line[0] == '\t' {
			f.Unit = "\t"
			minSpaces = -1
			break
		}
		if minSpaces == 0 || n < minSpaces {
			minSpaces = n
		}
	}
	if minSpaces > 0 {
		f.Unit = strings.Repeat(" ", minSpaces)
	}
	// The root's first members decide the spacing after a colon and after
	// a comma.
	ms := firstMembers(root, 2)
	if f.Compact && len(ms) == 0 {
		// Nothing to copy: a one-line "{}" is taken to be minified.
		f.ColonSpace, f.CommaSpace = false, false
	}
	if len(ms) > 0 {
		between := doc[ms[0].KeyStart:ms[0].Val.Index]
		f.ColonSpace = strings.ContainsAny(between[strings.LastIndexByte(between, '"'):], " \t")
		f.CommaSpace = f.ColonSpace
		if len(ms) > 1 {
			f.CommaSpace = strings.ContainsAny(doc[ms[0].end():ms[1].KeyStart], " \t\n")
		}
	}
	return f
}

// An Obj is a JSON object whose keys keep their order when rendered.
type Obj []KV

// A KV is one member of an Obj.
type KV struct {
	K string
	V any // string, int, bool, Obj or []any
}

// Get returns the value of key k, or nil.
func (o Obj) Get(k string) any {
	for _, kv := range o {
		if kv.K == k {
			return kv.V
		}
	}
	return nil
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// render writes v as JSON. Multi-line text starts at the current position and
// indents continuation lines with lead plus the unit; inline text uses the
// file's separator spacing.
func Render(v any, f Format, lead string, inline bool) string {
	var b strings.Builder
	renderTo(&b, v, f, lead, inline)
	return b.String()
}

func renderTo(b *strings.Builder, v any, f Format, lead string, inline bool) {
	colon, comma := ": ", "," // multi-line text always has ": "
	if inline && !f.ColonSpace {
		colon = ":"
	}
	if f.CommaSpace {
		comma = ", "
	}
	// sep starts child i: a separator, and inline or on its own line.
	sep := func(i int) {
		switch {
		case inline && i > 0:
			b.WriteString(comma)
		case !inline:
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Newline + lead + f.Unit)
		}
	}
	closeWith := func(c byte) {
		if !inline {
			b.WriteString(f.Newline + lead)
		}
		b.WriteByte(c)
	}
	switch v := v.(type) {
	case string:
		b.WriteString(quote(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case Obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, kv := range v {
			sep(i)
			b.WriteString(quote(kv.K))
			b.WriteString(colon)
			renderTo(b, kv.V, f, lead+f.Unit, inline)
		}
		closeWith('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			sep(i)
			renderTo(b, e, f, lead+f.Unit, inline)
		}
		closeWith(']')
	default:
		panic(fmt.Sprintf("adapters: cannot render %T", v))
	}
}

// Compact renders v as compact JSON (for hashing and comparison).
func Compact(v any) string {
	return Render(v, Format{}, "", true)
}

// SameJSON reports whether raw holds the same JSON value as v, ignoring white
// space (key order counts: agents' trust hashes may depend on it).
func SameJSON(raw string, v any) bool {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		return false
	}
	return b.String() == Compact(v)
}

// leadOf returns the white space that starts the line holding offset p, and
// whether p is the first non-blank byte on that line.
func leadOf(doc string, p int) (string, bool) {
	ls := strings.LastIndexByte(doc[:p], '\n') + 1
	k := ls
	for k < p && (doc[k] == ' ' || doc[k] == '\t') {
		k++
	}
	return string(doc[ls:k]), k == p
}

func Splice[D Text](doc D, from, to int, text string) D {
	out := make([]byte, 0, len(doc)-(to-from)+len(text))
	out = append(out, doc[:from]...)
	out = append(out, text...)
	out = append(out, doc[to:]...)
	return D(out)
}

// multiLine reports whether a container's children sit on their own lines:
// a line break between the container's first byte and its first child's.
func multiLine(doc string, cStart, firstChild int) bool {
	return strings.IndexByte(doc[cStart:firstChild], '\n') >= 0
}

// appendChild adds one member (key != nil) or element to the end of container
// c, imitating the layout of its siblings. It is the inverse of deleteEdit.
func AppendChild[D Text](doc D, c gjson.Result, key *string, v any, f Format) D {
	s := string(doc)
	return D(appendEdit(s, c, key, v, f).apply(s))
}

// appendEdit is the edit that appendChild makes.
func appendEdit(doc string, c gjson.Result, key *string, v any, f Format) edit {
	var lastEnd, firstStart, lastStart int
	n := 0
	if key != nil {
		ms := members(c)
		if n = len(ms); n > 0 {
			lastEnd, firstStart, lastStart = ms[n-1].end(), ms[0].KeyStart, ms[n-1].KeyStart
		}
	} else {
		es := elements(c)
		if n = len(es); n > 0 {
			lastEnd, firstStart, lastStart = end(es[n-1]), es[0].Index, es[n-1].Index
		}
	}
	cStart, cEnd := c.Index, end(c)
	// text is the child, inline (with the file's colon spacing) or at lead.
	text := func(lead string, inline bool) string {
		t := Render(v, f, lead, inline)
		switch {
		case key == nil:
			return t
		case inline && !f.ColonSpace:
			return quote(*key) + ":" + t
		}
		return quote(*key) + ": " + t
	}
	if n == 0 {
		if f.Compact {
			return edit{cStart + 1, cEnd - 1, text("", true)}
		}
		clead, _ := leadOf(doc, cStart)
		lead := clead + f.Unit
		return edit{cStart + 1, cEnd - 1, f.Newline + lead + text(lead, false) + f.Newline + clead}
	}
	if f.Compact || !multiLine(doc, cStart, firstStart) {
		sep := ","
		if f.CommaSpace {
			sep = ", "
		}
		return edit{lastEnd, lastEnd, sep + text("", true)}
	}
	lead, own := leadOf(doc, lastStart)
	if !own {
		clead, _ := leadOf(doc, cStart)
		lead = clead + f.Unit
	}
	return edit{lastEnd, lastEnd, "," + f.Newline + lead + text(lead, false)}
}

// deleteEdit is the edit that removes child i of container c. When it is the
// only child the container is left empty as "{}" or "[]".
func deleteEdit(c gjson.Result, i int) edit {
	cs := childSpans(c)
	switch {
	case len(cs) == 1:
		empty := "[]"
		if c.IsObject() {
			empty = "{}"
		}
		return edit{c.Index, end(c), empty}
	case i > 0:
		return edit{cs[i-1][1], cs[i][1], ""}
	default:
		return edit{cs[0][0], cs[1][0], ""}
	}
}

// replaceValue puts v where val is, rendered at val's line indent.
func ReplaceValue[D Text](doc D, val gjson.Result, v any, f Format) D {
	s := string(doc)
	return D(replaceEdit(s, val, v, f).apply(s))
}

// replaceEdit is the edit that replaceValue makes.
func replaceEdit(doc string, val gjson.Result, v any, f Format) edit {
	lead, _ := leadOf(doc, val.Index)
	inline := f.Compact || !strings.Contains(val.Raw, "\n")
	return edit{val.Index, end(val), Render(v, f, lead, inline)}
}

// An edit replaces doc[from:to] with text.
type edit struct {
	from, to int
	text     string
}

// apply returns the document with e made.
func (e edit) apply(doc string) string { return doc[:e.from] + e.text + doc[e.to:] }

// delta is how much e changes the document's length.
func (e edit) delta() int { return len(e.text) - (e.to - e.from) }

// splice returns in with edits made, in one new buffer of the result's
// size; the edits are in document order and do not overlap.
func splice(in []byte, edits []edit) []byte {
	n := len(in)
	for _, e := range edits {
		n += e.delta()
	}
	out := make([]byte, 0, n)
	at := 0
	for _, e := range edits {
		out = append(out, in[at:e.from]...)
		out = append(out, e.text...)
		at = e.to
	}
	return append(out, in[at:]...)
}

// spliceLarge is splice for the edits of a MapEdit, read from the string
// copy of in that the caller no longer holds. For a large document that
// copy is collected first, and its memory given back: the collector runs
// beside the program and would free it only after the result is made, so
// a config of megabytes would have three copies of its size alive at once
// (in, the string, the result) instead of two.
func spliceLarge(in []byte, edits []edit) []byte {
	if len(in) >= 1<<20 {
		debug.FreeOSMemory()
	}
	return splice(in, edits)
}

// MsgBOM is the Msg of the SyntaxError ParseObject returns for a BOM, which
// a caller may replace with what the file's reader does with one.
const MsgBOM = "starts with a UTF-8 byte order mark (BOM)"

// MsgComment ends the Msg of the SyntaxError ParseObject returns where the
// fault is the start of a comment.
const MsgComment = "(comments are not JSON)"

// IsEmptyObject reports whether doc is "{}", give or take white space.
func IsEmptyObject(doc []byte) bool {
	root, err := ParseObject(doc)
	return err == nil && len(members(root)) == 0
}

// Escapes are the letters that, after a backslash, let a JSON string spell
// a byte in another way (\u0068, \/): a document without them holds a
// string verbatim or not at all.
const Escapes = "u/"
