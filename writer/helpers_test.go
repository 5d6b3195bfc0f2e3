package writer

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

func fixedNow() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

// newHome returns a fresh home and the claude target in it.
func newHome(t testing.TB) (string, adapters.Target) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	tg, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	return home, tg
}

func newWriter(fault func(string) error) *Writer {
	w := New(Options{Now: fixedNow, Getenv: func(string) string { return "" }})
	return WithFault(WithProbe(w, func(string) (string, error) { return "", os.ErrNotExist }, nil), fault)
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readOrAbsent(t testing.TB, path string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

func mustOK(t testing.TB, r Report) {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("%s: %v", r.Agent, r.Err)
	}
}

// readManifest loads tg's manifest, failing the test when it is missing
// or does not load.
func readManifest(t *testing.T, tg adapters.Target) *manifest.Manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(tg.HooksDir(), manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
