package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters"
)

// trusthooks DIR: trust every hook in DIR/hooks.json the way Codex's "Trust
// all" does: append to DIR/config.toml one [hooks.state."<DIR>/hooks.json:
// <event_snake>:<group>:<handler>"] trusted_hash entry per handler, with the
// hash Codex 0.171.0 computes (adapters.CodexTrustHashJSON).
func cmdTrusthooks(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: trusthooks DIR")
	}
	dir := ts.MkAbs(args[0])
	doc, err := os.ReadFile(filepath.Join(dir, "hooks.json"))
	ts.Check(err)
	var b strings.Builder
	n := 0
	gjson.GetBytes(doc, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		i := 0
		groups.ForEach(func(_, g gjson.Result) bool {
			j := 0
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				key, err := adapters.CodexTrustKey(filepath.Join(dir, "hooks.json"), ev.Str, i, j)
				ts.Check(err)
				hash, err := adapters.CodexTrustHashJSON(ev.Str, json.RawMessage(g.Raw), json.RawMessage(h.Raw))
				ts.Check(err)
				b.WriteString("\n" + adapters.CodexTrustTOML(key, hash))
				j++
				n++
				return true
			})
			i++
			return true
		})
		return true
	})
	if n == 0 {
		ts.Fatalf("trusthooks: no hooks in %s", filepath.Join(dir, "hooks.json"))
	}
	f, err := os.OpenFile(filepath.Join(dir, "config.toml"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	_, err = f.WriteString(b.String())
	ts.Check(err)
	ts.Check(f.Close())
}
