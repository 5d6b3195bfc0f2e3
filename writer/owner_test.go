//go:build unix

package writer

import (
	"context"
	"os"
	"syscall"
	"testing"
)

// A config owned by someone else (root editing a user's home) keeps its owner
// and mode through add and remove: the rename replaces the inode, so the
// writer must put them back.
func TestAddRemoveKeepOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the file another owner")
	}
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	writeFile(t, cfg, "{\n  \"model\": \"opus\"\n}\n")
	if err := os.Chown(cfg, 4242, 4343); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cfg, 0o640); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		fi, err := os.Stat(cfg)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 4242 || st.Gid != 4343 || fi.Mode().Perm() != 0o640 {
			t.Errorf("after %s: owner %d:%d mode %04o, want 4242:4343 0640", when, st.Uid, st.Gid, fi.Mode().Perm())
		}
	}
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	check("add")
	b, _ := readOrAbsent(t, cfg)
	writeFile(t, cfg, b+" ") // a user edit: remove cuts entries rather than restoring the backup
	mustOK(t, w.Remove(context.Background(), tg))
	check("remove")
}
