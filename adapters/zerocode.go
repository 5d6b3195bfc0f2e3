package adapters

import (
	"fmt"
	"path/filepath"

	"github.com/hookinstall/hookinstall/scripts"
)

// zerocodeStyle is the hooks engine ZeroCode shares with Codex: a hooks.json
// in Claude's shape, shared with the user, but with a strict root (only
// "hooks" and "description"), hooks that run only once the user trusts them
// (trust keyed on each handler's position and content), and Stop hooks that
// must print nothing. Its hooks have no controlling terminal, so the scripts
// write to the host's pty.
type zerocodeStyle struct {
	claudeStyle
	product string // the agent's own name, for messages: "ZeroCode"
	dirName string // its config dir under the home: ".zerotwo"
	envVar  string // the variable that moves that dir, if any: "CODEX_HOME"
	alias   string // the deprecated alias of [features] hooks: "zerocode_hooks"
	byName  bool
	// sysRequirements is the system-wide requirements.toml the agent reads
	// ("/etc/codex/requirements.toml"), or "" when the one in its config dir
	// is the one it reads.
	sysRequirements string
}

var zerocodeEvents = []claudeEvent{
	{"UserPromptSubmit", scripts.Working, scripts.Always, ""},
	{"PermissionRequest", scripts.Attention, scripts.Always, ""},
	{"Stop", scripts.Done, scripts.Always, ""},
}

func init() {
	register(zerocodeStyle{
		claudeStyle: claudeStyle{name: "zerocode", events: zerocodeEvents, transport: scripts.PTY},
		product:     "ZeroCode", dirName: ".zerotwo", alias: "zerocode_hooks",
	})
	register(codex{zerocodeStyle{
		claudeStyle: claudeStyle{name: "codex", events: zerocodeEvents, transport: scripts.PTY},
		product:     "Codex", dirName: ".codex", envVar: "CODEX_HOME", alias: "codex_hooks",
		byName: true, sysRequirements: "/etc/codex/requirements.toml",
	}})
}

// rootKeys are the only top-level keys the engine accepts in hooks.json; any
// other makes it reject the whole file.
var rootKeys = map[string]bool{"hooks": true, "description": true}

func (z zerocodeStyle) Dir(home string, getenv func(string) string) (string, string) {
	def := filepath.Join(home, z.dirName)
	if z.envVar == "" {
		return def, ""
	}
	return envDir(getenv, z.envVar, def)
}

func (zerocodeStyle) Config(t Target) string { return filepath.Join(t.Dir, "hooks.json") }

func (z zerocodeStyle) ByNameOnly() bool { return z.byName }

func (zerocodeStyle) configTOML(t Target) string { return filepath.Join(t.Dir, "config.toml") }

func (zerocodeStyle) requirementsTOML(t Target) string {
	return filepath.Join(t.Dir, "requirements.toml")
}

// SwitchFiles are config.toml and requirements.toml beside hooks.json, and
// for Codex the system-wide requirements.toml, which is the one Codex 0.171.0
// reads (measured: it ignores $CODEX_HOME/requirements.toml). A Docker
// target's system files are the container's, which the host cannot see.
func (z zerocodeStyle) SwitchFiles(t Target) []string {
	fs := []string{z.configTOML(t), z.requirementsTOML(t)}
	if z.sysRequirements != "" && t.AsHome == t.Home {
		fs = append(fs, z.sysRequirements)
	}
	return fs
}

// A TrustHinter is an agent that skips new hooks until the user trusts
// them; its hint says how, and is printed after a successful add.
type TrustHinter interface {
	TrustHint(t Target) string
}

// TrustHint names the agent id (a clone's own) and the program to open.
func (z zerocodeStyle) TrustHint(t Target) string {
	return fmt.Sprintf("%s: %s skips new or changed hooks until you trust them: open /hooks in %s and trust the hookinstall hooks", t.ID, z.product, z.name)
}

