package adapters

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/scripts"
)

// The tests read two corpora of agent configs: our own small one
// (testdata/corpus, always there, written for these tests) and the project's
// full corpus of real configs, byte-exact ($HOOKINSTALL_CORPUS, else
// ../shared/corpus beside the clone), when it is there. CI sets
// HOOKINSTALL_CORPUS, so there a missing corpus is an error, not a skip.
const ownCorpus = "../testdata/corpus"

// sharedCorpus returns the full corpus's dir, or "" when it is absent.
func sharedCorpus(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("HOOKINSTALL_CORPUS"); d != "" {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("HOOKINSTALL_CORPUS: %v", err)
		}
		return d
	}
	d := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
}

// corpusGlob lists the files matching pattern (relative to a corpus root) in
// our own corpus, then in the full one when it is there.
func corpusGlob(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(ownCorpus, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s in %s: %v", pattern, ownCorpus, err)
	}
	if d := sharedCorpus(t); d != "" && !ownOnly(d, pattern) {
		more, err := filepath.Glob(filepath.Join(d, pattern))
		if err != nil || len(more) == 0 {
			t.Fatalf("no files match %s in %s: %v", pattern, d, err)
		}
		files = append(files, more...)
	}
	return files
}

// ownOnly reports a pattern under a folder that only our own corpus has
// (jsonc/, the commented settings files: the full corpus keeps its commented
// files in malformed/, each with some other fault too; letta/).
func ownOnly(shared, pattern string) bool {
	_, err := os.Stat(filepath.Join(shared, filepath.Dir(pattern)))
	return err != nil
}

// corpusFiles lists one agent's JSON configs from both corpora.
func corpusFiles(t testing.TB, agent string) []string {
	t.Helper()
	return corpusGlob(t, filepath.Join(agent, "*.json"))
}

// atLeast is want from our own corpus, plus wantShared when the full corpus
// runs too: a guard that a corpus test did try the files it is about.
func atLeast(t testing.TB, want, wantShared int) int {
	if sharedCorpus(t) != "" {
		return want + wantShared
	}
	return want
}

func testTarget(t testing.TB, agent, home string) Target {
	t.Helper()
	tg, err := Resolve(agent, Options{NS: "hookinstall", Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestClaudeCorpusRoundTrip: for every JSON object in the corpus, add leaves
// valid JSON with every old value unchanged and our three events exactly once;
// add again is byte-identical; remove gives back the original byte for byte.
func TestClaudeCorpusRoundTrip(t *testing.T) { corpusRoundTrip(t, "claude", "claude") }

// TestGeminiCorpusRoundTrip is the same for Gemini CLI's settings.json, over
// the corpus's Gemini settings files.
func TestGeminiCorpusRoundTrip(t *testing.T) { corpusRoundTrip(t, "gemini", "gemini") }

// TestQwenCorpusRoundTrip is the same for Qwen Code's settings.json, whose
// keys and shape are Gemini CLI's (Qwen Code is a fork of it): the corpus's
// Gemini settings files, then Claude's.
func TestQwenCorpusRoundTrip(t *testing.T) {
	corpusRoundTrip(t, "qwen", "gemini")
	corpusRoundTrip(t, "qwen", "claude")
}

// TestJSONCCorpusRoundTrip: the agents that read JSONC (Gemini CLI, Qwen
// Code, Factory Droid) over the corpus's commented settings files: add
// keeps every comment and byte of the user's, and remove gives the file back
// byte for byte; and over Claude's strict ones, for droid too.
func TestJSONCCorpusRoundTrip(t *testing.T) {
	for _, agent := range []string{"droid", "gemini", "qwen"} {
		corpusRoundTrip(t, agent, "jsonc")
	}
	corpusRoundTrip(t, "droid", "claude")
}

// TestLettaCorpusRoundTrip is the same for Letta Code's settings.json (our
// handlers' timeouts in milliseconds): the corpus's Letta files, then
// Claude's, whose shape Letta's hooks share.
func TestLettaCorpusRoundTrip(t *testing.T) {
	corpusRoundTrip(t, "letta", "letta")
	corpusRoundTrip(t, "letta", "claude")
}

func corpusRoundTrip(t *testing.T, agent, corpus string) {
	tg := testTarget(t, agent, "/home/u")
	a := tg.Adapter
	files := corpusFiles(t, corpus)
	tried := 0
	defer func() {
		if tried < len(files)*9/10 {
			t.Errorf("only %d of %d corpus files were strict JSON objects and round-tripped", tried, len(files))
		}
	}()
	for _, file := range files {
		t.Run(corpus+"/"+filepath.Base(file), func(t *testing.T) {
			orig, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			parse, plain := jsonedit.ParseObject, func(b []byte) []byte { return b }
			if a.ReadsComments {
				parse, plain = jsonedit.ParseJSONC, jsonedit.Blank
			}
			if _, err := parse(orig); err != nil {
				t.Skipf("not an object the agent reads: %v", err)
			}
			tried++
			ed, err := a.Add(tg, orig, nil, false)
			if err != nil {
				t.Fatalf("add: %v", err)
			}
			checkAdded(t, tg, plain(orig), plain(ed.Doc))
			if !reflect.DeepEqual(jsonedit.CommentsOf(ed.Doc), jsonedit.CommentsOf(orig)) {
				t.Fatalf("add changed the comments:\n%s", ed.Doc)
			}
			ed2, err := a.Add(tg, ed.Doc, &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}, false)
			if err != nil {
				t.Fatalf("second add: %v", err)
			}
			if !bytes.Equal(ed2.Doc, ed.Doc) {
				t.Fatalf("second add changed the file:\n%s", ed2.Doc)
			}
			rm, err := a.Remove(tg, ed.Doc, &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}, false)
			if err != nil {
				t.Fatalf("remove: %v", err)
			}
			if !bytes.Equal(rm.Doc, orig) {
				t.Fatalf("remove did not restore the file.\nwant:\n%s\ngot:\n%s", orig, rm.Doc)
			}
			// A user edit made between add and remove survives: remove
			// gives the original plus exactly that edit.
			root, _ := parse(orig)
			ms := jsonedit.Members(root)
			if len(ms) == 0 {
				return
			}
			edit := []byte(`"userEdit": [1, "x"], `)
			at := ms[0].KeyStart
			editedOrig := jsonedit.Splice(orig, at, at, string(edit))
			rootAdded, _ := parse(ed.Doc)
			at2 := jsonedit.Members(rootAdded)[0].KeyStart
			editedAdded := jsonedit.Splice(ed.Doc, at2, at2, string(edit))
			rm2, err := a.Remove(tg, editedAdded, &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}, false)
			if err != nil {
				t.Fatalf("remove after edit: %v", err)
			}
			if !bytes.Equal(rm2.Doc, editedOrig) {
				t.Fatalf("remove after a user edit.\nwant:\n%s\ngot:\n%s", editedOrig, rm2.Doc)
			}
		})
	}
}

