package adapters_test

import (
	"bytes"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/bench"
)

// benchDocs are the inputs of the adapter benchmarks: a typical config and
// the large generated ones (thousands of user hooks).
func benchDocs() []struct {
	name string
	doc  []byte
} {
	docs := []struct {
		name string
		doc  []byte
	}{{"small", bench.Typical}}
	for _, s := range bench.Sizes {
		docs = append(docs, struct {
			name string
			doc  []byte
		}{s.Name, bench.Settings(s.Bytes)})
	}
	return docs
}

// benchInput returns doc in a form agent a edits: the Claude settings
// shape as it is, or (for agents whose shared file takes no other top-level
// key) with only its hooks. ok is false when the agent takes neither.
func benchInput(tg adapters.Target, doc []byte) ([]byte, bool) {
	if tg.Adapter.Own {
		return nil, true
	}
	for _, d := range [][]byte{doc, hooksOnly(doc)} {
		if d == nil {
			continue
		}
		if _, err := tg.Adapter.Check(tg, d, nil); err != nil {
			continue
		}
		if _, err := tg.Adapter.Add(tg, d, nil, false); err == nil {
			return d, true
		}
	}
	return nil, false
}

// hooksOnly keeps only the "hooks" member of a settings document.
func hooksOnly(doc []byte) []byte {
	root, err := jsonedit.ParseObject(doc)
	if err != nil {
		return nil
	}
	h := root.Get("hooks")
	if !h.Exists() {
		return nil
	}
	return []byte("{\n  \"hooks\": " + h.Raw + "\n}\n")
}

func benchTargets(b *testing.B) []adapters.Target {
	var ts []adapters.Target
	for _, a := range adapters.All() {
		tg, err := adapters.Resolve(a.ID, adapters.Options{NS: "hookinstall", Home: "/home/u"})
		if err != nil {
			b.Fatal(err)
		}
		ts = append(ts, tg)
	}
	return ts
}

// BenchmarkAdd measures each adapter's PlanAdd (Check and Add, as the writer
// runs them) on a typical config and on the 1 MB and 10 MB ones.
func BenchmarkAdd(b *testing.B) {
	for _, tg := range benchTargets(b) {
		for _, d := range benchDocs() {
			b.Run(tg.ID+"/"+d.name, func(b *testing.B) {
				in, ok := benchInput(tg, d.doc)
				if !ok {
					b.Skip("the agent takes no file of this shape")
				}
				if tg.Adapter.Own && d.name != "small" {
					b.Skip("the agent's file is ours alone: its size does not grow")
				}
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				files := map[string][]byte{tg.Adapter.File(tg): in}
				for b.Loop() {
					if _, err := tg.Adapter.PlanAdd(tg, adapters.PlanInput{Files: files}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRemove measures each adapter's PlanRemove of its own entries
// (the surgical path: the file changed since the install, so the backup
// cannot be restored) on the same documents.
func BenchmarkRemove(b *testing.B) {
	for _, tg := range benchTargets(b) {
		for _, d := range benchDocs() {
			b.Run(tg.ID+"/"+d.name, func(b *testing.B) {
				in, ok := benchInput(tg, d.doc)
				if !ok {
					b.Skip("the agent takes no file of this shape")
				}
				if tg.Adapter.Own && d.name != "small" {
					b.Skip("the agent's file is ours alone: its size does not grow")
				}
				ed, err := tg.Adapter.Add(tg, in, nil, false)
				if err != nil {
					b.Fatal(err)
				}
				rec := &adapters.Record{Entries: ed.Entries, Created: ed.Created}
				added := ed.Doc
				if out, err := tg.Adapter.Remove(tg, added, rec, false); err != nil {
					b.Fatal(err)
				} else if !tg.Adapter.Own && !bytes.Equal(out.Doc, in) {
					b.Fatal("remove did not give back the original")
				}
				b.SetBytes(int64(len(added)))
				b.ReportAllocs()
				cfg := tg.Adapter.File(tg)
				pin := adapters.PlanInput{Files: map[string][]byte{cfg: added}, Records: map[string]*adapters.Record{cfg: rec}}
				for b.Loop() {
					if _, err := tg.Adapter.PlanRemove(tg, pin); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
