//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/e2e/fakemodel"
)

// droidUserHooks renders the user's own hooks for Factory Droid: the
// recorder on each event, in Claude's shape, as droid itself writes them.
func droidUserHooks(r *run, events ...string) string {
	return hookGroups(r, events, func(string) []string { return nil }, func(_, cmd string) []string {
		return []string{`"type": "command"`, `"command": ` + js(cmd), `"timeout": 10`}
	})
}

// droidFixture: Factory Droid 0.225.2 in airgap mode (no account) with the fake
// model as its one custom model (Chat Completions), the work folder trusted,
// and settings.json in the form droid writes it (JSON.stringify, two spaces,
// the fields it adds, no final newline) and mode (0600), so that droid's
// rewrite at start leaves it as it is (measured: same bytes, mode 0600).
// The user's hooks are in both files droid reads: settings.json holds Stop,
// Notification and the tool events, hooks.json SessionStart and
// UserPromptSubmit, so hookinstall puts ours for UserPromptSubmit into
// hooks.json (where droid reads that event) and the others into
// settings.json: the real binary runs both files.
func droidFixture(r *run) {
	r.writeFile(".factory/settings.json", fmt.Sprintf(`{
  "customModels": [
    {
      "model": "fake-model",
      "id": "custom:Fake-0",
      "index": 0,
      "baseUrl": %s,
      "apiKey": "fake-key",
      "displayName": "Fake",
      "maxOutputTokens": 4096,
      "noImageSupport": true,
      "provider": "generic-chat-completion-api"
    }
  ],
  "hooks": %s,
  "trustedFolders": {
    %s: {
      "trustedAt": "2026-12-01T00:00:00.000Z"
    }
  },
  "logoAnimation": "off"
}`, js(r.srv.URL+"/v1"), droidUserHooks(r, "PreToolUse", "Notification", "PostToolUse", "Stop", "SessionEnd"), js(r.work)), 0o600)
	r.writeFile(".factory/hooks.json", droidUserHooks(r, "SessionStart", "UserPromptSubmit")+"\n", 0o644)
	r.env = []string{"FACTORY_AIRGAP_ENABLED=1"}
}

// droidReady is the prompt line of droid's TUI, once the custom model is
// selected.
const droidReady = `for help`

// droidDrive: one approved turn (working, attention, done), then a prompt
// whose answer keeps streaming, stopped with Esc: droid fires Notification
// idle_prompt and no Stop (interrupted).
func droidDrive(r *run) {
	if !r.need(droidReady, 120*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return
	}
	time.Sleep(2 * time.Second)
	r.snap("ready")
	// "Yes, allow" is preselected
	if !r.approvedTurn(`Command to approve`, 90*time.Second, "Escape", "C-c", "C-c") {
		return
	}
	// the second turn: text that keeps streaming, stopped with Esc
	time.Sleep(2 * time.Second)
	r.prompt("say something " + fakemodel.StallWord)
	if !r.waitScreen(`(?i)esc to stop`, 30*time.Second) {
		r.note("no 'ESC to stop' hint on screen within 30s of the second prompt")
	}
	time.Sleep(3 * time.Second)
	r.snap("streaming")
	r.keys("Escape")
	if !r.waitOSC(hasState("interrupted"), 15*time.Second) {
		r.note("no interrupted OSC within 15s of the Escape")
	}
	r.snap("interrupted")
	time.Sleep(2 * time.Second) // nothing may follow
	r.quit("C-c", "C-c")
}

// TestDroid: Factory Droid reports working, attention and done for an
// approved turn, then working and interrupted for a turn stopped with Esc
// while the model streams, from entries of ours in both of its files.
func TestDroid(t *testing.T) {
	runCase(t, agentCase{name: "droid", agent: "droid", who: "droid",
		form: "verbatim", hooks: true, marker: "droid-marker.txt",
		expect:  []string{"working", "attention", "working", "done", "working", "interrupted"},
		fixture: droidFixture, drive: droidDrive})
}
