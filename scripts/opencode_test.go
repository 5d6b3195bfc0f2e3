package scripts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// driver loads the plugin the way opencode does (every export is called as a
// plugin), then calls its hooks as opencode 1.18.33 does, including with
// inputs that a careless handler would throw on. It prints the export names
// and "ok" when nothing threw or rejected.
const driver = `
import { pathToFileURL } from "node:url";
const mod = await import(pathToFileURL(process.argv[2]).href);
const names = Object.keys(mod);
console.log("exports " + JSON.stringify(names));
for (const name of names) {
  const hooks = await mod[name]({ directory: "/w", worktree: "/w", project: {}, client: {}, $: null });
  const ev = (type, properties) => hooks.event({ event: { type, properties } });
  await hooks["chat.message"]({ sessionID: "s1", agent: "build" }, { message: { role: "user" }, parts: [] });
  await ev("permission.asked", { id: "per_1", sessionID: "s1", permission: "bash" });
  await ev("permission.replied", { sessionID: "s1", requestID: "per_1", reply: "once" });
  await ev("session.created", { info: { id: "child", parentID: "s1" } });
  await ev("session.idle", { sessionID: "child" });
  await ev("session.idle", { sessionID: "s1" });
  await ev("session.status", { sessionID: "s1", status: { type: "idle" } });
  // a second prompt, stopped with Esc: the idles after the abort are not done
  await hooks["chat.message"]({ sessionID: "s1", agent: "build" }, { message: { role: "user" }, parts: [] });
  await ev("session.error", { sessionID: "child", error: { name: "MessageAbortedError", data: { message: "Aborted" } } });
  await ev("session.error", { sessionID: "s1", error: { name: "APIError", data: { message: "x" } } });
  await ev("session.error", { sessionID: "s1", error: { name: "MessageAbortedError", data: { message: "Aborted" } } });
  await ev("session.idle", { sessionID: "s1" });
  await ev("session.idle", { sessionID: "s1" });
  if (process.argv[3] !== "odd") continue;
  await ev("session.error", undefined);
  await ev("session.error", { error: null });
  await hooks.event(undefined);
  await hooks.event({});
  await hooks.event({ event: null });
  await hooks.event({ event: { type: "session.idle" } });
  await hooks["chat.message"]();
}
console.log("ok");
`

func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the opencode plugin test needs it (CI has node; apt-get install nodejs)")
	}
	return node
}

// writePlugin writes the plugin for ns and the driver into an ES module dir.
func writePlugin(t *testing.T, ns string) (dir, plugin string) {
	t.Helper()
	b, err := RenderOpencode(Install{NS: ns, Agent: "opencode"})
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	plugin = filepath.Join(dir, ns+".js")
	for name, content := range map[string][]byte{
		"package.json": []byte(`{"type":"module"}` + "\n"),
		ns + ".js":     b,
		"driver.mjs":   []byte(driver),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, plugin
}

// runDriver runs dir/driver.mjs on plugin (the opencode plugin or the Pi
// extension); with odd set it also feeds the hooks malformed
// input, which must not make them throw.
func runDriver(t *testing.T, node, dir, plugin string, env []string, odd bool) string {
	t.Helper()
	mode := "turn"
	if odd {
		mode = "odd"
	}
	cmd := exec.Command(node, filepath.Join(dir, "driver.mjs"), plugin, mode)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("driver: %v\nstdout %s\nstderr %s", err, stdout.String(), stderr.String())
	}
	if stderr.Len() != 0 {
		t.Fatalf("driver wrote to stderr: %s", stderr.String())
	}
	return stdout.String()
}

func TestOpencodePluginChecks(t *testing.T) {
	node := needNode(t)
	for _, ns := range []string{"hookinstall", "my-host"} {
		_, plugin := writePlugin(t, ns)
		if out, err := exec.Command(node, "--check", plugin).CombinedOutput(); err != nil {
			t.Fatalf("node --check %s: %v\n%s", plugin, err, out)
		}
	}
}

