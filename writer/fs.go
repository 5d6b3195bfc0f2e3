package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// resolve follows symlinks to the file that really holds path's bytes, so a
// config managed by a dotfile manager stays a symlink and its target gets the
// edit. A dangling link resolves to the file it names.
func resolve(path string) (string, error) {
	p := path
	for i := 0; i < 40; i++ {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			dir, err := filepath.EvalSymlinks(filepath.Dir(p))
			if errors.Is(err, fs.ErrNotExist) {
				return p, nil
			}
			if err != nil {
				return "", err
			}
			return filepath.Join(dir, filepath.Base(p)), nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return filepath.EvalSymlinks(p)
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("too many levels of symbolic links")
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
}

// readFile reads a config file without ever blocking on a FIFO or device:
// anything but a regular file is refused before it is opened.
func readFile(path string, limit int64) (fileState, error) {
	st := fileState{Path: path}
	real, err := resolve(path)
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
	data, err := os.ReadFile(real)
	if err != nil {
		return st, err
	}
	st.Data, st.Exists, st.Mode = data, true, fi.Mode().Perm()
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.UID, st.GID = int(sys.Uid), int(sys.Gid)
	}
	return st, nil
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

// writeAtomic replaces real with data: a temp file in the same directory,
// fsync, rename, fsync of the directory. An existing file's mode and, where
// allowed, owner are kept; a new file gets perm (less the umask unless
// static).
func writeAtomic(real string, data []byte, perm fs.FileMode, static bool, prev *fileState) error {
	opts := []renameio.Option{renameio.WithTempDir(filepath.Dir(real))}
	switch {
	case prev != nil && prev.Exists:
		opts = append(opts, renameio.WithStaticPermissions(prev.Mode))
	case static:
		opts = append(opts, renameio.WithStaticPermissions(perm))
	default:
		opts = append(opts, renameio.WithPermissions(perm))
	}
	pf, err := renameio.NewPendingFile(real, opts...)
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if prev != nil && prev.Exists && (prev.UID != os.Geteuid() || prev.GID != os.Getegid()) {
		if err := pf.Chown(prev.UID, prev.GID); err != nil && !errors.Is(err, fs.ErrPermission) {
			return err
		}
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(real))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
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
// and returns the ones it created, outermost first.
func mkdirs(dir string) ([]string, error) {
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
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			return created, err
		}
		created = append(created, missing[i])
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
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by group or others (mode %04o); refusing, since anyone who can write there can run code in your agent (run chmod go-w on it)", dir, fi.Mode().Perm())
	}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("%s is owned by uid %d, not by you (uid %d); refusing", dir, sys.Uid, os.Geteuid())
	}
	return nil
}
