package jsonedit

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// jsoncMap is claudeMap on a JSONC document.
func jsoncMap(prev *Record) MapEdit {
	m := claudeMap(prev)
	m.Comments = true
	return m
}

// recOf is the record an install leaves for its edit.
func recOf(ed Edit) *Record {
	return &Record{Entries: ed.Entries, Created: ed.Created, Emptied: ed.Emptied}
}

// TestJSONCAddExact pins what Add makes of commented documents, byte for
// byte: every comment stays where it was (a comment on the last line of a
// container stays on that line, after the comma; a container holding only a
// comment keeps it above our entry), and Remove gives the document back.
func TestJSONCAddExact(t *testing.T) {
	entry := func(ind, ev string) string {
		u := "  "
		return ind + "{\n" + ind + u + `"hooks": [` + "\n" + ind + u + u + "{\n" +
			ind + u + u + u + `"type": "command",` + "\n" + ind + u + u + u + `"command": "` + P + claudeFiles[ev] + `",` + "\n" +
			ind + u + u + u + `"timeout": 5` + "\n" + ind + u + u + "}\n" + ind + u + "]\n" + ind + "}"
	}
	three := func(ind string) string {
		var b []string
		for _, ev := range []string{"UserPromptSubmit", "PermissionRequest", "Stop"} {
			b = append(b, ind+`"`+ev+`": [`+"\n"+entry(ind+"  ", ev)+"\n"+ind+"]")
		}
		return strings.Join(b, ",\n")
	}
	for _, c := range []struct{ name, in, want string }{
		{"header and a comment after the last member",
			"// Factory CLI Settings\n{\n  \"model\": \"m\" // the default\n}\n",
			"// Factory CLI Settings\n{\n  \"model\": \"m\", // the default\n  \"hooks\": {\n" + three("    ") + "\n  }\n}\n"},
		{"hooks holding only a comment",
			"{\n  \"hooks\": {\n    // none yet\n  }\n}\n",
			"{\n  \"hooks\": {\n    // none yet\n" + three("    ") + "\n  }\n}\n"},
		{"a block comment after the last member, CRLF",
			"{\r\n  \"a\": 1 /* one */\r\n}",
			strings.ReplaceAll("{\n  \"a\": 1, /* one */\n  \"hooks\": {\n"+three("    ")+"\n  }\n}", "\n", "\r\n")},
		{"a comment that is not alone on its line stays after the value",
			"{\"a\": 1 /* x */, \"b\": 2}",
			"{\"a\": 1 /* x */, \"b\": 2, \"hooks\": {\"UserPromptSubmit\": [" + compactOurs("UserPromptSubmit") + "], \"PermissionRequest\": [" + compactOurs("PermissionRequest") + "], \"Stop\": [" + compactOurs("Stop") + "]}}"},
		{"strings that look like comments are strings",
			"{\n  \"url\": \"http://x/*y*/\" // real\n}",
			"{\n  \"url\": \"http://x/*y*/\", // real\n  \"hooks\": {\n" + three("    ") + "\n  }\n}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ed, err := jsoncMap(nil).Add([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(ed.Doc) != c.want {
				t.Fatalf("Add:\n%s\nwant:\n%s", ed.Doc, c.want)
			}
			rm, err := jsoncMap(recOf(ed)).Remove(ed.Doc)
			if err != nil || string(rm.Doc) != c.in {
				t.Fatalf("Remove (%v):\n%q\nwant:\n%q", err, rm.Doc, c.in)
			}
			rm, err = jsoncMap(nil).Remove(ed.Doc) // no manifest
			if err != nil || !reflect.DeepEqual(CommentsOf(rm.Doc), CommentsOf([]byte(c.in))) {
				t.Fatalf("Remove with no record lost a comment (%v):\n%s", err, rm.Doc)
			}
		})
	}
}

func compactOurs(ev string) string {
	return `{"hooks": [{"type": "command", "command": "` + P + claudeFiles[ev] + `", "timeout": 5}]}`
}

