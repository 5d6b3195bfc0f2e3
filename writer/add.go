package writer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
	"github.com/hookinstall/hookinstall/manifest"
)

// Add installs t's hooks: its adapter's plan (with Options.Trust, also the
// user's trust for them in the agent's own file, with the hashes the
// agent's binary says it expects, and undone unless the binary then reports
// them trusted: trustcheck.go), applied as one transaction under t's lock,
// which waiting for honours ctx.
func (w *Writer) Add(ctx context.Context, t adapters.Target) Report {
	r := Report{Agent: t.ID, Config: t.Adapter.File(t)}
	// The agent's program on PATH says its version: a version below the
	// measured range gets only what it understands, or nothing.
	t = w.Gated(ctx, t)
	if err := t.Refused(); err != nil {
		return r.failed(err)
	}
	pr := w.probe(ctx, t, w.o.Trust)
	ask := w.queries(ctx)
	plan := func() (*txn, error) { return w.planAdd(t, pr, ask) }
	idle := func(*txn) bool { return len(w.strays(t)) == 0 }
	x, _, err := w.run(ctx, t, &r, plan, idle, w.applyAdd)
	if err == nil && w.o.Print {
		r.Changes = append(r.Changes, Change{Path: r.Config, Kind: "config", Action: "merge", Diff: string(x.merge)})
	}
	switch {
	case err != nil:
		return r.failed(err)
	case len(r.Changes) == 0:
		r.Status = adapters.StatusUnchanged
	case w.o.DryRun:
		r.Status = adapters.StatusWouldInstall
	case w.o.Print:
		r.Status = adapters.StatusPrinted
	default:
		r.Status = adapters.StatusInstalled
		r.Next = x.plan.Next
	}
	r.Notes = append(t.GateNotes(), r.Notes...) // of an install that stands
	return r
}

// Gated is t with the gate of its agent's version, asked of its program on
// the Options' PATH (adapters.Target.Gated); t as it is when it has a gate
// already or no measured range.
func (w *Writer) Gated(ctx context.Context, t adapters.Target) adapters.Target {
	if t.Gate != nil || t.Adapter.Range == nil {
		return t
	}
	v := w.version(ctx, t.Adapter.Range.Program)
	g := t.Gated(v.Path, v.Out, v.Err)
	if v.Kept && g.Gate != nil && (g.Gate.Refuse != "" || len(g.Gate.Drop) > 0 || g.Gate.TimeoutMS) {
		// a kept answer never refuses nor reduces: the binary behind a
		// wrapper may have changed without the wrapper
		v = w.version(agentexec.Fresh(ctx), t.Adapter.Range.Program)
		g = t.Gated(v.Path, v.Out, v.Err)
	}
	return g
}

// planAdd reads t's files and asks its adapter for the plan of an install
// (with Trust, after asking the agent's binary what the adapter's
// TrustQuery asks, through ask).
func (w *Writer) planAdd(t adapters.Target, pr adapters.Probe, ask func(*adapters.Query) *adapters.Reply) (*txn, error) {
	x, err := w.load(t)
	if err != nil {
		return nil, err
	}
	if w.o.Trust && ask != nil {
		if q := t.Adapter.TrustQuery(t, w.input(x, pr, true, nil)); q != nil {
			pr.Reply = ask(q)
		}
	}
	x.plan, err = t.Adapter.PlanAdd(t, w.input(x, pr, w.o.Trust, nil))
	if err != nil {
		return nil, w.fail(t, t.Adapter.File(t), err)
	}
	if w.o.Print {
		if err := w.printed(x, pr); err != nil {
			return nil, err
		}
	}
	if err := w.checkPlan(x, fmt.Sprintf("put our entries in its source ('%s' writes our scripts and prints the entries)", t.Command("add --print"))); err != nil {
		return nil, err
	}
	if err := w.checkLinks(x); err != nil {
		return nil, err
	}
	if err := checkHomeOwner(t.Home); err != nil && !w.o.DryRun {
		return nil, w.fail(t, "", err)
	}
	w.adopt(x)
	if err := x.checkHooksDir(); err != nil {
		return nil, w.fail(t, "", err)
	}
	if err := w.userParts(x); err != nil {
		return nil, err
	}
	return x, nil
}

// printed makes x an add --print: no file of the agent's is edited, and
// x.merge is the config our entries alone make (the plan of an add to no
// config), for the user to merge into their own. An agent whose hooks are
// a file of ours alone has nothing to merge.
func (w *Writer) printed(x *txn, pr adapters.Probe) error {
	cfg := x.t.Adapter.File(x.t)
	if x.t.Adapter.Own {
		return w.fail(x.t, cfg, errors.New("is a file of hookinstall's alone, not one to merge entries into: add it without --print"))
	}
	if x.man != nil && len(x.man.Files) > 0 { // its record (and backup) would be forgotten
		return w.fail(x.t, cfg, fmt.Errorf("holds entries an add without --print wrote: run '%s' first", x.t.Command("remove")))
	}
	in := w.input(x, pr, false, nil)
	delete(in.Files, cfg)
	in.Records = map[string]*adapters.Record{}
	p, err := x.t.Adapter.PlanAdd(x.t, in)
	if err != nil {
		return w.fail(x.t, cfg, err)
	}
	for _, e := range p.Edits {
		if e.Path == cfg {
			x.merge = e.Doc
		}
	}
	x.plan.Edits = nil
	return nil
}

