package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// hookinstallBin returns a path that runs this test binary as hookinstall
// (testscript.Main dispatches on the program name).
func hookinstallBin(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "hookinstall")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

const userSettings = `{
  "model": "opus",
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "notify-send done"}]}
    ],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    ]
  }
}
`

// checkSettings asserts the invariants that must hold after any run.
func checkSettings(t *testing.T, data []byte, home string) {
	t.Helper()
	var v struct {
		Model string                       `json:"model"`
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("settings.json is not valid JSON: %v\n%s", err, data)
	}
	if v.Model != "opus" {
		t.Fatalf("user value lost: model = %q", v.Model)
	}
	if len(v.Hooks["Stop"]) == 0 || !strings.Contains(string(v.Hooks["Stop"][0]), "notify-send done") {
		t.Fatalf("user Stop entry lost:\n%s", data)
	}
	if len(v.Hooks["PreToolUse"]) != 1 || !strings.Contains(string(v.Hooks["PreToolUse"][0]), "audit.sh") {
		t.Fatalf("user PreToolUse entry lost:\n%s", data)
	}
	prefix := home + "/.claude/hookinstall-hooks/"
	for ev, entries := range v.Hooks {
		n := 0
		for _, e := range entries {
			if strings.Contains(string(e), prefix) {
				n++
			}
		}
		if n > 1 {
			t.Fatalf("%s: our entry appears %d times:\n%s", ev, n, data)
		}
	}
}

// TestConcurrentAddRemove starts several add and remove processes at once on
// one HOME, round after round, while a reader checks every version of the
// file it can see.
func TestConcurrentAddRemove(t *testing.T) {
	bin := hookinstallBin(t)
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(userSettings), 0o644); err != nil {
		t.Fatal(err)
	}
	rounds, workers := 12, 4
	if testing.Short() {
		rounds = 4
	}
	var stop atomic.Bool
	var reads atomic.Int64
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for !stop.Load() {
			data, err := os.ReadFile(settings)
			if err != nil {
				t.Errorf("settings.json vanished: %v", err)
				return
			}
			if !json.Valid(data) {
				t.Errorf("reader saw invalid JSON:\n%s", data)
				return
			}
			reads.Add(1)
		}
	}()
	for r := 0; r < rounds; r++ {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			verb := "add"
			if (r+w)%2 == 1 {
				verb = "remove"
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, verb, "claude")
				cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "HOOKINSTALL_NAMESPACE=")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s: %v\n%s", verb, err, out)
				}
			}()
		}
		wg.Wait()
		data, err := os.ReadFile(settings)
		if err != nil {
			t.Fatal(err)
		}
		checkSettings(t, data, home)
		if t.Failed() {
			break
		}
	}
	stop.Store(true)
	<-readerDone
	if reads.Load() == 0 {
		t.Fatal("the reader never read the file")
	}
	cmd := exec.Command(bin, "remove", "claude")
	cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("final remove: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(settings)
	if !bytes.Equal(data, []byte(userSettings)) {
		t.Fatalf("after the final remove the file is not the original:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "hookinstall-hooks")); err == nil {
		t.Fatal("hooks dir left behind")
	}
}
