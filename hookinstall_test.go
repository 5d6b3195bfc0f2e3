package hookinstall_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/treesnap"
	"github.com/hookinstall/hookinstall/scripts"
)

// userSettings is a settings.json as a user wrote it: tabs, CRLF-free,
// keys in their own order, no final newline.
const userSettings = "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}\n\t\t]\n\t},\n\t\"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}"

// env is an environment with only what is given, for Options.Getenv.
func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

// TestAcceptanceClaude is the host's whole path, through this package
// only: install Claude Code's hooks into a scratch HOME, run each installed
// script as Claude would (its recorded payload on stdin, the host's
// environment set), decode what it prints one byte at a time, and remove
// the install, getting the user's bytes back.
func TestAcceptanceClaude(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", home, "PATH", os.Getenv("PATH"))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := both(in.Install(ctx, "claude", hookinstall.InstallOptions{}))
	if err != nil || res.Status != hookinstall.StatusInstalled {
		t.Fatalf("Install = %+v, %v", res, err)
	}
	if st, err := in.Status(ctx, "claude", hookinstall.StatusOptions{}); err != nil || st.Status != hookinstall.StatusInstalled {
		t.Fatalf("Status = %+v, %v", st, err)
	}

	// The commands Claude Code will run, as it finds them in settings.json.
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	raw, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("settings.json after install: %v\n%s", err, raw)
	}
	command := func(event string) string {
		for _, g := range doc.Hooks[event] {
			for _, h := range g.Hooks {
				if strings.HasPrefix(h.Command, filepath.Join(home, ".claude", "hookinstall-hooks")+"/") {
					return h.Command
				}
			}
		}
		t.Fatalf("no command of ours for %s in\n%s", event, raw)
		return ""
	}

	hostEnv := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, in.Env("task-1", "")...)
	for _, c := range []struct {
		event, payload string
		want           hookinstall.State
	}{
		{"UserPromptSubmit", "claude.UserPromptSubmit.json", hookinstall.Working},
		{"PermissionRequest", "claude.PermissionRequest.json", hookinstall.Attention},
		{"Stop", "claude.Stop.json", hookinstall.Done},
		{"Stop", "claude.Stop.background.json", hookinstall.Working},
	} {
		t.Run(c.payload, func(t *testing.T) {
			payload, err := os.ReadFile(filepath.Join("testdata", "payloads", c.payload))
			if err != nil {
				t.Fatal(err)
			}
			run := func(env []string) []byte {
				cmd := exec.Command(command(c.event))
				cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %v", c.event, err)
				}
				return out
			}
			// Claude's transport: a JSON object on stdout whose
			// terminalSequence Claude writes to its terminal.
			out := run(hostEnv)
			var seq struct{ TerminalSequence string }
			if err := json.Unmarshal(out, &seq); err != nil {
				t.Fatalf("stdout %q: %v", out, err)
			}
			var d hookinstall.Decoder
			var got []hookinstall.Notification
			for _, b := range []byte(seq.TerminalSequence) {
				got = append(got, d.Feed([]byte{b})...)
			}
			want := []hookinstall.Notification{{Namespace: "hookinstall", State: c.want, Body: c.want.Body()}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded %+v from %q, want %+v", got, seq.TerminalSequence, want)
			}
			// Outside the host (no task id) the hook says nothing.
			if out := run([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}); len(out) != 0 {
				t.Fatalf("without the task env the hook printed %q", out)
			}
		})
	}

	res, err = both(in.Remove(ctx, "claude", hookinstall.RemoveOptions{}))
	if err != nil || res.Status != hookinstall.StatusRemoved {
		t.Fatalf("Remove = %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(settings); string(got) != userSettings {
		t.Fatalf("after remove settings.json is\n%q\nwant\n%q", got, userSettings)
	}
	if _, err := os.Lstat(filepath.Join(home, ".claude", "hookinstall-hooks")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("hooks dir left behind: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(settings)); err != nil {
		t.Fatalf("the user's .claude dir is gone: %v", err)
	}
}

// TestTrustNeedsVersion: trust asked through the library with no codex
// program on PATH, or with another version, is ErrTrustVersion and writes
// nothing.
func TestTrustNeedsVersion(t *testing.T) {
	for _, version := range []string{"", "codex-cli 0.170.0"} {
		home := t.TempDir()
		bin := t.TempDir()
		if version != "" {
			script := "#!/bin/sh\necho '" + version + "'\n"
			if err := os.WriteFile(filepath.Join(bin, "codex"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
			t.Fatal(err)
		}
		before, err := treesnap.Take(home, treesnap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// (the cache folder, where codex's answer is kept, is not the home's)
		in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", home, "PATH", bin, "XDG_CACHE_HOME", t.TempDir())})
		if err != nil {
			t.Fatal(err)
		}
		res, err := both(in.Install(context.Background(), "codex", hookinstall.InstallOptions{Trust: true}))
		if !errors.Is(err, hookinstall.ErrTrustVersion) || res.Status != hookinstall.StatusFailed {
			t.Fatalf("codex %q: Install = %+v, %v; want ErrTrustVersion", version, res, err)
		}
		after, err := treesnap.Take(home, treesnap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := treesnap.Diff(before, after); d != "" {
			t.Fatalf("codex %q: the home changed:\n%s", version, d)
		}
	}
}

func TestErrors(t *testing.T) {
	home := t.TempDir()
	in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: env()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := both(in.Install(ctx, "nosuch", hookinstall.InstallOptions{})); !errors.Is(err, hookinstall.ErrUnknownAgent) {
		t.Errorf("unknown agent: %v", err)
	}

	// A parse error names the agent, the file and the position.
	settings := filepath.Join(home, ".claude", "settings.json")
	_ = os.MkdirAll(filepath.Dir(settings), 0o755)
	_ = os.WriteFile(settings, []byte("{\n  \"a\": 1,\n  \"b\": ]\n}\n"), 0o644)
	_, err = both(in.Install(ctx, "claude", hookinstall.InstallOptions{}))
	var fe *hookinstall.FileError
	if !errors.As(err, &fe) || fe.Agent != "claude" || fe.Path != settings || fe.Line != 3 || fe.Written {
		t.Errorf("invalid JSON: %#v", err)
	} else if msg := fe.Error(); !strings.HasPrefix(msg, "claude: "+settings+": ") || !strings.HasSuffix(msg, ", file not modified") {
		t.Errorf("invalid JSON: message %q", msg)
	}

	// Hooks switched off: nothing is written, and the error says so.
	_ = os.WriteFile(settings, []byte(`{"disableAllHooks": true}`), 0o644)
	res, err := both(in.Install(ctx, "claude", hookinstall.InstallOptions{}))
	if !errors.Is(err, hookinstall.ErrHooksOff) || res.Status != hookinstall.StatusDisabled {
		t.Errorf("hooks off: %+v, %v", res, err)
	}

	// A cancelled context stops the call before it starts.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := both(in.Install(cctx, "grok", hookinstall.InstallOptions{})); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	for _, o := range []hookinstall.Options{
		{Namespace: "Bad NS", Home: home},
		{Getenv: env("HOME", "relative")},
		{AsHome: "/root", Getenv: env("HOME", home)},
		{Home: home, AsHome: "root"},
	} {
		var oe *hookinstall.OptionError
		if _, err := hookinstall.New(o); !errors.As(err, &oe) {
			t.Errorf("New(%+v) = %v, want an *OptionError", o, err)
		}
	}
	if in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: env("HOOKINSTALL_NAMESPACE", "termic")}); err != nil || in.Namespace() != "termic" {
		t.Errorf("$HOOKINSTALL_NAMESPACE: %v", err)
	}
	if ns, err := hookinstall.ResolveNamespace("", env()); ns != hookinstall.DefaultNamespace || err != nil {
		t.Errorf("ResolveNamespace with nothing set = %q, %v", ns, err)
	}
	if ns, err := hookinstall.ResolveNamespace("my-host", env("HOOKINSTALL_NAMESPACE", "termic")); ns != "my-host" || err != nil {
		t.Errorf("ResolveNamespace(my-host) = %q, %v", ns, err)
	}
}

// TestInstallAllPicks: InstallAll installs what is detected, codex too
// (issue 31: its title reaches no tab inside tmux), never what is not
// there.
func TestInstallAllPicks(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".claude", ".codex"} {
		_ = os.MkdirAll(filepath.Join(home, d), 0o755)
	}
	in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: env()})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := in.InstallAll(context.Background(), hookinstall.InstallOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Agent)
	}
	if !reflect.DeepEqual(names, []string{"claude", "codex"}) {
		t.Fatalf("InstallAll picked %v, want [claude codex]", names)
	}
	as, err := in.Agents()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range as {
		seen[a.Name] = true
		if a.Name == "codex" && (!a.Detected || a.Skip != "") {
			t.Errorf("codex: %+v", a)
		}
		if a.Name == "grok" && a.Skip != "not detected: no "+filepath.Join(home, ".grok")+" and no grok on PATH" {
			t.Errorf("grok: Skip = %q", a.Skip)
		}
		if (a.Name == "claude" || a.Name == "codex") != (a.Skip == "") {
			t.Errorf("%s: Skip = %q", a.Name, a.Skip)
		}
		if a.Name == "claude" && !reflect.DeepEqual(a.States, []hookinstall.State{hookinstall.Working, hookinstall.Attention, hookinstall.Done}) {
			t.Errorf("claude states %v", a.States)
		}
	}
	// the checks above are per name: they must have run
	if !seen["claude"] || !seen["codex"] || !seen["grok"] {
		t.Errorf("Agents() = %d agents, missing claude, codex or grok: %v", len(as), seen)
	}
}

