package adapters

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/scripts"
)

// copilot is GitHub Copilot CLI: our own file ~/.copilot/hooks/<NS>.json
// ($COPILOT_HOME replaces ~/.copilot), {"version": 1, "hooks": {...}}, whose
// events take handlers directly, {"type": "command", "bash": ABS,
// "timeoutSec": 5}. Removal deletes the file. Its hooks inherit the agent's
// environment and write to the host's pty (measured on 1.0.102).
type copilot struct{ oneConfig }

// The camelCase names keep Copilot's own payload casing (PascalCase names
// switch it to Claude's). permissionRequest is not attention: it fires under
// --allow-all-tools too, with no prompt on screen (measured).
var copilotEvents = []claudeEvent{
	{event: "userPromptSubmitted", state: scripts.Working, rule: scripts.Always},
	{event: "notification", state: scripts.Attention, rule: scripts.FieldEquals,
		field: "notification_type", value: "permission_prompt", note: "only when notification_type is permission_prompt"},
	{event: "agentStop", state: scripts.Done, rule: scripts.Always},
}

func init() { register(copilot{}) }

func (copilot) Name() string       { return "copilot" }
func (copilot) Binaries() []string { return []string{"copilot"} }
func (copilot) OwnFile() bool      { return true }
func (copilot) ByNameOnly() bool   { return false }

func (copilot) Events() []EventInfo { return eventInfos(copilotEvents) }

func (copilot) Dir(home string, getenv func(string) string) (string, string) {
	return envDir(getenv, "COPILOT_HOME", filepath.Join(home, ".copilot"))
}

// Config is in the personal hooks folder, which Copilot reads as a whole.
func (copilot) Config(t Target) string { return filepath.Join(t.Dir, "hooks", t.NS+".json") }

func (copilot) settings(t Target) string { return filepath.Join(t.Dir, "settings.json") }

// deadPath is where Copilot read user settings (hooks included) until
// 1.0.93; 1.0.102 ignores hooks there (measured). Never written.
func (copilot) deadPath(t Target) string { return filepath.Join(t.Dir, "config.json") }

func (c copilot) SwitchFiles(t Target) []string { return []string{c.settings(t), c.deadPath(t)} }

func (copilot) Scripts(t Target) ([]Script, error) {
	return eventScripts(t, copilotEvents, scripts.PTY, false)
}

func (copilot) edit(t Target, prev *Record, force bool) jsonedit.MapEdit {
	var ws []jsonedit.EventEntry
	for _, e := range copilotEvents {
		ws = append(ws, jsonedit.EventEntry{Event: e.event, Entry: jsonedit.Obj{{K: "type", V: "command"}, {K: "bash", V: t.ScriptPath(scripts.FileName(e.event))}, {K: "timeoutSec", V: HookTimeout}}})
	}
	return jsonedit.MapEdit{Key: "hooks", Prefix: t.Prefix(), Want: ws, Prev: prev, Force: force, Parsed: t.parsed}
}

// copilotNew is the file we start from: Copilot's hook config version.
const copilotNew = "{\n  \"version\": 1\n}\n"

func (c copilot) Add(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	if jsonedit.IsBlank(cur) {
		cur = []byte(copilotNew)
	}
	return c.edit(t, prev, force).Add(cur)
}

// Remove takes our entries out; a file left with nothing but its version is
// deleted.
func (c copilot) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	ed, err := c.edit(t, prev, force).Remove(cur)
	if err == nil && !ed.Kept && !bytes.Equal(ed.Doc, cur) && onlyVersion(ed.Doc) {
		ed = Edit{Delete: true, Notes: ed.Notes}
	}
	return ed, err
}

// onlyVersion reports whether doc is an object holding nothing but
// "version" (or nothing at all).
func onlyVersion(doc []byte) bool {
	root, err := jsonedit.ParseObject(doc)
	if err != nil {
		return false
	}
	for _, m := range jsonedit.Members(root) {
		if m.Key != "version" {
			return false
		}
	}
	return true
}

