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
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// roundTrip adds to orig, checks that a second add changes nothing and that
// remove gives orig back byte for byte, and returns the added document.
func roundTrip(t *testing.T, tg Target, orig []byte) []byte {
	t.Helper()
	a := tg.Adapter
	ed, err := a.Add(tg, orig, nil, false)
	if err != nil {
		t.Fatalf("add: %v", err)
	}
	if !json.Valid(ed.Doc) {
		t.Fatalf("add produced invalid JSON:\n%s", ed.Doc)
	}
	rec := &Record{Entries: ed.Entries, Created: ed.Created}
	ed2, err := a.Add(tg, ed.Doc, rec, false)
	if err != nil {
		t.Fatalf("second add: %v", err)
	}
	if !bytes.Equal(ed2.Doc, ed.Doc) {
		t.Fatalf("second add changed the file:\n%s", ed2.Doc)
	}
	rm, err := a.Remove(tg, ed.Doc, rec, false)
	if err != nil {
		t.Fatalf("remove: %v", err)
	}
	if rm.Delete || !bytes.Equal(rm.Doc, orig) {
		t.Fatalf("remove did not restore the file (delete %v).\nwant:\n%s\ngot:\n%s", rm.Delete, orig, rm.Doc)
	}
	return ed.Doc
}

// TestCodexCorpusRoundTrip: for every JSON object in the codex corpus whose
// "hooks" is an object, zerocode and codex add our three handlers at the end
// of each event array, add no top-level key, a second add is byte-identical,
// and remove restores the original byte for byte.
func TestCodexCorpusRoundTrip(t *testing.T) {
	n := 0
	for _, file := range corpusFiles(t, "codex") {
		orig, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		root, err := jsonedit.ParseObject(orig)
		if err != nil || !root.Get("hooks").IsObject() {
			continue
		}
		n++
		for _, agent := range []string{"zerocode", "codex"} {
			t.Run(agent+"/"+filepath.Base(file), func(t *testing.T) {
				tg := testTarget(t, agent, "/home/u")
				if _, err := tg.Adapter.Check(tg, orig, nil); err != nil {
					t.Fatalf("check: %v", err)
				}
				after := roundTrip(t, tg, orig)
				var b, a map[string]any
				_ = json.Unmarshal(orig, &b)
				_ = json.Unmarshal(after, &a)
				if len(a) != len(b) {
					t.Fatalf("top-level keys %d, want %d", len(a), len(b))
				}
				for k, v := range b {
					if k != "hooks" && !reflect.DeepEqual(a[k], v) {
						t.Errorf("value of %q changed", k)
					}
				}
				hooks := a["hooks"].(map[string]any)
				for _, ev := range []string{"UserPromptSubmit", "PermissionRequest", "Stop"} {
					arr := hooks[ev].([]any)
					last, _ := json.Marshal(arr[len(arr)-1])
					want := `{"hooks":[{"command":"` + tg.ScriptPath(scripts.FileName(ev)) + `","timeout":5,"type":"command"}]}`
					if string(last) != want {
						t.Errorf("%s: last entry %s, want %s", ev, last, want)
					}
					old, _ := b["hooks"].(map[string]any)[ev].([]any)
					if len(arr) != len(old)+1 || len(old) > 0 && !reflect.DeepEqual(arr[:len(old)], old) {
						t.Errorf("%s: user entries changed", ev)
					}
				}
			})
		}
	}
	if want := atLeast(t, 9, 15); n < want {
		t.Fatalf("only %d codex corpus files have a hooks object, want %d", n, want)
	}
}

// TestAntigravityCorpusRoundTrip: over the named-hook-set files of the gemini
// corpus (and every other gemini file that is a JSON object), add appends one
// set named after the namespace, with handlers directly in PreInvocation and
// Stop, and leaves every other set byte for byte; remove restores the file.
func TestAntigravityCorpusRoundTrip(t *testing.T) {
	tg := testTarget(t, "antigravity", "/home/u")
	named := 0
	for _, file := range corpusFiles(t, "gemini") {
		orig, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jsonedit.ParseObject(orig); err != nil {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			after := roundTrip(t, tg, orig)
			var b, a map[string]json.RawMessage
			_ = json.Unmarshal(orig, &b)
			_ = json.Unmarshal(after, &a)
			for k, v := range b {
				if !bytes.Equal(compactJSON(t, a[k]), compactJSON(t, v)) {
					t.Errorf("set %q changed", k)
				}
			}
			// The bytes before our member are the file's own, untouched
			// up to the last closing brace of the last set.
			body := bytes.TrimRight(orig, " \t\r\n")
			head := body[:bytes.LastIndexByte(body, '}')]
			head = bytes.TrimRight(head, " \t\r\n")
			if !bytes.HasPrefix(after, head) {
				t.Errorf("bytes before our set changed")
			}
			checkAntigravitySet(t, tg, a["hookinstall"])
		})
		if strings.Contains(string(orig), `"enabled"`) || strings.Contains(string(orig), "PreInvocation") || strings.Contains(string(orig), `"Stop"`) {
			named++
		}
	}
	if want := atLeast(t, 5, 5); named < want {
		t.Fatalf("only %d named-hook-set files found in the gemini corpus, want %d", named, want)
	}
}

