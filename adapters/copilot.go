package adapters

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// copilot is GitHub Copilot CLI: our own file ~/.copilot/hooks/<NS>.json
// ($COPILOT_HOME replaces ~/.copilot), {"version": 1, "hooks": {...}}, whose
// events take handlers directly, {"type": "command", "bash": ABS,
// "timeoutSec": 5}. Removal deletes the file. Its hooks inherit the agent's
// environment and write to the host's pty (measured on 1.0.102).
func init() {
	register(&Agent{
		ID: "copilot", Product: "GitHub Copilot CLI", Programs: []string{"copilot"}, WindowsHooks: "with pwsh",
		// 1.0.102 (docs/agents.md "Its own notifications"): terminalProgress,
		// on by default, draws 9;4 while it works in the terminals these
		// variables name (and, inside tmux or over ssh, by the attached
		// client or XTVERSION, which a hook cannot ask); its notifications
		// and bell are off by default.
		ShowsItself: &terminal.Own{Progress: []terminal.Rule{
			{Var: "TERM_PROGRAM", Value: "ghostty"}, {Var: "TERM_PROGRAM", Value: "iTerm.app"}, {Var: "TERM_PROGRAM", Value: "WezTerm"},
			{Var: "TERM_PROGRAM", Value: "rio"}, {Var: "TERM_PROGRAM", Value: "vscode"}, {Var: "TERM", Value: "xterm-ghostty"},
			{Var: "TERM", Value: "xterm-kitty"}, {Var: "TERM", Value: "foot*"}, {Var: "TERM", Value: "alacritty*"},
			{Var: "TERM", Value: "wezterm"}, {Var: "TERM", Value: "xterm-rio"}, {Var: "TERM", Value: "rio"}, {Var: "WT_SESSION"}}},
		Dir: func(home string, getenv func(string) string) (string, string) {
			return envDir(getenv, "COPILOT_HOME", filepath.Join(home, ".copilot"))
		},
		// In the personal hooks folder, which Copilot reads as a whole.
		File: func(t Target) string { return filepath.Join(t.Dir, "hooks", t.NS+".json") },
		Own:  true,
		Reads: func(t Target) []string {
			return append([]string{copilotSettings(t), copilotDeadPath(t)}, nonEmpty(SystemPath(t, copilotManaged, ""))...)
		},
		// The camelCase names keep Copilot's own payload casing (PascalCase
		// names switch it to Claude's). permissionRequest is not attention:
		// it fires under --allow-all-tools too, with no prompt on screen
		// (measured).
		Hooks: []Hook{
			{Event: "userPromptSubmitted", State: terminal.Working},
			{Event: "notification", State: terminal.Attention, Rule: scripts.FieldEquals,
				Field: "notification_type", Value: "permission_prompt", Note: "only when notification_type is permission_prompt"},
			{Event: "postToolUse", State: terminal.Working, Note: "after each tool: the first event after an approval"},
			{Event: "agentStop", State: terminal.Done},
		},
		Transport: scripts.PTY,
		// The file we start from carries Copilot's hook config version; a
		// remove that leaves nothing else deletes it.
		Format:    HookMap{Key: "hooks", Bare: true, CommandKey: "bash", TimeoutKey: "timeoutSec", Start: "{\n  \"version\": 1\n}\n", Keep: []string{"version"}},
		check:     copilotCheck,
		Switches:  copilotSwitches,
		DeadPaths: copilotDeadPaths,
		Payloads:  "copilot",
		Range:     copilotRange,
		Variants: map[string][]Variant{
			"notification": {{ID: "fire.other-notification", Payload: "notification.other",
				Why: "a notification whose notification_type is not permission_prompt (agent completion)"}},
		},
		ProjectConfigs: []string{".github/hooks/*.json", ".github/copilot/settings.json", ".github/copilot/settings.local.json"},
	})
}

// copilotManaged is the machine's managed settings file, whose
// allowManagedHooksOnly keeps every user hook from running (read in
// 1.0.102's runtime.node, Linux's and darwin-arm64's; its MDM profile it
// asks CFPreferences for, reading no file: unread).
var copilotManaged = OSPath{Linux: "/etc/github-copilot/managed-settings.json", Darwin: "/Library/Application Support/GitHubCopilot/managed-settings.json"}

