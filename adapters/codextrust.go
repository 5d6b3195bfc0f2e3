package adapters

// Codex hook trust, computed the way Codex 0.171.0 computes it.
//
// Codex runs a hook from $CODEX_HOME/hooks.json only when $CODEX_HOME/config.toml holds
//
//	[hooks.state."<hooks.json path>:<event_snake>:<group index>:<handler index>"]
//	trusted_hash = "sha256:<hex>"
//
// and the hash equals the one Codex computes for the handler now. The hash is SHA-256
// over a canonical JSON text (object keys sorted by bytes, no whitespace, serde_json
// string escaping) of this normalized identity:
//
//	{"event_name": <event_snake>,
//	 "hooks": [{"type": "command", "command": ..., "timeout": <normalized seconds>,
//	            "async": <bool>, "statusMessage": ... (when set),
//	            "additionalContextLimit": ... (when set, and only for events that can
//	            emit additionalContext)}],
//	 "matcher": ... (when set, and only for events that use matchers)}
//
// Nothing else enters the hash: not the path, not the position, not other handlers of
// the group, not unknown keys, not commandWindows, not the file's formatting.
// Every rule here, and every test vector in codextrust_test.go, was checked against
// the real codex-cli 0.171.0 binary; docs/codex-trust.md has the evidence. The
// functions are pure: no file or OS access.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CodexTrustVersion is the Codex release whose trust hash these functions reproduce.
const CodexTrustVersion = "0.171.0"

// A CodexHandler is one command handler of Codex's hooks.json, reduced to the fields
// that Codex 0.171.0 puts into its trust hash. Nil pointers mean "absent or null".
type CodexHandler struct {
	Command                string  // "command", verbatim (not trimmed)
	Timeout                *uint64 // "timeout" in seconds
	Async                  bool    // "async"
	StatusMessage          *string // "statusMessage"; an empty string still counts
	AdditionalContextLimit *uint64 // "additionalContextLimit"
}

// codexEvent describes how Codex 0.171.0 normalizes one hook event.
type codexEvent struct {
	label      string // the event part of the trust key and the hash's event_name
	matcher    bool   // the group's matcher enters the hash (others are ignored)
	context    bool   // the handler's additionalContextLimit enters the hash
	shortLimit bool   // timeout defaults to 1 s and is clamped to [1, 3] s
}

// codexEvents is keyed by the event names used in hooks.json.
var codexEvents = map[string]codexEvent{
	"PreModelRequest":   {label: "pre_model_request"},
	"PostModelRequest":  {label: "post_model_request"},
	"PreToolUse":        {label: "pre_tool_use", matcher: true, context: true},
	"PermissionRequest": {label: "permission_request", matcher: true},
	"PostToolUse":       {label: "post_tool_use", matcher: true, context: true},
	"PreCompact":        {label: "pre_compact", matcher: true},
	"PostCompact":       {label: "post_compact", matcher: true},
	"SessionStart":      {label: "session_start", matcher: true, context: true},
	"SessionEnd":        {label: "session_end", matcher: true, shortLimit: true},
	"UserPromptSubmit":  {label: "user_prompt_submit", context: true},
	"SubagentStart":     {label: "subagent_start", matcher: true, context: true},
	"SubagentStop":      {label: "subagent_stop", matcher: true},
	"Stop":              {label: "stop"},
	"Interrupt":         {label: "interrupt", shortLimit: true},
}

const (
	codexDefaultTimeout      = 600
	codexShortDefaultTimeout = 1
	codexShortMaxTimeout     = 3
)

func lookupCodexEvent(event string) (codexEvent, error) {
	ev, ok := codexEvents[event]
	if !ok {
		return codexEvent{}, fmt.Errorf("codex trust: unknown hook event %q", event)
	}
	return ev, nil
}

