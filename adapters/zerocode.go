package adapters

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// A codexEngine is the hooks engine ZeroCode shares with Codex: a hooks.json
// in Claude's shape, shared with the user, but with a strict root (only
// "hooks" and "description"), hooks that run only once the user trusts them
// (trust keyed on each handler's position and content), and Stop hooks that
// must print nothing. Its hooks have no controlling terminal, so the scripts
// write to the host's pty. Each agent of it is one Agent (engine.agent).
type codexEngine struct {
	product string // the agent's own name, for messages: "ZeroCode"
	dirName string // its config dir under the home: ".zerotwo"
	envVar  string // the variable that moves that dir, if any: "CODEX_HOME"
	alias   string // the deprecated alias of [features] hooks: "zerocode_hooks"
	// system is the folder of the system-wide config.toml and
	// requirements.toml the agent reads, on Linux and macOS alike (Codex:
	// "/etc/codex", cfg!(unix) in its config loader), or "" for none: then
	// the requirements.toml in its config dir is the one it reads.
	system string
}

var zerocodeHooks = []Hook{
	{Event: "UserPromptSubmit", State: terminal.Working},
	{Event: "PermissionRequest", State: terminal.Attention},
	{Event: "Stop", State: terminal.Done},
}

// codexHooks are ZeroCode's events plus Codex's Interrupt, which Codex
// 0.171.0 fires on Esc or Ctrl-C mid-turn and on Esc at the approval prompt,
// with no Stop after (measured, docs/agents.md). ZeroCode is not given it:
// seed 000, its hooks reference, does not list the event, and no ZeroCode
// binary can be had to ask. Codex clamps an Interrupt hook's timeout to 3 s
// and warns about a larger one at every start (measured), so ours asks for 3.
var codexHooks = append(append([]Hook(nil), zerocodeHooks...),
	Hook{Event: "PostToolUse", State: terminal.Working, Note: "after each tool: the first event after an approval"},
	Hook{Event: "Interrupt", State: terminal.Interrupted, Timeout: codexShortMaxTimeout})

func init() {
	zerocode := codexEngine{product: "ZeroCode", dirName: ".zerotwo", alias: "zerocode_hooks"}
	register(zerocode.agent("zerocode", zerocodeHooks, nil))
	// Codex is the one agent of the engine whose trust hash hookinstall
	// reproduces exactly (Codex 0.171.0, codextrust.go), so the one whose
	// add can also record the user's trust for our hooks in config.toml
	// (add --trust), and whose binary answers hooks/list.
	cx := codexEngine{product: "Codex", dirName: ".codex", envVar: "CODEX_HOME", alias: "codex_hooks",
		system: "/etc/codex"}
	codex := cx.agent("codex", codexHooks, codexTrustWrite)
	// seed 003: its title says "Action Required" 22 ms after it asks
	codex.Range = codexRange
	// 0.171.0 (docs/agents.md "Its own notifications"): [tui] notifications,
	// on by default, notify approval and a finished turn while the terminal
	// is unfocused: OSC 9 in Ghostty, kitty, iTerm2 and WezTerm, a BEL
	// elsewhere (where ours is a BEL, or OSC 9, too); no 9;4 progress.
	codex.ShowsItself = &terminal.Own{Notifies: []terminal.State{terminal.Attention, terminal.Done},
		In: []string{"ghostty", "kitty", "iterm2", "wezterm", "osc9", "bell"}, InTmux: []string{"bell"},
		Holds: []terminal.Status{terminal.ProgramStatus, terminal.TabStatus}} // 7501 in every terminal, 21337 in iTerm2
	codex.Trust.Algo = "Codex " + CodexTrustVersion + "'s hash"
	codex.Ask = &Ask{
		ID: "binary.codex", Program: "codex", Args: []string{"app-server"},
		Env: func(t Target) []string { return []string{"CODEX_HOME=" + t.Dir} },
		// hooks/list, as add --trust asks it. It works offline in Codex
		// 0.171.0 and answers in well under a second.
		Input: []byte(codexAppServerInput), ReplyID: codexHooksListID,
		What: "'%s app-server' hooks/list", Hint: "open codex and look at /hooks yourself",
		Read: readCodexHooks,
	}
	register(codex)
}

