package jsonedit

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/bench"
)

// fastDocs are documents for the comparisons of addFast with the general
// path: shapes the one pass takes and shapes it must leave (our entries
// in the map, escapes, duplicates, wrong types, a missing map, comments
// and BOMs), every corpus file, and the generated large settings.json.
func fastDocs(t testing.TB) [][]byte {
	canon := ours("Stop")
	docs := [][]byte{
		[]byte(`{"hooks":{"Stop":[{"hooks":[]}],"Other":[]}}`),
		[]byte("{\n  \"hooks\": {\n    \"Stop\": [],\n    \"UserPromptSubmit\": [ ]\n  }\n}\n"),
		[]byte("{\n  \"hooks\": {\n    \"PermissionRequest\": [\n    ]\n  }\n}"),
		[]byte(`{"hooks":{}}`),
		[]byte(`{"hooks":{ }}`),
		[]byte("{\"hooks\":{\n}}"),
		[]byte(`{"hooks":{"UserPromptSubmit":[{"hooks":[]}],"PermissionRequest":[],"Stop":[{"hooks":[]},{"hooks":[]}]}}`),
		[]byte("{\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": []}\n\t\t],\n\t\t\"PermissionRequest\": [],\n\t\t\"UserPromptSubmit\": [ ]\n\t}\n}\n"),
		[]byte("{\r\n  \"hooks\": {\r\n    \"Stop\": [1],\r\n    \"PermissionRequest\": [2, 3]\r\n  }\r\n}\r\n"),
		[]byte(`{"a":1,"hooks":{"Stop":[` + canon + `]}}`),
		[]byte(`{"a":1,"hooks":{"Stop":[{"command":"\u002fhome"}],"UserPromptSubmit":[],"PermissionRequest":[]}}`),
		[]byte(`{"a":1,"hooks":{"Stop":[{"command":"\/home"}],"UserPromptSubmit":[],"PermissionRequest":[]}}`),
		[]byte(`{"a":"\\u","hooks":{"Stop":[],"UserPromptSubmit":[],"PermissionRequest":[]}}`),
		[]byte(`{"hooks":{"Stop":[` + strings.ReplaceAll(canon, "/", `\/`) + `],"UserPromptSubmit":[],"PermissionRequest":[]}}`),
		[]byte(`{"hooks":{"Stop":[` + strings.ReplaceAll(canon, "/", `\u002f`) + `],"UserPromptSubmit":[],"PermissionRequest":[]}}`),
		[]byte(`{"hooks":{"Stop":[],"Stop":[]}}`),
		[]byte(`{"hooks":{"Stop":{}}}`),
		[]byte(`{"hooks":[]}`),
		[]byte(`{"hooks":{},"hooks":{}}`),
		[]byte(`{"x":1}`),
		[]byte(`{"h\u006foks":{"Stop":[]}}`),
		[]byte(`{"hooks":{"St\u006fp":[1],"Other":[]}}`),
		[]byte("\xef\xbb\xbf{\"hooks\":{}}"),
		[]byte(`{"hooks":{}} // c`),
		[]byte(`{"hooks":{},}`),
		[]byte(`[]`),
		[]byte(`{"permissions":{"defaultMode":"auto"},"hooks":{"Stop":[]},"disableAllHooks":true}`),
		[]byte(`{"hooks":{"Stop":[]},"UserPromptSubmit":1}`),
		[]byte("{\"a\":\"\xff\",\"hooks\":{}}"),
		[]byte(`{"hooks":{"Notification":[],"SessionStart":[1,2]}}`),
		bench.Typical,
		bench.Settings(1 << 20),
	}
	for _, file := range allCorpusFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	return docs
}

// sameAdd fails t unless Add of doc through addFast (with a Parsed shared
// with CheckKeys, as a plan has) gives what the general path gives: bytes,
// record, notes, error.
func sameAdd(t testing.TB, doc []byte, prev *Record) bool {
	t.Helper()
	m := claudeMap(prev)
	m.Parsed = &Parsed{}
	get, cerr := m.CheckKeys(doc)
	got, err := m.Add(doc)
	m.noFast = true
	m.Parsed = &Parsed{}
	_, _, rms, _, _, cerr2 := m.CheckRoot(doc)
	want, err2 := m.Add(doc)
	if fmt.Sprint(err) != fmt.Sprint(err2) || fmt.Sprint(cerr) != fmt.Sprint(cerr2) {
		t.Fatalf("errors differ on %q: %v, %v (check %v, %v)", doc, err, err2, cerr, cerr2)
	}
	if cerr == nil {
		for _, k := range []string{"permissions", "disableAllHooks", "hooks", "nothing", "a"} {
			m, _ := First(rms, k)
			if g := get(k); g.Raw != m.Val.Raw || g.Index != m.Val.Index || g.Type != m.Val.Type || g.Str != m.Val.Str {
				t.Fatalf("CheckKeys(%q) = %+v, CheckRoot's %+v, on %q", k, g, m.Val, doc)
			}
		}
	}
	if !bytes.Equal(got.Doc, want.Doc) || !reflect.DeepEqual(got, want) {
		t.Fatalf("addFast differs on %q:\n%q %v %v %v\n%q %v %v %v", doc, got.Doc, got.Created, got.Emptied, got.Notes, want.Doc, want.Created, want.Emptied, want.Notes)
	}
	m.noFast = false
	return err == nil && m.addFast(doc, &Edit{})
}

