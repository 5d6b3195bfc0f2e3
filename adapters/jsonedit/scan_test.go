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
	ix, ok := scan(doc, true)
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
