package writer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// An undoer records each path before its change and undo gives the tree
// back as it was: a plan's file rewritten and one deleted, a file of ours
// replaced, a new file, a link, folders made.
func TestUndoerPutsBackWhatItWrote(t *testing.T) {
	home := t.TempDir()
	cfg, gone, own := filepath.Join(home, "cfg.json"), filepath.Join(home, "gone.json"), filepath.Join(home, "own.sh")
	writeFile(t, cfg, "{\"a\": 1}\n")
	writeFile(t, gone, "{}\n")
	writeFile(t, own, "old\n")
	if err := os.Chmod(own, 0o700); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, home)
	read := func(p string) *fileState {
		st, err := readFile(p, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		return &st
	}
	u := &undoer{system: realSystem{}}
	dir := filepath.Join(home, "d", "e")
	if _, err := mkdirs(u, dir); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		u.WriteFile(cfg, []byte("{\"a\": 2}\n"), op{prev: read(cfg), temp: configTemp(cfg, "ns")}),
		u.Remove(gone, op{prev: read(gone)}),
		u.WriteFile(own, []byte("new\n"), op{perm: 0o755, static: true}),
		u.WriteFile(filepath.Join(dir, "new"), []byte("x"), op{perm: 0o644}),
		u.Link(cfg, filepath.Join(dir, "link"), op{}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := u.undo("ns"); err != nil {
		t.Fatal(err)
	}
	if d := treesnap.Diff(before, snapshot(t, home)); d != "" {
		t.Fatalf("after undo the tree differs:\n%s", d)
	}
	// A plan's file rewritten since the change is left alone, and said.
	u = &undoer{system: realSystem{}}
	if err := u.WriteFile(cfg, []byte("{\"a\": 3}\n"), op{prev: read(cfg)}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, "{\"theirs\": 1}\n")
	if err := u.undo("ns"); err == nil {
		t.Fatal("undo over a file the agent rewrote: no error")
	}
	if got, _ := readOrAbsent(t, cfg); got != "{\"theirs\": 1}\n" {
		t.Fatalf("the agent's file was changed: %q", got)
	}
}
