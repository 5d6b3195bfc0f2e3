// Package hookinstall installs, checks and removes coding agents' state
// hooks for a terminal host, and decodes what those hooks report.
//
// A terminal host runs coding agents (Claude Code, Codex, Grok, opencode,
// ...) in its tabs and wants to show, per tab, whether the agent is working,
// needs the user, is done, or was interrupted. hookinstall writes one tiny
// hook per state into each agent's own global config, so that the agent
// itself reports the state as an OSC 777 sequence on its terminal, and it
// takes them out again so exactly that the user's files come back byte for
// byte. The hookinstall command is a client of this package; a host can
// embed the same thing.
//
// # Installing
//
// [New] makes an [Installer] for one home and one namespace. Its methods
// [Installer.Install], [Installer.Remove], [Installer.Status] and
// [Installer.Doctor] work on one agent each; [Installer.InstallAll] and
// [Installer.RemoveAll] pick the agents the way `hookinstall add --all` and
// `remove --all` do; [Installer.Agents] lists what it knows. Every call that
// can block (a lock held by another run, an agent's program asked for its
// version, a script run by doctor) takes a [context.Context].
//
// # Safety
//
// The rules the command enforces live here, so that a caller cannot skip
// one: the namespace pattern and default ($HOOKINSTALL_NAMESPACE), the home
// ([Options.Home] or $HOME: an absolute path to a folder that exists; [New]
// refuses anything else and nothing ever creates a home), targets
// only under the home (never under the current directory or a repository),
// the agents' own directory variables honoured only for the user's own home,
// [Options.AsHome] only with [Options.Home], the InstallAll selection
// (every agent detected), clones found by their manifest, the
// agent's binary asked which trust records it expects, and whether it
// trusts them once written, before trust records stay ([ErrTrustVersion]),
// nothing written when the agent's hooks are switched off ([ErrHooksOff]),
// the agent's program on PATH asked its version, once per [Installer], and
// only what that version understands written, or nothing where it can
// report nothing through our hooks ([ErrAgentVersion]; [Agent.Versions]),
// the system-wide files doctor reads. Every write is
// atomic, locked, backed up once and recorded in a manifest; a file that
// cannot be parsed is not touched, and the error is a [*FileError] naming
// the agent, the file and the position.
//
// # The wire
//
// A host starts each agent with the variables [Installer.Env] returns:
// <NS>_TASK_ID switches the hooks on (without it they print and write
// nothing) and <NS>_PTY names the tab's pty, where the hooks of every agent
// but Claude write. Each hook then writes, for its [State],
//
//	ESC ] 777 ; notify ; <NS> ; <body> BEL
//
// with the body "agent is working", "agent needs your input", "agent is
// done" or "agent was interrupted" ([State.Body], [OSC]). Inside tmux,
// Claude Code wraps it in tmux's passthrough:
//
//	ESC P tmux; ESC ESC ] 777 ; notify ; <NS> ; <body> BEL ESC \
//
// A [Decoder] takes the pty's output in whatever chunks it is read and
// returns a [Notification] for each sequence, in either form.
//
// # With no host
//
// A task id that starts with "terminal:" was set by `hookinstall init` (in
// the user's shell rc file) or `hookinstall run`, not by a host: the hooks
// then speak the terminal's own language (OSC 9;4 tab progress and a
// desktop notification naming the agent and the project folder;
// docs/terminals.md says what each terminal gets). Any other task id gets
// the wire above, byte for byte.
//
// # Beneath
//
// The packages adapters (what each agent reads, and how our entries look in
// it), writer (the only code that writes), manifest and scripts (the
// generated hooks) are the building blocks beneath this API; doctor holds
// its checks. They are not a stable API: their names change as the engine
// does; terminal mode is internal. This package is the one to use.
package hookinstall
