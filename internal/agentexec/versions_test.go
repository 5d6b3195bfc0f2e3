//go:build unix

package agentexec

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeBin writes program name into dir: a shell script.
func fakeBin(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestVersionsOneAtATimePerProgram: while one program has not answered
// (a hung --version), another program's answer does not wait for it.
func TestVersionsOneAtATimePerProgram(t *testing.T) {
	bin, started, release := t.TempDir(), fifo(t), fifo(t)
	fakeBin(t, bin, "hung", "echo >"+started+"\nread x <"+release+"\necho hung 1.0.0\n")
	fakeBin(t, bin, "quick", "echo quick 2.0.0\n")
	getenv := envOf(map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": t.TempDir()})
	var vs Versions
	hung := make(chan Version, 1)
	go func() { hung <- vs.Ask(context.Background(), getenv, "hung") }()
	if _, err := os.ReadFile(started); err != nil { // hung's --version is running
		t.Fatal(err)
	}
	quick := make(chan Version, 1)
	go func() { quick <- vs.Ask(context.Background(), getenv, "quick") }()
	select {
	case v := <-quick:
		if v.Err != nil || v.Out != "quick 2.0.0\n" {
			t.Errorf("quick: %q, %v", v.Out, v.Err)
		}
	case <-time.After(10 * time.Second):
		t.Error("quick's version waited for hung's")
	}
	if err := os.WriteFile(release, []byte("go\n"), 0); err != nil {
		t.Fatal(err)
	}
	if v := <-hung; v.Err != nil || v.Out != "hung 1.0.0\n" {
		t.Errorf("hung: %q, %v", v.Out, v.Err)
	}
}

// TestVersionsStoppedNotKept: an answer that a cancelled ctx stopped is
// not what the next asker gets.
func TestVersionsStoppedNotKept(t *testing.T) {
	bin := t.TempDir()
	fakeBin(t, bin, "agent", "echo agent 2.0.0\n")
	getenv := envOf(map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": t.TempDir()})
	var vs Versions
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := vs.Ask(ctx, getenv, "agent"); v.Err == nil {
		t.Fatalf("asked under a cancelled ctx: %q", v.Out)
	}
	if v := vs.Ask(context.Background(), getenv, "agent"); v.Err != nil || v.Out != "agent 2.0.0\n" {
		t.Errorf("asked again: %q, %v; want the program's answer", v.Out, v.Err)
	}
}

// TestVersionsKeptOnDisk: a binary's answer is kept in the user's cache
// folder ($XDG_CACHE_HOME/hookinstall, else ~/.cache/hookinstall) and
// serves the next call; a binary that changed (its modification time), or
// a cache file that is corrupt or not ours, gets the program asked again,
// and the file rewritten.
func TestVersionsKeptOnDisk(t *testing.T) {
	bin, home, marker := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "runs")
	prog := fakeBin(t, bin, "agent", "echo run >>"+marker+"\necho agent 2.0.0\n")
	env := map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": home}
	runs := func() int {
		b, _ := os.ReadFile(marker)
		return strings.Count(string(b), "run\n")
	}
	ask := func(want int) {
		t.Helper()
		var vs Versions // a call of its own each time
		if v := vs.Ask(context.Background(), envOf(env), "agent"); v.Err != nil || v.Out != "agent 2.0.0\n" || v.Path != prog {
			t.Fatalf("Ask: %+v", v)
		}
		if n := runs(); n != want {
			t.Fatalf("the program ran %d times, want %d", n, want)
		}
	}
	ask(1)
	ask(1)
	file := filepath.Join(home, ".cache", "hookinstall", "versions.json")
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(prog, later, later); err != nil {
		t.Fatal(err)
	}
	ask(2)
	ask(2)
	for i, junk := range []string{"{not json", `{"kind":"something else","answers":{}}`} {
		if err := os.WriteFile(file, []byte(junk), 0o600); err != nil {
			t.Fatal(err)
		}
		ask(3 + i)
		ask(3 + i)
	}
	env["XDG_CACHE_HOME"] = t.TempDir()
	ask(5)
	file = filepath.Join(env["XDG_CACHE_HOME"], "hookinstall", "versions.json")
	if _, err := os.Stat(file); err != nil {
		t.Error(err)
	}
	// an answer is kept a day
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(file, regexp.MustCompile(`"at": "[^"]*"`).ReplaceAll(b, []byte(`"at": "2020-01-01T00:00:00Z"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	ask(6)
	ask(6)
	// under Fresh, the program is asked whatever was kept, and says so
	var vs Versions
	if v := vs.Ask(context.Background(), envOf(env), "agent"); !v.Kept || runs() != 6 {
		t.Fatalf("kept: %+v, %d runs", v, runs())
	}
	if v := vs.Ask(Fresh(context.Background()), envOf(env), "agent"); v.Kept || runs() != 7 {
		t.Errorf("fresh: %+v, %d runs; want the program asked", v, runs())
	}
}

// TestVersionsSaySlow: an answer that takes over a second is said, once,
// naming what is waited on, on one line of at most 100 columns.
func TestVersionsSaySlow(t *testing.T) {
	bin, release := t.TempDir(), fifo(t)
	fakeBin(t, bin, "agent", "read x <"+release+"\necho agent 2.0.0\n")
	getenv := envOf(map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": t.TempDir()})
	said := make(chan string, 2)
	ctx := Waiting(context.Background(), func(s string) {
		said <- s
		_ = os.WriteFile(release, []byte("go\n"), 0) // answer only once it was said
	})
	var vs Versions
	if v := vs.Ask(ctx, getenv, "agent"); v.Err != nil {
		t.Fatal(v.Err)
	}
	close(said)
	var lines []string
	for s := range said {
		lines = append(lines, s)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "agent --version") || len(lines[0]) > 100 || strings.Contains(lines[0], "\n") {
		t.Errorf("said %q, want one line naming agent --version", lines)
	}
}
