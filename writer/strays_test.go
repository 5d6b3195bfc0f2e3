package writer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// A run killed between creating a temp file and renaming it leaves the temp
// file; the next run (holding the lock) deletes its own, and only its own:
// another tool's temp file beside the config is left alone.
func TestStrayTempFilesOfOursAreSwept(t *testing.T) {
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	writeFile(t, cfg, `{"model":"opus"}`)
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	ours := []string{
		filepath.Join(tg.Dir, ".settings.json.hookinstall.tmp"),
		filepath.Join(tg.HooksDir(), ".stop.sh.tmp"),
		filepath.Join(tg.HooksDir(), ".manifest.json.tmp"),
		filepath.Join(tg.HooksDir(), "backup", ".settings.json.tmp"),
	}
	theirs := []string{
		filepath.Join(tg.Dir, ".settings.json5551234"),       // another tool's temp
		filepath.Join(tg.Dir, ".settings.json.tmp"),          // another tool's
		filepath.Join(tg.Dir, ".settings.json.other-ns.tmp"), // another namespace's
		filepath.Join(tg.HooksDir(), ".stop.sh.orig"),
	}
	for _, p := range append(append([]string{}, ours...), theirs...) {
		writeFile(t, p, "partial")
	}
	// Everything else is installed: add still sweeps (and says unchanged).
	r := newWriter(nil).Add(context.Background(), tg)
	mustOK(t, r)
	if r.Status != "unchanged" {
		t.Errorf("status %q, want unchanged", r.Status)
	}
	for _, p := range ours {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("stray temp file of ours left: %s", p)
		}
	}
	for _, p := range theirs {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("someone else's file deleted: %s", p)
		}
	}
}

// The temp file is never left behind by a failed write (here the rename:
// a folder that is not empty is where the file should be).
func TestTempRemovedOnFailure(t *testing.T) {
	target := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, filepath.Join(target, "x"), "mine")
	tmp := configTemp(target, "ns")
	if err := writeAtomic(target, tmp, []byte("{}"), 0o644, false, nil); err == nil {
		t.Fatal("a write over a folder succeeded")
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Fatalf("temp left: %v", err)
	}
	if got, _ := readOrAbsent(t, filepath.Join(target, "x")); got != "mine" {
		t.Fatalf("the folder's file changed: %q", got)
	}
}

// Codex's config.toml (written by add --trust) goes through the same fixed
// temp name, and a leftover one is swept too.
func TestStrayTrustTempIsSwept(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	tg, err := adapters.Resolve("codex", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, tg.Adapter.File(tg), `{"hooks":{}}`)
	stray := filepath.Join(tg.Dir, ".config.toml.hookinstall.tmp")
	writeFile(t, stray, "partial")
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	if _, err := os.Lstat(stray); !os.IsNotExist(err) {
		t.Fatalf("stray config.toml temp left: %v", err)
	}
}