// agent is one agent of the engine, named id (also its program), with its
// hooks; write is how its trust records are written, nil when they cannot
// be.
func (z codexEngine) agent(id string, hooks []Hook, write *TrustWrite) *Agent {
	return &Agent{
		ID: id, Product: z.product, Programs: []string{id}, WindowsHooks: map[string]string{"codex": "with PowerShell"}[id],
		Dir: func(home string, getenv func(string) string) (string, string) {
			def := filepath.Join(home, z.dirName)
			if z.envVar == "" {
				return def, ""
			}
			return envDir(getenv, z.envVar, def)
		},
		File:      func(t Target) string { return filepath.Join(t.Dir, "hooks.json") },
		Reads:     z.reads,
		Hooks:     hooks,
		Transport: scripts.PTY,
		Format:    HookMap{Key: "hooks"},
		// Any other top-level key, even "$schema", makes the engine reject
		// the whole file.
		StrictRoot:      []string{"hooks", "description"},
		RewritesInPlace: true,
		check:           z.check,
		Switches:        z.switches,
		Trust: &Trust{
			File: z.configTOML,
			Algo: "Codex " + CodexTrustVersion + "'s hash, which " + z.product + " shares (its engine is Codex's)",
			// The agent skips new hooks until the user trusts them. The
			// hint names the agent id (a clone's own) and the program, and
			// add --trust where hookinstall can record the trust itself.
			Hint: func(t Target) string {
				return z.product + " skips new or changed hooks until you trust them: " + z.trustFix(id, t, write)
			},
			Fix:        func(t Target) string { return z.trustFix(id, t, write) },
			Positional: true,
			Records:    codexTrustEntries,
			Expected:   codexExpected,
			Recorded:   codexRecorded,
			Drop:       codexUntrust,
			Write:      write,
		},
		// ZeroCode's engine is Codex's: it replays Codex's recorded payloads.
		Payloads:       "codex",
		ProjectConfigs: []string{z.dirName + "/hooks.json"},
	}
}

// trustFix is how the user trusts our hooks in agent id.
func (z codexEngine) trustFix(id string, t Target, write *TrustWrite) string {
	fix := fmt.Sprintf("open %s, type /hooks, and trust the %s hooks (t trusts all)", id, t.NS)
	if write != nil {
		fix += fmt.Sprintf(", or run '%s' (it asks %s itself which trust it expects)", t.Command("add --trust"), z.product)
	}
	return fix
}

func (codexEngine) configTOML(t Target) string { return filepath.Join(t.Dir, "config.toml") }

func (codexEngine) requirementsTOML(t Target) string {
	return filepath.Join(t.Dir, "requirements.toml")
}

// sysFile is the file name in the agent's system folder (under
// t.SystemRoot), or "" when it reads none there.
func (z codexEngine) sysFile(t Target, name string) string {
	if dir := SystemPath(t, OSPath{Linux: z.system, Darwin: z.system}, ""); dir != "" {
		return filepath.Join(dir, name)
	}
	return ""
}

// reads are config.toml (switches, trust records) and requirements.toml
// beside hooks.json, and for Codex the system-wide config.toml (which the
// user's overrides) and requirements.toml, which is the one Codex 0.171.0
// reads (measured: it ignores $CODEX_HOME/requirements.toml). A Docker
// target's system files are the container's, which the host cannot see.
func (z codexEngine) reads(t Target) []string {
	return append([]string{z.configTOML(t), z.requirementsTOML(t)}, nonEmpty(z.sysFile(t, "config.toml"), z.sysFile(t, "requirements.toml"))...)
}

