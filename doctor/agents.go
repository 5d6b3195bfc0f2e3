package doctor

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters"
)

// readTOML reads and parses a TOML file; ok is false when it is absent.
func readTOML(path string) (doc map[string]any, ok bool, err error) {
	f := readFile(path)
	if f.Err != nil {
		return nil, true, f.Err
	}
	if !f.Exists {
		return nil, false, nil
	}
	doc = map[string]any{}
	if err := toml.Unmarshal(f.Data, &doc); err != nil {
		return nil, true, err
	}
	return doc, true, nil
}

// grokSwitches explains [compat.claude] hooks = false in ~/.grok/config.toml.
// It is Grok's only hook switch, and it does not touch our own file: it only
// stops Grok from running the hooks in Claude's settings.json.
func grokSwitches(r *run) {
	path := filepath.Join(r.t.Dir, "config.toml")
	doc, ok, err := readTOML(path)
	switch {
	case err != nil:
		r.info("switch.compat-claude", path, fmt.Sprintf("%s: %v; could not check Grok's switches", path, err), "fix the file: Grok may not start with it")
	case ok:
		if v, set := adapters.TOMLBool(doc, "compat", "claude", "hooks"); set && !v {
			r.info("switch.compat-claude", path, fmt.Sprintf("%s: [compat.claude] hooks = false: Grok no longer runs the hooks in Claude's settings.json (ours there stay silent under Grok anyway); the hooks in %s still run", path, r.cfg.Path), "")
			return
		}
		fallthrough
	default:
		r.pass("switch.compat-claude", path, fmt.Sprintf("Grok runs the hooks in %s; [compat.claude] hooks = false would only stop it from running Claude's", r.cfg.Path))
	}
}

// antigravitySwitches checks our hook set's own switch.
func antigravitySwitches(r *run) {
	f := r.cfg
	if !f.Exists || !gjson.ValidBytes(f.Data) {
		return
	}
	set := gjson.ParseBytes(f.Data).Get(gjson.Escape(r.t.NS))
	if !set.Exists() {
		return
	}
	if e := set.Get("enabled"); e.Exists() && e.Type != gjson.True {
		r.fail("switch.enabled", f.Path, fmt.Sprintf("%s: hook set %q has \"enabled\": %s, so Antigravity runs none of it", f.Path, r.t.NS, e.Raw), "set it to true, or run 'hookinstall add antigravity --force'")
		return
	}
	r.pass("switch.enabled", f.Path, fmt.Sprintf("%s: hook set %q is enabled", f.Path, r.t.NS))
}

// antigravityDeadPath flags a set of ours in ~/.gemini/antigravity-cli/
// hooks.json: Antigravity loads that file and never runs it (measured on agy
// 1.1.22: "loaded 1 named hooks", then nothing).
func antigravityDeadPath(r *run) {
	path := filepath.Join(r.t.Dir, "antigravity-cli", "hooks.json")
	f := readFile(path)
	ours := false
	if f.Exists {
		if gjson.ValidBytes(f.Data) && gjson.ParseBytes(f.Data).Get(gjson.Escape(r.t.NS)).Exists() {
			ours = true
		}
		if strings.Contains(string(f.Data), r.t.Prefix()) {
			ours = true
		}
	}
	if ours {
		r.fail("deadpath.antigravity-cli", path, fmt.Sprintf("%s holds our hook set %q: Antigravity loads that file and never runs it (the live path is %s)", path, r.t.NS, r.a.Config),
			fmt.Sprintf("delete the %q set from %s, then run 'hookinstall add antigravity'", r.t.NS, path))
		return
	}
	r.pass("deadpath.antigravity-cli", path, fmt.Sprintf("nothing of ours in %s (a path Antigravity loads and never runs)", path))
}

// zerocodeDoc is what doctor knows of the hooks engine ZeroCode shares with
// Codex.
type zerocodeDoc struct {
	product string
	// sysRequirements is the system-wide requirements.toml Codex reads;
	// "" means the one in the agent's dir.
	sysRequirements string
}

func (z *zerocodeDoc) requirementsPath(r *run) string {
	if z.sysRequirements != "" {
		return r.d.CodexRequirements
	}
	return filepath.Join(r.t.Dir, "requirements.toml")
}

// featureOff reports whether [features] turns hooks off, by the canonical key
// or by the deprecated alias.
func (z *zerocodeDoc) featureOff(r *run, doc map[string]any) (string, bool) {
	if v, ok := adapters.TOMLBool(doc, "features", "hooks"); ok {
		return "hooks", !v
	}
	alias := r.t.Adapter.Name() + "_hooks"
	if v, ok := adapters.TOMLBool(doc, "features", alias); ok {
		return alias, !v
	}
	return "", false
}

