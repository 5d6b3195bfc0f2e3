package writer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// lockRetry is how often a run waiting for another's lock tries again.
const lockRetry = 10 * time.Millisecond

// locked runs fn holding the lock of t's hooks dir, creating the dir (and
// its parents) first, every change through sys. fn gets the folders this
// run created (and an earlier run's still listed, see pendingDirs). The
// lock file may be deleted by a remove that holds it; a locker that finds
// its file gone starts over. When the lock cannot be taken, the folders
// this attempt created go again.
func (w *Writer) locked(ctx context.Context, t adapters.Target, sys system, fn func(sys system, created []string) error) error {
	dir := t.HooksDir()
	for attempt := 0; attempt < 100; attempt++ {
		created, err := mkdirs(sys, dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a parent removed by a concurrent remove: start over
		} else if err != nil {
			return &Error{Agent: t.ID, File: dir, Err: err}
		}
		lockPath := filepath.Join(dir, "lock")
		undo := func() {
			if len(created) > 0 && created[len(created)-1] == dir {
				_ = sys.Remove(lockPath, op{}) // ours: the dir is new
			}
			for _, d := range slices.Backward(created) {
				_ = sys.Remove(d, op{})
			}
		}
		if len(created) > 0 && created[len(created)-1] == dir {
			if err := sys.Chmod(dir, 0o755); errors.Is(err, fs.ErrNotExist) {
				continue // removed by a concurrent remove: start over
			} else if err != nil {
				undo()
				return &Error{Agent: t.ID, File: dir, Err: err}
			}
		}
		if err := checkPrivateDir(dir); errors.Is(err, fs.ErrNotExist) {
			continue // removed by a concurrent remove: start over
		} else if err != nil {
			undo()
			return &Error{Agent: t.ID, Err: err}
		}
		fl, err := sys.Lock(ctx, lockPath)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			undo()
			return &Error{Agent: t.ID, File: lockPath, Err: err}
		}
		held, err1 := fl.Stat()
		onDisk, err2 := os.Stat(lockPath)
		if err1 != nil || err2 != nil || !os.SameFile(held, onDisk) {
			fl.Close()
			continue
		}
		w.sweep(t, sys)
		all, err := w.pendingDirs(t, sys, lockPath, created)
		if err != nil {
			fl.Close()
			undo()
			return &Error{Agent: t.ID, File: lockPath, Err: err}
		}
		created = all
		err = fn(sys, created)
		fl.Close()
		return err
	}
	return &Error{Agent: t.ID, File: dir, Err: errors.New("could not take the lock")}
}

// strays lists the temp files a killed run of ours left behind.
func (w *Writer) strays(t adapters.Target) []string {
	names := map[string]bool{manifest.FileName: true}
	for _, f := range adapters.Reads(t) {
		names[filepath.Base(f)] = true // its backup's name
	}
	if ss, err := t.Adapter.Scripts(t); err == nil {
		for _, s := range ss {
			names[s.Name] = true
		}
	}
	var temps []string
	for _, d := range []string{t.HooksDir(), filepath.Join(t.HooksDir(), "backup")} {
		for n := range names {
			temps = append(temps, tempFile(filepath.Join(d, n)))
		}
	}
	for _, f := range adapters.Reads(t) {
		if real, err := resolve(f); err == nil && within(t.Home, real) {
			temps = append(temps, configTemp(real, t.NS))
		}
	}
	var found []string
	for _, p := range temps {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			found = append(found, p)
		}
	}
	return found
}

// sweep deletes them through sys; the caller holds the lock.
func (w *Writer) sweep(t adapters.Target, sys system) {
	for _, f := range w.strays(t) {
		_ = sys.Remove(f, op{})
	}
}

// pendingDirs makes the folders a run created durable before anything else
// is written: until the manifest records them, the lock file lists them (one
// path relative to the home a line), so a run that dies before its manifest
// exists leaves a record that the next run (add or remove) picks up, and a
// final remove deletes them. It returns this run's created dirs plus those
// still listed and present.
func (w *Writer) pendingDirs(t adapters.Target, sys system, lockPath string, created []string) ([]string, error) {
	var all []string
	if b, err := os.ReadFile(lockPath); err == nil {
		for _, r := range strings.Split(string(b), "\n") {
			d := filepath.Join(t.Home, r)
			if r == "" || filepath.IsAbs(r) || strings.HasPrefix(r, "..") {
				continue
			}
			if fi, err := os.Lstat(d); err == nil && fi.IsDir() && !slices.Contains(all, d) {
				all = append(all, d)
			}
		}
	}
	if len(created) == 0 {
		return all, nil
	}
	for _, d := range created {
		if !slices.Contains(all, d) {
			all = append(all, d)
		}
	}
	var b strings.Builder
	for _, d := range all {
		b.WriteString(w.rel(t, d) + "\n")
	}
	if err := sys.Rewrite(lockPath, []byte(b.String())); err != nil {
		return nil, err
	}
	return all, nil
}
