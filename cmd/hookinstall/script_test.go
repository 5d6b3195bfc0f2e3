//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookinstall/hookinstall/internal/fakecodex"
	"github.com/hookinstall/hookinstall/internal/testonly"
	"github.com/hookinstall/hookinstall/internal/treesnap"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/script")

// fixedNow makes manifests byte-stable in tests.
func fixedNow() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "codex" { // linked by the fakecodex command
		os.Exit(fakecodex.Main(os.Args[1:]))
	}
	if filepath.Base(os.Args[0]) == "fakeagent" { // started by the agent command
		os.Exit(fakeAgent(os.Args[1:]))
	}
	// The agents' machine-wide files (/etc/claude-code, /etc/codex, ...)
	// are looked up under a folder that does not exist, in this process
	// and in every hookinstall it starts (each starts here too, some with
	// an environment of their own), so that this machine's own (a
	// managed-settings.json that switches hooks off) cannot change what the
	// tests see. A testscript sets its own (Setup). A fixed name, not a
	// temporary folder: a killed or exec'd child could not remove one.
	if os.Getenv("TEST_SYSTEM_ROOT") == "" {
		os.Setenv("TEST_SYSTEM_ROOT", filepath.Join(os.TempDir(), "hookinstall-tests-no-system-root"))
	}
	testonly.SystemRoot = os.Getenv("TEST_SYSTEM_ROOT")
	testscript.Main(m, map[string]func(){
		"hookinstall": func() {
			testonly.Now = fixedNow
			textWidth = 1 << 20
			testonly.SystemRoot = os.Getenv("TEST_SYSTEM_ROOT")
			testonly.GOOS = os.Getenv("TEST_GOOS")
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
		},
	})
}

func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams("../../testdata/script"))
}

// ownCorpus is our own small corpus of agent configs, always there.
func ownCorpus() string {
	abs, _ := filepath.Abs("../../testdata/corpus")
	return abs
}

// sharedCorpus is the project's full corpus of real agent configs (read in
// place): $HOOKINSTALL_CORPUS, else ../shared/corpus beside the clone, or ""
// when it is absent. CI sets HOOKINSTALL_CORPUS, so there it must exist.
func sharedCorpus() (string, error) {
	if d := os.Getenv("HOOKINSTALL_CORPUS"); d != "" {
		if _, err := os.Stat(d); err != nil {
			return "", fmt.Errorf("HOOKINSTALL_CORPUS: %w", err)
		}
		return filepath.Abs(d)
	}
	abs, _ := filepath.Abs("../../../shared/corpus")
	if _, err := os.Stat(abs); err != nil {
		return "", nil
	}
	return abs, nil
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			for _, v := range []string{"XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GROK_HOME", "OPENCODE_CONFIG_DIR", "GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "QWEN_HOME",
				"QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH", "TEST_GOOS",
				"KIMI_CODE_HOME", "HOOKINSTALL_NAMESPACE", "HOOKINSTALL_TASK_ID", "HOOKINSTALL_PTY", "GROK_HOOK_EVENT", "TMUX"} {
				env.Setenv(v, "")
			}
			// $CORPUS is our own corpus; $SHARED_CORPUS the full one, for
			// the scripts under [sharedcorpus].
			env.Setenv("CORPUS", ownCorpus())
			shared, err := sharedCorpus()
			if err != nil {
				return err
			}
			env.Setenv("SHARED_CORPUS", shared)
			// The agents' system files (Claude's managed settings, Codex's
			// requirements) under $WORK/etc instead of /etc, for add,
			// status and doctor alike.
			env.Setenv("TEST_SYSTEM_ROOT", env.WorkDir)
			// The agents' --version answers are kept in $WORK/cache, not
			// in the HOME that the scripts compare.
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, "cache"))
			// Terminal-mode hooks keep their sessions' records in $WORK/run.
			env.Setenv("XDG_RUNTIME_DIR", filepath.Join(env.WorkDir, "run"))
			if err := os.Mkdir(filepath.Join(env.WorkDir, "run"), 0o700); err != nil {
				return err
			}
			return os.MkdirAll(home, 0o755)
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "sharedcorpus":
				d, err := sharedCorpus()
				return d != "", err
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"cmpmode":        cmdCmpmode,
			"issymlink":      cmdIssymlink,
			"unix2dos":       cmdUnix2dos,
			"rmfinalnewline": cmdRmfinalnewline,
			"prependbom":     cmdPrependbom,
			"jsonvalid":      cmdJSONValid,
			"savemtime":      cmdSavemtime,
			"cmpmtime":       cmdCmpmtime,
			"countentries":   cmdCountEntries,
			"writebytes":     cmdWritebytes,
			"snapshot":       cmdSnapshot,
			"snaptree":       cmdSnaptree,
			"cmpsnaptree":    cmdCmpsnaptree,
			"mkfifo":         cmdMkfifo,
			"bigjson":        cmdBigjson,
			"nestjson":       cmdNestjson,
			"chown":          cmdChown,
			"treegrep":       cmdTreegrep,
			"replace":        cmdReplace,
			"trusthooks":     cmdTrusthooks,
			"fakecodex":      cmdFakecodex,
			"agent":          cmdAgent,
			"waitfor":        cmdWaitfor,
			"tmuxserver":     cmdTmuxserver,
			"procgone":       cmdProcgone,
			"execagents":     cmdExecagents,
			"healthyhome":    cmdHealthyhome,
			"lines":          cmdLines,
		},
	}
}

