package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes pins the documented exit codes: 0 ok, 1 failure, 2 usage,
// 3 hooks switched off.
func TestExitCodes(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		switch k {
		case "HOME":
			return home
		case "PATH":
			return "/usr/bin:/bin"
		}
		return ""
	}
	write := func(body string) {
		t.Helper()
		p := filepath.Join(home, ".claude", "settings.json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		settings string
		args     []string
		code     int
		stderr   string
	}{
		{"no agent", "", []string{"add"}, exitUsage, "name an agent"},
		{"unknown flag", "", []string{"add", "claude", "--bogus"}, exitUsage, "unknown flag"},
		{"unknown agent", "", []string{"add", "nosuch"}, exitUsage, `unknown agent "nosuch"`},
		{"bad namespace", "", []string{"--namespace", "a;b", "add", "claude"}, exitUsage, "invalid namespace"},
		{"as-home without home", "", []string{"add", "claude", "--as-home", "/root"}, exitUsage, "--as-home needs --home"},
		{"trust unsupported", "", []string{"add", "zerocode", "--trust"}, exitUsage, "--trust: hookinstall records trust only for codex, not for zerocode"},
		{"invalid JSON", `{"a":}`, []string{"add", "claude"}, exitFail, "invalid JSON"},
		{"switched off", `{"disableAllHooks": true}`, []string{"add", "claude"}, exitOff, "disableAllHooks"},
		{"ok", `{}`, []string{"add", "claude"}, exitOK, ""},
		{"ok again", "", []string{"add", "claude"}, exitOK, ""},
		{"doctor healthy", "", []string{"doctor", "claude", "--no-ask"}, exitOK, ""},
		{"doctor broken", "rm-script", []string{"doctor", "claude", "--no-ask"}, exitFail, ""},
		{"remove", "", []string{"remove", "claude"}, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			switch tt.settings {
			case "":
			case "rm-script":
				if err := os.Remove(filepath.Join(home, ".claude", "hookinstall-hooks", "stop.sh")); err != nil {
					t.Fatal(err)
				}
			default:
				write(tt.settings)
			}
			var out, errb bytes.Buffer
			code := run(tt.args, strings.NewReader(""), &out, &errb, env)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errb.String())
			}
			if tt.stderr != "" && !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("stderr %q does not mention %q", errb.String(), tt.stderr)
			}
			if tt.stderr == "" && errb.Len() != 0 {
				t.Errorf("unexpected stderr %q", errb.String())
			}
		})
	}
}
