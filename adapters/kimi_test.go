package adapters

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/scripts"
)

// kimiSamples are config.toml files of our own making (every one accepted by
// `kimi doctor config` of Kimi Code 2.1.0): shapes a TOML editor can trip on.
func kimiSamples(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "kimi", "*.toml"))
	if err != nil || len(files) < 7 {
		t.Fatalf("kimi samples: %v %v", files, err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

// kimiOurs checks that doc holds, after everything it held before, exactly
// our four entries in event order.
func kimiOurs(t *testing.T, tg Target, before, doc []byte) {
	t.Helper()
	b, err := parseKimi(before)
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseKimi(doc)
	if err != nil {
		t.Fatalf("add gave invalid TOML: %v\n%s", err, doc)
	}
	want := append([]any(nil), b.hooks...)
	for _, h := range tg.Adapter.Hooks {
		want = append(want, map[string]any{"event": h.Event, "command": tg.ScriptPath(scripts.FileName(h.Event)), "timeout": int64(HookTimeout)})
	}
	if !reflect.DeepEqual(a.hooks, want) {
		t.Fatalf("hooks after add:\n%#v\nwant\n%#v", a.hooks, want)
	}
	delete(a.doc, "hooks")
	delete(b.doc, "hooks")
	if !reflect.DeepEqual(a.doc, b.doc) {
		t.Fatalf("add changed the rest of the config:\n%#v\nwant\n%#v", a.doc, b.doc)
	}
	for i, e := range a.hooks {
		if p := kimiProblem(e); p != "" {
			t.Errorf("entry %d %s", i+1, p)
		}
	}
}

// TestKimiRoundTrip: on every sample, add appends our four [[hooks]] tables
// and changes nothing else Kimi reads, a second add (with and without the
// manifest's record) is byte-identical, and remove gives the sample back
// byte for byte.
func TestKimiRoundTrip(t *testing.T) {
	tg := testTarget(t, "kimi", "/home/u")
	for name, orig := range kimiSamples(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := tg.Adapter.Check(tg, orig, nil); err != nil {
				t.Fatalf("check: %v", err)
			}
			ed, err := tg.Adapter.Add(tg, orig, nil, false)
			if err != nil {
				t.Fatalf("add: %v", err)
			}
			kimiOurs(t, tg, orig, ed.Doc)
			if _, _, inline := tomlEmptyInline(orig, "hooks"); !inline && !bytes.HasPrefix(ed.Doc, orig) && !bytes.HasPrefix(ed.Doc, append(append([]byte(nil), orig...), '\n')) {
				t.Fatalf("add did not only append:\n%s", ed.Doc)
			}
			rec := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
			for _, prev := range []*Record{nil, rec} {
				again, err := tg.Adapter.Add(tg, ed.Doc, prev, false)
				if err != nil || !bytes.Equal(again.Doc, ed.Doc) {
					t.Fatalf("second add (record %v) changed the file (%v):\n%s", prev != nil, err, again.Doc)
				}
			}
			rm, err := tg.Adapter.Remove(tg, ed.Doc, rec, false)
			if err != nil {
				t.Fatalf("remove: %v", err)
			}
			if rm.Delete || rm.Kept || !bytes.Equal(rm.Doc, orig) {
				t.Fatalf("remove did not restore the file.\nwant:\n%q\ngot:\n%q", orig, rm.Doc)
			}
		})
	}
}

