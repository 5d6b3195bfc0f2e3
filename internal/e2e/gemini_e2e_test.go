//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// geminiUserHooks renders the user's own hooks for Gemini CLI: the recorder
// on every event of a turn, in Gemini's shape (named handlers, timeout in
// milliseconds), at depth 1 with a 2-space indent.
func geminiUserHooks(r *run, events ...string) string {
	return hookGroups(r, events, func(string) []string { return nil }, func(ev, cmd string) []string {
		return []string{`"name": ` + js("recorder-"+ev), `"type": "command"`, `"command": ` + js(cmd), `"timeout": 10000`}
	})
}

// geminiFixture: Gemini CLI 0.61.0 against the fake model's Gemini API
// (GOOGLE_GEMINI_BASE_URL with an API key), the work dir trusted (in an
// untrusted folder Gemini runs no hooks at all), no update check, no usage
// statistics. The settings use no deprecated key: Gemini would rewrite the
// file at start-up to migrate it.
func geminiFixture(r *run) {
	r.writeFile(".gemini/settings.json", fmt.Sprintf(`{
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  },
  "general": {
    "enableAutoUpdate": false,
    "enableAutoUpdateNotification": false
  },
  "privacy": {
    "usageStatisticsEnabled": false
  },
  "hooks": %s
}
`, geminiUserHooks(r, "SessionStart", "BeforeAgent", "BeforeTool", "Notification", "AfterTool", "AfterAgent", "SessionEnd")), 0o644)
	r.writeFile(".gemini/trustedFolders.json", fmt.Sprintf("{\n  %s: \"TRUST_FOLDER\"\n}", js(r.work)), 0o600)
	r.env = []string{"GOOGLE_GEMINI_BASE_URL=" + r.srv.URL, "GEMINI_API_KEY=fake-key-123"}
}

// geminiReady waits for Gemini's prompt box: false (Gemini quit) when it
// never comes, or when Gemini asks to trust the folder.
func geminiReady(r *run) bool {
	if !r.need(`Type your message`, 120*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return false
	}
	if strings.Contains(r.screen(), "Do you trust") {
		r.snap("trust")
		r.problem("gemini asked to trust the folder although trustedFolders.json trusts it")
		r.quit("C-c", "C-c")
		return false
	}
	return true
}

func geminiDrive(r *run) {
	if !geminiReady(r) {
		return
	}
	r.snap("ready")
	// "1. Allow once" is preselected
	if !r.approvedTurn(`Allow execution of`, 90*time.Second, "C-c", "C-c") {
		return
	}
	r.quit("C-c", "C-c")
}

// TestGemini: Gemini CLI reports working, attention and done, in that order,
// exactly once each, and has no interrupted state.
func TestGemini(t *testing.T) {
	runCase(t, agentCase{name: "gemini", agent: "gemini", who: "gemini",
		form: "verbatim", hooks: true, marker: "gemini-marker.txt",
		expect:  []string{"working", "attention", "working", "done"},
		fixture: geminiFixture, drive: geminiDrive})
}
