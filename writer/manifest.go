package writer

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// recorded reports whether the manifest of an add records e's file: the
// config always; another file once an install changes it.
func (w *Writer) recorded(x *txn, e adapters.FileEdit) bool {
	return e.Role == adapters.RoleConfig || changes(e, x.files[e.Path]) || x.man.File(w.rel(x.t, e.Path)) != nil
}

// A backup is one file an add backs up before it first changes it.
type backup struct {
	path string // the file
	name string // the backup, relative to the hooks dir
}

// backups lists the files of x's plan to back up: recorded, present (with
// more than our entries in it, see userParts), and not yet in the manifest
// (backup once: a later add never takes another).
func (w *Writer) backups(x *txn) []backup {
	var bs []backup
	for _, e := range x.plan.Edits {
		if x.files[e.Path].Exists && !x.pre[e.Path].absent && w.recorded(x, e) && x.man.File(w.rel(x.t, e.Path)) == nil {
			bs = append(bs, backup{e.Path, x.backupName(e.Path)})
		}
	}
	return bs
}

// backupName is where path's backup goes: backup/<its name>, numbered when
// another file the plans read has the same name.
func (x *txn) backupName(path string) string {
	base := filepath.Base(path)
	n := 0
	for _, p := range x.reads {
		if p == path {
			break
		}
		if filepath.Base(p) == base {
			n++
		}
	}
	name := filepath.Join("backup", base)
	if n > 0 {
		name += "." + strconv.Itoa(n)
	}
	return name
}

