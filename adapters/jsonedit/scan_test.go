package jsonedit

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/bench"
)

// mapDocs are documents for the checks of Add and Remove below: the usual
// shapes and the ones that need a look inside (our entries in the map,
// escapes, duplicates, wrong types, a missing map, comments and BOMs),
// every corpus file, and the generated 1 MB settings.json.
func mapDocs(t testing.TB) [][]byte {
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
		[]byte(`{"hooks":{` + strings.Repeat(`"E":[],`, 20000) + `"Stop":[1]}}`),
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
	for _, d := range mapDocs(t) {
		if ed, err := claudeMap(nil).Add(d); err == nil && !IsBlank(d) {
			docs = append(docs, ed.Doc, append(bytes.Clone(ed.Doc), '\n'))
		}
	}
	return docs
}

// checkAddRemove fails t unless, on doc: Add is idempotent (with and
// without its record), Remove(Add(doc)) is doc byte for byte when doc holds
// nothing of ours, Remove (with and without a record, with and without
// --force) makes valid JSON or says why not, and a second Remove changes
// nothing more.
func checkAddRemove(t testing.TB, doc []byte) {
	t.Helper()
	rec := &Record{Entries: map[string][]string{"Stop": {Compact(claudeMap(nil).Want[2].Entry)}}}
	for _, prev := range []*Record{nil, rec} {
		for _, force := range []bool{false, true} {
			m := claudeMap(prev)
			m.Force = force
			rm, err := m.Remove(doc)
			if err != nil {
				continue
			}
			if !IsBlank(rm.Doc) && !validJSON(rm.Doc) {
				t.Fatalf("Remove made invalid JSON of %q:\n%q", doc, rm.Doc)
			}
			again, err := m.Remove(rm.Doc)
			if err != nil || !bytes.Equal(again.Doc, rm.Doc) {
				t.Fatalf("second Remove not a no-op (%v) on %q:\n%q\n%q", err, doc, rm.Doc, again.Doc)
			}
		}
	}
	ed, err := claudeMap(nil).Add(doc)
	if err != nil {
		return
	}
	if !validJSON(ed.Doc) {
		t.Fatalf("Add made invalid JSON of %q:\n%q", doc, ed.Doc)
	}
	r := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
	for _, prev := range []*Record{nil, r} {
		if again, err := claudeMap(prev).Add(ed.Doc); err != nil || !bytes.Equal(again.Doc, ed.Doc) {
			t.Fatalf("second Add not a no-op (%v) on %q:\n%q\n%q", err, doc, ed.Doc, again.Doc)
		}
	}
	if strip, err := claudeMap(nil).Remove(doc); err != nil || !bytes.Equal(strip.Doc, doc) {
		return // doc holds ours already
	}
	if rm, err := claudeMap(r).Remove(ed.Doc); err != nil || !bytes.Equal(rm.Doc, doc) {
		t.Fatalf("Remove(Add(x)) != x (%v)\nx:      %q\nremove: %q", err, doc, rm.Doc)
	}
}

// TestAddRemoveDocs: checkAddRemove on every document above.
func TestAddRemoveDocs(t *testing.T) {
	for _, doc := range append(mapDocs(t), removeDocs(t)...) {
		checkAddRemove(t, doc)
	}
}

// FuzzAddRemove: checkAddRemove on any input.
func FuzzAddRemove(f *testing.F) {
	for _, d := range append(mapDocs(f), removeDocs(f)...) {
		if len(d) < 64<<10 {
			f.Add(d)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkAddRemove(t, doc)
	})
}

// BenchmarkScan measures the validation of the generated 10 MB
// settings.json.
func BenchmarkScan(b *testing.B) {
	doc := bench.Settings(10 << 20)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if !scan(doc) {
			b.Fatal("refused")
		}
	}
}
