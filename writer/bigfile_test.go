package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/manifest"
)

// A large config's backup is checked against the manifest's pre hash on
// another core (restores, sumFile): remove restores it byte for byte while
// it is intact, and cuts our entries out instead when it is not (here one
// byte changed, the size kept), never putting that backup back.
func TestRemoveChecksLargeBackup(t *testing.T) {
	orig := "{\n  \"model\": \"opus\",\n  \"notes\": \"" + strings.Repeat("x", soonFrom) + "\"\n}\n"
	for _, corrupt := range []bool{false, true} {
		_, tg := newHome(t)
		cfg := tg.Adapter.Config(tg)
		writeFile(t, cfg, orig)
		w := newWriter(nil)
		mustOK(t, w.Add(context.Background(), tg))
		raw, err := os.ReadFile(filepath.Join(tg.HooksDir(), manifest.FileName))
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Load(raw)
		if err != nil {
			t.Fatal(err)
		}
		backup := filepath.Join(tg.HooksDir(), m.Files[0].Backup)
		if corrupt {
			if err := os.WriteFile(backup, []byte(strings.Replace(orig, "opus", "opuz", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		x, err := w.planRemove(tg)
		if err != nil {
			t.Fatal(err)
		}
		if _, restored := x.restore[cfg]; restored == corrupt {
			t.Fatalf("corrupt backup %v: restored %v", corrupt, restored)
		}
		mustOK(t, w.Remove(context.Background(), tg))
		if got, _ := readOrAbsent(t, cfg); got != orig {
			t.Fatalf("corrupt backup %v: remove left %.80q...", corrupt, got)
		}
	}
}
