package doctor

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters"
)

// A profile is what doctor knows about one agent beyond its adapter: how the
// agent parses its config, its switches, dead paths and binary.
type profile interface {
	// hasOurs reports whether the config holds anything of ours.
	hasOurs(r *run) bool
	// config runs config.parse and the entries.* checks.
	config(r *run)
	// switches runs the switch.* checks.
	switches(r *run)
	// trust runs the trust.* checks.
	trust(r *run)
	// deadPaths runs the deadpath.* and double-fire checks that apply even
	// when nothing is installed.
	deadPaths(r *run)
	// projectFiles are globs, relative to a project folder, of hook configs
	// the agent reads there.
	projectFiles() []string
	// ask runs the agent's binary, where it can say what it resolved.
	ask(r *run)
}

// profileFor returns the profile of t's agent (a clone uses its base's).
func profileFor(t adapters.Target) profile {
	switch t.Adapter.Name() {
	case "claude":
		return &jsonProfile{
			display:      "Claude Code",
			bomOK:        true,
			staleRewrite: true,
			projects:     []string{".claude/settings.json", ".claude/settings.local.json"},
			switchFn:     claudeSwitches,
			askFn:        askClaude,
			adapter:      t.Adapter,
		}
	case "grok":
		return &jsonProfile{
			display:  "Grok",
			projects: []string{".grok/hooks/*.json", ".claude/settings.json", ".claude/settings.local.json"},
			switchFn: grokSwitches,
			adapter:  t.Adapter,
		}
	case "antigravity":
		return &jsonProfile{
			display:  "Antigravity",
			underNS:  true,
			projects: []string{".agents/hooks.json"},
			switchFn: antigravitySwitches,
			deadFn:   antigravityDeadPath,
			askFn:    askAntigravity,
			adapter:  t.Adapter,
		}
	case "zerocode", "codex":
		product, sysReq := "ZeroCode", ""
		projects := []string{".zerotwo/hooks.json"}
		if t.Adapter.Name() == "codex" {
			product, sysReq = "Codex", "/etc/codex/requirements.toml"
			projects = []string{".codex/hooks.json"}
		}
		z := &zerocodeDoc{product: product, sysRequirements: sysReq}
		p := &jsonProfile{
			display:    product,
			strictRoot: map[string]bool{"hooks": true, "description": true},
			projects:   projects,
			switchFn:   z.switches,
			trustFn:    z.trust,
			adapter:    t.Adapter,
		}
		if t.Adapter.Name() == "codex" {
			p.askFn = askCodex
		}
		return p
	case "opencode":
		return &pluginProfile{}
	}
	return &jsonProfile{display: t.Adapter.Name(), adapter: t.Adapter}
}

// A jsonProfile is an agent whose hooks live in a JSON event map: Claude's
// shape (and those that copied it) at "hooks", or Antigravity's under our
// own top-level key.
type jsonProfile struct {
	display string
	adapter adapters.Adapter
	// underNS puts the event map under the namespace key (Antigravity).
	underNS bool
	// bomOK: the agent reads a file that starts with a BOM (measured).
	bomOK bool
	// strictRoot, when set, is every top-level key the agent accepts; any
	// other makes it reject the whole file.
	strictRoot map[string]bool
	// staleRewrite: the agent is known to write back a stale copy of the
	// file that drops our entries.
	staleRewrite bool
	projects     []string
	switchFn     func(r *run)
	trustFn      func(r *run, m *jsonMap)
	deadFn       func(r *run)
	askFn        func(r *run, m *jsonMap)

	m *jsonMap
}

func (p *jsonProfile) key(t adapters.Target) string {
	if p.underNS {
		return t.NS
	}
	return "hooks"
}

// wantEntries returns, per event, the element we write into its array (a
// group, or a handler where the agent takes handlers directly), and the
// events in the adapter's order.
func (p *jsonProfile) wantEntries(t adapters.Target) (map[string]string, []string, error) {
	ed, err := p.adapter.Add(t, nil, nil, false)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]string{}
	if p.underNS {
		if len(ed.Entries[t.NS]) == 0 {
			return nil, nil, fmt.Errorf("no hook set for %q", t.NS)
		}
		for _, m := range adapters.Members(gjson.Parse(ed.Entries[t.NS][0])) {
			if es := adapters.Elements(m.Val); m.Val.IsArray() && len(es) > 0 {
				want[m.Key] = es[0].Raw
			}
		}
	} else {
		for ev, es := range ed.Entries {
			if len(es) > 0 {
				want[ev] = es[0]
			}
		}
	}
	var events []string
	for ev := range want {
		events = append(events, ev)
	}
	p.sortEvents(events)
	return want, events, nil
}

