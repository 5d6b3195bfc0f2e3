package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLoadEveryWrittenManifest reads every manifest shape hookinstall has
// written (testdata: real manifests from the commits that wrote each
// shape), checks what each says, and writes it back byte for byte: a
// manifest on a user's disk, from any version, is read as it was meant.
func TestLoadEveryWrittenManifest(t *testing.T) {
	want := map[string]func(t *testing.T, m *Manifest){
		"7b0a9db-claude-existing.json": func(t *testing.T, m *Manifest) {
			f := m.File(".claude/settings.json")
			if f == nil || f.Created || f.Backup != "backup/settings.json" || len(f.PreSHA256) != 64 || len(f.Entries) != 3 || len(f.Containers) != 4 {
				t.Errorf("file record %+v", f)
			}
		},
		"7b0a9db-claude-new-dir.json": func(t *testing.T, m *Manifest) {
			f := m.File(".claude/settings.json")
			if f == nil || !f.Created || f.Backup != "" || f.PreSHA256 != "" || !reflect.DeepEqual(m.CreatedDirs, []string{".claude"}) {
				t.Errorf("file record %+v, created dirs %v", f, m.CreatedDirs)
			}
		},
		"351be50-claude-emptied.json": func(t *testing.T, m *Manifest) {
			if f := m.File(".claude/settings.json"); f == nil || !reflect.DeepEqual(f.Emptied, map[string]string{"hooks": "\n  "}) {
				t.Errorf("file record %+v", f)
			}
		},
		"current-kimi-emptied.json": func(t *testing.T, m *Manifest) {
			if f := m.File(".kimi-code/config.toml"); f == nil || !strings.Contains(f.Emptied["hooks = []"], `"text":"hooks = []\n"`) {
				t.Errorf("file record %+v", f)
			}
		},
		"current-claude-adopted.json": func(t *testing.T, m *Manifest) {
			if f := m.File(".claude/settings.json"); m.Namespace != "termic" || f == nil || f.Created || len(f.Containers) == 0 || f.Containers[0] != "(file)" {
				t.Errorf("namespace %q, file record %+v", m.Namespace, f)
			}
		},
		"current-clone-docker.json": func(t *testing.T, m *Manifest) {
			if m.Agent != "twin" || m.Base != "claude" || m.AsHome != "/root" || m.File(".twin/settings.json") == nil {
				t.Errorf("%+v", m)
			}
		},
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(files) != len(want) {
		t.Fatalf("testdata holds %d manifests, the test checks %d (%v)", len(files), len(want), err)
	}
	for _, p := range files {
		name := filepath.Base(p)
		check, ok := want[name]
		if !ok {
			t.Errorf("%s: no check for it", name)
			continue
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(raw)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m.Schema != 1 || m.Namespace == "" || m.Agent == "" || m.InstalledAt.IsZero() || len(m.Files) == 0 || len(m.Scripts) == 0 {
			t.Errorf("%s: %+v", name, m)
		}
		for _, s := range m.Scripts {
			if m.Script(s.Path) == nil || len(s.SHA256) != 64 {
				t.Errorf("%s: script %+v", name, s)
			}
		}
		t.Run(name, func(t *testing.T) { check(t, m) })
		if got := m.Marshal(); !bytes.Equal(got, raw) {
			t.Errorf("%s: Marshal(Load(x)) != x:\n%s", name, got)
		}
	}
}

// TestLoadRefusesCorrupt: a manifest that is not one whole JSON object of a
// schema this code knows is refused, never half read: removal trusts what
// it says about backups and created files.
func TestLoadRefusesCorrupt(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "7b0a9db-claude-existing.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string]string{
		"empty":            "",
		"white space":      " \n",
		"not JSON":         "manifest",
		"null":             "null",
		"an array":         "[]",
		"truncated":        string(good[:len(good)/2]),
		"trailing garbage": string(good) + "}\n",
		"two documents":    string(good) + string(good),
		"schema 0":         `{"schema": 0, "namespace": "hookinstall", "agent": "claude"}`,
		"no schema":        `{"namespace": "hookinstall", "agent": "claude"}`,
		"schema 2":         `{"schema": 2, "namespace": "hookinstall", "agent": "claude"}`,
		"schema a string":  `{"schema": "1"}`,
		"files an object":  `{"schema": 1, "files": {}}`,
		"created a string": `{"schema": 1, "files": [{"path": "x", "created": "yes"}]}`,
	} {
		if m, err := Load([]byte(raw)); err == nil {
			t.Errorf("%s: Load accepted it: %+v", name, m)
		}
	}
	if _, err := Load(good); err != nil {
		t.Fatalf("the good manifest: %v", err)
	}
}

// TestSum is sha256 in hex, the hash every record holds.
func TestSum(t *testing.T) {
	if got := Sum([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("Sum(abc) = %s", got)
	}
}
