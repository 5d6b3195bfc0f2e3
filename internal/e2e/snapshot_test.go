package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSnapshotChanged(t *testing.T) {
	d := t.TempDir()
	w := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(d, p)), 0o755)
		if err := os.WriteFile(filepath.Join(d, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w("a/settings.json", "{\n  \"x\": 1\n}\n")
	w("keep.txt", "same")
	os.Symlink("keep.txt", filepath.Join(d, "link"))
	s0, err := Snap(d)
	if err != nil {
		t.Fatal(err)
	}
	w("a/settings.json", "{\n  \"x\": 1,\n  \"hooks\": {}\n}\n")
	w("a/new/script.sh", "#!/bin/sh\n")
	os.Remove(filepath.Join(d, "link"))
	s1, _ := Snap(d)
	got := Changed(s0, s1)
	want := []string{"a/new", "a/new/script.sh", "a/settings.json", "link"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Changed = %q, want %q", got, want)
	}
	if msg := s0.Describe(s1, "a/settings.json"); !strings.Contains(msg, "first difference at byte 10") {
		t.Fatalf("Describe = %s", msg)
	}
	os.Chmod(filepath.Join(d, "keep.txt"), 0o600)
	s2, _ := Snap(d)
	if got := Changed(s1, s2); !reflect.DeepEqual(got, []string{"keep.txt"}) {
		t.Fatalf("mode change not seen: %q", got)
	}
}
