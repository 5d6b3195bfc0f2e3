package hookinstall_test

import (
	"github.com/hookinstall/hookinstall"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/internal/testonly"
)

// TestMain points the agents' machine-wide files (/etc/claude-code,
// /etc/codex, /etc/gemini-cli) at a folder that does not exist, so that
// this machine's own (a managed-settings.json that switches hooks off)
// cannot change what the tests see. A fixed name, not a temporary folder:
// the fuzzing engine's workers start here too, and are stopped before they
// could remove one.
func TestMain(m *testing.M) {
	testonly.SystemRoot = filepath.Join(os.TempDir(), "hookinstall-tests-no-system-root")
	os.Exit(m.Run())
}

// both is r with its error, as the tests check a call.
func both(r *hookinstall.Result) (*hookinstall.Result, error) { return r, r.Err }
