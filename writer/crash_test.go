package writer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agenttest"
	"github.com/hookinstall/hookinstall/internal/treesnap"
	"github.com/hookinstall/hookinstall/manifest"
)

// snapshot records every file, folder and link under root.
func snapshot(t testing.TB, root string) treesnap.Tree {
	t.Helper()
	tr, err := treesnap.Take(root, treesnap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

var errFault = errors.New("injected fault")

// faultAt returns a fault that fails the n-th fault point (1-based: before
// or after a call of the write interface), and a report of which one that
// was (empty when the run had fewer).
func faultAt(n int) (func(string) error, *string) {
	hit := new(string)
	calls := 0
	return func(step string) error {
		calls++
		if calls == n {
			*hit = step
			return errFault
		}
		return nil
	}, hit
}

// A crashCase is one starting home for the crash tests.
type crashCase struct {
	name  string
	setup func(t *testing.T, home string, tg adapters.Target)
}

// crashDocs are, for a shared-file agent, a user's config with an entry of
// theirs, and a small one to reach through a symlink: the "crash" of its
// adapters/testdata/agents/<agent>.json (adapters' TestAgentTestdata checks
// that every shared-file agent has them).
func crashDocs(t *testing.T, agent string) (existing, linked string, ok bool) {
	t.Helper()
	f, err := agenttest.Load(agent)
	if err != nil {
		t.Fatal(err)
	}
	if f.Crash == nil {
		return "", "", false
	}
	return f.Crash.Existing, f.Crash.Linked, true
}

var crashCases = []crashCase{
	{"existing", func(t *testing.T, home string, tg adapters.Target) {
		doc, _, _ := crashDocs(t, tg.Adapter.ID)
		writeFile(t, tg.Adapter.File(tg), doc)
	}},
	{"no-file", func(t *testing.T, home string, tg adapters.Target) {
		if err := os.MkdirAll(tg.Dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}},
	{"no-dir", func(t *testing.T, home string, tg adapters.Target) {}},
	{"symlinked", func(t *testing.T, home string, tg adapters.Target) {
		real := filepath.Join(home, "dotfiles", "agent.json")
		_, doc, _ := crashDocs(t, tg.Adapter.ID)
		writeFile(t, real, doc)
		if err := os.MkdirAll(filepath.Dir(tg.Adapter.File(tg)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(real, tg.Adapter.File(tg)); err != nil {
			t.Fatal(err)
		}
	}},
}

// resetHome empties home and lays out the case again, always at the same
// path, so the bytes written (which name the home) are comparable.
func resetHome(t *testing.T, home string, tg adapters.Target, c crashCase) {
	t.Helper()
	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	c.setup(t, home, tg)
}

// configBytes reads the config through any symlink; absent is "<absent>".
func configBytes(t *testing.T, tg adapters.Target) string { return fileBytes(t, tg.Adapter.File(tg)) }

// fileBytes reads a file through any symlink; absent is "<absent>".
func fileBytes(t *testing.T, path string) string {
	b, ok := readOrAbsent(t, path)
	if !ok {
		return "<absent>"
	}
	return b
}

// checkManifest: the manifest is absent, or it loads and tells the truth
// about what is on disk: each file it records (the config, and with trust
// config.toml) is what the install wrote or the original, every script it
// names that is present has its hash, and a backup that is present holds
// the original.
func checkManifest(t *testing.T, tg adapters.Target, origs map[string]string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(tg.HooksDir(), manifest.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(raw)
	if err != nil {
		t.Fatalf("manifest does not load: %v\n%s", err, raw)
	}
	if m.Namespace != tg.NS || m.Agent != tg.ID || len(m.Files) == 0 || len(m.Files) > len(origs) {
		t.Fatalf("manifest names the wrong install:\n%s", raw)
	}
	for _, f := range m.Files {
		path := filepath.Join(tg.Home, f.Path)
		orig, ok := origs[path]
		if !ok {
			t.Fatalf("manifest records %s, not a file of the plan", f.Path)
		}
		cur := fileBytes(t, path)
		if cur != orig && manifest.Sum([]byte(cur)) != f.PostSHA256 {
			t.Fatalf("%s is neither the original nor what the manifest says was written:\n%s", f.Path, cur)
		}
		if f.Created != (orig == "<absent>") {
			t.Fatalf("%s: manifest says created=%v; original absent=%v", f.Path, f.Created, orig == "<absent>")
		}
		if !f.Created {
			b, ok := readOrAbsent(t, filepath.Join(tg.HooksDir(), f.Backup))
			if ok && manifest.Sum([]byte(b)) != f.PreSHA256 || ok && b != orig {
				t.Fatalf("%s: backup does not hold the original", f.Path)
			}
			if !ok && cur != orig {
				t.Fatalf("%s holds our install but the backup is gone", f.Path)
			}
		}
	}
	cur := configBytes(t, tg)
	for _, s := range m.Scripts {
		b, ok := readOrAbsent(t, filepath.Join(tg.Home, s.Path))
		if ok && manifest.Sum([]byte(b)) != s.SHA256 {
			t.Fatalf("script %s does not match the manifest", s.Path)
		}
		if !ok && cur != origs[tg.Adapter.File(tg)] {
			t.Fatalf("config holds our entries but script %s is gone", s.Path)
		}
	}
}

// TestCrashSafety fails every call that add and remove make to the write
// interface (system.go), one run per call and per side: before the call
// (nothing done) and after it (done, then the error, as when the process
// dies right after it), for every agent of the registry, "codex+trust"
// (add codex --trust: a plan of two files, hooks.json and the trust
// records in config.toml) among them. Each failure must leave every file
// of the plan byte for byte its before or its after, the manifest
// consistent or absent and no temp file; re-running the same command
// converges, and a final remove gives back the original home exactly. The
// lock file, the folders and the sweep are calls like the others, so they
// are covered by construction.
func TestCrashSafety(t *testing.T) {
	agents := append(adapters.Names(), "codex+trust")
	for _, agent := range agents {
		base := strings.TrimSuffix(agent, "+trust")
		tg, err := adapters.Resolve(base, adapters.Options{NS: "hookinstall", Home: "/home", SystemRoot: sysRoot})
		if err != nil {
			t.Fatal(err)
		}
		_, _, shared := crashDocs(t, base)
		if !tg.Adapter.Own && !shared {
			t.Errorf("%s edits a file it shares with the user but its %s has no \"crash\" configs", base, agenttest.Path(base))
			continue
		}
		for _, c := range crashCases {
			// Every agent from its usual start (its config there, or,
			// for an agent that owns its file, its folder there); all
			// four for claude; and the folder-creating case for one of
			// each other shape. The rest are the same code paths.
			usual := shared && c.name == "existing" || !shared && c.name == "no-file"
			if !usual && base != "claude" && !(c.name == "no-dir" && (base == "kimi" || base == "opencode" || agent == "codex+trust")) {
				continue
			}
			if c.name == "existing" && !shared || c.name == "symlinked" && !shared {
				continue
			}
			t.Run(agent+"/"+c.name, func(t *testing.T) {
				t.Parallel() // each in its own folder; the fsyncs wait side by side
				crashSafety(t, agent, c)
			})
		}
	}
}

// trustWriter is newWriter with Trust, and a codex --version that says
// the version whose trust hash is exact.
func trustWriter(fault func(string) error) *Writer {
	w := New(Options{Now: fixedNow, Trust: true})
	return WithFault(WithProbe(w, func(string) (string, error) { return "/usr/bin/codex", nil },
		func(context.Context, string, ...string) ([]byte, error) {
			return []byte("codex-cli " + adapters.CodexTrustVersion + "\n"), nil
		}), fault)
}

func crashSafety(t *testing.T, agent string, c crashCase) {
	trust := agent == "codex+trust"
	newWriter := newWriter
	if trust {
		agent, newWriter = "codex", trustWriter
	}
	base := t.TempDir()
	home := filepath.Join(base, "home")
	tg, err := adapters.Resolve(agent, adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	files := []string{tg.Adapter.File(tg)}
	setup := c
	if trust {
		toml := filepath.Join(tg.Dir, "config.toml")
		files = append(files, toml)
		setup.setup = func(t *testing.T, home string, tg adapters.Target) {
			c.setup(t, home, tg)
			if c.name == "existing" {
				writeFile(t, toml, "model = \"o3\"\n")
			}
		}
	}
	read := func() map[string]string {
		m := map[string]string{}
		for _, f := range files {
			m[f] = fileBytes(t, f)
		}
		return m
	}
	// The clean run: before and after.
	resetHome(t, home, tg, setup)
	before := snapshot(t, base)
	orig := read()
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	installed := snapshot(t, base)
	added := read()
	for _, f := range files {
		if added[f] == orig[f] {
			t.Fatalf("add changed nothing in %s", f)
		}
	}
	calls := map[string]int{}
	for _, op := range []string{"add", "remove"} {
		n := 1
		for ; ; n++ {
			resetHome(t, home, tg, setup)
			want, other := added, orig
			if op == "remove" {
				mustOK(t, newWriter(nil).Add(context.Background(), tg))
				want, other = orig, added
			}
			fault, hit := faultAt(n)
			w := newWriter(fault)
			var r Report
			if op == "add" {
				r = w.Add(context.Background(), tg)
			} else {
				r = w.Remove(context.Background(), tg)
			}
			if *hit == "" {
				mustOK(t, r)
				break
			}
			calls[op+" "+*hit]++
			if r.Err == nil && (strings.Contains(*hit, " link ") || strings.Contains(*hit, " rename ")) {
				// A backup that cannot be linked is copied; one that
				// cannot be moved back into place is written there.
				clean := installed
				if op == "remove" {
					clean = before
				}
				if d := treesnap.Diff(clean, snapshot(t, base)); d != "" {
					t.Fatalf("%s with its link failing (%s) is not as a clean %s leaves it:\n%s", op, *hit, op, d)
				}
				continue
			}
			if !errors.Is(r.Err, errFault) {
				t.Fatalf("%s stopped at fault %d (%s): got error %v, want the injected fault", op, n, *hit, r.Err)
			}
			for f, cur := range read() {
				if cur != want[f] && cur != other[f] {
					t.Fatalf("%s stopped at %s: %s is neither before nor after:\n%s", op, *hit, f, cur)
				}
			}
			checkManifest(t, tg, orig)
			checkNoTemp(t, base)

			// Re-running the same command converges.
			if op == "add" {
				mustOK(t, newWriter(nil).Add(context.Background(), tg))
				if d := treesnap.Diff(installed, snapshot(t, base)); d != "" {
					t.Fatalf("add stopped at %s, then add again: home is not as a clean add leaves it:\n%s", *hit, d)
				}
			} else {
				mustOK(t, newWriter(nil).Remove(context.Background(), tg))
				if d := treesnap.Diff(before, snapshot(t, base)); d != "" {
					t.Fatalf("remove stopped at %s, then remove again: home is not the original:\n%s", *hit, d)
				}
				// And an add after the failed remove, then remove.
				resetHome(t, home, tg, setup)
				mustOK(t, newWriter(nil).Add(context.Background(), tg))
				fault, _ := faultAt(n)
				newWriter(fault).Remove(context.Background(), tg)
				mustOK(t, newWriter(nil).Add(context.Background(), tg))
				checkManifest(t, tg, orig) // no record of a backup that is gone
			}
			// A final remove gives back the original home.
			mustOK(t, newWriter(nil).Remove(context.Background(), tg))
			if d := treesnap.Diff(before, snapshot(t, base)); d != "" {
				t.Fatalf("%s stopped at %s, then final remove: home is not the original:\n%s", op, *hit, d)
			}
		}
		t.Logf("%s %s: %d calls of the write interface, each failed before and after: %d faults", t.Name(), op, (n-1)/2, n-1)
	}
	// The calls that every add and remove make were all reached.
	named := []string{"add before lock", "add after lock", "add before write manifest", "add after write manifest",
		"remove before lock", "remove before remove manifest", "remove after remove manifest", "remove before remove 'lock'",
		"remove after remove '" + filepath.Base(tg.HooksDir()) + "'"}
	if !tg.Adapter.Own || c.name != "no-dir" {
		named = append(named, "add before write config", "add after write config")
	}
	if ss, _ := tg.Adapter.Scripts(tg); len(ss) > 0 {
		named = append(named, "add before write script", "add after write script")
	}
	if trust {
		named = append(named, "add before write trust", "add after write trust")
		if c.name == "existing" {
			named = append(named, "remove before rename trust")
		} else {
			named = append(named, "remove before remove trust")
		}
	}
	if c.name == "existing" || c.name == "symlinked" {
		named = append(named, "add before link backup", "add after link backup", "remove before rename config", "remove after rename config")
	}
	if c.name == "no-dir" {
		named = append(named, "add before mkdir '"+filepath.Base(tg.Dir)+"'", "add before chmod '"+filepath.Base(tg.HooksDir())+"'",
			"add before rewrite 'lock'", "remove before remove '"+filepath.Base(tg.Dir)+"'")
	}
	for _, s := range named {
		if calls[s] == 0 {
			t.Errorf("call %q never failed; calls seen: %v", s, calls)
		}
	}
	if c.name == "existing" && calls["add before link backup"] != len(files) {
		t.Errorf("backup linked %d times, want once per file (%d): %v", calls["add before link backup"], len(files), calls)
	}
}

// tempName is how our writes name their temp files (tempFile, configTemp):
// "." + name + ".tmp", with the namespace before it for a config.
var tempName = regexp.MustCompile(`^\..+\.tmp$`)

// checkNoTemp fails when a temp file of ours was left behind.
func checkNoTemp(t *testing.T, root string) {
	t.Helper()
	for p := range snapshot(t, root) {
		b := filepath.Base(p)
		if tempName.MatchString(b) {
			t.Fatalf("temp file left behind: %s", p)
		}
	}
}
