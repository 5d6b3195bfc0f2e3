//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

func TestWriteSectionKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "docs", "performance.md")
	if err := writeSection(path, "one\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "# Performance\n\n" + beginMarker + "\none\n" + endMarker + "\n"; string(b) != want {
		t.Fatalf("new file:\n%s", b)
	}
	hand := "# Performance\n\n## doctor\n\nby hand\n\n" + beginMarker + "\nold\n" + endMarker + "\n\n## after\n"
	if err := os.WriteFile(path, []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(path, "two\n"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if want := strings.Replace(hand, "\nold\n", "\ntwo\n", 1); string(b) != want {
		t.Fatalf("rewrite:\n%s", b)
	}
	if err := os.WriteFile(path, []byte("# Mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(path, "three\n"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if want := "# Mine\n\n" + beginMarker + "\nthree\n" + endMarker + "\n"; string(b) != want {
		t.Fatalf("no markers yet:\n%s", b)
	}
}

func TestSamples(t *testing.T) {
	s := samples{5 * time.Millisecond, 1 * time.Millisecond, 3 * time.Millisecond, 100 * time.Millisecond}
	if s.median() != 4*time.Millisecond || s.min() != time.Millisecond || s.max() != 100*time.Millisecond {
		t.Fatalf("median %v min %v max %v", s.median(), s.min(), s.max())
	}
	if got := cell(s); got != "4.00 [1.00–100] ×4" {
		t.Fatalf("cell = %q", got)
	}
	if r := ratio(samples{2 * time.Millisecond}, samples{time.Millisecond}); r != 2 {
		t.Fatalf("ratio = %v", r)
	}
	if got := rotate(3, 4); got[0] != 1 || got[1] != 2 || got[2] != 0 {
		t.Fatalf("rotate = %v", got)
	}
}

// A FieldEquals hook (Copilot's notification) gets a peer that compares the
// same field with the same value, found in the script's bytes.
func TestFieldEqualsPeer(t *testing.T) {
	b, err := scripts.Render(scripts.Spec{Install: scripts.Install{NS: ns, Agent: "copilot"}, Event: "notification", State: terminal.Attention,
		Transport: scripts.PTY, Rule: scripts.FieldEquals, Field: "notification_type", Value: "permission_prompt"})
	if err != nil {
		t.Fatal(err)
	}
	f, v := fieldRx.FindSubmatch(b), valueRx.FindSubmatch(b)
	if f == nil || v == nil || string(f[1]) != "notification_type" || string(v[1]) != "permission_prompt" {
		t.Fatalf("field %q value %q in:\n%s", f, v, b)
	}
	js := string(nodePeer("/usr/bin/node", terminal.Attention, scripts.FieldEquals, "notification_type", "permission_prompt", true, false))
	if !strings.Contains(js, `if (p["notification_type"] !== "permission_prompt") process.exit(0);`) {
		t.Errorf("peer lacks the comparison:\n%s", js)
	}
}

func TestNodePeerMatchesTheHookBytes(t *testing.T) {
	js := string(nodePeer("/usr/bin/node", terminal.Done, scripts.NonEmptyBackgroundTasks, "", "", false, true))
	for _, want := range []string{"#!/usr/bin/node\n", "env.HOOKINSTALL_TASK_ID", "GROK_HOOK_EVENT", "background_tasks", "terminalSequence"} {
		if !strings.Contains(js, want) {
			t.Errorf("peer lacks %q:\n%s", want, js)
		}
	}
}