// manifestFor builds the manifest an add writes: one record per file of the
// plan (see recorded), the records of other files kept, every script.
func (w *Writer) manifestFor(x *txn, createdDirs []string) *manifest.Manifest {
	t := x.t
	m := &manifest.Manifest{
		Schema:      manifest.Schema,
		ToolVersion: w.o.Version,
		Namespace:   t.NS,
		Agent:       t.ID,
		Base:        t.Adapter.ID,
		AsHome:      t.AsHome,
		InstalledAt: w.o.Now().UTC().Truncate(time.Second),
	}
	if x.man != nil {
		m.CreatedDirs = append(m.CreatedDirs, x.man.CreatedDirs...)
	}
	// Each add takes over the folders the other namespaces' installs
	// created (see adopt): whichever is removed last deletes them.
	for _, o := range others(x.t) {
		for _, d := range o.CreatedDirs {
			if !slices.Contains(m.CreatedDirs, d) {
				m.CreatedDirs = append(m.CreatedDirs, d)
			}
		}
	}
	for _, d := range createdDirs {
		r := w.rel(t, d)
		// The home itself (a --home that did not exist yet) is never ours
		// to delete.
		if r == "." || strings.HasPrefix(r, "..") {
			continue
		}
		if d != x.hooksDir && !slices.Contains(m.CreatedDirs, r) {
			m.CreatedDirs = append(m.CreatedDirs, r)
		}
	}
	// outermost first, as removal expects (it deletes from the end), also
	// with another namespace's folders among ours
	slices.SortStableFunc(m.CreatedDirs, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	seen := map[string]bool{}
	for _, e := range x.plan.Edits {
		if !w.recorded(x, e) {
			continue
		}
		st := x.files[e.Path]
		rel := w.rel(t, e.Path)
		seen[rel] = true
		f := manifest.File{Path: rel, PostSHA256: manifest.Sum(e.Doc), Entries: e.Entries, Containers: e.Created, Emptied: e.Emptied}
		if old := x.man.File(rel); old != nil {
			f.Created, f.PreSHA256, f.Backup = old.Created, old.PreSHA256, old.Backup
			if manifest.Sum(st.Data) != old.PostSHA256 {
				// Someone else changed the file since we wrote it, so the
				// backup (or absence) no longer describes what is in it
				// besides ours. Keep the old post hash: removal is exact
				// only while the file is byte for byte what we wrote from
				// the backup, and surgical otherwise.
				f.PostSHA256 = old.PostSHA256
			}
		} else if st.Exists && !x.pre[e.Path].absent {
			f.PreSHA256, f.Backup = manifest.Sum(x.preData(e.Path)), x.backupName(e.Path)
		} else {
			f.Created = true
		}
		m.Files = append(m.Files, f)
	}
	if x.man != nil {
		for _, other := range x.man.Files {
			if !seen[other.Path] {
				m.Files = append(m.Files, other)
			}
		}
	}
	for _, s := range x.plan.Scripts {
		m.Scripts = append(m.Scripts, manifest.Script{Path: w.rel(t, filepath.Join(x.hooksDir, s.Name)), SHA256: manifest.Sum(s.Content)})
	}
	return m
}

// sameInstall reports whether a manifest already says what m says (all but
// the install time and tool version).
func sameInstall(a, b *manifest.Manifest) bool {
	if a == nil || b == nil {
		return false
	}
	x, y := *a, *b
	x.InstalledAt, y.InstalledAt = time.Time{}, time.Time{}
	x.ToolVersion, y.ToolVersion = "", ""
	return bytes.Equal(x.Marshal(), y.Marshal())
}

// readBackup returns the backup a manifest record names, when it lies inside
// the hooks dir (a manifest is not trusted to name other files) and holds the
// bytes the record says.
func readBackup(hooksDir string, rec *manifest.File) ([]byte, bool) {
	path := filepath.Join(hooksDir, rec.Backup)
	if rec.Backup == "" || !within(hooksDir, path) {
		return nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil || manifest.Sum(b) != rec.PreSHA256 {
		return nil, false
	}
	return b, true
}

// within reports whether p lies strictly inside dir.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// adopt applies adapters.Adopt to each config edit of x: the containers
// that the other namespaces' installs of the same agent created become this
// install's too, so that whichever of them is removed last deletes them
// (docs/reliability.md). An add again adopts again, which changes nothing
// once it has (their records hold what ours does); an install recorded by a
// hookinstall older than this rule takes them over then. A file this
// install created is never adopted as another's (it is ours already).
func (w *Writer) adopt(x *txn) {
	if x.t.Adapter.Own {
		return
	}
	for i, e := range x.plan.Edits {
		if e.Role != adapters.RoleConfig || e.Delete {
			continue
		}
		rs := w.othersRecords(x.t, e.Path)
		if len(rs) == 0 {
			continue
		}
		if own := x.man.File(w.rel(x.t, e.Path)); own != nil && own.Created {
			for j, r := range rs {
				c := *r
				c.CreatedFile = false
				c.Created = slices.DeleteFunc(slices.Clone(c.Created), func(s string) bool { return s == adapters.FileContainer })
				rs[j] = &c
			}
		}
		x.plan.Edits[i].Edit = adapters.Adopt(e.Edit, rs)
	}
}

// othersRecords are the records of file path in the manifests of t's agent
// installed in other namespaces (others).
func (w *Writer) othersRecords(t adapters.Target, path string) []*adapters.Record {
	var out []*adapters.Record
	for _, m := range others(t) {
		if f := m.File(w.rel(t, path)); f != nil {
			out = append(out, &adapters.Record{Created: f.Containers, Emptied: f.Emptied, CreatedFile: f.Created})
		}
	}
	return out
}

// others are the manifests of t's agent installed in other namespaces, in
// t's folder (Manifests), for the same agent id.
func others(t adapters.Target) []*manifest.Manifest {
	var out []*manifest.Manifest
	for _, f := range Manifests(t.Dir) {
		o := t
		o.NS = f.M.Namespace
		if f.M.Namespace != t.NS && f.M.Agent == t.ID && o.HooksDir() == f.HooksDir {
			out = append(out, f.M)
		}
	}
	return out
}

// A Found is an install's manifest found on disk, and the hooks dir that
// holds it.
type Found struct {
	HooksDir string
	M        *manifest.Manifest
}

// Manifests are the manifests of the installs in folder dir, found by name
// (no pattern, so a folder whose name holds [, * or ? is read as it is):
// each <name>-hooks/manifest.json that reads, in name order. Whether one
// sits where its namespace and agent put it is the target's to say
// (adapters.Target.HooksDir).
func Manifests(dir string) []Found {
	es, _ := os.ReadDir(dir)
	var out []Found
	for _, e := range es {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), "-hooks") {
			continue
		}
		hd := filepath.Join(dir, e.Name())
		raw, err := os.ReadFile(filepath.Join(hd, manifest.FileName))
		if err != nil {
			continue
		}
		if m, err := manifest.Load(raw); err == nil {
			out = append(out, Found{hd, m})
		}
	}
	return out
}
