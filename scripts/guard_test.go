package scripts

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TestQuietGuardIsWhatRenderWrites: the lines a Spec's Quiet variables add
// to a rendered script are exactly QuietGuard's, one per variable, in order,
// for both transports and every rule, so doctor (which looks for
// QuietGuard's line) and the scripts cannot spell the guard differently
// (review R2).
func TestQuietGuardIsWhatRenderWrites(t *testing.T) {
	quiet := []string{"GROK_HOOK_EVENT", "OTHER_AGENT_HOOK"}
	for _, tr := range []Transport{Stdout, PTY} {
		for _, rule := range []Rule{Always, NonEmptyBackgroundTasks, PermissionPrompt} {
			spec := Spec{Install: Install{NS: "hookinstall", Agent: "claude"}, Event: "Stop", State: terminal.Done, Transport: tr, Rule: rule}
			without, err := Render(spec)
			if err != nil {
				t.Fatal(err)
			}
			spec.Quiet = quiet
			with, err := Render(spec)
			if err != nil {
				t.Fatal(err)
			}
			var added []string
			base := strings.Split(string(without), "\n")
			lines := strings.Split(string(with), "\n")
			for i, j := 0, 0; i < len(lines); i++ {
				if j < len(base) && lines[i] == base[j] {
					j++
					continue
				}
				added = append(added, lines[i])
			}
			var want []string
			for _, v := range quiet {
				want = append(want, QuietGuard(v))
			}
			if !reflect.DeepEqual(added, want) {
				t.Errorf("transport %d rule %d: Quiet added the lines %q, want QuietGuard's %q", tr, rule, added, want)
			}
		}
	}
}
