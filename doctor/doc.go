// Package doctor proves what each coding agent will really run from what
// hookinstall installed: a config that parses is not a config that runs.
//
// It is a building block of the module, not its supported API: its
// exported names may change in any release. Programs use the root
// package's Installer.Doctor (github.com/hookinstall/hookinstall).
//
// For one agent it checks, each under a stable id (see docs/doctor.md): the
// config parses the way the agent parses it; our entries sit at the exact
// path the agent reads, in the shape it runs, exactly once; each script
// exists, is executable, matches the manifest byte for byte and keeps its
// gates; the hooks dir is private; no kill switch is set; nothing of ours sits
// on a dead path or fires twice; trust, where the agent needs it. Then it runs
// each installed script with a recorded payload against a pty it opens and
// compares the bytes that arrive with the documented OSC, and checks silence
// outside the host and under Grok. Where the agent's binary is on PATH and can
// say what it resolved, it asks, with a timeout.
//
// Invariants:
//   - Doctor writes nothing into any agent config, script or manifest. The
//     only processes it starts are our own scripts (with a timeout, a scratch
//     pty and a fixed environment) and, where asked, the agent's binary in a
//     read-only mode with a timeout.
//   - A check fails only when the agent will not do what the install promises;
//     facts that change behaviour but are not faults are information.
//   - Every fact about an agent comes from its description (adapters.Agent):
//     doctor does the I/O (reading files, live fires, asking binaries) and
//     applies the facts' pure checks to what it read.
//   - Payloads are embedded in the binary (adapters/payloads); nothing
//     outside the home, the agent's own files and the system files its
//     facts name is read.
package doctor
