package adapters

import (
	"fmt"
	"path/filepath"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// grok is Grok: its own file ~/.grok/hooks/<NS>.json (removal deletes it), in
// Claude's shape, read by Grok alongside Claude's. Its hooks have no
// controlling terminal, so the scripts write to the host's pty.
func init() {
	register(&Agent{
		ID: "grok", Product: "Grok", Programs: []string{"grok"},
		Dir: func(home string, getenv func(string) string) (string, string) {
			return envDir(getenv, "GROK_HOME", filepath.Join(home, ".grok"))
		},
		File:  func(t Target) string { return filepath.Join(t.Dir, "hooks", t.NS+".json") },
		Own:   true,
		Reads: func(t Target) []string { return []string{grokConfigTOML(t)} },
		Hooks: []Hook{
			{Event: "UserPromptSubmit", State: terminal.Working},
			{Event: "Notification", State: terminal.Attention, Rule: scripts.PermissionPrompt, Note: "only when notificationType is permission_prompt"},
			{Event: "Stop", State: terminal.Done},
			{Event: "StopCancelled", State: terminal.Interrupted},
		},
		Transport: scripts.PTY,
		Format:    HookMap{Key: "hooks"},
		check:     grokCheck,
		Switches:  grokSwitches,
		Payloads:  "grok",
		// Built from seed 003's field lists: no Grok binary here.
		Reconstructed: []string{"UserPromptSubmit", "Notification", "Stop", "StopCancelled"},
		Variants: map[string][]Variant{
			"Notification": {{ID: "fire.other-notification", Payload: "Notification.idle",
				Why: "a Notification whose notificationType is idle_prompt (not a permission prompt)"}},
		},
		ProjectConfigs: []string{".grok/hooks/*.json", ".claude/settings.json", ".claude/settings.local.json"},
	})
}

func grokConfigTOML(t Target) string { return filepath.Join(t.Dir, "config.toml") }

// grokCheck parses our file and reads Grok's config.toml. Grok's only
// switch, [compat.claude] hooks = false, stops Grok from reading Claude's
// hooks; it does not touch ours, so it is a note, not a refusal.
func grokCheck(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error) {
	if _, err := a.parseShared(t, cur); err != nil {
		return nil, err
	}
	var notes []string
	if b, ok := files[grokConfigTOML(t)]; ok {
		doc, err := parseTOML(b)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not read Grok's settings", grokConfigTOML(t), err))
		} else if v, ok := TOMLBool(doc, "compat", "claude", "hooks"); ok && !v {
			notes = append(notes, fmt.Sprintf("%s: [compat.claude] hooks = false only stops Grok from running Claude's hooks; the hooks in %s still run", grokConfigTOML(t), a.File(t)))
		}
	}
	return notes, nil
}

// grokSwitches explains [compat.claude] hooks = false in ~/.grok/config.toml.
// It is Grok's only hook switch, and it does not touch our own file: it only
// stops Grok from running the hooks in Claude's settings.json.
func grokSwitches(in Input) []Check {
	path := grokConfigTOML(in.T)
	doc, ok, err := ReadTOML(in.File(path))
	switch {
	case err != nil:
		return []Check{info("switch.compat-claude", path, fmt.Sprintf("%s: %v; could not check Grok's switches", path, err), "fix the file: Grok may not start with it")}
	case ok:
		if v, set := TOMLBool(doc, "compat", "claude", "hooks"); set && !v {
			return []Check{info("switch.compat-claude", path, fmt.Sprintf("%s: [compat.claude] hooks = false: Grok no longer runs the hooks in Claude's settings.json (ours there stay silent under Grok anyway); the hooks in %s still run", path, in.Config.Path), "")}
		}
	}
	return []Check{pass("switch.compat-claude", path, fmt.Sprintf("Grok runs the hooks in %s; [compat.claude] hooks = false would only stop it from running Claude's", in.Config.Path))}
}
