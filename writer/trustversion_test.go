package writer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// Trust asked of the writer (not only of the CLI) is refused with
// adapters.ErrTrustVersion, and nothing at all is written under the home,
// unless the codex on the caller's PATH says it is CodexTrustVersion: with
// no codex on PATH, another version, or a codex that fails. Even a dry run
// asks.
func TestTrustNeedsTheExactCodexVersion(t *testing.T) {
	bin := t.TempDir()
	codex := func(script string) {
		if err := os.WriteFile(filepath.Join(bin, "codex"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}
	for _, tt := range []struct {
		name, script string
		dryRun       bool
	}{
		{"no codex on PATH", "", false},
		{"another version", "echo codex-cli 0.172.0", false},
		{"another version, dry run", "echo codex-cli 0.172.0", true},
		{"a prefix of the version", "echo codex-cli 0.171.0-alpha", false},
		{"codex fails", "echo codex-cli " + adapters.CodexTrustVersion + "; exit 1", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(filepath.Join(bin, "codex"))
			if tt.script != "" {
				codex(tt.script)
			}
			home := filepath.Join(t.TempDir(), "home")
			writeFile(t, filepath.Join(home, ".codex", "config.toml"), "model = \"o3\"\n")
			writeFile(t, filepath.Join(home, ".codex", "hooks.json"), "{\n  \"hooks\": {}\n}\n")
			tg, err := adapters.Resolve("codex", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
			if err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, home)
			w := New(Options{Now: fixedNow, Trust: true, DryRun: tt.dryRun, Getenv: path})
			r := w.Add(context.Background(), tg)
			if !errors.Is(r.Err, adapters.ErrTrustVersion) || r.Status != "error" {
				t.Fatalf("Add = %q, %v; want ErrTrustVersion", r.Status, r.Err)
			}
			var te *adapters.TrustVersionError
			if !errors.As(r.Err, &te) || te.Want != adapters.CodexTrustVersion {
				t.Fatalf("error %v is no *adapters.TrustVersionError", r.Err)
			}
			if d := treesnap.Diff(before, snapshot(t, home)); d != "" {
				t.Fatalf("the home changed:\n%s", d)
			}
		})
	}
	t.Run("the exact version", func(t *testing.T) {
		codex("echo codex-cli " + adapters.CodexTrustVersion)
		home := filepath.Join(t.TempDir(), "home")
		tg, err := adapters.Resolve("codex", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
		if err != nil {
			t.Fatal(err)
		}
		r := New(Options{Now: fixedNow, Trust: true, Getenv: path}).Add(context.Background(), tg)
		mustOK(t, r)
		b, ok := readOrAbsent(t, filepath.Join(home, ".codex", "config.toml"))
		if !ok || !bytes.Contains([]byte(b), []byte("trusted_hash = \"sha256:")) {
			t.Fatalf("no trust records written:\n%s", b)
		}
	})
}