// TestJSONCRemoveKeepsUserComments: comments the user wrote next to our
// entries after the install stay when Remove takes ours out.
func TestJSONCRemoveKeepsUserComments(t *testing.T) {
	in := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]\n  }\n}\n"
	ed, err := jsoncMap(nil).Add([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	// the user comments each entry of Stop, ours too, and the event map
	doc := strings.Replace(string(ed.Doc), `"command": "mine"}]},`, `"command": "mine"}]}, // mine`, 1)
	doc = strings.Replace(doc, "    \"Stop\": [\n", "    \"Stop\": [\n      /* first mine, then hookinstall's */\n", 1)
	doc = strings.Replace(doc, "    \"PermissionRequest\": [", "    // asks\n    \"PermissionRequest\": [", 1)
	rm, err := jsoncMap(recOf(ed)).Remove([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/* first mine, then hookinstall's */", "// mine", "// asks"}
	if got := CommentsOf(rm.Doc); !reflect.DeepEqual(got, want) {
		t.Fatalf("comments after Remove: %q, want %q\n%s", got, want, rm.Doc)
	}
	if _, err := ParseJSONC(rm.Doc); err != nil || bytes.Contains(rm.Doc, []byte(P)) {
		t.Fatalf("Remove left %v or ours:\n%s", err, rm.Doc)
	}
}

// TestJSONCRefuses: JSONC allows comments, nothing more; and a comment is
// still an error where the agent reads none.
func TestJSONCRefuses(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"{\"a\": 1,}", "trailing comma"},
		{"{\"a\": [1,]}", "trailing comma"},
		{"{\"a\": 1} /* open", "never closed"},
		{"\xef\xbb\xbf{}", "byte order mark"},
		{"// only a comment\n", "invalid JSON"},
		{"{\"a\": 1} x", "invalid"},
	} {
		if _, err := jsoncMap(nil).Add([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Add(%q) = %v, want an error saying %q", c.in, err, c.msg)
		}
	}
	if _, err := claudeMap(nil).Add([]byte("{\n  // c\n  \"a\": 1\n}")); err == nil || !strings.Contains(err.Error(), MsgComment) {
		t.Errorf("strict Add of a comment: %v", err)
	}
}

// FuzzJSONCAddRemove: for every JSONC object x with no entry of ours,
// Remove(Add(x)) == x byte for byte, every comment of x is in Add(x) in
// order, Add(x) is valid JSONC, and Add is idempotent.
func FuzzJSONCAddRemove(f *testing.F) {
	for _, file := range allCorpusFiles(f) {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	jsonc, _ := filepath.Glob(filepath.Join(ownCorpus, "jsonc", "*.json"))
	if len(jsonc) == 0 {
		f.Fatal("no JSONC files in the corpus")
	}
	for _, s := range []string{"{/**/}", "{//\n}", "{\n  \"hooks\": { /* a */ \"Stop\": [ // b\n ] }\n}", "{\"a\":[1 // x\n]}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, x []byte) {
		if _, err := ParseJSONC(x); err != nil {
			if _, aerr := jsoncMap(nil).Add(x); aerr == nil && !IsBlank(x) {
				t.Fatalf("Add accepted what ParseJSONC refuses (%v)", err)
			}
			return
		}
		ed, err := jsoncMap(nil).Add(x)
		if err != nil {
			return // a shape on our path the agent would not run: refused
		}
		if _, err := ParseJSONC(ed.Doc); err != nil {
			t.Fatalf("Add made invalid JSONC (%v):\n%q\n%q", err, x, ed.Doc)
		}
		if !reflect.DeepEqual(CommentsOf(ed.Doc), CommentsOf(x)) {
			t.Fatalf("Add changed the comments:\n%q\n%q", x, ed.Doc)
		}
		again, err := jsoncMap(recOf(ed)).Add(ed.Doc)
		if err != nil || !bytes.Equal(again.Doc, ed.Doc) {
			t.Fatalf("second Add not a no-op (%v):\n%q\n%q", err, ed.Doc, again.Doc)
		}
		if strip, err := jsoncMap(nil).Remove(x); err != nil || !bytes.Equal(strip.Doc, x) {
			return // x holds ours already
		}
		rm, err := jsoncMap(recOf(ed)).Remove(ed.Doc)
		if err != nil || !bytes.Equal(rm.Doc, x) {
			t.Fatalf("Remove(Add(x)) != x (%v)\nx:      %q\nadd:    %q\nremove: %q", err, x, ed.Doc, rm.Doc)
		}
	})
}

// TestJSONCRemoveMiddle: an entry of ours between two of the user's, with
// comments on both sides, goes with its own comma only.
func TestJSONCRemoveMiddle(t *testing.T) {
	u1 := `{"hooks": [{"type": "command", "command": "one"}]}`
	u2 := `{"hooks": [{"type": "command", "command": "two"}]}`
	for _, c := range []struct{ in, want string }{
		{"{\"hooks\": {\"Stop\": [\n  " + u1 + ", // one\n  " + ours("Stop") + ",\n  " + u2 + " // two\n]}}",
			"{\"hooks\": {\"Stop\": [\n  " + u1 + ", // one\n  " + u2 + " // two\n]}}"},
		{"{\"hooks\": {\"Stop\": [\n  " + u1 + ",\n  " + ours("Stop") + ", // mine?\n  " + u2 + "\n]}}",
			"{\"hooks\": {\"Stop\": [\n  " + u1 + ", // mine?\n  " + u2 + "\n]}}"},
		{"{\"hooks\": {\"Stop\": [\n  " + u1 + ", /* a */\n  " + ours("Stop") + ", /* b */\n  " + u2 + "\n]}}",
			"{\"hooks\": {\"Stop\": [\n  " + u1 + ", /* a */\n  /* b */\n  " + u2 + "\n]}}"},
	} {
		rm, err := jsoncMap(nil).Remove([]byte(c.in))
		if err != nil || string(rm.Doc) != c.want {
			t.Errorf("Remove (%v):\n%s\nwant:\n%s", err, rm.Doc, c.want)
		}
	}
}
