package writer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// TestRemoveTakesRecordedAsHome: the writer decides the home a Docker
// install was made for (Recorded), so an importer of writer that removes
// with the target resolved without AsHome removes it whole (it was
// partly-removed, the entries naming /root kept, when only package
// hookinstall decided); a named AsHome that is not the recorded one is
// refused, naming the command to run, and changes nothing; status's view
// (Recorded) is the same decision.
func TestRemoveTakesRecordedAsHome(t *testing.T) {
	home := t.TempDir()
	resolve := func(asHome string) adapters.Target {
		tg, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, AsHome: asHome})
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	cfg := filepath.Join(home, ".claude", "settings.json")
	user := "{\n  \"model\": \"opus\"\n}\n"
	writeFile(t, cfg, user)
	w := newWriter(nil)
	if r := w.Add(context.Background(), resolve("/root")); r.Status != "installed" {
		t.Fatalf("add --as-home /root: %s %v", r.Status, r.Err)
	}
	added := fileBytes(t, cfg)
	if !strings.Contains(added, "/root/.claude/hookinstall-hooks/stop.sh") {
		t.Fatalf("add wrote no /root path:\n%s", added)
	}

	plain := resolve("")
	got, err := Recorded(plain)
	if err != nil || got.AsHome != "/root" || got.SystemRoot != "" {
		t.Fatalf("Recorded(no AsHome) = AsHome %q SystemRoot %q, %v; want /root, \"\"", got.AsHome, got.SystemRoot, err)
	}
	other := resolve("/home/agent")
	if got, err := Recorded(other); err == nil || got.AsHome != "/home/agent" {
		t.Fatalf("Recorded(named /home/agent) = %q, %v; want it unchanged, with an error", got.AsHome, err)
	}

	before := snapshot(t, home)
	r := w.Remove(context.Background(), other)
	want := "installed with --as-home /root, not --as-home /home/agent (its manifest " + filepath.Join(home, ".claude", "hookinstall-hooks", "manifest.json") +
		" says so): run 'hookinstall remove claude --home " + home + " --as-home /root'"
	if r.Status != "error" || r.Err == nil || r.Err.Error() != want {
		t.Fatalf("remove --as-home /home/agent: %s %v\nwant error %s", r.Status, r.Err, want)
	}
	if diff := treesnap.Diff(before, snapshot(t, home)); diff != "" {
		t.Fatalf("a refused remove changed the home:\n%s", diff)
	}

	if r := w.Remove(context.Background(), plain); r.Status != "removed" {
		t.Fatalf("remove without AsHome: %s %v %v, want removed", r.Status, r.Err, r.Notes)
	}
	if got := fileBytes(t, cfg); got != user {
		t.Fatalf("settings.json after remove:\n%s\nwant\n%s", got, user)
	}
	if _, ok := readOrAbsent(t, filepath.Join(home, ".claude", "hookinstall-hooks", "manifest.json")); ok {
		t.Fatal("the hooks dir's manifest is still there")
	}
	// without a manifest, Recorded changes nothing
	if got, err := Recorded(plain); err != nil || got.AsHome != home {
		t.Fatalf("Recorded without a manifest = %q, %v", got.AsHome, err)
	}
}
