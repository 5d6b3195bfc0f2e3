package adapters

import (
	"strings"
	"testing"
)

func TestCodexTrustEditRoundTrip(t *testing.T) {
	tg := testTarget(t, "codex", "/home/u")
	ed, err := tg.Adapter.Add(tg, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine"}]}]}}`), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	keyPath := "/home/u/.codex/hooks.json"
	es, err := codexTrustEntries(tg, ed.Doc, keyPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 5 {
		t.Fatalf("%d entries, want 5: %+v", len(es), es)
	}
	// Ours sits after the user's Stop group: group index 1.
	var stopKey string
	for _, e := range es {
		if e.Event == "Stop" {
			stopKey = e.Key
		}
		if !strings.HasPrefix(e.Hash, "sha256:") || !strings.HasPrefix(e.Command, tg.Prefix()) {
			t.Errorf("bad entry %+v", e)
		}
	}
	if stopKey != keyPath+":stop:1:0" {
		t.Errorf("stop key = %q", stopKey)
	}
	for _, orig := range []string{
		"",
		"model = \"o3\"\n",
		"model = \"o3\"",
		"model = \"o3\"\n\n[hooks.state]\n\n[hooks.state.\"/other/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:00\"\n",
		"[features]\nhooks = true\n\n[projects.\"/w\"]\ntrust_level = \"trusted\"\n",
	} {
		got, err := codexTrust([]byte(orig), es)
		if err != nil {
			t.Fatalf("%q: %v", orig, err)
		}
		again, err := codexTrust(got, es)
		if err != nil || string(again) != string(got) {
			t.Fatalf("trust twice changed the file:\n%s\n---\n%s", got, again)
		}
		st, _ := trustState(got)
		for _, e := range es {
			if st[e.Key] != e.Hash {
				t.Errorf("%q: %s not trusted", orig, e.Key)
			}
		}
		back, err := codexUntrust(tg, got, keyPath, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := orig
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if string(back) != want {
			t.Errorf("untrust:\n got %q\nwant %q", back, want)
		}
	}
	// A stale hash of ours is updated in place, not duplicated.
	stale := "[hooks.state." + tomlString(stopKey) + "]\ntrusted_hash = \"sha256:old\"\nenabled = true\n"
	got, err := codexTrust([]byte(stale), es)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(got), stopKey) != 1 || !strings.Contains(string(got), "enabled = true") {
		t.Errorf("stale entry not updated in place:\n%s", got)
	}
	// A user's own trust record under our hooks.json path stays.
	user := "[hooks.state." + tomlString(keyPath+":stop:0:0") + "]\ntrusted_hash = \"sha256:user\"\n"
	got, _ = codexTrust([]byte(user), es)
	back, _ := codexUntrust(tg, got, keyPath, nil)
	if string(back) != user {
		t.Errorf("user's trust record lost:\n%q", back)
	}
	// Trust for our key in an inline table cannot be edited safely.
	inline := "hooks = { state = { " + tomlString(stopKey) + " = { trusted_hash = \"sha256:x\" } } }\n"
	if _, err := codexTrust([]byte(inline), es); err == nil {
		t.Error("inline table accepted")
	}
}
