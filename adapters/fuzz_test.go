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
)

// allCorpusFiles lists every file of both corpora (valid and malformed,
// every agent's): all of it is interesting input for any adapter.
func allCorpusFiles(t testing.TB) []string {
	t.Helper()
	return corpusGlob(t, filepath.Join("*", "*.json"))
}

// FuzzSharedAddRemove checks every agent of the registry that edits a file
// it shares with the user, each with the round trip of its shape
// (roundTripOf): for every input x without entries of ours that the agent
// would run, Remove(Add(x)) == x byte for byte, also with a second
// namespace installed after it and either removed first; Add is
// idempotent (with and without the manifest's record); the output is
// what the agent parses; every value of the user's is unchanged; Add
// never gains the file an event the agent does not install (Letta takes a
// PermissionRequest hook that exits 0 as the user's approval). On any
// input, nothing panics and invalid input is refused.
//
// The first argument picks the agent (modulo their number), so the fuzzer
// moves between them; HOOKINSTALL_FUZZ_AGENT=<agent> fuzzes that one only
// (make fuzz runs it once per agent). Seeds: every corpus file for the
// JSON shapes (testdata/corpus, and ../shared/corpus when it is there),
// kimi's samples for TOML, and each agent's crash configs
// (adapters/testdata/agents/<agent>.json).
func FuzzSharedAddRemove(f *testing.F) {
	tgs := fuzzTargets(f, os.Getenv("HOOKINSTALL_FUZZ_AGENT"))
	for i, tg := range tgs {
		for _, x := range fuzzSeeds(f, tg) {
			f.Add(uint8(i), x)
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, x []byte) {
		tg := tgs[int(i)%len(tgs)]
		check, ok := roundTripOf(tg)
		if !ok {
			t.Fatalf("%s: no round trip for its format %T", tg.ID, tg.Adapter.Format)
		}
		check(t, tg, x)
		checkNoForeignEvents(t, tg, x)
	})
}

// fuzzTargets are the shared-file agents of the registry (only, when set,
// the one named).
func fuzzTargets(t testing.TB, only string) []Target {
	var tgs []Target
	for _, a := range All() {
		if a.Own || only != "" && a.ID != only {
			continue
		}
		tgs = append(tgs, testTarget(t, a.ID, "/home/u"))
	}
	if len(tgs) == 0 {
		t.Fatalf("HOOKINSTALL_FUZZ_AGENT=%s: no agent of that name shares its file with the user", only)
	}
	return tgs
}

// roundTripOf is the round-trip check for tg's shape, false for a shape
// that has none yet (a new shape needs one: TestFuzzTargetsCoverEveryAgent).
func roundTripOf(tg Target) (func(*testing.T, Target, []byte), bool) {
	switch tg.Adapter.Format.(type) {
	case HookMap, NamedSet:
		return checkSharedRoundTrip, true
	case TOMLHooks:
		return checkTOMLRoundTrip, true
	}
	return nil, false
}

// fuzzSeeds are the seeds for tg's shape, and its crash configs.
func fuzzSeeds(t testing.TB, tg Target) [][]byte {
	var out [][]byte
	if _, toml := tg.Adapter.Format.(TOMLHooks); toml {
		for _, b := range kimiSamples(t) {
			out = append(out, b)
		}
		for _, s := range []string{"a = 1", "[t]\n", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"", "x = '''\n[[hooks]]\n'''\n", "\r\n", "#", "hooks = [\n# c ]\n]\nx = 1", "s = \"\"\"\nhooks = []\n\"\"\"\nhooks = []\n"} {
			out = append(out, []byte(s))
		}
	} else {
		out = jsonSeeds(t)
	}
	if c := agentFacts(t, tg.Adapter.ID).Crash; c != nil {
		out = append(out, []byte(c.Existing), []byte(c.Linked))
	}
	return out
}