func compactJSON(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("compact %q: %v", raw, err)
	}
	return b.Bytes()
}

// checkAntigravitySet pins our set's exact shape: handlers directly in the
// event arrays, never {matcher, hooks} groups.
func checkAntigravitySet(t *testing.T, tg Target, raw json.RawMessage) {
	t.Helper()
	want := `{"enabled":true,"PreInvocation":[{"type":"command","command":"` + tg.ScriptPath("pre-invocation.sh") + `"}],"Stop":[{"type":"command","command":"` + tg.ScriptPath("stop.sh") + `"}]}`
	if got := string(compactJSON(t, raw)); got != want {
		t.Fatalf("our set is\n%s\nwant\n%s", got, want)
	}
	var set map[string]json.RawMessage
	_ = json.Unmarshal(raw, &set)
	for _, ev := range []string{"PreInvocation", "Stop"} {
		var hs []map[string]any
		if err := json.Unmarshal(set[ev], &hs); err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			if _, wrapped := h["hooks"]; wrapped {
				t.Errorf("%s: handler wrapped in a group: %v", ev, h)
			}
			if _, m := h["matcher"]; m {
				t.Errorf("%s: matcher present: %v", ev, h)
			}
			if h["type"] != "command" || !strings.HasPrefix(h["command"].(string), tg.Prefix()) {
				t.Errorf("%s: handler %v", ev, h)
			}
		}
	}
}