// CodexTrustKey returns the [hooks.state] key under which Codex records trust for
// handler handlerIndex of group groupIndex of event (a hooks.json event name such as
// "UserPromptSubmit") in the hooks file at hooksJSONPath. The path must be the one
// Codex itself uses (see TrustKeyPath). Indexes count every handler and group in
// the file, including ones Codex skips.
func CodexTrustKey(hooksJSONPath, event string, groupIndex, handlerIndex int) (string, error) {
	ev, err := lookupCodexEvent(event)
	if err != nil {
		return "", err
	}
	if groupIndex < 0 || handlerIndex < 0 {
		return "", errors.New("codex trust: negative group or handler index")
	}
	return hooksJSONPath + ":" + ev.label + ":" + strconv.Itoa(groupIndex) + ":" + strconv.Itoa(handlerIndex), nil
}

// CodexTrustHash returns the "sha256:<hex>" that Codex 0.171.0 computes for handler h
// of event in a group whose "matcher" is matcher (nil when absent or null).
//
// It fails where Codex would run no such hook: an unknown event, or an empty command
// (Codex skips it). It also fails for a timeout or additionalContextLimit above
// math.MaxInt64, for which Codex 0.171.0's hook discovery panics.
func CodexTrustHash(event string, matcher *string, h CodexHandler) (string, error) {
	ev, err := lookupCodexEvent(event)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(h.Command) == "" {
		return "", errors.New("codex trust: empty command: codex skips this hook")
	}
	if !utf8.ValidString(h.Command) || (h.StatusMessage != nil && !utf8.ValidString(*h.StatusMessage)) ||
		(matcher != nil && !utf8.ValidString(*matcher)) {
		return "", errors.New("codex trust: string is not valid UTF-8")
	}

	timeout := normalizeCodexTimeout(ev, h.Timeout)
	if timeout > math.MaxInt64 {
		return "", errors.New("codex trust: timeout above 2^63-1 makes codex 0.171.0 panic")
	}

	// Keys are written in byte order, which is the order of the canonical form.
	var b bytes.Buffer
	b.WriteString(`{"event_name":`)
	writeSerdeJSONString(&b, ev.label)
	b.WriteString(`,"hooks":[{`)
	if ev.context && h.AdditionalContextLimit != nil {
		if *h.AdditionalContextLimit > math.MaxInt64 {
			return "", errors.New("codex trust: additionalContextLimit above 2^63-1 makes codex 0.171.0 panic")
		}
		b.WriteString(`"additionalContextLimit":`)
		b.WriteString(strconv.FormatUint(*h.AdditionalContextLimit, 10))
		b.WriteByte(',')
	}
	b.WriteString(`"async":`)
	b.WriteString(strconv.FormatBool(h.Async))
	b.WriteString(`,"command":`)
	writeSerdeJSONString(&b, h.Command)
	if h.StatusMessage != nil {
		b.WriteString(`,"statusMessage":`)
		writeSerdeJSONString(&b, *h.StatusMessage)
	}
	b.WriteString(`,"timeout":`)
	b.WriteString(strconv.FormatUint(timeout, 10))
	b.WriteString(`,"type":"command"}]`)
	if ev.matcher && matcher != nil {
		b.WriteString(`,"matcher":`)
		writeSerdeJSONString(&b, *matcher)
	}
	b.WriteByte('}')

	sum := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func normalizeCodexTimeout(ev codexEvent, t *uint64) uint64 {
	if ev.shortLimit {
		v := uint64(codexShortDefaultTimeout)
		if t != nil {
			v = *t
		}
		return min(max(v, 1), codexShortMaxTimeout)
	}
	v := uint64(codexDefaultTimeout)
	if t != nil {
		v = *t
	}
	return max(v, 1)
}

// writeSerdeJSONString writes s as serde_json writes a string: only '"', '\\' and
// control characters below 0x20 are escaped (\b \t \n \f \r, else \u00xx in lower-case
// hex); DEL, non-ASCII, U+2028/U+2029 and "<>&" stay raw, unlike encoding/json.
func writeSerdeJSONString(b *bytes.Buffer, s string) { b.WriteString(escapeQuoted(s, `\u%04x`, false)) }

// escapeQuoted is s in double quotes, escaped as serde_json and toml_edit
// both escape: '"', '\\', \b \t \n \f \r, and any other control character
// below 0x20 (and DEL when del) in format.
func escapeQuoted(s, format string, del bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || del && r == 0x7f {
				fmt.Fprintf(&b, format, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// CodexTrustHashJSON is CodexTrustHash for a group and a handler as they appear in
// hooks.json (group is the whole {"matcher":…,"hooks":[…]} object; only its "matcher"
// is read). It checks the fields the way Codex's parser does and fails where Codex
// would reject the whole file (a duplicate field, a wrong type, a timeout that is not
// a non-negative integer) or skip the handler (a type other than "command").
func CodexTrustHashJSON(event string, group, handler json.RawMessage) (string, error) {
	if _, err := lookupCodexEvent(event); err != nil {
		return "", err
	}
	g, err := codexObjectFields(group, "matcher", "hooks")
	if err != nil {
		return "", fmt.Errorf("codex trust: group: %w", err)
	}
	matcher, err := optString(g, "matcher")
	if err != nil {
		return "", fmt.Errorf("codex trust: group: %w", err)
	}

	f, err := codexObjectFields(handler, "type", "command", "commandWindows", "command_windows",
		"timeout", "async", "statusMessage", "additionalContextLimit")
	if err != nil {
		return "", fmt.Errorf("codex trust: handler: %w", err)
	}
	typ, ok := f["type"]
	if !ok {
		return "", errors.New("codex trust: handler: missing field type")
	}
	var kind string
	if err := json.Unmarshal(typ, &kind); err != nil {
		return "", fmt.Errorf("codex trust: handler: type: %w", err)
	}
	switch kind {
	case "command":
	case "mcp_tool", "prompt", "agent":
		return "", fmt.Errorf("codex trust: handler type %q is not a command handler", kind)
	default:
		return "", fmt.Errorf("codex trust: handler: unknown type %q: codex rejects the file", kind)
	}
	if _, a := f["commandWindows"]; a {
		if _, b := f["command_windows"]; b {
			return "", errors.New("codex trust: handler: duplicate field commandWindows: codex rejects the file")
		}
	}

	var h CodexHandler
	cmd, err := optString(f, "command")
	if err != nil {
		return "", fmt.Errorf("codex trust: handler: %w", err)
	}
	if cmd == nil {
		if raw, ok := f["command"]; ok && string(raw) == "null" {
			return "", errors.New("codex trust: handler: command is null: codex rejects the file")
		}
		return "", errors.New("codex trust: handler: missing field command: codex rejects the file")
	}
	h.Command = *cmd
	for _, name := range []string{"commandWindows", "command_windows"} {
		if _, err := optString(f, name); err != nil { // checked, never hashed
			return "", fmt.Errorf("codex trust: handler: %w", err)
		}
	}
	if h.Timeout, err = optUint(f, "timeout"); err != nil {
		return "", fmt.Errorf("codex trust: handler: %w", err)
	}
	if raw, ok := f["async"]; ok {
		if err := strictBool(raw, &h.Async); err != nil {
			return "", fmt.Errorf("codex trust: handler: async: %w", err)
		}
	}
	if h.StatusMessage, err = optString(f, "statusMessage"); err != nil {
		return "", fmt.Errorf("codex trust: handler: %w", err)
	}
	if h.AdditionalContextLimit, err = optUint(f, "additionalContextLimit"); err != nil {
		return "", fmt.Errorf("codex trust: handler: %w", err)
	}
	return CodexTrustHash(event, matcher, h)
}

// codexObjectFields splits a JSON object into its members, refusing what serde_json
// refuses for Codex's structs: a non-object, invalid UTF-8, a lone surrogate escape,
// or a known member given twice (unknown members may repeat: codex ignores them).
func codexObjectFields(raw json.RawMessage, known ...string) (map[string]json.RawMessage, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("invalid UTF-8: codex rejects the file")
	}
	if hasLoneSurrogateEscape(raw) { // anywhere, even in a member codex ignores
		return nil, errors.New("lone UTF-16 surrogate escape: codex rejects the file")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := fields[name]; dup && slices.Contains(known, name) {
			return nil, fmt.Errorf("duplicate field %s: codex rejects the file", name)
		}
		fields[name] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after object")
	}
	return fields, nil
}

// optString reads an optional string member: absent or null gives nil.
func optString(f map[string]json.RawMessage, name string) (*string, error) {
	raw, ok := f[name]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	if len(raw) == 0 || raw[0] != '"' {
		return nil, fmt.Errorf("%s: not a string: codex rejects the file", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// optUint reads an optional unsigned integer member as serde_json reads a u64:
// absent or null gives nil; a sign, fraction or exponent is an error.
func optUint(f map[string]json.RawMessage, name string) (*uint64, error) {
	raw, ok := f[name]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	s := string(raw)
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return nil, fmt.Errorf("%s: %s is not a non-negative integer: codex rejects the file", name, s)
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s: %s does not fit in 64 bits: codex rejects the file", name, s)
	}
	return &v, nil
}

func strictBool(raw json.RawMessage, dst *bool) error {
	switch string(raw) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return fmt.Errorf("%s is not a boolean: codex rejects the file", raw)
	}
	return nil
}

// hasLoneSurrogateEscape reports whether JSON text holds a \uD800-\uDFFF escape that
// is not a high+low pair; serde_json rejects those, encoding/json would quietly turn
// them into U+FFFD.
func hasLoneSurrogateEscape(text []byte) bool {
	s := string(text)
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i+1 < len(s) && s[i+1] != 'u' {
			i++ // skip the escaped byte (it may be a backslash)
			continue
		}
		if i+6 > len(s) {
			return false
		}
		u, err := strconv.ParseUint(s[i+2:i+6], 16, 16)
		if err != nil {
			return false
		}
		switch {
		case u >= 0xD800 && u <= 0xDBFF:
			if i+12 > len(s) || s[i+6] != '\\' || s[i+7] != 'u' {
				return true
			}
			lo, err := strconv.ParseUint(s[i+8:i+12], 16, 16)
			if err != nil || lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 11
		case u >= 0xDC00 && u <= 0xDFFF:
			return true
		default:
			i += 5
		}
	}
	return false
}

// TrustKeyPath is the hooks.json path that Codex 0.171.0 (and ZeroCode, whose
// engine is Codex's) puts into the trust keys of t's hooks, as the agent sees it.
// realDir is t.Dir with its symlinks resolved ("" when that failed); the caller
// resolves it, to keep this package free of file access. Codex resolves a
// CODEX_HOME it is given through symlinks (a variable moved t.Dir, or t is a clone,
// which runs with its own CODEX_HOME), but for an unset one uses $HOME/.codex only
// lexically cleaned ("/./", "//", "x/..", a trailing "/"), symlinks kept, even when
// ~/.codex itself is a symlink. This is the one place that rule lives: add --trust,
// remove and doctor all use it.
func TrustKeyPath(t Target, realDir string) string {
	dir := t.Dir
	if (t.DirFrom != "" || t.ID != t.Adapter.ID) && realDir != "" {
		dir = realDir
	}
	return t.AsPath(filepath.Join(dir, filepath.Base(t.Adapter.File(t))))
}

// CodexTrustTOML renders one trust entry the way Codex 0.171.0 writes it into
// config.toml: a table header quoting the key, then trusted_hash, then "\n". The key
// is a TOML literal string ('…') when it holds '"' or '\' and can be one (no "'", no
// control character), else a basic string ("…") with escapes, as toml_edit chooses.
// Codex separates entries with one blank line and puts an empty "[hooks.state]"
// header before the first one it creates.
func CodexTrustTOML(key, hash string) string {
	return "[hooks.state." + tomlString(key) + "]\ntrusted_hash = " + tomlString(hash) + "\n"
}

// tomlString quotes s as toml_edit does for a key or a one-line string value.
func tomlString(s string) string {
	needsQuote, literalOK := false, true
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			needsQuote = true
		case r == '\'' || r == '\n' || r == '\r' || (r < 0x20 && r != '\t') || r == 0x7f:
			literalOK = false
		}
	}
	if needsQuote && literalOK {
		return "'" + s + "'"
	}
	return escapeQuoted(s, `\u%04X`, true)
}
