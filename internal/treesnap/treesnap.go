// Package treesnap records a directory tree so that tests can say exactly
// what changed between two moments: every file's type, mode and bytes, every
// link's target, and, when asked, timestamps, owner and inode.
//
// It never opens anything but a regular file (a FIFO would block), follows no
// symlink, and ignores a node that vanishes while it walks (an agent's temp
// file).
package treesnap

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxData is how many bytes of a file an Entry keeps for messages.
const MaxData = 1 << 20

// An Entry is one file, folder or link.
type Entry struct {
	Mode  fs.FileMode
	Size  int64
	Sum   [32]byte // sha256 of a regular file's bytes
	Link  string   // a symlink's target
	Data  []byte   // a regular file's bytes, when at most MaxData
	Stamp string   // with Options.Times: mtime, owner and inode
}

// Same reports whether two entries are identical in everything recorded.
func (e Entry) Same(o Entry) bool {
	return e.Mode == o.Mode && e.Size == o.Size && e.Sum == o.Sum && e.Link == o.Link && e.Stamp == o.Stamp
}

func (e Entry) String() string {
	s := e.Mode.String()
	switch {
	case e.Mode&fs.ModeSymlink != 0:
		s += " -> " + e.Link
	case e.Mode.IsRegular():
		s += fmt.Sprintf(" %d bytes sha256:%x", e.Size, e.Sum)
	}
	if e.Stamp != "" {
		s += " " + e.Stamp
	}
	return s
}

// Options choose what a snapshot records.
type Options struct {
	// Times also records mtime, owner and inode: "nothing was touched at
	// all", rather than "the bytes are back".
	Times bool
	// SkipData names files whose bytes are not compared (bookkeeping such
	// as a lock file); their type and mode still are.
	SkipData func(rel string) bool
}

// A Tree maps each path under the root, slash-separated and relative ("."
// is the root itself), to its Entry.
type Tree map[string]Entry

// Take records every node under root.
func Take(root string, o Options) (Tree, error) {
	t := Tree{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		e := Entry{Mode: fi.Mode()}
		if o.Times {
			e.Stamp = fmt.Sprintf("mtime=%d", fi.ModTime().UnixNano())
			e.Stamp += owner(fi)
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			if e.Link, err = os.Readlink(p); err != nil {
				return err
			}
		case fi.Mode().IsRegular() && (o.SkipData == nil || !o.SkipData(rel)):
			b, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			e.Size, e.Sum = int64(len(b)), sha256.Sum256(b)
			if len(b) <= MaxData {
				e.Data = b
			}
		}
		t[rel] = e
		return nil
	})
	return t, err
}

// Changed lists, sorted, the paths added, removed or changed from a to b.
func Changed(a, b Tree) []string {
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

// Diff says, one line per path, how got differs from want; "" when it does
// not.
func Diff(want, got Tree) string {
	var ds []string
	for _, p := range Changed(want, got) {
		ds = append(ds, want.Describe(got, p))
	}
	return strings.Join(ds, "\n")
}

// Describe says how path p differs between a and b, down to the first
// differing byte of a file.
func (a Tree) Describe(b Tree, p string) string {
	e, inA := a[p]
	f, inB := b[p]
	switch {
	case !inA && !inB:
		return p + ": absent in both"
	case !inA:
		return fmt.Sprintf("%s: created, now %s", p, f)
	case !inB:
		return fmt.Sprintf("%s: deleted, was %s", p, e)
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

// String lists the tree, one sorted line per path.
func (t Tree) String() string {
	var lines []string
	for p, e := range t {
		lines = append(lines, p+" "+e.String())
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}
