package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// readCodexHooks judges Codex's app-server reply to hooks/list as doctor
// shows it: every hook of ours listed and enabled passes, naming each key
// and its trust status; one not listed, or disabled, fails; Codex's word
// on trust against the trust check's fails where they differ; a reply that
// is an error is information.
func TestReadCodexHooks(t *testing.T) {
	stop, idle := "/h/.codex/hookinstall-hooks/stop.sh", "/h/.codex/hookinstall-hooks/idle.sh"
	hook := func(cmd, key string, enabled bool, status string) string {
		return fmt.Sprintf(`{"key":%q,"command":%q,"enabled":%v,"currentHash":"sha256:1","trustStatus":%q}`, key, cmd, enabled, status)
	}
	reply := func(warnings string, hooks ...string) string {
		return `{"id":2,"result":{"data":[{"cwd":"/h","hooks":[` + strings.Join(hooks, ",") + `],"warnings":[` + warnings + `],"errors":[]}]}}`
	}
	both := reply("", hook(stop, "k:stop:0:0", true, "trusted"), hook("notify-send", "k:stop:1:0", true, "untrusted"), hook(idle, "k:idle:0:0", true, "untrusted"))
	for _, c := range []struct {
		name, out string
		trusted   map[string]bool
		want      string
	}{
		{"listed", both, nil,
			"pass binary.codex: codex app-server hooks/list resolves every hook of ours: k:stop:0:0 (trusted), k:idle:0:0 (untrusted)"},
		{"warned", reply(`"odd"`, hook(stop, "k:stop:0:0", true, "trusted"), hook(idle, "k:idle:0:0", true, "trusted")), nil,
			"pass binary.codex: codex app-server hooks/list resolves every hook of ours: k:stop:0:0 (trusted), k:idle:0:0 (trusted); it also says warning: odd"},
		{"trust differs", both, map[string]bool{stop: true, idle: true},
			"fail trust.codex-binary: codex app-server says k:idle:0:0 is untrusted (current hash sha256:1), but the trust check read the record as trusted\n" +
				"pass binary.codex: codex app-server hooks/list resolves every hook of ours: k:stop:0:0 (trusted), k:idle:0:0 (untrusted)"},
		{"missing and disabled", reply("", hook(stop, "k:stop:0:0", false, "trusted")), nil,
			"fail binary.codex: codex app-server hooks/list does not list " + idle + "; lists as disabled " + stop + ": Codex will not run them"},
	} {
		var got []string
		for _, f := range readCodexHooks(AskInput{T: Target{ID: "codex", Adapter: registry["codex"], NS: "hookinstall"}, Config: "/h/.codex/hooks.json", Out: []byte(c.out), Ours: []string{stop, idle}, Trusted: c.trusted}) {
			got = append(got, fmt.Sprintf("%v %s: %s", f.Result, f.ID, f.Verdict))
		}
		if g := strings.Join(got, "\n"); g != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, g, c.want)
		}
	}
	for _, out := range []string{`{"id":2,"error":{"code":-32600,"message":"unknown variant"}}`, `not json`} {
		fs := readCodexHooks(AskInput{Config: "/h/.codex/hooks.json", Out: []byte(out), Ours: []string{stop}})
		if len(fs) != 1 || fs[0].Result != Info || !strings.HasPrefix(fs[0].Verdict, "codex app-server hooks/list: ") {
			t.Errorf("%s: %+v, want one info finding", out, fs)
		}
	}
}
