package treesnap

import "io/fs"

// owner: Go's FileInfo says no owner or inode on Windows.
func owner(fs.FileInfo) string { return "" }
