package jsonedit

// scan is the strict JSON validator ParseObject gates on: one iterative
// pass over doc that gives encoding/json.Valid's verdict (FuzzValidAgrees
// holds it to that, on every input), depth limit included, without
// recursing (a file of a million '[' costs no stack).
func scan[D Text](doc D) bool {
	var st []bool // the open containers: true for an object
	n := len(doc)
	i := 0
	const (
		sValue = iota // a value comes next
		sAfter        // a value ended at i
		sKey          // an object member's key comes next
	)
	state := sValue
	for {
		switch state {
		case sValue:
			i = skipWS(doc, i)
			if i >= n {
				return false
			}
			switch c := doc[i]; {
			case c == '{' || c == '[':
				if len(st) >= maxDepth {
					return false
				}
				obj := c == '{'
				st = append(st, obj)
				i = skipWS(doc, i+1)
				if i < n && (doc[i] == '}' && obj || doc[i] == ']' && !obj) {
					i++
					st = st[:len(st)-1]
					state = sAfter
					continue
				}
				if obj {
					state = sKey
				}
				continue
			case c == '"':
				j, ok := scanString(doc, i)
				if !ok {
					return false
				}
				i = j
			case c == 't':
				if !hasLit(doc, i, "true") {
					return false
				}
				i += 4
			case c == 'f':
				if !hasLit(doc, i, "false") {
					return false
				}
				i += 5
			case c == 'n':
				if !hasLit(doc, i, "null") {
					return false
				}
				i += 4
			case c == '-' || c >= '0' && c <= '9':
				j, ok := scanNumber(doc, i)
				if !ok {
					return false
				}
				i = j
			default:
				return false
			}
			state = sAfter
		case sAfter:
			if len(st) == 0 {
				return skipWS(doc, i) == n
			}
			obj := st[len(st)-1]
			i = skipWS(doc, i)
			if i >= n {
				return false
			}
			switch c := doc[i]; {
			case c == ',':
				i++
				if obj {
					state = sKey
				} else {
					state = sValue
				}
			case c == '}' && obj || c == ']' && !obj:
				i++
				st = st[:len(st)-1]
			default:
				return false
			}
		case sKey:
			i = skipWS(doc, i)
			if i >= n || doc[i] != '"' {
				return false
			}
			j, ok := scanString(doc, i)
			if !ok {
				return false
			}
			i = skipWS(doc, j)
			if i >= n || doc[i] != ':' {
				return false
			}
			i++
			state = sValue
		}
	}
}

func skipWS[D Text](doc D, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func hasLit[D Text](doc D, i int, lit string) bool {
	return len(doc)-i >= len(lit) && string(doc[i:i+len(lit)]) == lit
}

// scanString checks the string that starts at doc[i] ('"') and returns the
// offset after it.
func scanString[D Text](doc D, i int) (end int, ok bool) {
	n := len(doc)
	for j := i + 1; j < n; j++ {
		c := doc[j]
		switch {
		case c == '"':
			return j + 1, true
		case c == '\\':
			j++
			if j >= n {
				return 0, false
			}
			switch doc[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if n-j < 5 {
					return 0, false
				}
				for k := 1; k <= 4; k++ {
					if !isHex(doc[j+k]) {
						return 0, false
					}
				}
				j += 4
			default:
				return 0, false
			}
		case c < 0x20:
			return 0, false
		}
	}
	return 0, false
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