// jsonSeeds are every corpus file, plus a few shapes the corpus lacks.
func jsonSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, file := range allCorpusFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for _, s := range []string{
		`{}`, "{\n}\n", `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, "{\r\n\t\"hooks\": {\r\n\t}\r\n}",
		`{"a":1,"a":2}`, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"hooks":{"Stop":[{"hooks":[]}],"Other":{}}}`, `{"x":"\u00e9\ud83d\ude00","y":[1e400,-0.0]}`,
		"{\n  // a comment\n  \"hooks\": {}\n}\n", `{"hooksConfig":{"enabled":false}}`, `{"disableAllHooks":true}`,
		`{"hooksConfig":{"disabled":["hookinstall-after-agent"]}}`, `{"$version":4,"tools":{"approvalMode":"default"}}`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// checkNoForeignEvents: Add never gains the file an event the agent does
// not install (an event of another agent's, quoted as a key or value is).
func checkNoForeignEvents(t *testing.T, tg Target, x []byte) {
	ed, err := tg.Adapter.Add(tg, x, nil, false)
	if err != nil {
		return
	}
	ours := map[string]bool{}
	for _, e := range tg.Adapter.Events() {
		ours[e.Event] = true
	}
	for _, a := range All() {
		for _, e := range a.Events() {
			if ours[e.Event] {
				continue
			}
			q := []byte(`"` + e.Event + `"`)
			if n, m := bytes.Count(x, q), bytes.Count(ed.Doc, q); m != n {
				t.Fatalf("%s: Add took %s from %d to %d occurrences:\n%s", tg.ID, q, n, m, ed.Doc)
			}
		}
	}
}

// checkTOMLRoundTrip: for every config.toml add accepts (Kimi's shape),
// the result is what the agent reads plus our entries, a second add is
// byte-identical, and remove gives the input back byte for byte, also with
// a second namespace installed after it and either removed first.
func checkTOMLRoundTrip(t *testing.T, tg Target, orig []byte) {
	if bytes.Contains(orig, []byte(tg.Prefix())) {
		return
	}
	if _, err := tg.Adapter.Check(tg, orig, nil); err != nil {
		return
	}
	ed, err := tg.Adapter.Add(tg, orig, nil, false)
	if err != nil {
		return // refused, with a reason; nothing written
	}
	kimiOurs(t, tg, orig, ed.Doc)
	rec := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
	again, err := tg.Adapter.Add(tg, ed.Doc, rec, false)
	if err != nil || !bytes.Equal(again.Doc, ed.Doc) {
		t.Fatalf("second add changed the file (%v)", err)
	}
	rm, err := tg.Adapter.Remove(tg, ed.Doc, rec, false)
	if err != nil || !bytes.Equal(rm.Doc, orig) {
		t.Fatalf("remove did not restore %q: %v\n%q", orig, err, rm.Doc)
	}
	checkNamespacesRoundTrip(t, tg, orig, ed)
}

// checkSharedRoundTrip is the round trip of the JSON shapes (HookMap,
// NamedSet).
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
	if _, named := tg.Adapter.Format.(NamedSet); named {
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
	path := a.File(tA)
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

// TestFuzzTargetsCoverEveryAgent: FuzzSharedAddRemove takes every agent
// of the registry that shares its config with the user, and has a round
// trip and seeds for each (an agent of a new shape fails here until its
// shape has a round trip in roundTripOf). It lists them for make fuzz,
// which fuzzes each one alone as well (HOOKINSTALL_FUZZ_AGENT).
func TestFuzzTargetsCoverEveryAgent(t *testing.T) {
	tgs := fuzzTargets(t, "")
	n := 0
	for _, a := range All() {
		if !a.Own {
			n++
		}
	}
	if len(tgs) != n || n < 9 {
		t.Fatalf("FuzzSharedAddRemove takes %d agents; the registry has %d that share their file with the user", len(tgs), n)
	}
	for _, tg := range tgs {
		if _, ok := roundTripOf(tg); !ok {
			t.Errorf("%s shares its config with the user, but FuzzSharedAddRemove has no round trip for its format %T (see roundTripOf)", tg.ID, tg.Adapter.Format)
		}
		if len(fuzzSeeds(t, tg)) < 10 {
			t.Errorf("%s: only %d fuzz seeds", tg.ID, len(fuzzSeeds(t, tg)))
		}
		t.Logf("fuzz agent: %s", tg.ID)
	}
}