// check refuses an install that would never fire: hooks switched off in
// config.toml or requirements.toml, or a hooks.json the engine rejects as a
// whole because of an unknown top-level key.
func (z codexEngine) check(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error) {
	cfg := a.File(t)
	if !jsonedit.IsBlank(cur) {
		root, err := jsonedit.ParseObject(cur)
		if err != nil {
			return nil, err
		}
		for _, m := range jsonedit.Members(root) {
			if !a.Accepts(m.Key) {
				verdict, hint := a.strictRootVerdict(cfg, m.Key)
				return nil, &OffError{File: cfg, Key: fmt.Sprintf("%q", m.Key), Verdict: verdict, Hint: hint}
			}
		}
		if _, err := a.parseShared(t, cur); err != nil {
			return nil, err
		}
	}
	var notes []string
	req := z.doctorRequirements(t)
	if z.system != "" {
		if b, ok := files[z.requirementsTOML(t)]; ok {
			if doc, err := parseTOML(b); err == nil {
				if z.requirementsOff(z.requirementsTOML(t), doc) != nil {
					notes = append(notes, fmt.Sprintf("%s would switch hooks off, but %s reads requirements only from %s (measured on Codex 0.171.0), so the hooks still run", z.requirementsTOML(t), z.product, z.system+"/requirements.toml"))
				}
			}
		}
	}
	if b, ok := files[req]; ok {
		if _, err := parseTOML(b); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not check whether hooks are switched off there", req, err))
		}
	}
	if b, ok := files[z.configTOML(t)]; ok {
		doc, err := parseTOML(b)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not check whether hooks are switched off there", z.configTOML(t), err))
		} else if inline := inlineHooks(doc); inline != "" {
			notes = append(notes, fmt.Sprintf("%s defines hooks inline ([hooks.%s]) beside %s: %s merges both and warns at start-up; prefer one of the two", z.configTOML(t), inline, cfg, z.product))
		}
	}
	return notes, nil
}

// requirementsOff returns an *OffError when a requirements.toml switches
// user hooks off.
func (z codexEngine) requirementsOff(file string, doc map[string]any) error {
	if v, ok := TOMLBool(doc, "allow_managed_hooks_only"); ok && v {
		return &OffError{File: file, Key: "allow_managed_hooks_only",
			Reason: fmt.Sprintf("is true, so %s runs only managed hooks and skips every user hook, ours included", z.product)}
	}
	if key, off := z.featureOff(doc); off {
		return &OffError{File: file, Key: "[features] " + z.aliasNote(key),
			Reason: fmt.Sprintf("is false, so %s runs no hooks at all (set by your administrator)", z.product)}
	}
	return nil
}

// featureOff reports whether [features] turns hooks off, by the canonical
// key or, when that is absent, by the deprecated alias.
func (z codexEngine) featureOff(doc map[string]any) (string, bool) {
	if v, ok := TOMLBool(doc, "features", "hooks"); ok {
		return "hooks", !v
	}
	if v, ok := TOMLBool(doc, "features", z.alias); ok {
		return z.alias, !v
	}
	return "", false
}

// aliasNote names a [features] key, saying so when it is the alias.
func (z codexEngine) aliasNote(key string) string {
	if key == z.alias {
		return key + " (deprecated alias of hooks)"
	}
	return key
}

// inlineHooks returns the first hook event defined in config.toml's [hooks]
// table, or "". The table also holds the agent's own trust records
// ([hooks.state]), which are not hooks.
func inlineHooks(doc map[string]any) string {
	v, ok := TOMLGet(doc, "hooks")
	t, isTable := v.(map[string]any)
	if !ok || !isTable {
		return ""
	}
	first := ""
	for k := range t {
		if k != "state" && (first == "" || k < first) {
			first = k
		}
	}
	return first
}

