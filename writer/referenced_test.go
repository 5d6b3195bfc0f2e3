package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// A remove never deletes a script that the config still points at: an
// install made for a Docker target (entries name /root) removed with a
// target that names the home on disk finds none of its entries; it must
// keep them and the scripts, say so (partly-removed), and name the command
// that finishes the job.
func TestRemoveKeepsScriptsTheConfigStillRuns(t *testing.T) {
	home, plain := newHome(t)
	dock, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot, AsHome: "/root"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := dock.Adapter.Config(dock)
	mustOK(t, newWriter(nil).Add(context.Background(), dock))
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Edited in the container since: the exact restore does not apply.
	edited := strings.Replace(string(b), "{\n  \"hooks\"", "{\n  \"model\": \"opus\",\n  \"hooks\"", 1)
	writeFile(t, cfg, edited)

	r := newWriter(nil).Remove(context.Background(), plain)
	mustOK(t, r)
	if r.Status != "partly-removed" {
		t.Errorf("status %q, want partly-removed", r.Status)
	}
	if got, _ := readOrAbsent(t, cfg); got != edited {
		t.Errorf("config changed:\n%s", got)
	}
	for _, name := range []string{"stop.sh", "permission-request.sh", "user-prompt-submit.sh"} {
		if _, err := os.Stat(filepath.Join(dock.HooksDir(), name)); err != nil {
			t.Errorf("script the config still runs was deleted: %v", err)
		}
	}
	want := cfg + " still runs our scripts as /root/.claude/hookinstall-hooks/...: they stay; finish with 'hookinstall remove claude --home " + home + " --as-home /root'"
	if len(r.Notes) != 1 || r.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", r.Notes, want)
	}

	// The command the note names finishes it: the user's edit stays.
	mustOK(t, newWriter(nil).Remove(context.Background(), dock))
	if got, _ := readOrAbsent(t, cfg); got != "{\n  \"model\": \"opus\"\n}\n" {
		t.Errorf("after the finishing remove, config is:\n%s", got)
	}
	if _, err := os.Lstat(dock.HooksDir()); !os.IsNotExist(err) {
		t.Errorf("hooks dir still there: %v", err)
	}
}
