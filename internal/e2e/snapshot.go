package e2e

import "github.com/hookinstall/hookinstall/internal/treesnap"

// A Snapshot records every file, folder and link under a HOME: type, mode and
// bytes (see internal/treesnap).
type Snapshot = treesnap.Tree

// Snap records every node under root, following no symlink.
func Snap(root string) (Snapshot, error) { return treesnap.Take(root, treesnap.Options{}) }

// Changed lists, sorted, the paths added, removed or changed from a to b.
func Changed(a, b Snapshot) []string { return treesnap.Changed(a, b) }