// TestOpencodePluginWritesExactOSC drives the plugin in node against a real
// pty: the one export is the plugin; chat.message, permission.asked,
// permission.replied and the main session's session.idle write exactly their
// OSC, in order; a subagent's session.idle and other events write nothing.
func TestOpencodePluginWritesExactOSC(t *testing.T) {
	node := needNode(t)
	p := ptytest.Open(t)
	for _, ns := range []string{"hookinstall", "my-host"} {
		dir, plugin := writePlugin(t, ns)
		env := []string{terminal.TaskVar(ns) + "=task-1", terminal.PTYVar(ns) + "=" + p.Path}
		out := runDriver(t, node, dir, plugin, env, false)
		wantOut := "exports [\"" + ExportName(ns) + "\"]\nok\n"
		if out != wantOut {
			t.Errorf("%s: driver printed %q, want %q", ns, out, wantOut)
		}
		var want []byte
		for _, s := range []terminal.State{terminal.Working, terminal.Attention, terminal.Working, terminal.Done, terminal.Working, terminal.Interrupted} {
			want = append(want, OSC(ns, s)...)
		}
		if got := p.Drain(t); !bytes.Equal(got, want) {
			t.Errorf("%s: pty got %q, want %q", ns, got, want)
		}
		// Malformed input: nothing throws; whatever is written is whole OSCs.
		if out := runDriver(t, node, dir, plugin, env, true); out != wantOut {
			t.Errorf("%s: driver with odd input printed %q, want %q", ns, out, wantOut)
		}
		got := p.Drain(t)
		rest := bytes.TrimPrefix(got, want)
		for _, s := range terminal.States() {
			rest = bytes.ReplaceAll(rest, OSC(ns, s), nil)
		}
		if !bytes.HasPrefix(got, want) || len(rest) != 0 {
			t.Errorf("%s: with odd input, pty got %q", ns, got)
		}
	}
}

// TestOpencodePluginSilent: without the task env, or with a pty path that is
// unset, missing, a regular file or a directory, the plugin writes nothing,
// creates nothing and throws nothing.
func TestOpencodePluginSilent(t *testing.T) {
	node := needNode(t)
	p := ptytest.Open(t)
	dir, plugin := writePlugin(t, "hookinstall")
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	subdir := filepath.Join(dir, "subdir")
	if err := os.Mkdir(subdir, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for name, env := range map[string][]string{
		"no task env":        {"HOOKINSTALL_PTY=" + p.Path},
		"empty task env":     {"HOOKINSTALL_TASK_ID=", "HOOKINSTALL_PTY=" + p.Path},
		"pty unset":          {"HOOKINSTALL_TASK_ID=t"},
		"pty missing":        {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + missing},
		"pty a regular file": {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + regular},
		"pty a directory":    {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + subdir},
	} {
		out := runDriver(t, node, dir, plugin, env, true)
		if !strings.HasSuffix(out, "\nok\n") {
			t.Errorf("%s: driver printed %q", name, out)
		}
		if got := p.Drain(t); len(got) != 0 {
			t.Errorf("%s: pty got %q, want nothing", name, got)
		}
		if _, err := os.Lstat(missing); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: created %s", name, missing)
		}
		if b, err := os.ReadFile(regular); err != nil || len(b) != 0 {
			t.Fatalf("%s: regular file now holds %q (%v)", name, b, err)
		}
		if es, err := os.ReadDir(subdir); err != nil || len(es) != 0 {
			t.Fatalf("%s: directory changed: %v %v", name, es, err)
		}
	}
}

