package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestUsageErrorsAreTyped: every command-line mistake cobra reports (a
// flag, an argument count, an unknown command) reaches run as a
// usageError, with cobra's message unchanged, and an error that only uses
// cobra's words is not a usage error (review R24: run matched the
// messages' text, so a config error saying "accepts only" exited 2).
func TestUsageErrorsAreTyped(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	for _, c := range []struct {
		args []string
		msg  string // the error's text, or its start when it ends in "..."
	}{
		{[]string{"frob"}, `unknown command "frob" for "hookinstall"`},
		{[]string{"version", "extra"}, `unknown command "extra" for "hookinstall version"`},
		{[]string{"agents", "extra"}, `unknown command "extra" for "hookinstall agents"`},
		{[]string{"run"}, "requires at least 1 arg(s), only received 0"},
		{[]string{"completion", "bash", "extra"}, `unknown command "extra" for "hookinstall completion bash"`},
		{[]string{"add", "claude", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"version", "-v"}, "unknown shorthand flag: 'v' in -v"},
		{[]string{"doctor", "--fire-timeout", "abc"}, `invalid argument "abc" for "--fire-timeout" flag: ...`},
		{[]string{"status", "--namespace"}, "flag needs an argument: --namespace"},
	} {
		g := &globalOptions{IO: IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, Getenv: getenv}
		root := newRootCmd(g)
		root.SetArgs(c.args)
		root.SetOut(&bytes.Buffer{})
		root.SetErr(&bytes.Buffer{})
		err := root.Execute()
		if err == nil {
			t.Errorf("%q: no error", c.args)
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %T %q is not a usageError", c.args, err, err)
		}
		if want, ok := strings.CutSuffix(c.msg, "..."); ok && !strings.HasPrefix(err.Error(), want) || !ok && err.Error() != c.msg {
			t.Errorf("%q: error %q, want %q", c.args, err, c.msg)
		}
	}
	for _, err := range []error{
		errors.New(`agent: /home/me/.agent/hooks.json: top-level key "$schema": the agent accepts only "description" and "hooks" at the top level`),
		errors.New("invalid argument"),
		errors.New("agent: its program requires at least 2.1.141"),
		errors.New("unknown command 'doctor'"),
	} {
		if isUsage(err) {
			t.Errorf("isUsage(%q) = true: only cobra's own errors and usageError are usage errors", err)
		}
	}
}
