//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/e2e/fakemodel"
)

// ompRecorder is the fixture user's own oh-my-pi extension: it logs the
// events of a turn in the recorder's format (agent_end with the stopReason
// of the last assistant message and willContinue).
const ompRecorder = `// e2e fixture: the user's own extension. Logs the events of a turn.
` + jsRecorder + `
export default function (pi) {
  for (const ev of ["session_start", "agent_start", "tool_approval_requested", "tool_approval_resolved", "tool_execution_start", "tool_execution_end", "agent_end", "session_shutdown"]) {
    pi.on(ev, async (event) => {
      let p = event;
      if (ev === "agent_end") {
        const last = [...((event && event.messages) || [])].reverse().find((m) => m && m.role === "assistant");
        p = { type: "agent_end", messages: (event.messages || []).length, stopReason: last && last.stopReason, willContinue: event.willContinue };
      }
      rec(ev, p);
    });
  }
}
`

// ompFixture: oh-my-pi 18.2.3 on Bun, a provider "fake" on the fake model's
// Chat Completions API (models.yml; apiKey names an environment variable),
// approvals on (tools.approvalMode always-ask: its default, yolo, never
// asks), the five-step setup wizard marked done (setupVersion 2, which the
// wizard writes), no update check (it asks the npm registry), and the
// user's own recorder extension.
func ompFixture(r *run) {
	r.writeFile(".omp/agent/models.yml", fmt.Sprintf(`providers:
  fake:
    baseUrl: %s
    apiKey: FAKE_MODEL_API_KEY
    api: openai-completions
    models:
      - id: fake-model
        name: Fake Model
        reasoning: false
        input: [text]
        contextWindow: 128000
        maxTokens: 4096
`, js(r.srv.URL+"/v1")), 0o644)
	r.writeFile(".omp/agent/config.yml", `modelRoles:
  default: fake/fake-model
  smol: fake/fake-model
tools:
  approvalMode: always-ask
setupVersion: 2
startup:
  checkUpdate: false
`, 0o644)
	r.writeFile(".omp/agent/extensions/e2e-recorder.ts", fmt.Sprintf(ompRecorder, js(r.rec)), 0o644)
	r.env = []string{"FAKE_MODEL_API_KEY=fake-key-123"}
}

// ompDrive: one approved turn, then a second prompt whose command runs on
// (the fake model's slow command), approved and then stopped with Esc.
func ompDrive(r *run) {
	// ❯ Approve
	if !ompStart(r) || !r.approvedTurn(`Allow tool: bash`, 60*time.Second, "C-d") {
		return
	}

	// the second turn: approved, then Escape while the command runs
	n := len(OfNS(r.osc(), ns))
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", thePrompt+" "+fakemodel.SlowWord)
	time.Sleep(500 * time.Millisecond)
	r.keys("Enter")
	if !r.need(`Allow tool: bash`, 60*time.Second, "permission-2", "no approval dialog in the second turn", "C-d") {
		return
	}
	r.waitOSC(func(s []OSC) bool { return len(s) >= n+2 }, 8*time.Second) // working, attention
	since := time.Now()
	r.approve(`Allow tool: bash`, "Enter")
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
	r.quit("C-d")
}

// ompStart waits for oh-my-pi's prompt; false (after quitting) when the TUI
// never came up.
func ompStart(r *run) bool {
	if !r.need(`Fake Model`, 90*time.Second, "start", "the TUI did not come up", "C-d") {
		return false
	}
	time.Sleep(3 * time.Second) // oh-my-pi drops an Enter sent while it still starts
	r.snap("ready")
	return true
}

// ompDenyDrive: one turn whose approval dialog is answered with Escape (a
// denial, as Deny is: approved false): the model is told and answers.
func ompDenyDrive(r *run) {
	if ompStart(r) && r.answeredTurn(`Allow tool: bash`, "Escape", 60*time.Second, "C-d") {
		r.quit("C-d")
	}
}

// TestOmp: oh-my-pi reports working, attention and done for an approved
// turn, then working, attention and interrupted when the user stops the
// approved command with Esc; a denied call's turn goes on (the model
// answers it), so working follows the attention there too.
func TestOmp(t *testing.T) {
	t.Run("turn", func(t *testing.T) {
		runCase(t, agentCase{name: "omp", agent: "omp", who: "omp",
			form: "verbatim", hooks: true, marker: "omp-marker.txt",
			expect:  []string{"working", "attention", "working", "done", "working", "attention", "working", "interrupted"},
			fixture: ompFixture, drive: ompDrive})
	})
	t.Run("deny", func(t *testing.T) {
		extendWatchdog(60 * time.Second)
		runCase(t, agentCase{name: "omp-deny", agent: "omp", who: "omp (Escape at the approval dialog)",
			form: "verbatim", hooks: true, marker: "omp-marker.txt", declined: true,
			expect:  []string{"working", "attention", "working", "done"},
			fixture: ompFixture, drive: ompDenyDrive})
	})
}
