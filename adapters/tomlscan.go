package adapters

import "strings"

// A tomlHeader is one table header line of a TOML text: [name] or [[name]].
type tomlHeader struct {
	Start, End int    // the line's first byte, and the byte after its newline
	Name       string // the key path between the brackets, spaces trimmed
	Array      bool   // [[name]]: one element of an array of tables
}

// tomlHeaders finds every table header line of a TOML text, as a TOML
// parser would see them: a line inside a multi-line string, a multi-line
// array or inline table, or a comment is never taken for a header. It does
// not validate the text (parse it for that); it only says where tables
// start, so that one table can be cut out with its bytes and nothing else.
func tomlHeaders(b []byte) []tomlHeader {
	var hs []tomlHeader
	depth := 0 // open [ and { of values
	i, n := 0, len(b)
	lineStart := true
	for i < n {
		c := b[i]
		if lineStart && depth == 0 {
			// skip the indent; a header or a comment may follow
			j := i
			for j < n && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			if j < n && b[j] == '[' {
				start := i
				end := j
				for end < n && b[end] != '\n' {
					end++
				}
				line := string(b[j:end])
				if end < n {
					end++
				}
				if h, ok := parseHeader(line); ok {
					h.Start, h.End = start, end
					hs = append(hs, h)
				}
				i = end
				continue
			}
			lineStart = false
			i = j
			continue
		}
		switch {
		case c == '\n':
			lineStart = true
			i++
		case c == '#':
			for i < n && b[i] != '\n' {
				i++
			}
		case c == '"' && strings.HasPrefix(string(b[i:min(i+3, n)]), `"""`):
			i = skipString(b, i+3, `"""`, true)
		case c == '"':
			i = skipString(b, i+1, `"`, true)
		case c == '\'' && strings.HasPrefix(string(b[i:min(i+3, n)]), `'''`):
			i = skipString(b, i+3, `'''`, false)
		case c == '\'':
			i = skipString(b, i+1, `'`, false)
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			i++
		default:
			i++
		}
	}
	return hs
}

// skipString returns the offset after the string that starts at i (after its
// opening quotes) and ends with end. A one-line string also ends at a
// newline (an invalid text; the parser will say so).
func skipString(b []byte, i int, end string, escapes bool) int {
	n := len(b)
	for i < n {
		switch {
		case escapes && b[i] == '\\':
			i += 2
		case len(end) == 1 && b[i] == '\n':
			return i
		case strings.HasPrefix(string(b[i:min(i+len(end), n)]), end):
			i += len(end)
			// a multi-line string may end with up to two more quotes
			for k := 0; len(end) == 3 && k < 2 && i < n && b[i] == end[0]; k++ {
				i++
			}
			return i
		default:
			i++
		}
	}
	return n
}

// parseHeader reads a header line "[a.b] # c" or "[[a]]".
func parseHeader(line string) (tomlHeader, bool) {
	s := strings.TrimSpace(line)
	var h tomlHeader
	open, close := "[", "]"
	if strings.HasPrefix(s, "[[") {
		open, close, h.Array = "[[", "]]", true
	}
	s = s[len(open):]
	// the name ends at the closing bracket outside quotes
	inQ := byte(0)
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case inQ != 0:
			if c == '\\' && inQ == '"' {
				k++
			} else if c == inQ {
				inQ = 0
			}
		case c == '"' || c == '\'':
			inQ = c
		case strings.HasPrefix(s[k:], close):
			h.Name = strings.TrimSpace(s[:k])
			return h, true
		}
	}
	return h, false
}

// tomlEmptyInline finds a root-level key/value `key = []` whose value is an
// empty inline array (spaces, newlines and comments inside allowed), as whole
// lines: from its line's first byte through the newline after `]` and the
// comment that may follow it. Only lines before the first table header are
// root keys. ok is false when there is no such line.
func tomlEmptyInline(b []byte, key string) (start, end int, ok bool) {
	prelude := len(b)
	if hs := tomlHeaders(b); len(hs) > 0 {
		prelude = hs[0].Start
	}
	for ls := 0; ls < prelude; {
		le := ls
		for le < prelude && b[le] != '\n' {
			le++
		}
		if e, found := emptyInlineAt(b[:prelude], ls, key); found {
			return ls, e, true
		}
		ls = le + 1
	}
	return 0, 0, false
}

// emptyInlineAt reads `key = [ ... ]` (an empty array) on the line at i and
// returns the offset after its last line.
func emptyInlineAt(b []byte, i int, key string) (int, bool) {
	n := len(b)
	skip := func() {
		for i < n && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
	}
	skip()
	switch s := string(b[i:]); {
	case strings.HasPrefix(s, key):
		i += len(key)
	case strings.HasPrefix(s, `"`+key+`"`), strings.HasPrefix(s, `'`+key+`'`):
		i += len(key) + 2
	default:
		return 0, false
	}
	skip()
	if i >= n || b[i] != '=' {
		return 0, false
	}
	i++
	skip()
	if i >= n || b[i] != '[' {
		return 0, false
	}
	for i++; i < n; i++ { // white space, newlines and comments up to ]
		switch c := b[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		case c == '#':
			for i < n && b[i] != '\n' {
				i++
			}
			i--
		case c == ']':
			i++
			skip()
			if i < n && b[i] == '#' {
				for i < n && b[i] != '\n' {
					i++
				}
			}
			if i < n && b[i] == '\r' {
				i++
			}
			switch {
			case i == n:
				return i, true
			case b[i] == '\n':
				return i + 1, true
			}
			return 0, false
		default:
			return 0, false
		}
	}
	return 0, false
}