// TestOpencodePluginStable: the bytes depend only on the namespace and agent,
// no raw control byte appears, and the header marks it as ours.
func TestOpencodePluginStable(t *testing.T) {
	a, err := RenderOpencode(Install{NS: "hookinstall", Agent: "opencode"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RenderOpencode(Install{NS: "hookinstall", Agent: "opencode"})
	if !bytes.Equal(a, b) {
		t.Fatal("two renders differ")
	}
	if !bytes.HasPrefix(a, []byte(OpencodeHeader("hookinstall"))) {
		t.Fatalf("plugin does not start with its header:\n%s", a)
	}
	for i, c := range a {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("raw control byte %#x at offset %d", c, i)
		}
	}
	for _, s := range []string{`\x1b]777;notify;hookinstall;agent is working\x07`, "HOOKINSTALL_TASK_ID", "HOOKINSTALL_PTY", "O_NOCTTY", "export const HookinstallPlugin = async"} {
		if !bytes.Contains(a, []byte(s)) {
			t.Errorf("plugin lacks %q", s)
		}
	}
	var code []string
	for _, line := range strings.Split(string(a), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code = append(code, line)
		}
	}
	for _, s := range []string{"O_CREAT", "export default", "/dev/tty", "decision", "throw ", "appendFile", "writeFile"} {
		if strings.Contains(withoutRecord(t, strings.Join(code, "\n")), s) {
			t.Errorf("plugin code contains %q", s)
		}
	}
	if n := strings.Count(strings.Join(code, "\n"), "export "); n != 1 {
		t.Errorf("plugin has %d exports, want 1", n)
	}
	if _, err := RenderOpencode(Install{NS: "Bad NS", Agent: "opencode"}); err == nil {
		t.Error("an invalid namespace was accepted")
	}
	if got := ExportName("my-host-2"); got != "MyHost2Plugin" {
		t.Errorf("ExportName(my-host-2) = %q", got)
	}
}

// TestPluginNoTmuxOnPath: inside tmux (TMUX_PANE set) with no tmux on the
// agent's PATH, the plugin sets no pane option and nothing ends the agent:
// node reports spawn's ENOENT as an 'error' event, which, unheard, is
// thrown outside every try (review 2026-12-06, bug 4).
func TestPluginNoTmuxOnPath(t *testing.T) {
	node := needNode(t)
	p := ptytest.Open(t)
	dir, plugin := writePlugin(t, "hookinstall")
	run := t.TempDir()
	if err := os.Mkdir(filepath.Join(run, "hookinstall"), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "driver.mjs"), plugin, "turn")
	cmd.Env = []string{"PATH=/nonexistent", "HOOKINSTALL_TASK_ID=terminal:tmux+osc777", "HOOKINSTALL_PTY=" + p.Path, "XDG_RUNTIME_DIR=" + run,
		"TMUX=/nonexistent/sock,1,0", "TMUX_PANE=%1"}
	p.Agent(cmd)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.HasSuffix(string(out), "ok\n") {
		t.Fatalf("the plugin with no tmux on PATH: %v\n%s", err, out)
	}
	if got := p.Drain(t); !bytes.Contains(got, []byte("]9;4;3")) {
		t.Errorf("the pty got %q, want the states", got)
	}
	// An agent with no controlling terminal (a daemon) writes nothing to
	// the pty its environment names, and keeps no record (issue 36).
	cmd = exec.Command(node, filepath.Join(dir, "driver.mjs"), plugin, "turn")
	cmd.Env = []string{"HOOKINSTALL_TASK_ID=terminal:osc777", "HOOKINSTALL_PTY=" + p.Path, "XDG_RUNTIME_DIR=" + run}
	ptytest.Daemon(cmd)
	if err := os.RemoveAll(filepath.Join(run, "hookinstall", "tty-"+filepath.Base(p.Path))); err != nil {
		t.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.HasSuffix(string(out), "ok\n") {
		t.Fatalf("the plugin in a daemon: %v\n%s", err, out)
	}
	if got := p.Drain(t); len(got) > 0 {
		t.Errorf("the plugin in a daemon wrote %q to the pty", got)
	}
	if ents, _ := os.ReadDir(filepath.Join(run, "hookinstall")); len(ents) > 0 {
		t.Errorf("the plugin in a daemon kept a record: %v", ents)
	}
}
