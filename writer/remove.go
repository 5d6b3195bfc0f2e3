package writer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// Remove takes t's hooks out of every file its adapter's plan names, and
// deletes our scripts, backups and manifest, as one transaction under t's
// lock, which waiting for honours ctx.
func (w *Writer) Remove(ctx context.Context, t adapters.Target) Report {
	r := Report{Agent: t.ID, Config: t.Adapter.File(t)}
	t, err := Recorded(t)
	if err != nil {
		return r.failed(err)
	}
	plan := func() (*txn, error) { return w.planRemove(t) }
	idle := func(x *txn) bool {
		_, err := os.Lstat(x.hooksDir)
		return errors.Is(err, fs.ErrNotExist)
	}
	x, nothing, err := w.run(ctx, t, &r, plan, idle, w.applyRemove)
	switch {
	case err != nil:
		if note, ok := w.nothingOurs(t, err); ok {
			r.Status, r.Notes = adapters.StatusNotInstalled, []string{note}
			return r
		}
		return r.failed(err)
	case nothing:
		r.Status = adapters.StatusNotInstalled
	case w.o.DryRun:
		r.Status = adapters.StatusWouldRemove
	case x.plan.Kept() || len(r.Notes) > 0 && leftOurs(x):
		r.Status = adapters.StatusPartlyRemoved
	default:
		r.Status = adapters.StatusRemoved
	}
	return r
}

// nothingOurs reports whether a removal that could not be planned (err: a
// file it reads is broken) has nothing to remove anyway: nothing of an
// install is there (Installed; a file it cannot read at all holds nothing
// it could take out). Then the removal is not-installed, and note says why
// the broken file did not matter.
func (w *Writer) nothingOurs(t adapters.Target, err error) (note string, ok bool) {
	var we *Error
	if !errors.As(err, &we) || we.File == "" || we.Written || Installed(t) {
		return "", false
	}
	return fmt.Sprintf("%s: %v; hookinstall cannot use it, and no folder of its hooks (%s) exists, so there is nothing of ours to remove",
		we.File, we.Err, t.HooksDir()), true
}

// planRemove reads t's files and asks its adapter for the plan of a
// removal, offering the exact restore of each file that still holds exactly
// what the install wrote.
func (w *Writer) planRemove(t adapters.Target) (*txn, error) {
	x, err := w.load(t)
	if err != nil {
		return nil, err
	}
	exact := w.restores(x)
	x.plan, err = t.Adapter.PlanRemove(t, w.input(x, adapters.Probe{}, false, exact))
	if err != nil {
		return nil, w.fail(t, t.Adapter.File(t), err)
	}
	if err := w.checkPlan(x, fmt.Sprintf("take our entries out at its source, then run '%s' again", t.Command("remove"))); err != nil {
		return nil, err
	}
	keepReferenced(x)
	x.plan.Notes = append(x.plan.Notes, w.changedSince(x, exact)...)
	return x, nil
}

// keepReferenced is the safety net of a removal: a remove never deletes a
// script that a config still points at. Which home t names is Recorded's
// decision, made before the lock; when the config, as the plan leaves it,
// still holds entries of ours under another spelling of the home than t's
// (the home on disk, or the container's home that the manifest read under
// the lock records, should it differ from what Recorded read), the plan
// keeps them and so the scripts (partly-removed), and a note names the
// command that finishes the job.
func keepReferenced(x *txn) {
	t := x.t
	if t.Adapter.Own || x.plan.Kept() {
		return
	}
	cfg := t.Adapter.File(t)
	idx := -1
	for i, e := range x.plan.Edits {
		if e.Path == cfg {
			idx = i
		}
	}
	var doc []byte
	switch {
	case idx >= 0 && x.plan.Edits[idx].Delete:
		return
	case idx >= 0:
		doc = x.plan.Edits[idx].Doc
	case x.files[cfg].Exists:
		doc = x.files[cfg].Data
	default:
		return
	}
	homes := []string{t.Home}
	if x.man != nil && filepath.IsAbs(x.man.AsHome) {
		homes = append(homes, filepath.Clean(x.man.AsHome))
	}
	for _, h := range homes {
		alt := t
		alt.AsHome = h
		if alt.Prefix() == t.Prefix() {
			continue
		}
		if len(t.Adapter.Holds(alt, map[string][]byte{cfg: doc})) == 0 {
			continue
		}
		if idx < 0 {
			x.plan.Edits = append(x.plan.Edits, adapters.FileEdit{Path: cfg, Role: adapters.RoleConfig, Edit: adapters.Edit{Doc: doc}})
			idx = len(x.plan.Edits) - 1
		}
		x.plan.Edits[idx].Kept = true
		in := t.Install()
		in.Home, in.AsHome = t.Home, h
		x.plan.Notes = append(x.plan.Notes, fmt.Sprintf("%s still runs our scripts as %s...: they stay; finish with '%s'", cfg, alt.Prefix(), in.Command("remove")))
		return
	}
}

