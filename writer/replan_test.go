package writer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// The plan made before the lock is reused under it only while every file it
// was made from holds the same bytes.
func TestReplanReusesOnlyUnchangedInput(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	tg, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	cfg := tg.Adapter.File(tg)
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := New(Options{})
	plan := func() (*txn, error) { return w.planAdd(tg, adapters.Probe{}, nil) }
	p, err := plan()
	if err != nil {
		t.Fatal(err)
	}
	if q, err := w.replan(p, plan); err != nil || q != p {
		t.Fatalf("unchanged input: got a new plan (%v)", err)
	}
	// Claude rewrites its settings between our read and our lock.
	if err := os.WriteFile(cfg, []byte("{\n  \"model\": \"sonnet\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q, err := w.replan(p, plan)
	if err != nil || q == p || string(q.files[cfg].Data) == string(p.files[cfg].Data) {
		t.Fatalf("changed config: the old plan was reused (%v)", err)
	}
	// A manifest appears (another run installed meanwhile).
	if r := w.Add(context.Background(), tg); r.Err != nil {
		t.Fatal(r.Err)
	}
	if err := os.WriteFile(cfg, q.files[cfg].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := w.replan(q, plan); err != nil || r == q {
		t.Fatalf("new manifest: the old plan was reused (%v)", err)
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	data := make([]byte, 200<<10) // more than one chunk
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := readFile(path, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, want bool) {
		t.Helper()
		if _, same, err := sameFile(path, st, 1<<30); err != nil || same != want {
			t.Fatalf("%s: same = %v (%v), want %v", what, same, err, want)
		}
	}
	check("unchanged", true)
	changed := append([]byte(nil), data...)
	changed[len(changed)-1] = 'Z'
	os.WriteFile(path, changed, 0o644)
	check("last byte changed", false)
	os.WriteFile(path, append(append([]byte(nil), data...), '\n'), 0o644)
	check("grown", false)
	os.WriteFile(path, data[:len(data)-1], 0o644)
	check("shrunk", false)
	os.Remove(path)
	check("deleted", false)
	st = fileState{Path: path}
	check("still absent", true)
}
