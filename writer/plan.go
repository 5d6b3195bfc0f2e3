package writer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// A txn is one agent's transaction: what its files held when read, and its
// adapter's plan for them.
type txn struct {
	t        adapters.Target
	hooksDir string
	reads    []string             // adapters.Reads(t): the config first
	files    map[string]fileState // what each of reads held, by path
	realDir  string               // t.Dir with its symlinks resolved, "" if none
	man      *manifest.Manifest
	manRaw   []byte
	plan     adapters.Plan
	merge    []byte            // add --print: the config our entries alone make, for the user to merge
	stale    []adapters.Target // installs of ours for another home the files name (adapters.Stale)
	notes    []string          // the writer's own (a manifest it ignored)
	// restore is, for each file a remove offers its backup back, the
	// backup: replace moves it into place instead of writing its bytes.
	restore map[string]restored
	// pre is, for each file an add backs up for the first time while it
	// already holds entries of ours, the file without them (see userParts).
	pre map[string]preImage
}

// restored is a backup a remove offers back: its path and bytes.
type restored struct {
	path string
	data []byte
}

// allNotes is what the report says of x: the writer's notes, then the plan's.
func (x *txn) allNotes() []string {
	return append(append([]string(nil), x.notes...), x.plan.Notes...)
}

// A preImage is what a file held before any install, as far as can be
// known: its bytes, or absent when it holds nothing but ours.
type preImage struct {
	data   []byte
	absent bool
}

// changes reports whether edit e changes the file st.
func changes(e adapters.FileEdit, st fileState) bool {
	if e.Delete {
		return st.Exists
	}
	return !st.Exists || !bytes.Equal(e.Doc, st.Data)
}

