package adapters

import (
	"bytes"
	"testing"
)

// An agent can write back a stale copy that still holds our entries after a
// remove deleted the manifest (Claude rewrites settings.json unlocked). An add
// then finds containers holding nothing but ours, with no record of who made
// them; it must record them as ours so that remove takes them away again,
// instead of leaving "UserPromptSubmit": [] behind.
func TestAddWithoutManifestClaimsContainersHoldingOnlyOurs(t *testing.T) {
	tg := testTarget(t, "claude", "/home/u")
	a := tg.Adapter
	orig := []byte("{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say\"}]}]\n  }\n}\n")
	first, err := a.Add(tg, orig, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	// The resurrected file, seen by an add with no manifest.
	again, err := a.Add(tg, first.Doc, nil, false)
	if err != nil || !bytes.Equal(again.Doc, first.Doc) {
		t.Fatalf("add changed the file: %v", err)
	}
	rm, err := a.Remove(tg, again.Doc, &Record{Entries: again.Entries, Created: again.Created}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rm.Doc, orig) {
		t.Fatalf("remove left containers behind:\n%s\nwant:\n%s", rm.Doc, orig)
	}

	// And a file holding nothing but ours.
	only, err := a.Add(tg, []byte("{}"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	again, err = a.Add(tg, only.Doc, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	rm, err = a.Remove(tg, again.Doc, &Record{Entries: again.Entries, Created: again.Created}, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(rm.Doc) != "{}" {
		t.Fatalf("got %q, want {}", rm.Doc)
	}
}
