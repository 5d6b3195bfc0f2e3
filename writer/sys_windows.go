package writer

import (
	"context"
	"errors"
	"golang.org/x/sys/windows"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// modeBits: the permission bits guard files (not here: Windows has ACLs).
const modeBits = false

// sysOf is fi's owner and identity: Windows says neither through Go's
// FileInfo, so the effective user's (-1) and none; files then compare by
// size and time alone.
func sysOf(fs.FileInfo) (uid, gid int, dev, ino uint64) { return os.Geteuid(), os.Getegid(), 0, 0 }

// running reports whether process n runs: Windows opens a handle only to a
// process that exists.
func running(n int) bool {
	p, err := os.FindProcess(n)
	if err == nil {
		_ = p.Release()
	}
	return err == nil
}

// syncDir: Windows syncs no directory (its file systems journal entries).
func syncDir(string) error { return nil }

// A winLock is a lock file held open: closing the handle releases it.
type winLock struct {
	*os.File
	path string
}

// Close releases the lock. A remove deletes the lock file while it holds
// it, and Windows deletes it only now: the hooks dir, which could not go
// then, goes now when it is empty.
func (l winLock) Close() error {
	err := l.File.Close()
	if _, e := os.Lstat(l.path); errors.Is(e, fs.ErrNotExist) {
		_ = os.Remove(filepath.Dir(l.path))
	}
	return err
}

// lockFile takes the lock of path (made when missing) with LockFileEx:
// blocking when ctx can never be done, else polling until ctx is. The file
// is opened through os.Root, which shares delete, so that a remove that
// holds it can delete it (os.OpenFile's handle would refuse).
func lockFile(ctx context.Context, path string) (heldLock, error) {
	r, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	f, err := r.OpenFile(filepath.Base(path), os.O_RDWR|os.O_CREATE, 0o600)
	r.Close()
	if err != nil {
		return nil, err
	}
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if ctx.Done() != nil {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	for {
		err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, new(windows.Overlapped))
		if err == nil {
			return winLock{f, path}, nil
		}
		if ctx.Done() == nil || !errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockRetry):
		}
	}
}
