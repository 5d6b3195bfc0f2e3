package adapters

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/scripts"
)

// grok is Grok: its own file ~/.grok/hooks/<NS>.json (removal deletes it), in
// Claude's shape, read by Grok alongside Claude's. Its hooks have no
// controlling terminal, so the scripts write to the host's pty.
type grok struct{ claudeStyle }

func init() {
	register(grok{claudeStyle{
		name: "grok",
		events: []claudeEvent{
			{event: "UserPromptSubmit", state: scripts.Working, rule: scripts.Always},
			{event: "Notification", state: scripts.Attention, rule: scripts.PermissionPrompt, note: "only when notificationType is permission_prompt"},
			{event: "Stop", state: scripts.Done, rule: scripts.Always},
			{event: "StopCancelled", state: scripts.Interrupted, rule: scripts.Always},
		},
		transport: scripts.PTY,
	}})
}

func (grok) Dir(home string, getenv func(string) string) (string, string) {
	return envDir(getenv, "GROK_HOME", filepath.Join(home, ".grok"))
}

func (grok) Config(t Target) string { return filepath.Join(t.Dir, "hooks", t.NS+".json") }

func (grok) OwnFile() bool { return true }

func (grok) configTOML(t Target) string { return filepath.Join(t.Dir, "config.toml") }

func (g grok) SwitchFiles(t Target) []string { return []string{g.configTOML(t)} }

// Check parses our file and reads Grok's config.toml. Grok's only switch,
// [compat.claude] hooks = false, stops Grok from reading Claude's hooks; it
// does not touch ours, so it is a note, not a refusal.
func (g grok) Check(t Target, cur []byte, files map[string][]byte) ([]string, error) {
	if _, err := g.parseShared(t, cur); err != nil {
		return nil, err
	}
	var notes []string
	if b, ok := files[g.configTOML(t)]; ok {
		doc, err := parseTOML(b)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not read Grok's settings", g.configTOML(t), err))
		} else if v, ok := TOMLBool(doc, "compat", "claude", "hooks"); ok && !v {
			notes = append(notes, fmt.Sprintf("%s: [compat.claude] hooks = false only stops Grok from running Claude's hooks; the hooks in %s still run", g.configTOML(t), g.Config(t)))
		}
	}
	return notes, nil
}

// Remove takes our entries out; a file that held only ours is deleted.
func (g grok) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	ed, err := g.claudeStyle.Remove(t, cur, prev, force)
	if err == nil && !ed.Kept && !bytes.Equal(ed.Doc, cur) && jsonedit.IsEmptyObject(ed.Doc) {
		ed = Edit{Delete: true, Notes: ed.Notes}
	}
	return ed, err
}

// --- Grok's facts, for add, remove, status and doctor ---

func (g grok) Facts(t Target) Facts {
	return Facts{
		Product:        "Grok",
		ProjectConfigs: []string{".grok/hooks/*.json", ".claude/settings.json", ".claude/settings.local.json"},
		Reads:          []string{g.configTOML(t)},
		Switches:       g.switches,
		Payloads:       "grok",
		// Built from seed 003's field lists: no Grok binary here.
		Reconstructed: []string{"UserPromptSubmit", "Notification", "Stop", "StopCancelled"},
		Variants: map[string][]Variant{
			"Notification": {{ID: "fire.other-notification", Payload: "Notification.idle",
				Why: "a Notification whose notificationType is idle_prompt (not a permission prompt)"}},
		},
	}
}

// switches explains [compat.claude] hooks = false in ~/.grok/config.toml.
// It is Grok's only hook switch, and it does not touch our own file: it only
// stops Grok from running the hooks in Claude's settings.json.
func (g grok) switches(in Input) []Finding {
	path := g.configTOML(in.T)
	doc, ok, err := ReadTOML(in.File(path))
	switch {
	case err != nil:
		return []Finding{info("switch.compat-claude", path, fmt.Sprintf("%s: %v; could not check Grok's switches", path, err), "fix the file: Grok may not start with it")}
	case ok:
		if v, set := TOMLBool(doc, "compat", "claude", "hooks"); set && !v {
			return []Finding{info("switch.compat-claude", path, fmt.Sprintf("%s: [compat.claude] hooks = false: Grok no longer runs the hooks in Claude's settings.json (ours there stay silent under Grok anyway); the hooks in %s still run", path, in.Config.Path), "")}
		}
	}
	return []Finding{pass("switch.compat-claude", path, fmt.Sprintf("Grok runs the hooks in %s; [compat.claude] hooks = false would only stop it from running Claude's", in.Config.Path))}
}
