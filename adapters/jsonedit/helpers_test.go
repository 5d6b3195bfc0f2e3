package jsonedit

import (
	"os"
	"path/filepath"
	"testing"
)

// P is the command prefix of our hooks in these tests.
const P = "/home/u/.claude/hookinstall-hooks/"

// claudeFiles are the scripts of the Claude-shaped map these tests edit.
var claudeFiles = map[string]string{"UserPromptSubmit": "user-prompt-submit.sh", "PermissionRequest": "permission-request.sh", "Stop": "stop.sh"}

// ours is the entry a Claude-shaped install writes for event.
func ours(event string) string {
	return `{"hooks":[{"type":"command","command":"` + P + claudeFiles[event] + `","timeout":5}]}`
}

// claudeMap is the edit of a Claude-shaped event map under "hooks"
// (hooks.<Event>[] = {"hooks":[handler]}), the shape most agents share.
func claudeMap(prev *Record) MapEdit {
	var ws []EventEntry
	for _, ev := range []string{"UserPromptSubmit", "PermissionRequest", "Stop"} {
		h := Obj{{"type", "command"}, {"command", P + claudeFiles[ev]}, {"timeout", 5}}
		ws = append(ws, EventEntry{ev, Obj{{"hooks", []any{h}}}})
	}
	return MapEdit{Key: "hooks", Prefix: P, Want: ws, Prev: prev}
}

// The tests read the project's corpora of agent configs: our own small one
// (testdata/corpus at the module's root, always there) and the full corpus
// of real configs ($HOOKINSTALL_CORPUS, else ../shared/corpus beside the
// clone) when it is there; adapters/corpus_test.go says more.
const ownCorpus = "../../testdata/corpus"

func sharedCorpus(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("HOOKINSTALL_CORPUS"); d != "" {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("HOOKINSTALL_CORPUS: %v", err)
		}
		return d
	}
	d := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
}

// allCorpusFiles lists every JSON file of both corpora, valid and
// malformed, every agent's.
func allCorpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(ownCorpus, "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s: %v", ownCorpus, err)
	}
	if d := sharedCorpus(t); d != "" {
		more, err := filepath.Glob(filepath.Join(d, "*", "*.json"))
		if err != nil || len(more) == 0 {
			t.Fatalf("no corpus files in %s: %v", d, err)
		}
		files = append(files, more...)
	}
	return files
}

func TestDetectFormat(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		unit string
		nl   string
		cmp  bool
	}{
		{"{\n  \"a\": 1\n}\n", "  ", "\n", false},
		{"{\n    \"a\": 1\n}", "    ", "\n", false},
		{"{\n\t\"a\": 1\n}\n", "\t", "\n", false},
		{"{\r\n  \"a\": 1\r\n}\r\n", "  ", "\r\n", false},
		{`{"a":1}`, "  ", "\n", true},
	} {
		root, err := ParseObject([]byte(tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		f := DetectFormat([]byte(tt.doc), root)
		if f.Unit != tt.unit || f.Newline != tt.nl || f.Compact != tt.cmp {
			t.Errorf("%q: got %+v", tt.doc, f)
		}
	}
}
