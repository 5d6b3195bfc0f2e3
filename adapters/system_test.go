package adapters

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"howett.net/plist"
)

// systemPlaces are, per OS, the machine-wide files each agent reads that
// can switch our hooks off (relative to the system root), as read from
// the agents' own code (docs/agents.md "Admin settings"); the drop-in
// a fixture puts in Claude's managed-settings.d is "50-policy.json".
var systemPlaces = map[string]map[string][]string{
	"linux": {
		"claude":  {"/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d/50-policy.json"},
		"gemini":  {"/etc/gemini-cli/settings.json", "/etc/gemini-cli/system-defaults.json"},
		"codex":   {"/etc/codex/config.toml", "/etc/codex/requirements.toml"},
		"qwen":    {"/etc/qwen-code/settings.json", "/etc/qwen-code/system-defaults.json"},
		"copilot": {"/etc/github-copilot/managed-settings.json"},
	},
	"darwin": {
		"claude":  {mdmDir + "/u/" + claudePlist, mdmDir + "/" + claudePlist, "/Library/Application Support/ClaudeCode/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.d/50-policy.json"},
		"gemini":  {"/Library/Application Support/GeminiCli/settings.json", "/Library/Application Support/GeminiCli/system-defaults.json"},
		"codex":   {"/etc/codex/config.toml", "/etc/codex/requirements.toml"},
		"qwen":    {"/Library/Application Support/QwenCode/settings.json", "/Library/Application Support/QwenCode/system-defaults.json"},
		"copilot": {"/Library/Application Support/GitHubCopilot/managed-settings.json"},
	},
}

// Claude Code's managed preferences on macOS: the user's (u, the home's
// name) and the device's.
const mdmDir, claudePlist = "/Library/Managed Preferences", "com.anthropic.claudecode.plist"