// doctorRequirements is the requirements.toml the agent reads: the system's
// when it has one ("" when t reads no system files), else its own.
func (z codexEngine) doctorRequirements(t Target) string {
	if z.system != "" {
		return z.sysFile(t, "requirements.toml")
	}
	return z.requirementsTOML(t)
}

// switches checks [features] hooks in config.toml and requirements.toml,
// allow_managed_hooks_only in requirements.toml, and inline [hooks] beside
// hooks.json.
func (z codexEngine) switches(in Input) []Check {
	t := in.T
	cfg := z.configTOML(t)
	req := z.doctorRequirements(t)
	sysCfg := z.sysFile(t, "config.toml")
	var fs []Check
	off, userSets := false, false
	paths := nonEmpty(cfg, sysCfg, req)
	for _, path := range paths {
		doc, ok, err := ReadTOML(in.File(path))
		if err != nil {
			fs = append(fs, fail("switch.features-hooks", path, fmt.Sprintf("%s: %v: %s cannot read its settings", path, err, z.product), "fix the file"))
			off = true
			continue
		}
		if !ok {
			continue
		}
		// The system config.toml is the layer under the user's.
		key, isOff := z.featureOff(doc)
		if isOff && !(path == sysCfg && userSets) {
			hint := "set it to true or remove it"
			if path == sysCfg {
				hint = "ask whoever manages this machine, or set [features] hooks = true in " + cfg
			}
			fs = append(fs, switchOff(fail("switch.features-hooks", path, fmt.Sprintf("%s: [features] %s = false, so %s runs no hooks at all", path, z.aliasNote(key), z.product), hint)))
			off = true
		}
		if path == cfg {
			userSets = key != ""
		}
		if path == req {
			if v, set := TOMLBool(doc, "allow_managed_hooks_only"); set && v {
				fs = append(fs, switchOff(fail("switch.allow_managed_hooks_only", path, fmt.Sprintf("%s: allow_managed_hooks_only = true, so %s runs only managed hooks, never ours in %s", path, z.product, in.Config.Path), "ask whoever manages this machine")))
				off = true
			}
		}
		if path == cfg {
			if ev := inlineHooks(doc); ev != "" {
				fs = append(fs, info("config.inline-hooks", path, fmt.Sprintf("%s defines hooks inline ([hooks.%s]) beside %s: %s runs both and warns at start-up", path, ev, in.Config.Path, z.product), "keep hooks in one of the two"))
			}
		}
	}
	if !off {
		fs = append(fs, pass("switch.features-hooks", cfg, "hooks are not switched off in "+strings.Join(paths, " and ")))
	}
	return fs
}

