package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"go/ast"
	"go/parser"
	"go/token"
)

// allCorpusFiles lists every file of both corpora (valid and malformed,
// every agent's): all of it is interesting input for any adapter.
func allCorpusFiles(t testing.TB) []string {
	t.Helper()
	return corpusGlob(t, filepath.Join("*", "*.json"))
}

// seedCorpus adds every corpus file, plus a few shapes the corpus lacks.
func seedCorpus(f *testing.F) {
	for _, file := range allCorpusFiles(f) {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{}`, "{\n}\n", `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, "{\r\n\t\"hooks\": {\r\n\t}\r\n}",
		`{"a":1,"a":2}`, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"hooks":{"Stop":[{"hooks":[]}],"Other":{}}}`, `{"x":"\u00e9\ud83d\ude00","y":[1e400,-0.0]}`,
		"{\n  // a comment\n  \"hooks\": {}\n}\n", `{"hooksConfig":{"enabled":false}}`, `{"disableAllHooks":true}`,
		`{"hooksConfig":{"disabled":["hookinstall-after-agent"]}}`, `{"$version":4,"tools":{"approvalMode":"default"}}`,
	} {
		f.Add([]byte(s))
	}
}

// FuzzClaudeAddRemove checks the shared-file splicer on claude's
// settings.json: for every strict JSON object x without entries of ours,
// Remove(Add(x)) == x byte for byte; Add is idempotent (with and without the
// manifest's record); the output is valid JSON; every value of the user's is
// unchanged. On any input, nothing panics and invalid input is refused.
func FuzzClaudeAddRemove(f *testing.F) { fuzzShared(f, "claude") }

// FuzzZerocodeAddRemove is the same for ZeroCode's ~/.zerotwo/hooks.json.
func FuzzZerocodeAddRemove(f *testing.F) { fuzzShared(f, "zerocode") }

// FuzzCodexAddRemove is the same for Codex's ~/.codex/hooks.json.
func FuzzCodexAddRemove(f *testing.F) { fuzzShared(f, "codex") }

// FuzzAntigravityAddRemove is the same for Antigravity's
// ~/.gemini/config/hooks.json, where we own one top-level key.
func FuzzAntigravityAddRemove(f *testing.F) { fuzzShared(f, "antigravity") }

// FuzzGeminiAddRemove is the same for Gemini CLI's ~/.gemini/settings.json
// (named handlers, millisecond timeouts).
func FuzzGeminiAddRemove(f *testing.F) { fuzzShared(f, "gemini") }

// FuzzQwenAddRemove is the same for Qwen Code's ~/.qwen/settings.json.
func FuzzQwenAddRemove(f *testing.F) { fuzzShared(f, "qwen") }

// FuzzLettaAddRemove is the same for Letta Code's ~/.letta/settings.json,
// and Add never gains the file a PermissionRequest (Letta takes one that
// exits 0 as the user's approval).
func FuzzLettaAddRemove(f *testing.F) {
	seedCorpus(f)
	tg := testTarget(f, "letta", "/home/u")
	f.Fuzz(func(t *testing.T, x []byte) {
		checkSharedRoundTrip(t, tg, x)
		if ed, err := tg.Adapter.Add(tg, x, nil, false); err == nil {
			if n, m := bytes.Count(x, []byte("PermissionRequest")), bytes.Count(ed.Doc, []byte("PermissionRequest")); m != n {
				t.Fatalf("Add took PermissionRequest from %d to %d occurrences:\n%s", n, m, ed.Doc)
			}
		}
	})
}

// FuzzDroidAddRemove is the same for Factory Droid's ~/.factory/settings.json.
// Gemini CLI, Qwen Code and droid read JSONC: for them x may hold comments,
// which must come out of Add and of Remove exactly as they went in.
func FuzzDroidAddRemove(f *testing.F) { fuzzShared(f, "droid") }

func fuzzShared(f *testing.F, agent string) {
	seedCorpus(f)
	tg := testTarget(f, agent, "/home/u")
	if tg.Adapter.OwnFile() {
		f.Fatalf("%s writes its own file, not a shared one", agent)
	}
	f.Fuzz(func(t *testing.T, x []byte) {
		checkSharedRoundTrip(t, tg, x)
	})
}

func checkSharedRoundTrip(t *testing.T, tg Target, x []byte) {
	a := tg.Adapter
	orig := bytes.Clone(x)
	jsonc := a.ReadsComments
	parse, plain := jsonedit.ParseObject, func(b []byte) []byte { return b }
	if jsonc {
		parse, plain = jsonedit.ParseJSONC, jsonedit.Blank
	}
	_, perr := parse(x)
	if perr == nil {
		if _, err := a.Check(tg, x, nil); err != nil {
			return // the writer refuses this file (switched off, strict root...)
		}
	}
	ed, err := a.Add(tg, x, nil, false)
	if !bytes.Equal(x, orig) {
		t.Fatal("Add modified its input slice")
	}
	if perr != nil && !jsonedit.IsBlank(x) {
		if err == nil {
			t.Fatalf("Add accepted input that the agent's parse refuses (%v):\n%q", perr, ed.Doc)
		}
		return
	}
	if err != nil {
		var se *jsonedit.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Add failed with %T, not a *SyntaxError: %v", err, err)
		}
		return // a shape the agent would not run (dup keys, wrong types): refused
	}
	if !json.Valid(plain(ed.Doc)) {
		t.Fatalf("Add produced invalid JSON from %q:\n%q", x, ed.Doc)
	}
	if _, err := parse(ed.Doc); err != nil {
		t.Fatalf("Add produced a document the agent's parse refuses (%v):\n%q", err, ed.Doc)
	}
	if jsonc && !reflect.DeepEqual(jsonedit.CommentsOf(ed.Doc), jsonedit.CommentsOf(x)) {
		t.Fatalf("Add changed the comments:\n%q\n%q", x, ed.Doc)
	}
	rec := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
	again, err := a.Add(tg, ed.Doc, rec, false)
	if err != nil || !bytes.Equal(again.Doc, ed.Doc) {
		t.Fatalf("second Add (with record) is not a no-op (err %v):\nfirst  %q\nsecond %q", err, ed.Doc, again.Doc)
	}
	again, err = a.Add(tg, ed.Doc, nil, false)
	if err != nil || !bytes.Equal(again.Doc, ed.Doc) {
		t.Fatalf("second Add (no manifest) is not a no-op (err %v):\nfirst  %q\nsecond %q", err, ed.Doc, again.Doc)
	}
	if jsonedit.IsBlank(x) {
		// a new file: the writer deletes it on removal, whichever
		// namespace leaves last
		checkNamespacesRoundTrip(t, tg, x, ed)
		return
	}
	// Does x already hold entries of ours? Then it is not a pure user file.
	strip, err := a.Remove(tg, x, nil, true)
	if err != nil {
		t.Fatalf("Remove refused what Add accepted: %v", err)
	}
	if !strip.Delete && !bytes.Equal(strip.Doc, x) {
		return
	}
	if tg.Adapter.Name() == "antigravity" {
		checkOwnKey(t, tg, x, ed.Doc)
	} else {
		checkUserValues(t, tg, plain(x), plain(ed.Doc))
	}
	rm, err := a.Remove(tg, ed.Doc, rec, false)
	if err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if rm.Delete || !bytes.Equal(rm.Doc, x) {
		t.Fatalf("Remove(Add(x)) != x\nx:      %q\nadd:    %q\nremove: %q (delete %v)", x, ed.Doc, rm.Doc, rm.Delete)
	}
	checkNamespacesRoundTrip(t, tg, x, ed)
}

// checkNamespacesRoundTrip: x installed in tA's namespace (edA), then in a
// second one (which adopts what the first created, as the writer does),
// comes back byte for byte whichever namespace is removed first, each
// removal taking only its own entries (no exact restore); a blank x (a file
// the first install created) is deleted by the last removal.
func checkNamespacesRoundTrip(t *testing.T, tA Target, x []byte, edA Edit) {
	a := tA.Adapter
	tB := tA
	tB.NS = "termic"
	if s, err := a.Remove(tB, x, nil, true); err != nil || !s.Delete && !bytes.Equal(s.Doc, x) {
		return // x holds the second namespace's entries already
	}
	created := jsonedit.IsBlank(x)
	recA := &Record{Entries: edA.Entries, Created: edA.Created, Emptied: edA.Emptied, CreatedFile: created}
	edB, err := a.Add(tB, edA.Doc, nil, false)
	if err != nil {
		t.Fatalf("Add in a second namespace refused what the first wrote: %v\n%q", err, edA.Doc)
	}
	edB = Adopt(edB, []*Record{recA})
	recB := &Record{Entries: edB.Entries, Created: edB.Created, Emptied: edB.Emptied}
	path := a.Config(tA)
	remove := func(tg Target, doc []byte, rec *Record) ([]byte, bool) {
		p, err := a.PlanRemove(tg, PlanInput{Files: map[string][]byte{path: doc}, Records: map[string]*Record{path: rec}})
		if err != nil || len(p.Edits) != 1 {
			t.Fatalf("PlanRemove(%s) = %+v, %v on\n%q", tg.NS, p, err, doc)
		}
		return p.Edits[0].Doc, p.Edits[0].Delete
	}
	for _, order := range [][2]struct {
		t   Target
		rec *Record
	}{{{tA, recA}, {tB, recB}}, {{tB, recB}, {tA, recA}}} {
		doc, del := remove(order[0].t, edB.Doc, order[0].rec)
		if del {
			t.Fatalf("removing %s first deleted the file that %s's entries are in", order[0].t.NS, order[1].t.NS)
		}
		out, del := remove(order[1].t, doc, order[1].rec)
		switch {
		case created && !del:
			t.Fatalf("%s then %s: the file the first install created was left: %q", order[0].t.NS, order[1].t.NS, out)
		case !created && (del || !bytes.Equal(out, x)):
			t.Fatalf("%s then %s: not x again\nx:      %q\nadd:    %q\nadd 2:  %q\nremove: %q\nremove: %q (delete %v)",
				order[0].t.NS, order[1].t.NS, x, edA.Doc, edB.Doc, doc, out, del)
		}
	}
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return v
}

// checkUserValues: after holds every value of before unchanged, and besides
// them only our entries, appended once to each of our events' arrays (and
// the containers holding them).
func checkUserValues(t *testing.T, tg Target, before, after []byte) {
	t.Helper()
	b, _ := decodeNumbers(t, before).(map[string]any)
	a, _ := decodeNumbers(t, after).(map[string]any)
	for k, v := range b {
		if k == "hooks" {
			continue
		}
		if !reflect.DeepEqual(a[k], v) {
			t.Fatalf("value of %q changed: %v -> %v", k, v, a[k])
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && k != "hooks" {
			t.Fatalf("Add added top-level key %q", k)
		}
	}
	ah, _ := a["hooks"].(map[string]any)
	bh, hadHooks := b["hooks"].(map[string]any)
	if _, present := b["hooks"]; present && !hadHooks {
		t.Fatalf("Add accepted a non-object hooks")
	}
	ours := map[string]bool{}
	for _, e := range tg.Adapter.Events() {
		ours[e.Event] = true
	}
	for ev, v := range bh {
		if !ours[ev] {
			if !reflect.DeepEqual(ah[ev], v) {
				t.Fatalf("hooks.%s changed", ev)
			}
			continue
		}
		old, _ := v.([]any)
		now, _ := ah[ev].([]any)
		if len(now) != len(old)+1 || !reflect.DeepEqual(now[:len(old)], old) {
			t.Fatalf("hooks.%s: user entries changed or ours not appended once:\n%v\n%v", ev, old, now)
		}
	}
	for ev := range ours {
		arr, _ := ah[ev].([]any)
		n := 0
		for _, g := range arr {
			s, _ := json.Marshal(g)
			if strings.Contains(string(s), tg.Prefix()) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("hooks.%s holds %d entries of ours, want 1", ev, n)
		}
	}
	for ev := range ah {
		if _, ok := bh[ev]; !ok && !ours[ev] {
			t.Fatalf("Add added hooks.%s", ev)
		}
	}
}

// checkOwnKey: after holds every top-level value of before unchanged, plus
// our one named hook set (Antigravity).
func checkOwnKey(t *testing.T, tg Target, before, after []byte) {
	t.Helper()
	b, _ := decodeNumbers(t, before).(map[string]any)
	a, _ := decodeNumbers(t, after).(map[string]any)
	for k, v := range b {
		if !reflect.DeepEqual(a[k], v) {
			t.Fatalf("value of %q changed: %v -> %v", k, v, a[k])
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && k != tg.NS {
			t.Fatalf("Add added top-level key %q", k)
		}
	}
	if _, ok := a[tg.NS].(map[string]any); !ok {
		t.Fatalf("our hook set %q is missing or not an object", tg.NS)
	}
}

// TestFuzzTargetsCoverEveryAgent: every agent that edits a file it shares
// with the user (from the registry) has its round-trip fuzz target,
// Fuzz<Agent>AddRemove, in this package's tests; make fuzz runs every
// Fuzz target the packages list, so a new agent's target is fuzzed there
// too, and a forgotten one fails here.
func TestFuzzTargetsCoverEveryAgent(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*_test.go")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	targets := map[string]bool{}
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Fuzz") {
				targets[fd.Name.Name] = true
			}
		}
	}
	n := 0
	for _, a := range All() {
		if a.Own {
			continue
		}
		n++
		if name := "Fuzz" + strings.ToUpper(a.ID[:1]) + a.ID[1:] + "AddRemove"; !targets[name] {
			t.Errorf("%s shares its config with the user but has no fuzz target %s (see fuzzShared)", a.ID, name)
		}
	}
	if n < 8 {
		t.Fatalf("only %d shared-file agents in the registry", n)
	}
}
