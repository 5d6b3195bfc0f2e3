package writer

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// An add that dies after creating ~/.claude but before its manifest records
// that, followed by a good add and a remove, must not leave ~/.claude behind
// (it would also make the agent look installed to add --all).
func TestCreatedDirsSurviveAnInterruptedAdd(t *testing.T) {
	home, tg := newHome(t)
	stop := func(call string) error {
		if call == "after write script" {
			return errFault
		}
		return nil
	}
	r := newWriter(stop).Add(context.Background(), tg) // dirs exist, no manifest
	if r.Err == nil {
		t.Fatalf("fault not hit as planned: %v", r.Err)
	}
	if _, err := os.Stat(tg.Dir); err != nil {
		t.Fatalf("the interrupted add should have created %s: %v", tg.Dir, err)
	}
	mustOK(t, newWriter(nil).Add(context.Background(), tg))
	mustOK(t, newWriter(nil).Remove(context.Background(), tg))
	if _, err := os.Lstat(tg.Dir); !os.IsNotExist(err) {
		t.Fatalf("%s left behind after remove: %v", tg.Dir, err)
	}
	if _, err := os.Stat(home); err != nil {
		t.Fatalf("home gone: %v", err)
	}
}

// The same when the user runs remove straight after the interrupted add.
func TestCreatedDirsRemovedAfterInterruptedAdd(t *testing.T) {
	home, tg := newHome(t)
	stop := func(call string) error {
		if call == "before write script" {
			return errFault
		}
		return nil
	}
	if r := newWriter(stop).Add(context.Background(), tg); r.Err == nil {
		t.Fatal("fault not hit")
	}
	mustOK(t, newWriter(nil).Remove(context.Background(), tg))
	ents, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Fatalf("home not empty after remove: %v", ents[0].Name())
	}
	if _, err := os.Stat(filepath.Dir(home)); err != nil {
		t.Fatal(err)
	}
}
