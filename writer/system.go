package writer

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/hookinstall/hookinstall/adapters"
)

// A system makes every change the writer makes to the disk: each write,
// rename, folder, mode, lock, link and deletion is one call of it, and
// nothing else in the package writes (doc.go). realSystem acts; a recorder
// lists the Changes of its calls, around the real system for a run and
// around noSystem for a dry run, so the change list a run prints, dry or
// not, is the record of the same apply, not a prediction of it; in tests,
// a fault system fails the n-th call, before or after acting, for every n
// (export_test.go, crash_test.go): the crash matrix covers the lock file
// and every folder by construction.
type system interface {
	// WriteFile replaces path with data: a temp file in path's folder
	// (o.temp, or tempFile(path)), fsync, the mode and owner (o.prev's when
	// the file exists, else o.perm), rename, fsync of the folder. On error
	// path is as it was and no temp file is left. With o.prev (a plan's
	// file), WriteFile, Rename and Remove act only while the file still
	// holds what o.prev read: the agents take no lock of ours, and one that
	// rewrote it since gets errRaced (the plan is made again).
	WriteFile(path string, data []byte, o op) error
	// Link makes newname a hard link to oldname, and syncs its folder;
	// with o.prev, only while oldname is still the file o.prev read (else
	// errRaced, and no link: the caller copies the bytes it read instead).
	Link(oldname, newname string, o op) error
	// Rename moves oldname over newname (a file of the plan, as o says:
	// a restore), and syncs newname's folder.
	Rename(oldname, newname string, o op) error
	// Remove deletes the file (or empty folder) path and syncs its
	// folder; an absent path is no error.
	Remove(path string, o op) error
	// Mkdir creates the folder path, mode 0755 less the umask.
	Mkdir(path string) error
	// Chmod sets path's mode.
	Chmod(path string, mode fs.FileMode) error
	// Lock creates the lock file path (mode 0600) when it is missing and
	// takes the advisory lock on it; waiting honours ctx.
	Lock(ctx context.Context, path string) (heldLock, error)
	// Rewrite puts data in the file path in place and syncs it: the lock
	// file, which must stay the inode that others lock.
	Rewrite(path string, data []byte) error
}

// A heldLock is a lock a system took.
type heldLock interface {
	Stat() (fs.FileInfo, error) // the file locked, to compare with the one on disk
	Close() error               // release it
}

// op says what a write is, for its record, and how to make it.
type op struct {
	kind   string     // config, trust, script, manifest, backup: a Change of that kind; "" is not listed (folders, the lock file, strays)
	name   string     // the path to report, when not the one written (a config reached through a symlink)
	prev   *fileState // what the file held when read (a plan's file): mode and owner to keep, and the diff's old side
	perm   fs.FileMode
	static bool   // perm exactly, not less the umask
	temp   string // the temp file to write through (configTemp), "" for tempFile(path)
	lazy   bool   // Remove: leave the folder's sync to a later call in the same folder
	doc    []byte // Rename: the bytes the file gets, for the record's diff
}

// realSystem acts on the disk.
type realSystem struct{}

// unchanged is the check of a plan's file (o.prev) before it is replaced:
// re-read, it must hold what was read.
func (o op) unchanged() error {
	if o.prev == nil {
		return nil
	}
	if _, same, err := sameFile(o.prev.Path, *o.prev, adapters.MaxDocSize); err != nil || !same {
		return cmp.Or(err, errRaced)
	}
	return nil
}

func (realSystem) WriteFile(path string, data []byte, o op) error {
	if err := o.unchanged(); err != nil {
		return err
	}
	return writeAtomic(path, cmp.Or(o.temp, tempFile(path)), data, o.perm, o.static, o.prev)
}

func (realSystem) Link(oldname, newname string, o op) error {
	if err := os.Link(oldname, newname); err != nil {
		return err
	}
	if fi, err := os.Lstat(newname); o.prev != nil && (err != nil || !o.prev.same(fi)) {
		_ = os.Remove(newname)
		return errRaced
	}
	return syncDir(filepath.Dir(newname))
}

