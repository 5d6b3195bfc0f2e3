package jsonedit

import (
	"strings"

	"github.com/tidwall/gjson"
)

// JSONC: JSON with // and /* */ comments, as Gemini CLI, Qwen Code and
// Factory Droid read their settings (trailing commas are still refused:
// they reject them). MapEdit.Comments turns it on.
//
// A JSONC document is parsed as its comments blanked (each comment byte
// but line breaks replaced by a space, see Blank), so every offset
// is the same in both. The edits are computed on the blanked text and
// applied to both: the cursor keeps the document with its comments
// (cursor.orig). Comments are the user's bytes: no edit deletes one or
// cuts through one. A comment on the rest of the line after the last
// child stays on that line when a child is appended (the comma goes
// before it); a container that holds only comments keeps them when it
// gets its first child, and gets back exactly what it held when it is
// emptied again (Record.Emptied).

// Blank returns doc with each // and /* */ comment outside strings
// replaced by spaces (newlines kept), so offsets and lines stay those of
// doc: how an agent that reads JSONC (comments, not trailing commas) sees
// its config. A doc without comments comes back as it is.
func Blank(doc []byte) []byte {
	b, _ := blankComments(doc)
	return b
}

// blankComments is Blank on either text, and the offset of a block comment
// that is never closed (-1 when there is none).
func blankComments[D Text](s D) (D, int) {
	open := -1
	var out []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*'):
			if out == nil {
				out = append([]byte(nil), s...)
			}
			block := s[i+1] == '*'
			j := i + 2
			closed := !block
			for ; j < len(s); j++ {
				if !block && s[j] == '\n' {
					break
				}
				if block && s[j] == '*' && j+1 < len(s) && s[j+1] == '/' {
					j += 2
					closed = true
					break
				}
			}
			if !closed && open < 0 {
				open = i
			}
			for k := i; k < j && k < len(s); k++ {
				if out[k] != '\n' && out[k] != '\r' {
					out[k] = ' '
				}
			}
			i = j - 1
		}
	}
	if out == nil {
		return s, open
	}
	return D(out), open
}

// blank is a fragment of JSONC (starting outside any string or comment)
// with its comments blanked.
func blank(s string) string {
	b, _ := blankComments(s)
	return b
}

// parseJSONC parses a JSONC object: the blanked document and its root.
func parseJSONC(orig string) (string, gjson.Result, error) {
	if len(orig) > MaxDocSize {
		return "", gjson.Result{}, tooLarge(len(orig))
	}
	doc, open := blankComments(orig)
	if open >= 0 {
		return "", gjson.Result{}, ErrorAt(orig, int64(open), "a /* comment that is never closed")
	}
	root, err := parseObject(doc)
	return doc, root, err
}

// orig is the document with its comments, while one JSONC add or remove
// runs; "" otherwise.
func (m MapEdit) orig() string {
	if m.cur != nil && m.cur.jsonc {
		return m.cur.orig
	}
	return ""
}

// out is doc as the caller gets it: with its comments.
func (m MapEdit) out(doc string) string {
	if m.cur != nil && m.cur.jsonc {
		return m.cur.orig
	}
	return doc
}

// comments lists the comments of o[a:b], a separator between values (white
// space, commas, colons and comments; no strings), as spans. A // comment
// ends before its line break (and a \r right before it).
func comments(o string, a, b int) [][2]int {
	var out [][2]int
	for i := a; i+1 < b; i++ {
		if o[i] != '/' || (o[i+1] != '/' && o[i+1] != '*') {
			continue
		}
		j := i + 2
		if o[i+1] == '/' {
			for j < b && o[j] != '\n' {
				j++
			}
			if j > i+2 && o[j-1] == '\r' {
				j--
			}
		} else {
			for j+1 < b && !(o[j] == '*' && o[j+1] == '/') {
				j++
			}
			j += 2
			if j > b {
				j = b
			}
		}
		out = append(out, [2]int{i, j})
		i = j - 1
	}
	return out
}

// commentText is the comments of o[a:b], joined, to compare two spans'.
func commentText(o string, a, b int) string {
	var s strings.Builder
	for _, c := range comments(o, a, b) {
		s.WriteString(o[c[0]:c[1]])
		s.WriteByte(0)
	}
	return s.String()
}

// lineComment returns, when the rest of the line after p holds only blanks
// and comments (at least one), where that line ends (before its \r\n or
// \n, or at the end of the document).
func lineComment(o string, p int) (int, bool) {
	eol := strings.IndexByte(o[p:], '\n')
	if eol < 0 {
		eol = len(o)
	} else {
		eol += p
	}
	if eol > p && o[eol-1] == '\r' {
		eol--
	}
	cs := comments(o, p, eol)
	if len(cs) == 0 {
		return 0, false
	}
	at := p
	for _, c := range cs {
		if strings.TrimLeft(o[at:c[0]], " \t") != "" {
			return 0, false
		}
		at = c[1]
	}
	if strings.TrimLeft(o[at:eol], " \t") != "" {
		return 0, false
	}
	return eol, true
}

