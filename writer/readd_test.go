package writer

import (
	"context"
	"os"
	"strings"
	"testing"
)

// A second add after someone else changed the config (the user, or Claude
// itself, which rewrites settings.json) must not make a later remove bring
// back the backup from before that change: the change would be lost.
func TestReAddAfterUserEditKeepsEditOnRemove(t *testing.T) {
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	writeFile(t, cfg, "{\n  \"model\": \"opus\"\n}\n")
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	b, _ := readOrAbsent(t, cfg)
	writeFile(t, cfg, strings.Replace(b, "opus", "sonnet", 1))
	mustOK(t, w.Add(context.Background(), tg))
	mustOK(t, w.Remove(context.Background(), tg))
	got, _ := readOrAbsent(t, cfg)
	if want := "{\n  \"model\": \"sonnet\"\n}\n"; got != want {
		t.Fatalf("remove lost the user's edit made between two adds:\ngot  %q\nwant %q", got, want)
	}
}

// The same when add created the file: the user's keys added since must
// survive remove, and the file with them.
func TestReAddAfterUserEditKeepsCreatedFile(t *testing.T) {
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	b, _ := readOrAbsent(t, cfg)
	writeFile(t, cfg, strings.Replace(b, "{", "{\n  \"model\": \"opus\",", 1))
	mustOK(t, w.Add(context.Background(), tg))
	mustOK(t, w.Remove(context.Background(), tg))
	got, ok := readOrAbsent(t, cfg)
	if !ok {
		t.Fatal("remove deleted a settings.json that holds the user's keys")
	}
	if want := "{\n  \"model\": \"opus\"\n}\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// When nobody touched the file between two adds, remove stays exact: the
// backup comes back byte for byte.
func TestReAddUnchangedStaysExact(t *testing.T) {
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	orig := "{\"model\":\"opus\" , \"hooks\" : {}}"
	writeFile(t, cfg, orig)
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	mustOK(t, w.Add(context.Background(), tg))
	mustOK(t, w.Remove(context.Background(), tg))
	if got, _ := readOrAbsent(t, cfg); got != orig {
		t.Fatalf("got %q, want %q", got, orig)
	}
	if _, err := os.Lstat(tg.HooksDir()); !os.IsNotExist(err) {
		t.Fatalf("hooks dir left behind: %v", err)
	}
}
