//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// codexTrustVersions are the Codex releases `add codex --trust` is proven on:
// the pin first, then older releases whose app-server answers hooks/list with
// hashes (docs/codex-trust.md: 0.129.0 is the oldest that does).
var codexTrustVersions = []string{"0.171.0", "0.169.0", "0.149.0", "0.129.0"}

// codexOwnState reports whether p (relative to HOME) is Codex's own state,
// which codex app-server writes into CODEX_HOME when add --trust asks it
// (sqlite logs and state, installation_id, its bundled skills): anything under
// .codex but hooks.json, config.toml and our hooks folder.
func codexOwnState(p string) bool {
	rest, ok := strings.CutPrefix(p, ".codex/")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	return first != "hooks.json" && first != "config.toml" && first != ns+"-hooks"
}

// codexExecFixture is codexFixture, run headless: `codex exec` with the prompt.
// No --dangerously-bypass-hook-trust: only the trust add --trust wrote lets
// our hooks run (the fixture's own recorder hooks stay untrusted and silent).
func codexExecFixture(r *run) {
	codexFixture(r)
	r.args = []string{"exec", "--skip-git-repo-check", thePrompt}
}

// codexExecDrive waits for `codex exec` to end its turn (our done), then for
// it to exit.
func codexExecDrive(r *run) {
	if !r.waitOSC(hasState("done"), 90*time.Second) {
		r.snap("no-done")
		r.problem("no done OSC within 90s of codex exec's start")
	}
	end := time.Now().Add(30 * time.Second)
	for !r.paneDead() && time.Now().Before(end) {
		time.Sleep(250 * time.Millisecond)
	}
	r.snap("exit")
	if !r.paneDead() {
		r.problem("codex exec did not exit within 30s of its done")
	}
}

// TestCodexTrustVersions: on each release of codexTrustVersions, `add codex
// --trust` asks that Codex for the hashes it expects and writes them, and
// `codex exec` (headless, no bypass flag) then runs our hooks: working and
// done, exact OSC bytes on the pty; remove gives every file back. exec runs
// with approval "never", so it rejects the fake model's escalated command
// (the marker must stay absent) and never reaches PermissionRequest.
func TestCodexTrustVersions(t *testing.T) {
	for _, v := range codexTrustVersions {
		name := "codex-trust-exec-" + v
		t.Run(name, func(t *testing.T) {
			runCase(t, agentCase{name: name, agent: "codex", version: v,
				who:  "codex " + v + " (add --trust, codex exec without --dangerously-bypass-hook-trust)",
				form: "verbatim", hooks: true, marker: "codex-marker.txt", addArgs: []string{"--trust"},
				expect: []string{"working", "done"}, declined: true, userHooksSilent: true,
				fixture: codexExecFixture, drive: codexExecDrive,
				removeMayEdit: codexUntrust, agentOwn: codexOwnState})
		})
	}
	// The control, on the oldest: the same run after a plain add (no --trust)
	// puts nothing of ours on the pty: trust is what made the hooks run.
	v := codexTrustVersions[len(codexTrustVersions)-1]
	name := "codex-untrusted-exec-" + v
	t.Run(name, func(t *testing.T) {
		runCase(t, agentCase{name: name, agent: "codex", version: v,
			who:  "codex " + v + " (plain add, codex exec: hooks untrusted)",
			form: "verbatim", hooks: false, marker: "codex-marker.txt", declined: true,
			fixture: codexExecFixture, drive: codexExecUntrustedDrive})
	})
}

// codexExecUntrustedDrive waits for `codex exec` to exit (no hook of ours
// reports its end), then looks for any OSC of ours.
func codexExecUntrustedDrive(r *run) {
	end := time.Now().Add(90 * time.Second)
	for !r.paneDead() && time.Now().Before(end) {
		time.Sleep(250 * time.Millisecond)
	}
	r.snap("exit")
	if !r.paneDead() {
		r.problem("codex exec did not exit within 90s")
	}
	if !r.serverFinal() {
		r.problem("the fake model never sent its final text: the turn did not run")
	}
}
