// Package scripts generates the hook scripts that hookinstall installs, from
// templates embedded in the binary.
//
// It is a building block of the module, not its supported API: its
// exported names may change in any release. Programs use the root package
// (github.com/hookinstall/hookinstall).
//
// Invariants of every generated script:
//   - POSIX sh (checked under dash), starting "#!/bin/sh", with a header that
//     says what it is, that the agent's config runs it (deleting it by hand
//     leaves the config pointing at nothing), and the command that removes it.
//   - Exit status 0 on every path; never a decision or any other control field.
//   - Silent (no output, no write) unless <NS>_TASK_ID is set and non-empty.
//   - Silent too while a variable of Spec.Quiet is set (an agent whose
//     scripts another agent also runs: Claude's, under Grok).
//   - Scripts of Transport Stdout print exactly one terminalSequence line.
//   - Other scripts write only to the path in <NS>_PTY, and only when it is a
//     character device; they print nothing on stdout and create no file.
//   - The payload is read with shell builtins only, and only where the state
//     depends on it; it is never evaluated or used as a command.
//   - The escape and bell are written as \033 and \007 (or \u001b and \u0007
//     in JSON), never as raw bytes.
//   - The bytes depend only on the Spec: re-rendering is byte-stable.
//
// The plugins of opencode's API (RenderPlugin: opencode, Kilo) and the
// extensions of Pi's API (Extension.Render: Pi, oh-my-pi; TypeScript) keep
// the same rules in JavaScript (the agents' products come from adapters/):
// an ES module whose only export is the plugin (or extension) function; silent without
// <NS>_TASK_ID; writes only to <NS>_PTY when it is a character device, opened
// without O_CREAT and never blocking: a pty whose buffer is full (EAGAIN)
// gets the rest, in order, on a 10 ms timer for up to 2 s; every handler
// catches everything, so nothing throws; the bytes depend only on the
// Install (namespace, agent id and home).
//
// Terminal mode (terminal.go): a task id starting "terminal:" was set by
// `hookinstall init` or `run`, not by a host. Then every script and plugin
// sends the terminal's own language instead of the host protocol: OSC 9;4
// progress, and for attention and done a notification (OSC 9, OSC 777
// notify or OSC 99, per the task id) naming Spec.Product and the project
// folder ($PWD's last element, bytes outside [A-Za-z0-9._+@,=~ -] made '_',
// at most 32 bytes: no control byte, ';', quote or backslash can reach the
// terminal), each sequence wrapped for tmux's passthrough after "tmux+".
// Claude's terminalSequence is never wrapped (Claude wraps it) and keeps to
// Claude's allowlist. Any other task id gets the host protocol, byte for
// byte as before. The scripts stay builtins-only.
//
// Every file's header names the exact command that removes its install
// (Install.RemoveCommand), --home and --as-home included where the install
// needs them; a path in it is quoted (ShellQuote) so that it never ends the
// comment line.
package scripts