func copilotSettings(t Target) string { return filepath.Join(t.Dir, "settings.json") }

// copilotDeadPath is where Copilot read user settings (hooks included)
// until 1.0.93; 1.0.102 ignores hooks there (measured). Never written.
func copilotDeadPath(t Target) string { return filepath.Join(t.Dir, "config.json") }

// copilotCheck parses our file as Copilot does (a version other than 1
// makes it reject the file), and says what the user's settings do to our
// hooks.
func copilotCheck(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error) {
	if !jsonedit.IsBlank(cur) {
		root, _, _, err := a.hookMap().edit(a, t, nil, false).Check(cur)
		if err != nil {
			return nil, err
		}
		if v := root.Get("version"); v.Exists() && v.Raw != "1" {
			return nil, fmt.Errorf("\"version\" is %s, not 1: GitHub Copilot CLI rejects the whole file (\"Invalid hook config version\"); move it away, or install under another --namespace", v.Raw)
		}
	}
	var notes []string
	if b, ok := files[copilotSettings(t)]; ok && jsonRoot(File{Data: b, Exists: true}).Get("disableAllHooks").Type == gjson.True {
		notes = append(notes, copilotDisableAll(copilotSettings(t), a.File(t)))
	}
	if b, ok := files[copilotDeadPath(t)]; ok && bytes.Contains(b, []byte(t.Prefix())) {
		notes = append(notes, copilotDead(copilotDeadPath(t), a.File(t)))
	}
	return notes, nil
}

func copilotDisableAll(settings, config string) string {
	return fmt.Sprintf("%s: disableAllHooks is true, but in GitHub Copilot CLI 1.0.102 it only switches off the hooks defined in that same file (measured): the hooks in %s still run", settings, config)
}

func copilotDead(dead, config string) string {
	return fmt.Sprintf("%s holds a hook of ours, but GitHub Copilot CLI has not read hooks there since 1.0.93 (it keeps machine state in that file); ours are in %s", dead, config)
}

// copilotSwitches reads disableAllHooks in ~/.copilot/settings.json, which
// in 1.0.102 does not reach the hooks folder.
func copilotSwitches(in Input) []Check {
	path := copilotSettings(in.T)
	fs := []Check{pass("switch.disableAllHooks", path, "disableAllHooks is not set in "+path)}
	if jsonRoot(in.File(path)).Get("disableAllHooks").Type == gjson.True {
		fs = []Check{info("switch.disableAllHooks", path, copilotDisableAll(path, in.Config.Path), "")}
	}
	if m := SystemPath(in.T, copilotManaged, ""); m != "" && jsonRoot(in.File(m)).Get("allowManagedHooksOnly").Type == gjson.True {
		fs = append(fs, switchOff(fail("switch.allowManagedHooksOnly", m, fmt.Sprintf("%s: allowManagedHooksOnly is true, so GitHub Copilot CLI runs only managed hooks, never ours in %s", m, in.Config.Path), "ask whoever manages this machine")))
	}
	return fs
}

// copilotDeadPaths flags a hook of ours in ~/.copilot/config.json, which
// Copilot no longer reads for hooks.
func copilotDeadPaths(in Input) []Check {
	path := copilotDeadPath(in.T)
	f := in.File(path)
	if f.Exists && bytes.Contains(f.Data, []byte(in.T.Prefix())) {
		return []Check{fail("deadpath.config-json", path, copilotDead(path, in.Config.Path), "remove the \"hooks\" entries naming "+strings.TrimSuffix(in.T.Prefix(), "/")+" from "+path+" (Copilot rewrites that file itself: do it while Copilot is not running)")}
	}
	return []Check{pass("deadpath.config-json", path, "no hook of ours in "+path+" (which Copilot no longer reads for hooks)")}
}

// copilotRange: the versions measured with our hooks (docs/agents.md "Versions").
var copilotRange = &Range{Program: "copilot", Oldest: "1.0.39", Newest: "1.0.102", Silent: []Gap{Approved, EscAsk}}
