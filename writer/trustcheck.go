package writer

// add --trust asks the agent's binary twice: before planning, which trust
// hashes it expects for the hooks the plan writes (the adapter's
// TrustQuery, answered about a scratch copy), and once the plan is written,
// whether it now reports our hooks trusted (Plan.Verify). When it does not,
// the add is undone from what an undoer (system.go) recorded as it wrote:
// every file the add wrote gets its bytes and mode back, or is deleted when
// the add created it, and the folders it created go.
//
// Order: config files (hooks.json, then config.toml) are written by
// applyAdd as for any add, the manifest first recording them, so a crash
// before the verdict leaves an install that remove takes out exactly; the
// undo goes last write first: the config files, then the manifest, the
// scripts and the backups, and stops at the first file it cannot put back,
// so a crash or a failure during it leaves an install the manifest still
// records, or only files of ours: either way a remove gives the home back
// exactly (TestTrustRollbackCrashes).

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
)

// queries returns the ask that planAdd uses: each distinct question is put
// to the binary once per run (a re-plan under the lock asks again only when
// the files it would ask about changed).
func (w *Writer) queries(ctx context.Context) func(*adapters.Query) *adapters.Reply {
	seen := map[string]*adapters.Reply{}
	return func(q *adapters.Query) *adapters.Reply {
		var b strings.Builder
		b.WriteString(strings.Join(q.Argv, "\x00") + "\x01" + strings.Join(q.Env, "\x00") + "\x01" + q.Dir + "\x01")
		for _, n := range slices.Sorted(maps.Keys(q.Files)) {
			b.WriteString(n + "\x00" + string(q.Files[n]) + "\x01")
		}
		k := b.String()
		if r, ok := seen[k]; ok {
			return r
		}
		r := w.query(ctx, q)
		seen[k] = r
		return r
	}
}

// verify asks the agent's binary the plan's Verify question once x is
// written through u, and undoes the add when its Judge finds fault: u's
// record (every attempt of the run), then the lock file when the run made
// the hooks dir (fresh: no install was there; lockers check its inode, as
// after a remove), then the folders created before the add wrote (dirs),
// innermost first.
func (w *Writer) verify(ctx context.Context, x *txn, u *undoer, dirs []string, fresh bool) error {
	names := func() []string {
		es, _ := os.ReadDir(x.t.Dir)
		var ns []string
		for _, e := range es {
			ns = append(ns, e.Name())
		}
		return ns
	}
	before := names()
	verdict := x.plan.Verify.Judge(*w.query(ctx, &x.plan.Verify.Query))
	// what the agent wrote of its own, answering: its state, not ours
	if made := slices.DeleteFunc(names(), func(n string) bool { return slices.Contains(before, n) }); len(made) > 0 {
		x.notes = append(x.notes, fmt.Sprintf("%s, asked whether it trusts our hooks, wrote files of its own into %s (%s): its state, as when you run it, not hookinstall's, so remove leaves them",
			x.plan.Verify.Query.Argv[0], x.t.Dir, strings.Join(made, ", ")))
	}
	if verdict == nil {
		return nil
	}
	err := u.undo(x.t.NS)
	if err == nil {
		if fresh && slices.Contains(dirs, x.hooksDir) {
			_ = u.system.Remove(filepath.Join(x.hooksDir, "lock"), op{})
		}
		dirs = append([]string(nil), dirs...)
		sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
		for _, d := range dirs {
			_ = u.system.Remove(d, op{})
		}
	}
	var ce *adapters.TrustCheckError
	if errors.As(verdict, &ce) {
		ce.Undone, ce.UndoErr, ce.Remove = err == nil, err, x.t.Command("remove")
	} else if err != nil {
		verdict = fmt.Errorf("%w; putting the files back stopped: %v; '%s' takes out what is left", verdict, err, x.t.Command("remove"))
	}
	return &Error{Agent: x.t.ID, Err: verdict, Written: err != nil}
}
