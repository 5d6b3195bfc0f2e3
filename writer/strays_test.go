package writer

import (
	"context"
	"errors"
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
	cfg := tg.Adapter.Config(tg)
	writeFile(t, cfg, `{"model":"opus"}`)
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	ours := []string{
		filepath.Join(tg.Dir, ".settings.json.hookinstall.tmp"),
		filepath.Join(tg.HooksDir(), ".stop.sh8123456789"),
		filepath.Join(tg.HooksDir(), ".manifest.json42"),
		filepath.Join(tg.HooksDir(), "backup", ".settings.json7"),
	}
	theirs := []string{
		filepath.Join(tg.Dir, ".settings.json5551234"),       // another tool's renameio temp
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

// The config temp file is never left behind by a failed write.
func TestConfigTempRemovedOnFailure(t *testing.T) {
	_, tg := newHome(t)
	writeFile(t, tg.Adapter.Config(tg), `{"model":"opus"}`)
	real := tg.Adapter.Config(tg)
	st, err := readFile(real, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	stop := func() error { return errFault }
	if err := writeConfigAtomic(real, configTemp(real, tg.NS), []byte("{}"), 0o644, &st, stop); !errors.Is(err, errFault) {
		t.Fatalf("fault not hit: %v", err)
	}
	if got, _ := readOrAbsent(t, real); got != `{"model":"opus"}` {
		t.Fatalf("config changed: %q", got)
	}
	if _, err := os.Lstat(filepath.Join(tg.Dir, ".settings.json.hookinstall.tmp")); !os.IsNotExist(err) {
		t.Fatalf("temp left: %v", err)
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
	writeFile(t, tg.Adapter.Config(tg), `{"hooks":{}}`)
	stray := filepath.Join(tg.Dir, ".config.toml.hookinstall.tmp")
	writeFile(t, stray, "partial")
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	if _, err := os.Lstat(stray); !os.IsNotExist(err) {
		t.Fatalf("stray config.toml temp left: %v", err)
	}
}