// plistOf is a property list of v in format (plist.BinaryFormat or
// plist.XMLFormat), as an MDM profile leaves one.
func plistOf(t *testing.T, v any, format int) []byte {
	b, err := plist.Marshal(v, format)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// switchOffBody is what switches an agent's hooks off in a system file.
func switchOffBody(agent, path string) string {
	switch {
	case agent == "claude", agent == "qwen":
		return `{"disableAllHooks": true}`
	case agent == "copilot":
		return `{"allowManagedHooksOnly": true}`
	case agent == "gemini":
		return `{"hooksConfig": {"enabled": false}}`
	case strings.HasSuffix(path, "requirements.toml"):
		return "allow_managed_hooks_only = true\n"
	}
	return "[features]\nhooks = false\n"
}

// TestSystemPlacesPerOS: for darwin and linux, each agent's user config
// is the same home-relative path, and its system and managed files are
// the ones its code reads on that OS (under the system root); each of
// them, alone, switching hooks off makes add refuse with an *OffError
// naming it. Every other agent reads no system file.
func TestSystemPlacesPerOS(t *testing.T) {
	home := "/home/u"
	for goos, agents := range systemPlaces {
		for _, a := range All() {
			tg, err := Resolve(a.ID, Options{NS: "hookinstall", Home: home, GOOS: goos})
			if err != nil {
				t.Fatal(err)
			}
			lin, _ := Resolve(a.ID, Options{NS: "hookinstall", Home: home, GOOS: "linux"})
			if tg.Adapter.File(tg) != lin.Adapter.File(lin) || !strings.HasPrefix(tg.Adapter.File(tg), home+"/") {
				t.Errorf("%s on %s: config %s, on linux %s", a.ID, goos, tg.Adapter.File(tg), lin.Adapter.File(lin))
			}
			// an agent not in the table reads no system file
			if _, listed := agents[a.ID]; !listed {
				tg, _ := Resolve(a.ID, Options{NS: "hookinstall", Home: home, SystemRoot: "/sys", GOOS: goos})
				if got := systemFiles(tg, home); len(got) > 0 {
					t.Errorf("%s on %s: system files %q, want none (or a row in systemPlaces)", a.ID, goos, got)
				}
			}
		}
		for id, places := range agents {
			sys := t.TempDir()
			if id == "claude" {
				dropIns := filepath.Join(sys, filepath.Dir(places[len(places)-1]))
				if err := os.MkdirAll(dropIns, 0o755); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{"50-policy.json", "README.txt"} {
					if err := os.WriteFile(filepath.Join(dropIns, f), []byte("{}"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			tg, err := Resolve(id, Options{NS: "hookinstall", Home: home, SystemRoot: sys, GOOS: goos, ListDir: listDir})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range places {
				want = append(want, filepath.Join(sys, p))
			}
			if got := systemFiles(tg, home); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %s: system files\n%q, want\n%q", id, goos, got, want)
			}
			for _, p := range want {
				bodies := [][]byte{[]byte(switchOffBody(id, p))}
				if strings.HasSuffix(p, ".plist") { // both forms a profile leaves
					off := map[string]any{"disableAllHooks": true}
					bodies = [][]byte{plistOf(t, off, plist.BinaryFormat), plistOf(t, off, plist.XMLFormat)}
				}
				for _, body := range bodies {
					_, err := tg.Adapter.Check(tg, nil, map[string][]byte{p: body})
					var off *OffError
					if !errors.As(err, &off) || off.File != p {
						t.Errorf("%s on %s: %s switching hooks off: %v, want an OffError naming it", id, goos, p, err)
					}
				}
			}
		}
	}
}

// TestClaudeDropInsMerge: Claude Code merges managed-settings.json first,
// then the managed-settings.d/*.json drop-ins in name order (hidden files
// left out), a later file's value of a key winning: the switch is the one
// the last file that sets it gives.
func TestClaudeDropInsMerge(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string // under /etc/claude-code
		off   string            // the file named, or "" for no switch
	}{
		{"base on, later drop-in off", map[string]string{"managed-settings.json": `{"disableAllHooks": true}`, "managed-settings.d/20-b.json": `{"disableAllHooks": false}`}, ""},
		{"drop-in on, later drop-in off", map[string]string{"managed-settings.d/10-a.json": `{"disableAllHooks": true}`, "managed-settings.d/20-b.json": `{"disableAllHooks": false}`}, ""},
		{"drop-in off, later drop-in on", map[string]string{"managed-settings.d/10-a.json": `{"disableAllHooks": false}`, "managed-settings.d/20-b.json": `{"allowManagedHooksOnly": true, "disableAllHooks": true}`}, "managed-settings.d/20-b.json"},
		{"later drop-in silent", map[string]string{"managed-settings.d/10-a.json": `{"disableAllHooks": true}`, "managed-settings.d/20-b.json": `{}`}, "managed-settings.d/10-a.json"},
		{"hidden drop-in", map[string]string{"managed-settings.d/.10-a.json": `{"disableAllHooks": true}`}, ""},
	} {
		sys := t.TempDir()
		files := map[string][]byte{}
		for rel, body := range c.files {
			p := filepath.Join(sys, "etc/claude-code", rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			files[p] = []byte(body)
		}
		tg, err := Resolve("claude", Options{NS: "hookinstall", Home: "/home/u", SystemRoot: sys, GOOS: "linux", ListDir: listDir})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tg.Adapter.Check(tg, nil, files)
		var off *OffError
		switch {
		case c.off == "" && err != nil:
			t.Errorf("%s: %v, want no switch", c.name, err)
		case c.off != "" && (!errors.As(err, &off) || off.File != filepath.Join(sys, "etc/claude-code", c.off)):
			t.Errorf("%s: %v, want an OffError naming %s", c.name, err, c.off)
		}
	}
}

// listDir is the writer's ListDir, for the drop-in folders (adapters read
// no disk; their tests give them what the writer would).
func listDir(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestClaudeMDMFirstWins: on macOS, Claude Code 2.1.332 reads the user's
// managed preferences, then the device's; the first that holds a setting
// is the MDM source, and by default ("first-wins") the managed tier alone:
// managed-settings.json then switches nothing. With managedSourcesBehavior
// "merge" every source counts, a switch in any of them applying. A plist
// that cannot be read is named by doctor (and by add, in a note).
func TestClaudeMDMFirstWins(t *testing.T) {
	const file = "/Library/Application Support/ClaudeCode/managed-settings.json"
	user, device := mdmDir+"/u/"+claudePlist, mdmDir+"/"+claudePlist
	off, other := map[string]any{"disableAllHooks": true}, map[string]any{"model": "opus"}
	bin := func(v any) string { return string(plistOf(t, v, plist.BinaryFormat)) }
	xml := func(v any) string { return string(plistOf(t, v, plist.XMLFormat)) }
	for _, c := range []struct {
		name  string
		files map[string]string // under the system root
		off   string            // the file named, or "" for no switch
	}{
		{"plist holds a setting, file off", map[string]string{device: bin(other), file: `{"disableAllHooks": true}`}, ""},
		{"plist merges, file off", map[string]string{device: xml(map[string]any{"managedSourcesBehavior": "merge"}), file: `{"disableAllHooks": true}`}, file},
		{"merge, plist off, file on", map[string]string{device: bin(map[string]any{"managedSourcesBehavior": "merge", "disableAllHooks": true}), file: `{"disableAllHooks": false}`}, device},
		{"empty plist, file off", map[string]string{device: bin(map[string]any{}), file: `{"disableAllHooks": true}`}, file},
		{"user's plist first", map[string]string{user: xml(other), device: bin(off)}, ""},
		{"user's plist empty", map[string]string{user: xml(map[string]any{}), device: bin(off)}, device},
		{"user's plist off", map[string]string{user: xml(off), device: bin(other)}, user},
		{"plist on, file off", map[string]string{device: xml(map[string]any{"disableAllHooks": false}), file: `{"disableAllHooks": true}`}, ""},
	} {
		sys := t.TempDir()
		files := map[string][]byte{}
		for rel, body := range c.files {
			files[sys+rel] = []byte(body)
		}
		tg, err := Resolve("claude", Options{NS: "hookinstall", Home: "/Users/u", SystemRoot: sys, GOOS: "darwin"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tg.Adapter.Check(tg, nil, files)
		var o *OffError
		switch {
		case c.off == "" && err != nil:
			t.Errorf("%s: %v, want no switch", c.name, err)
		case c.off != "" && (!errors.As(err, &o) || o.File != sys+c.off):
			t.Errorf("%s: %v, want an OffError naming %s", c.name, err, c.off)
		}
	}
	// a plist that is not one
	sys := t.TempDir()
	tg, _ := Resolve("claude", Options{NS: "hookinstall", Home: "/Users/u", SystemRoot: sys, GOOS: "darwin"})
	bad := map[string][]byte{sys + device: []byte("<?xml version=\"1.0\"?>\n<plist><dict><key>disableAllHooks</key>")}
	notes, err := tg.Adapter.Check(tg, nil, bad)
	if err != nil || len(notes) != 1 || !strings.HasPrefix(notes[0], sys+device+": ") {
		t.Errorf("a broken plist: add says %q, %v; want a note naming it", notes, err)
	}
	in := Input{T: tg, Config: File{Path: tg.Adapter.File(tg)}, Files: map[string]File{sys + device: {Path: sys + device, Data: bad[sys+device], Exists: true}}}
	named := false
	for _, f := range tg.Adapter.Switches(in) {
		named = named || f.Result == Fail && f.File == sys+device && strings.HasPrefix(f.Verdict, sys+device+": ")
	}
	if !named {
		t.Errorf("a broken plist: doctor %+v, want a failure naming it", tg.Adapter.Switches(in))
	}
}

// TestWindows: on Windows, Claude Code's commands are quoted (their forward
// slashes, for Git Bash eats a backslash, are TestWindowsUnderWine's), and
// add refuses every other agent, naming what it runs hooks with there.
func TestWindows(t *testing.T) {
	for _, a := range All() {
		tg, err := Resolve(a.ID, Options{NS: "hookinstall", Home: "/home/me", GOOS: "windows"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.PlanAdd(tg, PlanInput{Files: map[string][]byte{}})
		var off *OffError
		if a.ID == "claude" {
			if got, want := tg.ScriptPath("stop.sh"), `"/home/me/.claude/hookinstall-hooks/stop.sh"`; got != want {
				t.Errorf("claude's command on Windows is %s, want %s", got, want)
			}
			if err != nil {
				t.Errorf("claude on Windows: %v", err)
			}
		} else if !errors.As(err, &off) || !strings.Contains(off.Error(), "on Windows "+a.Product+" runs its hooks ") {
			t.Errorf("%s on Windows: %v, want it refused, naming what runs its hooks", a.ID, err)
		}
	}
}
