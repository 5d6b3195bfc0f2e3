package adapters

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// qwen is Qwen Code (measured on 0.24.4): ~/.qwen/settings.json ($QWEN_HOME
// replaces ~/.qwen), shared with the user and rewritten by Qwen itself (it
// adds "$version" to a file that lacks it), in Claude's shape with timeouts
// in seconds. Its hooks run detached, with no controlling terminal, and it
// writes a hook's terminalSequence only for its idle notification, so our
// scripts write to the host's pty and print nothing. Esc while a tool runs
// fires PostToolUseFailure with is_interrupt true and no Stop (measured):
// that is interrupted. Esc at the permission dialog, or while the model
// streams, fires no hook that says so.
func init() {
	register(&Agent{
		ID: "qwen", Product: "Qwen Code", Programs: []string{"qwen"},
		// 0.24.4 (docs/agents.md "Its own notifications"): general.terminalBell,
		// on by default, notifies an approval while the terminal is unfocused
		// (OSC 9 iTerm2, OSC 99 kitty, OSC 777 Ghostty, a BEL elsewhere; a
		// done only after a turn of 20 s, so ours stays), and it draws 9;4
		// while a tool runs in iTerm2, Ghostty and Windows Terminal.
		ShowsItself: &terminal.Own{Notifies: []terminal.State{terminal.Attention},
			In: []string{"iterm2", "kitty", "ghostty", "osc9", "bell"}, InTmux: []string{"kitty", "bell"},
			Progress: []terminal.Rule{{Var: "TERM_PROGRAM", Value: "iTerm.app"}, {Var: "TERM_PROGRAM", Value: "ghostty"},
				{Var: "TERM", Value: "xterm-ghostty"}, {Var: "WT_SESSION"}}},
		Dir: func(home string, getenv func(string) string) (string, string) {
			return envDir(getenv, "QWEN_HOME", filepath.Join(home, ".qwen"))
		},
		File: func(t Target) string { return filepath.Join(t.Dir, "settings.json") },
		// The system settings, which override the user's, and the system
		// defaults, which the user's override.
		Reads: func(t Target) []string {
			return systemSettings(t, qwenSystem, "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH")
		},
		Hooks: []Hook{
			{Event: "UserPromptSubmit", State: terminal.Working},
			{Event: "Notification", State: terminal.Attention, Rule: scripts.FieldEquals,
				Field: "notification_type", Value: "permission_prompt", Note: "only when notification_type is permission_prompt"},
			{Event: "PreToolUse", State: terminal.Working, Note: "before each tool, after its approval"},
			{Event: "Stop", State: terminal.Done},
			{Event: "PostToolUseFailure", State: terminal.Interrupted, Rule: scripts.FieldTrue,
				Field: "is_interrupt", Note: "only when is_interrupt is true: Esc while a tool runs"},
		},
		Transport: scripts.PTY,
		Format:    HookMap{Key: "hooks"},
		ReadsBOM:  true, ReadsComments: true, RewritesInPlace: true,
		check:    noteCheck(qwenApproval),
		Switches: qwenSwitches,
		Payloads: "qwen",
		Range:    qwenRange,
		Variants: map[string][]Variant{
			"Notification": {{ID: "fire.other-notification", Payload: "Notification.auth",
				Why: "a Notification whose notification_type is auth_success (not a permission prompt)"}},
			"UserPromptSubmit": {{ID: "fire.continue", Payload: "UserPromptSubmit.continue", State: terminal.Working,
				Why: "the UserPromptSubmit Qwen Code fires with an empty prompt after an approved tool"}},
			"PostToolUseFailure": {{ID: "fire.tool-failed", Payload: "PostToolUseFailure.failed",
				Why: "a PostToolUseFailure whose is_interrupt is false (a tool that failed; the recorded payload with is_interrupt false)"}},
		},
		ProjectConfigs: []string{".qwen/settings.json"},
	})
}

// qwenApproval says what Qwen Code's approval mode does to the attention
// state: it starts in "auto" unless tools.approvalMode says otherwise.
func qwenApproval(config string, root gjson.Result) string {
	switch mode := root.Get("tools.approvalMode"); {
	case !mode.Exists() || mode.String() == "auto":
		return fmt.Sprintf("%s: tools.approvalMode is not set, so Qwen Code starts in auto mode: its classifier approves tool calls itself and asks (Notification permission_prompt, attention) only when it cannot decide", config)
	case mode.String() == "yolo":
		return fmt.Sprintf("%s: tools.approvalMode is \"yolo\": Qwen Code approves every tool call itself, so attention never fires", config)
	}
	return ""
}

// qwenSystem is Qwen Code's system settings file (getSystemSettingsPath:
// the macOS one read in 0.24.4's package, the Linux one in its source).
var qwenSystem = OSPath{Linux: "/etc/qwen-code/settings.json", Darwin: "/Library/Application Support/QwenCode/settings.json"}

// qwenSwitches checks disableAllHooks in the user's settings, the system
// settings and the system defaults (which hold only while the user's set
// no disableAllHooks of their own), and reports the approval mode.
func qwenSwitches(in Input) []Check {
	user := jsoncRoot(in.Config)
	var fs []Check
	sys := in.T.Adapter.Reads(in.T)
	for layer, f := range settingsLayers(in, sys) {
		if jsoncRoot(f).Get("disableAllHooks").Type != gjson.True || layer == layerDefaults && user.Get("disableAllHooks").Exists() {
			continue
		}
		hint := []string{"set it to false or remove it", "ask whoever manages this machine",
			"set disableAllHooks to false in " + in.Config.Path + ", or ask whoever manages this machine"}[layer]
		fs = append(fs, switchOff(fail("switch.disableAllHooks", f.Path, fmt.Sprintf("%s: disableAllHooks is true%s, so Qwen Code runs no hooks at all", f.Path, layerWhere[layer]), hint)))
	}
	if len(fs) == 0 {
		fs = append(fs, pass("switch.disableAllHooks", in.Config.Path, "disableAllHooks is not set in "+strings.Join(append([]string{in.Config.Path}, sys...), " and ")))
	}
	if n := qwenApproval(in.Config.Path, user); n != "" {
		fs = append(fs, info("switch.approvalMode", in.Config.Path, n+"; working and done still do", "set tools.approvalMode to \"default\" if you want attention reported each time Qwen asks"))
	}
	return fs
}

// qwenRange: Qwen Code up to 0.23.3 reads a command hook's timeout in
// milliseconds (0.23.4 on reads seconds, and 1000 or more as milliseconds
// still); 0.12.0 runs hooks only when the user switched them on
// (hooksConfig.enabled, off by default), 0.10.1 has none (docs/agents.md
// "Versions").
var qwenRange = &Range{Program: "qwen", Oldest: "0.21.2", Newest: "0.24.4", Floor: "0.10.1",
	Older: []Older{
		{Below: "0.23.4", TimeoutMS: true,
			Why: "Qwen Code 0.15.10 killed a hook with \"timeout\": 5 after 5 ms, and 0.21.2 ran our Notification hook with 5 only sometimes; 0.15.6, 0.15.10 and 0.21.2 ran ours with 5000 (0.23.4 on: read in its package, not run)"},
		{Below: "0.15.6",
			Refuse: "runs no hooks unless hooksConfig.enabled is true in its settings (off by default; 0.10.1 has no hooks at all), and no release between it and 0.15.6 was run with ours; upgrade Qwen Code, then run add again",
			Why:    "0.12.0 ran no hook without hooksConfig.enabled (with it, ours showed working and done); 0.10.1 has no hooks"}}}