// appendEdit is appendEdit, made in a JSONC document without moving or
// dropping a comment.
func (m MapEdit) appendEdit(doc string, c gjson.Result, key *string, v any, f Format) edit {
	e := appendEdit(doc, c, key, v, f)
	o := m.orig()
	if o == "" {
		return e
	}
	if e.from == e.to {
		// After the last child: on its own lines, with a comment on the
		// rest of the last child's line, the comma goes before the
		// comment and the new child after it.
		if strings.HasPrefix(e.text, ","+f.Newline) {
			if eol, ok := lineComment(o, e.from); ok {
				return edit{e.from, eol, "," + o[e.from:eol] + e.text[1:]}
			}
		}
		return e
	}
	// The first child of an empty container: what it held stays, up to
	// its last comment, and the child follows.
	if o[e.from:e.to] == doc[e.from:e.to] {
		return e
	}
	cs := comments(o, e.from, e.to)
	if len(cs) == 0 {
		return e
	}
	last := cs[len(cs)-1][1]
	text := e.text
	if !strings.HasPrefix(text, f.Newline) {
		text = " " + text // compact: after the comment, inline
	}
	return edit{e.from, e.to, o[e.from:last] + text}
}

// childSpans are the children of container c, each from its first byte
// (a member's key) to its last.
func childSpans(c gjson.Result) [][2]int {
	var cs [][2]int
	if c.IsObject() {
		for _, m := range members(c) {
			cs = append(cs, [2]int{m.KeyStart, m.end()})
		}
	} else {
		for _, e := range elements(c) {
			cs = append(cs, [2]int{e.Index, end(e)})
		}
	}
	return cs
}

// delEdit is deleteEdit(c, i), made in a JSONC document without deleting a
// comment: only the child, its comma, and the blanks that were its own.
func (m MapEdit) delEdit(doc string, c gjson.Result, i int) edit {
	e := deleteEdit(c, i)
	o := m.orig()
	if o == "" {
		return e
	}
	cs := childSpans(c)
	isBlank := func(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
	switch {
	case len(cs) == 1:
		if o[c.Index+1:end(c)-1] == doc[c.Index+1:end(c)-1] {
			return e
		}
		p := cs[0][0]
		for p > c.Index+1 && isBlank(o[p-1]) {
			p--
		}
		return edit{p, cs[0][1], ""}
	case i == len(cs)-1:
		// the last child: its comma is before it
		a, b := cs[i-1][1], cs[i][0]
		if o[a:b] == doc[a:b] {
			return e
		}
		k := a + strings.IndexByte(doc[a:b], ',')
		ccs := comments(o, a, b)
		if len(ccs) == 0 || k < a {
			return e
		}
		last := ccs[len(ccs)-1][1]
		keep := strings.TrimRight(o[a:k], " \t")
		if k < last {
			keep = o[a:k] + o[k+1:last]
		}
		return edit{a, cs[i][1], keep}
	default:
		// a child with one after it: the comma after it goes with it,
		// unless the blanks before it are all it needs to take
		if i > 0 && o[cs[i-1][1]:cs[i][0]] == doc[cs[i-1][1]:cs[i][0]] {
			return e
		}
		a, b := cs[i][1], cs[i+1][0]
		if o[a:b] == doc[a:b] {
			return edit{cs[i][0], b, ""}
		}
		k := a + strings.IndexByte(doc[a:b], ',')
		if k < a {
			return e
		}
		q := k + 1
		for q < b && (o[q] == ' ' || o[q] == '\t') {
			q++
		}
		return edit{cs[i][0], q, ""}
	}
}

// noteEmptied is ed.NoteEmptied, keeping what a JSONC container held,
// comments included.
func (m MapEdit) noteEmptied(ed *Edit, path string, c gjson.Result) {
	o := m.orig()
	if o == "" {
		ed.NoteEmptied(path, c)
		return
	}
	if len(c.Raw) < 2 || (c.IsObject() && len(members(c)) > 0) || (c.IsArray() && len(elements(c)) > 0) {
		return
	}
	if inner := o[c.Index+1 : end(c)-1]; inner != "" {
		ed.NoteEmpty(path, inner)
	}
}

// restoreEmptied is the edit that gives container c at path, whose one
// child goes, back what it held when the install found it empty: when it
// was, and (JSONC) when the comments around the child are still those.
func (m MapEdit) restoreEmptied(doc string, c gjson.Result, path string) (edit, bool) {
	ws, ok := m.Prev.WasEmpty(path)
	if !ok {
		return edit{}, false
	}
	o := m.orig()
	if o == "" {
		return edit{c.Index + 1, end(c) - 1, ws}, true
	}
	cs := childSpans(c)
	if len(cs) != 1 {
		return edit{}, false
	}
	if commentText(o, c.Index+1, cs[0][0])+commentText(o, cs[0][1], end(c)-1) != commentText(ws, 0, len(ws)) {
		return edit{}, false
	}
	return edit{c.Index + 1, end(c) - 1, ws}, true
}

// ParseJSONC checks that doc is one JSON object once its comments are
// blanked (comments allowed, nothing else: no trailing commas, no BOM) and
// returns its root, in the blanked document.
func ParseJSONC(doc []byte) (gjson.Result, error) {
	_, root, err := parseJSONC(string(doc))
	return root, err
}

// CommentsOf lists the comments of a JSONC document, in order.
func CommentsOf(doc []byte) []string {
	s := string(doc)
	b, _ := blankComments(s)
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] == b[i] {
			continue
		}
		// a comment starts here (its "/" was blanked): take it whole
		j := i + 2
		if s[i+1] == '/' {
			for j < len(s) && s[j] != '\n' {
				j++
			}
		} else {
			for j+1 < len(s) && !(s[j] == '*' && s[j+1] == '/') {
				j++
			}
			j = min(j+2, len(s))
		}
		out = append(out, s[i:j])
		i = j - 1
	}
	return out
}
