//go:build unix

package treesnap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func take(t *testing.T, root string, o Options) Tree {
	t.Helper()
	tr, err := Take(root, o)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestDiff(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a/x.json"), "{}")
	write(t, filepath.Join(root, "b"), "keep")
	if err := os.Symlink("b", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	before := take(t, root, Options{})
	if d := Diff(before, take(t, root, Options{})); d != "" {
		t.Fatalf("no change, yet: %s", d)
	}
	write(t, filepath.Join(root, "a/x.json"), "{ }")
	write(t, filepath.Join(root, "new"), "")
	os.Remove(filepath.Join(root, "b"))
	os.Chmod(filepath.Join(root, "a"), 0o700)
	d := Diff(before, take(t, root, Options{}))
	for _, want := range []string{"a: was d", "a/x.json: was -rw-r--r-- 2 bytes", "first difference at byte 1", "new: created", "b: deleted"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if got := Changed(before, take(t, root, Options{})); strings.Join(got, ",") != "a,a/x.json,b,new" {
		t.Errorf("Changed = %v", got)
	}
}

func TestTimesAndSkipData(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "f"), "same")
	write(t, filepath.Join(root, "lock"), "one")
	skip := func(rel string) bool { return rel == "lock" }
	plain, timed := take(t, root, Options{SkipData: skip}), take(t, root, Options{Times: true})
	// Rewrite f with the same bytes, a new inode and mtime; change the lock.
	os.Remove(filepath.Join(root, "f"))
	time.Sleep(10 * time.Millisecond)
	write(t, filepath.Join(root, "f"), "same")
	write(t, filepath.Join(root, "lock"), "two")
	if d := Diff(plain, take(t, root, Options{SkipData: skip})); d != "" {
		t.Errorf("bytes are back and the lock is skipped, yet: %s", d)
	}
	if d := Diff(timed, take(t, root, Options{Times: true})); !strings.Contains(d, "f: was") {
		t.Errorf("a rewritten file is not noticed with Times: %q", d)
	}
}

func TestFIFONotOpened(t *testing.T) {
	root := t.TempDir()
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Skip(err)
	}
	tr := take(t, root, Options{}) // would block if opened
	if tr["pipe"].Mode&os.ModeNamedPipe == 0 {
		t.Errorf("pipe recorded as %v", tr["pipe"])
	}
}
