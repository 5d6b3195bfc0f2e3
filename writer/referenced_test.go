package writer

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// A remove never deletes a script that the config still points at: an
// install made for a Docker target (entries name /root), planned with a
// target that names the home on disk (the manifest read under the lock
// records /root, though Recorded saw another, or none, before it), finds
// none of its entries; the plan keeps them and the scripts and names the
// command that finishes the job. Remove itself takes the recorded home
// (Recorded), so with the same target it removes the install whole.
func TestRemoveKeepsScriptsTheConfigStillRuns(t *testing.T) {
	home, plain := newHome(t)
	dock, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot, AsHome: "/root"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := dock.Adapter.File(dock)
	mustOK(t, newWriter(nil).Add(context.Background(), dock))
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Edited in the container since: the exact restore does not apply.
	edited := strings.Replace(string(b), "{\n  \"hooks\"", "{\n  \"model\": \"opus\",\n  \"hooks\"", 1)
	writeFile(t, cfg, edited)

	x, err := newWriter(nil).planRemove(plain)
	if err != nil {
		t.Fatal(err)
	}
	if !x.plan.Kept() {
		t.Errorf("the plan keeps nothing; want the config's entries, which name /root, kept")
	}
	for _, e := range x.plan.Edits {
		if e.Path == cfg && (e.Delete || string(e.Doc) != edited) {
			t.Errorf("the plan changes the config:\n%s", e.Doc)
		}
	}
	want := cfg + " still runs our scripts as /root/.claude/hookinstall-hooks/...: they stay; finish with 'hookinstall remove claude --home " + home + " --as-home /root'"
	if len(x.plan.Notes) < 1 || x.plan.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", x.plan.Notes, want)
	}

	// Remove takes the recorded home: the user's edit stays.
	mustOK(t, newWriter(nil).Remove(context.Background(), plain))
	if got, _ := readOrAbsent(t, cfg); got != "{\n  \"model\": \"opus\"\n}\n" {
		t.Errorf("after the finishing remove, config is:\n%s", got)
	}
	if _, err := os.Lstat(dock.HooksDir()); !os.IsNotExist(err) {
		t.Errorf("hooks dir still there: %v", err)
	}
}
