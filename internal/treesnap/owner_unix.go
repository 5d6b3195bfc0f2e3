//go:build unix

package treesnap

import (
	"fmt"
	"io/fs"
	"syscall"
)

// owner is fi's owner and inode, as a stamp says them.
func owner(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf(" uid=%d gid=%d ino=%d", st.Uid, st.Gid, st.Ino)
	}
	return ""
}