// addFast gives, on every document above, what the general path gives,
// with and without a manifest record, and takes the usual ones.
func TestAddFastSameResult(t *testing.T) {
	prev := &Record{Created: []string{"hooks/Stop"}, Emptied: map[string]string{"hooks": "\n"}, Entries: map[string][]string{"Stop": {ours("Stop")}}}
	fast := 0
	docs := fastDocs(t)
	for _, doc := range docs {
		for _, rec := range []*Record{nil, prev} {
			if sameAdd(t, doc, rec) {
				fast++
			}
		}
	}
	if fast < 10 {
		t.Fatalf("addFast ran on only %d of %d cases", fast, 2*len(docs))
	}
	big := bench.Settings(1 << 20)
	if m := claudeMap(nil); !m.addFast(big, &Edit{}) {
		t.Fatal("addFast did not take the generated settings.json")
	}
}

// FuzzAddFastSameResult: on any input, addFast and the general path agree.
func FuzzAddFastSameResult(f *testing.F) {
	for _, d := range fastDocs(f) {
		if len(d) < 64<<10 {
			f.Add(d)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameAdd(t, doc, nil)
	})
}

// The scan index past its budget leaves the container out (here the event
// map, whose members it lists), and addFast then leaves the document to the
// general path.
func TestScanBudget(t *testing.T) {
	doc := []byte(`{"hooks":{` + strings.Repeat(`"E":[],`, 20000) + `"Stop":[1]}}`)
	ix, ok := scan(doc, 3)
	if !ok {
		t.Fatal("valid document refused")
	}
	if nd := ix.nodes[len(`{"hooks":`)]; nd == nil || !nd.partial || ix.node(nd.start) != nil {
		t.Fatalf("the event map is not marked partial: %+v", nd)
	}
	if claudeMap(nil).addFast(doc, &Edit{}) {
		t.Fatal("addFast took a document past the index's budget")
	}
	sameAdd(t, doc, nil)
}

// The layout the scan notes is the one detectFormat reads, on every
// document above and on white space around and inside a small one.
func TestScanFormat(t *testing.T) {
	docs := fastDocs(t)
	for _, pre := range []string{"", "\n", "  \n", "  \r\n", "\t\n", " \t{\n", "\n\n"} {
		for _, in := range []string{"", " ", "\n  ", "\r\n\t", "\n \r\n "} {
			for _, post := range []string{"", "\n", "\n  \r\n", " \t", "\r\n"} {
				body := "{" + in + `"a":` + in + "1," + in + `"hooks": {"Stop": []}` + in + "}"
				if strings.HasSuffix(pre, "{\n") {
					body = body[1:]
				}
				docs = append(docs, []byte(pre+body+post))
			}
		}
	}
	n := 0
	for _, doc := range docs {
		ix := (*Parsed)(nil).index(doc)
		if ix == nil {
			continue
		}
		n++
		var first [][3]int
		for _, k := range ix.root.kids[:min(2, len(ix.root.kids))] {
			first = append(first, [3]int{int(k.keyStart), int(k.start), int(k.end)})
		}
		if got, want := ix.format(doc, first), formatOf(doc, first); got != want {
			t.Fatalf("format %+v, detectFormat's %+v, on %q", got, want, doc)
		}
	}
	if n < 100 {
		t.Fatalf("only %d documents compared", n)
	}
}

