package adapters

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/agenttest"
)

// checkUnder asserts that every file t writes is strictly under the home,
// and every path written into a file names the agent's view of the home.
func checkUnder(t *testing.T, tg Target) {
	t.Helper()
	if !under(tg.Dir, tg.Home) || !under(tg.HooksDir(), tg.Home) || !under(tg.Adapter.File(tg), tg.Home) {
		t.Errorf("%s: dir %s, hooks dir %s, config %s: not all under home %s", tg.ID, tg.Dir, tg.HooksDir(), tg.Adapter.File(tg), tg.Home)
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
		if clone.Dir == tg.Dir || clone.HooksDir() == tg.HooksDir() || clone.Adapter.File(clone) == tg.Adapter.File(tg) {
			t.Errorf("%s: clone shares %s", name, clone.Dir)
		}
		if clone.Adapter.ID != name || clone.ID != name+"-2" {
			t.Errorf("%s: clone resolved to %s / %s", name, clone.Adapter.ID, clone.ID)
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
// current directory) or are relative. Each agent's variables and where
// they move it are in its adapters/testdata/agents/<agent>.json ("env").
func TestResolveOverrides(t *testing.T) {
	home := "/home/u"
	n := 0
	for _, name := range Names() {
		facts := agentFacts(t, name)
		for _, c := range facts.Env {
			n++
			env := map[string]string{c.Var: c.Value}
			tg, err := Resolve(name, Options{NS: "hookinstall", Home: home, Getenv: func(k string) string { return env[k] }})
			if err != nil {
				t.Fatalf("%s %s: %v", name, c.Var, err)
			}
			if tg.Dir != c.Dir || tg.Adapter.File(tg) != c.Config {
				t.Errorf("%s %s=%s: dir %s config %s, want %s and %s (%s)", name, c.Var, c.Value, tg.Dir, tg.Adapter.File(tg), c.Dir, c.Config, agenttest.Path(name))
			}
			checkUnder(t, tg)
			for _, bad := range []string{"/work/repo", "/home/other", "relative/dir", "/home/u/../x"} {
				env[c.Var] = bad
				if tg, err := Resolve(name, Options{NS: "hookinstall", Home: home, Getenv: func(k string) string { return env[k] }}); err == nil {
					t.Errorf("%s %s=%s: resolved to %s, want an error", name, c.Var, bad, tg.Dir)
				}
			}
		}
	}
	if n < 12 {
		t.Fatalf("only %d variables in adapters/testdata/agents", n)
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

// TestResolvePaths pins each agent's files, plain and as a clone, from its
// adapters/testdata/agents/<agent>.json ("config", "clone").
func TestResolvePaths(t *testing.T) {
	for _, name := range Names() {
		facts := agentFacts(t, name)
		tg, err := Resolve(name, Options{NS: "hookinstall", Home: "/h"})
		if err != nil {
			t.Fatal(err)
		}
		clone, err := Resolve(name+"-2", Options{NS: "hookinstall", Home: "/h", Base: name})
		if err != nil {
			t.Fatal(err)
		}
		got, want := [2]string{tg.Adapter.File(tg), clone.Adapter.File(clone)}, [2]string{facts.Config, facts.Clone}
		if got != want {
			t.Errorf("%s: config and clone's config %v, want %v (%s)", name, got, want, agenttest.Path(name))
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
