package writer

// add --trust asks the agent's binary twice: before planning, which trust
// hashes it expects for the hooks the plan writes (the adapter's
// TrustQuery, answered about a scratch copy), and once the plan is written,
// whether it now reports our hooks trusted (Plan.Verify). When it does not,
// the add is undone from an undo log taken before the first write: every
// file the add wrote gets its bytes and mode back, or is deleted when the
// add created it, and the folders it created go.
//
// Order: config files (hooks.json, then config.toml) are written by
// applyAdd as for any add, the manifest first recording them, so a crash
// before the verdict leaves an install that remove takes out exactly; the
// undo puts the config files back first, then the scripts, backups and the
// manifest (last), and stops at the first file it cannot put back, so a
// crash or a failure during it leaves an install the manifest still
// records, or only files of ours: either way a remove gives the home back
// exactly (TestTrustRollbackCrashes).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// queries returns the ask that planAdd uses: each distinct question is put
// to the binary once per run (a re-plan under the lock asks again only when
// the files it would ask about changed).
func (w *Writer) queries(ctx context.Context) func(*adapters.Query) *adapters.Reply {
	seen := map[string]*adapters.Reply{}
	return func(q *adapters.Query) *adapters.Reply {
		var b strings.Builder
		b.WriteString(strings.Join(q.Argv, "\x00") + "\x01" + strings.Join(q.Env, "\x00") + "\x01" + q.Dir + "\x01")
		names := make([]string, 0, len(q.Files))
		for n := range q.Files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			b.WriteString(n + "\x00" + string(q.Files[n]) + "\x01")
		}
		k := b.String()
		if r, ok := seen[k]; ok {
			return r
		}
		r := w.query(ctx, q)
		seen[k] = r
		return r
	}
}

// savedFile is one file as it was before an add.
type savedFile struct {
	st    fileState // Real, Exists, Data, Mode, owner
	wrote []byte    // what the add writes there (configs), nil: not compared
}

// undo is what an add changes, as it was before.
type undo struct {
	configs []savedFile // in the plan's order
	files   []savedFile // scripts, backups, the manifest
	dirs    []string    // folders the add creates
	lock    string      // the lock file, when the add created the hooks dir
}

// undoLog records, before applyAdd, what x's add will change. Only a plan
// with a Verify can be undone; for others it records nothing.
func (w *Writer) undoLog(x *txn, created []string) (*undo, error) {
	if x.plan.Verify == nil {
		return nil, nil
	}
	u := &undo{}
	for _, e := range x.plan.Edits {
		st := x.files[e.Path]
		if changes(e, st) {
			u.configs = append(u.configs, savedFile{st: st, wrote: e.Doc})
		}
	}
	var paths []string
	for _, s := range x.plan.Scripts {
		paths = append(paths, filepath.Join(x.hooksDir, s.Name))
	}
	for _, b := range w.backups(x) {
		paths = append(paths, filepath.Join(x.hooksDir, b.name))
	}
	paths = append(paths, filepath.Join(x.hooksDir, manifest.FileName))
	for _, p := range paths {
		st, err := readFile(p, adapters.MaxDocSize)
		if err != nil {
			return nil, &Error{Agent: x.t.ID, File: p, Err: err}
		}
		u.files = append(u.files, savedFile{st: st})
	}
	// created also holds the folders an earlier run's lock file still
	// lists: the hooks dir is this add's own only when no install was there.
	u.dirs = append(u.dirs, created...)
	if man := u.files[len(u.files)-1]; !man.st.Exists && x.man == nil && contains(created, x.hooksDir) {
		u.lock = filepath.Join(x.hooksDir, "lock")
	}
	backupDir := filepath.Join(x.hooksDir, "backup")
	if _, err := os.Lstat(backupDir); errors.Is(err, fs.ErrNotExist) {
		u.dirs = append(u.dirs, backupDir)
	}
	for _, c := range u.configs {
		var missing []string
		for d := filepath.Dir(c.st.Real); d != filepath.Dir(d); d = filepath.Dir(d) {
			if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
				break
			}
			missing = append([]string{d}, missing...)
		}
		u.dirs = append(u.dirs, missing...)
	}
	return u, nil
}

// verify asks the agent's binary the plan's Verify question once x is
// written, and undoes the add when its Judge finds fault.
func (w *Writer) verify(ctx context.Context, x *txn, sys system, u *undo) error {
	v := x.plan.Verify
	if v == nil || u == nil {
		return nil
	}
	verdict := v.Judge(*w.query(ctx, &v.Query))
	if verdict == nil {
		return nil
	}
	err := u.restore(sys, x.t.NS)
	var ce *adapters.TrustCheckError
	if errors.As(verdict, &ce) {
		ce.Undone, ce.UndoErr = err == nil, err
	} else if err != nil {
		verdict = fmt.Errorf("%w; putting the files back stopped: %v; 'hookinstall remove' takes out what is left", verdict, err)
	}
	return &Error{Agent: x.t.ID, Err: verdict, Written: err != nil}
}

// restore puts back what u recorded: the configs (each only while it still
// holds what the add wrote: one the agent rewrote since is left alone),
// then the add's own files (the manifest last), then the folders it
// created. It stops at the first file it cannot put back: what is left is
// still an install the manifest records, which remove takes out.
func (u *undo) restore(sys system, ns string) error {
	for i := len(u.configs) - 1; i >= 0; i-- {
		c := u.configs[i]
		now, err := readFile(c.st.Real, adapters.MaxDocSize)
		if err != nil {
			return err
		}
		if !now.Exists || string(now.Data) != string(c.wrote) {
			return fmt.Errorf("%s changed since it was written, so it was left as it is (hookinstall remove takes our entries out)", c.st.Real)
		}
		st := c.st
		if st.Exists {
			err = sys.WriteFile(st.Real, st.Data, op{prev: &st, perm: st.Mode, temp: configTemp(st.Real, ns)})
		} else {
			err = sys.Remove(st.Real, op{})
		}
		if err != nil {
			return err
		}
	}
	for _, f := range u.files {
		var err error
		st := f.st
		if st.Exists {
			err = sys.WriteFile(st.Real, st.Data, op{prev: &st, perm: st.Mode, static: true})
		} else {
			err = sys.Remove(st.Real, op{})
		}
		if err != nil {
			return err
		}
	}
	if u.lock != "" {
		_ = sys.Remove(u.lock, op{}) // held: lockers check its inode, as after a remove
	}
	// Innermost first; a folder that is not empty (the agent's binary
	// keeps its own state there) stays.
	sort.Slice(u.dirs, func(i, j int) bool { return len(u.dirs[i]) > len(u.dirs[j]) })
	for _, d := range u.dirs {
		_ = sys.Remove(d, op{})
	}
	return nil
}
