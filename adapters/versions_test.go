package adapters

import (
	"reflect"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

func TestParseAndCompareVersions(t *testing.T) {
	for out, want := range map[string]string{
		"2.1.332 (Claude Code)\n": "2.1.332", "codex-cli 0.171.0": "0.171.0", "0.10.0": "0.10.0",
		"1.0.102\nA new version 1.0.103 is out": "1.0.102", "dev build": "",
		"GitHub Copilot CLI 1.0.39.\n": "1.0.39", "v0.52.12": "0.52.12",
		"Failed to save project registry to /tmp/x-0.34.0/.gemini/projects.json: ENOENT\n0.34.0\n": "0.34.0",
		"(node:12) Warning: node 22.19.0 is required\nkimi, version 0.10.0":                        "0.10.0",
		"codex-cli 0.171.0-alpha\n": "0.171.0-alpha",
	} {
		if got := ParseVersion(out); got != want {
			t.Errorf("ParseVersion(%q) = %q, want %q", out, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{{"0.10.0", "0.9.9", 1}, {"2.1.140", "2.1.141", -1}, {"1.0.39", "1.0.39", 0}, {"0.15.10", "0.15.6", 1}, {"0.171.0-alpha", "0.171.0", 0}} {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestJudge: the measured boundaries, on each side.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		r    *Range
		v    string
		want Gate
	}{
		{kimiRange, "0.10.0", Gate{Version: "0.10.0", Drop: []string{"Interrupt"}, Why: []string{kimiRange.Older[0].Why}}},
		{kimiRange, "0.9.0", Gate{Version: "0.9.0", Drop: []string{"Interrupt"}, Unmeasured: true, Why: []string{kimiRange.Older[0].Why}}},
		{kimiRange, "0.20.0", Gate{Version: "0.20.0"}},
		{kimiRange, "2.1.1", Gate{Version: "2.1.1", Newer: true}},
		{claudeRange, "2.1.140", Gate{Version: "2.1.140", Refuse: claudeRange.Older[0].Refuse, Why: []string{claudeRange.Older[0].Why}}},
		{claudeRange, "2.1.141", Gate{Version: "2.1.141"}},
		{qwenRange, "0.15.10", Gate{Version: "0.15.10", TimeoutMS: true, Why: []string{qwenRange.Older[0].Why}}},
		{qwenRange, "0.15.6", Gate{Version: "0.15.6", TimeoutMS: true, Why: []string{qwenRange.Older[0].Why}}},
		{qwenRange, "0.12.0", Gate{Version: "0.12.0", TimeoutMS: true, Refuse: qwenRange.Older[1].Refuse, Why: []string{qwenRange.Older[0].Why, qwenRange.Older[1].Why}}},
		{qwenRange, "0.21.2", Gate{Version: "0.21.2", TimeoutMS: true, Why: []string{qwenRange.Older[0].Why}}},
		{qwenRange, "0.23.3", Gate{Version: "0.23.3", TimeoutMS: true, Why: []string{qwenRange.Older[0].Why}}},
		{qwenRange, "0.23.4", Gate{Version: "0.23.4"}},
		{codexRange, "0.149.0", Gate{Version: "0.149.0", Drop: []string{"Interrupt"}, Why: []string{codexRange.Older[0].Why}}},
		{geminiRange, "0.30.0", Gate{Version: "0.30.0", Unmeasured: true}},
	} {
		if got := c.r.Judge(c.v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: %+v, want %+v", c.r.Program, c.v, got, c.want)
		}
	}
}

// TestUnsure: a state an agent may leave without a word to its hooks is
// unsure (Claude's attention and working: nothing at Esc), one it reports
// leaving is not (Kimi's), nor are done and interrupted; an agent no binary
// of which was measured (Grok), or none of ours, is unsure in both.
func TestUnsure(t *testing.T) {
	get := func(id string) *Agent { a, _ := Lookup(id); return a }
	for i, c := range []struct {
		a    *Agent
		s    terminal.State
		want bool
	}{
		{get("claude"), terminal.Attention, true}, {get("claude"), terminal.Working, true}, {get("claude"), terminal.Done, false},
		{get("codex"), terminal.Attention, true}, {get("codex"), terminal.Working, false},
		{get("kimi"), terminal.Attention, false}, {get("kimi"), terminal.Working, false},
		{get("grok"), terminal.Attention, true}, {get("grok"), terminal.Interrupted, false},
		{nil, terminal.Working, true}, {nil, terminal.Done, false},
	} {
		if got := c.a.Unsure(c.s); got != c.want {
			t.Errorf("case %d: Unsure(%s) = %v, want %v", i, c.s, got, c.want)
		}
	}
}
