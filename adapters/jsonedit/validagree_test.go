package jsonedit

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzValidAgrees: the fast validator ParseObject gates on accepts exactly
// what encoding/json accepts.
func FuzzValidAgrees(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `[1,2]`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":"\u00"}`, `{"a":"\x"}`, "{\"a\":\"\t\"}", `{"a":1,}`, `{"a" 1}`, `{"a":tru}`, `{"a":1e}`, `{"a":1e+}`, `{"a":-0.5e-7}`, ` {"a":[{},[]]} `, `{"a":"\ud800"}`, `{"a":1}x`, `"s"`, `nul`, ``, `{"a":[1 2]}`, `{"a":{"b":}}`, `{,}`, `[,1]`, `{"a":"b"}}`} {
		f.Add([]byte(s))
	}
	for _, file := range allCorpusFiles(f) {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if g, j := gjson.ValidBytes(b), json.Valid(b); g != j {
			t.Fatalf("gjson.ValidBytes %v, json.Valid %v: %q", g, j, b)
		}
		if v, j := validJSON(b), json.Valid(b); v != j {
			t.Fatalf("validJSON %v, json.Valid %v: %q", v, j, b)
		}
	})
}

// Deep nesting is refused as encoding/json refuses it, with its message, and
// never reaches a recursive validator.
func TestValidJSONDepth(t *testing.T) {
	ok := []byte(strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth))
	if !validJSON(ok) || !json.Valid(ok) {
		t.Fatal("depth 10000 refused")
	}
	if over := []byte(strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)); validJSON(over) || json.Valid(over) {
		t.Fatal("depth 10001 accepted")
	}
	deep := []byte(`{"a":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `}`)
	if validJSON(deep) {
		t.Fatal("depth 2^20 accepted")
	}
	_, err := ParseObject(deep)
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("err = %v", err)
	}
	if quoted := []byte(`{"a":"` + strings.Repeat("[", 20000) + `"}`); !validJSON(quoted) {
		t.Fatal("brackets inside a string counted as nesting")
	}
}

func TestValidJSONAgreesOnCorpus(t *testing.T) {
	for _, file := range allCorpusFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if validJSON(b) != json.Valid(b) {
			t.Errorf("%s: validJSON %v, json.Valid %v", file, validJSON(b), json.Valid(b))
		}
	}
}
