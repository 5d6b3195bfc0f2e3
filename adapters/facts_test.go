package adapters

import (
	"encoding/json"
	"errors"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/agenttest"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TestPayloadFiles: every embedded payload is one line of valid JSON.
func TestPayloadFiles(t *testing.T) {
	n := 0
	err := fs.WalkDir(payloadFS, "payloads", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, _ := payloadFS.ReadFile(p)
		if !json.Valid(b) || strings.Count(string(b), "\n") != 1 || !strings.HasSuffix(string(b), "\n") {
			t.Errorf("%s: not one line of valid JSON", p)
		}
		return nil
	})
	if err != nil || n < 10 {
		t.Fatalf("%d payloads, %v", n, err)
	}
}

// TestBOMOneMessage: a config that starts with a BOM is refused, in the
// words of the agent's own fact (the words doctor uses too): Claude Code
// reads such a file, ZeroCode and Codex reject it.
func TestBOMOneMessage(t *testing.T) {
	bom := []byte("\xef\xbb\xbf{}\n")
	for _, a := range All() {
		tg, err := Resolve(a.ID, Options{NS: "hookinstall", Home: t.TempDir(), SystemRoot: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if a.Plugin != nil {
			continue // a plugin module, not JSON
		}
		_, err = a.Add(tg, bom, nil, false)
		if err == nil {
			t.Errorf("%s: add accepted a BOM", a.ID)
			continue
		}
		got := Explain(tg, "FILE", err)
		var se *jsonedit.SyntaxError
		if !errors.As(got, &se) || se.Msg != a.BOMVerdict() {
			t.Errorf("%s: %v, want the agent's BOM verdict %q", a.ID, got, a.BOMVerdict())
		}
		// The verdict above is built from the agent's ReadsBOM; the
		// words pinned in its test facts are what catch a flipped fact.
		f, err := agenttest.Load(a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if se.Error() != f.BOM || !strings.HasSuffix(got.Error(), "; to fix it, "+BOMHint("FILE")) {
			t.Errorf("%s: %q, want %q (%s \"bom\") and how to fix it", a.ID, got, f.BOM, agenttest.Path(a.ID))
		}
	}
	// Other errors pass through unchanged.
	other := errors.New("x")
	tg, _ := Resolve("claude", Options{NS: "hookinstall", Home: t.TempDir()})
	if Explain(tg, "FILE", other) != other {
		t.Error("Explain changed an error that is not about a BOM")
	}
}

// TestSystemRoot: the agents' system files are read under the one system
// root a run gives (tests give a scratch folder), and none for a Docker
// target.
func TestSystemRoot(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		opts Options
		want []string
	}{
		{Options{NS: "hookinstall", Home: home}, []string{"/etc/codex/config.toml", "/etc/codex/requirements.toml"}},
		{Options{NS: "hookinstall", Home: home, SystemRoot: "/tmp/sys"}, []string{"/tmp/sys/etc/codex/config.toml", "/tmp/sys/etc/codex/requirements.toml"}},
		{Options{NS: "hookinstall", Home: home, SystemRoot: "/tmp/sys", AsHome: "/root"}, nil},
	} {
		tg, err := Resolve("codex", c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := systemFiles(tg, home); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: system files %q, want %q", c.opts, got, c.want)
		}
	}
	tg, _ := Resolve("claude", Options{NS: "hookinstall", Home: home, SystemRoot: "/tmp/sys"})
	if got := systemFiles(tg, home); len(got) != 1 || got[0] != "/tmp/sys/etc/claude-code/managed-settings.json" {
		t.Errorf("claude's system files %q", got)
	}
}

// systemFiles are the files t reads outside the home.
func systemFiles(t Target, home string) []string {
	var fs []string
	for _, f := range t.Adapter.Files(t) {
		if !strings.HasPrefix(f, home+"/") {
			fs = append(fs, f)
		}
	}
	return fs
}

// TestClaudeManagedSwitches: add refuses where the managed settings keep
// our hooks from running, as doctor fails there.
func TestClaudeManagedSwitches(t *testing.T) {
	sys := t.TempDir()
	tg, err := Resolve("claude", Options{NS: "hookinstall", Home: t.TempDir(), SystemRoot: sys})
	if err != nil {
		t.Fatal(err)
	}
	managed := sys + "/etc/claude-code/managed-settings.json"
	if sw := tg.Adapter.Files(tg); len(sw) != 1 || sw[0] != managed {
		t.Fatalf("switch files %q", sw)
	}
	for body, key := range map[string]string{
		`{"disableAllHooks": true}`:        "disableAllHooks",
		`{"allowManagedHooksOnly": true}`:  "allowManagedHooksOnly",
		`{"allowManagedHooksOnly": false}`: "",
	} {
		_, err := tg.Adapter.Check(tg, []byte("{}"), map[string][]byte{managed: []byte(body)})
		var off *OffError
		switch {
		case key == "" && err != nil:
			t.Errorf("%s: %v", body, err)
		case key != "" && (!errors.As(err, &off) || off.Key != key || off.File != managed):
			t.Errorf("%s: %v, want an OffError for %s in %s", body, err, key, managed)
		}
	}
}

// TestEscapes: the escapes the writer's one search must look for come from
// the kinds of file an agent reads (its config's format and its other
// files): JSON's for a JSON config, TOML's too where it reads a config.toml.
func TestEscapes(t *testing.T) {
	for id, want := range map[string]string{"claude": "u/", "codex": "u/Ux", "grok": "u/Ux", "kimi": "uUx", "opencode": "ux"} {
		tg := testTarget(t, id, "/home/u")
		if got := tg.Adapter.Escapes(tg); got != want {
			t.Errorf("%s: escapes %q, want %q", id, got, want)
		}
	}
}

// TestShowsItself: what an agent shows by itself names real terminals
// (terminal.Names, "*", each optionally "tmux+"), states it reports, and
// rules the scripts' sh patterns read as Go does (an exact value, a
// prefix ending in '*', or set).
func TestShowsItself(t *testing.T) {
	n := 0
	for _, a := range All() {
		o := a.ShowsItself
		if o == nil {
			continue
		}
		n++
		for _, s := range o.Notifies {
			if s.Body() == "" {
				t.Errorf("%s: Notifies %q is no state", a.ID, s)
			}
		}
		if in := len(o.In) + len(o.InTmux); len(o.Notifies) > 0 && in == 0 || len(o.Notifies) == 0 && in > 0 {
			t.Errorf("%s: Notifies %v with In %v, InTmux %v", a.ID, o.Notifies, o.In, o.InTmux)
		}
		for _, in := range slices.Concat(o.In, o.InTmux) {
			if _, err := terminal.Parse(in); err != nil && in != "*" {
				t.Errorf("%s: In %q: %v", a.ID, in, err)
			}
		}
		for _, r := range o.Progress {
			if strings.ContainsAny(strings.TrimSuffix(r.Value, "*"), "*?[]|;$`'\" \\") {
				t.Errorf("%s: Progress rule %+v: its value is no plain word or prefix", a.ID, r)
			}
		}
	}
	if n < 6 {
		t.Errorf("%d agents show something by themselves, want claude, codex, copilot, kimi, letta, omp, qwen", n)
	}
}
