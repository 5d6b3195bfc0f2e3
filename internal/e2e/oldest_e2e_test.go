//go:build e2e

package e2e

import (
	"os"
	"testing"
	"time"
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
		form: "verbatim", hooks: true, userHooksFire: true, marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
	// below the range: add refuses (no terminalSequence before 2.1.141)
	{name: "claude-2.1.140", agent: "claude", version: "2.1.140", who: "claude 2.1.140 (refused)",
		refused: "Claude Code 2.1.140", marker: "claude-marker.txt", fixture: claudeFixture, drive: claudeDrive},
	// Kimi Code's TUI before 2.x differs from the pin's (no folder-trust
	// dialog, another approval dialog): these run it headless (kimi -p), which
	// approves the tool itself, so the states are working and done
	{name: "kimi-0.20.0", agent: "kimi", version: "0.20.0", who: "kimi 0.20.0 (oldest, kimi -p)",
		form: "verbatim", hooks: true, userHooksFire: true, marker: "kimi-marker.txt", expect: []string{"working", "done"},
		fixture: kimiPrint(without(kimiUserEvents, "TurnStarted")), drive: printDrive},
	// below the range: no Interrupt (0.10.0 refuses to start with one)
	{name: "kimi-0.10.0", agent: "kimi", version: "0.10.0", who: "kimi 0.10.0 (no Interrupt, kimi -p)",
		form: "verbatim", hooks: true, userHooksFire: true, marker: "kimi-marker.txt", expect: []string{"working", "done"},
		fixture: kimiPrint(without(kimiUserEvents, "TurnStarted", "Interrupt")), drive: printDrive},
	// qwen: the user's recorder must log every event ours share with it
	{name: "qwen-0.21.2", agent: "qwen", version: "0.21.2", who: "qwen 0.21.2 (oldest, timeouts in ms)",
		form: "verbatim", hooks: true, userHooksFire: true, userEvents: qwenOurEvents, marker: "qwen-marker.txt",
		expect: []string{"working", "attention", "working", "done"}, fixture: qwenFixture, drive: qwenDrive},
	// below the range: timeouts in milliseconds
	{name: "qwen-0.15.10", agent: "qwen", version: "0.15.10", who: "qwen 0.15.10 (timeouts in ms)",
		form: "verbatim", hooks: true, userHooksFire: true, userEvents: qwenOurEvents, marker: "qwen-marker.txt",
		expect: []string{"working", "attention", "working", "done"}, fixture: qwenFixture, drive: qwenDrive},
	{name: "gemini-0.34.0", agent: "gemini", version: "0.34.0", who: "gemini 0.34.0 (oldest)",
		form: "verbatim", hooks: true, userHooksFire: true, marker: "gemini-marker.txt",
		expect: []string{"working", "attention", "working", "done"}, fixture: geminiFixture, drive: geminiDrive},
	{name: "opencode-1.3.2", agent: "opencode", version: "1.3.2", who: "opencode 1.3.2 (oldest)",
		form: "verbatim", hooks: true, userHooksFire: true, marker: "opencode-marker.txt",
		// 1.3.2 sends session.idle before session.error MessageAbortedError
		// when a turn is stopped: done, then interrupted (the pin: interrupted)
		expect:  append(append([]string(nil), pluginTurns[:len(pluginTurns)-1]...), "done", "interrupted"),
		fixture: opencodeFixture, drive: opencodeDrive},
	{name: "pi-0.52.12", agent: "pi", version: "0.52.12", who: "pi 0.52.12 (oldest)",
		form: "verbatim", hooks: true, userHooksFire: true, marker: "pi-marker.txt",
		expect: []string{"working", "done", "working", "interrupted"}, fixture: piFixture, drive: piDrive},
	// Copilot CLI 1.0.39's TUI differs from the pin's (another ready screen,
	// no hook files in /env): it runs headless (copilot -p, every tool
	// allowed), which asks nothing, so the states are working and done
	{name: "copilot-1.0.39", agent: "copilot", version: "1.0.39", who: "copilot 1.0.39 (oldest, copilot -p)",
		form: "verbatim", hooks: true, userHooksFire: true, marker: "copilot-marker.txt", expect: []string{"working", "done"},
		fixture: func(r *run) {
			copilotFixture(r)
			r.args = []string{"-p", thePrompt, "--allow-all-tools"}
		}, drive: printDrive},
}

// kimiPrint is kimiFixtureOn(events) for a headless run of the prompt.
func kimiPrint(events []string) func(r *run) {
	return func(r *run) {
		kimiFixtureOn(r, events)
		r.args = []string{"-p", thePrompt}
	}
}

// printDrive waits for a headless run (the prompt is in r.args) to exit.
func printDrive(r *run) {
	end := time.Now().Add(120 * time.Second)
	for time.Now().Before(end) && !r.paneDead() {
		time.Sleep(200 * time.Millisecond)
	}
	if !r.paneDead() {
		r.problem("the headless run did not exit within 120s")
	}
	r.snap("done")
	r.quit("C-c")
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

// qwenOurEvents: the events of ours in a Qwen turn with one approval, the
// user's recorder on each as well (0.21.2 killed both after their timeout
// in milliseconds: the recorder logged 1 or 2 of 10 calls)
var qwenOurEvents = []string{"UserPromptSubmit", "Notification", "PreToolUse", "Stop"}
