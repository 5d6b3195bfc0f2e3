package adapters

import (
	"path/filepath"
	"strings"
	"testing"
)

// checkUnder asserts that every file t writes is strictly under the home,
// and every path written into a file names the agent's view of the home.
func checkUnder(t *testing.T, tg Target) {
	t.Helper()
	if !under(tg.Dir, tg.Home) || !under(tg.HooksDir(), tg.Home) || !under(tg.Adapter.Config(tg), tg.Home) {
		t.Errorf("%s: dir %s, hooks dir %s, config %s: not all under home %s", tg.ID, tg.Dir, tg.HooksDir(), tg.Adapter.Config(tg), tg.Home)
	}
	ss, err := tg.Adapter.Scripts(tg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if p := filepath.Join(tg.HooksDir(), s.Name); !under(p, tg.Home) {
			t.Errorf("%s: script %s not under home", tg.ID, p)
		}
		if !strings.HasPrefix(tg.ScriptPath(s.Name), tg.AsHome+"/") {
			t.Errorf("%s: command %s does not name %s", tg.ID, tg.ScriptPath(s.Name), tg.AsHome)
		}
		if tg.AsHome != tg.Home && strings.Contains(string(s.Content), tg.Home) {
			t.Errorf("%s: script %s names the host home", tg.ID, s.Name)
		}
	}
	ed, err := tg.Adapter.Add(tg, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if tg.AsHome != tg.Home && strings.Contains(string(ed.Doc), tg.Home) {
		t.Errorf("%s: config names the host home %s:\n%s", tg.ID, tg.Home, ed.Doc)
	}
}

// TestResolveGlobalOnlyEveryTarget pins "global installs only" for every agent, its
// Docker target and a clone of it: no target resolves outside the home, so
// never under the current directory, a repository or a worktree.
func TestResolveGlobalOnlyEveryTarget(t *testing.T) {
	home := "/home/u"
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, name := range Names() {
		tg, err := Resolve(name, Options{NS: "hookinstall", Home: home, Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		checkUnder(t, tg)
		docker, err := Resolve(name, Options{NS: "hookinstall", Home: "/srv/agents/x", AsHome: "/root"})
		if err != nil {
			t.Fatal(err)
		}
		checkUnder(t, docker)
		clone, err := Resolve(name+"-2", Options{NS: "hookinstall", Home: home, Base: name})
		if err != nil {
			t.Fatal(err)
		}
		checkUnder(t, clone)
		if clone.Dir == tg.Dir || clone.HooksDir() == tg.HooksDir() || clone.Adapter.Config(clone) == tg.Adapter.Config(tg) {
			t.Errorf("%s: clone shares %s", name, clone.Dir)
		}
		if clone.Adapter.Name() != name || clone.ID != name+"-2" {
			t.Errorf("%s: clone resolved to %s / %s", name, clone.Adapter.Name(), clone.ID)
		}
		cloneDocker, err := Resolve(name+"-2", Options{NS: "hookinstall", Home: "/srv/agents/x", AsHome: "/root", Base: name})
		if err != nil {
			t.Fatal(err)
		}
		checkUnder(t, cloneDocker)
	}
}

// TestResolveOverrides: the agents' own variables move their dirs within the
// home, and are refused when they point outside it (a repository, the
// current directory) or are relative.
func TestResolveOverrides(t *testing.T) {
	home := "/home/u"
	cases := []struct {
		agent, v, val, dir, config string
	}{
		{"claude", "CLAUDE_CONFIG_DIR", "/home/u/cfg/claude", "/home/u/cfg/claude", "/home/u/cfg/claude/settings.json"},
		{"grok", "GROK_HOME", "/home/u/g", "/home/u/g", "/home/u/g/hooks/hookinstall.json"},
		{"codex", "CODEX_HOME", "/home/u/c", "/home/u/c", "/home/u/c/hooks.json"},
		{"opencode", "OPENCODE_CONFIG_DIR", "/home/u/oc", "/home/u/oc", "/home/u/oc/plugins/hookinstall.js"},
		{"opencode", "XDG_CONFIG_HOME", "/home/u/xdg", "/home/u/xdg/opencode", "/home/u/xdg/opencode/plugins/hookinstall.js"},
		{"copilot", "COPILOT_HOME", "/home/u/cp", "/home/u/cp", "/home/u/cp/hooks/hookinstall.json"},
		{"kilo", "KILO_CONFIG_DIR", "/home/u/k", "/home/u/k", "/home/u/k/plugins/hookinstall.js"},
		{"kilo", "XDG_CONFIG_HOME", "/home/u/xdg", "/home/u/xdg/kilo", "/home/u/xdg/kilo/plugins/hookinstall.js"},
		{"pi", "PI_CODING_AGENT_DIR", "/home/u/p", "/home/u/p", "/home/u/p/extensions/hookinstall.ts"},
		// GEMINI_CLI_HOME replaces the home, QWEN_HOME the folder (measured)
		{"gemini", "GEMINI_CLI_HOME", "/home/u/gh", "/home/u/gh/.gemini", "/home/u/gh/.gemini/settings.json"},
		{"qwen", "QWEN_HOME", "/home/u/q", "/home/u/q", "/home/u/q/settings.json"},
		// FACTORY_HOME_OVERRIDE replaces the home (read in droid 0.225.2)
		{"droid", "FACTORY_HOME_OVERRIDE", "/home/u/f", "/home/u/f/.factory", "/home/u/f/.factory/settings.json"},
	}
	for _, c := range cases {
		env := map[string]string{c.v: c.val}
		tg, err := Resolve(c.agent, Options{NS: "hookinstall", Home: home, Getenv: func(k string) string { return env[k] }})
		if err != nil {
			t.Fatalf("%s %s: %v", c.agent, c.v, err)
		}
		if tg.Dir != c.dir || tg.Adapter.Config(tg) != c.config {
			t.Errorf("%s %s=%s: dir %s config %s", c.agent, c.v, c.val, tg.Dir, tg.Adapter.Config(tg))
		}
		checkUnder(t, tg)
		for _, bad := range []string{"/work/repo", "/home/other", "relative/dir", "/home/u/../x"} {
			env[c.v] = bad
			if tg, err := Resolve(c.agent, Options{NS: "hookinstall", Home: home, Getenv: func(k string) string { return env[k] }}); err == nil {
				t.Errorf("%s %s=%s: resolved to %s, want an error", c.agent, c.v, bad, tg.Dir)
			}
		}
	}
	// OPENCODE_CONFIG_DIR wins over XDG_CONFIG_HOME.
	env := map[string]string{"OPENCODE_CONFIG_DIR": "/home/u/a", "XDG_CONFIG_HOME": "/home/u/b"}
	tg, _ := Resolve("opencode", Options{NS: "hookinstall", Home: home, Getenv: func(k string) string { return env[k] }})
	if tg.Dir != "/home/u/a" {
		t.Errorf("opencode dir %s", tg.Dir)
	}
	// --home ignores the variables (Getenv nil).
	tg, _ = Resolve("codex", Options{NS: "hookinstall", Home: home})
	if tg.Dir != "/home/u/.codex" {
		t.Errorf("codex dir %s", tg.Dir)
	}
}

// TestResolvePaths pins each agent's files, plain and as a clone.
func TestResolvePaths(t *testing.T) {
	want := map[string][2]string{
		"claude":      {"/h/.claude/settings.json", "/h/.claude-2/settings.json"},
		"grok":        {"/h/.grok/hooks/hookinstall.json", "/h/.grok-2/hooks/hookinstall.json"},
		"antigravity": {"/h/.gemini/config/hooks.json", "/h/.antigravity-2/config/hooks.json"},
		"opencode":    {"/h/.config/opencode/plugins/hookinstall.js", "/h/.config/opencode-2/plugins/hookinstall.js"},
		"zerocode":    {"/h/.zerotwo/hooks.json", "/h/.zerocode-2/hooks.json"},
		"codex":       {"/h/.codex/hooks.json", "/h/.codex-2/hooks.json"},
		"copilot":     {"/h/.copilot/hooks/hookinstall.json", "/h/.copilot-2/hooks/hookinstall.json"},
		"kilo":        {"/h/.config/kilo/plugins/hookinstall.js", "/h/.config/kilo-2/plugins/hookinstall.js"},
		"pi":          {"/h/.pi/agent/extensions/hookinstall.ts", "/h/.pi/pi-2/extensions/hookinstall.ts"},
		"kimi":        {"/h/.kimi-code/config.toml", "/h/.kimi-2/config.toml"},
		"gemini":      {"/h/.gemini/settings.json", "/h/.gemini-2/settings.json"},
		"qwen":        {"/h/.qwen/settings.json", "/h/.qwen-2/settings.json"},
		"droid":       {"/h/.factory/settings.json", "/h/.droid-2/settings.json"},
		"omp":         {"/h/.omp/agent/extensions/hookinstall.ts", "/h/.omp/omp-2/extensions/hookinstall.ts"},
		"letta":       {"/h/.letta/settings.json", "/h/.letta-2/settings.json"},
	}
	if len(want) != len(Names()) {
		t.Fatalf("agents %v", Names())
	}
	for name, w := range want {
		tg, err := Resolve(name, Options{NS: "hookinstall", Home: "/h"})
		if err != nil {
			t.Fatal(err)
		}
		clone, err := Resolve(name+"-2", Options{NS: "hookinstall", Home: "/h", Base: name})
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]string{tg.Adapter.Config(tg), clone.Adapter.Config(clone)}; got != w {
			t.Errorf("%s: %v, want %v", name, got, w)
		}
	}
}

// TestSharedDirHooksDirs: Gemini CLI and Antigravity share ~/.gemini, so
// each keeps its own hooks dir (and manifest) there, and neither's command
// prefix is a prefix of the other's.
func TestSharedDirHooksDirs(t *testing.T) {
	g := testTarget(t, "gemini", "/h")
	a := testTarget(t, "antigravity", "/h")
	if g.Dir != a.Dir {
		t.Fatalf("gemini dir %s, antigravity dir %s: expected the same folder", g.Dir, a.Dir)
	}
	if g.HooksDir() != "/h/.gemini/hookinstall-gemini-hooks" || a.HooksDir() != "/h/.gemini/hookinstall-hooks" {
		t.Fatalf("hooks dirs: gemini %s, antigravity %s", g.HooksDir(), a.HooksDir())
	}
	if strings.HasPrefix(g.Prefix(), a.Prefix()) || strings.HasPrefix(a.Prefix(), g.Prefix()) {
		t.Fatalf("prefixes overlap: %s, %s", g.Prefix(), a.Prefix())
	}
	if got := DetectPaths(g); len(got) != 1 || got[0] != "/h/.gemini/settings.json" {
		t.Errorf("gemini is detected by %v", got)
	}
	if got := DetectPaths(a); len(got) != 1 || got[0] != "/h/.gemini/config" {
		t.Errorf("antigravity is detected by %v", got)
	}
	if got := DetectPaths(testTarget(t, "qwen", "/h")); len(got) != 1 || got[0] != "/h/.qwen" {
		t.Errorf("qwen is detected by %v", got)
	}
}
