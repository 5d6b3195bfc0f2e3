package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/hookinstall/hookinstall/adapters"
)

// hooksPath is the hooks.json path the agent puts into its trust keys
// (adapters.TrustKeyPath, the one rule add --trust uses too).
func hooksPath(t adapters.Target) string {
	real, _ := filepath.EvalSymlinks(t.Dir)
	return adapters.TrustKeyPath(t, real)
}

// trustChecks reads the agent's own trust record for each handler of ours
// (Trust.Recorded, in Trust.File) and compares it with the record the
// handler as it is now needs (Trust.Expected).
func (r *run) trustChecks(f *adapters.Agent, m *adapters.EventMap) {
	if m == nil {
		return
	}
	id := "trust." + r.t.Adapter.ID
	cfg := f.Trust.File(r.t)
	records, err := f.Trust.Recorded(readFile(cfg))
	if err != nil {
		r.fail(id, cfg, fmt.Sprintf("%s: %v: cannot read the trust records", cfg, err), "fix the file")
		return
	}
	how := f.Trust.Fix(r.t)
	algo := f.Trust.Algo
	for _, e := range f.Trust.Expected(r.t, m, hooksPath(r.t)) {
		cmd, key, want := e.Command, e.Key, e.Hash
		if e.Err != nil {
			r.fail(id, cfg, fmt.Sprintf("%s: cannot compute the trust hash of %s: %v", cfg, cmd, e.Err), r.addHint())
			continue
		}
		got, rec := records[key]
		if r.trusted == nil {
			r.trusted = map[string]bool{}
		}
		r.trusted[cmd] = rec && got == want
		switch {
		case !rec:
			r.fail(id, cfg, fmt.Sprintf("%s: untrusted: no trust record for %s (key %q), so %s skips it (silently in exec mode)", cfg, cmd, key, f.Product), how)
		case got == want:
			r.pass(id, cfg, fmt.Sprintf("%s: %s is trusted (key %q; the recorded hash matches %s)", cfg, cmd, key, algo))
		default:
			r.fail(id, cfg, fmt.Sprintf("%s: untrusted: the trust record for %s (key %q) holds %s, but the hook now hashes to %s (%s), so %s skips it as modified", cfg, cmd, key, got, want, algo, f.Product), how)
		}
	}
}