// TestDoctorHonoursContext: a script that hangs is stopped when the
// caller's context ends, long before doctor's own fire timeout.
func TestDoctorHonoursContext(t *testing.T) {
	home := t.TempDir()
	in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: env("PATH", os.Getenv("PATH"))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := both(in.Install(ctx, "claude", hookinstall.InstallOptions{})); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(home, ".claude", "hookinstall-hooks")
	scripts, _ := filepath.Glob(filepath.Join(hooks, "*.sh"))
	if len(scripts) == 0 {
		t.Fatalf("no scripts in %s", hooks)
	}
	for _, s := range scripts {
		if err := os.WriteFile(s, []byte("#!/bin/sh\nsleep 30\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = in.Doctor(ctx, "claude", hookinstall.DoctorOptions{NoAsk: true, FireTimeout: 20 * time.Second})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Doctor = %v, want the context's deadline", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("Doctor took %s after its context ended", took)
	}
}

// TestInstallerCommand pins the flags a command needs to find an
// Installer's installs again: none for $HOME however it is spelled, --home
// for another home (quoted where the shell needs it), --as-home too for a
// Docker target, --namespace outside the default one.
func TestInstallerCommand(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"u", "a", "my home"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	u, a, sp := filepath.Join(root, "u"), filepath.Join(root, "a"), filepath.Join(root, "my home")
	env := func(k string) string {
		if k == "HOME" {
			return u
		}
		return ""
	}
	for _, c := range []struct {
		o    hookinstall.Options
		want string
	}{
		{hookinstall.Options{}, ""},
		{hookinstall.Options{Home: u + "/"}, ""},
		{hookinstall.Options{Home: a}, " --home " + a},
		{hookinstall.Options{Home: sp}, " --home '" + sp + "'"},
		{hookinstall.Options{Home: a, AsHome: "/root"}, " --home " + a + " --as-home /root"},
		{hookinstall.Options{Home: u, AsHome: "/root"}, " --home " + u + " --as-home /root"},
		{hookinstall.Options{Home: a, Namespace: "termic"}, " --namespace termic --home " + a},
	} {
		c.o.Getenv = env
		in, err := hookinstall.New(c.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := in.Command("status"); got != "hookinstall status"+c.want {
			t.Errorf("%+v: got %q, want %q", c.o, got, c.want)
		}
	}
}

// TestNewHome: New applies the CLI's rules for the home, whether Options.Home
// or $HOME names it: an absolute path to a directory that exists. A relative,
// missing or non-directory home is an *OptionError for "Home", and nothing
// is created.
func TestNewHome(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("not a dir\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for _, c := range []struct {
		name string
		o    hookinstall.Options
		is   error
	}{
		{"relative Home", hookinstall.Options{Home: "relative/home", Getenv: env("HOME", dir)}, nil},
		{"missing Home", hookinstall.Options{Home: missing, Getenv: env("HOME", dir)}, fs.ErrNotExist},
		{"file Home", hookinstall.Options{Home: file, Getenv: env("HOME", dir)}, syscall.ENOTDIR},
		{"relative $HOME", hookinstall.Options{Getenv: env("HOME", "relative")}, nil},
		{"unset $HOME", hookinstall.Options{Getenv: env()}, nil},
		{"missing $HOME", hookinstall.Options{Getenv: env("HOME", missing)}, fs.ErrNotExist},
		{"file $HOME", hookinstall.Options{Getenv: env("HOME", file)}, syscall.ENOTDIR},
	} {
		in, err := hookinstall.New(c.o)
		var oe *hookinstall.OptionError
		if !errors.As(err, &oe) || oe.Option != "Home" || (c.is != nil && !errors.Is(err, c.is)) ||
			(c.is == nil && !strings.Contains(fmt.Sprint(err), "not set to an absolute path") && !strings.Contains(fmt.Sprint(err), "is not an absolute path")) {
			t.Errorf("%s: New = %v, %v; want an *OptionError for Home that is %v", c.name, in, err, c.is)
		}
	}
	if _, err := os.Lstat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("New created the missing home: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "relative")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a relative home was resolved and created under the cwd: %v", err)
	}
	for _, o := range []hookinstall.Options{{Home: dir}, {Home: dir + "/"}, {Getenv: env("HOME", dir)}} {
		in, err := hookinstall.New(o)
		if err != nil || in.Home() != dir {
			t.Errorf("New(%+v) = %v, %v; want home %s", o, in, err, dir)
		}
	}
}

// TestAgentVersionAskedOnce: the agent's program is asked --version once
// per install (the answer is kept for that binary, but a kept answer that
// would refuse is asked again); a version below the range that nothing can
// be written for is ErrAgentVersion and writes nothing. An Installer does not keep the
// answer: after an upgrade of the binary, its next install asks again.
func TestAgentVersionAskedOnce(t *testing.T) {
	home, bin := t.TempDir(), t.TempDir()
	calls := filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho x >> '" + calls + "'\necho '2.1.140 (Claude Code)'\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", home, "PATH", bin)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		res, err := both(in.Install(context.Background(), "claude", hookinstall.InstallOptions{DryRun: i == 1}))
		if !errors.Is(err, hookinstall.ErrAgentVersion) || res.Status != hookinstall.StatusFailed || len(res.Changes) != 0 {
			t.Fatalf("Install = %+v, %v; want ErrAgentVersion and nothing written", res, err)
		}
	}
	// once for the first, and again for each later one: the answer kept on
	// disk would refuse, and a kept answer never refuses by itself
	if b, _ := os.ReadFile(calls); string(b) != "x\nx\nx\n" {
		t.Fatalf("claude --version ran %d times, want 3", strings.Count(string(b), "x"))
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("~/.claude exists after a refused install: %v", err)
	}
	// status over an agent with nothing of ours installed runs no program
	in2, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", home, "PATH", bin)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in2.Status(context.Background(), "claude", hookinstall.StatusOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(calls); string(b) != "x\nx\nx\n" {
		t.Fatalf("status with nothing installed ran claude --version")
	}
	upgraded := "#!/bin/sh\necho x >> '" + calls + "'\necho '2.1.332 (Claude Code)'\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(upgraded), 0o755); err != nil {
		t.Fatal(err)
	}
	if res, err := both(in.Install(context.Background(), "claude", hookinstall.InstallOptions{})); err != nil || res.Status != hookinstall.StatusInstalled {
		t.Fatalf("after the upgrade: Install = %+v, %v; want installed", res, err)
	}
}

