//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// piRecorder is the fixture user's own extension: it logs agent_start and
// agent_end (with the stopReason of the prompt's last assistant message) in the
// recorder's format.
const piRecorder = `// e2e fixture: the user's own extension. Logs agent_start and agent_end.
` + jsRecorder + `
export default function (pi) {
  for (const ev of ["session_start", "agent_start", "agent_end", "tool_execution_start", "tool_execution_end", "session_shutdown"]) {
    pi.on(ev, async (event) => {
      let p = event;
      if (ev === "agent_end") {
        const last = [...((event && event.messages) || [])].reverse().find((m) => m && m.role === "assistant");
        p = { type: "agent_end", messages: (event.messages || []).length, stopReason: last && last.stopReason };
      }
      rec(ev, p);
    });
  }
}
`

func piFixture(r *run) {
	r.writeFile(".pi/agent/models.json", fmt.Sprintf(`{
  "providers": {
    "fake": {
      "baseUrl": %s,
      "api": "openai-completions",
      "apiKey": "fake-key-123",
      "compat": { "supportsDeveloperRole": false, "supportsReasoningEffort": false },
      "models": [{ "id": "fake-model" }]
    }
  }
}
`, js(r.srv.URL+"/v1")), 0o644)
	r.writeFile(".pi/agent/extensions/e2e-recorder.ts", fmt.Sprintf(piRecorder, js(r.rec)), 0o644)
	r.env = []string{"PI_OFFLINE=1", "PI_TELEMETRY=0", "PI_SKIP_VERSION_CHECK=1"}
	r.args = []string{"--provider", "fake", "--model", "fake-model"}
}

// piDrive runs two prompts: one that ends (working, done), and one whose slow
// command the user stops with Esc (working, interrupted). Pi has no permission
// prompts, so there is no attention.
func piDrive(r *run) {
	if !r.need(`fake-model`, 60*time.Second, "start", "the TUI did not come up", "C-d") {
		return
	}
	time.Sleep(time.Second)
	r.snap("ready")
	// Pi lists the extensions it loaded at startup.
	if scr := r.screen(); strings.Contains(scr, ns+".ts") {
		r.note("pi's startup screen lists the extension %s.ts", ns)
	} else {
		r.problem("pi's startup screen does not list our extension %s.ts among those it loaded:\n%s", ns, scr)
	}
	r.prompt(thePrompt)
	if !r.waitOSC(func(s []OSC) bool { return len(s) >= 2 && s[len(s)-1].State == "done" }, 60*time.Second) {
		r.snap("turn1")
		r.problem("the first prompt did not end with done within 60s")
	}
	if !r.waitScreen(`All done: fake model finished the turn`, 20*time.Second) {
		r.problem("the first prompt's final text never showed")
	}
	r.snap("turn1")
	// The second prompt's command runs on for a minute: stop it with Esc.
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", "again, slowly")
	time.Sleep(500 * time.Millisecond)
	since := time.Now()
	_, _ = r.tm("send-keys", "-t", r.sess, "Enter")
	if !r.waitRunning(since, 60*time.Second) {
		r.snap("turn2")
		r.problem("the second prompt's slow command never ran")
	}
	r.keys("Escape")
	r.waitOSC(hasState("interrupted"), 20*time.Second)
	r.waitScreen(`Operation aborted|aborted`, 10*time.Second)
	r.snap("interrupted")
	r.quit("C-d")
}

func TestPi(t *testing.T) {
	runCase(t, agentCase{name: "pi", agent: "pi", who: "pi",
		form: "verbatim", hooks: true, marker: "pi-marker.txt",
		expect:  []string{"working", "done", "working", "interrupted"},
		fixture: piFixture, drive: piDrive})
}
