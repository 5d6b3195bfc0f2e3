// Command hookinstall installs, checks and removes coding agents' state hooks
// for a terminal host.
//
// This package only wires and renders: each command is an options struct and
// a run function over package hookinstall (the Go API), which holds every
// default and safety rule. It prints one line
// per fact, errors as "hookinstall: error: AGENT: FILE: WHAT", and one JSON
// document with --json. Exit codes: 0 ok, 1 failure, 2 usage, 3 nothing
// installed because the agent's hooks are switched off; doctor exits 1 when a
// check fails.
package main
