package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
)

// A TrustEntry is one trust record of ours in Codex's config.toml.
type TrustEntry struct {
	Key     string // <hooks.json path>:<event_snake>:<group>:<handler>
	Hash    string // sha256:<hex>
	Event   string
	Command string
}

// codex is the one zerocode-style agent whose trust hash hookinstall
// reproduces exactly (Codex 0.171.0, codextrust.go), so the one whose add
// can also record the user's trust for our hooks in config.toml: one more
// file of the plan.
type codex struct{ zerocodeStyle }

// VersionCommand prints the installed Codex's version: trust is written
// only for CodexTrustVersion.
func (codex) VersionCommand() []string { return []string{"codex", "--version"} }

// PlanAdd installs into hooks.json and, with in.Trust, records trust for
// our handlers in config.toml, once the probed version is the one whose
// hash CodexTrustHash reproduces.
func (c codex) PlanAdd(t Target, in PlanInput) (Plan, error) {
	if !in.Trust {
		p, err := configAdd(t, in)
		p.Next = c.trustHint(t)
		return p, err
	}
	if t.AsHome != t.Home {
		return Plan{}, errors.New("--trust cannot be used with --as-home: the trust key names the container's path, whose symlinks the host cannot resolve; trust the hooks in /hooks inside the container")
	}
	if err := c.checkVersion(in.Probe); err != nil {
		return Plan{}, err
	}
	p, err := configAdd(t, in)
	if err != nil {
		return p, err
	}
	file := c.configTOML(t)
	es, err := c.TrustEntries(t, p.Edits[0].Doc, TrustKeyPath(t, in.Probe.RealDir))
	if err != nil {
		return Plan{}, err
	}
	doc, err := c.Trust(in.Files[file], es)
	if err != nil {
		return Plan{}, &FileError{File: file, Err: err}
	}
	p.Edits = append(p.Edits, FileEdit{Path: file, Role: RoleTrust, Edit: Edit{Doc: doc}})
	return p, nil
}

// checkVersion accepts only the probed `codex --version` of the release
// whose trust hash this package reproduces: a wrong hash silently leaves
// the hooks skipped.
func (c codex) checkVersion(pr Probe) error {
	e := &TrustVersionError{Name: c.VersionCommand()[0], Binary: pr.Binary, Want: CodexTrustVersion, Err: pr.VersionErr}
	if pr.Binary == "" || pr.VersionErr != nil {
		return e
	}
	first, _, _ := strings.Cut(pr.VersionOut, "\n")
	e.Said = strings.TrimSpace(first)
	if f := strings.Fields(e.Said); len(f) == 0 || f[len(f)-1] != CodexTrustVersion {
		return e
	}
	return nil
}

// TrustEntries lists the records for our handlers in hooksDoc (the
// hooks.json as written), keyed on keyPath (TrustKeyPath).
func (c codex) TrustEntries(t Target, hooksDoc []byte, keyPath string) ([]TrustEntry, error) {
	root, err := jsonedit.ParseObject(hooksDoc)
	if err != nil {
		return nil, err
	}
	hooks, ok, err := jsonedit.Lookup(hooksDoc, root, "hooks")
	if err != nil || !ok {
		return nil, err
	}
	var es []TrustEntry
	for _, ev := range jsonedit.Members(hooks.Val) {
		if !ev.Val.IsArray() {
			continue
		}
		for gi, g := range jsonedit.Elements(ev.Val) {
			hs := g.Get("hooks")
			if !g.IsObject() || !hs.IsArray() {
				continue
			}
			for hi, h := range jsonedit.Elements(hs) {
				cmd := h.Get("command")
				if cmd.Type != gjson.String || !strings.HasPrefix(cmd.Str, t.Prefix()) {
					continue
				}
				key, err := CodexTrustKey(keyPath, ev.Key, gi, hi)
				if err != nil {
					return nil, err
				}
				hash, err := CodexTrustHashJSON(ev.Key, json.RawMessage(g.Raw), json.RawMessage(h.Raw))
				if err != nil {
					return nil, err
				}
				es = append(es, TrustEntry{Key: key, Hash: hash, Event: ev.Key, Command: cmd.Str})
			}
		}
	}
	return es, nil
}

// trustState parses config.toml's [hooks.state] tables: key -> trusted_hash.
func trustState(cur []byte) (map[string]string, error) {
	var doc map[string]any
	if err := toml.Unmarshal(cur, &doc); err != nil {
		return nil, fmt.Errorf("invalid TOML: %w", err)
	}
	out := map[string]string{}
	hooks, ok := doc["hooks"]
	if !ok {
		return out, nil
	}
	hm, ok := hooks.(map[string]any)
	if !ok {
		return nil, errors.New(`"hooks" is not a table`)
	}
	st, ok := hm["state"]
	if !ok {
		return out, nil
	}
	sm, ok := st.(map[string]any)
	if !ok {
		return nil, errors.New(`"hooks.state" is not a table`)
	}
	for k, v := range sm {
		if tm, ok := v.(map[string]any); ok {
			if h, ok := tm["trusted_hash"].(string); ok {
				out[k] = h
				continue
			}
		}
		out[k] = ""
	}
	return out, nil
}

