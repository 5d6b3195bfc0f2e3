//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/e2e/fakemodel"
)

// ---------------------------------------------------------------- kimi

// kimiFixture: ~/.kimi-code/config.toml, the user's whole Kimi Code config: a
// provider of type openai on the fake server, the model, and the user's own
// recorder hooks as [[hooks]] tables.
func kimiFixture(r *run) {
	kimiFixtureOn(r, kimiUserEvents)
}

// kimiUserEvents are the events the user's recorder hooks are on (every one
// Kimi Code 2.1.0 fires in a turn).
var kimiUserEvents = []string{"SessionStart", "UserPromptSubmit", "TurnStarted", "PreToolUse", "PermissionRequest",
	"PermissionResult", "PostToolUse", "PostToolUseFailure", "Stop", "Interrupt", "SessionEnd"}

// kimiFixtureOn is kimiFixture with the user's hooks on events: an older Kimi
// Code ignores every hook of a config that names one event it does not know.
func kimiFixtureOn(r *run, events []string) {
	rec := r.writeFile(filepath.Join(r.dir, "recorder.sh"), recorderScript, 0o755)
	var b strings.Builder
	fmt.Fprintf(&b, `# e2e fixture: a custom provider on the fake model server
default_model = "fake"

[providers.fake]
type = "openai"
base_url = %s
api_key = "fake-key-123"

[models.fake]
provider = "fake"
model = "fake-model"
max_context_size = 128000
`, js(r.srv.URL+"/v1"))
	for _, ev := range events {
		fmt.Fprintf(&b, "\n[[hooks]]\nevent = %s\ncommand = %s\n", js(ev), js(rec+" "+r.rec+" "+ev))
	}
	r.writeFile(".kimi-code/config.toml", b.String(), 0o644)
	r.env = []string{"KIMI_CODE_NO_AUTO_UPDATE=1", "KIMI_CLI_NO_AUTO_UPDATE=1"}
}

// kimiStart waits for Kimi Code's prompt, trusting the folder on the way;
// false (after quitting) when the TUI never came up.
func kimiStart(r *run) bool {
	if !r.need(`Trust this folder\?|No session yet`, 90*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return false
	}
	if strings.Contains(r.screen(), "Trust this folder?") {
		r.snap("folder-trust")
		r.keys("Enter") // ❯ Trust this folder
	}
	if !r.waitScreen(`No session yet`, 30*time.Second) {
		r.problem("the prompt did not come up after the folder-trust dialog")
	}
	time.Sleep(time.Second)
	r.snap("ready")
	return true
}

// kimiQuit types /exit and, once Kimi Code shows it, Enter.
func kimiQuit(r *run) {
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", "/exit")
	r.waitScreen(`/exit`, 5*time.Second)
	r.quit("Enter", "C-c", "C-c")
}

// kimiRejectDrive: one turn whose approval dialog is answered with Escape (a
// Reject): the model is told and answers, and the turn ends with Stop.
func kimiRejectDrive(r *run) {
	if kimiStart(r) && r.answeredTurn(`Run this command\?`, "Escape", 60*time.Second, "C-c", "C-c") {
		kimiQuit(r)
	}
}

// kimiDrive: one approved turn, then a second prompt whose command runs on
// (the fake model's slow command), approved and then interrupted with Escape.
func kimiDrive(r *run) {
	if !kimiStart(r) {
		return
	}
	// ▶ 1. Approve once
	if !r.approvedTurn(`Run this command\?`, 60*time.Second, "C-c", "C-c") {
		return
	}

	// the second turn: approved, then Escape while the command runs
	n := len(OfNS(r.osc(), ns))
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", thePrompt+" "+fakemodel.SlowWord)
	time.Sleep(500 * time.Millisecond)
	r.keys("Enter")
	if !r.need(`Run this command\?`, 60*time.Second, "permission-2", "no approval dialog in the second turn", "C-c", "C-c") {
		return
	}
	r.waitOSC(func(s []OSC) bool { return len(s) >= n+2 }, 8*time.Second) // working, attention
	since := time.Now()
	r.approve(`Run this command\?`, "Enter")
	if !r.waitRunning(since, 20*time.Second) {
		r.note("the approved command had not run within 20s")
	}
	r.snap("running")
	r.keys("Escape")
	if !r.waitOSC(hasState("interrupted"), 10*time.Second) {
		r.note("no interrupted OSC within 10s of the Escape")
	}
	r.waitScreen(`Interrupted by user`, 5*time.Second)
	r.snap("interrupted")
	kimiQuit(r)
}

func TestKimi(t *testing.T) {
	t.Run("turn", func(t *testing.T) {
		runCase(t, agentCase{name: "kimi", agent: "kimi", who: "kimi",
			form: "verbatim", hooks: true, marker: "kimi-marker.txt",
			expect:  []string{"working", "attention", "working", "done", "working", "attention", "working", "interrupted"},
			fixture: kimiFixture, drive: kimiDrive})
	})
	// Escape on the approval dialog rejects the call; the turn goes on (the
	// model answers the rejection), so the tab says working until Stop.
	t.Run("reject", func(t *testing.T) {
		extendWatchdog(60 * time.Second)
		runCase(t, agentCase{name: "kimi-reject", agent: "kimi", who: "kimi (Escape at the approval dialog)",
			form: "verbatim", hooks: true, marker: "kimi-marker.txt", declined: true,
			expect:  []string{"working", "attention", "working", "done"},
			fixture: kimiFixture, drive: kimiRejectDrive})
	})
}
