package doctor

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/adapters/jsonedit"
)

// A profile is how doctor checks one shape of agent: a JSON or TOML event
// map, or a module of ours. Every fact it applies is the agent's
// (adapters.Agent).
type profile interface {
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

// profileFor returns the profile of t's agent (a clone uses its base's),
// from the shape it states.
func profileFor(t adapters.Target) profile {
	if t.Adapter.Plugin != nil {
		return &pluginProfile{f: t.Adapter}
	}
	return &jsonProfile{f: t.Adapter}
}

// A jsonProfile is an agent whose hooks live in a JSON event map: Claude's
// shape (and those that copied it) at "hooks", or Antigravity's under our
// own top-level key.
type jsonProfile struct {
	f *adapters.Agent

	m *adapters.EventMap
}

// wantEntries returns, per event, the element we write into its array (a
// group, or a handler where the agent takes handlers directly), and the
// events in the adapter's order.
func (p *jsonProfile) wantEntries(t adapters.Target) (map[string]string, []string, error) {
	ed, err := p.f.Add(t, nil, nil, false)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]string{}
	if _, set := p.f.Format.(adapters.NamedSet); set {
		if len(ed.Entries[t.NS]) == 0 {
			return nil, nil, fmt.Errorf("no hook set for %q", t.NS)
		}
		for _, m := range jsonedit.Members(gjson.Parse(ed.Entries[t.NS][0])) {
			if es := jsonedit.Elements(m.Val); m.Val.IsArray() && len(es) > 0 {
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
	order := map[string]int{}
	for i, e := range p.f.Events() {
		order[e.Event] = i
	}
	events := slices.Collect(maps.Keys(want))
	sort.SliceStable(events, func(i, j int) bool { return order[events[i]] < order[events[j]] })
	return want, events, nil
}

func (p *jsonProfile) config(r *run) { p.m = r.configJSON(p) }

func (p *jsonProfile) switches(r *run) { r.apply(p.f.Switches) }

func (p *jsonProfile) trust(r *run) {
	if p.f.Trust != nil {
		r.trustChecks(p.f, p.m)
	}
}

func (p *jsonProfile) deadPaths(r *run) { r.apply(p.f.CheckDeadPaths) }

func (p *jsonProfile) projectFiles() []string { return p.f.ProjectConfigs }

func (p *jsonProfile) ask(r *run) { r.ask(p.f.Ask) }

// apply runs a pure check of the agent's facts over the config and the files
// the facts name, as read now, and records what it found.
func (r *run) apply(check func(adapters.Input) []adapters.Check) {
	if check == nil {
		return
	}
	for _, f := range check(r.input()) {
		r.add(f)
	}
}

// input is the config and the files the agent's facts name, as read now.
func (r *run) input() adapters.Input {
	in := adapters.Input{T: r.t, Config: r.cfg, Files: map[string]adapters.File{}}
	for _, p := range r.t.Adapter.Files(r.t) {
		in.Files[p] = readFile(p)
	}
	return in
}
