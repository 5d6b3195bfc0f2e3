package adapters

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// claude is Claude Code: ~/.claude/settings.json, shared with the user, and
// terminalSequence on stdout as transport.
func init() {
	register(&Agent{
		ID: "claude", Product: "Claude Code", Programs: []string{"claude"}, OnWindows: true,
		// 2.1.332 (docs/agents.md "Its own notifications"): its
		// preferredNotifChannel "auto" notifies an unanswered permission
		// prompt in iTerm2, kitty and Ghostty (by TERM_PROGRAM or TERM, and
		// inside tmux by the attached client's XTVERSION), and it draws OSC
		// 9;4 progress where TERM_PROGRAM is ghostty or iTerm.app.
		ShowsItself: &terminal.Own{
			Notifies: []terminal.State{terminal.Attention}, In: []string{"ghostty", "kitty", "iterm2"}, InTmux: []string{"ghostty", "kitty", "iterm2"},
			Progress: []terminal.Rule{{Var: "TERM_PROGRAM", Value: "ghostty"}, {Var: "TERM_PROGRAM", Value: "iTerm.app"}},
		},
		Dir: func(home string, getenv func(string) string) (string, string) {
			return envDir(getenv, "CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
		},
		File: func(t Target) string { return filepath.Join(t.Dir, "settings.json") },
		// The machine's managed settings, which can switch every user hook
		// off (none for a Docker target).
		Reads: func(t Target) []string { return append(claudeMDM(t), claudeManagedFiles(t)...) },
		Hooks: []Hook{
			{Event: "UserPromptSubmit", State: terminal.Working},
			{Event: "PermissionRequest", State: terminal.Attention},
			{Event: "PostToolUse", State: terminal.Working, Note: "after each tool: the first event after an approval"},
			{Event: "Stop", State: terminal.Done, Rule: scripts.NonEmptyBackgroundTasks, Note: "working while background_tasks is not empty"},
		},
		Transport: scripts.Stdout,
		Quiet:     []Quiet{{Var: "GROK_HOOK_EVENT", ID: "grok", Who: "Grok", Why: "Grok runs Claude's hooks"}},
		Format:    HookMap{Key: "hooks"},
		ReadsBOM:  true, RewritesStale: true, RewritesInPlace: true,
		check:    claudeCheck,
		Switches: claudeSwitches,
		Ask: &Ask{
			ID: "binary.claude", Program: "claude", Args: []string{"doctor"},
			Env: func(t Target) []string {
				return []string{"CLAUDE_CONFIG_DIR=" + t.Dir,
					"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
					"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1"}
			},
			What: "'%s doctor'", Hint: "run 'claude doctor' yourself",
			Read: readClaudeDoctor,
		},
		Payloads: "claude",
		Range:    claudeRange,
		Variants: map[string][]Variant{
			"Stop": {{ID: "fire.background", Payload: "Stop.background", State: terminal.Working, Why: "a Stop whose background_tasks is not empty"}},
		},
		ProjectConfigs: []string{".claude/settings.json", ".claude/settings.local.json"},
	})
}

// claudeCheck is add's parse of the config (its switches are
// claudeSwitches') and its note on the auto permission mode.
func claudeCheck(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error) {
	var notes []string
	for _, path := range claudeMDM(t) {
		if _, err := plistRoot(File{Data: files[path], Exists: files[path] != nil}); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; could not check whether hooks are switched off there", path, err))
		}
	}
	if jsonedit.IsBlank(cur) {
		return notes, nil
	}
	// The root's members from the shape check, not root.Get: on a large
	// file a key that is absent costs a scan of the whole document.
	get, err := a.hookMap().edit(a, t, nil, false).CheckKeys(cur)
	if err != nil {
		return nil, err
	}
	if get("permissions").Get("defaultMode").Str == "auto" {
		notes = append(notes, claudeAuto(a.File(t)))
	}
	return notes, nil
}

// --- Claude Code's facts, for add, remove, status and doctor ---

// claudeManaged is the folder of the machine's managed settings Claude Code
// reads (2.1.332's binary): managed-settings.json, and the drop-ins of its
// managed-settings.d/ folder.
var claudeManaged = OSPath{Linux: "/etc/claude-code", Darwin: "/Library/Application Support/ClaudeCode"}

// claudeManagedFiles are managed-settings.json and each *.json drop-in, in
// name order, as Claude Code merges them (its documented drop-in
// convention); none for a Docker target.
func claudeManagedFiles(t Target) []string {
	dir := SystemPath(t, claudeManaged, "")
	if dir == "" {
		return nil
	}
	return append([]string{filepath.Join(dir, "managed-settings.json")}, t.dropIns(filepath.Join(dir, "managed-settings.d"))...)
}