// Check refuses an install that would never fire: hooks switched off in
// config.toml or requirements.toml, or a hooks.json the engine rejects as a
// whole because of an unknown top-level key.
func (z zerocodeStyle) Check(t Target, cur []byte, files map[string][]byte) ([]string, error) {
	cfg := z.Config(t)
	if !IsBlank(cur) {
		root, err := ParseObject(cur)
		if err != nil {
			return nil, err
		}
		for _, m := range members(root) {
			if !rootKeys[m.Key] {
				return nil, &OffError{File: cfg, Key: fmt.Sprintf("%q", m.Key),
					Reason: fmt.Sprintf("is not a top-level key %s accepts (only \"hooks\" and \"description\"), so %s rejects the whole file and runs none of its hooks, ours included; remove that key, then run add again", z.product, z.product)}
			}
		}
		if _, err := z.parseShared(t, cur); err != nil {
			return nil, err
		}
	}
	var notes []string
	req := z.requirementsTOML(t)
	if z.sysRequirements != "" {
		req = z.sysRequirements
		if b, ok := files[z.requirementsTOML(t)]; ok {
			if doc, err := parseTOML(b); err == nil {
				if z.requirementsOff(z.requirementsTOML(t), doc) != nil {
					notes = append(notes, fmt.Sprintf("%s would switch hooks off, but %s reads requirements only from %s (measured on Codex 0.171.0), so the hooks still run", z.requirementsTOML(t), z.product, z.sysRequirements))
				}
			}
		}
	}
	if b, ok := files[req]; ok {
		doc, err := parseTOML(b)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not check whether hooks are switched off there", req, err))
		} else if err := z.requirementsOff(req, doc); err != nil {
			return nil, err
		}
	}
	if b, ok := files[z.configTOML(t)]; ok {
		doc, err := parseTOML(b)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not check whether hooks are switched off there", z.configTOML(t), err))
		} else {
			if key, off := z.featureOff(doc); off {
				return nil, &OffError{File: z.configTOML(t), Key: "[features] " + key,
					Reason: fmt.Sprintf("is false, so %s runs no hooks at all; set it to true or remove it, then run add again", z.product)}
			}
			if inline := inlineHooks(doc); inline != "" {
				notes = append(notes, fmt.Sprintf("%s defines hooks inline ([hooks.%s]) beside %s: %s merges both and warns at start-up; prefer one of the two", z.configTOML(t), inline, cfg, z.product))
			}
		}
	}
	return notes, nil
}

// requirementsOff returns an *OffError when a requirements.toml switches
// user hooks off.
func (z zerocodeStyle) requirementsOff(file string, doc map[string]any) error {
	if v, ok := TOMLBool(doc, "allow_managed_hooks_only"); ok && v {
		return &OffError{File: file, Key: "allow_managed_hooks_only",
			Reason: fmt.Sprintf("is true, so %s runs only managed hooks and skips every user hook, ours included", z.product)}
	}
	if key, off := z.featureOff(doc); off {
		return &OffError{File: file, Key: "[features] " + key,
			Reason: fmt.Sprintf("is false, so %s runs no hooks at all (set by your administrator)", z.product)}
	}
	return nil
}

// featureOff reports whether [features] turns hooks off, by the canonical
// key or, when that is absent, by the deprecated alias.
func (z zerocodeStyle) featureOff(doc map[string]any) (string, bool) {
	if v, ok := TOMLBool(doc, "features", "hooks"); ok {
		return "hooks", !v
	}
	if v, ok := TOMLBool(doc, "features", z.alias); ok {
		return z.alias + " (deprecated alias of hooks)", !v
	}
	return "", false
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

// Remove takes our entries out, and warns where a user's entry moves up
// because an entry of ours before it went: its trust is keyed on its
// position, so the agent will take it for a new hook.
func (z zerocodeStyle) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	ed, err := z.claudeStyle.Remove(t, cur, prev, force)
	if err != nil || ed.Delete {
		return ed, err
	}
	before, after := foreignPositions(cur, t.Prefix()), foreignPositions(ed.Doc, t.Prefix())
	for _, ev := range before.order {
		was, now := before.at[ev], after.at[ev]
		for k := range was {
			if k < len(now) && now[k] != was[k] {
				ed.Notes = append(ed.Notes, fmt.Sprintf("%s entry %d (not ours) is now entry %d: %s keys trust on position, so it may need to be trusted again in /hooks", ev, was[k], now[k], z.product))
			}
		}
	}
	return ed, nil
}

type positions struct {
	order []string
	at    map[string][]int
}

// foreignPositions lists, per event, the indexes of the entries that are not
// ours.
func foreignPositions(doc []byte, prefix string) positions {
	p := positions{at: map[string][]int{}}
	root, err := ParseObject(doc)
	if err != nil {
		return p
	}
	hooks, ok, _ := lookup(doc, root, "hooks")
	if !ok || !hooks.Val.IsObject() {
		return p
	}
	for _, ev := range members(hooks.Val) {
		if !ev.Val.IsArray() {
			continue
		}
		p.order = append(p.order, ev.Key)
		for i, e := range elements(ev.Val) {
			if classify(e, prefix) == foreign {
				p.at[ev.Key] = append(p.at[ev.Key], i)
			}
		}
	}
	return p
}
