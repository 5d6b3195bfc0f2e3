package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"howett.net/plist"

	"github.com/hookinstall/hookinstall/internal/testonly"
	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// TestAdminSwitchesPerOS: for darwin and linux, an admin switch in each
// place the agent's code reads on that OS (Claude's disableAllHooks in its
// managed settings and in a managed-settings.d drop-in, Gemini's
// hooksConfig.enabled=false in its system settings and system defaults,
// Codex's in /etc/codex, Qwen's disableAllHooks in its system settings and
// defaults, Copilot's allowManagedHooksOnly in its managed settings,
// Claude's disableAllHooks in its macOS managed preferences, a binary or
// an XML property list): add exits 3 with the home unchanged, naming the
// file, and doctor exits non-zero naming it. The same file in the other
// OS's place switches nothing.
func TestAdminSwitchesPerOS(t *testing.T) {
	const lin, mac = "/etc/claude-code", "/Library/Application Support/ClaudeCode"
	const glin, gmac = "/etc/gemini-cli", "/Library/Application Support/GeminiCli"
	const mdm = "/Library/Managed Preferences/com.anthropic.claudecode.plist"
	claudeOff, geminiOff := `{"disableAllHooks": true}`, `{"hooksConfig": {"enabled": false}}`
	plistOff := func(format int) string {
		b, err := plist.Marshal(map[string]bool{"disableAllHooks": true}, format)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		agent, dir, linux, darwin, body string
	}{
		{"claude", ".claude", lin + "/managed-settings.json", mac + "/managed-settings.json", claudeOff},
		{"claude", ".claude", lin + "/managed-settings.d/50-policy.json", mac + "/managed-settings.d/50-policy.json", claudeOff},
		{"claude", ".claude", lin + "/managed-settings.json", mac + "/managed-settings.json", `{"allowManagedHooksOnly": true}`},
		{"gemini", ".gemini", glin + "/settings.json", gmac + "/settings.json", geminiOff},
		{"gemini", ".gemini", glin + "/system-defaults.json", gmac + "/system-defaults.json", geminiOff},
		{"codex", ".codex", "/etc/codex/config.toml", "/etc/codex/config.toml", "[features]\nhooks = false\n"},
		{"codex", ".codex", "/etc/codex/requirements.toml", "/etc/codex/requirements.toml", "allow_managed_hooks_only = true\n"},
		{"qwen", ".qwen", "/etc/qwen-code/settings.json", "/Library/Application Support/QwenCode/settings.json", claudeOff},
		{"qwen", ".qwen", "/etc/qwen-code/system-defaults.json", "/Library/Application Support/QwenCode/system-defaults.json", claudeOff},
		{"copilot", ".copilot", "/etc/github-copilot/managed-settings.json", "/Library/Application Support/GitHubCopilot/managed-settings.json", `{"allowManagedHooksOnly": true}`},
		// Claude's managed preferences on macOS (binary and XML)
		{"claude", ".claude", "", mdm, plistOff(plist.BinaryFormat)},
		{"claude", ".claude", "", mdm, plistOff(plist.XMLFormat)},
	}
	defer func(root, goos string) { testonly.SystemRoot, testonly.GOOS = root, goos }(testonly.SystemRoot, testonly.GOOS)
	for _, goos := range []string{"linux", "darwin"} {
		for _, c := range cases {
			place, other := c.linux, c.darwin
			if goos == "darwin" {
				place, other = c.darwin, c.linux
			}
			if place == "" {
				continue
			}
			sys, home := t.TempDir(), t.TempDir()
			testonly.SystemRoot, testonly.GOOS = sys, goos
			if err := os.MkdirAll(filepath.Join(home, c.dir), 0o755); err != nil {
				t.Fatal(err)
			}
			getenv := func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}
			put := func(p string) {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			hookinstall := func(args ...string) (int, string) {
				var out bytes.Buffer
				code := run(args, nil, &out, &out, getenv)
				return code, out.String()
			}
			name := goos + " " + place
			if other != "" && other != place {
				put(filepath.Join(sys, other))
			}
			if code, out := hookinstall("add", c.agent); code != 0 {
				t.Errorf("%s: with no switch in this OS's places, add exits %d:\n%s", name, code, out)
			}
			file := filepath.Join(sys, place)
			put(file)
			before, err := treesnap.Take(home, treesnap.Options{Times: true})
			if err != nil {
				t.Fatal(err)
			}
			code, out := hookinstall("add", c.agent)
			if code != exitOff || !names(out, file) {
				t.Errorf("%s: add exits %d, want %d naming %s:\n%s", name, code, exitOff, file, out)
			}
			after, _ := treesnap.Take(home, treesnap.Options{Times: true})
			if d := treesnap.Diff(before, after); d != "" {
				t.Errorf("%s: add changed the home:\n%s", name, d)
			}
			code, out = hookinstall("doctor", c.agent, "--no-fire")
			if code == 0 || !names(out, file) {
				t.Errorf("%s: doctor exits %d, want non-zero naming %s:\n%s", name, code, file, out)
			}
		}
	}
}

// names reports whether text output out names file, whose spaces may be
// where the output broke its line (printWrapped).
func names(out, file string) bool {
	return strings.Contains(strings.Join(strings.Fields(out), " "), file)
}
