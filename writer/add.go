package writer

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// Add installs t's hooks: its adapter's plan (with Options.Trust, also the
// user's trust for them in the agent's own file, once the agent's binary
// says it is the version whose trust hash is exact), applied as one
// transaction under t's lock, which waiting for honours ctx.
func (w *Writer) Add(ctx context.Context, t adapters.Target) Report {
	r := Report{Agent: t.ID, Config: t.Adapter.Config(t)}
	pr := w.probe(ctx, t, w.o.Trust)
	ask := w.queries(ctx)
	plan := func() (*txn, error) { return w.planAdd(t, pr, ask) }
	x, err := plan()
	if err != nil {
		return r.failed(err)
	}
	r.Notes = x.allNotes()
	if w.o.DryRun {
		r.Changes = w.addChanges(x, true)
		r.Status = "would-install"
		if len(r.Changes) == 0 {
			r.Status = "unchanged"
		}
		return r
	}
	if len(w.addChanges(x, false)) == 0 && len(w.strays(t)) == 0 {
		r.Status = "unchanged"
		return r
	}
	err = w.locked(ctx, t, func(created []string) error {
		prev := x
		return retryRaced(t, r.Config, func() error {
			y, err := w.replan(prev, plan)
			prev = nil
			if err != nil {
				return err
			}
			x = y
			r.Notes = y.allNotes()
			r.Changes = w.addChanges(y, false)
			if len(r.Changes) == 0 {
				return nil
			}
			u, err := w.undoLog(y, created)
			if err != nil {
				return err
			}
			if err := w.applyAdd(y, created); err != nil {
				return err
			}
			if err := w.verify(ctx, y, u); err != nil {
				r.Changes = nil // undone
				return err
			}
			return nil
		})
	})
	if err != nil {
		return r.failed(err)
	}
	r.Status = "installed"
	if len(r.Changes) == 0 {
		r.Status = "unchanged"
	} else {
		r.Next = x.plan.Next
	}
	return r
}

// planAdd reads t's files and asks its adapter for the plan of an install
// (with Trust, after asking the agent's binary what the adapter's
// TrustQuery asks, through ask).
func (w *Writer) planAdd(t adapters.Target, pr adapters.Probe, ask func(*adapters.Query) *adapters.Reply) (*txn, error) {
	x, err := w.load(t)
	if err != nil {
		return nil, err
	}
	if tq, ok := t.Adapter.(adapters.TrustQuerier); ok && w.o.Trust && ask != nil {
		if q := tq.TrustQuery(t, w.input(x, pr, true, nil)); q != nil {
			pr.Reply = ask(q)
		}
	}
	x.plan, err = t.Adapter.PlanAdd(t, w.input(x, pr, w.o.Trust, nil))
	if err != nil {
		return nil, w.fail(t, t.Adapter.Config(t), err)
	}
	if err := w.checkPlan(x); err != nil {
		return nil, err
	}
	if err := x.checkHooksDir(); err != nil {
		return nil, w.fail(t, "", err)
	}
	if err := w.userParts(x); err != nil {
		return nil, err
	}
	return x, nil
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
		if roles[b.path] != adapters.RoleConfig || mayHoldNS(x.files[b.path].Data, x.t.NS) {
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
		return w.fail(x.t, x.t.Adapter.Config(x.t), err)
	}
	for _, e := range p.Edits {
		if todo[e.Path] && changes(e, x.files[e.Path]) {
			x.pre[e.Path] = preImage{data: e.Doc, absent: e.Delete}
		}
	}
	return nil
}

// mayHoldNS reports whether a config may hold an entry of ours: each one
// names the hooks dir, <NS>-hooks (or a plugin's header names NS), either
// as it is or spelled with escapes (JSON's \u and \/, TOML's \u, \U and
// \x); a namespace has no byte that needs another escape. False is
// certain, and spares the first install on a large config a second parse.
func mayHoldNS(data []byte, ns string) bool {
	for _, s := range []string{ns, `\u`, `\U`, `\x`, `\/`} {
		if bytes.Contains(data, []byte(s)) {
			return true
		}
	}
	return false
}

