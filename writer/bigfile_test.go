package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// A large config's backup is checked against the manifest's pre hash
// (restores): remove restores it byte for byte while it is intact, and
// cuts our entries out instead when it is not (here one byte changed, the
// size kept), never putting that backup back.
func TestRemoveChecksLargeBackup(t *testing.T) {
	orig := "{\n  \"model\": \"opus\",\n  \"notes\": \"" + strings.Repeat("x", 256<<10) + "\"\n}\n"
	for _, corrupt := range []bool{false, true} {
		_, tg := newHome(t)
		cfg := tg.Adapter.File(tg)
		writeFile(t, cfg, orig)
		w := newWriter(nil)
		mustOK(t, w.Add(context.Background(), tg))
		m := readManifest(t, tg)
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

// remove's report asks whether our entries are left in the config as the
// remove's plan wrote it (leftOurs), not in a second read of the file: the
// plan's bytes when it changed the file, the file as read when not, nothing
// when it deleted it.
func TestLeftOurs(t *testing.T) {
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	user := "{\n  \"model\": \"opus\"\n}\n"
	writeFile(t, cfg, user)
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	added := []byte(fileBytes(t, cfg))
	x := &txn{t: tg, files: map[string]fileState{cfg: {Data: added, Exists: true}}}
	if !leftOurs(x) {
		t.Fatal("a config the plan did not change, holding our entries: nothing left of ours")
	}
	x.plan.Edits = []adapters.FileEdit{{Path: cfg, Edit: adapters.Edit{Doc: []byte(user)}}}
	if leftOurs(x) {
		t.Fatal("the plan took our entries out: something left of ours")
	}
	x.plan.Edits[0].Doc = added
	if !leftOurs(x) {
		t.Fatal("the plan wrote our entries: nothing left of ours")
	}
	x.plan.Edits[0].Edit = adapters.Edit{Delete: true}
	if leftOurs(x) {
		t.Fatal("the plan deleted the config: something left of ours")
	}
}
