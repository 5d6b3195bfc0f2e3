package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
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
	Err     error // why Hash could not be computed (Trust.Expected)
}

// codexTrustWrite is how Codex's add can also record the user's trust for
// our hooks in config.toml: one more file of the plan. The hashes come
// from the installed Codex itself (its app-server's hooks/list, asked about
// the planned hooks.json in a scratch CODEX_HOME), and the writer asks it
// again once both files are written (Plan.Verify): unless it reports our
// hooks trusted, the add is rolled back. Where the app-server cannot
// answer, the hash code of codextrust.go stands in for the one release it
// reproduces (CodexTrustVersion); any other release is refused.
var codexTrustWrite = &TrustWrite{
	Version: CodexTrustVersion,
	// for the messages and the fallback
	Program: "codex",
	Query:   codexTrustQuery,
	Add:     codexTrustAdd,
}

// codexTrustQuery asks the installed Codex for hooks/list about the
// hooks.json this add would write, placed in a scratch CODEX_HOME (the hash
// holds no path, so the scratch copy's hashes are the real file's).
func codexTrustQuery(a *Agent, t Target, in PlanInput) *Query {
	if !in.Trust || t.AsHome != t.Home || in.Probe.Binary == "" || in.Probe.VersionErr != nil {
		return nil
	}
	p, err := configAdd(a, t, in)
	if err != nil || len(p.Edits) == 0 {
		return nil // PlanAdd reports it
	}
	files := map[string][]byte{filepath.Base(a.File(t)): p.Edits[0].Doc}
	return codexHooksListQuery([]string{"CODEX_HOME=$SCRATCH"}, files, "")
}

// codexTrustAdd installs into hooks.json and records trust for our
// handlers in config.toml with the hashes the installed Codex expects.
func codexTrustAdd(a *Agent, t Target, in PlanInput) (Plan, error) {
	if t.AsHome != t.Home {
		return Plan{}, errors.New("--trust cannot be used with --as-home: the trust key names the container's path, whose symlinks the host cannot resolve; trust the hooks in /hooks inside the container")
	}
	verr := a.Trust.Write.CheckVersion(in.Probe)
	if in.Probe.Binary == "" || in.Probe.VersionErr != nil {
		return Plan{}, verr
	}
	p, err := configAdd(a, t, in)
	if err != nil {
		return p, err
	}
	keyPath := TrustKeyPath(t, in.Probe.RealDir)
	es, err := codexTrustEntries(t, p.Edits[0].Doc, keyPath)
	if err != nil {
		return Plan{}, err
	}
	var asked error = errors.New("it was not asked")
	if in.Probe.Reply != nil {
		var got []TrustEntry
		var notes []string
		if got, notes, asked = codexAskedEntries(es, keyPath, *in.Probe.Reply); asked == nil {
			es = got
			p.Notes = append(p.Notes, notes...)
		}
	}
	switch {
	case asked == nil:
		p.Verify = codexVerify(t, in.Probe.Binary, es)
	case errors.Is(asked, errNoListedHooks):
		return Plan{}, fmt.Errorf("--trust: %s app-server %w; nothing written: trust the hooks in /hooks instead", in.Probe.Binary, asked)
	case verr == nil: // the release whose hash codextrust.go reproduces
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v; trust hashes computed by hookinstall for codex %s, as that release computes them", in.Probe.Binary, asked, CodexTrustVersion))
	default:
		verr.Asked = asked
		return Plan{}, verr
	}
	file := a.Trust.File(t)
	doc, err := codexTrust(in.Files[file], es)
	if err != nil {
		return Plan{}, &FileError{File: file, Err: err}
	}
	// The manifest keeps each record's key and hash: remove takes out
	// exactly those, whatever release computed the hash.
	written := map[string][]string{}
	for _, e := range es {
		written[e.Key] = []string{e.Hash}
	}
	p.Edits = append(p.Edits, FileEdit{Path: file, Role: RoleTrust, Edit: Edit{Doc: doc, Entries: written}})
	return p, nil
}

// errNoListedHooks: Codex answered, but listed none of our hooks.
var errNoListedHooks = errors.New("lists none of our hooks")

