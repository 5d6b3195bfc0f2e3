package adapters

import (
	"bytes"
	"testing"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
)

// FuzzDroidHooksFile: for any ~/.factory/hooks.json x (and a settings.json
// with the user's Stop), add places each entry of ours in the file that
// defines its event, never adds an event to hooks.json (that would silence
// settings.json's list for it), and remove gives both files back byte for
// byte; a hooks.json that droid would ignore is refused when ours would
// have to go there.
func FuzzDroidHooksFile(f *testing.F) {
	for _, s := range []string{
		"{\n  \"UserPromptSubmit\": []\n}\n",
		"{\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}], \"SessionStart\": []}",
		"// header\n{\n  /* none */\n  \"Notification\": [\n    // later\n  ]\n} // end",
		"{\"UserPromptSubmit\": [{\"hooks\": [{\"type\": \"http\"}]}]}",
		"{\"hooksDisabled\": false, \"Stop\": [],}",
		"{\"hooks\": {\"Stop\": []}}", "{}", "", "[]",
	} {
		f.Add([]byte(s))
	}
	for _, x := range jsonSeeds(f) {
		f.Add(x)
	}
	tg := testTarget(f, "droid", "/home/u")
	a, d := tg.Adapter, droid{}
	sp, hp := a.File(tg), d.hooksJSON(tg)
	settings := []byte("{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]\n  }\n}\n")
	f.Fuzz(func(t *testing.T, x []byte) {
		files := map[string][]byte{sp: settings, hp: x}
		p, err := a.PlanAdd(tg, PlanInput{Files: files})
		if err != nil {
			return
		}
		v := d.view(tg, files)
		after := map[string][]byte{sp: settings, hp: x}
		recs := map[string]*Record{}
		for _, e := range p.Edits {
			if e.Delete {
				t.Fatalf("add deleted %s", e.Path)
			}
			after[e.Path] = e.Doc
			recs[e.Path] = &Record{Entries: e.Entries, Created: e.Created, Emptied: e.Emptied}
		}
		if !bytes.Equal(after[sp], settings) || !bytes.Equal(after[hp], x) {
			w := d.view(tg, after)
			for _, e := range a.Hooks {
				if v.hooks.defines[e.Event] != w.hooks.defines[e.Event] {
					t.Fatalf("add changed whether hooks.json defines %s:\n%q\n%q", e.Event, x, after[hp])
				}
				in := w.settings
				if v.hooks.defines[e.Event] {
					in = w.hooks
				}
				if in.err != nil {
					t.Fatalf("add left %s unreadable to droid: %v\n%q", in.path, in.err, after[in.path])
				}
				ev, _ := jsonedit.Find(in.events, e.Event)
				if len(FindOurs(wrapOne(e.Event, ev.Val), tg.Prefix())) != 1 {
					t.Fatalf("%s: ours is not once in %s, where droid reads that event:\n%q", e.Event, in.path, after[in.path])
				}
			}
		}
		again, err := a.PlanAdd(tg, PlanInput{Files: after, Records: recs})
		if err != nil {
			t.Fatalf("second add: %v", err)
		}
		for _, e := range again.Edits {
			if !bytes.Equal(e.Doc, after[e.Path]) {
				t.Fatalf("second add changed %s:\n%q\n%q", e.Path, after[e.Path], e.Doc)
			}
		}
		rm, err := a.PlanRemove(tg, PlanInput{Files: after, Records: recs})
		if err != nil {
			t.Fatalf("remove: %v", err)
		}
		back := map[string][]byte{sp: after[sp], hp: after[hp]}
		for _, e := range rm.Edits {
			back[e.Path] = e.Doc
		}
		if !bytes.Equal(back[sp], settings) || !bytes.Equal(back[hp], x) {
			t.Fatalf("remove(add) is not the files again:\nhooks.json %q\n        -> %q\n        -> %q\nsettings   -> %q", x, after[hp], back[hp], back[sp])
		}
	})
}