// tableSpan finds the [hooks.state."key"] table written as a header line,
// and returns the offsets of the header line and of the end of the table.
func tableSpan(cur []byte, key string) (start, end int, ok bool) {
	header := "[hooks.state." + tomlString(key) + "]"
	off := 0
	for off < len(cur) {
		nl := bytes.IndexByte(cur[off:], '\n')
		lineEnd := len(cur)
		if nl >= 0 {
			lineEnd = off + nl + 1
		}
		line := strings.TrimSpace(string(cur[off:lineEnd]))
		if ok {
			if strings.HasPrefix(line, "[") {
				return start, off, true
			}
		} else if line == header {
			start, ok = off, true
		}
		off = lineEnd
	}
	return start, len(cur), ok
}

// Trust returns cur with every entry trusted: it appends (or updates in place) a [hooks.state."key"] table per entry,
// as Codex writes them. A re-run with the same entries is byte-identical.
func (codex) Trust(cur []byte, entries []TrustEntry) ([]byte, error) {
	state, err := trustState(cur)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), cur...)
	for _, e := range entries {
		have, exists := state[e.Key]
		if exists && have == e.Hash {
			continue
		}
		if exists {
			start, end, ok := tableSpan(out, e.Key)
			if !ok {
				return nil, fmt.Errorf("trust for %s is written in a form hookinstall does not edit (an inline or dotted table); trust the hooks in /hooks instead", e.Key)
			}
			body := string(out[start:end])
			lines := strings.SplitAfter(body, "\n")
			replaced := false
			for i, l := range lines {
				if strings.HasPrefix(strings.TrimSpace(l), "trusted_hash") {
					lines[i] = "trusted_hash = " + tomlString(e.Hash) + "\n"
					replaced = true
				}
			}
			if !replaced {
				lines = append(lines[:1], append([]string{"trusted_hash = " + tomlString(e.Hash) + "\n"}, lines[1:]...)...)
			}
			out = jsonedit.Splice(out, start, end, strings.Join(lines, ""))
			continue
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
		out = append(out, CodexTrustTOML(e.Key, e.Hash)...)
	}
	got, err := trustState(out)
	if err != nil {
		return nil, fmt.Errorf("the trust records would break config.toml: %w", err)
	}
	for _, e := range entries {
		if got[e.Key] != e.Hash {
			return nil, fmt.Errorf("could not record trust for %s", e.Key)
		}
	}
	return out, nil
}

// Untrust deletes every trust table of ours: keyed on our hooks.json and
// holding the hash of one of our handlers for that event, wherever it sits.
// The blank line we put before a table goes with it.
func (z zerocodeStyle) Untrust(t Target, cur []byte, keyPath string) ([]byte, error) {
	state, err := trustState(cur)
	if err != nil {
		return nil, err
	}
	ours := map[string]string{} // event label -> hash of our handler
	for _, e := range z.events {
		raw := jsonedit.Compact(z.handler(t, e.event))
		group := jsonedit.Compact(jsonedit.Obj{{K: "hooks", V: []any{z.handler(t, e.event)}}})
		h, err := CodexTrustHashJSON(e.event, json.RawMessage(group), json.RawMessage(raw))
		if err != nil {
			return nil, err
		}
		key, err := CodexTrustKey(keyPath, e.event, 0, 0)
		if err != nil {
			return nil, err
		}
		label := strings.TrimSuffix(key, ":0:0")
		ours[label] = h
	}
	out := append([]byte(nil), cur...)
	for key, hash := range state {
		i := strings.LastIndex(key, ":")
		if i < 0 {
			continue
		}
		j := strings.LastIndex(key[:i], ":")
		if j < 0 || ours[key[:j]] != hash {
			continue
		}
		start, end, ok := tableSpan(out, key)
		if !ok {
			continue
		}
		// One blank line separates tables: take the one before the table
		// (which Trust wrote) and leave the one after it to the next table;
		// a table that opens the file takes the one after it instead.
		if start >= 2 && out[start-1] == '\n' && out[start-2] == '\n' {
			for end-start > 2 && out[end-1] == '\n' && out[end-2] == '\n' {
				end--
			}
			start--
		}
		out = jsonedit.Splice(out, start, end, "")
	}
	if _, err := trustState(out); err != nil {
		return nil, fmt.Errorf("removing trust records would break config.toml: %w", err)
	}
	return out, nil
}
