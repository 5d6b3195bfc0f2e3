//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// lettaUserHooks renders the user's own hooks for Letta Code: the recorder on
// every event it has but PermissionRequest (a hook there that exits 0 would
// approve the tool call itself), Claude's shape, timeouts in milliseconds.
func lettaUserHooks(r *run, events ...string) string {
	return hookGroups(r, events, func(ev string) []string {
		switch ev {
		case "PreToolUse", "PostToolUse", "PostToolUseFailure":
			return []string{`"matcher": "*"`}
		}
		return nil
	}, func(_, cmd string) []string {
		return []string{`"type": "command"`, `"command": ` + js(cmd), `"timeout": 10000`}
	})
}

// lettaFixture: Letta Code 0.32.18 on Node 22.19 with its experimental local
// backend (no Letta account or server), the provider "openai-compatible" on
// the fake model as `letta connect openai-compatible` writes it, local
// mode preferred as `letta backend local` writes it, the standard permission
// mode (it asks before a command), and the user's own recorder hooks.
func lettaFixture(r *run) {
	r.writeFile(".letta/settings.json", fmt.Sprintf(`{
  "preferredBackendMode": "local",
  "hooks": %s
}`, lettaUserHooks(r, "SessionStart", "UserPromptSubmit", "PreToolUse", "Notification", "PostToolUse",
		"PostToolUseFailure", "Stop", "SessionEnd")), 0o644)
	r.writeFile(".letta/lc-local-backend/providers/auth.json", fmt.Sprintf(`{
  "version": 1,
  "providers": {
    "openai-compatible": {
      "id": "local-provider-openai-compatible",
      "name": "openai-compatible",
      "provider_type": "openai-compatible",
      "provider_category": "byok",
      "auth": {
        "type": "api",
        "key": "fake-key-123"
      },
      "base_url": %s,
      "created_at": "2026-12-01T14:55:19.692Z",
      "updated_at": "2026-12-01T14:55:19.692Z"
    }
  }
}
`, js(r.srv.URL+"/v1")), 0o600)
	r.env = []string{"LETTA_LOCAL_BACKEND_EXPERIMENTAL=1"}
	r.args = []string{"--backend", "local", "-m", "openai-compatible/fake-model", "--permission-mode", "standard"}
}

// lettaDrive: one approved turn; then a second prompt whose approval dialog
// the user dismisses with Esc, which fires no hook in Letta (so nothing may
// follow its attention). (A command that runs on cannot be stopped instead:
// Letta moves a command still running after some seconds to the background
// and ends the turn.)
func lettaDrive(r *run) {
	if !r.need(`request approval`, 120*time.Second, "start", "the TUI did not come up", "C-c", "C-c") {
		return
	}
	time.Sleep(2 * time.Second)
	r.snap("ready")
	// ❯ 1. Yes
	if !r.approvedTurn(`Run this command\?`, 90*time.Second, "C-c", "C-c") {
		return
	}

	n := len(OfNS(r.osc(), ns))
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", thePrompt+" again")
	time.Sleep(500 * time.Millisecond)
	r.keys("Enter")
	if !r.need(`Run this command\?`, 90*time.Second, "permission-2", "no approval dialog in the second turn", "C-c", "C-c") {
		return
	}
	r.waitOSC(func(s []OSC) bool { return len(s) >= n+2 }, 8*time.Second) // working, attention
	r.snap("permission-2")
	time.Sleep(1500 * time.Millisecond)
	r.keys("Escape")
	if !r.waitScreen(`Approval cancelled`, 15*time.Second) {
		r.note("Letta did not say 'Approval cancelled' within 15s of the Escape")
	}
	time.Sleep(4 * time.Second) // Letta fires no hook for Esc: nothing may follow
	r.snap("cancelled")
	_, _ = r.tm("send-keys", "-t", r.sess, "-l", "/exit")
	time.Sleep(1500 * time.Millisecond)
	r.quit("Enter", "C-c", "C-c")
}

// lettaRewrite judges remove's edit of ~/.letta/settings.json, which Letta
// itself rewrites during the run (it adds deviceId, agents, lastAgent, ...):
// after remove, every key is what Letta left there, except "hooks", which is
// the user's own again (ours taken out, nothing else).
func lettaRewrite(r *run, p string, s1, s2, s3 Snapshot) (string, error) {
	if p != ".letta/settings.json" {
		return "", nil
	}
	var m1, m2, m3 map[string]any
	for _, x := range []struct {
		b []byte
		m *map[string]any
	}{{s1[p].Data, &m1}, {s2[p].Data, &m2}, {s3[p].Data, &m3}} {
		if err := json.Unmarshal(x.b, x.m); err != nil {
			return "", err
		}
	}
	prefix := filepath.Join(r.home, ".letta", ns+"-hooks") + "/"
	user := map[string]any{}
	hooks, _ := m1["hooks"].(map[string]any)
	for ev, v := range hooks {
		var keep []any
		groups, _ := v.([]any)
		for _, g := range groups {
			ours := false
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				if c, _ := h.(map[string]any)["command"].(string); strings.HasPrefix(c, prefix) {
					ours = true
				}
			}
			if !ours {
				keep = append(keep, g)
			}
		}
		if len(keep) > 0 {
			user[ev] = keep
		}
	}
	if !reflect.DeepEqual(m3["hooks"], any(user)) {
		return "", fmt.Errorf("hooks after remove are not the user's own: %s", s3[p].Data)
	}
	var changed []string
	for k, v := range m2 {
		if k == "hooks" {
			continue
		}
		if !reflect.DeepEqual(m3[k], v) {
			return "", fmt.Errorf("%q is not what Letta left there", k)
		}
		if !reflect.DeepEqual(m1[k], v) {
			changed = append(changed, k)
		}
	}
	if len(m3) != len(m2) {
		return "", fmt.Errorf("remove left %d keys, Letta had %d", len(m3), len(m2))
	}
	return fmt.Sprintf("kept what Letta wrote (%s) and took only ours out of hooks", strings.Join(changed, ", ")), nil
}

// TestLetta: Letta Code reports working, attention and done for an approved
// turn; in a second turn, working and attention, and nothing when the user
// dismisses the dialog with Esc (Letta fires no hook for it).
func TestLetta(t *testing.T) {
	runCase(t, agentCase{name: "letta", agent: "letta", who: "letta",
		form: "verbatim", hooks: true, marker: "letta-marker.txt",
		expect:  []string{"working", "attention", "working", "done", "working", "attention"},
		fixture: lettaFixture, drive: lettaDrive, removeMayEdit: lettaRewrite})
}