// restores are the exact restores of x's files: each file that holds byte
// for byte what the last install wrote gets its backup back, or is deleted
// when the install created it. A backup that holds entries of ours (taken,
// before add looked for them (userParts), of a file an agent had written
// our entries back into) is not restored: that would leave them behind,
// pointing at the scripts remove deletes, so such a file gets the surgical
// removal instead.
func (w *Writer) restores(x *txn) map[string]adapters.Edit {
	m := map[string]adapters.Edit{}
	for _, path := range x.reads {
		st := x.files[path]
		rec := x.man.File(w.rel(x.t, path))
		if rec == nil || !st.Exists || manifest.Sum(st.Data) != rec.PostSHA256 {
			continue
		}
		if rec.Created {
			m[path] = adapters.Edit{Delete: true}
		} else if b, ok := readBackup(x.hooksDir, rec); ok && len(x.t.Adapter.Holds(x.t, map[string][]byte{path: b})) == 0 {
			m[path] = adapters.Edit{Doc: b}
			x.restore[path] = restored{filepath.Join(x.hooksDir, rec.Backup), b}
		}
	}
	return m
}

// changedSince notes each file of the install that changed after it (so
// exact has no restore of it) and that the plan edits and does not keep
// (keepReferenced): only our entries come out, and the user learns why the
// file is not the one from before add.
func (w *Writer) changedSince(x *txn, exact map[string]adapters.Edit) []string {
	var notes []string
	for _, e := range x.plan.Edits {
		st := x.files[e.Path]
		if _, ok := exact[e.Path]; ok || e.Delete || e.Kept || !st.Exists || x.man == nil || x.man.File(w.rel(x.t, e.Path)) == nil ||
			w.onlyOthers(x, e) {
			continue
		}
		notes = append(notes, fmt.Sprintf("%s changed after add, so remove takes only our entries out of it and does not put its backup back: the rest stays as it is", e.Path))
	}
	return notes
}

// onlyOthers reports whether file e changed after add only by the installs
// and removals of our namespaces: what this remove leaves of it, and what it
// held before add (its backup, or nothing when add created it), are the
// same once the entries of every namespace (any <dir>/<NS>-hooks/) are out.
func (w *Writer) onlyOthers(x *txn, e adapters.FileEdit) bool {
	ours := regexp.MustCompile(regexp.QuoteMeta(x.t.AsPath(x.t.Dir)+"/") + "([a-z][a-z0-9-]*)" + regexp.QuoteMeta(strings.TrimPrefix(filepath.Base(x.hooksDir), x.t.NS)+"/"))
	rec := x.man.File(w.rel(x.t, e.Path))
	if e.Doc != nil && ours.Find(e.Doc) == nil && (rec.Backup == "" || !fileMatches(filepath.Join(x.hooksDir, rec.Backup), ours)) {
		// No namespace's entry, now or before add: the change was the
		// user's. (Said with the backup read in chunks: on a large file,
		// reading it whole and the two plans below cost a file-sized
		// buffer each.)
		return false
	}
	before, ok := readBackup(x.hooksDir, rec)
	if !ok && !rec.Created {
		return false
	}
	in := adapters.PlanInput{Force: true, Records: map[string]*adapters.Record{e.Path: {Created: rec.Containers, Emptied: rec.Emptied, CreatedFile: rec.Created}}}
	strip := func(doc []byte) []byte {
		seen := map[string]bool{}
		for _, m := range ours.FindAllSubmatch(doc, -1) {
			o := x.t
			o.NS, in.Files = string(m[1]), map[string][]byte{e.Path: doc}
			if doc == nil || seen[o.NS] {
				continue
			}
			seen[o.NS] = true
			p, err := x.t.Adapter.PlanRemove(o, in)
			ok = ok && err == nil
			for _, pe := range p.Edits {
				if pe.Path == e.Path {
					doc = pe.Doc // nil when deleted
				}
			}
		}
		return doc
	}
	ok = true
	after, b := strip(e.Doc), strip(before)
	return ok && bytes.Equal(after, b) && (after == nil) == (b == nil)
}

// fileMatches reports whether re matches in the file at path, read in
// chunks that overlap by more than a match can span (a path), or true when
// the file cannot be read (the caller's full check then decides).
func fileMatches(path string, re *regexp.Regexp) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	const overlap = 8 << 10
	buf := make([]byte, 256<<10)
	keep := 0
	for {
		n, err := f.Read(buf[keep:])
		chunk := buf[:keep+n]
		if re.Match(chunk) {
			return true
		}
		if err != nil {
			return false
		}
		keep = min(len(chunk), overlap)
		copy(buf, chunk[len(chunk)-keep:])
	}
}

