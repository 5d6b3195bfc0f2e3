package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// TrustKeyPath is the hooks.json path the agent puts into its trust keys:
// Codex resolves a $CODEX_HOME it was given through symlinks, and uses
// $HOME/.codex/hooks.json as written otherwise.
func TrustKeyPath(t adapters.Target) (string, error) {
	if t.AsHome != t.Home {
		return "", errors.New("--trust cannot be used with --as-home: the trust key names the container's path, whose symlinks the host cannot resolve; trust the hooks in /hooks inside the container")
	}
	hooks := t.Adapter.Config(t)
	if t.DirFrom != "" {
		real, err := filepath.EvalSymlinks(t.Dir)
		if err != nil {
			return "", err
		}
		return filepath.Join(real, filepath.Base(hooks)), nil
	}
	return filepath.Clean(hooks), nil
}

// trustPlan is the planned edit of the agent's trust file.
type trustPlan struct {
	tr      adapters.Untruster
	path    string
	cur     fileState
	doc     []byte
	delete  bool
	entries []adapters.TrustEntry
}

func (tp *trustPlan) changes() bool {
	if tp == nil {
		return false
	}
	if tp.delete {
		return tp.cur.Exists
	}
	return !tp.cur.Exists || !bytes.Equal(tp.doc, tp.cur.Data)
}

func (tp *trustPlan) change(withDiff bool) Change {
	c := Change{Path: tp.path, Kind: "trust", Action: "modify"}
	switch {
	case tp.delete:
		c.Action = "delete"
	case !tp.cur.Exists:
		c.Action = "create"
	}
	if withDiff {
		c.Diff = string(diff.Diff(tp.path, tp.cur.Data, tp.path, tp.doc))
	}
	return c
}

// planTrust computes the trust records for our entries in hooksDoc.
func (w *Writer) planTrust(t adapters.Target, hooksDoc []byte) (*trustPlan, error) {
	tr, ok := t.Adapter.(adapters.Truster)
	if !ok {
		return nil, fmt.Errorf("--trust is not supported for %s: trust its hooks in the agent", t.ID)
	}
	tp := &trustPlan{tr: tr, path: tr.TrustFile(t)}
	keyPath, err := TrustKeyPath(t)
	if err != nil {
		return nil, err
	}
	if tp.entries, err = tr.TrustEntries(t, hooksDoc, keyPath); err != nil {
		return nil, err
	}
	if tp.cur, err = readFile(tp.path, adapters.MaxDocSize); err != nil {
		return nil, &Error{Agent: t.ID, File: tp.path, Err: err}
	}
	if tp.doc, err = tr.Trust(tp.cur.Data, tp.entries); err != nil {
		return nil, &Error{Agent: t.ID, File: tp.path, Err: err}
	}
	return tp, nil
}

// planUntrust computes the trust file without our records: the original
// bytes when the file is as we left it, else our tables cut out.
func (w *Writer) planUntrust(p *plan) (*trustPlan, error) {
	t := p.t
	tr, ok := t.Adapter.(adapters.Untruster)
	if !ok {
		return nil, nil
	}
	tp := &trustPlan{tr: tr, path: tr.TrustFile(t)}
	cur, err := readFile(tp.path, adapters.MaxDocSize)
	if err != nil || !cur.Exists {
		return nil, err
	}
	tp.cur = cur
	if rec := p.man.File(w.rel(t, tp.path)); rec != nil && manifest.Sum(cur.Data) == rec.PostSHA256 {
		if rec.Created {
			tp.delete = true
			return tp, nil
		}
		if b, ok := readBackup(p.hooksDir, rec); ok {
			tp.doc = b
			return tp, nil
		}
	}
	keyPath, err := TrustKeyPath(t)
	if err != nil {
		keyPath = filepath.Clean(t.AsPath(t.Adapter.Config(t)))
	}
	if tp.doc, err = tr.Untrust(t, cur.Data, keyPath); err != nil {
		return nil, &Error{Agent: t.ID, File: tp.path, Err: err}
	}
	return tp, nil
}

// applyTrust writes a planned trust edit: backup once, manifest record, then
// (after a last re-read: Codex rewrites config.toml too) the file.
func (w *Writer) applyTrust(t adapters.Target, tp *trustPlan, record bool) error {
	if !tp.changes() {
		return nil
	}
	hooksDir := t.HooksDir()
	written := func(file string, err error) error {
		return &Error{Agent: t.ID, File: file, Err: err, Written: true}
	}
	if record {
		raw, err := os.ReadFile(filepath.Join(hooksDir, manifest.FileName))
		if err != nil {
			return written(filepath.Join(hooksDir, manifest.FileName), err)
		}
		m, err := manifest.Load(raw)
		if err != nil {
			return written(filepath.Join(hooksDir, manifest.FileName), err)
		}
		rel := w.rel(t, tp.path)
		f := m.File(rel)
		if f == nil {
			m.Files = append(m.Files, manifest.File{Path: rel, Created: !tp.cur.Exists})
			f = &m.Files[len(m.Files)-1]
			if tp.cur.Exists {
				f.PreSHA256 = manifest.Sum(tp.cur.Data)
				f.Backup = filepath.Join("backup", filepath.Base(tp.path))
				bpath := filepath.Join(hooksDir, f.Backup)
				if _, err := os.Lstat(bpath); errors.Is(err, fs.ErrNotExist) {
					if _, err := mkdirs(filepath.Dir(bpath)); err != nil {
						return written(bpath, err)
					}
					if err := writeAtomic(bpath, tp.cur.Data, 0o600, true, nil); err != nil {
						return written(bpath, err)
					}
				}
			}
		}
		if f.PostSHA256 == "" || f.PostSHA256 == manifest.Sum(tp.cur.Data) {
			// As for the config (manifestFor): once Codex or the user
			// changed the file since we wrote it, keep the old post hash so
			// remove cuts our records out instead of restoring the backup.
			f.PostSHA256 = manifest.Sum(tp.doc)
		}
		if err := writeAtomic(filepath.Join(hooksDir, manifest.FileName), m.Marshal(), 0o644, true, nil); err != nil {
			return written(filepath.Join(hooksDir, manifest.FileName), err)
		}
	}
	now, err := readFile(tp.path, adapters.MaxDocSize)
	if err != nil {
		return written(tp.path, err)
	}
	if now.Exists != tp.cur.Exists || !bytes.Equal(now.Data, tp.cur.Data) {
		return errRaced
	}
	if tp.delete {
		err = removeFile(now.Real)
	} else {
		err = writeConfigAtomic(now.Real, t.NS, tp.doc, 0o600, &now)
	}
	if err != nil {
		return written(tp.path, err)
	}
	return nil
}
