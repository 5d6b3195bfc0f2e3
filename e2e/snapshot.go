package e2e

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// An Entry is one file, directory or symlink in a Snapshot.
type Entry struct {
	Mode fs.FileMode // type and permission bits
	Sum  [32]byte    // sha256 of a regular file's bytes
	Size int64
	Data []byte // the bytes of a regular file up to 1 MiB, for messages
	Link string // a symlink's target
}

// Same reports whether two entries are byte and mode identical.
func (e Entry) Same(o Entry) bool {
	return e.Mode == o.Mode && e.Sum == o.Sum && e.Size == o.Size && e.Link == o.Link
}

func (e Entry) String() string {
	switch {
	case e.Mode&fs.ModeSymlink != 0:
		return "symlink -> " + e.Link
	case e.Mode.IsDir():
		return fmt.Sprintf("dir %v", e.Mode)
	default:
		return fmt.Sprintf("file %v %d bytes sha256:%x", e.Mode, e.Size, e.Sum[:6])
	}
}

// A Snapshot maps a slash path relative to its root to its Entry.
type Snapshot map[string]Entry

// Snap records every file, directory and symlink under root (symlinks are not followed).
func Snap(root string) (Snapshot, error) {
	s := Snapshot{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil // vanished while we walked (an agent's temp file)
			}
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		e := Entry{Mode: info.Mode()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			e.Link, _ = os.Readlink(p)
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			e.Sum, e.Size = sha256.Sum256(b), int64(len(b))
			if len(b) <= 1<<20 {
				e.Data = b
			}
		}
		s[rel] = e
		return nil
	})
	return s, err
}

// Changed lists, sorted, the paths that were added, removed or changed from a to b.
func Changed(a, b Snapshot) []string {
	var out []string
	for p, e := range a {
		if f, ok := b[p]; !ok || !e.Same(f) {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Describe says how path p differs between a and b.
func (a Snapshot) Describe(b Snapshot, p string) string {
	e, inA := a[p]
	f, inB := b[p]
	switch {
	case !inA && !inB:
		return p + ": absent in both"
	case !inA:
		return fmt.Sprintf("%s: absent before, now %s", p, f)
	case !inB:
		return fmt.Sprintf("%s: was %s, now absent", p, e)
	case e.Same(f):
		return p + ": identical"
	}
	msg := fmt.Sprintf("%s: was %s, now %s", p, e, f)
	if e.Data != nil && f.Data != nil && e.Sum != f.Sum {
		i := 0
		for i < len(e.Data) && i < len(f.Data) && e.Data[i] == f.Data[i] {
			i++
		}
		lo := max(i-40, 0)
		msg += fmt.Sprintf("; first difference at byte %d: was %q, now %q", i,
			e.Data[lo:min(i+40, len(e.Data))], f.Data[lo:min(i+40, len(f.Data))])
	}
	return msg
}
