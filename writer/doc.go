// Package writer is the only code in hookinstall that touches the disk. For
// one agent it reads every file the agent's adapter names (adapters.Reads),
// asks the adapter for a plan (the new bytes of each file it needs: the
// config and, for add codex --trust, Codex's trust records), and applies
// that plan as one transaction. It also does the one I/O a plan needs
// besides files: with Options.Trust it runs the agent's version command on
// the caller's PATH, so no caller can write trust records for a version
// whose hash is not exact.
//
// Files, by job: writer.go (Options, Writer, Report, Error), plan.go
// (reading, planning, re-planning, replacing each file), add.go, remove.go,
// manifest.go (the manifest and backups), lock.go (the lock, strays,
// folders a run created), probe.go (asking an agent's binary), fs.go
// (atomic writes), status.go.
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