// cmpmode PERM FILE: the file's permission bits are PERM (octal).
func cmdCmpmode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpmode PERM FILE")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[1]))
	ts.Check(err)
	got := uint64(fi.Mode().Perm())
	if (got == want) == neg {
		ts.Fatalf("mode of %s is %04o, want %s%04o", args[1], got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// issymlink FILE: FILE is a symbolic link.
func cmdIssymlink(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: issymlink FILE")
	}
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if (fi.Mode()&os.ModeSymlink != 0) == neg {
		ts.Fatalf("%s: symlink is %v", args[0], !neg)
	}
}

func rewrite(ts *testscript.TestScript, file string, f func([]byte) []byte) {
	p := ts.MkAbs(file)
	b, err := os.ReadFile(p)
	ts.Check(err)
	ts.Check(os.WriteFile(p, f(b), 0o644))
}

// unix2dos FILE: LF becomes CRLF.
func cmdUnix2dos(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		rewrite(ts, a, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) })
	}
}

// rmfinalnewline FILE: drop the last newline (txtar always ends with one).
func cmdRmfinalnewline(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		rewrite(ts, a, func(b []byte) []byte { return bytes.TrimSuffix(b, []byte("\n")) })
	}
}

// prependbom FILE: add a UTF-8 byte order mark.
func cmdPrependbom(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		rewrite(ts, a, func(b []byte) []byte { return append([]byte("\xef\xbb\xbf"), b...) })
	}
}

// writebytes FILE QUOTED: write Go-quoted bytes to FILE ("a\x00b").
func cmdWritebytes(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: writebytes FILE GO-QUOTED-STRING")
	}
	s, err := strconv.Unquote(args[1])
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(s), 0o644))
}

// jsonvalid FILE: FILE is valid JSON.
func cmdJSONValid(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		b, err := os.ReadFile(ts.MkAbs(a))
		ts.Check(err)
		if json.Valid(b) == neg {
			ts.Fatalf("%s: valid JSON is %v", a, !neg)
		}
	}
}

// savemtime FILE NAME: remember FILE's mtime as NAME.
func cmdSavemtime(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: savemtime FILE NAME")
	}
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Setenv("MTIME_"+args[1], strconv.FormatInt(fi.ModTime().UnixNano(), 10))
}

// cmpmtime FILE NAME: FILE's mtime is the one saved as NAME.
func cmdCmpmtime(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpmtime FILE NAME")
	}
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	same := strconv.FormatInt(fi.ModTime().UnixNano(), 10) == ts.Getenv("MTIME_"+args[1])
	if same == neg {
		ts.Fatalf("%s: mtime unchanged is %v", args[0], same)
	}
}

// countentries FILE SUBSTRING N: N is how many times SUBSTRING occurs in FILE.
func cmdCountEntries(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: countentries FILE SUBSTRING N")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	if got := strings.Count(string(b), args[1]); (got == n) == neg {
		ts.Fatalf("%s: %q occurs %d times, want %d", args[0], args[1], got, n)
	}
}

// snapshot DIR FILE: write to FILE one line per file, folder and link under
// DIR (relative path, type, permission bits, and a file's sha256 and size or a
// link's target), sorted. Two snapshots compare with cmp: equal means the tree
// is byte-identical.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot DIR FILE")
	}
	tr, err := treesnap.Take(ts.MkAbs(args[0]), treesnap.Options{})
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(tr.String()), 0o644))
}

// treegrep TEXT DIR: some regular file under DIR contains TEXT (a plain
// string, not a pattern); with !, none does.
func cmdTreegrep(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: treegrep TEXT DIR")
	}
	var hits []string
	files := 0
	err := filepath.WalkDir(ts.MkAbs(args[1]), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		files++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(args[0])) {
			hits = append(hits, p)
		}
		return nil
	})
	ts.Check(err)
	if files == 0 {
		ts.Fatalf("treegrep: no files under %s", args[1])
	}
	if neg && len(hits) > 0 {
		ts.Fatalf("%q found in %s", args[0], strings.Join(hits, ", "))
	}
	if !neg && len(hits) == 0 {
		ts.Fatalf("%q found in none of the %d files under %s", args[0], files, args[1])
	}
}