func TestAntigravityNewFile(t *testing.T) {
	tg := testTarget(t, "antigravity", "/home/u")
	ed, err := tg.Adapter.Add(tg, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "hookinstall": {
    "enabled": true,
    "PreInvocation": [
      {
        "type": "command",
        "command": "/home/u/.gemini/hookinstall-hooks/pre-invocation.sh"
      }
    ],
    "Stop": [
      {
        "type": "command",
        "command": "/home/u/.gemini/hookinstall-hooks/stop.sh"
      }
    ]
  }
}
`
	if string(ed.Doc) != want {
		t.Fatalf("new file:\n%s\nwant:\n%s", ed.Doc, want)
	}
	rm, err := tg.Adapter.Remove(tg, ed.Doc, &Record{Entries: ed.Entries, Created: ed.Created}, false)
	if err != nil || string(rm.Doc) != "{}\n" {
		t.Fatalf("remove: %q %v", rm.Doc, err)
	}
}

// TestAntigravityOurSet: an older set of ours is replaced in place; a
// hand-edited one is left (and --force replaces it); a user's set that bears
// our name is refused, and never removed.
func TestAntigravityOurSet(t *testing.T) {
	tg := testTarget(t, "antigravity", "/home/u")
	a := tg.Adapter
	old := `{"other":{"Stop":[{"type":"command","command":"say hi"}]},"hookinstall":{"enabled":true,"Stop":[{"type":"command","command":"/home/u/.gemini/hookinstall-hooks/old.sh"}]},"z":{}}`
	ed, err := a.Add(tg, []byte(old), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(ed.Doc), `{"other":{"Stop":[{"type":"command","command":"say hi"}]},"hookinstall":{"enabled":true,"PreInvocation":`) || !strings.HasSuffix(string(ed.Doc), `,"z":{}}`) {
		t.Fatalf("upgrade in place:\n%s", ed.Doc)
	}
	// Hand-edited: the manifest recorded another value.
	rec := &Record{Entries: map[string][]string{"hookinstall": {`{"enabled":true}`}}}
	kept, err := a.Add(tg, []byte(old), rec, false)
	if err != nil || !kept.Kept || string(kept.Doc) != old || len(kept.Notes) != 1 {
		t.Fatalf("hand-edited set: %+v %v", kept, err)
	}
	forced, err := a.Add(tg, []byte(old), rec, true)
	if err != nil || !bytes.Equal(forced.Doc, ed.Doc) {
		t.Fatalf("--force: %s %v", forced.Doc, err)
	}
	rm, err := a.Remove(tg, []byte(old), rec, false)
	if err != nil || !rm.Kept || string(rm.Doc) != old {
		t.Fatalf("remove hand-edited: %+v %v", rm, err)
	}
	// A user's set named like ours.
	users := `{"hookinstall":{"Stop":[{"type":"command","command":"say done"}]}}`
	if _, err := a.Add(tg, []byte(users), nil, true); err == nil || !strings.Contains(err.Error(), "did not write") {
		t.Fatalf("user's set: err %v", err)
	}
	if rm, err := a.Remove(tg, []byte(users), nil, true); err != nil || string(rm.Doc) != users || rm.Kept {
		t.Fatalf("remove touched the user's set: %q %v", rm.Doc, err)
	}
	// Wrong type, duplicate key.
	for doc, msg := range map[string]string{
		`{"hookinstall": []}`:                    "not a named hook set",
		`{"hookinstall": {}, "hookinstall": {}}`: "duplicate key",
	} {
		if _, err := a.Add(tg, []byte(doc), nil, false); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: err %v, want %q", doc, err, msg)
		}
	}
}

func TestAntigravityDeadPathNote(t *testing.T) {
	tg := testTarget(t, "antigravity", "/home/u")
	dead := "/home/u/.gemini/antigravity-cli/hooks.json"
	if fs := tg.Adapter.Files(tg); len(fs) != 1 || fs[0] != dead {
		t.Fatalf("switch files %v", fs)
	}
	notes, err := tg.Adapter.Check(tg, nil, map[string][]byte{dead: []byte(`{"hookinstall":{}}`)})
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "never runs") {
		t.Fatalf("notes %v, err %v", notes, err)
	}
	notes, _ = tg.Adapter.Check(tg, nil, map[string][]byte{dead: []byte(`{"mine":{}}`)})
	if len(notes) != 0 {
		t.Fatalf("notes for a foreign set: %v", notes)
	}
}

// TestZerocodeSwitches: every switch that keeps the hooks from running
// refuses the install with an *OffError naming the file and the key.
func TestZerocodeSwitches(t *testing.T) {
	type sw struct {
		agent, file, content, key string
	}
	z, c := "/home/u/.zerotwo/", "/home/u/.codex/"
	for _, s := range []sw{
		{"zerocode", z + "config.toml", "[features]\nhooks = false\n", "[features] hooks"},
		{"zerocode", z + "config.toml", "[features]\nzerocode_hooks = false\n", "[features] zerocode_hooks (deprecated alias of hooks)"},
		{"zerocode", z + "config.toml", "features.hooks = false\n", "[features] hooks"},
		{"zerocode", z + "requirements.toml", "allow_managed_hooks_only = true\n", "allow_managed_hooks_only"},
		{"zerocode", z + "requirements.toml", "[features]\nhooks = false\n", "[features] hooks"},
		{"codex", c + "config.toml", "model = \"x\"\n[features]\nhooks = false\n", "[features] hooks"},
		{"codex", c + "config.toml", "[features]\ncodex_hooks = false\n", "[features] codex_hooks (deprecated alias of hooks)"},
		{"codex", "/etc/codex/requirements.toml", "allow_managed_hooks_only = true\n", "allow_managed_hooks_only"},
		{"codex", "/etc/codex/requirements.toml", "[features]\nhooks = false\n", "[features] hooks"},
	} {
		tg := testTarget(t, s.agent, "/home/u")
		_, err := tg.Adapter.Check(tg, nil, map[string][]byte{s.file: []byte(s.content)})
		var off *OffError
		if !errors.As(err, &off) || off.File != s.file || !strings.Contains(off.Error(), s.key) {
			t.Errorf("%s %s %q: err %#v, want OffError for %s", s.agent, s.file, s.content, err, s.key)
		}
	}
	// Not switches: hooks on, the canonical key beside an off alias, trust
	// records under [hooks.state], and (for Codex, measured) a
	// requirements.toml in CODEX_HOME, which Codex does not read.
	for _, s := range []sw{
		{"zerocode", z + "config.toml", "[features]\nhooks = true\nzerocode_hooks = false\n", ""},
		{"codex", c + "config.toml", "[hooks.state.\"/home/u/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:00\"\n", ""},
		{"codex", c + "requirements.toml", "allow_managed_hooks_only = true\n", "would switch hooks off"},
		{"zerocode", z + "config.toml", "[features\nhooks = false\n", "could not check"},
	} {
		tg := testTarget(t, s.agent, "/home/u")
		notes, err := tg.Adapter.Check(tg, nil, map[string][]byte{s.file: []byte(s.content)})
		if err != nil {
			t.Errorf("%s %q: %v", s.agent, s.content, err)
		}
		if s.key == "" && len(notes) != 0 || s.key != "" && (len(notes) != 1 || !strings.Contains(notes[0], s.key)) {
			t.Errorf("%s %q: notes %q", s.agent, s.content, notes)
		}
	}
}

func TestZerocodeStrictRoot(t *testing.T) {
	for _, agent := range []string{"zerocode", "codex"} {
		tg := testTarget(t, agent, "/home/u")
		for _, key := range []string{"$schema", "x-hookinstall", "version"} {
			doc := `{"` + key + `": "x", "hooks": {}}`
			_, err := tg.Adapter.Check(tg, []byte(doc), nil)
			var off *OffError
			if !errors.As(err, &off) || off.Key != `"`+key+`"` || !strings.Contains(off.Error(), "rejects the WHOLE file") {
				t.Errorf("%s %s: err %v", agent, key, err)
			}
		}
		if _, err := tg.Adapter.Check(tg, []byte(`{"description": "mine", "hooks": {}}`), nil); err != nil {
			t.Errorf("%s: description refused: %v", agent, err)
		}
		if _, err := tg.Adapter.Check(tg, []byte(`{"hooks": []}`), nil); err == nil || errors.As(err, new(*OffError)) {
			t.Errorf("%s: hooks array: err %v, want a shape error", agent, err)
		}
	}
}

func TestZerocodeInlineHooksNote(t *testing.T) {
	tg := testTarget(t, "zerocode", "/home/u")
	notes, err := tg.Adapter.Check(tg, nil, map[string][]byte{"/home/u/.zerotwo/config.toml": []byte("[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\n")})
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "/home/u/.zerotwo/config.toml") || !strings.Contains(notes[0], "/home/u/.zerotwo/hooks.json") {
		t.Fatalf("notes %q err %v", notes, err)
	}
}

// TestZerocodePositionalTrustNote: removing our entry from before a user's
// says the user's entry moved; removing it from the end says nothing.
func TestZerocodePositionalTrustNote(t *testing.T) {
	tg := testTarget(t, "codex", "/home/u")
	ours := `{"hooks":[{"type":"command","command":"/home/u/.codex/hookinstall-hooks/stop.sh","timeout":5}]}`
	user := `{"hooks":[{"type":"command","command":"say done"}]}`
	doc := `{"hooks":{"Stop":[` + user + `,` + ours + `,` + user + `]}}`
	rm, err := tg.Adapter.Remove(tg, []byte(doc), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(rm.Doc) != `{"hooks":{"Stop":[`+user+`,`+user+`]}}` || len(rm.Notes) != 1 || !strings.Contains(rm.Notes[0], "Stop entry 2 (not ours) is now entry 1") {
		t.Fatalf("doc %s notes %q", rm.Doc, rm.Notes)
	}
	doc = `{"hooks":{"Stop":[` + user + `,` + ours + `]}}`
	rm, _ = tg.Adapter.Remove(tg, []byte(doc), nil, false)
	if len(rm.Notes) != 0 {
		t.Fatalf("notes %q", rm.Notes)
	}
}

func TestGrokCompatNote(t *testing.T) {
	tg := testTarget(t, "grok", "/home/u")
	notes, err := tg.Adapter.Check(tg, nil, map[string][]byte{"/home/u/.grok/config.toml": []byte("[compat.claude]\nhooks = false\n")})
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "still run") {
		t.Fatalf("notes %q err %v", notes, err)
	}
}

// TestGrokOwnFile: the file holds only ours, so remove deletes it; a file
// that held nothing of ours is left alone.
func TestGrokOwnFile(t *testing.T) {
	tg := testTarget(t, "grok", "/home/u")
	ed, err := tg.Adapter.Add(tg, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ed.Doc), `"StopCancelled"`) || !strings.Contains(string(ed.Doc), `"Notification"`) {
		t.Fatalf("grok file:\n%s", ed.Doc)
	}
	rm, err := tg.Adapter.Remove(tg, ed.Doc, &Record{Entries: ed.Entries, Created: ed.Created}, false)
	if err != nil || !rm.Delete {
		t.Fatalf("remove: %+v %v", rm, err)
	}
	rm, err = tg.Adapter.Remove(tg, []byte("{}\n"), nil, false)
	if err != nil || rm.Delete || string(rm.Doc) != "{}\n" {
		t.Fatalf("remove of an empty file: %+v %v", rm, err)
	}
}

// TestOpencodeOwnership: our plugin is replaced and deleted; an edited one is
// kept (--force replaces it); a file we did not write is refused, never
// deleted.
func TestOpencodeOwnership(t *testing.T) {
	tg := testTarget(t, "opencode", "/home/u")
	a := tg.Adapter
	ed, err := a.Add(tg, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ours := ed.Doc
	if again, _ := a.Add(tg, ours, nil, false); !bytes.Equal(again.Doc, ours) {
		t.Fatal("second add changed the plugin")
	}
	if rm, _ := a.Remove(tg, ours, nil, false); !rm.Delete {
		t.Fatal("remove kept our plugin")
	}
	edited := append(append([]byte(nil), ours...), "// mine\n"...)
	rec := &Record{PostSHA: sha(ours)}
	if k, _ := a.Add(tg, edited, rec, false); !k.Kept || !bytes.Equal(k.Doc, edited) {
		t.Fatalf("edited plugin replaced: %+v", k)
	}
	if k, _ := a.Add(tg, edited, rec, true); !bytes.Equal(k.Doc, ours) {
		t.Fatal("--force did not replace the edited plugin")
	}
	if rm, _ := a.Remove(tg, edited, rec, false); rm.Delete || !rm.Kept {
		t.Fatalf("edited plugin removed: %+v", rm)
	}
	older := append([]byte(nil), ours...)
	older = bytes.Replace(older, []byte("agent is done"), []byte("agent is finished"), 1)
	if up, _ := a.Add(tg, older, &Record{PostSHA: sha(older)}, false); !bytes.Equal(up.Doc, ours) {
		t.Fatal("an older plugin of ours was not upgraded")
	}
	foreign := []byte("export const Mine = async () => ({})\n")
	if _, err := a.Add(tg, foreign, nil, true); err == nil {
		t.Fatal("a foreign plugin was replaced")
	}
	if rm, _ := a.Remove(tg, foreign, nil, true); rm.Delete || !bytes.Equal(rm.Doc, foreign) {
		t.Fatal("a foreign plugin was removed")
	}
	notes, _ := a.Check(tg, nil, map[string][]byte{"/home/u/.config/opencode/plugin/hookinstall.js": ours})
	if len(notes) != 1 || !strings.Contains(notes[0], "twice") {
		t.Fatalf("plugin/ twin: notes %q", notes)
	}
}

// TestCodexInterrupt: codex reports interrupted through Codex's Interrupt
// event, whose handler asks for 3 s (Codex clamps larger values and warns at
// every start); zerocode has no such event (seed 000 does not list it).
func TestCodexInterrupt(t *testing.T) {
	states := func(agent string) map[string]terminal.State {
		m := map[string]terminal.State{}
		for _, e := range testTarget(t, agent, "/home/u").Adapter.Events() {
			m[e.Event] = e.State
		}
		return m
	}
	want := map[string]terminal.State{"UserPromptSubmit": terminal.Working, "PermissionRequest": terminal.Attention, "Stop": terminal.Done}
	if got := states("zerocode"); !reflect.DeepEqual(got, want) {
		t.Errorf("zerocode events %v, want %v", got, want)
	}
	want["Interrupt"], want["PostToolUse"] = terminal.Interrupted, terminal.Working
	if got := states("codex"); !reflect.DeepEqual(got, want) {
		t.Errorf("codex events %v, want %v", got, want)
	}
	tg := testTarget(t, "codex", "/home/u")
	ed, err := tg.Adapter.Add(tg, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string
				Timeout int
			}
		}
	}
	if err := json.Unmarshal(ed.Doc, &doc); err != nil {
		t.Fatal(err)
	}
	for ev, wantT := range map[string]int{"UserPromptSubmit": HookTimeout, "PermissionRequest": HookTimeout, "Stop": HookTimeout, "PostToolUse": HookTimeout, "Interrupt": 3} {
		gs := doc.Hooks[ev]
		if len(gs) != 1 || len(gs[0].Hooks) != 1 || gs[0].Hooks[0].Timeout != wantT ||
			gs[0].Hooks[0].Command != tg.ScriptPath(scripts.FileName(ev)) {
			t.Errorf("codex %s: %+v, want one handler with timeout %d", ev, gs, wantT)
		}
	}
}