// readCodexHooks reads Codex's app-server hooks/list reply: which hooks
// Codex resolved, with their trust, checked against the trust check's word.
func readCodexHooks(in AskInput) []Check {
	file := in.Config
	l, err := ParseCodexHooksList(Reply{Out: in.Out})
	if err != nil {
		return []Check{{ID: "binary.codex", Result: Info, File: file, Timed: true, Verdict: "codex app-server hooks/list: " + err.Error()}}
	}
	var problems []string
	for _, w := range l.Warnings {
		problems = append(problems, "warning: "+w)
	}
	for _, e := range l.Errors {
		problems = append(problems, "error: "+e)
	}
	var missing, off, listed []string
	for _, c := range in.Ours {
		switch i := slices.IndexFunc(l.Hooks, func(h CodexListedHook) bool { return h.Command != nil && *h.Command == c }); {
		case i < 0:
			missing = append(missing, c)
		case !l.Hooks[i].Enabled:
			off = append(off, c)
		default:
			listed = append(listed, fmt.Sprintf("%s (%s)", l.Hooks[i].Key, *l.Hooks[i].TrustStatus))
		}
	}
	if len(missing) > 0 || len(off) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "does not list "+strings.Join(missing, ", "))
		}
		if len(off) > 0 {
			parts = append(parts, "lists as disabled "+strings.Join(off, ", "))
		}
		parts = append(parts, problems...)
		return []Check{{ID: "binary.codex", Result: Fail, File: file, Timed: true,
			Verdict: fmt.Sprintf("codex app-server hooks/list %s: Codex will not run them", strings.Join(parts, "; ")),
			Hint:    "fix what it names, then run '" + in.T.Command("doctor") + "' again"}}
	}
	var fs []Check
	// Codex's own word on trust against the trust check's.
	for _, c := range in.Ours {
		for _, h := range l.Hooks {
			if h.Command == nil || *h.Command != c {
				continue
			}
			if ours, ok := in.Trusted[c]; ok && ours != (*h.TrustStatus == "trusted") {
				fs = append(fs, Check{ID: "trust.codex-binary", Result: Fail, File: file, Timed: true,
					Verdict: fmt.Sprintf("codex app-server says %s is %s (current hash %s), but the trust check read the record as %s", h.Key, *h.TrustStatus, *h.CurrentHash, map[bool]string{true: "trusted", false: "untrusted"}[ours]),
					Hint:    "Codex is right: open codex, type /hooks, and trust the " + in.T.NS + " hooks"})
			}
		}
	}
	verdict := fmt.Sprintf("codex app-server hooks/list resolves every hook of ours: %s", strings.Join(listed, ", "))
	if len(problems) > 0 {
		verdict += "; it also says " + strings.Join(problems, "; ")
	}
	return append(fs, Check{ID: "binary.codex", Result: Pass, File: file, Timed: true, Verdict: verdict})
}

// codexRange: Codex runs our hooks back to 0.129.0; 0.149.0 has no Interrupt
// event (it ignores the key), 0.169.0 has it; the versions between were not
// bisected, so they get no Interrupt either (docs/agents.md "Versions").
var codexRange = &Range{Program: "codex", Oldest: "0.169.0", Newest: "0.171.0", Floor: "0.129.0", Silent: []Gap{Approved},
	Older: []Older{{Below: "0.169.0", Drop: []string{"Interrupt"},
		Why: "Codex 0.149.0 and 0.129.0 have no Interrupt event"}}}

// codexExpected lists the trust record each handler of ours in m (hooks.json
// as Codex reads it) needs: [hooks.state."<keyPath>:<event_snake>:<group>:
// <handler>"] holding the handler's hash as Codex 0.171.0 computes it.
func codexExpected(t Target, m *EventMap, keyPath string) []TrustEntry {
	var es []TrustEntry
	for _, o := range m.Ours {
		hs := o.Elem.Get("hooks")
		if !hs.IsArray() {
			continue
		}
		for j, h := range jsonedit.Elements(hs) {
			cmd := h.Get("command").String()
			if !strings.HasPrefix(cmd, t.Prefix()) {
				continue
			}
			key, err := CodexTrustKey(keyPath, o.Event, o.Index, j)
			if err != nil {
				continue
			}
			hash, err := CodexTrustHashJSON(o.Event, json.RawMessage(o.Elem.Raw), json.RawMessage(h.Raw))
			es = append(es, TrustEntry{Key: key, Hash: hash, Event: o.Event, Command: cmd, Err: err})
		}
	}
	return es
}

// codexRecorded reads config.toml's [hooks.state."key"] tables: the
// trusted_hash of each ("" where it has none).
func codexRecorded(f File) (map[string]string, error) {
	doc, _, err := ReadTOML(f)
	if err != nil {
		return nil, err
	}
	state, _ := TOMLGet(doc, "hooks", "state")
	tables, _ := state.(map[string]any)
	out := map[string]string{}
	for k, v := range tables {
		if rec, ok := v.(map[string]any); ok {
			out[k], _ = rec["trusted_hash"].(string)
		}
	}
	return out, nil
}
