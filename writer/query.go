package writer

import (
	"context"
	"fmt"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
)

// query asks an agent's binary q's question (see adapters.Query), found
// and run on Getenv's PATH as internal/agentexec runs every agent program.
// Nothing of it is a seam: callers and tests choose the binary only
// through PATH.
func (w *Writer) query(ctx context.Context, q *adapters.Query) *adapters.Reply {
	res := agentexec.Run(ctx, w.o.Getenv, agentexec.Cmd{Name: q.Argv[0], Args: q.Argv[1:],
		Env: q.Env, Files: q.Files, Dir: q.Dir, Input: q.Input, ReplyID: q.ReplyID})
	r := &adapters.Reply{Out: res.Out, Err: res.Err, Scratch: res.Scratch}
	if res.Err != nil && res.Path != "" {
		r.Err = fmt.Errorf("%s %w", res.Path, res.Err)
	}
	return r
}
