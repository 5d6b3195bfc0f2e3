package writer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/internal/fakecodex"
)

// sysRoot is where the tests' targets look for the agents' machine-wide
// files (/etc/...): a folder that does not exist, so that this machine's
// own (a managed-settings.json that switches hooks off) cannot change what
// the tests see. A fixed name, not a temporary folder: a test process
// that is killed could not remove one.
var sysRoot = filepath.Join(os.TempDir(), "hookinstall-tests-no-system-root")

// TestMain runs the fake codex of internal/fakecodex when this test binary
// is started as "codex" (installFakeCodex links it so).
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "codex" {
		os.Exit(fakecodex.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// installFakeCodex puts the fake into a fresh bin dir and returns the dir.
func installFakeCodex(t testing.TB, f fakecodex.Config) string {
	t.Helper()
	bin := t.TempDir()
	if err := fakecodex.Install(bin, f); err != nil {
		t.Fatal(err)
	}
	return bin
}