// Check parses our file as Copilot does (a version other than 1 makes it
// reject the file), and says what the user's settings do to our hooks.
func (c copilot) Check(t Target, cur []byte, files map[string][]byte) ([]string, error) {
	if !jsonedit.IsBlank(cur) {
		root, _, _, err := c.edit(t, nil, false).Check(cur)
		if err != nil {
			return nil, err
		}
		if v := root.Get("version"); v.Exists() && v.Raw != "1" {
			return nil, fmt.Errorf("\"version\" is %s, not 1: GitHub Copilot CLI rejects the whole file (\"Invalid hook config version\"); move it away, or install under another --namespace", v.Raw)
		}
	}
	var notes []string
	if b, ok := files[c.settings(t)]; ok && jsonRoot(File{Data: b, Exists: true}).Get("disableAllHooks").Type == gjson.True {
		notes = append(notes, copilotDisableAll(c.settings(t), c.Config(t)))
	}
	if b, ok := files[c.deadPath(t)]; ok && bytes.Contains(b, []byte(t.Prefix())) {
		notes = append(notes, copilotDead(c.deadPath(t), c.Config(t)))
	}
	return notes, nil
}

func copilotDisableAll(settings, config string) string {
	return fmt.Sprintf("%s: disableAllHooks is true, but in GitHub Copilot CLI 1.0.102 it only switches off the hooks defined in that same file (measured): the hooks in %s still run", settings, config)
}

func copilotDead(dead, config string) string {
	return fmt.Sprintf("%s holds a hook of ours, but GitHub Copilot CLI has not read hooks there since 1.0.93 (it keeps machine state in that file); ours are in %s", dead, config)
}

// --- GitHub Copilot CLI's facts, for add, remove, status and doctor ---

func (c copilot) Facts(t Target) Facts {
	return Facts{
		Range:          copilotRange,
		Product:        "GitHub Copilot CLI",
		ProjectConfigs: []string{".github/hooks/*.json", ".github/copilot/settings.json", ".github/copilot/settings.local.json"},
		Reads:          []string{c.settings(t), c.deadPath(t)},
		Switches:       c.switches,
		DeadPaths:      c.deadPaths,
		Payloads:       "copilot",
		Variants: map[string][]Variant{
			"notification": {{ID: "fire.other-notification", Payload: "notification.other",
				Why: "a notification whose notification_type is not permission_prompt (agent completion)"}},
		},
	}
}

// switches reads disableAllHooks in ~/.copilot/settings.json, which in
// 1.0.102 does not reach the hooks folder.
func (c copilot) switches(in Input) []Finding {
	path := c.settings(in.T)
	if jsonRoot(in.File(path)).Get("disableAllHooks").Type == gjson.True {
		return []Finding{info("switch.disableAllHooks", path, copilotDisableAll(path, in.Config.Path), "")}
	}
	return []Finding{pass("switch.disableAllHooks", path, "disableAllHooks is not set in "+path)}
}

// deadPaths flags a hook of ours in ~/.copilot/config.json, which Copilot
// no longer reads for hooks.
func (c copilot) deadPaths(in Input) []Finding {
	path := c.deadPath(in.T)
	f := in.File(path)
	if f.Exists && bytes.Contains(f.Data, []byte(in.T.Prefix())) {
		return []Finding{fail("deadpath.config-json", path, copilotDead(path, c.Config(in.T)), "remove the \"hooks\" entries naming "+strings.TrimSuffix(in.T.Prefix(), "/")+" from "+path+" (Copilot rewrites that file itself: do it while Copilot is not running)")}
	}
	return []Finding{pass("deadpath.config-json", path, "no hook of ours in "+path+" (which Copilot no longer reads for hooks)")}
}

// copilotRange: the versions measured with our hooks (docs/agents.md "Versions").
var copilotRange = &Range{Program: "copilot", Oldest: "1.0.39", Newest: "1.0.102"}
