//go:build e2e

package e2e

import (
	"os"
	"testing"
)

// oldestRun reports whether this is make e2e-oldest (HOOKINSTALL_E2E_OLDEST=1):
// TestOldest runs, and the npm installs are its versions, not the pins.
func oldestRun() bool { return os.Getenv("HOOKINSTALL_E2E_OLDEST") == "1" }

// oldestCases run each agent at the oldest version of its measured range
// (adapters' Range.Oldest, docs/agents.md "Versions") with the pinned cases'
// fixtures, drives and exact-bytes checks, and one case per version that add
// refuses or reduces: the agent still starts and the user's own hooks still
// fire.
var oldestCases = []agentCase{
	{name: "claude-2.1.141", agent: "claude", version: "2.1.141", who: "claude 2.1.141 (oldest)",
		form: "verbatim", hooks: true, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
	// below the range: add refuses (no terminalSequence before 2.1.141)
	{name: "claude-2.1.140", agent: "claude", version: "2.1.140", who: "claude 2.1.140 (refused)",
		refused: "Claude Code 2.1.140", marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
	{name: "kimi-0.20.0", agent: "kimi", version: "0.20.0", who: "kimi 0.20.0 (oldest)",
		form: "verbatim", hooks: true, marker: "kimi-marker.txt",
		expect:  []string{"working", "attention", "done", "working", "attention", "interrupted"},
		fixture: func(r *run) { kimiFixtureOn(r, without(kimiUserEvents, "TurnStarted")) }, drive: kimiDrive},
	// below the range: no Interrupt (0.10.0 refuses to start with one), so the
	// interrupted turn reports nothing after attention
	{name: "kimi-0.10.0", agent: "kimi", version: "0.10.0", who: "kimi 0.10.0 (no Interrupt)",
		form: "verbatim", hooks: true, marker: "kimi-marker.txt",
		expect:  []string{"working", "attention", "done", "working", "attention"},
		fixture: func(r *run) { kimiFixtureOn(r, without(kimiUserEvents, "TurnStarted", "Interrupt")) }, drive: kimiDrive},
	{name: "qwen-0.21.2", agent: "qwen", version: "0.21.2", who: "qwen 0.21.2 (oldest)",
		form: "verbatim", hooks: true, marker: "qwen-marker.txt",
		expect: []string{"working", "attention", "working", "done"}, fixture: qwenFixture, drive: qwenDrive},
	// below the range: timeouts in milliseconds
	{name: "qwen-0.15.10", agent: "qwen", version: "0.15.10", who: "qwen 0.15.10 (timeouts in ms)",
		form: "verbatim", hooks: true, marker: "qwen-marker.txt",
		expect: []string{"working", "attention", "working", "done"}, fixture: qwenFixture, drive: qwenDrive},
	{name: "gemini-0.34.0", agent: "gemini", version: "0.34.0", who: "gemini 0.34.0 (oldest)",
		form: "verbatim", hooks: true, marker: "gemini-marker.txt",
		expect: []string{"working", "attention", "done"}, fixture: geminiFixture, drive: geminiDrive},
	{name: "opencode-1.3.2", agent: "opencode", version: "1.3.2", who: "opencode 1.3.2 (oldest)",
		form: "verbatim", hooks: true, marker: "opencode-marker.txt", expect: pluginTurns,
		fixture: opencodeFixture, drive: opencodeDrive},
	{name: "pi-0.52.12", agent: "pi", version: "0.52.12", who: "pi 0.52.12 (oldest)",
		form: "verbatim", hooks: true, marker: "pi-marker.txt",
		expect: []string{"working", "done", "working", "interrupted"}, fixture: piFixture, drive: piDrive},
	{name: "copilot-1.0.39", agent: "copilot", version: "1.0.39", who: "copilot 1.0.39 (oldest)",
		form: "verbatim", hooks: true, marker: "copilot-marker.txt", fixture: copilotFixture, drive: copilotDrive},
}

func without(evs []string, drop ...string) []string {
	var out []string
	for _, e := range evs {
		keep := true
		for _, d := range drop {
			keep = keep && e != d
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

func TestOldest(t *testing.T) {
	if !oldestRun() {
		t.Skip("make e2e-oldest runs these (HOOKINSTALL_E2E_OLDEST=1)")
	}
	for _, c := range oldestCases {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}
