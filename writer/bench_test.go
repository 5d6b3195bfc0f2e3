package writer_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/bench"
	"github.com/hookinstall/hookinstall/writer"
)

// The writer benchmarks run the whole add and remove of Claude's hooks on
// disk (validation, lock, backup, scripts, manifest, fsync and rename) on a
// typical settings.json and on the 1 MB and 10 MB ones. Each iteration
// uses one of five variants of the document (trailing newlines), so no
// cache of earlier bytes can save an iteration the work that a fresh
// process does.

// variant returns doc with i%5 more trailing newlines.
func variant(doc []byte, i int) []byte {
	return append(append([]byte(nil), doc...), bytes.Repeat([]byte("\n"), i%5)...)
}

func benchWriterDocs() []struct {
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

func benchSetup(b *testing.B, doc []byte) (adapters.Target, *writer.Writer, string) {
	b.Helper()
	home := filepath.Join(b.TempDir(), "home")
	tg, err := adapters.Resolve("claude", adapters.Options{NS: "hookinstall", Home: home, SystemRoot: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	cfg := tg.Adapter.File(tg)
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(cfg, doc, 0o644); err != nil {
		b.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	w := writer.New(writer.Options{Now: now, Getenv: func(string) string { return "" }})
	return tg, w, cfg
}

func benchMust(b *testing.B, r writer.Report, status adapters.Status) {
	b.Helper()
	if r.Err != nil || r.Status != status {
		b.Fatalf("%s: status %q, want %q: %v", r.Agent, r.Status, status, r.Err)
	}
}

// BenchmarkWriterAdd measures one add (the remove that resets it is not
// timed).
func BenchmarkWriterAdd(b *testing.B) {
	for _, d := range benchWriterDocs() {
		b.Run("claude/"+d.name, func(b *testing.B) {
			tg, w, cfg := benchSetup(b, d.doc)
			b.SetBytes(int64(len(d.doc)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				b.StopTimer()
				i++
				if err := os.WriteFile(cfg, variant(d.doc, i), 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				benchMust(b, w.Add(context.Background(), tg), "installed")
				b.StopTimer()
				benchMust(b, w.Remove(context.Background(), tg), "removed")
				b.StartTimer()
			}
		})
	}
}

// BenchmarkWriterRemove measures one remove: "restore" when the file still
// holds what add wrote (the backup is put back), "edited" when it changed
// since (our entries are cut out of it).
func BenchmarkWriterRemove(b *testing.B) {
	for _, d := range benchWriterDocs() {
		for _, mode := range []string{"restore", "edited"} {
			b.Run("claude/"+d.name+"/"+mode, func(b *testing.B) {
				tg, w, cfg := benchSetup(b, d.doc)
				b.SetBytes(int64(len(d.doc)))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					b.StopTimer()
					i++
					if err := os.WriteFile(cfg, variant(d.doc, i), 0o644); err != nil {
						b.Fatal(err)
					}
					benchMust(b, w.Add(context.Background(), tg), "installed")
					if mode == "edited" {
						f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
						if err != nil {
							b.Fatal(err)
						}
						_, err = f.WriteString("\n")
						if cerr := f.Close(); err == nil {
							err = cerr
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					benchMust(b, w.Remove(context.Background(), tg), "removed")
				}
			})
		}
	}
}

// BenchmarkWriterAddRemove measures the pair, as `make bench` runs it.
func BenchmarkWriterAddRemove(b *testing.B) {
	for _, d := range benchWriterDocs() {
		b.Run("claude/"+d.name, func(b *testing.B) {
			tg, w, cfg := benchSetup(b, d.doc)
			b.SetBytes(int64(len(d.doc)))
			b.ReportAllocs()
			i := 0
			var want []byte
			for b.Loop() {
				b.StopTimer()
				i++
				want = variant(d.doc, i)
				if err := os.WriteFile(cfg, want, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				benchMust(b, w.Add(context.Background(), tg), "installed")
				benchMust(b, w.Remove(context.Background(), tg), "removed")
			}
			got, err := os.ReadFile(cfg)
			if err != nil || !bytes.Equal(got, want) {
				b.Fatalf("settings.json is not back byte for byte (%v)", err)
			}
		})
	}
}