// TestKimiExactBytes pins what add appends, byte for byte.
func TestKimiExactBytes(t *testing.T) {
	tg := testTarget(t, "kimi", "/home/u")
	orig := "default_model = \"fake\"" // no final newline
	ed, err := tg.Adapter.Add(tg, []byte(orig), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	want := orig + "\n"
	for _, ev := range []string{"UserPromptSubmit", "PermissionRequest", "PermissionResult", "Stop", "Interrupt"} {
		want += "\n[[hooks]]\nevent = \"" + ev + "\"\ncommand = \"/home/u/.kimi-code/hookinstall-hooks/" + scripts.FileName(ev) + "\"\ntimeout = 5\n"
	}
	if string(ed.Doc) != want {
		t.Fatalf("add wrote\n%q\nwant\n%q", ed.Doc, want)
	}
	if !reflect.DeepEqual(ed.Created, []string{kimiFinalNewline}) {
		t.Errorf("created %v", ed.Created)
	}
	// a new file starts with our first table
	ed, err = tg.Adapter.Add(tg, nil, nil, false)
	if err != nil || !bytes.HasPrefix(ed.Doc, []byte("[[hooks]]\nevent = \"UserPromptSubmit\"\n")) {
		t.Fatalf("new file: %v\n%s", err, ed.Doc)
	}
}

// TestKimiUserEdit: the user edits the file after add (a key at the top, a
// table after ours, a key inside the last table of theirs); remove takes out
// exactly our tables and leaves every edit of theirs byte for byte.
func TestKimiUserEdit(t *testing.T) {
	tg := testTarget(t, "kimi", "/home/u")
	orig := kimiSamples(t)["providers.toml"]
	ed, err := tg.Adapter.Add(tg, orig, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Record{Entries: ed.Entries, Created: ed.Created}
	edit := func(b []byte) []byte {
		s := "theme = \"light\" # mine\n" + string(b) + "\n# later\n[tui]\nx = 1\n"
		return []byte(strings.Replace(s, "max_steps_per_turn = 100\n", "max_steps_per_turn = 100\nretries = 3\n", 1))
	}
	rm, err := tg.Adapter.Remove(tg, edit(ed.Doc), rec, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := edit(orig); !bytes.Equal(rm.Doc, want) {
		t.Fatalf("remove after a user edit:\n%q\nwant\n%q", rm.Doc, want)
	}
	// an entry of ours edited by hand stays, and is said; --force takes it out
	hand := bytes.Replace(ed.Doc, []byte("stop.sh\"\ntimeout = 5"), []byte("stop.sh\"\ntimeout = 9"), 1)
	rm, err = tg.Adapter.Remove(tg, hand, rec, false)
	if err != nil || !rm.Kept || len(rm.Notes) != 1 || !strings.Contains(rm.Notes[0], `"Stop"`) {
		t.Fatalf("hand-edited entry: %v kept=%v notes=%q", err, rm.Kept, rm.Notes)
	}
	if !bytes.Contains(rm.Doc, []byte("stop.sh\"\ntimeout = 9")) || bytes.Contains(rm.Doc, []byte("interrupt.sh")) {
		t.Fatalf("hand-edited entry:\n%s", rm.Doc)
	}
	rm, err = tg.Adapter.Remove(tg, hand, rec, true)
	if err != nil || rm.Kept || !bytes.Equal(rm.Doc, orig) {
		t.Fatalf("forced remove: %v\n%s", err, rm.Doc)
	}
	// add keeps the hand-edited one too, and adds nothing twice
	again, err := tg.Adapter.Add(tg, hand, rec, false)
	if err != nil || !again.Kept || !bytes.Equal(again.Doc, hand) {
		t.Fatalf("add over a hand-edited entry: %v\n%s", err, again.Doc)
	}
}

// TestKimiBadInput: what add refuses, and how it says so; nothing is written.
func TestKimiBadInput(t *testing.T) {
	tg := testTarget(t, "kimi", "/home/u")
	cases := []struct {
		name, doc, want string
		off             bool // an *OffError: Kimi would run none of the hooks
	}{
		{"invalid TOML", "a = \n", "invalid TOML at line 1", false},
		{"duplicate key", "a = 1\na = 2\n", "invalid TOML", false},
		{"hooks a string", "hooks = \"x\"\n", `"hooks" is not a list of [[hooks]] tables`, false},
		{"inline hooks", "hooks = [{event = \"Stop\", command = \"x\"}]\n", "not all written as [[hooks]] tables", false},
		{"extra key", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\nasync = true\n", `[[hooks]] entry 1 has the key "async"`, true},
		{"unknown event", "[[hooks]]\nevent = \"stop\"\ncommand = \"x\"\n", `has the event "stop", which Kimi Code 2.1.0 does not know`, true},
		{"empty command", "[[hooks]]\nevent = \"Stop\"\ncommand = \"\"\n", "has no command", true},
		{"timeout 0", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = 0\n", "has the timeout 0", true},
		{"timeout 1.5", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = 1.5\n", "has the timeout 1.5", true},
		{"matcher number", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\nmatcher = 1\n", "matcher that is not a string", true},
		{"second entry bad", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\n\n[[hooks]]\nevent = \"Stop\"\n", "[[hooks]] entry 2 has no command", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tg.Adapter.PlanAdd(tg, PlanInput{Files: map[string][]byte{tg.Adapter.File(tg): []byte(c.doc)}})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if off := errors.As(err, new(*OffError)); off != c.off {
				t.Errorf("OffError %v, want %v (%v)", off, c.off, err)
			}
		})
	}
	// a whole-number float timeout is one Kimi takes (JavaScript has no ints)
	if _, err := tg.Adapter.Check(tg, []byte("[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = 5.0\nmatcher = \"\"\n"), nil); err != nil {
		t.Errorf("timeout 5.0: %v", err)
	}
}

// TestKimiHeaders: the header scanner finds table headers and nothing that
// only looks like one.
func TestKimiHeaders(t *testing.T) {
	hs := tomlHeaders(kimiSamples(t)["tricky.toml"])
	var got []string
	for _, h := range hs {
		n := h.Name
		if h.Array {
			n = "[" + n + "]"
		}
		got = append(got, n)
	}
	if want := []string{"[hooks]", "tui"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("headers %q, want %q", got, want)
	}
}

// TestKimiPlan: the plan edits config.toml alone, says that a running Kimi
// needs /reload, refuses --trust, and a remove of a file the install created
// deletes it.
func TestKimiPlan(t *testing.T) {
	tg := testTarget(t, "kimi", "/home/u")
	cfg := tg.Adapter.File(tg)
	p, err := tg.Adapter.PlanAdd(tg, PlanInput{Files: map[string][]byte{}})
	if err != nil || len(p.Edits) != 1 || p.Edits[0].Path != cfg || len(p.Scripts) != 6 { // and the runtime
		t.Fatalf("plan %+v %v", p, err)
	}
	if !strings.Contains(p.Next, "/reload") {
		t.Errorf("next %q", p.Next)
	}
	same, err := tg.Adapter.PlanAdd(tg, PlanInput{Files: map[string][]byte{cfg: p.Edits[0].Doc}})
	if err != nil || same.Next != "" || !bytes.Equal(same.Edits[0].Doc, p.Edits[0].Doc) {
		t.Errorf("second add: next %q, %v", same.Next, err)
	}
	if _, err := tg.Adapter.PlanAdd(tg, PlanInput{Trust: true}); !errors.Is(err, ErrTrustUnsupported) {
		t.Errorf("trust: %v", err)
	}
	rec := &Record{Entries: p.Edits[0].Entries, CreatedFile: true}
	r, err := tg.Adapter.PlanRemove(tg, PlanInput{Files: map[string][]byte{cfg: p.Edits[0].Doc}, Records: map[string]*Record{cfg: rec}})
	if err != nil || len(r.Edits) != 1 || !r.Edits[0].Delete {
		t.Fatalf("remove plan %+v %v", r, err)
	}
}

// TestKimiEmptyHooks: an empty inline hooks array (Kimi's legacy default
// config holds `hooks = []`) is taken over, since [[hooks]] tables cannot
// follow it, and remove puts its bytes back where they were, also after the
// user edited the file around it.
func TestKimiEmptyHooks(t *testing.T) {
	tg := testTarget(t, "kimi", "/home/u")
	ours := ""
	for _, ev := range []string{"UserPromptSubmit", "PermissionRequest", "PermissionResult", "Stop", "Interrupt"} {
		ours += "\n[[hooks]]\nevent = \"" + ev + "\"\ncommand = \"/home/u/.kimi-code/hookinstall-hooks/" + scripts.FileName(ev) + "\"\ntimeout = 5\n"
	}
	for _, c := range []struct{ name, orig, want string }{
		{"alone", "hooks = []\n", ours[1:]},
		{"no newline", "a = 1\nhooks = []", "a = 1\n" + ours},
		{"spaces and comments", "a = 1\n  hooks = [ # none yet\n  # really\n] # x\nb = 2\n", "a = 1\nb = 2\n" + ours},
		{"quoted key", "\"hooks\" = []\r\nb = 2\r\n", "b = 2\r\n" + ours},
		{"before tables", "x = 1\nhooks = []\n\n[models]\n", "x = 1\n\n[models]\n" + ours},
	} {
		t.Run(c.name, func(t *testing.T) {
			ed, err := tg.Adapter.Add(tg, []byte(c.orig), nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if string(ed.Doc) != c.want {
				t.Fatalf("add wrote\n%q\nwant\n%q", ed.Doc, c.want)
			}
			rec := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
			again, err := tg.Adapter.Add(tg, ed.Doc, rec, false)
			if err != nil || !bytes.Equal(again.Doc, ed.Doc) || !reflect.DeepEqual(again.Emptied, ed.Emptied) {
				t.Fatalf("second add: %v %v\n%q", err, again.Emptied, again.Doc)
			}
			rm, err := tg.Adapter.Remove(tg, ed.Doc, rec, false)
			if err != nil || string(rm.Doc) != c.orig {
				t.Fatalf("remove (%v) gave\n%q\nwant\n%q", err, rm.Doc, c.orig)
			}
		})
	}
	// the user adds a key at the top after the install: ours go, theirs stay,
	// and the empty array is back at the start of its line
	ed, err := tg.Adapter.Add(tg, []byte("a = 1\nhooks = []\nb = 2\n"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
	rm, err := tg.Adapter.Remove(tg, append([]byte("theme = 1\n"), ed.Doc...), rec, false)
	if want := "theme = 1\na = 1\nhooks = []\nb = 2\n"; err != nil || string(rm.Doc) != want {
		t.Fatalf("remove after an edit (%v) gave\n%q\nwant\n%q", err, rm.Doc, want)
	}
	// a table of the user's own after ours: no empty array can go back beside it
	rm, err = tg.Adapter.Remove(tg, append(append([]byte(nil), ed.Doc...), "\n[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\n"...), rec, false)
	if want := "a = 1\nb = 2\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\n"; err != nil || string(rm.Doc) != want {
		t.Fatalf("remove beside a user's table (%v) gave\n%q\nwant\n%q", err, rm.Doc, want)
	}
}
