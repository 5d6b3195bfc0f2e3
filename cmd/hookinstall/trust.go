package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
)

// checkTrustVersion asks the agent's binary for its version: trust records
// are written only for the release whose hash hookinstall reproduces
// exactly, since a wrong hash silently leaves the hooks skipped.
func (g *globalOptions) checkTrustVersion(t adapters.Target) error {
	tr, ok := t.Adapter.(adapters.Truster)
	if !ok {
		return fmt.Errorf("%s: --trust is not supported for this agent; trust its hooks in the agent", t.ID)
	}
	args := tr.VersionArgs()
	path, err := lookPath(g.Getenv)(args[0])
	if err != nil {
		return fmt.Errorf("%s: --trust needs %s on PATH to check its version (trust hashes are exact for %s only); trust the hooks in /hooks instead", t.ID, args[0], tr.TrustVersion())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args[1:]...)
	cmd.Env = append(cmd.Environ(), "PATH="+g.Getenv("PATH"), "HOME="+g.Getenv("HOME"))
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: --trust: %s %s failed: %v", t.ID, path, strings.Join(args[1:], " "), err)
	}
	first := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	fields := strings.Fields(first)
	if len(fields) == 0 || fields[len(fields)-1] != tr.TrustVersion() {
		return fmt.Errorf("%s: --trust: %s says %q, but hookinstall computes trust hashes exactly only for %s; nothing written: trust the hooks in /hooks instead", t.ID, path, first, tr.TrustVersion())
	}
	return nil
}