// userParts finds what each file that x backs up for the first time held
// before any install, when that is not the file as it is: a file that
// already holds entries of ours with no manifest record of it. Claude Code
// rewrites settings.json in place from a copy it read earlier, so a copy
// read before a remove and written after it puts our entries back once the
// manifest, scripts and backup are gone (a manifest deleted by hand does the
// same). Backing that file up as it is would make the exact restore of the
// next remove put our entries back, pointing at the scripts it deletes. The
// user's file is what a remove without a manifest leaves of it: that is the
// backup, or, when nothing would be left, the file counts as created by the
// install.
func (w *Writer) userParts(x *txn) error {
	todo := map[string]bool{}
	roles := map[string]adapters.Role{}
	for _, e := range x.plan.Edits {
		roles[e.Path] = e.Role
	}
	for _, b := range w.backups(x) {
		if roles[b.path] != adapters.RoleConfig || adapters.MayHold(x.t, x.files[b.path].Data) {
			todo[b.path] = true
		}
	}
	if len(todo) == 0 {
		return nil
	}
	in := w.input(x, adapters.Probe{}, false, nil)
	in.Records = map[string]*adapters.Record{} // as without a manifest
	p, err := x.t.Adapter.PlanRemove(x.t, in)
	if err != nil {
		return w.fail(x.t, x.t.Adapter.File(x.t), err)
	}
	for _, e := range p.Edits {
		if todo[e.Path] && changes(e, x.files[e.Path]) {
			x.pre[e.Path] = preImage{data: e.Doc, absent: e.Delete}
		}
	}
	return nil
}

// preData is what the backup of path holds: the file as read, or its
// user's part (userParts).
func (x *txn) preData(path string) []byte {
	if p, ok := x.pre[path]; ok {
		return p.data
	}
	return x.files[path].Data
}

func scriptCurrent(path string, want []byte) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o755 {
		return false
	}
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, want)
}

// applyAdd writes one planned add through sys: a backup of each file it
// first changes, the scripts, the manifest (once, recording every file,
// and the folders created, dirs with the ones it makes), then each file
// (re-read just before its rename).
func (w *Writer) applyAdd(x *txn, sys system, dirs []string) error {
	t := x.t
	written := func(file string, err error) error {
		return &Error{Agent: t.ID, File: file, Err: err, Written: true}
	}
	// Backup once: never overwrite a backup that is already there.
	for _, b := range w.backups(x) {
		bpath := filepath.Join(x.hooksDir, b.name)
		if _, err := os.Lstat(bpath); errors.Is(err, fs.ErrNotExist) {
			if _, err := mkdirs(sys, filepath.Dir(bpath)); err != nil {
				return written(bpath, err)
			}
			if err := x.backup(sys, b.path, bpath); err != nil {
				return written(bpath, err)
			}
		}
	}
	for _, s := range x.plan.Scripts {
		path := filepath.Join(x.hooksDir, s.Name)
		if scriptCurrent(path, s.Content) {
			continue
		}
		if err := sys.WriteFile(path, s.Content, op{kind: "script", perm: 0o755, static: true}); err != nil {
			return written(path, err)
		}
	}
	var made []string
	for _, e := range x.plan.Edits {
		if st := x.files[e.Path]; changes(e, st) && !e.Delete {
			ds, err := mkdirs(sys, filepath.Dir(st.Real))
			if err != nil {
				return written(filepath.Dir(st.Real), err)
			}
			made = append(made, ds...)
		}
	}
	all := append(slices.Clone(dirs), made...)
	if len(made) > 0 {
		// Durable before the manifest, as for the hooks dir's (see locked).
		lockPath := filepath.Join(x.hooksDir, "lock")
		if _, err := w.pendingDirs(t, sys, lockPath, all); err != nil {
			for _, d := range slices.Backward(made) {
				_ = sys.Remove(d, op{}) // recorded nowhere: not left behind
			}
			return written(lockPath, err)
		}
	}
	path := filepath.Join(x.hooksDir, manifest.FileName)
	m := w.manifestFor(x, all)
	if !sameInstall(x.man, m) {
		if err := sys.WriteFile(path, m.Marshal(), op{kind: "manifest", perm: 0o644, static: true}); err != nil {
			return written(path, err)
		}
	}
	return w.replace(x, sys)
}

// backup makes bpath the backup of path: a hard link to the file as read,
// which costs no copy (the atomic replace that follows gives path a new
// inode and leaves the old one to the backup alone), or, when the bytes to
// keep are not the file's (userParts), the file changed since it was read,
// or the link fails (another filesystem), a copy, with the file's mode.
func (x *txn) backup(sys system, path, bpath string) error {
	st := x.files[path]
	if _, own := x.pre[path]; !own && st.Exists && sys.Link(st.Real, bpath, op{kind: "backup", prev: &st}) == nil {
		return nil
	}
	return sys.WriteFile(bpath, x.preData(path), op{kind: "backup", perm: st.Mode, static: true})
}
