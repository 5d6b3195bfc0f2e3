package writer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// A run waiting for another's lock gives up when its context is done, and
// writes nothing.
func TestLockHonoursContext(t *testing.T) {
	home, tg := newHome(t)
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), "{}\n")
	if err := os.MkdirAll(tg.HooksDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	other := flock.New(filepath.Join(tg.HooksDir(), "lock"))
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	before := snapshot(t, home)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := newWriter(nil).Add(ctx, tg)
	if !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Fatalf("Add while locked: %v, want context.DeadlineExceeded", r.Err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if diff := treesnap.Diff(before, snapshot(t, home)); diff != "" {
		t.Errorf("files changed:\n%s", diff)
	}
	other.Close()
	mustOK(t, newWriter(nil).Add(ctx2(t), tg))
}

func ctx2(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}
