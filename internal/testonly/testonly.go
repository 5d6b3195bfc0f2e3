// Package testonly holds the few seams that this module's own tests set, in
// the process under test, so that package hookinstall's exported options
// carry no test hooks. Production code never sets them.
package testonly

import "time"

var (
	// Now, when set, replaces the clock that stamps manifests.
	Now func() time.Time
	// SystemRoot, when set, is where the agents' system-wide files
	// (/etc/...) are looked for instead of "/", by add, status and doctor
	// alike (adapters.Options.SystemRoot).
	SystemRoot string
	// GOOS, when set, is the OS whose system files add, status and doctor
	// read (adapters.Options.GOOS), so that macOS's are tested on Linux.
	GOOS string
)
