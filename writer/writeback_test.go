package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// Claude Code rewrites settings.json in place from a copy it read earlier.
// When that copy was read before a remove and written after it, the file
// holds our entries again while the manifest, scripts and backup are gone
// (TestLoadWithRewriter hit this under load). An add then finds entries of
// ours and no manifest: its backup must be the user's file without them, so
// that the exact restore of the next remove gives back the user's file, and
// never our entries pointing at deleted scripts.
func TestAddAfterStaleWriteBackRemovesExactly(t *testing.T) {
	for _, c := range []struct{ name, orig string }{
		{"user hooks", "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}\n    ]\n  }\n}\n"},
		{"no hooks", "{\n  \"model\": \"opus\"\n}\n"},
		{"compact", `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`},
		{"large", "{\n  \"model\": \"opus\",\n  \"notes\": \"" + strings.Repeat("x", 256<<10) + "\"\n}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, tg := newHome(t)
			cfg := tg.Adapter.File(tg)
			writeFile(t, cfg, c.orig)
			w := newWriter(nil)
			mustOK(t, w.Add(context.Background(), tg))
			added, _ := readOrAbsent(t, cfg)
			mustOK(t, w.Remove(context.Background(), tg))
			if got, _ := readOrAbsent(t, cfg); got != c.orig {
				t.Fatalf("plain add+remove is not exact:\n%q\nwant\n%q", got, c.orig)
			}
			// The agent's stale write-back, in place.
			if err := os.WriteFile(cfg, []byte(added), 0); err != nil {
				t.Fatal(err)
			}
			mustOK(t, w.Add(context.Background(), tg))
			if got, _ := readOrAbsent(t, cfg); got != added {
				t.Fatalf("add rewrote a file that already held our entries as add writes them:\n%q\nwant\n%q", got, added)
			}
			m := readManifest(t, tg)
			bk, err := os.ReadFile(filepath.Join(tg.HooksDir(), m.Files[0].Backup))
			if err != nil {
				t.Fatal(err)
			}
			if string(bk) != c.orig || m.Files[0].PreSHA256 != manifest.Sum([]byte(c.orig)) {
				t.Fatalf("the backup is not the user's file without our entries (pre_sha256 %s):\n%q\nwant\n%q", m.Files[0].PreSHA256, bk, c.orig)
			}
			mustOK(t, w.Remove(context.Background(), tg))
			if got, _ := readOrAbsent(t, cfg); got != c.orig {
				t.Fatalf("remove after the write-back and an add left:\n%q\nwant\n%q", got, c.orig)
			}
			if _, err := os.Lstat(tg.HooksDir()); !os.IsNotExist(err) {
				t.Fatalf("hooks dir left behind: %v", err)
			}

			// An install made before add looked for our entries has the
			// file with them as its backup: remove must not restore it.
			if err := os.WriteFile(cfg, []byte(added), 0); err != nil {
				t.Fatal(err)
			}
			mustOK(t, w.Add(context.Background(), tg))
			m.Files[0].PreSHA256 = manifest.Sum([]byte(added))
			writeFile(t, filepath.Join(tg.HooksDir(), manifest.FileName), string(m.Marshal()))
			writeFile(t, filepath.Join(tg.HooksDir(), m.Files[0].Backup), added)
			mustOK(t, w.Remove(context.Background(), tg))
			if got, _ := readOrAbsent(t, cfg); got != c.orig {
				t.Fatalf("remove with a backup holding our entries left:\n%q\nwant\n%q", got, c.orig)
			}
			if _, err := os.Lstat(tg.HooksDir()); !os.IsNotExist(err) {
				t.Fatalf("hooks dir left behind: %v", err)
			}
		})
	}
}

// The same for a file that is ours alone (OpenCode's plugin): written back
// with no manifest, an add records it as created instead of backing it up,
// and remove deletes it rather than restoring it.
func TestAddAfterStaleWriteBackOwnFile(t *testing.T) {
	home, _ := newHome(t)
	tg, err := adapters.Resolve("opencode", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	cfg := tg.Adapter.File(tg)
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	added, _ := readOrAbsent(t, cfg)
	mustOK(t, w.Remove(context.Background(), tg))
	writeFile(t, cfg, added)
	mustOK(t, w.Add(context.Background(), tg))
	raw, err := os.ReadFile(filepath.Join(tg.HooksDir(), manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := manifest.Load(raw); err != nil || !m.Files[0].Created || m.Files[0].Backup != "" {
		t.Fatalf("the plugin is not recorded as created by the install (%v):\n%s", err, raw)
	}
	mustOK(t, w.Remove(context.Background(), tg))
	if got, ok := readOrAbsent(t, cfg); ok {
		t.Fatalf("remove left our plugin behind:\n%s", got)
	}
}

// Our entries written back with the hooks dir spelled with JSON escapes
// (the namespace nowhere as it is) are found too.
func TestAddAfterStaleWriteBackEscaped(t *testing.T) {
	_, tg := newHome(t)
	cfg := tg.Adapter.File(tg)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	writeFile(t, cfg, orig)
	w := newWriter(nil)
	mustOK(t, w.Add(context.Background(), tg))
	added, _ := readOrAbsent(t, cfg)
	mustOK(t, w.Remove(context.Background(), tg))
	escaped := strings.ReplaceAll(added, tg.NS+"-hooks", `\u0068`+tg.NS[1:]+"-hooks")
	if escaped == added || strings.Contains(escaped, tg.NS) {
		t.Fatalf("the namespace is still there as it is:\n%s", escaped)
	}
	writeFile(t, cfg, escaped)
	mustOK(t, w.Add(context.Background(), tg))
	mustOK(t, w.Remove(context.Background(), tg))
	if got, _ := readOrAbsent(t, cfg); got != orig {
		t.Fatalf("remove left:\n%q\nwant\n%q", got, orig)
	}
}
