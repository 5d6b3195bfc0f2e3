package writer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/fakecodex"
	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// codexHome is a home with the user's config.toml and hooks.json, and the
// codex target in it.
func codexHome(t *testing.T) (string, adapters.Target) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), "# mine\nmodel = \"o3\"\n")
	writeFile(t, filepath.Join(home, ".codex", "hooks.json"),
		"{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n  }\n}\n")
	tg, err := adapters.Resolve("codex", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
	if err != nil {
		t.Fatal(err)
	}
	return home, tg
}

// fakeWriter is a trust writer whose PATH holds only bin (the fake codex).
func fakeWriter(bin string, dryRun bool) *Writer {
	return New(Options{Now: fixedNow, Trust: true, DryRun: dryRun, Getenv: func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}})
}

// A Codex that is not the release codextrust.go reproduces (0.169.0) still
// gets its trust written: the hashes are the ones its app-server reports
// for a scratch copy of the planned hooks.json, and the same app-server,
// asked about the real files afterwards, reports all four hooks trusted.
// remove then gives back every byte.
func TestTrustAskedOfCodex(t *testing.T) {
	home, tg := codexHome(t)
	log := filepath.Join(t.TempDir(), "asked")
	bin := installFakeCodex(t, fakecodex.Config{Version: "0.169.0", Mode: "honest", Log: log})
	before := snapshot(t, home)

	r := fakeWriter(bin, false).Add(context.Background(), tg)
	mustOK(t, r)
	cfg, _ := readOrAbsent(t, filepath.Join(home, ".codex", "config.toml"))
	if n := strings.Count(cfg, "trusted_hash = \"sha256:"); n != len(tg.Adapter.Events()) {
		t.Fatalf("%d trust records, want %d:\n%s", n, len(tg.Adapter.Events()), cfg)
	}
	if !strings.HasPrefix(cfg, "# mine\nmodel = \"o3\"\n\n[hooks.state.\""+home+"/.codex/hooks.json:") {
		t.Fatalf("config.toml:\n%s", cfg)
	}
	asked, _ := readOrAbsent(t, log)
	dirs := strings.Fields(asked)
	if len(dirs) != 2 || strings.HasPrefix(dirs[0], home) || dirs[1] != filepath.Join(home, ".codex") {
		t.Fatalf("hooks/list was asked in %q, want a scratch dir, then %s", dirs, filepath.Join(home, ".codex"))
	}
	if _, err := os.Stat(dirs[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the scratch dir %s is still there", dirs[0])
	}

	mustOK(t, newWriter(nil).Remove(context.Background(), tg))
	if d := treesnap.Diff(before, snapshot(t, home)); d != "" {
		t.Fatalf("after remove the home differs:\n%s", d)
	}
}

// The app-server's hashes for the scratch copy are not what it expects of
// the real file (here every hash depends on the path): after writing, it
// reports our hooks "modified", and the whole add is undone, byte for
// byte: on a fresh home, and over an install made without --trust.
func TestTrustRolledBackWhenCodexDisagrees(t *testing.T) {
	for _, prior := range []bool{false, true} {
		home, tg := codexHome(t)
		bin := installFakeCodex(t, fakecodex.Config{Version: "0.169.0", Mode: "path-hash"})
		if prior {
			mustOK(t, newWriter(nil).Add(context.Background(), tg))
		}
		before := snapshot(t, home)
		r := fakeWriter(bin, false).Add(context.Background(), tg)
		var ce *adapters.TrustCheckError
		if !errors.As(r.Err, &ce) || !errors.Is(r.Err, adapters.ErrTrustVersion) || r.Status != "error" || len(r.Changes) != 0 {
			t.Fatalf("prior install %v: Add = %q %v %v; want a *TrustCheckError and no changes", prior, r.Status, r.Err, r.Changes)
		}
		if !strings.Contains(r.Err.Error(), home+"/.codex/hooks.json:stop:1:0 is modified") ||
			!strings.Contains(r.Err.Error(), "everything was put back as it was") {
			t.Errorf("message: %v", r.Err)
		}
		if d := treesnap.Diff(before, snapshot(t, home)); d != "" {
			t.Fatalf("prior install %v: the home differs after the roll back:\n%s", prior, d)
		}
	}
}

// A Codex whose app-server cannot list hooks with their hashes (0.125.0
// does not know hooks/list, 0.128.0 lists no currentHash) is refused with
// the reason, nothing written, even on a dry run; the release that
// codextrust.go reproduces falls back on it.
func TestTrustRefusedWithoutHooksList(t *testing.T) {
	for _, c := range []struct{ version, mode, why string }{
		{"0.125.0", "no-method", "(hooks/list: -32600 Invalid request: unknown variant `hooks/list`)"},
		{"0.128.0", "no-hash", "(hooks/list reports no currentHash)"},
	} {
		for _, dry := range []bool{false, true} {
			home, tg := codexHome(t)
			bin := installFakeCodex(t, fakecodex.Config{Version: c.version, Mode: c.mode})
			before := snapshot(t, home)
			r := fakeWriter(bin, dry).Add(context.Background(), tg)
			var te *adapters.TrustVersionError
			if !errors.As(r.Err, &te) || te.Asked == nil {
				t.Fatalf("%s: Add = %q, %v; want a *TrustVersionError with Asked", c.version, r.Status, r.Err)
			}
			want := "codex: --trust: " + bin + "/codex says \"codex-cli " + c.version + "\", and its app-server cannot list hooks with their trust hashes " +
				c.why + "; hookinstall computes trust hashes itself only for 0.171.0; nothing written: trust the hooks in /hooks instead, file not modified"
			if r.Err.Error() != want {
				t.Errorf("message:\n got %s\nwant %s", r.Err, want)
			}
			if d := treesnap.Diff(before, snapshot(t, home)); d != "" {
				t.Fatalf("%s: the home changed:\n%s", c.version, d)
			}
		}
	}
	home, tg := codexHome(t)
	bin := installFakeCodex(t, fakecodex.Config{Version: adapters.CodexTrustVersion, Mode: "no-method"})
	r := fakeWriter(bin, false).Add(context.Background(), tg)
	mustOK(t, r)
	if cfg, _ := readOrAbsent(t, filepath.Join(home, ".codex", "config.toml")); strings.Count(cfg, "trusted_hash") != len(tg.Adapter.Events()) {
		t.Fatalf("the fallback wrote no trust:\n%s", cfg)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "trust hashes computed by hookinstall for codex 0.171.0") {
		t.Errorf("notes: %q", r.Notes)
	}
}

// A release that does not list a hook of ours (0.129.0 has no Interrupt;
// the gate, set here, lets it be written as for a release that has) gets
// no record for it, a note says so, and the rest are trusted.
func TestTrustSkipsHooksCodexDoesNotList(t *testing.T) {
	home, tg := codexHome(t)
	tg.Gate = &adapters.Gate{Version: "0.171.0"}
	bin := installFakeCodex(t, fakecodex.Config{Version: "0.129.0", Mode: "honest", Skip: []string{"Interrupt"}})
	r := fakeWriter(bin, false).Add(context.Background(), tg)
	mustOK(t, r)
	cfg, _ := readOrAbsent(t, filepath.Join(home, ".codex", "config.toml"))
	if strings.Count(cfg, "trusted_hash") != len(tg.Adapter.Events())-1 || strings.Contains(cfg, ":interrupt:") {
		t.Fatalf("config.toml:\n%s", cfg)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "codex does not list our Interrupt hook") {
		t.Errorf("notes: %q", r.Notes)
	}
}

// A crash anywhere in an add --trust that Codex then disowns (every write,
// the roll back's included) leaves a home that a plain remove gives back
// exactly as it was before the add.
func TestTrustRollbackCrashes(t *testing.T) {
	steps := 0
	for n := 1; ; n++ {
		home, tg := codexHome(t)
		bin := installFakeCodex(t, fakecodex.Config{Version: "0.169.0", Mode: "path-hash"})
		before := snapshot(t, home)
		fault, hit := faultAt(n)
		WithFault(fakeWriter(bin, false), fault).Add(context.Background(), tg)
		if *hit == "" {
			break
		}
		steps++
		if r := newWriter(nil).Remove(context.Background(), tg); r.Err != nil {
			t.Errorf("crash at %q (call %d): remove: %v", *hit, n, r.Err)
			continue
		}
		if d := treesnap.Diff(before, snapshot(t, home)); d != "" {
			t.Errorf("crash at %q (call %d): after remove the home differs:\n%s", *hit, n, d)
		}
	}
	if steps < 20 {
		t.Fatalf("only %d fault points: the add and its roll back write more than that", steps)
	}
}

// When the roll back itself stops (a fault at its first write), the message
// says so, and that remove takes out the rest, instead of claiming everything
// was put back.
func TestTrustRollbackStoppedIsSaid(t *testing.T) {
	_, tg := codexHome(t)
	bin := installFakeCodex(t, fakecodex.Config{Version: "0.169.0", Mode: "path-hash"})
	writes := 0
	r := WithFault(fakeWriter(bin, false), func(call string) error {
		if call == "before write 'config.toml'" { // only the roll back writes it under that name
			writes++
			return errFault
		}
		return nil
	}).Add(context.Background(), tg)
	var ce *adapters.TrustCheckError
	if !errors.As(r.Err, &ce) || ce.Undone || !errors.Is(ce.UndoErr, errFault) || writes != 1 {
		t.Fatalf("Add = %v (writes %d); want a TrustCheckError whose undo stopped", r.Err, writes)
	}
	if msg := r.Err.Error(); strings.Contains(msg, "put back as it was") || !strings.Contains(msg, "putting the files back stopped: injected fault; 'hookinstall remove codex' takes out what is left") {
		t.Errorf("message: %s", msg)
	}
}

// An add --trust whose first attempt raced (the agent rewrote hooks.json
// between our read and our rename, after our backup, scripts and manifest
// were written) and which Codex then disowns is undone whole: the undo
// covers every attempt of the run, not only the last, so "everything was
// put back" is true: the home holds only the agent's own rewrite.
func TestTrustRollbackAfterRace(t *testing.T) {
	home, tg := codexHome(t)
	bin := installFakeCodex(t, fakecodex.Config{Version: "0.169.0", Mode: "path-hash"})
	hooks := filepath.Join(home, ".codex", "hooks.json")
	rewritten := "{\n  \"hooks\": {}\n}\n"
	raced := false
	r := WithFault(fakeWriter(bin, false), func(call string) error {
		if call == "before write config" && !raced { // the agent writes its file under us, once
			raced = true
			writeFile(t, hooks, rewritten)
		}
		return nil
	}).Add(context.Background(), tg)
	var ce *adapters.TrustCheckError
	if !raced || !errors.As(r.Err, &ce) || !ce.Undone {
		t.Fatalf("raced %v: Add = %q %v; want a *TrustCheckError, undone", raced, r.Status, r.Err)
	}
	writeFile(t, hooks, rewritten) // what the agent wrote: the one change to expect
	after := snapshot(t, home)
	codexHome2 := filepath.Join(t.TempDir(), "want")
	writeFile(t, filepath.Join(codexHome2, ".codex", "config.toml"), "# mine\nmodel = \"o3\"\n")
	writeFile(t, filepath.Join(codexHome2, ".codex", "hooks.json"), rewritten)
	if d := treesnap.Diff(snapshot(t, codexHome2), after); d != "" {
		t.Fatalf("after the roll back the home is not as before but the agent's rewrite:\n%s", d)
	}
}
