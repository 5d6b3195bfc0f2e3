package hookinstall_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/hookinstall/hookinstall/internal/testonly"
)

// TestMain points the agents' machine-wide files (/etc/claude-code,
// /etc/codex, /etc/gemini-cli) at an empty folder, so that this machine's
// own (a managed-settings.json that switches hooks off) cannot change what
// the tests see.
func TestMain(m *testing.M) {
	sys, err := os.MkdirTemp("", "hookinstall-system-root-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testonly.SystemRoot = sys
	code := m.Run()
	os.RemoveAll(sys)
	os.Exit(code)
}
