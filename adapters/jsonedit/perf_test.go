package jsonedit

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// The fast path of classify must never call an entry of ours foreign, however
// the JSON spells its command.
func TestClassifySpellings(t *testing.T) {
	tests := []struct {
		prefix, raw string
		want        Kind
	}{
		{P, ours("Stop"), OursPure},
		{P, strings.ReplaceAll(ours("Stop"), "/", `\/`), OursPure},
		{P, strings.Replace(ours("Stop"), "/hookinstall", `/\u0068ookinstall`, 1), OursPure},
		{P, `{"hooks":[{"type":"command","command":"mine \"q\""},{"type":"command","command":"` + P + `stop.sh"}]}`, OursMixed},
		{P, `{"hooks":[{"type":"command","command":"/usr/bin/x \"q\"","timeout":5}]}`, Foreign},
		{P, `{"matcher":"Bash","hooks":[{"type":"command","command":"echo"}]}`, Foreign},
		{`/home/a"b/.claude/hookinstall-hooks/`, `{"hooks":[{"type":"command","command":"/home/a\"b/.claude/hookinstall-hooks/stop.sh"}]}`, OursPure},
		{`/home/ü/.claude/hookinstall-hooks/`, `{"hooks":[{"type":"command","command":"/home/\u00fc/.claude/hookinstall-hooks/stop.sh"}]}`, OursPure},
	}
	for _, tt := range tests {
		if got := Classify(gjson.Parse(tt.raw), tt.prefix); got != tt.want {
			t.Errorf("classify(%s, %q) = %v, want %v", tt.raw, tt.prefix, got, tt.want)
		}
	}
}

// A repeated event key is reported where it is in the user's file, even when
// entries before it were taken out first.
func TestRemoveDuplicateKeyOffset(t *testing.T) {
	in := `{"hooks":{"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"Notification":[],"Notification":[]}}`
	_, err := claudeMap(nil).Remove([]byte(in))
	want := strings.LastIndex(in, `"Notification"`)
	se, ok := err.(*SyntaxError)
	if !ok || se.Offset != int64(want) || !strings.Contains(se.Msg, `duplicate key "Notification"`) {
		t.Fatalf("err = %v, want a duplicate key at offset %d", err, want)
	}
}

// add's one pass (appends) gives the bytes and the record that its edits
// made one by one give, on every file of the corpora and on shapes they
// lack (a missing event at the end of a map, two missing, empty ones).
func TestAddOnePassSameResult(t *testing.T) {
	docs := [][]byte{
		[]byte(`{"hooks":{"Stop":[{"hooks":[]}],"Other":[]}}`),
		[]byte("{\n  \"hooks\": {\n    \"Stop\": [],\n    \"UserPromptSubmit\": [ ]\n  }\n}\n"),
		[]byte("{\n  \"hooks\": {\n    \"PermissionRequest\": [\n    ]\n  }\n}"),
		[]byte(`{"hooks":{}}`),
		[]byte(`{"hooks":{"UserPromptSubmit":[{"hooks":[]}],"PermissionRequest":[],"Stop":[{"hooks":[]},{"hooks":[]}]}}`),
		[]byte("{\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": []}\n\t\t],\n\t\t\"PermissionRequest\": [],\n\t\t\"UserPromptSubmit\": [ ]\n\t}\n}\n"),
		[]byte("{\r\n  \"hooks\": {\r\n    \"Stop\": [1],\r\n    \"PermissionRequest\": [2, 3]\r\n  }\r\n}\r\n"),
	}
	for _, file := range allCorpusFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	onePass := 0
	for _, doc := range docs {
		m := claudeMap(nil)
		got, err := m.Add(doc)
		m.noOnePass = true
		want, err2 := m.Add(doc)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("errors differ on %q: %v, %v", doc, err, err2)
		}
		if err != nil {
			continue
		}
		if !bytes.Equal(got.Doc, want.Doc) || !reflect.DeepEqual(got.Created, want.Created) || !reflect.DeepEqual(got.Emptied, want.Emptied) {
			t.Fatalf("one pass differs on %q:\n%q %v %v\n%q %v %v", doc, got.Doc, got.Created, got.Emptied, want.Doc, want.Created, want.Emptied)
		}
		m.noOnePass = false
		if d, _, _, h, ok, _ := m.CheckRoot(doc); ok {
			if _, one := m.appends(d, h, DefaultFormat(), &Edit{}); one {
				onePass++
			}
		}
	}
	if onePass < 5 {
		t.Fatalf("the one pass ran on only %d of %d documents", onePass, len(docs))
	}
}

// remove's one pass gives the bytes, notes and record that its deletions
// made one by one give: over every document add accepted above, after add,
// and over entries of ours edited by hand before and after the one it takes
// out (the notes name their indexes after the removal).
func TestRemoveOnePassSameResult(t *testing.T) {
	stop := P + "stop.sh"
	canon := `{"hooks":[{"type":"command","command":"` + stop + `","timeout":5}]}`
	edited := `{"hooks":[{"type":"command","command":"` + stop + `","timeout":9}]}`
	user := `{"hooks":[{"type":"command","command":"echo"}]}`
	docs := [][]byte{
		[]byte(`{"hooks":{"Stop":[` + edited + `,` + user + `,` + canon + `]}}`),
		[]byte(`{"hooks":{"Stop":[` + canon + `,` + user + `,` + edited + `],"Other":[` + edited + `]}}`),
		[]byte("{\n  \"hooks\": {\n    \"Stop\": [\n      " + user + ",\n      " + canon + "\n    ]\n  }\n}\n"),
	}
	for _, file := range allCorpusFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if ed, err := claudeMap(nil).Add(b); err == nil && !IsBlank(b) {
			docs = append(docs, ed.Doc)
		}
	}
	onePass := 0
	for _, doc := range docs {
		for _, rec := range []*Record{nil, {Entries: map[string][]string{"Stop": {Compact(claudeMap(nil).Want[2].Entry)}}}} {
			m := claudeMap(rec)
			got, err := m.Remove(doc)
			m.noOnePass = true
			want, err2 := m.Remove(doc)
			if (err == nil) != (err2 == nil) {
				t.Fatalf("errors differ on %q: %v, %v", doc, err, err2)
			}
			if !bytes.Equal(got.Doc, want.Doc) || !reflect.DeepEqual(got.Notes, want.Notes) || got.Kept != want.Kept {
				t.Fatalf("one pass differs on %q:\n%q %q %v\n%q %q %v", doc, got.Doc, got.Notes, got.Kept, want.Doc, want.Notes, want.Kept)
			}
			if !bytes.Equal(got.Doc, doc) && !bytes.Equal(got.Doc, want.Doc[:0]) {
				onePass++
			}
		}
	}
	if onePass < 10 {
		t.Fatalf("only %d removals changed anything", onePass)
	}
}
