// Package manifest encodes the record hookinstall keeps of each install, in
// <agent dir>/<NS>-hooks/manifest.json.
//
// It is a building block of the module, not its supported API: its
// exported names may change in any release (the file format it reads and
// writes does not: see Schema). Programs use the root package
// (github.com/hookinstall/hookinstall).
//
// Invariants:
//   - A manifest names its schema version, the tool version, the namespace,
//     the agent (and its base, for a clone) and the install time.
//   - Every config file the install touched is listed with whether the
//     install created it, its sha256 before and after, and the path of its
//     backup; every script with its sha256.
//   - Paths are relative to the home of the install.
//   - The package does no I/O: the writer reads and writes the file.
package manifest
