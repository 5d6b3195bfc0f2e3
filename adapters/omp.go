package adapters

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// omp is oh-my-pi (@oh-my-pi/pi-coding-agent, Pi's fork; measured on
// 18.2.3): our own extension ~/.omp/agent/extensions/<NS>.ts on Pi's API
// ($PI_CODING_AGENT_DIR replaces ~/.omp/agent; $OMP_PROFILE=<p> moves it
// to ~/.omp/profiles/<p>/agent), loaded in-process by its Bun runtime. It
// does not read Pi's ~/.pi, and Pi does not read ~/.omp: each gets its own
// file, rendered from the same template (ompExtension). oh-my-pi asks before
// a tool only when tools.approvalMode says so; its default, "yolo",
// approves everything, so attention then never fires. An agent_end that
// says willContinue (a retry or continuation follows at once) reports
// nothing.
// ompExtension is Pi's module with oh-my-pi's approvals
// (tool_approval_requested) and its willContinue.
var ompExtension = scripts.Extension{Product: "oh-my-pi", Approval: true, Continues: true, Own: ompOwn}

// ompOwn: 18.2.3's completion.notify, on by default, notifies every
// finished turn itself, focused or not: OSC 99 in kitty, OSC 9 in Ghostty,
// WezTerm, iTerm2 and Warp, a BEL elsewhere (where ours is OSC 9 or a BEL
// too, it is the one); its 9;4 progress is off by default (docs/agents.md
// "Its own notifications").
var ompOwn = &terminal.Own{Notifies: []terminal.State{terminal.Done},
	In:     []string{"kitty", "ghostty", "wezterm", "iterm2", "warp", "osc9", "bell"},
	InTmux: []string{"kitty", "ghostty", "wezterm", "iterm2", "warp", "osc9", "bell"},
	// Warp's sidebar takes its own events (Warp's listener), which pass
	// tmux as its notifications do
	Holds: []terminal.Status{terminal.WarpEvents}, HoldsInTmux: []terminal.Status{terminal.WarpEvents}}

func init() {
	register(&Agent{
		ID: "omp", Product: "oh-my-pi", Programs: []string{"omp"}, WindowsHooks: plugin, ShowsItself: ompOwn,
		// Pi follows $PI_CODING_AGENT_DIR too: with it set, both agents use
		// one folder, so ours keeps its own hooks dir (and manifest) there.
		SharesDir: true,
		Dir: func(home string, getenv func(string) string) (string, string) {
			if getenv != nil {
				if p := getenv("OMP_PROFILE"); p != "" {
					return filepath.Join(home, ".omp", "profiles", p, "agent"), "OMP_PROFILE"
				}
			}
			return envDir(getenv, "PI_CODING_AGENT_DIR", filepath.Join(home, ".omp", "agent"))
		},
		Reads: func(t Target) []string { return []string{ompConfig(t)} },
		Hooks: []Hook{
			{Event: "agent_start", State: terminal.Working},
			{Event: "tool_approval_requested", State: terminal.Attention, Note: "only when tools.approvalMode asks (the default, yolo, never does)"},
			{Event: "tool_approval_resolved", State: terminal.Working, Note: "the user's answer to the prompt, approved or not"},
			{Event: "agent_end", State: terminal.Done, Note: "when the prompt's last assistant message did not stop with stopReason aborted, and willContinue is not true"},
			{Event: "agent_end", State: terminal.Interrupted, Note: "when the prompt's last assistant message has stopReason aborted (Esc)"},
		},
		Format: Module{Sub: "extensions", Ext: ".ts", TwinWhy: "oh-my-pi loads extensions/*.ts, *.js and */index.ts alike",
			Twins: extensionTwins},
		check: func(_ *Agent, t Target, _ []byte, files map[string][]byte) ([]string, error) {
			var notes []string
			if n := ompApproval(ompConfig(t), files[ompConfig(t)]); n != "" {
				notes = append(notes, n)
			}
			return notes, nil
		},
		Switches: ompSwitches,
		Plugin: &Plugin{
			Render: ompExtension.Render, Header: ompExtension.Header,
			OnAPI: true,
			// oh-my-pi runs on Bun (its cli.js starts #!/usr/bin/env bun),
			// so Bun is on the PATH of anyone who runs it; node otherwise.
			Runtime: "bun", RuntimeName: "oh-my-pi's Bun runtime",
			Cases: []PluginCase{
				{"fire.working", "agent_start", terminal.Working},
				{"fire.attention", "tool_approval_requested", terminal.Attention},
				{"fire.approved", "tool_approval_resolved", terminal.Working},
				{"fire.denied", "tool_approval_resolved.denied", terminal.Working},
				{"fire.done", "agent_end", terminal.Done},
				{"fire.interrupted", "agent_end.aborted", terminal.Interrupted},
			},
		},
		Payloads:       "omp",
		Range:          ompRange,
		ProjectConfigs: []string{".omp/extensions/*.ts", ".omp/extensions/*.js", ".omp/extensions/*/index.ts"},
	})
}

