package adapters

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// The fast path of classify must never call an entry of ours foreign, however
// the JSON spells its command.
func TestClassifySpellings(t *testing.T) {
	tests := []struct {
		prefix, raw string
		want        entryKind
	}{
		{P, ours("Stop"), oursPure},
		{P, strings.ReplaceAll(ours("Stop"), "/", `\/`), oursPure},
		{P, strings.Replace(ours("Stop"), "/hookinstall", `/\u0068ookinstall`, 1), oursPure},
		{P, `{"hooks":[{"type":"command","command":"mine \"q\""},{"type":"command","command":"` + P + `stop.sh"}]}`, oursMixed},
		{P, `{"hooks":[{"type":"command","command":"/usr/bin/x \"q\"","timeout":5}]}`, foreign},
		{P, `{"matcher":"Bash","hooks":[{"type":"command","command":"echo"}]}`, foreign},
		{`/home/a"b/.claude/hookinstall-hooks/`, `{"hooks":[{"type":"command","command":"/home/a\"b/.claude/hookinstall-hooks/stop.sh"}]}`, oursPure},
		{`/home/ü/.claude/hookinstall-hooks/`, `{"hooks":[{"type":"command","command":"/home/\u00fc/.claude/hookinstall-hooks/stop.sh"}]}`, oursPure},
	}
	for _, tt := range tests {
		if got := classify(gjson.Parse(tt.raw), tt.prefix); got != tt.want {
			t.Errorf("classify(%s, %q) = %v, want %v", tt.raw, tt.prefix, got, tt.want)
		}
	}
}

// A repeated event key is reported where it is in the user's file, even when
// entries before it were taken out first.
func TestRemoveDuplicateKeyOffset(t *testing.T) {
	tg := testTarget(t, "claude", "/home/u")
	in := `{"hooks":{"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"Notification":[],"Notification":[]}}`
	_, err := tg.Adapter.Remove(tg, []byte(in), nil, false)
	want := strings.LastIndex(in, `"Notification"`)
	se, ok := err.(*SyntaxError)
	if !ok || se.Offset != int64(want) || !strings.Contains(se.Msg, `duplicate key "Notification"`) {
		t.Fatalf("err = %v, want a duplicate key at offset %d", err, want)
	}
}

// Validation is remembered by content: the same bytes in another buffer
// pass, and changed bytes are checked again.
func TestValidatedMemo(t *testing.T) {
	doc := []byte(`{"a":"` + strings.Repeat("x", memoMin) + `"}`)
	if _, err := ParseObject(doc); err != nil {
		t.Fatal(err)
	}
	again := append([]byte(nil), doc...)
	if _, err := ParseObject(again); err != nil {
		t.Fatal(err)
	}
	again[len(again)-1] = ','
	if _, err := ParseObject(again); err == nil {
		t.Fatal("a changed, invalid document passed")
	}
}
