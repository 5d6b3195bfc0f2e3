package doctor

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/adapters/jsonedit"
)

// hooksPath is the hooks.json path the agent puts into its trust keys
// (adapters.TrustKeyPath, the one rule add --trust uses too).
func hooksPath(t adapters.Target) string {
	real, _ := filepath.EvalSymlinks(t.Dir)
	return adapters.TrustKeyPath(t, real)
}

// trustChecks reads the agent's own trust record for each handler of ours:
// [hooks.state."<hooks.json>:<event_snake>:<group>:<handler>"] trusted_hash
// in the facts' trust file, and compares it with the hash of the handler as
// it is now (Codex 0.171.0's algorithm, adapters.CodexTrustHashJSON).
func (r *run) trustChecks(f *adapters.Agent, m *adapters.EventMap) {
	if m == nil {
		return
	}
	id := "trust." + r.t.Adapter.Name()
	cfg := f.Trust.File(r.t)
	doc, _, err := adapters.ReadTOML(readFile(cfg))
	if err != nil {
		r.fail(id, cfg, fmt.Sprintf("%s: %v: cannot read the trust records", cfg, err), "fix the file")
		return
	}
	state, _ := adapters.TOMLGet(doc, "hooks", "state")
	records, _ := state.(map[string]any)
	hp := hooksPath(r.t)
	how := fmt.Sprintf("open %s, type /hooks, and trust the %s hooks (t trusts all)", r.t.Adapter.Name(), r.t.NS)
	if f.TrustWritable() {
		how += fmt.Sprintf(", or run 'hookinstall add %s --trust' (it asks %s itself which trust it expects)", r.t.ID, f.Product)
	}
	algo := f.Trust.Algo
	for _, o := range m.Ours {
		hs := o.Elem.Get("hooks")
		if !hs.IsArray() {
			continue
		}
		for j, h := range jsonedit.Elements(hs) {
			cmd := h.Get("command").String()
			if !strings.HasPrefix(cmd, r.t.Prefix()) {
				continue
			}
			key, err := adapters.CodexTrustKey(hp, o.Event, o.Index, j)
			if err != nil {
				continue
			}
			want, err := adapters.CodexTrustHashJSON(o.Event, json.RawMessage(o.Elem.Raw), json.RawMessage(h.Raw))
			if err != nil {
				r.fail(id, cfg, fmt.Sprintf("%s: cannot compute the trust hash of %s: %v", cfg, cmd, err), r.addHint())
				continue
			}
			rec, _ := records[key].(map[string]any)
			got, _ := rec["trusted_hash"].(string)
			if r.trusted == nil {
				r.trusted = map[string]bool{}
			}
			r.trusted[cmd] = rec != nil && got == want
			switch {
			case rec == nil:
				r.fail(id, cfg, fmt.Sprintf("%s: untrusted: no trust record for %s (key %q), so %s skips it (silently in exec mode)", cfg, cmd, key, f.Product), how)
			case got == want:
				r.pass(id, cfg, fmt.Sprintf("%s: %s is trusted (key %q; the recorded hash matches %s)", cfg, cmd, key, algo))
			default:
				r.fail(id, cfg, fmt.Sprintf("%s: untrusted: the trust record for %s (key %q) holds %s, but the hook now hashes to %s (%s), so %s skips it as modified", cfg, cmd, key, got, want, algo, f.Product), how)
			}
		}
	}
}
