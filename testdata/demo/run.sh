#!/bin/sh
# make demo: add, check and remove hooks on a scratch HOME, showing the diffs.
set -eu
bin=${1:-bin/hookinstall}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hookinstall-demo.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export HOME="$scratch/home"
unset CLAUDE_CONFIG_DIR CODEX_HOME GROK_HOME OPENCODE_CONFIG_DIR XDG_CONFIG_HOME HOOKINSTALL_NAMESPACE
mkdir -p "$HOME/.claude"
cp "$here/settings.json" "$HOME/.claude/settings.json"
cp "$HOME/.claude/settings.json" "$scratch/before.json"
cd "$scratch"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step hookinstall add claude --dry-run
"$bin" add claude --dry-run
step hookinstall add claude
"$bin" add claude
step diff -u before.json '~/.claude/settings.json'
diff -u "$scratch/before.json" "$HOME/.claude/settings.json" || true
step hookinstall status claude
"$bin" status claude
step 'HOOKINSTALL_TASK_ID=demo ~/.claude/hookinstall-hooks/permission-request.sh'
HOOKINSTALL_TASK_ID=demo "$HOME/.claude/hookinstall-hooks/permission-request.sh" </dev/null
echo
step hookinstall add claude '   # again: nothing changes'
"$bin" add claude
cp "$HOME/.claude/settings.json" "$scratch/after-add.json"
step hookinstall remove claude
"$bin" remove claude
step diff -u after-add.json '~/.claude/settings.json'
diff -u "$scratch/after-add.json" "$HOME/.claude/settings.json" || true
step cmp before.json '~/.claude/settings.json'
cmp "$scratch/before.json" "$HOME/.claude/settings.json" && echo "identical: every byte restored"