// replace OLD NEW FILE: replace every OLD with NEW in FILE (no $ expansion
// surprises, unlike a cmpenv golden).
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: replace OLD NEW FILE")
	}
	rewrite(ts, args[2], func(b []byte) []byte {
		if !bytes.Contains(b, []byte(args[0])) {
			ts.Fatalf("%s: no %q to replace", args[2], args[0])
		}
		return bytes.ReplaceAll(b, []byte(args[0]), []byte(args[1]))
	})
}

// fakecodex DIR VERSION MODE [EVENT...]: link a stand-in codex into DIR that
// says it is VERSION and answers app-server's hooks/list in MODE (honest,
// path-hash, no-method, no-hash, silent; see internal/fakecodex), not
// listing the hooks of EVENT; MODE+state also writes its own state into
// the Codex home, as Codex's app-server does.
func cmdFakecodex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: fakecodex DIR VERSION MODE [EVENT...]")
	}
	mode, state := strings.CutSuffix(args[2], "+state")
	ts.Check(fakecodex.Install(ts.MkAbs(args[0]), fakecodex.Config{Version: args[1], Mode: mode, Skip: args[3:], State: state}))
}

// agents are the stand-in agents the agent command started, by name.
var agents sync.Map

// agent NAME HOOK [PAYLOAD]: start a stand-in agent process NAME that runs
// the hook script HOOK (with sh, PAYLOAD on its stdin) as an agent runs
// its hooks, then lives on until "agent NAME kill" (or the script's end):
// the hook's session record names its process. It returns once the hook
// has run.
func cmdAgent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: agent NAME HOOK [PAYLOAD] | agent NAME kill")
	}
	if args[1] == "kill" {
		c, ok := agents.LoadAndDelete(ts.Getenv("WORK") + "/" + args[0])
		if !ok {
			ts.Fatalf("no agent %s", args[0])
		}
		cmd := c.(*exec.Cmd)
		ts.Check(cmd.Process.Kill())
		_ = cmd.Wait()
		return
	}
	self, err := os.Executable()
	ts.Check(err)
	bin := filepath.Join(ts.Getenv("WORK"), ".agentbin")
	ts.Check(os.MkdirAll(bin, 0o755))
	if _, err := os.Lstat(filepath.Join(bin, "fakeagent")); err != nil {
		ts.Check(os.Symlink(self, filepath.Join(bin, "fakeagent")))
	}
	payload := ""
	if len(args) > 2 {
		payload = ts.MkAbs(args[2])
	}
	cmd := exec.Command(filepath.Join(bin, "fakeagent"), ts.MkAbs(args[1]), payload)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "XDG_RUNTIME_DIR", "TMPDIR", "USER", "HOOKINSTALL_TASK_ID", "HOOKINSTALL_PTY", "TMUX", "TMUX_PANE", "ZELLIJ", "ZELLIJ_SESSION_NAME", "ZELLIJ_PANE_ID", "SSH_CONNECTION", "TERM_PROGRAM"} {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	cmd.Stdin, _ = os.Open(os.DevNull)
	ts.Check(cmd.Start())
	line, _ := bufio.NewReader(out).ReadString('\n') // the hook has run
	if line != "ran\n" {
		_ = cmd.Process.Kill()
		ts.Fatalf("agent %s: %q", args[0], line)
	}
	agents.Store(ts.Getenv("WORK")+"/"+args[0], cmd)
	ts.Defer(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
}

// fakeAgent is the stand-in agent: it runs the hook, says so, and waits
// to be killed.
func fakeAgent(args []string) int {
	hook := exec.Command("/bin/sh", args[0])
	if args[1] != "" {
		f, err := os.Open(args[1])
		if err != nil {
			return 2
		}
		hook.Stdin = f
	}
	hook.Stderr = os.Stderr
	if err := hook.Run(); err != nil {
		return 2
	}
	fmt.Println("ran")
	time.Sleep(24 * time.Hour) // until killed
	return 0
}

// waitfor FILE: wait (up to 30 s) until FILE exists, as a program that
// made it ran this far.
func cmdWaitfor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfor FILE")
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		} else if time.Now().After(deadline) {
			ts.Fatalf("%s: not made within 30 s", args[0])
		}
	}
}

// procgone PIDFILE: the process whose id PIDFILE holds is gone (or a
// zombie, its killing done and its reaping init's) within 10 s.
func cmdProcgone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: procgone PIDFILE")
	}
	pid := strings.TrimSpace(ts.ReadFile(args[0]))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(b), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("process %s still runs: %s", pid, b)
		}
	}
}

// tmuxserver SOCKET: start a private tmux server on SOCKET with session s
// (its window 0 a sleep), killed when the script ends.
func cmdTmuxserver(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tmuxserver SOCKET")
	}
	sock := ts.MkAbs(args[0])
	cmd := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 3600")
	cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"), "XDG_RUNTIME_DIR="+ts.Getenv("XDG_RUNTIME_DIR"), "USER="+ts.Getenv("USER"), "TMUX=")
	if out, err := cmd.CombinedOutput(); err != nil {
		ts.Fatalf("tmux: %v %s", err, out)
	}
	ts.Defer(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
}