// claudeMDM are the managed preferences Claude Code 2.1.332 reads on macOS
// (with plutil), the user's (named as their home is) before the device's.
func claudeMDM(t Target) []string {
	dir := SystemPath(t, OSPath{Darwin: "/Library/Managed Preferences"}, "")
	if dir == "" {
		return nil
	}
	const name = "com.anthropic.claudecode.plist"
	return []string{filepath.Join(dir, filepath.Base(t.Home), name), filepath.Join(dir, name)}
}

// claudeTiers are the managed files whose switches apply, as tiers: the
// first plist that holds a setting is the MDM source, and by default
// ("first-wins") the managed tier alone; with managedSourcesBehavior
// "merge" managed-settings.json and its drop-ins are a tier beside it. A
// plist that cannot be read is in bad.
func claudeTiers(in Input) (tiers [][]string, roots map[string]gjson.Result, bad []Check) {
	roots = map[string]gjson.Result{}
	files := claudeManagedFiles(in.T)
	for _, path := range files {
		roots[path] = jsonRoot(in.File(path))
	}
	for _, path := range claudeMDM(in.T) {
		root, err := plistRoot(in.File(path))
		if err != nil {
			bad = append(bad, fail("switch.mdm", path, fmt.Sprintf("%s: %v: Claude Code cannot read its managed preferences", path, err), claudeAskAdmin))
		}
		if len(root.Map()) > 0 {
			roots[path] = root
			if root.Get("managedSourcesBehavior").Str != "merge" {
				return [][]string{{path}}, roots, bad
			}
			return [][]string{{path}, files}, roots, bad
		}
	}
	return [][]string{files}, roots, bad
}

// The switches that stop Claude Code running our hooks, checked and worded
// once for add's refusal (Check) and doctor's failures (claudeSwitches).
const (
	claudeKeyOff         = "disableAllHooks"
	claudeKeyManagedOnly = "allowManagedHooksOnly"
	claudeOffWhy         = "so Claude Code runs no hooks at all"
	claudeManagedOnlyWhy = "so Claude Code runs only managed hooks, never ours"
	claudeUserFix        = "set it to false or remove it"
	claudeAskAdmin       = "ask whoever manages this machine"
)

// claudeAuto says what the auto permission mode does to our hooks.
func claudeAuto(path string) string {
	return fmt.Sprintf("%s: permissions.defaultMode is \"auto\": Claude answers permission prompts itself, so PermissionRequest (attention) will not fire", path)
}

// rootKey returns a lookup of the top-level keys of in's config as an agent
// that skips a BOM reads it: from the plan's parse of the config when there
// is one (a large config is then not scanned again), else from jsonRoot.
func rootKey(in Input) func(key string) gjson.Result {
	if get, ok := in.T.parsed.Lookup(in.Config.Data); ok {
		return get
	}
	root := jsonRoot(in.Config)
	return func(key string) gjson.Result { return root.Get(gjson.Escape(key)) }
}

// jsonRoot parses a JSON file as an agent that skips a BOM would; an absent
// or invalid file gives an empty result.
func jsonRoot(f File) gjson.Result {
	data := bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf"))
	if !f.Exists || !gjson.ValidBytes(data) {
		return gjson.Result{}
	}
	return gjson.ParseBytes(data)
}