// load reads every file t's plans read, and its manifest.
func (w *Writer) load(t adapters.Target) (*txn, error) {
	x := &txn{t: t, hooksDir: t.HooksDir(), reads: adapters.Reads(t), files: map[string]fileState{}, pre: map[string]preImage{}, restore: map[string]restored{}}
	for _, f := range x.reads {
		st, err := readFile(f, adapters.MaxDocSize)
		if err != nil {
			return nil, w.fail(t, f, err)
		}
		x.files[f] = st
	}
	if real, err := filepath.EvalSymlinks(t.Dir); err == nil {
		x.realDir = real
	}
	manPath := filepath.Join(x.hooksDir, manifest.FileName)
	if raw, err := os.ReadFile(manPath); err == nil {
		m, err := manifest.Load(raw)
		if err != nil {
			x.notes = append(x.notes, fmt.Sprintf("%s: %v; ignoring it", manPath, err))
		} else {
			x.man, x.manRaw = m, raw
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, w.fail(t, manPath, err)
	}
	var recorded string
	if x.man != nil {
		recorded = x.man.AsHome
	}
	for _, alt := range adapters.Stale(t, x.present(), recorded) {
		x.stale = append(x.stale, alt)
		x.notes = append(x.notes, fmt.Sprintf("%s names this namespace's hooks of another home (%s...), which %s runs beside ours: they go, as ours do",
			strings.Join(t.Adapter.Holds(alt, x.present()), ", "), alt.Prefix(), t.Adapter.Product))
	}
	return x, nil
}

// input is what x read, as an adapter's plan takes it.
func (w *Writer) input(x *txn, pr adapters.Probe, trust bool, restore map[string]adapters.Edit) adapters.PlanInput {
	pr.RealDir = x.realDir
	in := adapters.PlanInput{Files: x.present(), Records: map[string]*adapters.Record{}, Restore: restore,
		Force: w.o.Force, Trust: trust, Probe: pr}
	// the entries of another home's install of ours go with ours (Stale)
	for _, alt := range x.stale {
		p, err := x.t.Adapter.PlanRemove(alt, adapters.PlanInput{Files: in.Files, Force: true})
		for _, e := range p.Edits {
			if err == nil && e.Delete {
				delete(in.Files, e.Path)
			} else if err == nil {
				in.Files[e.Path] = e.Doc
			}
		}
	}
	for path := range x.files {
		if f := x.man.File(w.rel(x.t, path)); f != nil {
			in.Records[path] = &adapters.Record{Entries: f.Entries, Created: f.Containers, Emptied: f.Emptied, PostSHA: f.PostSHA256, CreatedFile: f.Created}
		}
	}
	return in
}

// present is x's files as read: the existing ones, by path.
func (x *txn) present() map[string][]byte {
	files := map[string][]byte{}
	for path, st := range x.files {
		if st.Exists {
			files[path] = st.Data
		}
	}
	return files
}

// checkPlan refuses a plan that edits a file it did not read, a file
// reached through a symlink to nothing (see resolve), or a read-only file
// (a store path a home manager links to).
func (w *Writer) checkPlan(x *txn, fix string) error {
	for _, e := range x.plan.Edits {
		st, ok := x.files[e.Path]
		if !ok {
			return w.fail(x.t, e.Path, errors.New("is not one of the files the agent's plans read (adapters.Reads)"))
		}
		if st.Dangling != nil && !e.Delete {
			return w.fail(x.t, e.Path, st.Dangling)
		}
		if st.Exists && st.Mode&0o222 == 0 && changes(e, st) {
			if w.o.DryRun { // the diff is what to add at its source
				x.notes = append(x.notes, fmt.Sprintf("%s is read-only (real file %s): add would refuse; the diff below is what to add at its source", e.Path, st.Real))
				continue
			}
			return w.fail(x.t, e.Path, fmt.Errorf("is read-only (mode %04o, real file %s); it may be managed by another tool such as home-manager: make it writable, or %s", st.Mode, st.Real, fix))
		}
	}
	return nil
}

// checkLinks refuses an add that, unless Linked, writes through a symlink
// into a git repository (dotfiles): this machine's paths would go into the
// repository. Where a link is written through, a note says where it leads.
func (w *Writer) checkLinks(x *txn) error {
	writes := w.o.Print // the scripts
	for _, e := range x.plan.Edits {
		writes = writes || changes(e, x.files[e.Path])
	}
	// Only links below the home count: one above it (/home -> /data/home,
	// macOS's /var -> /private/var) is the machine's, not a dotfile's.
	home, err := filepath.EvalSymlinks(x.t.Home)
	if err != nil {
		home = x.t.Home
	}
	resolved := func(p string) string { return filepath.Join(home, strings.TrimPrefix(p, x.t.Home)) }
	if x.realDir != "" && x.realDir != resolved(x.t.Dir) && writes {
		if err := w.throughLink(x, x.t.Dir, x.realDir, "our scripts, backup and manifest"); err != nil {
			return err
		}
	}
	for _, e := range x.plan.Edits {
		st := x.files[e.Path]
		if st.Real != "" && st.Real != resolved(e.Path) && changes(e, st) && (x.realDir == "" || filepath.Dir(st.Real) != x.realDir) {
			if err := w.throughLink(x, e.Path, st.Real, "our entries, with this machine's paths,"); err != nil {
				return err
			}
		}
	}
	return nil
}

// throughLink refuses to write what at path, which a symlink leads to
// real, when real is inside a git repository and the run is not Linked;
// otherwise it notes where the link leads.
func (w *Writer) throughLink(x *txn, path, real, what string) error {
	repo := gitRoot(real)
	if repo == "" || w.o.Linked {
		x.notes = append(x.notes, fmt.Sprintf("%s is a link to %s: %s went there", path, real, strings.TrimSuffix(what, ",")))
		return nil
	}
	if w.o.DryRun {
		x.notes = append(x.notes, fmt.Sprintf("%s is a link to %s, in the git repository %s: add would refuse without --linked", path, real, repo))
		return nil
	}
	return w.fail(x.t, path, fmt.Errorf("is a link to %s, in the git repository %s: %s would go into the repository. Add --linked to write there anyway, or move it out of the repository", real, repo, what))
}

// gitRoot is the git work tree that holds path (a folder with .git), or "".
func gitRoot(path string) string {
	for dir := path; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// probe asks what only I/O can tell t's plans: with trust, the version of
// the agent's binary (found and run on the caller's PATH; the answer the
// version gate had, when the run asked it already).
func (w *Writer) probe(ctx context.Context, t adapters.Target, trust bool) adapters.Probe {
	if !trust || !t.Adapter.TrustWritable() {
		return adapters.Probe{}
	}
	v := w.version(ctx, t.Adapter.Trust.Write.Program)
	return adapters.Probe{Binary: v.Path, VersionOut: v.Out, VersionErr: v.Err}
}

// replan is plan() under the lock, given the transaction planned before
// taking it: when none of the files it read has changed since, it still
// holds and is returned as it is. Planning (validating and editing the
// config) is most of the work on a large config; reading it again is not.
func (w *Writer) replan(prev *txn, plan func() (*txn, error)) (*txn, error) {
	if prev != nil && w.unchanged(prev) {
		if err := prev.checkHooksDir(); err != nil {
			return nil, w.fail(prev.t, "", err)
		}
		return prev, nil
	}
	return plan()
}

// unchanged reports whether every file x was planned from, and the
// manifest, still hold the same bytes.
func (w *Writer) unchanged(x *txn) bool {
	for _, f := range x.reads {
		was := x.files[f]
		now, same, err := sameFile(f, was, adapters.MaxDocSize)
		if err != nil || !same || now.Real != was.Real || now.Mode != was.Mode || now.UID != was.UID || now.GID != was.GID {
			return false
		}
	}
	if real, err := filepath.EvalSymlinks(x.t.Dir); (err == nil) != (x.realDir != "") || real != x.realDir {
		return false
	}
	raw, err := os.ReadFile(filepath.Join(x.hooksDir, manifest.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return x.man == nil && x.manRaw == nil
	}
	return err == nil && x.man != nil && bytes.Equal(raw, x.manRaw)
}

// checkHooksDir refuses an existing hooks dir that is not private to us.
func (x *txn) checkHooksDir() error {
	// A concurrent remove may delete the dir at any moment: gone is fine.
	if err := checkPrivateDir(x.hooksDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// replace writes each file the plan changes, in order, through sys. The
// agents do not take our lock, so each file is re-read just before its
// rename, and when one changed since it was read the whole plan is made
// again (errRaced).
func (w *Writer) replace(x *txn, sys system) error {
	for _, e := range x.plan.Edits {
		st := x.files[e.Path]
		if !changes(e, st) {
			continue
		}
		var err error
		o := op{kind: string(e.Role), name: e.Path, prev: &st, doc: e.Doc, perm: 0o644}
		if e.Role == adapters.RoleTrust {
			o.perm = 0o600
		}
		switch {
		case e.Delete:
			err = sys.Remove(st.Real, o)
		case x.restorable(e, st):
			// The backup's own inode back in place, no copy: linked to
			// the config's temp name, which is renamed over the file. The
			// backup itself stays until the manifest that names it is
			// gone (a remove stopped after this leaves no manifest naming
			// a backup that is not there). When that fails (another
			// filesystem), its bytes are written instead.
			tmp := configTemp(st.Real, x.t.NS)
			if err = sys.Link(x.restore[e.Path].path, tmp, op{}); err == nil {
				if err = sys.Rename(tmp, st.Real, o); err == nil {
					break
				}
				_ = sys.Remove(tmp, op{})
			}
			fallthrough
		default:
			o.temp = configTemp(st.Real, x.t.NS)
			err = sys.WriteFile(st.Real, e.Doc, o)
		}
		if errors.Is(err, errRaced) {
			return errRaced
		} else if err != nil {
			return &Error{Agent: x.t.ID, File: e.Path, Err: err, Written: true}
		}
	}
	return nil
}

// restorable reports whether edit e (of the file read as st) puts back, as
// it is, the backup that x's remove offered, and that backup has the
// file's mode and owner, so moving it into place gives exactly what
// writing its bytes would.
func (x *txn) restorable(e adapters.FileEdit, st fileState) bool {
	r, ok := x.restore[e.Path]
	if !ok || e.Delete || !bytes.Equal(e.Doc, r.data) {
		return false
	}
	fi, err := os.Lstat(r.path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != st.Mode || fi.Size() != int64(len(r.data)) {
		return false
	}
	uid, gid, _, _ := sysOf(fi)
	return uid == st.UID && gid == st.GID
}

// run is add's and remove's one skeleton. plan reads t's files and makes
// the transaction; apply carries it out through a system. apply runs first
// on a recorder that writes nothing: its record is the dry run's change
// list, diffs and all. When that record is empty and idle says there is
// nothing else to tidy, nothing is done (no lock, no folder: add twice
// leaves the first add's bytes and mtimes), and nothing reports so. Else,
// under t's lock, the plan is made again unless nothing it read has
// changed, and applied on the real system, again from a fresh read while
// an agent rewrote a file between our read and our rename (retryRaced).
// The report's Changes are then the record of the apply that ran.
func (w *Writer) run(ctx context.Context, t adapters.Target, r *Report, plan func() (*txn, error), idle func(*txn) bool,
	apply func(x *txn, sys system, dirs []string) error) (x *txn, nothing bool, err error) {
	x, err = plan()
	if err != nil {
		return nil, false, err
	}
	r.Notes = x.allNotes()
	dry := &recorder{system: noSystem{}, diffs: w.o.DryRun}
	if err := apply(x, dry, nil); err != nil {
		return x, false, err
	}
	r.Changes = dry.listed()
	if len(r.Changes) == 0 && idle(x) {
		return x, true, nil
	}
	if w.o.DryRun {
		return x, false, nil
	}
	err = w.locked(ctx, t, w.system(), func(sys system, dirs []string) error {
		prev := x
		// One record for every attempt: what an attempt that raced wrote
		// (a backup, the scripts) the next one finds done. Likewise one
		// undoer: an undo puts back what every attempt wrote.
		rec := &recorder{system: sys}
		u := &undoer{system: rec}
		first, fresh := true, false // fresh: no install was there when the run took the lock
		defer func() { r.Changes = rec.listed() }()
		return retryRaced(t, r.Config, func() error {
			y, err := w.replan(prev, plan)
			prev = nil
			if err != nil {
				return err
			}
			if first {
				first, fresh = false, y.man == nil && y.manRaw == nil
			}
			x = y
			r.Notes = y.allNotes()
			if y.plan.Verify == nil {
				return apply(y, rec, dirs)
			}
			// A plan the agent's binary must confirm: written through the
			// undoer, and undone when it does not (trustcheck.go).
			if err := apply(y, u, dirs); err != nil {
				return err
			}
			err = w.verify(ctx, y, u, dirs, fresh)
			r.Notes = y.allNotes()
			if err != nil {
				rec.changes = nil // undone, or what is left is said
			}
			return err
		})
	})
	return x, false, err
}
