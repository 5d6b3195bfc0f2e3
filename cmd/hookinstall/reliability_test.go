package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/treesnap"

	"github.com/hookinstall/hookinstall/manifest"
)

var (
	loadDuration = flag.Duration("load.duration", 0, "how long TestLoadWithRewriter runs (default $HOOKINSTALL_LOAD_DURATION or 3s)")
	killRounds   = flag.Int("kill.rounds", 0, "rounds of TestSIGKILL (default $HOOKINSTALL_KILL_ROUNDS or 40)")
)

func envDuration(t *testing.T, flagVal time.Duration, env string, def time.Duration) time.Duration {
	if flagVal > 0 {
		return flagVal
	}
	if v := os.Getenv(env); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("$%s: %v", env, err)
		}
		return d
	}
	return def
}

func envInt(t *testing.T, flagVal int, env string, def int) int {
	if flagVal > 0 {
		return flagVal
	}
	if v := os.Getenv(env); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("$%s: %v", env, err)
		}
		return n
	}
	return def
}

// treeOf records every node under root; a lock file's bytes are bookkeeping
// (the folders a run created), not a result, so only its mode counts.
func treeOf(t *testing.T, root string) treesnap.Tree {
	t.Helper()
	tr, err := treesnap.Take(root, treesnap.Options{SkipData: func(rel string) bool { return path.Base(rel) == "lock" }})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// runHI runs the hookinstall binary on home to completion.
func runHI(t *testing.T, bin, home string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = hiEnv(home)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func hiEnv(home string) []string {
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	return env
}

// checkKilledState asserts what must hold whenever hookinstall stops, even
// killed: settings.json is byte for byte the original or the installed
// version; a manifest that is present loads and tells the truth.
func checkKilledState(t *testing.T, home, orig, added string) {
	t.Helper()
	cfg := filepath.Join(home, ".claude", "settings.json")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatalf("settings.json: %v", err)
	}
	cur := string(b)
	if cur != orig && cur != added {
		t.Fatalf("settings.json is neither the original nor the installed version:\n%s", cur)
	}
	hooks := filepath.Join(home, ".claude", "hookinstall-hooks")
	raw, err := os.ReadFile(filepath.Join(hooks, manifest.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		if cur == added {
			t.Fatal("settings.json holds our entries but there is no manifest")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(raw)
	if err != nil {
		t.Fatalf("manifest does not load: %v\n%s", err, raw)
	}
	if len(m.Files) != 1 || m.Files[0].PostSHA256 != sum([]byte(added)) || m.Files[0].PreSHA256 != sum([]byte(orig)) {
		t.Fatalf("manifest does not describe the install:\n%s", raw)
	}
	if bk, err := os.ReadFile(filepath.Join(hooks, m.Files[0].Backup)); err == nil && string(bk) != orig {
		t.Fatalf("backup is not the original")
	} else if err != nil && cur == added {
		t.Fatalf("settings.json holds our entries but the backup is gone: %v", err)
	}
	for _, s := range m.Scripts {
		sb, err := os.ReadFile(filepath.Join(home, s.Path))
		if err == nil && sum(sb) != s.SHA256 {
			t.Fatalf("script %s is partial or wrong", s.Path)
		}
		if err != nil && cur == added {
			t.Fatalf("settings.json holds our entries but %s is gone", s.Path)
		}
	}
}

// TestSIGKILL kills real hookinstall processes (this test binary re-exec'd
// as hookinstall) with SIGKILL at random moments, round after round, never
// resetting in between: after every kill the config is its before or its
// after and the manifest is consistent or absent; now and then the same
// command is run to the end and must converge; a final remove gives back the
// original home exactly, with no temp file or folder left behind.
func TestSIGKILL(t *testing.T) {
	t.Parallel()
	bin := hookinstallBin(t)
	rounds := envInt(t, *killRounds, "HOOKINSTALL_KILL_ROUNDS", 40)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	original := treeOf(t, home)
	// One clean add and remove: the bytes and how long a run takes.
	start := time.Now()
	if out, err := runHI(t, bin, home, "add", "claude"); err != nil {
		t.Fatalf("add: %v\n%s", err, out)
	}
	runTime := time.Since(start)
	added, _ := os.ReadFile(cfg)
	installed := treeOf(t, home)
	if out, err := runHI(t, bin, home, "remove", "claude"); err != nil {
		t.Fatalf("remove: %v\n%s", err, out)
	}
	if d := treesnap.Diff(original, treeOf(t, home)); d != "" {
		t.Fatalf("clean add+remove is not exact:\n%s", d)
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	seed := rng.Int63()
	rng.Seed(seed)
	t.Logf("seed %d, rounds %d, a clean run takes about %v", seed, rounds, runTime)
	killed := 0
	for i := 0; i < rounds; i++ {
		op := []string{"add", "remove"}[rng.Intn(2)]
		cmd := exec.Command(bin, op, "claude")
		cmd.Env = hiEnv(home)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int63n(int64(runTime) + 1)))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		}
		checkKilledState(t, home, userSettings, string(added))
		if i%5 == 4 {
			// The same command, run to the end, converges.
			if out, err := runHI(t, bin, home, op, "claude"); err != nil {
				t.Fatalf("round %d: %s after a kill: %v\n%s", i, op, err, out)
			}
			want := installed
			if op == "remove" {
				want = original
			}
			if d := treesnap.Diff(want, treeOf(t, home)); d != "" {
				t.Fatalf("round %d: %s after a kill did not converge:\n%s", i, op, d)
			}
		}
	}
	if out, err := runHI(t, bin, home, "remove", "claude"); err != nil {
		t.Fatalf("final remove: %v\n%s", err, out)
	}
	if d := treesnap.Diff(original, treeOf(t, home)); d != "" {
		t.Fatalf("final remove did not give back the original home:\n%s", d)
	}
	t.Logf("%d of %d processes killed before they ended", killed, rounds)
}

// rewriterSettings is a user's settings.json with a counter that the
// rewriter (standing in for Claude Code) bumps.
var rewriterSettings = strings.Replace(userSettings, `"model": "opus",`, `"model": "opus",
  "rewrites": 0,`, 1)

var counterRe = regexp.MustCompile(`"rewrites": ([0-9]+)`)

// TestLoadWithRewriter runs several hookinstall processes adding and
// removing on one HOME while another writer rewrites settings.json whole and
// in place, without any lock, as Claude Code does (read, change an unrelated
// key, write back). Every version of the file the rewriter reads (it reads
// under its own mutex, so never its own torn write) is valid JSON with every
// user entry and at most one of ours per event; every hookinstall failure is
// one it reports as a race or a torn read, and writes nothing for; and once
// everyone stops, add then remove settle on exactly the user's file.
// Duration: -load.duration or $HOOKINSTALL_LOAD_DURATION (default 3s).
func TestLoadWithRewriter(t *testing.T) {
	t.Parallel()
	bin := hookinstallBin(t)
	dur := envDuration(t, *loadDuration, "HOOKINSTALL_LOAD_DURATION", 3*time.Second)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(rewriterSettings), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(dur)
	var (
		mu       sync.Mutex // the rewriter's own
		failMu   sync.Mutex
		failures []string
		runs     = map[string]int{}
		wg       sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		failMu.Lock()
		failures = append(failures, fmt.Sprintf(format, args...))
		failMu.Unlock()
	}
	// The rewriter.
	rewrites, lost := 0, 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for time.Now().Before(deadline) {
			mu.Lock()
			b, err := os.ReadFile(cfg)
			if err != nil {
				fail("rewriter read: %v", err)
				mu.Unlock()
				return
			}
			if p := settingsProblem(b, home); p != "" {
				fail("%s", p)
			}
			m := counterRe.FindSubmatch(b)
			if m == nil {
				fail("the rewriter's key is gone:\n%s", b)
				mu.Unlock()
				return
			}
			n, _ := strconv.Atoi(string(m[1]))
			if n != rewrites {
				lost++ // its last write went to a file that a rename replaced
			}
			rewrites = n + 1
			nb := counterRe.ReplaceAll(b, []byte(`"rewrites": `+strconv.Itoa(rewrites)))
			f, err := os.OpenFile(cfg, os.O_WRONLY|os.O_TRUNC, 0)
			if err == nil {
				_, err = f.Write(nb)
				f.Close()
			}
			if err != nil {
				fail("rewriter write: %v", err)
			}
			mu.Unlock()
			time.Sleep(time.Millisecond)
		}
	}()
	// The hookinstall processes.
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w)))
			for time.Now().Before(deadline) {
				op := []string{"add", "remove"}[rng.Intn(2)]
				cmd := exec.Command(bin, op, "claude")
				cmd.Env = hiEnv(home)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				failMu.Lock()
				switch {
				case err == nil:
					runs[op+" ok"]++
				case strings.Contains(stderr.String(), "changed while hookinstall was writing"):
					runs[op+" raced"]++
				case (strings.Contains(stderr.String(), "settings.json: invalid JSON") || strings.Contains(stderr.String(), "settings.json: is empty;")) &&
					strings.Contains(stderr.String(), "file not modified"):
					runs[op+" torn read"]++
				default:
					failures = append(failures, fmt.Sprintf("%s: %v\n%s", op, err, stderr.String()))
				}
				failMu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("%v in %v; %d rewrites, %d of them lost to a rename between the agent's read and write (the agent's doing)", runs, dur, rewrites, lost)
	// Everyone has stopped: add, then remove, settle exactly.
	now, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := counterRe.FindSubmatch(now)
	if m == nil {
		t.Fatalf("rewriter key gone:\n%s", now)
	}
	want := counterRe.ReplaceAllString(rewriterSettings, `"rewrites": `+string(m[1]))
	// What the final add and remove started from, for a failure to show
	// which record was in place and which backup a restore would use.
	hooksDir := filepath.Join(home, ".claude", "hookinstall-hooks")
	state := func(stage, said string) string {
		mb, merr := os.ReadFile(filepath.Join(hooksDir, manifest.FileName))
		bb, berr := os.ReadFile(filepath.Join(hooksDir, "backup", "settings.json"))
		fb, _ := os.ReadFile(cfg)
		return fmt.Sprintf("--- %s: settings.json (sha256 %s):\n%s\nmanifest (%v):\n%s\nbackup (%v):\n%s\nhookinstall said:\n%s\n",
			stage, sum(fb), fb, merr, mb, berr, bb, said)
	}
	beforeAdd := state("before the final add", "")
	out, err := runHI(t, bin, home, "add", "claude")
	if err != nil {
		t.Fatalf("final add: %v\n%s", err, out)
	}
	afterAdd := state("after the final add", out)
	b, _ := os.ReadFile(cfg)
	if p := settingsProblem(b, home); p != "" {
		t.Fatal(p)
	}
	for _, ev := range []string{"UserPromptSubmit", "PermissionRequest", "Stop"} {
		if n := strings.Count(string(b), "hookinstall-hooks/"+map[string]string{"UserPromptSubmit": "user-prompt-submit.sh", "PermissionRequest": "permission-request.sh", "Stop": "stop.sh"}[ev]); n != 1 {
			t.Fatalf("after the final add, %s has %d entries of ours:\n%s", ev, n, b)
		}
	}
	out, err = runHI(t, bin, home, "remove", "claude")
	if err != nil {
		t.Fatalf("final remove: %v\n%s", err, out)
	}
	b, _ = os.ReadFile(cfg)
	if string(b) != want {
		t.Fatalf("after the final remove settings.json is not the user's file:\ngot:\n%s\nwant:\n%s\nremove said:\n%s\n%s%s", b, want, out, beforeAdd, afterAdd)
	}
	ents, _ := os.ReadDir(filepath.Dir(cfg))
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("~/.claude holds %v after the final remove, want only settings.json", names)
	}
}

