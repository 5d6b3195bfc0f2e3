package writer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/manifest"
)

// A manifest that names files or folders outside the hooks dir (edited by
// hand, corrupted, or copied from elsewhere) never makes remove delete them.
func TestRemoveDeletesOnlyInsideHooksDir(t *testing.T) {
	home, tg := newHome(t)
	writeFile(t, tg.Adapter.File(tg), `{"model":"x"}`)
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	victim := filepath.Join(home, "victim")
	outside := filepath.Join(filepath.Dir(home), "outside")
	writeFile(t, victim, "mine")
	writeFile(t, outside, "mine too")
	if err := os.Mkdir(filepath.Join(home, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(tg.HooksDir(), manifest.FileName)
	raw, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m.Scripts = append(m.Scripts, manifest.Script{Path: "victim"}, manifest.Script{Path: "../outside"})
	m.CreatedDirs = append(m.CreatedDirs, "empty")
	m.Files[0].Backup = "../../victim"
	if err := os.WriteFile(mp, m.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	mustOK(t, newWriter(nil).Remove(context.Background(), tg))
	for _, p := range []string{victim, outside, filepath.Join(home, "empty")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("remove deleted %s, which the manifest named: %v", p, err)
		}
	}
	if got, _ := readOrAbsent(t, tg.Adapter.File(tg)); got != `{"model":"x"}` {
		t.Errorf("config not restored: %q", got)
	}
	if _, err := os.Lstat(tg.HooksDir()); !os.IsNotExist(err) {
		t.Errorf("hooks dir left: %v", err)
	}
}