func (realSystem) Rename(oldname, newname string, o op) error {
	if err := o.unchanged(); err != nil {
		return err
	}
	if err := os.Rename(oldname, newname); err != nil {
		return err
	}
	return syncDir(filepath.Dir(newname))
}

func (realSystem) Remove(path string, o op) error {
	if err := o.unchanged(); err != nil {
		return err
	}
	if o.lazy {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return removeFile(path)
}

func (realSystem) Mkdir(path string) error { return os.Mkdir(path, 0o755) }

func (realSystem) Chmod(path string, mode fs.FileMode) error { return os.Chmod(path, mode) }

func (realSystem) Lock(ctx context.Context, path string) (heldLock, error) {
	return lockFile(ctx, path)
}

func (realSystem) Rewrite(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	return cmp.Or(err, f.Close())
}

// A recorder lists the Changes its calls make, passing each to its system:
// the real one, or for a dry run noSystem, which writes nothing. With
// diffs, each write of a plan's file carries a unified diff.
type recorder struct {
	system
	diffs   bool
	changes []Change
}

// noSystem is a dry run's: each call but Lock succeeds as if it had written.
type noSystem struct{}

func (noSystem) WriteFile(string, []byte, op) error { return nil }
func (noSystem) Link(string, string, op) error      { return nil }
func (noSystem) Rename(string, string, op) error    { return nil }
func (noSystem) Remove(string, op) error            { return nil }
func (noSystem) Mkdir(string) error                 { return nil }
func (noSystem) Chmod(string, fs.FileMode) error    { return nil }
func (noSystem) Rewrite(string, []byte) error       { return nil }
func (noSystem) Lock(context.Context, string) (heldLock, error) {
	return nil, errors.New("a dry run takes no lock")
}

// record lists a change that leaves new in path; a plan's file's diff goes
// from what o.prev read (nothing, for a file created).
func (r *recorder) record(path string, o op, action string, new []byte) {
	if o.kind == "" {
		return
	}
	if o.name != "" {
		path = o.name
	}
	c := Change{Path: path, Kind: o.kind, Action: action}
	if r.diffs && o.prev != nil {
		// The side that does not exist is /dev/null, as diff -N and git
		// write it: a file created, or a file deleted.
		from, to, old := path, path, o.prev.Data
		switch action {
		case "create":
			from, old = os.DevNull, nil
		case "delete":
			to = os.DevNull
		}
		c.Diff = string(diff.Diff(from, old, to, new))
	}
	r.changes = append(r.changes, c)
}

// exists reports whether path (as o names it) is there now.
func exists(path string, o op) bool {
	if o.prev != nil {
		return o.prev.Exists
	}
	_, err := os.Lstat(path)
	return err == nil
}

func (r *recorder) WriteFile(path string, data []byte, o op) error {
	action := "create"
	if exists(path, o) {
		action = "modify"
	}
	if err := r.system.WriteFile(path, data, o); err != nil {
		return err
	}
	r.record(path, o, action, data)
	return nil
}

func (r *recorder) Link(oldname, newname string, o op) error {
	if err := r.system.Link(oldname, newname, o); err != nil {
		return err
	}
	r.record(newname, o, "create", nil)
	return nil
}

func (r *recorder) Rename(oldname, newname string, o op) error {
	if err := r.system.Rename(oldname, newname, o); err != nil {
		return err
	}
	r.record(newname, o, "modify", o.doc)
	return nil
}

func (r *recorder) Remove(path string, o op) error {
	was := exists(path, o)
	if err := r.system.Remove(path, o); err != nil {
		return err
	}
	if was {
		r.record(path, o, "delete", nil)
	}
	return nil
}

// An undoer is a system that, before each change it passes on, records
// what the path held, so that undo can put back every change it made, the
// last first: the undo of an add its plan's Verify disowns is this record,
// not a prediction of what the add would write.
type undoer struct {
	system
	steps []undoStep
}

// An undoStep is one path as it was before a change: a file's state (not
// there: the change created it), or a folder the change made. A plan's
// file (plan) also keeps what the change left there (nil: deleted it).
type undoStep struct {
	st    fileState
	plan  bool
	wrote []byte
	dir   bool
}

// save records path before a change that leaves after in it.
func (u *undoer) save(path string, o op, after []byte) error {
	if o.prev != nil {
		u.steps = append(u.steps, undoStep{st: *o.prev, plan: true, wrote: after})
		return nil
	}
	st, err := readFile(path, adapters.MaxDocSize)
	if err == nil {
		st.Real = path
		u.steps = append(u.steps, undoStep{st: st})
	}
	return err
}

func (u *undoer) WriteFile(path string, data []byte, o op) error {
	if err := u.save(path, o, data); err != nil {
		return err
	}
	return u.done(u.system.WriteFile(path, data, o))
}

func (u *undoer) Link(oldname, newname string, o op) error {
	if err := u.save(newname, op{}, nil); err != nil {
		return err
	}
	return u.done(u.system.Link(oldname, newname, o))
}

func (u *undoer) Rename(oldname, newname string, o op) error {
	if err := u.save(newname, o, o.doc); err != nil {
		return err
	}
	return u.done(u.system.Rename(oldname, newname, o))
}

// Remove records a plan's file; the others an add removes are its own
// (a temp file, a folder it made when the next step failed).
func (u *undoer) Remove(path string, o op) error {
	if o.prev == nil {
		return u.system.Remove(path, o)
	}
	u.steps = append(u.steps, undoStep{st: *o.prev, plan: true})
	return u.done(u.system.Remove(path, o))
}

func (u *undoer) Mkdir(path string) error {
	u.steps = append(u.steps, undoStep{st: fileState{Real: path}, dir: true})
	return u.done(u.system.Mkdir(path))
}

// done drops the step just saved when its change failed: that change left
// nothing to put back (an attempt that raced is retried under the same
// undoer).
func (u *undoer) done(err error) error {
	if err != nil {
		u.steps = u.steps[:len(u.steps)-1]
	}
	return err
}

// undo puts back what u recorded, the last change first: a plan's file
// only while it still holds what the change left there (one the agent
// rewrote since is left alone). It stops at the first file it cannot put
// back: what is left is an install the manifest records, or files of ours
// alone, which remove takes out. A folder that is not empty stays.
func (u *undoer) undo(ns string) error {
	for i := len(u.steps) - 1; i >= 0; i-- {
		s := u.steps[i]
		path := s.st.Real
		if s.dir {
			_ = u.system.Remove(path, op{})
			continue
		}
		o := op{perm: s.st.Mode, static: true}
		if s.plan {
			now, err := readFile(path, adapters.MaxDocSize)
			if err != nil {
				return err
			}
			if now.Exists != (s.wrote != nil) || !bytes.Equal(now.Data, s.wrote) {
				return fmt.Errorf("%s changed since it was written, so it was left as it is (hookinstall remove takes our entries out)", path)
			}
			o = op{prev: &now, perm: s.st.Mode, temp: configTemp(path, ns)}
		}
		var err error
		if s.st.Exists {
			err = u.system.WriteFile(path, s.st.Data, o)
		} else {
			err = u.system.Remove(path, op{})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// listed is the record in the order a report lists it: the plan's files
// first, in plan order, then backups, scripts and the manifest as add
// writes them, or, for a remove, the files it deleted by name.
func (r *recorder) listed() []Change {
	rank := map[string]int{"config": 0, "trust": 0, "backup": 1, "script": 2, "manifest": 3}
	group := func(c Change) int {
		if g := rank[c.Kind]; g == 0 || c.Action != "delete" {
			return g
		}
		return 10 // a remove's deletions, by name
	}
	var cs []Change
	seen := map[string]bool{}
	for _, c := range r.changes {
		if !seen[c.Path] { // a path written again (a retried attempt) is listed once, as first written
			seen[c.Path] = true
			cs = append(cs, c)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := group(cs[i]), group(cs[j])
		if a != b {
			return a < b
		}
		return a == 10 && cs[i].Path < cs[j].Path
	})
	return cs
}