// ompConfig is oh-my-pi's settings file, YAML.
func ompConfig(t Target) string { return filepath.Join(t.Dir, "config.yml") }

// ompApprovalLine finds tools.approvalMode in config.yml, block style
// (an indented "approvalMode:" under a top-level "tools:") or flow style
// ("tools: {approvalMode: ...}"). hookinstall reads no YAML beyond that.
var (
	ompTopKey       = regexp.MustCompile(`^([A-Za-z0-9_]+):`)
	ompApprovalLine = regexp.MustCompile(`^\s+approvalMode:\s*["']?([A-Za-z-]+)`)
	ompApprovalFlow = regexp.MustCompile(`^tools:\s*\{.*\bapprovalMode:\s*["']?([A-Za-z-]+)`)
)

// ompApprovalMode is tools.approvalMode as config.yml sets it, or "".
func ompApprovalMode(data []byte) string {
	inTools := false
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimRight(l, "\r")
		if m := ompApprovalFlow.FindStringSubmatch(l); m != nil {
			return m[1]
		}
		if m := ompTopKey.FindStringSubmatch(l); m != nil {
			inTools = m[1] == "tools"
			continue
		}
		if m := ompApprovalLine.FindStringSubmatch(l); inTools && m != nil {
			return m[1]
		}
	}
	return ""
}

// ompApproval says what oh-my-pi's approval mode does to the attention
// state: its default, "yolo", approves every tool call itself.
func ompApproval(config string, data []byte) string {
	switch mode := ompApprovalMode(data); mode {
	case "":
		return fmt.Sprintf("%s: tools.approvalMode is not set, so oh-my-pi runs in its default \"yolo\" mode: it approves every tool call itself, so attention never fires", config)
	case "yolo":
		return fmt.Sprintf("%s: tools.approvalMode is \"yolo\": oh-my-pi approves every tool call itself, so attention never fires", config)
	}
	return ""
}

// ompDisabled says whether config.yml's disabledExtensions names ours
// ("extension-module:<NS>"), which oh-my-pi then does not load.
func ompDisabled(t Target, data []byte) string {
	id := "extension-module:" + t.NS
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(id) + `($|[^A-Za-z0-9_-])`)
	for _, l := range strings.Split(string(data), "\n") {
		if c, _, _ := strings.Cut(l, "#"); re.MatchString(c) {
			return fmt.Sprintf("%s names %s (disabledExtensions)", ompConfig(t), id)
		}
	}
	return ""
}

// ompSwitches checks disabledExtensions and reports the approval mode.
func ompSwitches(in Input) []Check {
	cfg := in.File(ompConfig(in.T))
	var fs []Check
	if n := ompDisabled(in.T, cfg.Data); n != "" {
		fs = append(fs, switchOff(fail("switch.disabledExtensions", cfg.Path, n+", so oh-my-pi does not load our extension", "take it out of disabledExtensions")))
	} else {
		fs = append(fs, pass("switch.disabledExtensions", cfg.Path, "disabledExtensions does not name extension-module:"+in.T.NS+" in "+cfg.Path))
	}
	if n := ompApproval(cfg.Path, cfg.Data); n != "" {
		fs = append(fs, info("switch.approvalMode", cfg.Path, n+"; working and done still do", "set tools.approvalMode to \"always-ask\" (or \"write\") if you want attention reported when oh-my-pi asks"))
	}
	return fs
}

// ompRange: the versions measured with our hooks (docs/agents.md "omp").
// 18.2.3 is the newest whose pinned dependencies all exist in the npm
// registry here.
var ompRange = &Range{Program: "omp", Oldest: "18.2.3", Newest: "18.2.3"}
