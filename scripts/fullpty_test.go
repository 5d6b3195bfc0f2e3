package scripts

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// fullPtyDriver fills the pty's buffer until a write that must not block is
// refused (EAGAIN), as an agent's screen being drawn faster than the
// terminal reads it does, then fires agent_start, whose working must not be
// lost; it stays alive until its stdin closes.
const fullPtyDriver = `
import * as fs from "node:fs";
const src = fs.readFileSync(process.argv[2], "utf8");
const mod = await import("data:text/javascript;base64," + Buffer.from(src).toString("base64"));
const handlers = {};
mod.default({ on: (name, fn) => { (handlers[name] ||= []).push(fn); } });
const c = fs.constants;
const fd = fs.openSync(process.env.HOOKINSTALL_PTY, c.O_WRONLY | c.O_NOCTTY | c.O_NONBLOCK);
const chunk = Buffer.alloc(4096, 0x78);
let filled = 0;
for (;;) {
  try {
    const n = fs.writeSync(fd, chunk);
    filled += n;
    if (n < chunk.length) break;
  } catch (e) {
    if (e.code === "EAGAIN") break;
    throw e;
  }
}
console.log("filled " + filled);
for (const h of handlers.agent_start) await h({ type: "agent_start" }, { hasUI: true });
console.log("fired");
process.stdin.resume();
await new Promise((r) => process.stdin.on("end", r));
`

// TestExtensionWritesThroughFullPty: a pty whose buffer is full when the
// state changes gets the sequence once the terminal reads again, whole and
// after what was there (oh-my-pi 18.2.3 lost an attention this way in CI,
// its approval dialog being drawn at the same moment). Pi's template is
// oh-my-pi's; opencode's plugin renders the same writer (writer.js.tmpl).
func TestExtensionWritesThroughFullPty(t *testing.T) {
	node := needNode(t)
	dir, ext := writeExtension(t, "hookinstall", func(ns string) ([]byte, error) { return RenderPi(Install{NS: ns, Agent: "pi"}) }, fullPtyDriver)
	m, s, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal available: %v", err)
	}
	defer m.Close()
	defer s.Close()
	cmd := exec.Command(node, filepath.Join(dir, "driver.mjs"), ext)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOOKINSTALL_TASK_ID=task-1", "HOOKINSTALL_PTY=" + s.Name()}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(out)
	filled := -1
	for lines.Scan() && lines.Text() != "fired" {
		if n, ok := strings.CutPrefix(lines.Text(), "filled "); ok {
			filled, _ = strconv.Atoi(n)
		}
	}
	if filled <= 0 {
		t.Fatalf("the driver did not fill the pty (filled %d)", filled)
	}
	want := append(bytes.Repeat([]byte("x"), filled), OSC("hookinstall", terminal.Working)...)
	var mu sync.Mutex
	var got []byte
	more := make(chan struct{}, 1)
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := m.Read(b)
			mu.Lock()
			got = append(got, b[:n]...)
			mu.Unlock()
			select {
			case more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.After(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= len(want) {
			break
		}
		select {
		case <-more:
		case <-deadline:
			mu.Lock()
			t.Fatalf("after the pty was read again it got %d bytes, want %d (the %d filler bytes and %q)", len(got), len(want), filled, want[filled:])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !bytes.Equal(got, want) {
		t.Errorf("pty got %d bytes ending %q, want the %d filler bytes and %q", len(got), got[max(0, len(got)-40):], filled, want[filled:])
	}
}
