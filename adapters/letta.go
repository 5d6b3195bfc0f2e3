package adapters

import (
	"fmt"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// letta is Letta Code (npm @letta-ai/letta-code, measured on 0.32.18 with
// Node 22.19, local backend): "hooks" in ~/.letta/settings.json (always
// $HOME/.letta: no variable moves it), shared with the user and rewritten
// by Letta itself (it merges the keys it changed into the file as it reads
// it then, two-space JSON), in Claude's shape but with each handler's
// timeout in MILLISECONDS. Its payloads name the event in event_type, not
// hook_event_name. Hooks inherit the terminal, so the scripts write to the
// host's pty. Letta says it needs approval with a Notification whose
// message is "Approval needed" (its other notifications, such as "Turn
// completed, awaiting your input" after every Stop, stay silent). Esc, mid
// turn or on the approval dialog, fires no hook: there is no interrupted.
// We never install a PermissionRequest hook: Letta takes one that exits 0
// as the user's approval and runs the tool without asking.
const lettaTimeout = HookTimeout * 1000 // its handlers' timeout, in milliseconds

func init() {
	register(&Agent{
		ID: "letta", Product: "Letta Code", Programs: []string{"letta"},
		// 0.32.18 (docs/agents.md "Its own notifications"): a BEL at every
		// approval and finished turn, in every terminal (where ours is a BEL
		// too, it is the one), and 9;4 progress while it asks, in every
		// terminal: the one writer of the bar.
		ShowsItself: &terminal.Own{Notifies: []terminal.State{terminal.Attention, terminal.Done},
			In: []string{"bell"}, InTmux: []string{"bell"}, Progress: []terminal.Rule{{}}},
		Dir: func(home string, _ func(string) string) (string, string) {
			return filepath.Join(home, ".letta"), ""
		},
		File: func(t Target) string { return filepath.Join(t.Dir, "settings.json") },
		Hooks: []Hook{
			{Event: "UserPromptSubmit", State: terminal.Working},
			{Event: "Notification", State: terminal.Attention, Rule: scripts.FieldEquals,
				Field: "message", Value: "Approval needed", Note: "only when message is \"Approval needed\""},
			{Event: "PreToolUse", State: terminal.Working, Note: "before each tool, after its approval"},
			{Event: "Stop", State: terminal.Done},
		},
		Transport: scripts.PTY,
		Format:    HookMap{Key: "hooks", Timeout: lettaTimeout},
		// Letta rewrites settings.json itself.
		RewritesInPlace: true,
		check:           noteCheck(lettaPermissionHooks),
		Switches:        lettaSwitches,
		Payloads:        "letta",
		Range:           lettaRange,
		Variants: map[string][]Variant{
			"Notification": {{ID: "fire.other-notification", Payload: "Notification.completed",
				Why: "the Notification \"Turn completed, awaiting your input\" Letta Code fires after every Stop (not an approval)"}},
		},
		ProjectConfigs: []string{".letta/settings.json", ".letta/settings.local.json"},
	})
}

// lettaOffWhy is what hooks.disabled does.
const lettaOffWhy = "so Letta Code runs no hooks at all"

// lettaPermissionHooks says what a PermissionRequest hook of the user's
// does to the attention state: Letta takes one that exits 0 as approval,
// so no dialog (and no "Approval needed") comes.
func lettaPermissionHooks(config string, root gjson.Result) string {
	if pr := root.Get("hooks.PermissionRequest"); pr.IsArray() && len(pr.Array()) > 0 {
		return fmt.Sprintf("%s: hooks.PermissionRequest holds hooks: Letta Code takes one that exits 0 as the user's approval and runs the tool without asking, so attention does not fire then (hookinstall never installs one)", config)
	}
	return ""
}

// --- Letta Code's facts, for add, remove, status and doctor ---

func lettaSwitches(in Input) []Check {
	root := jsonRoot(in.Config)
	var fs []Check
	if root.Get("hooks.disabled").Type == gjson.True {
		fs = append(fs, switchOff(fail("switch.disabled", in.Config.Path, fmt.Sprintf("%s: hooks.disabled is true, %s", in.Config.Path, lettaOffWhy), "set it to false or remove it")))
	} else {
		fs = append(fs, pass("switch.disabled", in.Config.Path, "hooks.disabled is not set in "+in.Config.Path))
	}
	if n := lettaPermissionHooks(in.Config.Path, root); n != "" {
		fs = append(fs, info("switch.permissionRequest", in.Config.Path, n, "take the PermissionRequest hook out if you want Letta Code to ask, and attention reported"))
	}
	return fs
}

// lettaRange: the versions measured with our hooks (docs/agents.md "letta").
var lettaRange = &Range{Program: "letta", Oldest: "0.32.18", Newest: "0.32.18", Silent: []Gap{EscAsk, EscTurn}}
