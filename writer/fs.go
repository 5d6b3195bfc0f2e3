package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// resolve follows symlinks to the file that really holds path's bytes, so a
// config managed by a dotfile manager stays a symlink and its target gets the
// edit. A link that names a file or folder that does not exist (a dotfiles
// checkout not cloned yet) is a *danglingError: writing through it would
// create that file, and its folders, wherever the link points, outside the
// home as readily as inside.
func resolve(path string) (string, error) {
	p, link := path, ""
	for i := 0; i < 40; i++ {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if link != "" {
				return "", &danglingError{link: link, target: p}
			}
			return resolveMissing(p)
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return filepath.EvalSymlinks(p)
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		link, p = p, target
	}
	return "", fmt.Errorf("too many levels of symbolic links")
}

// resolveMissing is resolve for a path that does not exist: the path in its
// folder with the folder's symlinks resolved, or the path as it is when the
// folder does not exist either (mkdirs creates it, as named). A folder on
// the way that is a dangling symlink is a *danglingError.
func resolveMissing(p string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err == nil {
		return filepath.Join(dir, filepath.Base(p)), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	// The deepest folder on the way that exists, if it is a link to nothing.
	a := filepath.Dir(p)
	for {
		fi, err := os.Lstat(a)
		if err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				if _, err := os.Stat(a); errors.Is(err, fs.ErrNotExist) {
					target, _ := os.Readlink(a)
					if !filepath.IsAbs(target) {
						target = filepath.Join(filepath.Dir(a), target)
					}
					return "", &danglingError{link: a, target: target}
				}
			}
			return p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(a) == a {
			return p, nil
		}
		a = filepath.Dir(a)
	}
}

// A danglingError says that a file is reached through a symlink that names
// something that does not exist.
type danglingError struct {
	file, link, target string // file is the path named, when known
}

func (e *danglingError) Error() string {
	msg := fmt.Sprintf("is a symlink to %s, which does not exist; hookinstall will not create it through the link: create it (clone your dotfiles first), or remove the link", e.target)
	if e.link == e.file {
		return msg
	}
	return e.link + " " + msg
}

// fileState is what was read of one file.
type fileState struct {
	Path   string // as named
	Real   string // after symlinks
	Data   []byte
	Exists bool
	Mode   fs.FileMode
	UID    int
	GID    int
	// The inode, size and modification time read, to tell whether a
	// hard link made since is to the same bytes (see txn.backup).
	Dev, Ino uint64
	Size     int64
	ModTime  time.Time
	// Dangling is set when the file is reached through a symlink to
	// nothing (Exists is false): it may be read as absent, never written.
	Dangling *danglingError
}

// same reports whether fi is the file st was read from, unchanged since:
// the same inode, size and modification time.
func (st fileState) same(fi fs.FileInfo) bool {
	_, _, dev, ino := sysOf(fi)
	return st.Exists && dev == st.Dev && ino == st.Ino && fi.Size() == st.Size && fi.ModTime().Equal(st.ModTime)
}

// readFile reads a config file without ever blocking on a FIFO or device:
// anything but a regular file is refused before it is opened.
func readFile(path string, limit int64) (fileState, error) {
	st, err := statFile(path, limit)
	if err != nil || !st.Exists {
		return st, err
	}
	data, err := os.ReadFile(st.Real)
	if err != nil {
		return fileState{Path: path, Real: st.Real}, err
	}
	st.Data = data
	return st, nil
}

// statFile is readFile without the bytes.
func statFile(path string, limit int64) (fileState, error) {
	st := fileState{Path: path}
	real, err := resolve(path)
	if de := (*danglingError)(nil); errors.As(err, &de) {
		de.file, st.Dangling = path, de
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.Real = real
	fi, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if fi.IsDir() {
		return st, errors.New("is a directory, not a file")
	}
	if !fi.Mode().IsRegular() {
		return st, fmt.Errorf("is not a regular file (%s)", fileType(fi.Mode()))
	}
	if fi.Size() > limit {
		return st, fmt.Errorf("is %d bytes, larger than the %d bytes hookinstall edits", fi.Size(), limit)
	}
	st.Exists, st.Mode, st.Size, st.ModTime = true, fi.Mode().Perm(), fi.Size(), fi.ModTime()
	st.UID, st.GID, st.Dev, st.Ino = sysOf(fi)
	return st, nil
}

// sameFile reports whether path still holds exactly prev.Data (or is still
// absent, when prev is), and returns what is there now, without its bytes.
// It compares in chunks: reading a large config whole once more, just to
// compare it, would add its size to the peak memory.
func sameFile(path string, prev fileState, limit int64) (fileState, bool, error) {
	now, err := statFile(path, limit)
	if err != nil || now.Exists != prev.Exists {
		return now, false, err
	}
	if !now.Exists {
		return now, true, nil
	}
	if now.Size != int64(len(prev.Data)) {
		return now, false, nil
	}
	f, err := os.Open(now.Real)
	if err != nil {
		return now, false, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	want := prev.Data
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return now, false, nil
		}
		want = want[n:]
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return now, len(want) == 0, nil
		}
		if err != nil {
			return now, false, err
		}
	}
}

