//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The pinned agent versions. npm must be asked for the exact version: on Node 20 an
// unpinned @anthropic-ai/claude-code resolves to an old release (engines field).
var pins = map[string]struct{ pkg, version, bin string }{
	"claude":   {"@anthropic-ai/claude-code", "2.1.332", "claude"},
	"codex":    {"@openai/codex", "0.171.0", "codex"},
	"opencode": {"opencode-ai", "1.18.33", "opencode"},
}

const ns = "hookinstall"

var (
	repoRoot  string // the module root
	artRoot   string // artifacts of this run
	runID     string // marks every process this run starts (HOOKINSTALL_E2E_RUN)
	anyFailed bool

	watchdog    *time.Timer
	watchdogEnd time.Time
	currentCase string

	cleanupMu sync.Mutex
	cleanups  = map[string]func(){} // what the watchdog must stop
)

func onWatchdog(key string, f func()) {
	cleanupMu.Lock()
	cleanups[key] = f
	cleanupMu.Unlock()
}

func offWatchdog(key string) {
	cleanupMu.Lock()
	delete(cleanups, key)
	cleanupMu.Unlock()
}

func runCleanups() {
	cleanupMu.Lock()
	fs := make([]func(), 0, len(cleanups))
	for _, f := range cleanups {
		fs = append(fs, f)
	}
	cleanups = map[string]func(){}
	cleanupMu.Unlock()
	for _, f := range fs {
		f()
	}
	killStrays(runID, 0)
}

func TestMain(m *testing.M) {
	wd, _ := os.Getwd()
	repoRoot = wd // the module root: the nearest folder up with a go.mod
	for {
		if _, err := os.Stat(filepath.Join(repoRoot, "go.mod")); err == nil || filepath.Dir(repoRoot) == repoRoot {
			break
		}
		repoRoot = filepath.Dir(repoRoot)
	}
	runID = fmt.Sprintf("e2e-%d-%d", os.Getpid(), time.Now().Unix())
	var err error
	if artRoot, err = os.MkdirTemp("", "hookinstall-e2e-"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	limit := 540 * time.Second
	if v := os.Getenv("HOOKINSTALL_E2E_TIMEOUT"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s > 0 {
			limit = time.Duration(s) * time.Second
		}
	}
	start := time.Now()
	watchdog = time.AfterFunc(limit, func() {
		cleanupMu.Lock()
		cur := currentCase
		cleanupMu.Unlock()
		fmt.Fprintf(os.Stderr, "\ne2e: WATCHDOG: the run exceeded %v (plus the time npm installs took) during case %q; stopping every agent, tmux server and fake model server it started\n", limit, cur)
		runCleanups()
		fmt.Fprintf(os.Stderr, "e2e: FAIL (watchdog); artifacts kept in %s\n", artRoot)
		os.Exit(1)
	})
	watchdogEnd = start.Add(limit)
	code := m.Run()
	watchdog.Stop()
	runCleanups()
	if code == 0 && !anyFailed && os.Getenv("HOOKINSTALL_E2E_KEEP") == "" {
		os.RemoveAll(artRoot)
		fmt.Printf("e2e: finished in %.1fs\n", time.Since(start).Seconds())
	} else {
		fmt.Printf("e2e: finished in %.1fs; artifacts kept in %s\n", time.Since(start).Seconds(), artRoot)
	}
	os.Exit(code)
}

// wanted reports whether case name is selected by HOOKINSTALL_E2E_AGENTS.
func wanted(name string) bool {
	v := os.Getenv("HOOKINSTALL_E2E_AGENTS")
	if v == "" {
		return true
	}
	for _, f := range strings.Split(v, ",") {
		if strings.TrimSpace(f) == name {
			return true
		}
	}
	return false
}

// cmdOut runs a command with a deadline and returns its combined output.
func cmdOut(timeout time.Duration, dir string, env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
	c.Dir = dir
	if env != nil {
		c.Env = env
	}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 5 * time.Second
	var b bytes.Buffer
	c.Stdout, c.Stderr, c.Stdin = &b, &b, nil
	err := c.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s timed out after %v: %w", name, timeout, err)
	}
	return b.String(), err
}

// ---------------------------------------------------------------- agents from npm

type agentBin struct {
	path    string // the executable
	version string // what `--version` printed, first line
}

var (
	installMu sync.Mutex
	installed = map[string]*agentBin{}
)

func cacheDir() string {
	if v := os.Getenv("HOOKINSTALL_E2E_CACHE"); v != "" {
		return v
	}
	h, _ := os.UserHomeDir()
	return filepath.Join(h, ".cache", "hookinstall-e2e")
}

// installedVersion reads the version of pkg in an npm prefix, "" when absent.
func installedVersion(prefix, pkg string) string {
	b, err := os.ReadFile(filepath.Join(prefix, "node_modules", pkg, "package.json"))
	if err != nil {
		return ""
	}
	var p struct{ Version string }
	_ = json.Unmarshal(b, &p)
	return p.Version
}

