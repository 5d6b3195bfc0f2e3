// Package writer is the only code in hookinstall that touches the disk. It
// reads an agent's config, asks the agent's adapter for the new bytes, and
// writes them.
//
// Invariants:
//   - Never changes bytes outside an adapter's edit; never re-marshals a file.
//   - Never leaves a partial file: every write is a temp file in the same
//     directory as the real target, fsync, rename, fsync of the directory.
//   - Never replaces a symlink: a symlinked config is written through to its
//     target. A read-only target is refused, with the reason.
//   - Keeps an existing file's mode and, where allowed, its owner.
//   - Validates everything before it writes anything: on bad input nothing is
//     written for that agent, not even the hooks dir.
//   - Backs a file up once, on the first install, and never overwrites a
//     backup; records absence when the file did not exist.
//   - Writes the manifest before the config, so a crash leaves a manifest
//     that describes the config or its successor.
//   - Serialises runs on one agent with an advisory lock on <hooks dir>/lock,
//     never on the config itself. Agents do not take the lock, so the config
//     is re-read just before the rename and the edit is redone if it changed.
//   - A remove that leaves nothing deletes the lock file while holding it;
//     every locker checks, once it holds the lock, that the file it locked is
//     still the one on disk, and starts over if not.
//   - add twice leaves the bytes and mtime of the first add.
//   - Refuses a hooks dir that is a symlink, is writable by group or others,
//     or is owned by another user.
//   - Reads nothing that is not a regular file (a FIFO or device would block).
package writer
