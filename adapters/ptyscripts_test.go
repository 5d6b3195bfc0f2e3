package adapters

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/internal/agenttest"
	"github.com/hookinstall/hookinstall/internal/ptytest"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// installScripts writes agent's generated scripts into a temp dir and returns
// the path of each, by event.
func installScripts(t *testing.T, agent string) map[string]string {
	t.Helper()
	tg := testTarget(t, agent, "/home/u")
	ss, err := tg.Adapter.Scripts(tg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths := map[string]string{}
	for _, s := range ss {
		p := filepath.Join(dir, s.Name)
		if err := os.WriteFile(p, s.Content, 0o755); err != nil {
			t.Fatal(err)
		}
		paths[s.Event] = p
	}
	return paths
}

// runHook runs one script under dash with env and payload on stdin, and
// checks that it exits 0 and prints nothing, on stdout or stderr.
func runHook(t *testing.T, script string, env []string, payload string) {
	t.Helper()
	cmd := exec.Command("dash", script)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	cmd.Stdin = bytes.NewBufferString(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v (stderr %q)", filepath.Base(script), err, stderr.String())
	}
	if stdout.Len() != 0 || stderr.Len() != 0 {
		t.Fatalf("%s: printed stdout %q, stderr %q; want nothing", filepath.Base(script), stdout.String(), stderr.String())
	}
}

func needDash(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dash"); err != nil {
		t.Skip("dash is not installed (apt-get install dash); the generated scripts are checked under it")
	}
}

type hookCase struct {
	agent, event, payload string
	want                  terminal.State // "" means nothing is written
	env                   []string       // extra environment
}

// ptyHookCases are the "pty" cases of every agent's
// adapters/testdata/agents/<agent>.json (TestAgentTestdata checks that
// each agent whose scripts write to the pty has one for every event).
func ptyHookCases(t *testing.T) []hookCase {
	t.Helper()
	var cs []hookCase
	for _, name := range Names() {
		for _, c := range agentFacts(t, name).PTY {
			want := terminal.State(c.Want)
			if c.Want == agenttest.Silent {
				want = ""
			}
			cs = append(cs, hookCase{name, c.Event, c.Payload, want, c.Env})
		}
	}
	if len(cs) < 60 {
		t.Fatalf("only %d pty cases in %s", len(cs), agenttest.Dir())
	}
	return cs
}

// TestPTYScriptsWriteExactOSC runs every script of every agent that writes to
// the host's pty, under dash, against a real pty: with the task env set, the
// exact OSC bytes arrive, and nothing else.
func TestPTYScriptsWriteExactOSC(t *testing.T) {
	needDash(t)
	p := ptytest.Open(t)
	for _, c := range ptyHookCases(t) {
		paths := installScripts(t, c.agent)
		script, ok := paths[c.event]
		if !ok {
			t.Fatalf("%s has no script for %s", c.agent, c.event)
		}
		env := append([]string{"HOOKINSTALL_TASK_ID=task-1", "HOOKINSTALL_PTY=" + p.Path}, c.env...)
		runHook(t, script, env, c.payload)
		var want []byte
		if c.want != "" {
			want = scripts.OSC("hookinstall", c.want)
		}
		if got := p.Drain(t); !bytes.Equal(got, want) {
			t.Errorf("%s %s with payload %q: pty got %q, want %q", c.agent, c.event, c.payload, got, want)
		}
	}
}

// TestPTYScriptsSilent: outside the host (no task env), or with the pty path
// unset, missing, a regular file or a directory, every script writes nothing,
// creates nothing, prints nothing and exits 0.
func TestPTYScriptsSilent(t *testing.T) {
	needDash(t)
	p := ptytest.Open(t)
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	subdir := filepath.Join(dir, "subdir")
	if err := os.Mkdir(subdir, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	envs := map[string][]string{
		"no task env":        {"HOOKINSTALL_PTY=" + p.Path},
		"empty task env":     {"HOOKINSTALL_TASK_ID=", "HOOKINSTALL_PTY=" + p.Path},
		"other namespace":    {"TERMIC_TASK_ID=t", "TERMIC_PTY=" + p.Path},
		"pty unset":          {"HOOKINSTALL_TASK_ID=t"},
		"pty missing":        {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + missing},
		"pty a regular file": {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + regular},
		"pty a directory":    {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + subdir},
	}
	for name, env := range envs {
		for _, c := range ptyHookCases(t) {
			if c.want == "" {
				continue
			}
			runHook(t, installScripts(t, c.agent)[c.event], append(env, c.env...), c.payload)
			if got := p.Drain(t); len(got) != 0 {
				t.Errorf("%s, %s %s: pty got %q, want nothing", name, c.agent, c.event, got)
			}
			if _, err := os.Lstat(missing); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s, %s %s: created %s", name, c.agent, c.event, missing)
			}
			if b, err := os.ReadFile(regular); err != nil || len(b) != 0 {
				t.Fatalf("%s, %s %s: regular file now holds %q (%v)", name, c.agent, c.event, b, err)
			}
			if es, err := os.ReadDir(subdir); err != nil || len(es) != 0 {
				t.Fatalf("%s, %s %s: directory changed: %v %v", name, c.agent, c.event, es, err)
			}
		}
	}
	if fi, err := os.Stat(subdir); err != nil || !fi.IsDir() {
		t.Fatalf("directory gone: %v", err)
	}
}

// TestScriptsShellcheck runs shellcheck (POSIX sh) over every script of every
// agent, with the runtime beside them, which shellcheck follows (-x), when
// shellcheck is installed (CI installs it). SC1010 is excluded: it
// flags the assignment state=done, where done is a plain word, not a keyword.
func TestScriptsShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed (apt-get install shellcheck)")
	}
	for _, name := range Names() {
		for ev, p := range installScripts(t, name) {
			if out, err := exec.Command(sc, "-s", "sh", "-e", "SC1010", "-x", "-P", "SCRIPTDIR", p).CombinedOutput(); err != nil {
				t.Errorf("%s %s: shellcheck: %v\n%s", name, ev, err, out)
			}
		}
	}
}
