//go:build e2e

package e2e

import (
	"testing"
	"time"
)

// kiloFixture is opencode's fixture under Kilo's name: the same provider block
// in ~/.config/kilo/kilo.json and the recorder plugin in plugins/.
func kiloFixture(r *run) {
	opencodeConfig(r, ".config/kilo/kilo.json", "https://kilo.ai/config.json", ".config/kilo/plugins/e2e-recorder.js")
	r.env = []string{"KILO_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_SHARE=1",
		"KILO_DISABLE_LSP_DOWNLOAD=1", "KILO_DISABLE_CODEBASE_INDEXING=1", "KILO_TELEMETRY_LEVEL=off"}
}

func kiloDrive(r *run) {
	// Kilo 7.7.9 takes long to first draw on a loaded machine (85s measured at
	// a load average of 20 on two cores).
	if !r.need(`Ask anything`, 150*time.Second, "start", "the TUI did not come up", "/exit", "Enter") {
		return
	}
	time.Sleep(2 * time.Second)
	r.snap("ready")
	r.prompt(thePrompt)
	if !r.need(`Permission required`, 90*time.Second, "permission", "no permission prompt ('Permission required')", "Escape", "/exit", "Enter") {
		return
	}
	r.snap("permission")
	r.waitOSC(hasState("attention"), 8*time.Second)
	r.approve(`Permission required`, "Enter") // "Allow once" is preselected
	r.waitTurnEnd(true, 90*time.Second, 15*time.Second)
	r.snap("done")
	abortSlowTurn(r, 90*time.Second)
	// Ctrl-C does not quit Kilo 7.7.9's TUI (measured: twice, the pane lived
	// on); /exit does.
	r.waitScreen(`ctrl\+p commands`, 20*time.Second)
	r.quit("/exit", "Enter")
}

func TestKilo(t *testing.T) {
	runCase(t, agentCase{name: "kilo", agent: "kilo", who: "kilo",
		form: "verbatim", hooks: true, marker: "kilo-marker.txt", expect: pluginTurns,
		fixture: kiloFixture, drive: kiloDrive})
}