func (p *jsonProfile) sortEvents(events []string) {
	order := map[string]int{}
	for i, e := range p.adapter.Events() {
		order[e.Event] = i
	}
	sort.SliceStable(events, func(i, j int) bool { return order[events[i]] < order[events[j]] })
}

func (p *jsonProfile) hasOurs(r *run) bool {
	if !r.cfg.Exists {
		return false
	}
	data := bytes.TrimPrefix(r.cfg.Data, []byte("\xef\xbb\xbf"))
	if !gjson.ValidBytes(data) {
		return bytes.Contains(data, []byte(r.t.Prefix()))
	}
	return len(findOurs(gjson.ParseBytes(data).Get(gjson.Escape(p.key(r.t))), r.t.Prefix())) > 0
}

func (p *jsonProfile) config(r *run) { p.m = r.configJSON(p) }

func (p *jsonProfile) switches(r *run) {
	if p.switchFn != nil {
		p.switchFn(r)
	}
}

func (p *jsonProfile) trust(r *run) {
	if p.trustFn != nil {
		p.trustFn(r, p.m)
	}
}

func (p *jsonProfile) deadPaths(r *run) {
	if p.deadFn != nil {
		p.deadFn(r)
	}
}

func (p *jsonProfile) projectFiles() []string { return p.projects }

func (p *jsonProfile) ask(r *run) {
	if p.askFn != nil {
		p.askFn(r, p.m)
	}
}

// claudeSwitches checks disableAllHooks in the user's and the managed
// settings, allowManagedHooksOnly in the managed settings, and the auto
// permission mode.
func claudeSwitches(r *run) {
	user := r.cfg
	var userRoot gjson.Result
	if user.Exists {
		data := bytes.TrimPrefix(user.Data, []byte("\xef\xbb\xbf"))
		if gjson.ValidBytes(data) {
			userRoot = gjson.ParseBytes(data)
		}
	}
	var managed file
	var managedRoot gjson.Result
	if r.d.ManagedSettings != "" {
		managed = readFile(r.d.ManagedSettings)
		if managed.Exists && gjson.ValidBytes(managed.Data) {
			managedRoot = gjson.ParseBytes(managed.Data)
		}
	}
	off := false
	if userRoot.Get("disableAllHooks").Type == gjson.True {
		r.fail("switch.disableAllHooks", user.Path, fmt.Sprintf("%s: disableAllHooks is true, so Claude Code runs no hooks at all", user.Path), "set it to false or remove it")
		off = true
	}
	if managedRoot.Get("disableAllHooks").Type == gjson.True {
		r.fail("switch.disableAllHooks", managed.Path, fmt.Sprintf("%s: disableAllHooks is true in the managed settings, so Claude Code runs no hooks at all", managed.Path), "ask whoever manages this machine; a user setting cannot override it")
		off = true
	}
	if !off {
		where := user.Path
		if r.d.ManagedSettings != "" {
			where += " and " + r.d.ManagedSettings
		}
		r.pass("switch.disableAllHooks", user.Path, "disableAllHooks is not set in "+where)
	}
	if managedRoot.Get("allowManagedHooksOnly").Type == gjson.True {
		r.fail("switch.allowManagedHooksOnly", managed.Path, fmt.Sprintf("%s: allowManagedHooksOnly is true, so Claude Code runs only managed hooks, never ours in %s", managed.Path, user.Path), "ask whoever manages this machine")
	} else if r.d.ManagedSettings != "" {
		r.pass("switch.allowManagedHooksOnly", managed.Path, "allowManagedHooksOnly is not set in "+managed.Path)
	}
	if mode := userRoot.Get("permissions.defaultMode").String(); mode == "auto" {
		r.info("switch.defaultMode", user.Path, fmt.Sprintf("%s: permissions.defaultMode is \"auto\": Claude answers permission prompts itself, so PermissionRequest (needs your input) will not fire; working and done still do", user.Path), "set it to \"default\" if you want to be told when Claude needs you")
	}
}
