//go:build unix

package writer

import (
	"context"
	"errors"
	"github.com/gofrs/flock"
	"io/fs"
	"os"
	"syscall"
)

// modeBits: the permission bits guard files here (Windows has ACLs instead).
const modeBits = true

// sysOf is fi's owner and identity (device, inode), as the system says them.
func sysOf(fi fs.FileInfo) (uid, gid int, dev, ino uint64) {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), int(sys.Gid), uint64(sys.Dev), uint64(sys.Ino)
	}
	return os.Geteuid(), os.Getegid(), 0, 0
}

// running reports whether process n runs (or cannot be told: not ours to
// signal).
func running(n int) bool { return syscall.Kill(n, 0) != syscall.ESRCH }

// syncDir makes dir's entries durable.
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

// lockFile takes the advisory lock of path (made, mode 0600, when
// missing): blocking when ctx can never be done, else polling until ctx is.
func lockFile(ctx context.Context, path string) (heldLock, error) {
	fl, ok, err := flock.New(path, flock.SetPermissions(0o600)), true, error(nil)
	if ctx.Done() == nil {
		err = fl.Lock()
	} else {
		ok, err = fl.TryLockContext(ctx, lockRetry)
	}
	if err == nil && !ok {
		err = errors.New("could not take the lock")
	}
	if err != nil {
		return nil, err
	}
	return fl, nil
}
