package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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

func syntaxErrorAt(doc []byte, off int64, msg string) *SyntaxError {
	if off < 0 {
		return &SyntaxError{Offset: -1, Msg: msg}
	}
	if off > int64(len(doc)) {
		off = int64(len(doc))
	}
	line := 1 + bytes.Count(doc[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(doc[:off], '\n')
	return &SyntaxError{Offset: off, Line: line, Col: col, Msg: msg}
}

// MaxDocSize is the largest config file hookinstall edits. Agent configs are
// kilobytes; a larger file is refused rather than loaded whole.
const MaxDocSize = 32 << 20

// IsBlank reports whether doc holds only white space (an empty config file).
func IsBlank(doc []byte) bool { return len(bytes.TrimSpace(doc)) == 0 }

// ParseObject checks that doc is one strict JSON object (RFC 8259: no comments,
// no trailing commas, no BOM, valid UTF-8, nothing after the value) and returns
// its root. Errors are *SyntaxError values that carry the position.
func ParseObject(doc []byte) (gjson.Result, error) {
	if len(doc) > MaxDocSize {
		return gjson.Result{}, &SyntaxError{Offset: -1, Msg: fmt.Sprintf("file is %d bytes, larger than the %d bytes hookinstall edits", len(doc), MaxDocSize)}
	}
	if bytes.HasPrefix(doc, []byte("\xef\xbb\xbf")) {
		return gjson.Result{}, syntaxErrorAt(doc, 0, "starts with a UTF-8 byte order mark (BOM), which the agent rejects")
	}
	if !utf8.Valid(doc) {
		off := 0
		for off < len(doc) {
			r, n := utf8.DecodeRune(doc[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return gjson.Result{}, syntaxErrorAt(doc, int64(off), "invalid UTF-8")
	}
	if !json.Valid(doc) {
		var v any
		err := json.Unmarshal(doc, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			msg := "invalid JSON: " + se.Error()
			off := se.Offset - 1
			if off < 0 {
				off = 0
			}
			if int(off) < len(doc) && doc[off] == '/' {
				msg += " (comments are not JSON)"
			}
			return gjson.Result{}, syntaxErrorAt(doc, off, msg)
		}
		if err != nil {
			return gjson.Result{}, &SyntaxError{Offset: -1, Msg: "invalid JSON: " + err.Error()}
		}
		return gjson.Result{}, &SyntaxError{Offset: -1, Msg: "invalid JSON"}
	}
	start := len(doc) - len(bytes.TrimLeft(doc, " \t\r\n"))
	root := gjson.ParseBytes(doc[start:])
	root.Index = start
	root.Raw = string(bytes.TrimRight(doc[start:], " \t\r\n"))
	if !root.IsObject() {
		return gjson.Result{}, syntaxErrorAt(doc, int64(start), "top-level value is not a JSON object")
	}
	return root, nil
}

// A member is one key/value pair of an object, with absolute offsets.
type member struct {
	Key      string
	KeyStart int
	Val      gjson.Result // Val.Index is absolute
}

func (m member) end() int { return m.Val.Index + len(m.Val.Raw) }

func members(obj gjson.Result) []member {
	var ms []member
	obj.ForEach(func(k, v gjson.Result) bool {
		ms = append(ms, member{Key: k.Str, KeyStart: k.Index, Val: v})
		return true
	})
	return ms
}

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
func lookup(doc []byte, obj gjson.Result, key string) (member, bool, error) {
	var found member
	n := 0
	for _, m := range members(obj) {
		if m.Key == key {
			if n == 1 {
				return member{}, false, syntaxErrorAt(doc, int64(m.KeyStart), fmt.Sprintf("duplicate key %q", key))
			}
			found = m
			n++
		}
	}
	return found, n == 1, nil
}

// Format is the layout of an existing document that inserted text imitates.
type Format struct {
	Newline    string // "\n" or "\r\n"
	Unit       string // one level of indent: "  ", "    " or "\t"
	Compact    bool   // the whole document is on one line
	ColonSpace bool   // `"k": v` rather than `"k":v` (inline text)
	CommaSpace bool   // `a, b` rather than `a,b` (inline text)
}

// DefaultFormat is used for files hookinstall creates.
var DefaultFormat = Format{Newline: "\n", Unit: "  ", ColonSpace: true, CommaSpace: true}

// DetectFormat reads the indent unit, newline style and separator spacing of doc.
func DetectFormat(doc []byte, root gjson.Result) Format {
	f := DefaultFormat
	body := bytes.TrimRight(doc, " \t\r\n")
	if i := bytes.IndexByte(body, '\n'); i < 0 {
		f.Compact = true
	} else if i > 0 && body[i-1] == '\r' {
		f.Newline = "\r\n"
	}
	minSpaces := 0
	for _, line := range bytes.Split(body, []byte("\n")) {
		lead := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(lead) == len(line) || len(lead) == 0 {
			continue
		}
		if lead[0] == '\t' {
			f.Unit = "\t"
			minSpaces = -1
			break
		}
		if minSpaces == 0 || len(lead) < minSpaces {
			minSpaces = len(lead)
		}
	}
	if minSpaces > 0 {
		f.Unit = strings.Repeat(" ", minSpaces)
	}
	ms := members(root)
	if f.Compact && len(ms) == 0 {
		// Nothing to copy: a one-line "{}" is taken to be minified.
		f.ColonSpace, f.CommaSpace = false, false
	}
	if len(ms) > 0 {
		between := doc[ms[0].KeyStart:ms[0].Val.Index]
		f.ColonSpace = bytes.IndexAny(between[bytes.LastIndexByte(between, '"'):], " \t") >= 0
		f.CommaSpace = f.ColonSpace
		if len(ms) > 1 {
			gap := doc[ms[0].end():ms[1].KeyStart]
			f.CommaSpace = bytes.IndexAny(gap, " \t\n") >= 0
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
func render(v any, f Format, lead string, inline bool) string {
	var b strings.Builder
	renderTo(&b, v, f, lead, inline)
	return b.String()
}

func renderTo(b *strings.Builder, v any, f Format, lead string, inline bool) {
	colon, comma := ":", ","
	if f.ColonSpace {
		colon = ": "
	}
	if f.CommaSpace {
		comma = ", "
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
			if inline {
				if i > 0 {
					b.WriteString(comma)
				}
			} else {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(f.Newline + lead + f.Unit)
			}
			b.WriteString(quote(kv.K))
			if inline {
				b.WriteString(colon)
			} else {
				b.WriteString(": ")
			}
			renderTo(b, kv.V, f, lead+f.Unit, inline)
		}
		if !inline {
			b.WriteString(f.Newline + lead)
		}
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if inline {
				if i > 0 {
					b.WriteString(comma)
				}
			} else {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(f.Newline + lead + f.Unit)
			}
			renderTo(b, e, f, lead+f.Unit, inline)
		}
		if !inline {
			b.WriteString(f.Newline + lead)
		}
		b.WriteByte(']')
	default:
		panic(fmt.Sprintf("adapters: cannot render %T", v))
	}
}

// Compact renders v as compact JSON (for hashing and comparison).
func Compact(v any) string {
	return render(v, Format{}, "", true)
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
func leadOf(doc []byte, p int) (string, bool) {
	ls := bytes.LastIndexByte(doc[:p], '\n') + 1
	pre := doc[ls:p]
	if len(bytes.TrimLeft(pre, " \t")) != 0 {
		return string(pre[:len(pre)-len(bytes.TrimLeft(pre, " \t"))]), false
	}
	return string(pre), true
}

func splice(doc []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(doc)-(to-from)+len(text))
	out = append(out, doc[:from]...)
	out = append(out, text...)
	return append(out, doc[to:]...)
}

// multiLine reports whether a container's children sit on their own lines.
func multiLine(doc []byte, c gjson.Result, firstChild int) bool {
	return bytes.IndexByte(doc[c.Index:firstChild], '\n') >= 0
}

// appendChild adds one member (key != nil) or element to the end of container
// c, imitating the layout of its siblings. It is the inverse of deleteChild.
func appendChild(doc []byte, c gjson.Result, key *string, v any, f Format) []byte {
	var lastEnd, firstStart int
	n := 0
	if key != nil {
		ms := members(c)
		if n = len(ms); n > 0 {
			lastEnd, firstStart = ms[n-1].end(), ms[0].KeyStart
		}
	} else {
		es := elements(c)
		if n = len(es); n > 0 {
			lastEnd, firstStart = end(es[n-1]), es[0].Index
		}
	}
	colon := ": "
	if n == 0 {
		if f.Compact {
			if !f.ColonSpace {
				colon = ":"
			}
			text := render(v, f, "", true)
			if key != nil {
				text = quote(*key) + colon + text
			}
			return splice(doc, c.Index+1, end(c)-1, text)
		}
		clead, _ := leadOf(doc, c.Index)
		lead := clead + f.Unit
		text := render(v, f, lead, false)
		if key != nil {
			text = quote(*key) + colon + text
		}
		return splice(doc, c.Index+1, end(c)-1, f.Newline+lead+text+f.Newline+clead)
	}
	if f.Compact || !multiLine(doc, c, firstStart) {
		if key != nil && !f.ColonSpace {
			colon = ":"
		}
		sep := ","
		if f.CommaSpace {
			sep = ", "
		}
		text := render(v, f, "", true)
		if key != nil {
			text = quote(*key) + colon + text
		}
		return splice(doc, lastEnd, lastEnd, sep+text)
	}
	lastStart := firstStart
	if key != nil {
		ms := members(c)
		lastStart = ms[n-1].KeyStart
	} else {
		es := elements(c)
		lastStart = es[n-1].Index
	}
	lead, own := leadOf(doc, lastStart)
	if !own {
		clead, _ := leadOf(doc, c.Index)
		lead = clead + f.Unit
	}
	text := render(v, f, lead, false)
	if key != nil {
		text = quote(*key) + colon + text
	}
	return splice(doc, lastEnd, lastEnd, ","+f.Newline+lead+text)
}

// deleteChild removes child i of container c. When it is the only child the
// container is left empty as "{}" or "[]".
func deleteChild(doc []byte, c gjson.Result, i int) []byte {
	type span struct{ start, end int }
	var cs []span
	if c.IsObject() {
		for _, m := range members(c) {
			cs = append(cs, span{m.KeyStart, m.end()})
		}
	} else {
		for _, e := range elements(c) {
			cs = append(cs, span{e.Index, end(e)})
		}
	}
	switch {
	case len(cs) == 1:
		empty := "[]"
		if c.IsObject() {
			empty = "{}"
		}
		return splice(doc, c.Index, end(c), empty)
	case i > 0:
		return splice(doc, cs[i-1].end, cs[i].end, "")
	default:
		return splice(doc, cs[0].start, cs[1].start, "")
	}
}

// replaceValue puts v where val is, rendered at val's line indent.
func replaceValue(doc []byte, val gjson.Result, v any, f Format) []byte {
	lead, _ := leadOf(doc, val.Index)
	inline := f.Compact || !strings.Contains(val.Raw, "\n")
	return splice(doc, val.Index, end(val), render(v, f, lead, inline))
}
