package writer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/manifest"
)

// A remove that stops while deleting our files must not leave a manifest
// naming a backup that is gone: an add after it would trust the record, take
// no backup, and the manifest would promise an exact restore it cannot give.
func TestRemoveStoppedMidwayLeavesNoStaleManifest(t *testing.T) {
	_, tg := newHome(t)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	writeFile(t, tg.Adapter.File(tg), orig)
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	stop := func(step string) error {
		if step == "after remove script" {
			return errFault
		}
		return nil
	}
	if r := newWriter(stop).Remove(context.Background(), tg); r.Err == nil {
		t.Fatal("fault not hit")
	}
	if _, err := os.Stat(filepath.Join(tg.HooksDir(), manifest.FileName)); !os.IsNotExist(err) {
		t.Fatalf("manifest still there after a remove stopped while deleting files: %v", err)
	}
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	m := readManifest(t, tg)
	b, err := os.ReadFile(filepath.Join(tg.HooksDir(), m.Files[0].Backup))
	if err != nil || string(b) != orig {
		t.Fatalf("the manifest's backup is missing or wrong (%v): %q", err, b)
	}
	mustOK(t, newWriter(nil).Remove(context.Background(), tg))
	if got, _ := readOrAbsent(t, tg.Adapter.File(tg)); got != orig {
		t.Fatalf("got %q", got)
	}
}
