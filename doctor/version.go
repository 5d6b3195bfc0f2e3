package doctor

import (
	"fmt"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
)

// versionCheck says what the agent version on PATH does with our hooks, from
// its measured range (adapters.Range; the Installer asked `--version` and
// put the verdict in Target.Gate): within the range it passes; a version
// nothing can be written for fails as a switch (our hooks cannot report
// there); one that gets less, or is beyond what was measured, is worth
// knowing.
func (r *run) versionCheck() {
	g := r.t.Gate
	f := r.t.Adapter
	if g == nil || f.Range == nil {
		return
	}
	file := r.cfg.Path
	who := fmt.Sprintf("%s %s (%s)", f.Product, g.Version, g.Binary)
	rng := "the range measured with these hooks, " + f.Range.Oldest + " to " + f.Range.Newest
	switch {
	case g.Refuse != "":
		r.fail("switch.version", file, who+" "+g.Refuse, fmt.Sprintf("upgrade %s to %s or newer, then run '%s'", f.Product, f.Range.Oldest, r.t.Command("add")))
	case g.Reduced():
		var what []string
		if len(g.Drop) > 0 {
			what = append(what, "does not know "+strings.Join(g.Drop, ", ")+", so ours there are left out and that state is not reported")
		}
		if g.TimeoutMS {
			what = append(what, "reads a hook's timeout in milliseconds, so ours are written in milliseconds")
		}
		r.add(Check{ID: "version", Result: adapters.Info, File: file, Verdict: who + " is older than " + rng + ": it " + strings.Join(what, "; it "),
			Hint: fmt.Sprintf("upgrade %s to %s or newer for every state", f.Product, f.Range.Oldest)})
	case g.Newer:
		r.add(Check{ID: "version", Result: adapters.Info, File: file, Verdict: who + " is newer than " + rng + "; the checks below say whether ours still run"})
	case g.Unmeasured:
		r.add(Check{ID: "version", Result: adapters.Info, File: file, Verdict: who + " is older than any version measured with these hooks"})
	default:
		r.pass("version", file, who+" is within "+rng)
	}
}