func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	default:
		return m.Type().String()
	}
}

// removeFile deletes real and syncs its directory; a missing file is fine.
func removeFile(real string) error {
	if err := os.Remove(real); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	return syncDir(filepath.Dir(real))
}

// mkdirs creates dir and its missing parents with mode 0755 (less the umask)
// through sys, and returns the ones it created, outermost first. When one
// fails, the ones it created are removed again (innermost first, when
// still empty), so a failed run leaves no folder that nothing records.
func mkdirs(sys system, dir string) (created []string, err error) {
	var missing []string
	for p := dir; ; p = filepath.Dir(p) {
		_, err := os.Lstat(p)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	for _, d := range slices.Backward(missing) {
		if err := sys.Mkdir(d); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			// The folder may be there all the same (made, then an error).
			for _, c := range slices.Backward(append(created, d)) {
				_ = sys.Remove(c, op{})
			}
			if errors.Is(err, fs.ErrPermission) {
				return nil, fmt.Errorf("cannot create the folder %s: %s is read-only for you; make it writable, or install into a home you can write with --home", d, filepath.Dir(d))
			}
			return nil, err
		}
		created = append(created, d)
	}
	return created, nil
}

// checkPrivateDir refuses a hooks dir that others could write scripts into.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink; hookinstall will not write scripts through it (remove it)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory", dir)
	}
	if modeBits && fi.Mode().Perm()&0o022 != 0 {
		return &fixable{fmt.Sprintf("%s is writable by group or others (mode %04o); refusing: anyone who can write there can replace what hookinstall keeps in it", dir, fi.Mode().Perm()),
			"run 'chmod go-w " + dir + "'"}
	}
	if uid, _, _, _ := sysOf(fi); uid != os.Geteuid() {
		return &fixable{fmt.Sprintf("%s is owned by %s, not by you (%s); refusing", dir, userName(uid), userName(os.Geteuid())),
			fmt.Sprintf("if it was made by a run as another user (sudo), give it back: 'sudo chown -R %s %s'", userName(os.Geteuid()), dir)}
	}
	return nil
}

// A fixable error says what is wrong, and Hint what to run about it.
type fixable struct{ msg, hint string }

func (e *fixable) Error() string { return e.msg + " (" + e.hint + ")" }

// Fault is what is wrong, and Hint what to run to fix it.
func (e *fixable) Fault() string { return e.msg }
func (e *fixable) Hint() string  { return e.hint }

// userName is uid's login name, or "uid N" when it has none.
func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	return "uid " + strconv.Itoa(uid)
}

// checkHomeOwner refuses to write, as root, into a home that another user
// owns: what it wrote would be root's, and that user could neither change
// nor remove it.
func checkHomeOwner(home string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	fi, err := os.Stat(home)
	if err != nil {
		return nil // the writes themselves say what is wrong with the home
	}
	uid, _, _, _ := sysOf(fi)
	if uid == 0 {
		return nil
	}
	who := userName(uid)
	return &fixable{fmt.Sprintf("this runs as root, and the home %s is %s's: what it wrote would be root's, and %s could neither change nor remove it; nothing written", home, who, who),
		"run hookinstall as " + who + " (for example 'sudo -u " + who + " hookinstall ...')"}
}

// tempFile is the temp file a write of path goes through, beside it: a
// fixed name, so that a run killed between creating it and renaming it
// leaves a file that the next run (holding the same lock) knows for its own
// and deletes (strays). A config's, in a folder that other namespaces (and
// tools) write too, is configTemp.
func tempFile(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
}

// configTemp is tempFile for a config, with the namespace in its name.
func configTemp(real, ns string) string {
	return filepath.Join(filepath.Dir(real), "."+filepath.Base(real)+"."+ns+".tmp")
}

// writeAtomic replaces real with data through tmp: write, fsync, the mode
// (the old file's exactly; else perm, less the umask unless static) and
// owner (the old file's, where allowed), rename, fsync the directory. On
// any error the temp file is removed and real is untouched.
func writeAtomic(real, tmp string, data []byte, perm fs.FileMode, static bool, prev *fileState) (err error) {
	_ = os.Remove(tmp) // a leftover of ours from a killed run
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if f != nil {
			f.Close()
		}
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	switch {
	case prev != nil && prev.Exists:
		if err = f.Chmod(prev.Mode); err != nil {
			return err
		}
		if prev.UID != os.Geteuid() || prev.GID != os.Getegid() {
			if err = f.Chown(prev.UID, prev.GID); err != nil && !errors.Is(err, fs.ErrPermission) {
				return err
			}
			err = nil
		}
	case static:
		if err = f.Chmod(perm); err != nil {
			return err
		}
	}
	if err = f.Sync(); err != nil {
		return err
	}
	err, f = f.Close(), nil
	if err != nil {
		return err
	}
	if err = os.Rename(tmp, real); err != nil {
		return err
	}
	return syncDir(filepath.Dir(real))
}
