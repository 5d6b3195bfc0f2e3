package doctor

import (
	"fmt"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
)

// versionCheck says what the agent version on PATH does with our hooks,
// in add's words (adapters.Target.GateNotes, Refused; the Installer asked
// `--version` and set Target.Gate): a version nothing can be written for
// fails as a switch (our hooks cannot report there); one that loses a
// state or was never measured is told to upgrade; one whose hooks are
// written otherwise, is beyond what was measured, or could not be told is
// worth knowing; within the range it passes.
func (r *run) versionCheck() {
	g, f, file := r.t.Gate, r.t.Adapter, r.cfg.Path
	if g == nil || f.Range == nil {
		return
	}
	upgrade := fmt.Sprintf("upgrade %s to %s or newer", f.Product, f.Range.Oldest)
	switch notes := r.t.GateNotes(); {
	case r.t.Refused() != nil:
		r.fail("switch.version", file, fmt.Sprintf("%s %s (%s) %s", f.Product, g.Version, g.Binary, g.Refuse), upgrade+", then run '"+r.t.Command("add")+"'")
	case len(g.Drop) > 0 || g.Unmeasured:
		r.add(Check{ID: "version", Result: adapters.Info, File: file, Verdict: strings.Join(notes, "; "), Hint: upgrade + " for every state"})
	case len(notes) > 0:
		r.add(Check{ID: "version", Result: adapters.Info, File: file, Verdict: strings.Join(notes, "; ")})
	default:
		r.pass("version", file, fmt.Sprintf("%s %s (%s) is within the range measured with these hooks, %s to %s", f.Product, g.Version, g.Binary, f.Range.Oldest, f.Range.Newest))
	}
}