// sameRemove fails t unless Remove of doc through removeFast gives what the
// general path gives: bytes, notes, kept, error.
func sameRemove(t testing.TB, doc []byte, prev *Record, force bool) bool {
	t.Helper()
	m := claudeMap(prev)
	m.Force = force
	m.Parsed = &Parsed{}
	if _, err := m.CheckKeys(doc); err != nil {
		return false
	}
	got, err := m.Remove(doc)
	m.noFast = true
	m.Parsed = &Parsed{}
	want, err2 := m.Remove(doc)
	if fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Fatalf("errors differ on %q: %v, %v", doc, err, err2)
	}
	if !bytes.Equal(got.Doc, want.Doc) || !reflect.DeepEqual(got.Notes, want.Notes) || got.Kept != want.Kept || got.Delete != want.Delete {
		t.Fatalf("removeFast differs on %q (force %v):\n%q %q %v\n%q %q %v", doc, force, got.Doc, got.Notes, got.Kept, want.Doc, want.Notes, want.Kept)
	}
	m.noFast = false
	return err == nil && !bytes.Equal(got.Doc, doc) && m.removeFast(doc, &Edit{})
}

// removeDocs are documents for Remove: each document add accepts, after
// add, and entries of ours edited by hand, repeated, mixed with the user's
// or escaped, around the one a removal takes out.
func removeDocs(t testing.TB) [][]byte {
	stop := P + "stop.sh"
	canon := ours("Stop")
	edited := `{"hooks":[{"type":"command","command":"` + stop + `","timeout":9}]}`
	mixed := `{"hooks":[{"type":"command","command":"` + stop + `","timeout":5},{"type":"command","command":"echo"}]}`
	user := `{"hooks":[{"type":"command","command":"echo"}]}`
	docs := [][]byte{
		[]byte(`{"hooks":{"Stop":[` + edited + `,` + user + `,` + canon + `]}}`),
		[]byte(`{"hooks":{"Stop":[` + canon + `,` + user + `,` + edited + `],"Other":[` + edited + `]}}`),
		[]byte("{\n  \"hooks\": {\n    \"Stop\": [\n      " + user + ",\n      " + canon + "\n    ]\n  }\n}\n"),
		[]byte(`{"hooks":{"Stop":[` + canon + `]}}`),
		[]byte(`{"hooks":{"Stop":[` + canon + `,` + canon + `,` + user + `]}}`),
		[]byte(`{"hooks":{"Stop":[` + mixed + `,` + canon + `,` + user + `]}}`),
		[]byte(`{"hooks":{"Stop":[` + user + `,` + strings.ReplaceAll(canon, "/", `\/`) + `]}}`),
		[]byte(`{"hooks":{"Stop":[` + user + `,` + canon + `],"Stop":[]}}`),
		[]byte(`{"hooks":{"Other":[` + user + `,` + canon + `],"Other":{}}}`),
		[]byte(`{"hooks":{"Stop":[` + user + `]}}`),
		[]byte(`{"x":1}`),
	}
	for _, d := range fastDocs(t) {
		if ed, err := claudeMap(nil).Add(d); err == nil && !IsBlank(d) {
			docs = append(docs, ed.Doc, append(bytes.Clone(ed.Doc), '\n'))
		}
	}
	return docs
}

// removeFast gives, on every document above, what the general path
// gives, with and without a manifest record and --force, and takes the
// usual removals (the 1 MB file after add among them).
func TestRemoveFastSameResult(t *testing.T) {
	rec := &Record{Entries: map[string][]string{"Stop": {Compact(claudeMap(nil).Want[2].Entry)}}}
	fast := 0
	docs := removeDocs(t)
	for _, doc := range docs {
		for _, prev := range []*Record{nil, rec} {
			for _, force := range []bool{false, true} {
				if sameRemove(t, doc, prev, force) {
					fast++
				}
			}
		}
	}
	if fast < 20 {
		t.Fatalf("removeFast ran on only %d of %d cases", fast, 4*len(docs))
	}
	ed, err := claudeMap(nil).Add(bench.Settings(1 << 20))
	if err != nil || !claudeMap(nil).removeFast(ed.Doc, &Edit{}) {
		t.Fatalf("removeFast did not take the generated settings.json after add (%v)", err)
	}
}

// FuzzRemoveFastSameResult: on any input, removeFast and the general path
// agree.
func FuzzRemoveFastSameResult(f *testing.F) {
	for _, d := range removeDocs(f) {
		if len(d) < 64<<10 {
			f.Add(d, false)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, force bool) {
		rec := &Record{Entries: map[string][]string{"Stop": {Compact(claudeMap(nil).Want[2].Entry)}}}
		sameRemove(t, doc, nil, force)
		sameRemove(t, doc, rec, force)
	})
}

// BenchmarkScan measures the scan (validation and index) of the generated
// 10 MB settings.json, the bulk of a large add's work.
func BenchmarkScan(b *testing.B) {
	doc := bench.Settings(10 << 20)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, ok := scan(doc, 3); !ok {
			b.Fatal("refused")
		}
	}
}
