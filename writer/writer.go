package writer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/rogpeppe/go-internal/diff"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
)

// Options change how a Writer works. They are fixed when New makes it.
type Options struct {
	DryRun  bool // plan and report, write nothing
	Force   bool // replace or remove our entries even where they were edited by hand
	Trust   bool // also record the user's trust for our hooks where the agent keys it (codex)
	Version string
	Now     func() time.Time
	// Getenv gives the PATH that agents' binaries are looked up on and run
	// with, and the HOME they run with; nil means os.Getenv.
	Getenv func(string) string
	// LookPath finds an agent's binary; nil searches Getenv("PATH").
	LookPath func(string) (string, error)
	// Run runs an agent's binary to ask it something (codex --version) and
	// returns what it printed on stdout; nil runs it with Getenv's PATH
	// and HOME, for at most 15 seconds.
	Run func(ctx context.Context, path string, args ...string) ([]byte, error)
}

// A Writer applies adapters' plans to disk. It is the only code that does.
type Writer struct {
	o Options
	// fault, when set, is called at each step of a write with the step's
	// name; an error it returns stops the write there (tests of crash
	// safety; see export_test.go and docs/reliability.md).
	fault func(step string) error
}

// New returns a Writer with defaults filled in.
func New(o Options) *Writer {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.LookPath == nil {
		o.LookPath = searchPath(o.Getenv)
	}
	if o.Run == nil {
		o.Run = runWith(o.Getenv)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return &Writer{o: o}
}

// A Change is one file that a run creates, modifies or deletes.
type Change struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`   // config, script, manifest, backup
	Action string `json:"action"` // create, modify, delete
	Diff   string `json:"diff,omitempty"`
}

// A Report says what a run did for one agent.
type Report struct {
	Agent   string   `json:"agent"`
	Status  string   `json:"status"`
	Config  string   `json:"config"`
	Changes []Change `json:"changes"`
	Notes   []string `json:"notes,omitempty"`
	Err     error    `json:"-"`
}

// An Error is a failure for one agent. Nothing was written unless Written.
type Error struct {
	Agent   string
	File    string
	Err     error
	Written bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Agent)
	if e.File != "" {
		b.WriteString(": " + e.File)
	}
	b.WriteString(": " + e.Err.Error())
	if !e.Written {
		b.WriteString(", file not modified")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Off reports whether err says an agent's hooks are switched off.
func Off(err error) bool {
	var off *adapters.OffError
	return errors.As(err, &off)
}

var errRaced = errors.New("config changed while hookinstall was writing it")

// maxAttempts bounds the re-read-and-retry loop against agents that rewrite
// their config without taking our lock.
const maxAttempts = 20

// retryRaced runs step again, from a fresh read, while it reports that the
// agent rewrote file between our read and our rename; at most maxAttempts
// times. When it gives up, file itself was not modified.
func retryRaced(t adapters.Target, file string, step func() error) error {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if err := step(); !errors.Is(err, errRaced) {
			return err
		}
	}
	return &Error{Agent: t.ID, File: file, Err: fmt.Errorf("%w %d times in a row; try again", errRaced, maxAttempts)}
}

// A plan is what one agent's files hold now and what they should hold.
type plan struct {
	t        adapters.Target
	cfg      fileState
	man      *manifest.Manifest
	manRaw   []byte
	rec      *adapters.Record
	edit     adapters.Edit
	scripts  []adapters.Script
	restore  []byte // exact removal: the backed-up original
	notes    []string
	hooksDir string
	switches map[string][]byte // the switch files read, by path
	cfgSum   string            // manifest.Sum(cfg.Data), once computed
	postSum  string            // manifest.Sum(edit.Doc), once computed
	pending  []string          // dirs an earlier run created, listed in the lock file
}

// sumOf is manifest.Sum, remembered for the config and the planned edit: on
// a large config, hashing them again at each step costs more than the edit.
func (p *plan) sumOf(b []byte) string {
	same := func(x []byte) bool { return len(b) == len(x) && (len(b) == 0 || &b[0] == &x[0]) }
	switch {
	case p.cfg.Exists && same(p.cfg.Data):
		if p.cfgSum == "" {
			p.cfgSum = manifest.Sum(b)
		}
		return p.cfgSum
	case p.edit.Doc != nil && same(p.edit.Doc):
		if p.postSum == "" {
			p.postSum = manifest.Sum(b)
		}
		return p.postSum
	}
	return manifest.Sum(b)
}

// replan is plan(t) under the lock, given the plan made before taking it:
// when none of the files that plan read has changed since, it still holds
// and is returned as it is. Planning (validating and editing the config)
// is most of the work on a large config; reading it again is not.
func (w *Writer) replan(t adapters.Target, prev *plan, plan func(adapters.Target) (*plan, error)) (*plan, error) {
	if prev != nil && w.unchanged(prev) {
		if err := prev.checkHooksDir(); err != nil {
			return nil, w.fail(t, "", err)
		}
		return prev, nil
	}
	return plan(t)
}

// unchanged reports whether the config, the switch files and the manifest
// that p was planned from still hold the same bytes.
func (w *Writer) unchanged(p *plan) bool {
	t := p.t
	cfg, same, err := sameFile(t.Adapter.Config(t), p.cfg, adapters.MaxDocSize)
	if err != nil || !same || cfg.Real != p.cfg.Real || cfg.Mode != p.cfg.Mode || cfg.UID != p.cfg.UID || cfg.GID != p.cfg.GID {
		return false
	}
	for _, f := range t.Adapter.SwitchFiles(t) {
		st, err := readFile(f, adapters.MaxDocSize)
		if err != nil || st.Exists != (p.switches[f] != nil) || !bytes.Equal(st.Data, p.switches[f]) {
			return false
		}
	}
	raw, err := os.ReadFile(filepath.Join(p.hooksDir, manifest.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return p.man == nil && p.manRaw == nil
	}
	return err == nil && p.man != nil && bytes.Equal(raw, p.manRaw)
}

func (w *Writer) rel(t adapters.Target, p string) string {
	r, err := filepath.Rel(t.Home, p)
	if err != nil {
		return p
	}
	return r
}

func (w *Writer) fail(t adapters.Target, file string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	err = adapters.Explain(t, err)
	var off *adapters.OffError
	if errors.As(err, &off) {
		return &Error{Agent: t.ID, Err: err}
	}
	return &Error{Agent: t.ID, File: file, Err: err}
}

// load reads the config, the switch files and the manifest of t.
func (w *Writer) load(t adapters.Target) (*plan, error) { return w.loadWith(t, true) }

// loadWith is load, with the agent's Check only when check is set.
func (w *Writer) loadWith(t adapters.Target, check bool) (*plan, error) {
	a := t.Adapter
	p := &plan{t: t, hooksDir: t.HooksDir()}
	cfgPath := a.Config(t)
	cfg, err := readFile(cfgPath, adapters.MaxDocSize)
	if err != nil {
		return nil, w.fail(t, cfgPath, err)
	}
	p.cfg = cfg
	if cfg.Exists && cfg.Mode&0o222 == 0 {
		return nil, w.fail(t, cfgPath, fmt.Errorf("is read-only (mode %04o, real file %s); it may be managed by another tool such as home-manager: make it writable, or add the hooks at its source", cfg.Mode, cfg.Real))
	}
	switches := map[string][]byte{}
	for _, f := range a.SwitchFiles(t) {
		st, err := readFile(f, adapters.MaxDocSize)
		if err != nil {
			return nil, w.fail(t, f, err)
		}
		if st.Exists {
			switches[f] = st.Data
		}
	}
	p.switches = switches
	if check {
		notes, err := a.Check(t, cfg.Data, switches)
		if err != nil {
			return nil, w.fail(t, cfgPath, err)
		}
		p.notes = notes
	}
	manPath := filepath.Join(p.hooksDir, manifest.FileName)
	if raw, err := os.ReadFile(manPath); err == nil {
		m, err := manifest.Load(raw)
		if err != nil {
			p.notes = append(p.notes, fmt.Sprintf("%s: %v; ignoring it", manPath, err))
		} else {
			p.man, p.manRaw = m, raw
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, w.fail(t, manPath, err)
	}
	if f := p.man.File(w.rel(t, cfgPath)); f != nil {
		p.rec = &adapters.Record{Entries: f.Entries, Created: f.Containers, PostSHA: f.PostSHA256}
	}
	return p, nil
}

func (w *Writer) planAdd(t adapters.Target) (*plan, error) {
	p, err := w.load(t)
	if err != nil {
		return nil, err
	}
	cfgPath := t.Adapter.Config(t)
	if p.cfg.Exists && adapters.IsBlank(p.cfg.Data) && !t.Adapter.OwnFile() {
		// Agents (Claude Code) rewrite their config in place, truncating
		// it first: an empty file is most likely one caught mid-write, and
		// replacing it would throw away everything the agent is writing.
		return nil, w.fail(t, cfgPath, errors.New("is empty; an agent may be rewriting it right now (Claude Code writes it in place): run add again, and if it stays empty put {} in it or delete it"))
	}
	p.edit, err = t.Adapter.Add(t, p.cfg.Data, p.rec, w.o.Force)
	if err != nil {
		return nil, w.fail(t, cfgPath, err)
	}
	p.scripts, err = t.Adapter.Scripts(t)
	if err != nil {
		return nil, w.fail(t, "", err)
	}
	if err := p.checkHooksDir(); err != nil {
		return nil, w.fail(t, "", err)
	}
	return p, nil
}

// checkHooksDir refuses an existing hooks dir that is not private to us.
func (p *plan) checkHooksDir() error {
	// A concurrent remove may delete the dir at any moment: gone is fine.
	if err := checkPrivateDir(p.hooksDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (p *plan) configChanges() bool {
	if p.edit.Delete {
		return p.cfg.Exists
	}
	return !p.cfg.Exists || !bytes.Equal(p.edit.Doc, p.cfg.Data)
}

func scriptCurrent(path string, want []byte) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o755 {
		return false
	}
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, want)
}

// manifestFor builds the manifest an add writes.
func (w *Writer) manifestFor(p *plan, post []byte, backup string, createdDirs []string) *manifest.Manifest {
	t := p.t
	m := &manifest.Manifest{
		Schema:      manifest.Schema,
		ToolVersion: w.o.Version,
		Namespace:   t.NS,
		Agent:       t.ID,
		Base:        t.Adapter.Name(),
		AsHome:      t.AsHome,
		InstalledAt: w.o.Now().UTC().Truncate(time.Second),
	}
	if p.man != nil {
		m.CreatedDirs = append(m.CreatedDirs, p.man.CreatedDirs...)
	}
	for _, d := range createdDirs {
		r := w.rel(t, d)
		// The home itself (a --home that did not exist yet) is never ours
		// to delete.
		if r == "." || strings.HasPrefix(r, "..") {
			continue
		}
		if d != p.hooksDir && !contains(m.CreatedDirs, r) {
			m.CreatedDirs = append(m.CreatedDirs, r)
		}
	}
	cfgRel := w.rel(t, t.Adapter.Config(t))
	f := manifest.File{Path: cfgRel, PostSHA256: p.sumOf(post), Entries: p.edit.Entries, Containers: p.edit.Created}
	if old := p.man.File(cfgRel); old != nil {
		f.Created, f.PreSHA256, f.Backup = old.Created, old.PreSHA256, old.Backup
		if manifest.Sum(p.cfg.Data) != old.PostSHA256 {
			// Someone else changed the file since we wrote it, so the
			// backup (or absence) no longer describes what is in it
			// besides our entries. Keep the old post hash: removal is
			// exact only while the file is byte for byte what we wrote
			// from the backup, and surgical otherwise.
			f.PostSHA256 = old.PostSHA256
		}
	} else if p.cfg.Exists {
		f.PreSHA256, f.Backup = p.sumOf(p.cfg.Data), backup
	} else {
		f.Created = true
	}
	if f.Backup == "" && !f.Created {
		f.Backup = backup
	}
	m.Files = []manifest.File{f}
	if p.man != nil {
		for _, other := range p.man.Files {
			if other.Path != cfgRel {
				m.Files = append(m.Files, other)
			}
		}
	}
	for _, s := range p.scripts {
		m.Scripts = append(m.Scripts, manifest.Script{Path: w.rel(t, filepath.Join(p.hooksDir, s.Name)), SHA256: manifest.Sum(s.Content)})
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *plan) backupName() string {
	return filepath.Join("backup", filepath.Base(p.t.Adapter.Config(p.t)))
}

// addChanges lists what an add would write; empty means nothing to do.
func (w *Writer) addChanges(p *plan, withDiff bool) []Change {
	var cs []Change
	cfgPath := p.t.Adapter.Config(p.t)
	if p.configChanges() {
		c := Change{Path: cfgPath, Kind: "config", Action: "modify"}
		if !p.cfg.Exists {
			c.Action = "create"
		}
		if withDiff {
			c.Diff = string(diff.Diff(cfgPath, p.cfg.Data, cfgPath, p.edit.Doc))
		}
		cs = append(cs, c)
	}
	if p.cfg.Exists && p.man.File(w.rel(p.t, cfgPath)) == nil {
		bpath := filepath.Join(p.hooksDir, p.backupName())
		if _, err := os.Lstat(bpath); errors.Is(err, fs.ErrNotExist) {
			cs = append(cs, Change{Path: bpath, Kind: "backup", Action: "create"})
		}
	}
	for _, s := range p.scripts {
		path := filepath.Join(p.hooksDir, s.Name)
		if !scriptCurrent(path, s.Content) {
			action := "create"
			if _, err := os.Lstat(path); err == nil {
				action = "modify"
			}
			cs = append(cs, Change{Path: path, Kind: "script", Action: action})
		}
	}
	m := w.manifestFor(p, p.edit.Doc, p.backupName(), nil)
	if !sameInstall(p.man, m) {
		action := "create"
		if p.man != nil {
			action = "modify"
		}
		cs = append(cs, Change{Path: filepath.Join(p.hooksDir, manifest.FileName), Kind: "manifest", Action: action})
	}
	return cs
}

// Add installs t's hooks, and with Options.Trust records the user's trust
// for them in the agent's own file.
func (w *Writer) Add(ctx context.Context, t adapters.Target) Report {
	r := w.add(ctx, t)
	tr, ok := t.Adapter.(adapters.Truster) // add already refused --trust when not
	if r.Err != nil || !w.o.Trust || w.o.DryRun || !ok {
		return r
	}
	err := w.locked(ctx, t, func([]string) error {
		return retryRaced(t, tr.TrustFile(t), func() error {
			hooks, err := readFile(t.Adapter.Config(t), adapters.MaxDocSize)
			if err != nil {
				return w.fail(t, t.Adapter.Config(t), err)
			}
			tp, err := w.planTrust(t, hooks.Data)
			if err != nil {
				return w.fail(t, "", err)
			}
			if !tp.changes() {
				return nil
			}
			if err := w.applyTrust(t, tp, true); err != nil {
				return err
			}
			r.Changes = append(r.Changes, tp.change(false))
			r.Status = "installed"
			return nil
		})
	})
	if err != nil {
		r.Err, r.Status = err, "error"
	}
	return r
}

func (w *Writer) add(ctx context.Context, t adapters.Target) Report {
	r := Report{Agent: t.ID, Config: t.Adapter.Config(t)}
	p, err := w.planAdd(t)
	var tp *trustPlan
	if err == nil && w.o.Trust {
		// Check the trust file before anything is written.
		if tp, err = w.planTrust(t, p.edit.Doc); err != nil {
			err = w.fail(t, "", err)
		}
	}
	if err != nil {
		r.Err, r.Status = err, "error"
		if Off(err) {
			r.Status = "disabled"
		}
		return r
	}
	r.Notes = append(r.Notes, p.notes...)
	r.Notes = append(r.Notes, p.edit.Notes...)
	if w.o.DryRun {
		r.Changes = w.addChanges(p, true)
		if tp.changes() {
			r.Changes = append(r.Changes, tp.change(true))
		}
		r.Status = "would-install"
		if len(r.Changes) == 0 {
			r.Status = "unchanged"
		}
		return r
	}
	if len(w.addChanges(p, false)) == 0 && len(w.strays(t)) == 0 {
		r.Status = "unchanged"
		return r
	}
	err = w.locked(ctx, t, func(created []string) error {
		prev := p
		return retryRaced(t, r.Config, func() error {
			p, err := w.replan(t, prev, w.planAdd)
			prev = nil
			if err != nil {
				return err
			}
			r.Notes = append(append([]string(nil), p.notes...), p.edit.Notes...)
			r.Changes = w.addChanges(p, false)
			if len(r.Changes) == 0 {
				return nil
			}
			return w.applyAdd(p, created)
		})
	})
	if err != nil {
		r.Err, r.Status = err, "error"
		if Off(err) {
			r.Status = "disabled"
		}
		return r
	}
	r.Status = "installed"
	if len(r.Changes) == 0 {
		r.Status = "unchanged"
	}
	return r
}

// at is the fault hook at one named step.
func (w *Writer) at(step string) error {
	if w.fault != nil {
		return w.fault(step)
	}
	return nil
}

// step is the fault hook for one named step, for writeAtomic's beforeRename
// (the temp file is written and synced, the rename not done).
func (w *Writer) step(name string) func() error {
	if w.fault == nil {
		return nil
	}
	return func() error { return w.at(name) }
}

// applyAdd writes one planned add: backup, scripts, manifest, then (after a
// last re-read) the config.
func (w *Writer) applyAdd(p *plan, created []string) error {
	t := p.t
	cfgPath := t.Adapter.Config(t)
	written := func(file string, err error) error {
		return &Error{Agent: t.ID, File: file, Err: err, Written: true}
	}
	// Backup once: never overwrite a backup that is already there.
	backup := ""
	if p.cfg.Exists && p.man.File(w.rel(t, cfgPath)) == nil {
		backup = p.backupName()
		bpath := filepath.Join(p.hooksDir, backup)
		if _, err := os.Lstat(bpath); errors.Is(err, fs.ErrNotExist) {
			if _, err := mkdirs(filepath.Dir(bpath)); err != nil {
				return written(bpath, err)
			}
			if err := writeAtomic(bpath, p.cfg.Data, 0o600, true, nil, w.step("backup-temp")); err != nil {
				return written(bpath, err)
			}
		}
	}
	if err := w.at("after-backup"); err != nil {
		return err
	}
	for _, s := range p.scripts {
		path := filepath.Join(p.hooksDir, s.Name)
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
	cfgDirs, err := mkdirs(filepath.Dir(p.cfg.Real))
	if err != nil {
		return written(filepath.Dir(p.cfg.Real), err)
	}
	if len(cfgDirs) > 0 {
		// Durable before the manifest, as for the hooks dir's (see locked).
		if _, err := w.pendingDirs(t, filepath.Join(p.hooksDir, "lock"), append(append([]string(nil), created...), cfgDirs...)); err != nil {
			return written(filepath.Join(p.hooksDir, "lock"), err)
		}
	}
	m := w.manifestFor(p, p.edit.Doc, backup, append(created, cfgDirs...))
	if !sameInstall(p.man, m) {
		if err := writeAtomic(filepath.Join(p.hooksDir, manifest.FileName), m.Marshal(), 0o644, true, nil, w.step("manifest-temp")); err != nil {
			return written(filepath.Join(p.hooksDir, manifest.FileName), err)
		}
	}
	if err := w.at("after-manifest"); err != nil {
		return err
	}
	if !p.configChanges() {
		return nil
	}
	// The agent does not take our lock: re-read, and start over if it
	// wrote the file since we read it.
	_, same, err := sameFile(cfgPath, p.cfg, adapters.MaxDocSize)
	if err != nil {
		return written(cfgPath, err)
	}
	if !same {
		return errRaced
	}
	if err := w.at("before-rename"); err != nil {
		return err
	}
	if err := writeConfigAtomic(p.cfg.Real, t.NS, p.edit.Doc, 0o644, &p.cfg, w.step("config-temp")); err != nil {
		return written(cfgPath, err)
	}
	return w.at("after-rename")
}

// lockRetry is how often a run waiting for another's lock tries again.
const lockRetry = 10 * time.Millisecond

// lock waits for fl: blocking when ctx can never be done, else polling
// until ctx is.
func lock(ctx context.Context, fl *flock.Flock) (bool, error) {
	if ctx.Done() == nil {
		return true, fl.Lock()
	}
	return fl.TryLockContext(ctx, lockRetry)
}

// locked runs fn holding the lock of t's hooks dir, creating the dir (and
// its parents) first. The lock file may be deleted by a remove that holds
// it; a locker that finds its file gone starts over.
func (w *Writer) locked(ctx context.Context, t adapters.Target, fn func(created []string) error) error {
	dir := t.HooksDir()
	for attempt := 0; attempt < 100; attempt++ {
		created, err := mkdirs(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a parent removed by a concurrent remove: start over
		} else if err != nil {
			return &Error{Agent: t.ID, File: dir, Err: err}
		}
		if len(created) > 0 && created[len(created)-1] == dir {
			if err := os.Chmod(dir, 0o755); errors.Is(err, fs.ErrNotExist) {
				continue // removed by a concurrent remove: start over
			} else if err != nil {
				return &Error{Agent: t.ID, File: dir, Err: err}
			}
		}
		if err := checkPrivateDir(dir); errors.Is(err, fs.ErrNotExist) {
			continue // removed by a concurrent remove: start over
		} else if err != nil {
			return &Error{Agent: t.ID, Err: err}
		}
		lockPath := filepath.Join(dir, "lock")
		fl := flock.New(lockPath, flock.SetPermissions(0o600))
		ok, err := lock(ctx, fl)
		if err != nil || !ok {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err == nil {
				err = errors.New("could not take the lock")
			}
			return &Error{Agent: t.ID, File: lockPath, Err: err}
		}
		held, err1 := fl.Stat()
		onDisk, err2 := os.Stat(lockPath)
		if err1 != nil || err2 != nil || !os.SameFile(held, onDisk) {
			fl.Close()
			continue
		}
		w.sweep(t)
		created, err = w.pendingDirs(t, lockPath, created)
		if err != nil {
			fl.Close()
			return &Error{Agent: t.ID, File: lockPath, Err: err, Written: true}
		}
		err = fn(created)
		fl.Close()
		return err
	}
	return &Error{Agent: t.ID, File: dir, Err: errors.New("could not take the lock")}
}

// strays lists the temp files a killed run of ours left behind.
func (w *Writer) strays(t adapters.Target) []string {
	names := map[string]bool{manifest.FileName: true, filepath.Base(t.Adapter.Config(t)): true}
	if ss, err := t.Adapter.Scripts(t); err == nil {
		for _, s := range ss {
			names[s.Name] = true
		}
	}
	var temps []string
	for _, f := range append([]string{t.Adapter.Config(t)}, t.Adapter.SwitchFiles(t)...) {
		if real, err := resolve(f); err == nil && within(t.Home, real) {
			temps = append(temps, configTemp(real, t.NS))
		}
	}
	return strayTemps([]string{t.HooksDir(), filepath.Join(t.HooksDir(), "backup")}, names, temps)
}

// sweep deletes them; the caller holds the lock.
func (w *Writer) sweep(t adapters.Target) {
	for _, f := range w.strays(t) {
		_ = os.Remove(f)
	}
}

// pendingDirs makes the folders a run created durable before anything else
// is written: until the manifest records them, the lock file lists them (one
// path relative to the home a line), so a run that dies before its manifest
// exists leaves a record that the next run (add or remove) picks up, and a
// final remove deletes them. It returns this run's created dirs plus those
// still listed and present.
func (w *Writer) pendingDirs(t adapters.Target, lockPath string, created []string) ([]string, error) {
	var all []string
	if b, err := os.ReadFile(lockPath); err == nil {
		for _, r := range strings.Split(string(b), "\n") {
			d := filepath.Join(t.Home, r)
			if r == "" || filepath.IsAbs(r) || strings.HasPrefix(r, "..") {
				continue
			}
			if fi, err := os.Lstat(d); err == nil && fi.IsDir() && !contains(all, d) {
				all = append(all, d)
			}
		}
	}
	if len(created) == 0 {
		return all, nil
	}
	for _, d := range created {
		if !contains(all, d) {
			all = append(all, d)
		}
	}
	var b strings.Builder
	for _, d := range all {
		b.WriteString(w.rel(t, d) + "\n")
	}
	if err := os.WriteFile(lockPath, []byte(b.String()), 0o600); err != nil {
		return nil, err
	}
	return all, syncDir(filepath.Dir(lockPath))
}

func (w *Writer) planRemove(t adapters.Target) (*plan, error) {
	// The agent's Check (a full parse of the config) is needed only when
	// the file is not byte for byte what add wrote: that one parsed.
	p, err := w.loadWith(t, false)
	if err != nil {
		return nil, err
	}
	cfgPath := t.Adapter.Config(t)
	rec := p.man.File(w.rel(t, cfgPath))
	if rec != nil && p.cfg.Exists && adapters.IsBlank(p.cfg.Data) && !t.Adapter.OwnFile() {
		// As in add: most likely caught mid-write by the agent; finding
		// nothing of ours in it and deleting our scripts would leave the
		// agent's entries pointing at nothing.
		return nil, w.fail(t, cfgPath, errors.New("is empty; an agent may be rewriting it right now (Claude Code writes it in place): run remove again, and if it stays empty put {} in it or delete it"))
	}
	if rec != nil && p.cfg.Exists && p.sumOf(p.cfg.Data) == rec.PostSHA256 {
		if rec.Created {
			p.edit = adapters.Edit{Delete: true}
			return p, nil
		}
		if b, ok := readBackup(p.hooksDir, rec); ok {
			p.edit = adapters.Edit{Doc: b}
			p.restore = b
			return p, nil
		}
	}
	if !p.cfg.Exists {
		p.edit = adapters.Edit{Delete: true}
		return p, nil
	}
	// Hooks switched off: removal still works.
	if _, err := t.Adapter.Check(t, p.cfg.Data, p.switches); err != nil && !Off(err) {
		return nil, w.fail(t, cfgPath, err)
	}
	p.edit, err = t.Adapter.Remove(t, p.cfg.Data, p.rec, w.o.Force)
	if err != nil {
		return nil, w.fail(t, cfgPath, err)
	}
	if rec != nil && rec.Created && !p.edit.Kept && adapters.IsEmptyObject(p.edit.Doc) {
		p.edit = adapters.Edit{Delete: true}
	}
	return p, nil
}

// within reports whether p lies strictly inside dir.
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

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// ownedFiles lists the files in the hooks dir that a remove deletes.
func (p *plan) ownedFiles() []string {
	var fs []string
	seen := map[string]bool{}
	add := func(path string) {
		if !seen[path] {
			seen[path] = true
			fs = append(fs, path)
		}
	}
	scripts, _ := p.t.Adapter.Scripts(p.t)
	for _, s := range scripts {
		add(filepath.Join(p.hooksDir, s.Name))
	}
	if p.man != nil {
		// Only what lies inside the hooks dir: a manifest (edited, or
		// from elsewhere) never makes remove delete a file of the user's.
		for _, s := range p.man.Scripts {
			if f := filepath.Join(p.t.Home, s.Path); within(p.hooksDir, f) {
				add(f)
			}
		}
		for _, f := range p.man.Files {
			if f.Backup != "" && within(p.hooksDir, filepath.Join(p.hooksDir, f.Backup)) {
				add(filepath.Join(p.hooksDir, f.Backup))
			}
		}
	}
	add(filepath.Join(p.hooksDir, p.backupName()))
	add(filepath.Join(p.hooksDir, manifest.FileName))
	sort.Strings(fs)
	return fs
}

func (w *Writer) removeChanges(p *plan, withDiff bool) []Change {
	var cs []Change
	cfgPath := p.t.Adapter.Config(p.t)
	if p.configChanges() {
		c := Change{Path: cfgPath, Kind: "config", Action: "modify"}
		if p.edit.Delete {
			c.Action = "delete"
		}
		if withDiff {
			c.Diff = string(diff.Diff(cfgPath, p.cfg.Data, cfgPath, p.edit.Doc))
		}
		cs = append(cs, c)
	}
	if tp, err := w.planUntrust(p); err == nil && tp.changes() {
		cs = append(cs, tp.change(withDiff))
	}
	if p.edit.Kept {
		return cs
	}
	for _, f := range p.ownedFiles() {
		if _, err := os.Lstat(f); err == nil {
			kind := "script"
			switch {
			case strings.HasSuffix(f, manifest.FileName):
				kind = "manifest"
			case strings.Contains(f, string(filepath.Separator)+"backup"+string(filepath.Separator)):
				kind = "backup"
			}
			cs = append(cs, Change{Path: f, Kind: kind, Action: "delete"})
		}
	}
	return cs
}

// Remove takes t's hooks out.
func (w *Writer) Remove(ctx context.Context, t adapters.Target) Report {
	r := Report{Agent: t.ID, Config: t.Adapter.Config(t)}
	p, err := w.planRemove(t)
	if err != nil {
		r.Err, r.Status = err, "error"
		return r
	}
	r.Notes = append(r.Notes, p.edit.Notes...)
	_, dirErr := os.Lstat(p.hooksDir)
	if len(w.removeChanges(p, false)) == 0 && errors.Is(dirErr, fs.ErrNotExist) {
		r.Status = "not-installed"
		return r
	}
	if w.o.DryRun {
		r.Changes = w.removeChanges(p, true)
		r.Status = "would-remove"
		return r
	}
	if dirErr == nil {
		if err := p.checkHooksDir(); err != nil {
			r.Err, r.Status = w.fail(t, "", err), "error"
			return r
		}
	}
	err = w.locked(ctx, t, func(pending []string) error {
		prev := p
		return retryRaced(t, r.Config, func() error {
			p, err := w.replan(t, prev, w.planRemove)
			prev = nil
			if err != nil {
				return err
			}
			p.pending = pending
			r.Notes = append([]string(nil), p.edit.Notes...)
			r.Changes = w.removeChanges(p, false)
			return w.applyRemove(p)
		})
	})
	if err != nil {
		r.Err, r.Status = err, "error"
		return r
	}
	r.Status = "removed"
	if p.edit.Kept || len(r.Notes) > 0 && w.hasOurs(t) {
		r.Status = "partly-removed"
	}
	return r
}

func (w *Writer) hasOurs(t adapters.Target) bool {
	st, err := readFile(t.Adapter.Config(t), adapters.MaxDocSize)
	if err != nil || !st.Exists {
		return false
	}
	ed, err := t.Adapter.Remove(t, st.Data, nil, true)
	return err == nil && (ed.Delete || !bytes.Equal(ed.Doc, st.Data))
}

func (w *Writer) applyRemove(p *plan) error {
	t := p.t
	cfgPath := t.Adapter.Config(t)
	written := func(file string, err error) error {
		return &Error{Agent: t.ID, File: file, Err: err, Written: true}
	}
	if p.configChanges() {
		_, same, err := sameFile(cfgPath, p.cfg, adapters.MaxDocSize)
		if err != nil {
			return written(cfgPath, err)
		}
		if !same {
			return errRaced
		}
		if err := w.at("before-rename"); err != nil {
			return err
		}
		if p.edit.Delete {
			err = removeFile(p.cfg.Real)
		} else {
			err = writeConfigAtomic(p.cfg.Real, t.NS, p.edit.Doc, 0o644, &p.cfg, w.step("config-temp"))
		}
		if err != nil {
			return written(cfgPath, err)
		}
		if err := w.at("after-rename"); err != nil {
			return err
		}
	}
	tp, err := w.planUntrust(p)
	if err != nil {
		return err
	}
	if err := w.applyTrust(t, tp, false); err != nil {
		return err
	}
	if p.edit.Kept {
		// Our hand-edited entries still point at the scripts: keep them,
		// and the manifest that says what they are.
		return nil
	}
	// The manifest goes first: a run that stops part way leaves no
	// manifest naming a backup or script that is gone (an add after it
	// would trust that record and take no backup). What is left is found
	// again by name; the lock file still lists the folders we created.
	if err := w.at("before-manifest"); err != nil {
		return err
	}
	if err := removeFile(filepath.Join(p.hooksDir, manifest.FileName)); err != nil {
		return written(filepath.Join(p.hooksDir, manifest.FileName), err)
	}
	for _, f := range p.ownedFiles() {
		if strings.HasSuffix(f, manifest.FileName) {
			continue
		}
		if err := removeFile(f); err != nil {
			return written(f, err)
		}
		if err := w.at("after-delete"); err != nil {
			return err
		}
	}
	_ = os.Remove(filepath.Join(p.hooksDir, "backup"))
	// Delete the lock while holding it; lockers check its inode.
	_ = os.Remove(filepath.Join(p.hooksDir, "lock"))
	_ = os.Remove(p.hooksDir)
	// Folders the install created, innermost first, when empty.
	// Only folders on the way to ours: a manifest never makes remove
	// delete another (empty) folder of the user's.
	var dirs []string
	if p.man != nil {
		for _, d := range p.man.CreatedDirs {
			dirs = append(dirs, filepath.Join(t.Home, d))
		}
	}
	dirs = append(dirs, p.pending...)
	for i := len(dirs) - 1; i >= 0; i-- {
		if d := dirs[i]; within(t.Home, d) && (within(d, p.hooksDir) || within(d, cfgPath)) {
			_ = os.Remove(d)
		}
	}
	return nil
}