// switches checks [features] hooks in config.toml and requirements.toml,
// allow_managed_hooks_only in requirements.toml, and inline [hooks] beside
// hooks.json.
func (z *zerocodeDoc) switches(r *run) {
	cfg := filepath.Join(r.t.Dir, "config.toml")
	req := z.requirementsPath(r)
	off := false
	for _, path := range []string{cfg, req} {
		if path == "" {
			continue
		}
		doc, ok, err := readTOML(path)
		if err != nil {
			r.fail("switch.features-hooks", path, fmt.Sprintf("%s: %v: %s cannot read its settings", path, err, z.product), "fix the file")
			off = true
			continue
		}
		if !ok {
			continue
		}
		if key, isOff := z.featureOff(r, doc); isOff {
			r.fail("switch.features-hooks", path, fmt.Sprintf("%s: [features] %s = false, so %s runs no hooks at all", path, key, z.product), "set it to true or remove it")
			off = true
		}
		if path == req {
			if v, set := adapters.TOMLBool(doc, "allow_managed_hooks_only"); set && v {
				r.fail("switch.allow_managed_hooks_only", path, fmt.Sprintf("%s: allow_managed_hooks_only = true, so %s runs only managed hooks, never ours in %s", path, z.product, r.cfg.Path), "ask whoever manages this machine")
				off = true
			}
		}
		if path == cfg {
			if ev := inlineHooks(doc); ev != "" {
				r.info("config.inline-hooks", path, fmt.Sprintf("%s defines hooks inline ([hooks.%s]) beside %s: %s runs both and warns at start-up", path, ev, r.cfg.Path, z.product), "keep hooks in one of the two")
			}
		}
	}
	if !off {
		where := cfg
		if req != "" {
			where += " and " + req
		}
		r.pass("switch.features-hooks", cfg, fmt.Sprintf("hooks are not switched off in %s", where))
	}
}

// inlineHooks returns the first hook event in config.toml's [hooks] table, or
// "" ([hooks.state] holds trust records, not hooks).
func inlineHooks(doc map[string]any) string {
	v, ok := adapters.TOMLGet(doc, "hooks")
	t, isTable := v.(map[string]any)
	if !ok || !isTable {
		return ""
	}
	var ks []string
	for k := range t {
		if k != "state" {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	if len(ks) == 0 {
		return ""
	}
	return ks[0]
}

// hooksPath is the hooks.json path the agent puts into its trust keys: the
// real path when its dir was moved by a variable, else the lexical one (what
// Codex 0.171.0 does), as the agent sees it.
func hooksPath(t adapters.Target) string {
	def, _ := t.Adapter.Dir(t.Home, nil)
	if filepath.Clean(def) != t.Dir {
		if real, err := filepath.EvalSymlinks(t.Dir); err == nil {
			return filepath.Join(t.AsPath(real), "hooks.json")
		}
	}
	return filepath.Clean(t.AsPath(t.Dir) + "/hooks.json")
}

// trust reads the agent's own trust record for each handler of ours:
// [hooks.state."<hooks.json>:<event_snake>:<group>:<handler>"] trusted_hash
// in config.toml, and compares it with the hash of the handler as it is now
// (Codex 0.171.0's algorithm, adapters.CodexTrustHashJSON).
func (z *zerocodeDoc) trust(r *run, m *jsonMap) {
	if m == nil {
		return
	}
	id := "trust." + r.t.Adapter.Name()
	cfg := filepath.Join(r.t.Dir, "config.toml")
	doc, _, err := readTOML(cfg)
	if err != nil {
		r.fail(id, cfg, fmt.Sprintf("%s: %v: cannot read the trust records", cfg, err), "fix the file")
		return
	}
	state, _ := adapters.TOMLGet(doc, "hooks", "state")
	records, _ := state.(map[string]any)
	hp := hooksPath(r.t)
	how := fmt.Sprintf("open %s, type /hooks, and trust the %s hooks (t trusts all)", r.t.Adapter.Name(), r.t.NS)
	if tr, ok := r.t.Adapter.(adapters.Truster); ok {
		how += fmt.Sprintf(", or run 'hookinstall add %s --trust' (exact for Codex %s only)", r.t.ID, tr.TrustVersion())
	}
	algo := "Codex " + adapters.CodexTrustVersion + "'s hash"
	if r.t.Adapter.Name() != "codex" {
		algo += ", which " + z.product + " shares (its engine is Codex's)"
	}
	for _, o := range m.ours {
		hs := o.Elem.Get("hooks")
		if !hs.IsArray() {
			continue
		}
		for j, h := range adapters.Elements(hs) {
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
				r.fail(id, cfg, fmt.Sprintf("%s: untrusted: no trust record for %s (key %q), so %s skips it (silently in exec mode)", cfg, cmd, key, z.product), how)
			case got == want:
				r.pass(id, cfg, fmt.Sprintf("%s: %s is trusted (key %q; the recorded hash matches %s)", cfg, cmd, key, algo))
			default:
				r.fail(id, cfg, fmt.Sprintf("%s: untrusted: the trust record for %s (key %q) holds %s, but the hook now hashes to %s (%s), so %s skips it as modified", cfg, cmd, key, got, want, algo, z.product), how)
			}
		}
	}
}
