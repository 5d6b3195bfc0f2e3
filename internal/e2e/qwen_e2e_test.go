//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/e2e/fakemodel"
)

// qwenUserHooks renders the user's own hooks for Qwen Code: the recorder on
// every event of a turn, in Claude's shape with an empty matcher.
func qwenUserHooks(r *run, events ...string) string {
	return hookGroups(r, events, func(string) []string { return []string{`"matcher": ""`} }, func(_, cmd string) []string {
		return []string{`"type": "command"`, `"command": ` + js(cmd), `"timeout": ` + qwenUserTimeout(r)}
	})
}

// qwenFixture: Qwen Code 0.24.4 against the fake model's Chat Completions API
// (--auth-type openai), in the default approval mode (it starts in auto
// mode, whose classifier would decide instead of the user), no update check.
// "$version" is there already: Qwen adds it to a file that lacks it, at start.
func qwenFixture(r *run) {
	r.writeFile(".qwen/settings.json", fmt.Sprintf(`{
  "$version": 4,
  "tools": {
    "approvalMode": "default"
  },
  "general": {
    "enableAutoUpdate": false
  },
  "hooks": %s
}
`, qwenUserHooks(r, "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "Notification",
		"PostToolUse", "Stop", "SessionEnd")), 0o644)
	r.env = []string{"OPENAI_BASE_URL=" + r.srv.URL + "/v1", "OPENAI_API_KEY=fake-key-123", "OPENAI_MODEL=fake-model"}
	r.args = []string{"--auth-type", "openai"}
}

func qwenDrive(r *run) {
	if !r.need(`Type your message`, 150*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return
	}
	time.Sleep(2 * time.Second)
	r.snap("ready")
	// "1. Yes, allow once" is preselected
	if !r.approvedTurn(`Allow execution of`, 90*time.Second, "C-u", "/quit", "Enter") {
		return
	}
	r.quit("C-u", "/quit", "Enter")
}

// qwenInterruptDrive approves a command that runs on (the fake model's
// "slowly"), then stops it with Esc: Qwen fires PostToolUseFailure with
// is_interrupt true, and no Stop.
func qwenInterruptDrive(r *run) {
	if !r.need(`Type your message`, 150*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return
	}
	time.Sleep(2 * time.Second)
	r.snap("ready")
	r.prompt(thePrompt + " " + fakemodel.SlowWord)
	if !r.need(`Allow execution of`, 90*time.Second, "permission", "no permission prompt ('Allow execution of')", "C-u", "/quit", "Enter") {
		return
	}
	r.snap("permission")
	r.waitOSC(hasState("attention"), 8*time.Second)
	since := time.Now()
	r.approve(`Allow execution of`, "Enter")
	// the command runs (touch, then a long sleep): stop it
	if !r.waitRunning(since, 20*time.Second) {
		r.note("the approved command had not run within 20s")
	}
	r.snap("running")
	r.keys("Escape")
	if !r.waitOSC(hasState("interrupted"), 15*time.Second) {
		r.note("no interrupted OSC within 15s of the Escape")
	}
	r.snap("interrupted")
	time.Sleep(2 * time.Second) // nothing may follow
	r.quit("C-u", "/quit", "Enter")
}

// TestQwen: Qwen Code reports working, attention, working again (it fires
// UserPromptSubmit with an empty prompt when it sends the approved tool's
// result), then done; and, when the user stops the approved command with
// Esc, working, attention, interrupted and nothing after.
func TestQwen(t *testing.T) {
	t.Run("turn", func(t *testing.T) {
		runCase(t, agentCase{name: "qwen", agent: "qwen", who: "qwen",
			form: "verbatim", hooks: true, marker: "qwen-marker.txt",
			expect:  []string{"working", "attention", "working", "done"},
			fixture: qwenFixture, drive: qwenDrive})
	})
	t.Run("interrupt", func(t *testing.T) {
		runCase(t, agentCase{name: "qwen-interrupt", agent: "qwen", who: "qwen (Esc while the approved command runs)",
			form: "verbatim", hooks: true, marker: "qwen-marker.txt",
			expect:  []string{"working", "attention", "working", "interrupted"},
			fixture: qwenFixture, drive: qwenInterruptDrive})
	})
}

// qwenUserTimeout is the user's own hooks' timeout, 10 s in the unit of the
// Qwen Code that runs: up to 0.23.3 it reads milliseconds (0.15.10 and 0.21.2
// killed a hook with 10 after 10 ms).
func qwenUserTimeout(r *run) string {
	if adapters.CompareVersions(r.bin.pin, "0.23.4") < 0 {
		return "10000"
	}
	return "10"
}