// agent installs (or reuses) the pinned version of an agent and asks the binary
// for its version.
func agent(t *testing.T, name string) *agentBin {
	t.Helper()
	installMu.Lock()
	defer installMu.Unlock()
	if a, ok := installed[name]; ok {
		return a
	}
	pin := pins[name]
	dir := filepath.Join(cacheDir(), name+"-"+pin.version)
	bin := filepath.Join(dir, "node_modules", ".bin", pin.bin)
	ok := func(prefix string) bool {
		_, err := os.Stat(filepath.Join(prefix, "node_modules", ".bin", pin.bin))
		return err == nil && installedVersion(prefix, pin.pkg) == pin.version
	}
	if ok(dir) {
		t.Logf("%s: reusing %s@%s in %s", name, pin.pkg, pin.version, dir)
	} else {
		if err := os.MkdirAll(cacheDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		tmp, err := os.MkdirTemp(cacheDir(), ".tmp-"+name+"-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		t0 := time.Now()
		t.Logf("%s: npm install %s@%s into %s", name, pin.pkg, pin.version, dir)
		out, err := cmdOut(5*time.Minute, tmp, nil, "npm", "install", "--prefix", tmp,
			"--no-audit", "--no-fund", "--loglevel=warn", pin.pkg+"@"+pin.version)
		if err != nil || !ok(tmp) {
			t.Fatalf("%s: npm install %s@%s failed (%v):\n%s", name, pin.pkg, pin.version, err, tail(out, 40))
		}
		os.RemoveAll(dir) // a broken or wrong-version install
		if err := os.Rename(tmp, dir); err != nil && !ok(dir) {
			t.Fatalf("%s: %v", name, err)
		}
		took := time.Since(t0)
		t.Logf("%s: installed in %.1fs", name, took.Seconds())
		extendWatchdog(took) // the agent-driving budget does not pay for downloads
	}
	scratch := t.TempDir()
	env := []string{"PATH=" + basePath(), "HOME=" + scratch, "CODEX_HOME=" + scratch, "XDG_CONFIG_HOME=" + scratch}
	out, err := cmdOut(60*time.Second, scratch, env, bin, "--version")
	v := strings.TrimSpace(lastLine(out))
	if err != nil || !strings.Contains(v, pin.version) {
		t.Fatalf("%s: `%s --version` = %q (%v), want %s", name, bin, strings.TrimSpace(out), err, pin.version)
	}
	a := &agentBin{path: bin, version: v}
	installed[name] = a
	return a
}

// basePath is the PATH agents get: node's directory first (codex's launcher is a
// node script), then the system directories.
func basePath() string {
	p := "/usr/local/bin:/usr/bin:/bin"
	if node, err := exec.LookPath("node"); err == nil {
		if d := filepath.Dir(node); !strings.Contains(":"+p+":", ":"+d+":") {
			p = d + ":" + p
		}
	}
	return p
}

func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return ls[len(ls)-1]
}

func tail(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// ---------------------------------------------------------------- hookinstall itself

var (
	buildOnce sync.Once
	hiBin     string
	buildErr  error
)

func hookinstallBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if b := os.Getenv("HOOKINSTALL_E2E_BIN"); b != "" {
			hiBin = b // a prebuilt binary (another branch, a release)
			if _, err := os.Stat(b); err != nil {
				buildErr = fmt.Errorf("HOOKINSTALL_E2E_BIN: %v", err)
			}
			return
		}
		if _, err := os.Stat(filepath.Join(repoRoot, "cmd", "hookinstall")); err != nil {
			buildErr = fmt.Errorf("no ./cmd/hookinstall on this branch yet")
			return
		}
		hiBin = filepath.Join(artRoot, "bin", "hookinstall")
		out, err := cmdOut(5*time.Minute, repoRoot, nil, "go", "build", "-o", hiBin, "./cmd/hookinstall")
		if err != nil {
			buildErr = fmt.Errorf("go build ./cmd/hookinstall: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return hiBin
}

// ---------------------------------------------------------------- stray processes

// killStrays finds processes whose environment carries HOOKINSTALL_E2E_RUN=id (every
// agent this run starts has it), kills them by pid, and returns their descriptions.
func killStrays(id string, grace time.Duration) []string {
	find := func() map[int]string {
		found := map[int]string{}
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err != nil || !hasRunMark(env, id) {
				continue
			}
			cl, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			found[pid] = strings.TrimSpace(string(bytes.ReplaceAll(cl, []byte{0}, []byte{' '})))
		}
		return found
	}
	deadline := time.Now().Add(grace)
	found := find()
	for len(found) > 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		found = find()
	}
	var out []string
	for pid, cl := range found {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		out = append(out, fmt.Sprintf("pid %d: %s", pid, cl))
	}
	return out
}

// hasRunMark reports whether a /proc environ block holds HOOKINSTALL_E2E_RUN=id or
// HOOKINSTALL_E2E_RUN=id/anything.
func hasRunMark(env []byte, id string) bool {
	for _, kv := range bytes.Split(env, []byte{0}) {
		v, ok := bytes.CutPrefix(kv, []byte("HOOKINSTALL_E2E_RUN="))
		if ok && (string(v) == id || bytes.HasPrefix(v, []byte(id+"/"))) {
			return true
		}
	}
	return false
}

// extendWatchdog moves the watchdog's deadline d later.
func extendWatchdog(d time.Duration) {
	cleanupMu.Lock()
	defer cleanupMu.Unlock()
	if watchdog != nil && watchdog.Stop() {
		watchdogEnd = watchdogEnd.Add(d)
		watchdog.Reset(time.Until(watchdogEnd))
	}
}