// codexAskedEntries gives es Codex's own hashes from its answer about the
// scratch copy (keys there name the scratch dir; the rest of a key is ours).
// A hook of ours Codex does not list (an event that release does not know)
// gets no record, and a note says so.
func codexAskedEntries(es []TrustEntry, keyPath string, a Reply) ([]TrustEntry, []string, error) {
	l, err := ParseCodexHooksList(a)
	if err != nil {
		return nil, nil, err
	}
	listed := l.byKey()
	prefix := filepath.Join(a.Scratch, "hooks.json")
	var out []TrustEntry
	var notes []string
	for _, e := range es {
		h, ok := listed[prefix+strings.TrimPrefix(e.Key, keyPath)]
		if !ok || h.Command == nil || *h.Command != e.Command {
			notes = append(notes, fmt.Sprintf("codex does not list our %s hook (a release without that event ignores it): no trust recorded for it", e.Event))
			continue
		}
		e.Hash = *h.CurrentHash
		out = append(out, e)
	}
	if len(out) == 0 {
		detail := ""
		if len(l.Errors) > 0 || len(l.Warnings) > 0 {
			detail = " (" + strings.Join(append(l.Errors, l.Warnings...), "; ") + ")"
		}
		return nil, nil, fmt.Errorf("%w%s", errNoListedHooks, detail)
	}
	return out, notes, nil
}

// codexVerify asks Codex, as it will run for t, whether it now trusts es.
func codexVerify(t Target, binary string, es []TrustEntry) *Verify {
	// The user's HOME, not a scratch one: the question is which hooks.json
	// and trust records Codex finds there.
	env := []string{"HOME=" + t.Home}
	if t.DirFrom != "" || t.ID != t.Adapter.ID { // as TrustKeyPath: Codex is pointed at t.Dir
		env = append(env, "CODEX_HOME="+t.Dir)
	}
	return &Verify{
		Query: *codexHooksListQuery(env, nil, t.Dir),
		Judge: func(a Reply) error {
			l, err := ParseCodexHooksList(a)
			if err != nil {
				return &TrustCheckError{Binary: binary, Problems: []string{err.Error()}}
			}
			listed := l.byKey()
			var bad []string
			for _, e := range es {
				switch h, ok := listed[e.Key]; {
				case !ok:
					bad = append(bad, e.Key+" is not listed")
				case *h.TrustStatus != "trusted":
					bad = append(bad, fmt.Sprintf("%s is %s", e.Key, *h.TrustStatus))
				}
			}
			if len(bad) > 0 {
				return &TrustCheckError{Binary: binary, Problems: bad}
			}
			return nil
		},
	}
}

// codexTrustEntries lists the records for our handlers in hooksDoc (the
// hooks.json as written), keyed on keyPath (TrustKeyPath).
func codexTrustEntries(t Target, hooksDoc []byte, keyPath string) ([]TrustEntry, error) {
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

// codexTrust returns cur with every entry trusted: it appends (or updates in place) a [hooks.state."key"] table per entry,
// as Codex writes them. A re-run with the same entries is byte-identical.
func codexTrust(cur []byte, entries []TrustEntry) ([]byte, error) {
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

// codexUntrust deletes every trust table of ours: one the manifest's record rec
// (nil: none) lists with its hash, or one keyed on our hooks.json holding
// the hash codextrust.go computes for our handler of that event, wherever
// it sits. The blank line we put before a table goes with it.
func codexUntrust(t Target, cur []byte, keyPath string, rec *Record) ([]byte, error) {
	state, err := trustState(cur)
	if err != nil {
		return nil, err
	}
	ours := map[string]string{} // event label -> hash of our handler
	a := t.Adapter
	m := a.hookMap()
	for _, hk := range a.Hooks {
		raw := jsonedit.Compact(m.handler(t, hk))
		group := jsonedit.Compact(m.entry(t, hk))
		h, err := CodexTrustHashJSON(hk.Event, json.RawMessage(group), json.RawMessage(raw))
		if err != nil {
			return nil, err
		}
		key, err := CodexTrustKey(keyPath, hk.Event, 0, 0)
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
		recorded := rec != nil && len(rec.Entries[key]) == 1 && rec.Entries[key][0] == hash
		if !recorded && (j < 0 || ours[key[:j]] != hash) {
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