// TestSkipNamesTheMarker: "not detected" names the path the detection rule
// checks, not the agent's folder: Antigravity is detected by
// ~/.gemini/config, so a ~/.gemini of Gemini CLI's must not read as missing.
func TestSkipNamesTheMarker(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: env()})
	if err != nil {
		t.Fatal(err)
	}
	a, err := in.Agent("antigravity")
	if err != nil {
		t.Fatal(err)
	}
	if want := "not detected: no " + filepath.Join(home, ".gemini", "config") + " and no agy on PATH"; a.Skip != want {
		t.Errorf("antigravity: Skip = %q, want %q", a.Skip, want)
	}
}

// TestDoctorTook: each live fire reports how long the script took as a
// time.Duration to the microsecond, the same time its verdict prints.
func TestDoctorTook(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: env("PATH", os.Getenv("PATH"))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := both(in.Install(ctx, "claude", hookinstall.InstallOptions{})); err != nil {
		t.Fatal(err)
	}
	r, err := in.Doctor(ctx, "claude", hookinstall.DoctorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fires := 0
	for _, c := range r.Checks {
		if !strings.HasPrefix(c.ID, "fire.") || c.Result != hookinstall.CheckPass {
			continue
		}
		fires++
		if c.Took <= 0 || c.Took%time.Microsecond != 0 {
			t.Errorf("%s: Took %v, want a positive time to the microsecond", c.ID, c.Took)
		}
		if want := fmt.Sprintf(" in %.1fms", float64(c.Took)/float64(time.Millisecond)); !strings.Contains(c.Verdict, want) {
			t.Errorf("%s: verdict %q does not say %q", c.ID, c.Verdict, want)
		}
	}
	if fires == 0 {
		t.Skip("no fire check passed here (no pty?)")
	}
}

// TestInstallTakesTheCLIsSpellings: the library takes an agent's name in any
// case, or its program's name, as the CLI does (AgentName); the Result names
// the agent, and Remove takes the same spelling. A name that is none of
// these is still ErrUnknownAgent.
func TestInstallTakesTheCLIsSpellings(t *testing.T) {
	for spelling, agent := range map[string]string{"Claude": "claude", "CODEX": "codex", "agy": "antigravity"} {
		home := t.TempDir()
		in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", home)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := both(in.Install(context.Background(), spelling, hookinstall.InstallOptions{}))
		if err != nil || r.Agent != agent || r.Status != hookinstall.StatusInstalled {
			t.Errorf("Install(%q) = agent %q, %q, %v; want %q installed", spelling, r.Agent, r.Status, err, agent)
		}
		r, err = both(in.Remove(context.Background(), spelling, hookinstall.RemoveOptions{}))
		if err != nil || r.Agent != agent || r.Status != hookinstall.StatusRemoved {
			t.Errorf("Remove(%q) = agent %q, %q, %v; want %q removed", spelling, r.Agent, r.Status, err, agent)
		}
	}
	in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := both(in.Install(context.Background(), "claudex", hookinstall.InstallOptions{})); !errors.Is(err, hookinstall.ErrUnknownAgent) {
		t.Errorf("Install(claudex): %v, want ErrUnknownAgent", err)
	}
}

// TestEventScriptIsWhatInstallWrites: for every agent of the registry, the
// scripts its Events name are exactly the scripts an Install creates in its
// HooksDir, each there, and no event of a plugin or extension agent names
// one (review H1).
func TestEventScriptIsWhatInstallWrites(t *testing.T) {
	ctx := context.Background()
	for _, name := range hookinstall.AgentNames() {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", home)})
			if err != nil {
				t.Fatal(err)
			}
			a, err := in.Agent(name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := both(in.Install(ctx, name, hookinstall.InstallOptions{}))
			if err != nil {
				t.Fatal(err)
			}
			var created []string
			for _, c := range r.Changes {
				if c.Kind != "script" {
					continue
				}
				if c.Action != "create" || filepath.Dir(c.Path) != a.HooksDir {
					t.Errorf("script change %+v: want a file created in %s", c, a.HooksDir)
				}
				created = append(created, filepath.Base(c.Path))
			}
			named := map[string]bool{}
			for _, e := range a.Events {
				if e.Script == "" {
					continue
				}
				named[e.Script] = true
				if _, err := os.Stat(filepath.Join(a.HooksDir, e.Script)); err != nil {
					t.Errorf("event %s: script %s: %v", e.Name, e.Script, err)
				}
			}
			var names []string
			for n := range named {
				names = append(names, n)
			}
			if len(names) > 0 {
				names = append(names, scripts.RuntimeName) // the hooks' runtime, beside them
			}
			sort.Strings(created)
			sort.Strings(names)
			if !reflect.DeepEqual(names, created) {
				t.Errorf("Events name the scripts %q; Install created %q", names, created)
			}
			// and on disk: the hooks dir holds the named scripts, besides
			// the manifest, the lock and the backups' folder
			ents, err := os.ReadDir(a.HooksDir)
			if err != nil {
				t.Fatal(err)
			}
			var onDisk []string
			for _, e := range ents {
				if n := e.Name(); n != "manifest.json" && n != "lock" && !(n == "backup" && e.IsDir()) {
					onDisk = append(onDisk, n)
				}
			}
			if !reflect.DeepEqual(onDisk, names) && len(onDisk)+len(names) > 0 {
				t.Errorf("Events name the scripts %q; %s holds %q", names, a.HooksDir, onDisk)
			}
			for _, e := range a.Events {
				if e.Script == "" && len(created) > 0 {
					t.Errorf("event %s names no script, but Install wrote scripts %q", e.Name, created)
				}
			}
		})
	}
}
