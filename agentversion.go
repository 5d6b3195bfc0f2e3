package hookinstall

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
)

// ErrAgentVersion says that the agent's program on PATH is a version for
// which hookinstall can write nothing useful and safe (measured: its hooks
// would report nothing, or it would reject the config): nothing was
// written. The error says which program said which version, and why
// nothing can be written for it; the command line exits 3.
var ErrAgentVersion = errors.New("the agent's version cannot run these hooks")

// An agentVersionError is a refusal to install for the agent version on
// PATH.
type agentVersionError struct {
	Agent   string // the agent's name
	Product string // its name for people
	Binary  string // the program asked
	Version string // what it said
	Reason  string // what that version does with our hooks
}

func (e *agentVersionError) Error() string {
	return fmt.Sprintf("%s: %s %s (%s) %s; nothing written", e.Agent, e.Product, e.Version, e.Binary, e.Reason)
}

func (e *agentVersionError) Unwrap() error { return ErrAgentVersion }

// agentVersion asks the agent's program on the Installer's PATH for its
// version, once per program in vs (one call's: add's writer takes the same
// answer). bin is "" when it is not on PATH (or the target is not this
// machine's: a Docker home); version is "" when the program did not say one
// (err says why, when it failed).
func (in *Installer) agentVersion(ctx context.Context, vs *agentexec.Versions, t adapters.Target, r *adapters.Range) (bin, version string, err error) {
	if r == nil || (t.AsHome != "" && t.AsHome != t.Home) {
		return "", "", nil
	}
	a := vs.Ask(ctx, in.getenv, r.Program)
	return a.Path, adapters.ParseVersion(a.Out), a.Err
}

// gate asks the agent's program its version and judges it against the
// agent's measured range: the gate the plan writes with, what add must
// say about it, or an *agentVersionError when nothing can be written.
func (in *Installer) gate(ctx context.Context, vs *agentexec.Versions, t adapters.Target) (*adapters.Gate, []string, error) {
	f := t.Adapter
	g, why := in.judge(ctx, vs, t, f.Range)
	switch {
	case g == nil && why == "":
		return nil, nil, nil // not on PATH: as measured
	case g == nil:
		return nil, []string{why + "; installed as for " + f.Range.Newest}, nil
	}
	v, bin := g.Version, g.Binary
	if g.Refuse != "" {
		return nil, nil, &agentVersionError{Agent: t.ID, Product: f.Product, Binary: bin, Version: v, Reason: g.Refuse}
	}
	states := map[string]string{}
	for _, e := range t.Adapter.Events() {
		states[e.Event] = string(e.State)
	}
	return g, adapters.GateNotes(f.Product, f.Range, *g, states), nil
}

// judge is the gate of the agent version on PATH, refusals included; nil
// when the program is not on PATH, or could not tell its version (why says
// so then).
func (in *Installer) judge(ctx context.Context, vs *agentexec.Versions, t adapters.Target, r *adapters.Range) (*adapters.Gate, string) {
	bin, v, err := in.agentVersion(ctx, vs, t, r)
	switch {
	case bin == "":
		return nil, ""
	case v == "":
		why := "it printed no version"
		if err != nil {
			why = err.Error()
		}
		return nil, fmt.Sprintf("could not tell the version of %s (%s)", bin, why)
	}
	g := r.Judge(v)
	g.Binary = bin
	return &g, ""
}
