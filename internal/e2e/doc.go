// Package e2e proves that the hooks hookinstall writes fire inside the REAL agents.
//
// The suite itself is behind the build tag e2e, so `go test ./...` only runs the unit
// tests of its helpers (the OSC decoder, HOME snapshots, the fake model server). Run it
// with
//
//	go test -tags e2e -count=1 -timeout 30m -v ./internal/e2e/...
//
// (that is `make e2e`). For each of claude, codex, opencode, copilot, pi, kilo, gemini,
// qwen, kimi, omp, letta and droid it:
//
//  1. installs the pinned agent version from the npm registry into a cache outside the
//     repository, ${HOOKINSTALL_E2E_CACHE:-$HOME/.cache/hookinstall-e2e}, reused when
//     the right version is already there (Kimi Code and Letta Code, which need Node
//     22.19, get node-linux-<arch>@22.19.0 from the npm registry too, first on their
//     PATH; oh-my-pi gets Bun's platform package beside it, first on its PATH; Letta
//     Code, whose own npm install fails, is unpacked from `npm pack` beside the three
//     packages its bundle needs: see recipes);
//  2. builds ./cmd/hookinstall;
//  3. makes a scratch HOME holding the agent's own fixture state (onboarding done, a
//     custom provider pointing at the fake model server on 127.0.0.1, permission
//     prompts on, and a recorder hook of the "user" that logs every hook payload),
//     snapshots it, and runs `hookinstall add <agent>`;
//  4. starts the agent in a tmux pane on a private socket with HOOKINSTALL_TASK_ID set
//     and HOOKINSTALL_PTY set to the pane's pty slave path, as a host would, and
//     records the raw pty bytes with pipe-pane;
//  5. types one prompt; the fake model answers with a shell command that needs the
//     user's permission; the suite approves it and waits for the end of the turn;
//  6. decodes the OSC 777 sequences from the raw bytes and checks that working, then
//     attention, then done arrived, with no done before the attention (claude both
//     with $TMUX unset, verbatim, and set, wrapped in tmux DCS passthrough; codex with
//     the hooks trusted through the review dialog; untrusted, when nothing may run;
//     and trusted by `add codex --trust` while the user skips the dialog; and, on each
//     Codex release of codexTrustVersions (0.171.0, 0.169.0, 0.149.0, 0.129.0, installed beside
//     the pin), `add codex --trust` followed by a headless `codex exec` with no
//     --dangerously-bypass-hook-trust, which must put working then done on the pty,
//     and the control on the oldest, a plain add, when nothing of ours may reach it);
//  7. quits the agent, runs `hookinstall remove <agent>`, and checks that every file
//     `add` created or changed is byte for byte (and mode) what it was before `add`.
//
// TestTerminal (terminal_e2e_test.go) proves the same hooks with no host: Claude Code
// and Gemini CLI start from an interactive bash whose rc file ran `hookinstall init
// bash`, inside a tmux with allow-passthrough on (claude-term-tmux, gemini-term-tmux)
// and over a real ssh to 127.0.0.1 (claude-term-ssh, gemini-term-ssh: Debian's sshd,
// started on a free port with throwaway keys), and over ssh from inside a local tmux
// with no HOOKINSTALL_TERMINAL (gemini-term-ssh-tmux: the remote sees only
// TERM=tmux-256color, and init wraps for that tmux). The outer terminal is the pane of an
// outer tmux; its raw bytes must hold the terminal-mode progress and notification of
// each state, in the dialect init picked, byte for byte, and xterm.js's own parser
// (@xterm/headless 6.0.0 from the npm registry, with OSC handlers for 9, 99 and 777)
// must see the same sequences as DecodeTerminal. HOOKINSTALL_E2E_BREAK_TERMINAL=1
// breaks the folder in the installed scripts; the cases must then fail.
//
// TestTruth (truth_e2e_test.go) is the truth matrix: Claude, Gemini, opencode and plain
// codex (its daemon) each asked, approved, stopped with Esc mid-command, declined with
// Esc, joined by a second session in another window that is killed (-9), then quit; at
// each moment ls, the pane option and the outer terminal's last 7501 record and 9;4
// progress must all say the state the case wants (claude-truth, gemini-truth,
// opencode-truth, codex-truth).
//
// Every wait is bounded and a watchdog ends the whole run (HOOKINSTALL_E2E_TIMEOUT,
// default 540s, plus the time npm installs took, each at most 5 minutes), killing the
// agents, tmux servers and fake model servers it started. Environment knobs:
//
//	HOOKINSTALL_E2E_CACHE    npm install cache (default $HOME/.cache/hookinstall-e2e)
//	HOOKINSTALL_E2E_KEEP=1   keep the artifacts dir (raw.bin, screens, logs) on success
//	HOOKINSTALL_E2E_AGENTS   comma list of cases to run (claude, claude-tmux, codex,
//	                         codex-untrusted, codex-add-trust, codex-interrupt,
//	                         codex-trust-exec-<release>, codex-untrusted-exec-0.129.0, opencode,
//	                         copilot, pi, kilo, gemini, qwen, qwen-interrupt, kimi, kimi-reject,
//	                         omp, omp-deny, letta, droid, claude-term-tmux, gemini-term-tmux,
//	                         claude-term-ssh, gemini-term-ssh, gemini-term-ssh-tmux, and
//	                         the other TestTerminal and TestTruth names); default
//	                         all. The pinned agents that the selected cases need are installed
//	                         first, in parallel.
//	HOOKINSTALL_E2E_BREAK    self-test: AGENT:STATE[,AGENT:STATE] (AGENT may be *)
//	                         corrupts the OSC body of STATE in the installed hook files
//	                         right after `add` (and restores them before `remove`); the
//	                         run must then fail naming the agent and the missing state.
//	                         internal/e2e/selftest.sh (make e2e-selftest) runs this
//	                         and checks the message.
//	HOOKINSTALL_E2E_BIN      test this hookinstall binary instead of building ./cmd/hookinstall
//
// Artifacts of each case (raw.bin, screen-*.txt, launch.sh, hooks.log, server.jsonl,
// add/remove output, report.txt) are kept on failure; the path is printed.
package e2e