// claudeSwitches checks disableAllHooks in the user's and the managed
// settings, allowManagedHooksOnly in the managed settings, and the auto
// permission mode.
func claudeSwitches(in Input) []Check {
	user := in.Config
	userKey := rootKey(in)
	tiers, roots, fs := claudeTiers(in)
	managed := slices.Concat(tiers...)
	off := false
	if userKey(claudeKeyOff).Type == gjson.True {
		fs = append(fs, switchOff(fail("switch.disableAllHooks", user.Path, fmt.Sprintf("%s: disableAllHooks is true, %s", user.Path, claudeOffWhy), claudeUserFix)))
		off = true
	}
	// A tier's files merge in order, a later file's value of a key
	// winning: the last file that sets a switch decides. Across tiers
	// the strictest value applies.
	last := map[string]string{}
	for _, tier := range tiers {
		decides := map[string]string{}
		for _, path := range tier {
			for _, key := range []string{claudeKeyOff, claudeKeyManagedOnly} {
				if v := roots[path].Get(key); v.IsBool() {
					decides[key] = map[bool]string{true: path}[v.Bool()]
				}
			}
		}
		for key, path := range decides {
			last[key] = cmp.Or(last[key], path)
		}
	}
	if path := last[claudeKeyOff]; path != "" {
		fs = append(fs, switchOff(fail("switch.disableAllHooks", path, fmt.Sprintf("%s: disableAllHooks is true in the managed settings, %s", path, claudeOffWhy), claudeAskAdmin+"; a user setting cannot override it")))
		off = true
	}
	if path := last[claudeKeyManagedOnly]; path != "" {
		fs = append(fs, switchOff(fail("switch.allowManagedHooksOnly", path, fmt.Sprintf("%s: allowManagedHooksOnly is true, %s in %s", path, claudeManagedOnlyWhy, user.Path), claudeAskAdmin)))
	}
	if !off {
		fs = append(fs, pass("switch.disableAllHooks", user.Path, "disableAllHooks is not set in "+strings.Join(append([]string{user.Path}, managed...), " and ")))
	}
	if last[claudeKeyManagedOnly] == "" && len(managed) > 0 {
		fs = append(fs, pass("switch.allowManagedHooksOnly", managed[0], "allowManagedHooksOnly is not set in "+strings.Join(managed, " and ")))
	}
	if mode := userKey("permissions").Get("defaultMode").String(); mode == "auto" {
		fs = append(fs, info("switch.defaultMode", user.Path, claudeAuto(user.Path)+"; working and done still do", "set it to \"default\" if you want attention reported when Claude asks"))
	}
	return fs
}

var claudeVersion = regexp.MustCompile(`Running: .*\(([0-9][^)]*)\)`)

// readClaudeDoctor reads `claude doctor`, which works offline in Claude Code
// 2.1.332 and lists under "Invalid settings" each settings file it could not
// parse and each entry it skipped (an unknown hook event, for one).
func readClaudeDoctor(in AskInput) []Check {
	file := in.Config
	version := "?"
	if m := claudeVersion.FindSubmatch(in.Out); m != nil {
		version = string(m[1])
	}
	var ours, others []string
	inList := false
	for _, line := range strings.Split(string(in.Out), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.TrimSpace(line) == "Invalid settings":
			inList = true
		case inList && strings.TrimSpace(line) == "":
			inList = false
		case inList && strings.HasPrefix(line, "- "):
			item := strings.TrimPrefix(line, "- ")
			if strings.HasPrefix(item, file) {
				ours = append(ours, item)
			} else {
				others = append(others, item)
			}
		}
	}
	var fs []Check
	if len(ours) == 0 && len(others) == 0 && !bytes.Contains(in.Out, []byte("Claude Code doctor")) {
		// Not the report we know (empty, or another format): no verdict.
		said := strings.TrimSpace(string(in.Out))
		if said == "" {
			said = "nothing"
		} else if first, _, _ := strings.Cut(said, "\n"); len(first) <= 120 {
			said = "\"" + first + "\""
		} else {
			said = "\"" + first[:120] + "...\""
		}
		return []Check{{ID: "binary.claude", Result: Info, File: file, Timed: true,
			Verdict: "claude doctor printed " + said + ", not the report hookinstall reads, so it gave no verdict on " + file,
			Hint:    "run 'claude doctor' yourself"}}
	}
	if len(ours) > 0 {
		fs = append(fs, Check{ID: "binary.claude", Result: Fail, File: file, Timed: true,
			Verdict: fmt.Sprintf("claude %s doctor says: %s", version, strings.Join(ours, "; ")),
			Hint:    "fix what it names in " + file + ", then run '" + in.T.Command("doctor") + "' again"})
	} else {
		fs = append(fs, Check{ID: "binary.claude", Result: Pass, File: file, Timed: true,
			Verdict: fmt.Sprintf("claude %s doctor reports no invalid settings in %s", version, file)})
	}
	if len(others) > 0 {
		fs = append(fs, info("binary.claude.other", "", fmt.Sprintf("claude %s doctor also says: %s", version, strings.Join(others, "; ")), ""))
	}
	return fs
}

// claudeRange: Claude Code honours a hook's terminalSequence from 2.1.141
// on (measured in the TUI, docs/agents.md "Versions"); 2.1.140 runs every
// hook and shows none of it.
var claudeRange = &Range{Program: "claude", Oldest: "2.1.141", Newest: "2.1.332", Floor: "2.1.140", Silent: []Gap{Approved, EscAsk, EscTurn},
	Older: []Older{{Below: "2.1.141",
		Refuse: "runs hooks but throws away the terminalSequence they print (honoured from 2.1.141 on), so no state of ours would reach your terminal; upgrade Claude Code, then run add again",
		Why:    "2.1.140 ran every hook in the TUI and no state reached the pty"}}}
