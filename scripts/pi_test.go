package scripts

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// piDriver loads the extension the way Pi 0.73.1 does (the default export is
// called with the extension API; pi.on registers handlers), then fires its
// events with the shapes Pi sends: agent_start, then agent_end whose last
// assistant message stopped normally, and a second prompt that the user
// stopped (stopReason "aborted"). With "odd" it also feeds malformed events.
// The file is imported as JavaScript from a data: URL of its bytes (it is
// TypeScript without types), as doctor does.
const piDriver = `
import { readFileSync } from "node:fs";
const src = readFileSync(process.argv[2], "utf8");
const mod = await import("data:text/javascript;base64," + Buffer.from(src).toString("base64"));
console.log("exports " + JSON.stringify(Object.keys(mod)));
const handlers = {};
mod.default({ on: (name, fn) => { (handlers[name] ||= []).push(fn); } });
console.log("events " + JSON.stringify(Object.keys(handlers)));
const fire = async (name, ev) => { for (const h of handlers[name] || []) await h(ev, { hasUI: true }); };
const user = { role: "user", content: [{ type: "text", text: "x" }] };
await fire("agent_start", { type: "agent_start" });
await fire("agent_end", { type: "agent_end", messages: [user, { role: "assistant", stopReason: "toolUse" }, { role: "toolResult" }, { role: "assistant", stopReason: "stop" }] });
await fire("agent_start", { type: "agent_start" });
await fire("agent_end", { type: "agent_end", messages: [user, { role: "assistant", stopReason: "toolUse" }, { role: "toolResult", isError: true }, { role: "assistant", stopReason: "aborted", errorMessage: "Operation aborted" }] });
if (process.argv[3] === "odd") {
  await fire("agent_end", undefined);
  await fire("agent_end", { messages: null });
  await fire("agent_end", { messages: [null, 7, "x"] });
  await fire("agent_start");
}
console.log("ok");
`

func writePi(t *testing.T, ns string) (dir, ext string) {
	return writeExtension(t, ns, func(ns string) ([]byte, error) { return RenderPi(Install{NS: ns, Agent: "pi"}) }, piDriver)
}

// writeExtension writes an extension rendered for ns, and the driver that
// loads it, into a fresh folder.
func writeExtension(t *testing.T, ns string, render func(ns string) ([]byte, error), driver string) (dir, ext string) {
	t.Helper()
	b, err := render(ns)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	ext = filepath.Join(dir, ns+".ts")
	for name, content := range map[string][]byte{ns + ".ts": b, "driver.mjs": []byte(driver)} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, ext
}

// driveExtension drives an extension (rendered in two namespaces) in node
// against a real pty: the driver must print wantOut and the pty get exactly
// the states' sequences, in order; with the driver's malformed events as
// well, nothing is thrown and only whole sequences follow them.
func driveExtension(t *testing.T, render func(ns string) ([]byte, error), driver, wantOut string, states []terminal.State) {
	t.Helper()
	node := needNode(t)
	p := ptytest.Open(t)
	for _, ns := range []string{"hookinstall", "my-host"} {
		dir, ext := writeExtension(t, ns, render, driver)
		env := []string{terminal.TaskVar(ns) + "=task-1", terminal.PTYVar(ns) + "=" + p.Path}
		if out := runDriver(t, node, dir, ext, env, false); out != wantOut {
			t.Errorf("%s: driver printed %q, want %q", ns, out, wantOut)
		}
		var want []byte
		for _, s := range states {
			want = append(want, OSC(ns, s)...)
		}
		if got := p.Drain(t); !bytes.Equal(got, want) {
			t.Errorf("%s: pty got %q, want %q", ns, got, want)
		}
		if out := runDriver(t, node, dir, ext, env, true); out != wantOut {
			t.Errorf("%s: driver with odd input printed %q", ns, out)
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

const piWantOut = "exports [\"default\"]\nevents [\"agent_start\",\"agent_end\"]\nok\n"

// TestPiExtensionWritesExactOSC drives the extension in node against a real
// pty: working, done, working, interrupted, exactly; malformed events throw
// nothing and write only whole sequences.
func TestPiExtensionWritesExactOSC(t *testing.T) {
	driveExtension(t, func(ns string) ([]byte, error) { return RenderPi(Install{NS: ns, Agent: "pi"}) },
		piDriver, piWantOut, []terminal.State{terminal.Working, terminal.Done, terminal.Working, terminal.Interrupted})
}

// TestPiExtensionSilent: without the task env, or with a pty path that is
// not a character device, the extension writes and creates nothing.
func TestPiExtensionSilent(t *testing.T) {
	node := needNode(t)
	p := ptytest.Open(t)
	dir, ext := writePi(t, "hookinstall")
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for name, env := range map[string][]string{
		"no task env":        {"HOOKINSTALL_PTY=" + p.Path},
		"empty task env":     {"HOOKINSTALL_TASK_ID=", "HOOKINSTALL_PTY=" + p.Path},
		"pty unset":          {"HOOKINSTALL_TASK_ID=t"},
		"pty missing":        {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + missing},
		"pty a regular file": {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + regular},
		"pty a directory":    {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + dir},
	} {
		if out := runDriver(t, node, dir, ext, env, true); out != piWantOut {
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
	}
}

// TestPiExtensionStable: byte-stable, header first, no raw control byte, no
// type annotation (it must load as plain JavaScript), one default export.
func TestPiExtensionStable(t *testing.T) {
	a, err := RenderPi(Install{NS: "hookinstall", Agent: "pi"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := RenderPi(Install{NS: "hookinstall", Agent: "pi"}); !bytes.Equal(a, b) {
		t.Fatal("two renders differ")
	}
	if !bytes.HasPrefix(a, []byte(PiHeader("hookinstall"))) {
		t.Fatalf("extension does not start with its header:\n%s", a)
	}
	for i, c := range a {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("raw control byte %#x at offset %d", c, i)
		}
	}
	var code []string
	for _, line := range strings.Split(string(a), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code = append(code, line)
		}
	}
	src := withoutRecord(t, strings.Join(code, "\n"))
	for _, s := range []string{"O_CREAT", "/dev/tty", "throw ", "appendFile", "writeFile", ": string", ": any", "interface ", "ctx.ui", "confirm"} {
		if strings.Contains(src, s) {
			t.Errorf("extension code contains %q", s)
		}
	}
	if n := strings.Count(src, "export "); n != 1 || !strings.Contains(src, "export default function (pi)") {
		t.Errorf("extension has %d exports, want the one default function", n)
	}
	if strings.Contains(src, "agent needs your input") {
		t.Error("the Pi extension reports attention, which Pi cannot give")
	}
	if _, err := RenderPi(Install{NS: "Bad NS", Agent: "pi"}); err == nil {
		t.Error("an invalid namespace was accepted")
	}
}

// withoutRecord is a plugin's code without its record function, the one
// place that writes a file (terminal mode's record, in the user's own
// runtime folder), which only terminal mode calls.
func withoutRecord(t *testing.T, src string) string {
	t.Helper()
	i := strings.Index(src, "\nfunction record(")
	j := strings.Index(src[max(i, 0):], "\n}\n")
	if i < 0 || j < 0 || strings.Count(src, "record(") != 2 || !strings.Contains(src, "function terminal(task, state, pty) {\n  const d = folder();\n  if (!mine(pty) || !record(state, pty, d)) return \"\";") {
		t.Fatalf("the record function, called by terminal mode alone, is not where it should be:\n%s", src)
	}
	return src[:i] + src[i+j:]
}
