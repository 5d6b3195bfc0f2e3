#!/bin/sh
# Proves that the e2e suite fails when a generated hook is broken.
#
# For each AGENT:STATE (default: one per agent), it runs that agent's e2e case with
# HOOKINSTALL_E2E_BREAK=AGENT:STATE, which corrupts the OSC body of STATE in the files
# `hookinstall add` installed, right after the add. The case must FAIL, and its
# message must name the agent and say "missing state STATE". Exit 0 only then.
#
#   sh internal/e2e/selftest.sh                       # claude:attention codex:done codex-interrupt:interrupted opencode:working
#                                            # copilot:attention pi:interrupted kilo:working gemini:attention qwen:attention qwen-interrupt:interrupted
#                                            # kimi:interrupted omp:attention letta:attention droid:interrupted
#   sh internal/e2e/selftest.sh claude-tmux:done      # a case name works too
set -u
cd "$(dirname "$0")" || exit 2
[ $# -gt 0 ] || set -- claude:attention codex:done codex-interrupt:interrupted opencode:working copilot:attention pi:interrupted kilo:working gemini:attention qwen:attention qwen-interrupt:interrupted kimi:interrupted omp:attention letta:attention droid:interrupted
fails=0
for pair in "$@"; do
  case_name=${pair%%:*} state=${pair#*:}
  agent=${case_name%%-*}
  log=$(mktemp)
  echo "selftest: HOOKINSTALL_E2E_BREAK=$pair, case $case_name"
  HOOKINSTALL_E2E_BREAK=$pair HOOKINSTALL_E2E_AGENTS=$case_name \
    go test -tags e2e -count=1 -timeout 5m . >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    echo "selftest: FAIL: the e2e run PASSED with the $state hook of $agent broken"
    fails=$((fails+1))
  elif grep -Eq "^[[:space:]]*$agent[^:]*: missing state $state " "$log"; then
    echo "selftest: ok: the run failed (exit $rc) and said:"
    grep -E "^[[:space:]]*$agent[^:]*: (missing state|unknown OSC body|false done)" "$log" | sort -u | sed 's/^[[:space:]]*/    /'
  else
    echo "selftest: FAIL: the run failed (exit $rc) without naming $agent and 'missing state $state':"
    tail -40 "$log" | sed 's/^/    /'
    fails=$((fails+1))
  fi
  # an expected failure keeps its artifacts; they are of no further use here
  art=$(sed -n 's/.*artifacts kept in \(\/[^ ]*hookinstall-e2e-[^ /]*\).*/\1/p' "$log" | tail -1)
  [ -n "$art" ] && [ -d "$art" ] && rm -rf "$art"
  rm -f "$log"
done
if [ $fails -eq 0 ]; then echo "selftest: PASS ($# broken hook(s) caught)"; else echo "selftest: FAIL ($fails)"; fi
[ $fails -eq 0 ]
