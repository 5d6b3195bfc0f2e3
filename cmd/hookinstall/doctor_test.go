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
// trusthooks -all HOME: the same for every agent of the registry that has
// a Trust, its config and trust file resolved under HOME.
func cmdTrusthooks(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 2 && args[0] == "-all" && !neg {
		n := 0
		for _, a := range adapters.All() {
			if a.Trust == nil {
				continue
			}
			tg, err := adapters.Resolve(a.ID, adapters.Options{NS: "hookinstall", Home: ts.MkAbs(args[1])})
			ts.Check(err)
			trustHooks(ts, a.File(tg), a.Trust.File(tg))
			n++
		}
		if n == 0 {
			ts.Fatalf("trusthooks -all: no agent has a Trust")
		}
		return
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: trusthooks DIR | trusthooks -all HOME")
	}
	dir := ts.MkAbs(args[0])
	trustHooks(ts, filepath.Join(dir, "hooks.json"), filepath.Join(dir, "config.toml"))
}

// trustHooks appends to trustFile the records of every hook in config.
func trustHooks(ts *testscript.TestScript, config, trustFile string) {
	doc, err := os.ReadFile(config)
	ts.Check(err)
	var b strings.Builder
	n := 0
	gjson.GetBytes(doc, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		i := 0
		groups.ForEach(func(_, g gjson.Result) bool {
			j := 0
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				key, err := adapters.CodexTrustKey(config, ev.Str, i, j)
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
		ts.Fatalf("trusthooks: no hooks in %s", config)
	}
	f, err := os.OpenFile(trustFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	_, err = f.WriteString(b.String())
	ts.Check(err)
	ts.Check(f.Close())
}
