package adapters

import (
	"reflect"
	"testing"
)

// A container of the user's that was empty before the install, written with
// white space inside ("hooks": {\n  }), is given back byte for byte by a
// surgical remove (the file was edited since the install, so the backup is
// not restored): everything that is not ours comes back as it was.
func TestRemoveGivesEmptyContainersBackByteForByte(t *testing.T) {
	n := 0
	for _, a := range All() {
		switch a.Format.(type) {
		case HookMap, NamedSet: // the JSON agents, from the registry
		default:
			continue
		}
		n++
		agent := a.ID
		emptied := false
		for _, orig := range []string{
			"{\n  \"hooks\": {\n  }\n}\n",
			"{\n  \"hooks\": {\n\n  },\n  \"a\": 1\n}\n",
			"{\"hooks\": { }}",
			"{\n  \"hooks\": {\n    \"Stop\": [\n    ]\n  }\n}\n",
			"{\r\n\t\"hooks\": {\r\n\t\t\"PermissionRequest\": [ ]\r\n\t}\r\n}\r\n",
			"{ }",
			"{\n}\n",
			"{\n  \"hooks\": {}\n}\n",
		} {
			rootEmpty := orig == "{ }" || orig == "{\n}\n"
			if rootEmpty && a.Own {
				continue // the file is ours: a remove that leaves {} deletes it
			}
			tg := testTarget(t, agent, "/home/u")
			ed, err := tg.Adapter.Add(tg, []byte(orig), nil, false)
			if err != nil {
				t.Fatalf("%s: %q: %v", agent, orig, err)
			}
			rec := &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
			// The user edits the file between add and remove: a key of
			// theirs goes in at the front (or, where the root was empty,
			// a blank line at the end).
			edited := append([]byte("{\"x\": 1,"), ed.Doc[1:]...)
			want := "{\"x\": 1," + orig[1:]
			if rootEmpty {
				edited = append(append([]byte(nil), ed.Doc...), '\n')
				want = orig + "\n"
			}
			rm, err := tg.Adapter.Remove(tg, edited, rec, false)
			if err != nil {
				t.Fatalf("%s: %q: %v", agent, orig, err)
			}
			if string(rm.Doc) != want {
				t.Errorf("%s: %q: removed\n%q\nwant\n%q", agent, orig, rm.Doc, want)
			}
			// And with the same edit, an add again keeps the record:
			// every emptied container with its exact white space.
			again, err := tg.Adapter.Add(tg, edited, rec, false)
			if err != nil || !reflect.DeepEqual(again.Emptied, ed.Emptied) {
				t.Errorf("%s: %q: re-add of the edited file lost the record: %q, want %q (%v)", agent, orig, again.Emptied, ed.Emptied, err)
			}
			emptied = emptied || len(ed.Emptied) > 0
		}
		if !emptied {
			t.Errorf("%s: no add recorded an emptied container, so the re-add check above checked nothing", agent)
		}
	}
	if n < 9 {
		t.Fatalf("only %d JSON agents in the registry", n)
	}
}
