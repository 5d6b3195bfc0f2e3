package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

// TestAskIsBounded: an agent's program that never answers (a claude that
// hangs) holds doctor no longer than AskTimeout (plus the grace to kill its
// process group), and doctor says, as information, that it did not answer.
func TestAskIsBounded(t *testing.T) {
	home := t.TempDir()
	bin := t.TempDir()
	// It also starts a child that would hold the output pipe open: the
	// whole process group goes at the timeout.
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\nsleep 60 &\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tg, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if r := writer.New(writer.Options{}).Add(context.Background(), tg); r.Err != nil {
		t.Fatal(r.Err)
	}
	path := bin + ":/usr/bin:/bin"
	d := New(Options{Ask: true, AskTimeout: 300 * time.Millisecond,
		Getenv: func(k string) string {
			if k == "PATH" {
				return path
			}
			return ""
		}})
	start := time.Now()
	a := d.Agent(tg)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("doctor took %s with a program that never answers; AskTimeout is 300ms", took)
	}
	found := false
	for _, c := range a.Checks {
		if c.ID == "binary.claude" {
			found = true
			if c.Result != adapters.Info || !strings.Contains(c.Verdict, "did not finish within 300ms") {
				t.Errorf("binary.claude: %s %q, want info saying it did not finish within 300ms", c.Result, c.Verdict)
			}
		}
	}
	if !found {
		t.Fatalf("no binary.claude check; checks: %+v", a.Checks)
	}
}
