//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// copilotEvents are the hook events the fixture's recorder logs: every one
// GitHub Copilot CLI 1.0.102 lists.
var copilotEvents = []string{"sessionStart", "userPromptSubmitted", "preToolUse", "permissionRequest",
	"notification", "postToolUse", "postToolUseFailure", "agentStop", "errorOccurred", "sessionEnd"}

func copilotFixture(r *run) {
	// The user's own hooks, in a file of theirs beside ours: the recorder on
	// every event.
	rec := r.writeFile(filepath.Join(r.dir, "recorder.sh"), recorderScript, 0o755)
	var b strings.Builder
	b.WriteString("{\n  \"version\": 1,\n  \"hooks\": {\n")
	for i, ev := range copilotEvents {
		fmt.Fprintf(&b, "    %s: [{\"type\": \"command\", \"bash\": %s, \"timeoutSec\": 10}]", js(ev), js(rec+" "+r.rec+" "+ev))
		if i < len(copilotEvents)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  }\n}\n")
	r.writeFile(".copilot/hooks/e2e-recorder.json", b.String(), 0o644)
	// Copilot keeps machine state in config.json (JSONC); the folder trust it
	// records there ("Yes, and remember this folder") skips the trust dialog.
	r.writeFile(".copilot/config.json", fmt.Sprintf(`// User settings belong in settings.json.
// This file is managed automatically.
{
  "firstLaunchAt": "2026-11-30T19:17:14.196Z",
  "appTipShown": true,
  "trustedFolders": [
    %s
  ]
}
`, js(r.work)), 0o600)
	r.writeFile(".copilot/settings.json", "{\n  \"banner\": \"never\",\n  \"showTipsOnStartup\": false\n}\n", 0o644)
	r.env = []string{
		"COPILOT_OFFLINE=true", // no GitHub, no telemetry, no update
		"COPILOT_PROVIDER_BASE_URL=" + r.srv.URL + "/v1",
		"COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_API_KEY=fake-key-123",
		"COPILOT_MODEL=gpt-4.1", "COPILOT_AUTO_UPDATE=false",
	}
}

func copilotDrive(r *run) {
	ready := `Interactive ·|Confirm folder trust`
	if !r.need(ready, 90*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return
	}
	if strings.Contains(r.screen(), "Confirm folder trust") {
		r.note("copilot asked to trust the folder despite trustedFolders in config.json; answered Yes")
		time.Sleep(time.Second)
		r.keys("Enter")
		r.waitScreen(`Interactive ·`, 20*time.Second)
	}
	time.Sleep(time.Second)
	r.snap("ready")
	// Ask the binary what it loaded: /env lists the hooks and their files.
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", "/env")
	_, _ = r.tm("send-keys", "-t", r.sess, "Enter")
	ours := regexp.QuoteMeta(filepath.Join(r.home, ".copilot", "hooks", ns+".json"))
	if r.waitScreen(`agentStop: .*`+ours, 15*time.Second) || r.waitScreen(ours, 2*time.Second) {
		r.note("copilot /env lists our hooks file %s", filepath.Join(r.home, ".copilot", "hooks", ns+".json"))
	} else {
		r.snap("env")
		r.problem("copilot's /env does not list %s among the loaded hooks", filepath.Join(r.home, ".copilot", "hooks", ns+".json"))
	}
	r.snap("env")
	r.keys("Escape")
	time.Sleep(time.Second)
	// "1. Yes"
	if !r.approvedTurn(`Do you want to run this command`, 60*time.Second, "C-c", "C-c") {
		return
	}
	r.quit("C-c", "C-c")
}

func TestCopilot(t *testing.T) {
	runCase(t, agentCase{name: "copilot", agent: "copilot", who: "copilot",
		form: "verbatim", hooks: true, marker: "copilot-marker.txt",
		fixture: copilotFixture, drive: copilotDrive})
}
