// Package writer is the only code in hookinstall that touches the disk. For
// one agent it reads every file the agent's adapter names (adapters.Reads),
// asks the adapter for a plan (the new bytes of each file it needs: the
// config and, for add codex --trust, Codex's trust records), and applies
// that plan as one transaction. It also does the one I/O a plan needs
// besides files: with Options.Trust it runs the agent's version command on
// the caller's PATH, so no caller can write trust records for a version
// whose hash is not exact.
//
// It is a building block of the module, not its supported API: its
// exported names may change in any release. Programs use the root package
// (github.com/hookinstall/hookinstall), which applies every rule the CLI
// applies. Options have no way to fake the version an agent's binary
// reports: only this package's tests replace how it is asked.
//
// Every change it makes to the disk (write, rename, folder, mode, lock,
// link, deletion) is one call of one small interface, system (system.go,
// after chezmoi's System): the real one acts, a recorder lists the Changes
// of the calls (around nothing for --dry-run, so the dry run's list is a
// record of the same apply that a real run makes), and the tests' fault
// system fails any one call (crash_test.go).
//
// Files, by job: writer.go (Options, Writer, Report, Error), system.go (the
// write interface), plan.go (reading, planning, re-planning, replacing each
// file, and run: add's and remove's one skeleton), add.go, remove.go,
// manifest.go (the manifest and backups), lock.go (the lock, strays,
// folders a run created), query.go (asking an agent's binary), fs.go
// (atomic writes, symlinks), status.go.
//
// Invariants:
//   - Never changes bytes outside an adapter's edit; never re-marshals a file.
//   - Never leaves a partial file: every write is a temp file in the same
//     directory as the real target, fsync, rename, fsync of the directory.
//   - Never replaces a symlink: a symlinked file is written through to its
//     target. A read-only target is refused, with the reason. A symlink to
//     nothing (the file, or a folder on its way) is refused when the plan
//     would write the file: nothing is created through it, wherever it
//     points.
//   - Keeps an existing file's mode and, where allowed, its owner.
//   - Validates everything before it writes anything: on bad input (in any
//     file of the plan) nothing is written for that agent, not even the
//     hooks dir.
//   - One lock, one manifest write per transaction: the manifest records
//     every file of the plan before any of them is replaced, so a crash
//     leaves a manifest that describes each file or its successor.
//   - Backs each file up once, before the first install changes it, and
//     never overwrites a backup; records absence when the file did not exist.
//     The backup is a hard link to the file as read, taken before the atomic
//     replace gives the file a new inode, so it costs no copy; a copy only
//     when linking fails (another filesystem) or the bytes to keep are not
//     the file's.
//   - A run that fails part way deletes the folders it created and recorded
//     nowhere; a remove that deleted the lock file (the record of the
//     folders an install created) and then failed writes that record again.
//   - Serialises runs on one agent with an advisory lock on <hooks dir>/lock,
//     never on a config itself; waiting for it honours the caller's context.
//     Agents do not take the lock, so each file is re-read just before its
//     rename and the whole plan is made again if one changed.
//   - A remove that leaves nothing deletes the lock file while holding it;
//     every locker checks, once it holds the lock, that the file it locked is
//     still the one on disk, and starts over if not.
//   - add twice leaves the bytes and mtime of the first add.
//   - Refuses a hooks dir that is a symlink, is writable by group or others,
//     or is owned by another user.
//   - Reads nothing that is not a regular file (a FIFO or device would block).
package writer