// settingsProblem says what is wrong with a version of the user's
// settings.json: not JSON, a user value or entry lost, ours duplicated.
func settingsProblem(data []byte, home string) string {
	var v struct {
		Model    string                       `json:"model"`
		Rewrites *int                         `json:"rewrites"`
		Hooks    map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Sprintf("settings.json is not valid JSON: %v\n%s", err, data)
	}
	if v.Model != "opus" || v.Rewrites == nil {
		return fmt.Sprintf("a user value is lost:\n%s", data)
	}
	if len(v.Hooks["Stop"]) == 0 || !strings.Contains(string(v.Hooks["Stop"][0]), "notify-send done") {
		return fmt.Sprintf("the user's Stop entry is lost:\n%s", data)
	}
	if len(v.Hooks["PreToolUse"]) != 1 || !strings.Contains(string(v.Hooks["PreToolUse"][0]), "audit.sh") {
		return fmt.Sprintf("the user's PreToolUse entry is lost:\n%s", data)
	}
	prefix := home + "/.claude/hookinstall-hooks/"
	for ev, entries := range v.Hooks {
		n := 0
		for _, e := range entries {
			if strings.Contains(string(e), prefix) {
				n++
			}
		}
		if n > 1 {
			return fmt.Sprintf("%s: our entry appears %d times:\n%s", ev, n, data)
		}
	}
	return ""
}