// checkAdded asserts that after is valid JSON holding every value of before,
// plus our entries once per event.
func checkAdded(t *testing.T, tg Target, before, after []byte) {
	t.Helper()
	if !json.Valid(after) {
		t.Fatalf("add produced invalid JSON:\n%s", after)
	}
	var b, a map[string]any
	if err := json.Unmarshal(before, &b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(after, &a); err != nil {
		t.Fatal(err)
	}
	for k, v := range b {
		if k == "hooks" {
			continue
		}
		if !reflect.DeepEqual(a[k], v) {
			t.Errorf("value of %q changed", k)
		}
	}
	hooks, _ := a["hooks"].(map[string]any)
	oldHooks, _ := b["hooks"].(map[string]any)
	for ev, v := range oldHooks {
		old, _ := v.([]any)
		now, _ := hooks[ev].([]any)
		if len(now) < len(old) || !reflect.DeepEqual(now[:len(old)], old) {
			t.Errorf("user entries of %s changed", ev)
		}
	}
	for _, e := range tg.Adapter.Events() {
		arr, _ := hooks[e.Event].([]any)
		n := 0
		for _, g := range arr {
			s, _ := json.Marshal(g)
			if strings.Contains(string(s), tg.Prefix()) {
				n++
				// json.Marshal of a map sorts keys: the entry is exactly ours.
				want := `{"hooks":[{"command":"` + tg.ScriptPath(scripts.FileName(e.Event)) + `","timeout":5,"type":"command"}]}`
				if tg.Adapter.ID == "gemini" { // named handlers, timeout in milliseconds
					want = `{"hooks":[{"command":"` + tg.ScriptPath(scripts.FileName(e.Event)) + `","name":"hookinstall-` +
						strings.TrimSuffix(scripts.FileName(e.Event), ".sh") + `","timeout":5000,"type":"command"}]}`
				}
				if tg.Adapter.ID == "letta" { // timeout in milliseconds
					want = strings.Replace(want, `"timeout":5,`, `"timeout":5000,`, 1)
				}
				if string(s) != want {
					t.Errorf("%s: our entry is %s, want %s", e.Event, s, want)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d entries of ours, want 1", e.Event, n)
		}
	}
}