// ownedFiles lists the files in the hooks dir that a remove deletes: the
// scripts its plan names, and the files of the install's own record.
func (x *txn) ownedFiles() []string {
	fs := []string{filepath.Join(x.hooksDir, manifest.FileName)}
	for _, s := range x.plan.Scripts {
		fs = append(fs, filepath.Join(x.hooksDir, s.Name))
	}
	if x.man != nil {
		// Only what lies inside the hooks dir: a manifest (edited, or
		// from elsewhere) never makes remove delete a file of the user's.
		for _, s := range x.man.Scripts {
			if f := filepath.Join(x.t.Home, s.Path); within(x.hooksDir, f) {
				fs = append(fs, f)
			}
		}
		for _, f := range x.man.Files {
			if f.Backup != "" && within(x.hooksDir, filepath.Join(x.hooksDir, f.Backup)) {
				fs = append(fs, filepath.Join(x.hooksDir, f.Backup))
			}
		}
	}
	for _, path := range x.reads {
		fs = append(fs, filepath.Join(x.hooksDir, x.backupName(path)))
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

// hasOurs reports whether a file t reads holds an entry of ours.
func hasOurs(t adapters.Target) bool {
	files := map[string][]byte{}
	for _, f := range adapters.Reads(t) {
		if st, err := readFile(f, adapters.MaxDocSize); err == nil && st.Exists {
			files[f] = st.Data
		}
	}
	return len(t.Adapter.Holds(t, files)) > 0
}

// leftOurs is hasOurs of the files as the remove x left them: the bytes its
// plan wrote, or each file as read when the plan did not change it. They
// are not read again (remove's report asks after every removal that says
// something, as one of a file edited since add does).
func leftOurs(x *txn) bool {
	files := x.present()
	for _, e := range x.plan.Edits {
		if e.Delete {
			delete(files, e.Path)
		} else {
			files[e.Path] = e.Doc
		}
	}
	return len(x.t.Adapter.Holds(x.t, files)) > 0
}

// applyRemove writes one planned removal through sys: each file (re-read
// just before its rename), then, unless an entry of ours was kept, the
// manifest, scripts and backups, the lock file, and the folders the
// install created (dirs: the ones the lock file lists).
func (w *Writer) applyRemove(x *txn, sys system, dirs []string) error {
	t := x.t
	if err := w.replace(x, sys); err != nil {
		return err
	}
	if x.plan.Kept() {
		// Our hand-edited entries still point at the scripts: keep them,
		// and the manifest that says what they are.
		return nil
	}
	// The manifest goes first: a run that stops part way leaves no
	// manifest naming a backup or script that is gone (an add after it
	// would trust that record and take no backup). What is left is found
	// again by name; the lock file still lists the folders we created.
	manPath := filepath.Join(x.hooksDir, manifest.FileName)
	if err := sys.Remove(manPath, op{kind: "manifest"}); err != nil {
		return &Error{Agent: t.ID, File: manPath, Err: err, Written: true}
	}
	for _, f := range x.ownedFiles() {
		if f == manPath {
			continue
		}
		kind := "script"
		if within(filepath.Join(x.hooksDir, "backup"), f) {
			kind = "backup"
		}
		// Synced once, with the folder's last deletion below: the
		// manifest's is what must be durable first.
		if err := sys.Remove(f, op{kind: kind, lazy: true}); err != nil {
			return &Error{Agent: t.ID, File: f, Err: err, Written: true}
		}
	}
	// Then the folders, when empty (a file of someone else's in one keeps
	// it): the backup folder, the lock file (deleted while held; lockers
	// check its inode), the hooks dir, and the folders the install
	// created, innermost first. Only folders on the way to ours or to a
	// file of the plan: a manifest never makes remove delete another
	// (empty) folder of the user's.
	// Each is tried even when one before it failed: the lock file is the
	// last record of the folders, so once it is gone the folders must go
	// in the same run. The first failure is the run's error.
	var first error
	rm := func(path string) {
		if err := sys.Remove(path, op{}); err != nil && !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, fs.ErrExist) && first == nil {
			first = &Error{Agent: t.ID, File: path, Err: err, Written: true}
		}
	}
	var all []string
	if x.man != nil {
		for _, d := range x.man.CreatedDirs {
			all = append(all, filepath.Join(t.Home, d))
		}
	}
	for _, d := range dirs {
		if !slices.Contains(all, d) {
			all = append(all, d)
		}
	}
	lockPath := filepath.Join(x.hooksDir, "lock")
	rm(filepath.Join(x.hooksDir, "backup"))
	rm(lockPath)
	rm(x.hooksDir)
	for _, d := range slices.Backward(all) {
		if within(t.Home, d) && x.leadsToOurs(d) {
			rm(d)
		}
	}
	if first != nil {
		// A folder stays, and the lock file, the only record of the
		// folders the install created, is gone: write it again (in the
		// hooks dir, made again when need be), so the next remove, which
		// the error asks for, deletes them.
		if _, err := mkdirs(sys, x.hooksDir); err == nil {
			_, _ = w.pendingDirs(t, sys, lockPath, all)
		}
	}
	return first
}

// leadsToOurs reports whether folder d holds the hooks dir or a file of the
// plan.
func (x *txn) leadsToOurs(d string) bool {
	return within(d, x.hooksDir) || slices.ContainsFunc(x.plan.Edits, func(e adapters.FileEdit) bool { return within(d, e.Path) })
}
