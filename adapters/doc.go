// Package adapters knows, for each coding agent, where its global hook config
// lives, what our entries look like in it, and how to add and remove them.
//
// Everything about an agent is stated once, in one value of Agent in its
// own file (adapters/<agent>.go): its paths, its hooks and the shape they
// take in its config (Format: HookMap, NamedSet, TOMLHooks, Module), how it
// parses the config, the files it reads, what switches its hooks off, its
// dead paths, its trust, how to ask its binary, which recorded payloads
// (payloads/) its hooks get. add, remove, status and doctor take them from
// there; no code outside this package checks an agent's name
// (TestNoAgentNamesOutsideAdapters). The JSON splicer that edits the
// configs knows no agent and lives in adapters/jsonedit.
//
// It is a building block of the module, not its supported API: its
// exported names may change in any release. Programs use the root package
// (github.com/hookinstall/hookinstall), which applies every rule the CLI
// applies.
//
// Invariants:
//   - Pure: bytes in, bytes out. No file, process or environment access (the
//     writer reads and writes, doctor reads and runs; overrides such as
//     $CLAUDE_CONFIG_DIR arrive through an injected getenv, and system files
//     are named under Target.SystemRoot).
//   - Byte preservation: an edit changes only the span it inserts or deletes
//     (jsonedit for JSON, tomlscan for TOML). The user's file is never
//     re-marshalled. Inserted text copies the file's indent unit, newline
//     style and nesting depth, and a one-line file stays one line.
//   - Remove(Add(x)) == x for every strict JSON object x without entries of
//     ours, and Add(Add(x)) == Add(x).
//   - Ownership: an entry is ours exactly when every command in it starts with
//     the absolute hooks-dir path as written into the config (Target.Prefix).
//     Entries that mix ours with the user's, or that the user edited (they
//     match neither what we write now nor what the manifest recorded), are
//     left alone unless forced.
//   - Strict input: only RFC 8259 JSON objects (no BOM, no comments where
//     the agent reads none (Agent.ReadsComments: JSONC, comments kept), valid
//     UTF-8, nothing after the value, nesting at most 10000) are edited;
//     duplicate keys and wrong types on our path are errors with a position.
//   - Shared files keep their root: nothing is added to a Codex/ZeroCode root
//     but "hooks" (and their strict root is checked before any edit).
//   - Every target resolves under the home it was given; a clone keeps its
//     own directory with its base agent's shape.
//   - An add or a remove is a Plan (plan.go): the new bytes of every file the
//     agent needs, computed from the files of Reads(t) as the writer read
//     them under its lock, which applies the whole plan as one transaction.
//     Every agent plans through the same Agent.PlanAdd and Agent.PlanRemove.
//     A file beyond the config (codex's trust records in config.toml) is one
//     more edit of the plan; what only I/O can tell (the agent's version,
//     its dir's real path) comes in as a Probe, and a plan refuses what
//     it cannot do exactly (ErrTrustVersion, ErrTrustUnsupported).
//   - Codex trust hashes are computed as Codex 0.171.0 computes them
//     (codextrust.go, verified against the binary).
package adapters
