package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// Codex rewrites config.toml (no lock of ours) after the writer replaced
// hooks.json and before it replaced config.toml: the re-read before that
// rename sees it, the whole plan is made again from the new bytes, and both
// Codex's change and our trust records end up in the file.
func TestRacedTrustFileReplansEverything(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	toml := filepath.Join(home, ".codex", "config.toml")
	writeFile(t, toml, "model = \"o3\"\n")
	tg, err := adapters.Resolve("codex", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	raced := 0
	var steps []string
	w := trustWriter(func(step string) error {
		steps = append(steps, step)
		if step == "after write config" && raced == 0 {
			raced++
			if err := os.WriteFile(toml, []byte("model = \"o4\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	mustOK(t, w.Add(context.Background(), tg))
	got, _ := readOrAbsent(t, toml)
	if !strings.HasPrefix(got, "model = \"o4\"\n\n[hooks.state.") || strings.Count(got, "trusted_hash") != len(tg.Adapter.Events()) {
		t.Fatalf("config.toml lost Codex's change or our records:\n%s", got)
	}
	// The stale trust records were never written: once, from the new bytes.
	if n := strings.Count(strings.Join(steps, ","), "after write trust"); n != 1 {
		t.Errorf("config.toml written %d times, want once (after the race): %v", n, steps)
	}
	// And remove keeps Codex's change: the file is no longer what we wrote
	// from the backup, so only our records go.
	mustOK(t, newWriter(nil).Remove(context.Background(), tg))
	if got, _ := readOrAbsent(t, toml); got != "model = \"o4\"\n" {
		t.Fatalf("after remove:\n%s", got)
	}
}