// preData is what the backup of path holds: the file as read, or its
// user's part (userParts).
func (x *txn) preData(path string) []byte {
	if p, ok := x.pre[path]; ok {
		return p.data
	}
	return x.files[path].Data
}

// addChanges lists what an add would write; empty means nothing to do.
func (w *Writer) addChanges(x *txn, withDiff bool) []Change {
	cs := w.editChanges(x, withDiff)
	for _, b := range w.backups(x) {
		bpath := filepath.Join(x.hooksDir, b.name)
		if _, err := os.Lstat(bpath); errors.Is(err, fs.ErrNotExist) {
			cs = append(cs, Change{Path: bpath, Kind: "backup", Action: "create"})
		}
	}
	for _, s := range x.plan.Scripts {
		path := filepath.Join(x.hooksDir, s.Name)
		if !scriptCurrent(path, s.Content) {
			action := "create"
			if _, err := os.Lstat(path); err == nil {
				action = "modify"
			}
			cs = append(cs, Change{Path: path, Kind: "script", Action: action})
		}
	}
	if !sameInstall(x.man, w.manifestFor(x, nil)) {
		action := "create"
		if x.man != nil {
			action = "modify"
		}
		cs = append(cs, Change{Path: filepath.Join(x.hooksDir, manifest.FileName), Kind: "manifest", Action: action})
	}
	return cs
}

func scriptCurrent(path string, want []byte) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o755 {
		return false
	}
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, want)
}

// applyAdd writes one planned add: a backup of each file it first changes,
// the scripts, the manifest (once, recording every file), then each file
// (re-read just before its rename).
func (w *Writer) applyAdd(x *txn, created []string) error {
	t := x.t
	written := func(file string, err error) error {
		return &Error{Agent: t.ID, File: file, Err: err, Written: true}
	}
	// Backup once: never overwrite a backup that is already there.
	for _, b := range w.backups(x) {
		bpath := filepath.Join(x.hooksDir, b.name)
		if _, err := os.Lstat(bpath); errors.Is(err, fs.ErrNotExist) {
			if _, err := mkdirs(filepath.Dir(bpath)); err != nil {
				return written(bpath, err)
			}
			if err := writeAtomic(bpath, x.preData(b.path), 0o600, true, nil, w.step("backup-temp")); err != nil {
				return written(bpath, err)
			}
		}
	}
	if err := w.at("after-backup"); err != nil {
		return err
	}
	for _, s := range x.plan.Scripts {
		path := filepath.Join(x.hooksDir, s.Name)
		if scriptCurrent(path, s.Content) {
			continue
		}
		if err := writeAtomic(path, s.Content, 0o755, true, nil, w.step("script-temp")); err != nil {
			return written(path, err)
		}
	}
	if err := w.at("after-scripts"); err != nil {
		return err
	}
	var dirs []string
	for _, e := range x.plan.Edits {
		if st := x.files[e.Path]; changes(e, st) && !e.Delete {
			ds, err := mkdirs(filepath.Dir(st.Real))
			if err != nil {
				return written(filepath.Dir(st.Real), err)
			}
			dirs = append(dirs, ds...)
		}
	}
	if len(dirs) > 0 {
		// Durable before the manifest, as for the hooks dir's (see locked).
		if _, err := w.pendingDirs(t, filepath.Join(x.hooksDir, "lock"), append(append([]string(nil), created...), dirs...)); err != nil {
			return written(filepath.Join(x.hooksDir, "lock"), err)
		}
	}
	m := w.manifestFor(x, append(created, dirs...))
	if !sameInstall(x.man, m) {
		if err := writeAtomic(filepath.Join(x.hooksDir, manifest.FileName), m.Marshal(), 0o644, true, nil, w.step("manifest-temp")); err != nil {
			return written(filepath.Join(x.hooksDir, manifest.FileName), err)
		}
	}
	if err := w.at("after-manifest"); err != nil {
		return err
	}
	return w.replace(x)
}
