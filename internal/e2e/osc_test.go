package e2e

import (
	"strings"
	"testing"
)

func TestOSCBytesExact(t *testing.T) {
	if got, want := OSCBytes("hookinstall", "attention"), "\x1b]777;notify;hookinstall;agent needs your input\x07"; got != want {
		t.Fatalf("OSCBytes = %q, want %q", got, want)
	}
	if got, want := TmuxOSCBytes("hookinstall", "done"), "\x1bPtmux;\x1b\x1b]777;notify;hookinstall;agent is done\x07\x1b\\"; got != want {
		t.Fatalf("TmuxOSCBytes = %q, want %q", got, want)
	}
}

func TestDecodeVerbatimAndTmux(t *testing.T) {
	raw := "\x1b[2Jhello" + OSCBytes("hookinstall", "working") + "\x1b]0;title\x07" +
		TmuxOSCBytes("hookinstall", "attention") + "text ]777;notify;hookinstall;agent is done" +
		OSCBytes("other", "done") + OSCBytes("hookinstall", "done")
	got := DecodeOSC([]byte(raw))
	want := []struct{ ns, state, form string }{
		{"hookinstall", "working", "verbatim"},
		{"hookinstall", "attention", "tmux"},
		{"other", "done", "verbatim"},
		{"hookinstall", "done", "verbatim"},
	}
	if len(got) != len(want) {
		t.Fatalf("decoded %d sequences, want %d:\n%s", len(got), len(want), Describe(got))
	}
	for i, w := range want {
		g := got[i]
		if g.NS != w.ns || g.State != w.state || g.Form != w.form || !g.Exact() {
			t.Errorf("#%d = %s, want %+v", i+1, g, w)
		}
	}
	if got[0].Offset != strings.Index(raw, "\x1b]777") {
		t.Errorf("offset %d", got[0].Offset)
	}
	if got[1].Offset != strings.Index(raw, "\x1bPtmux;") {
		t.Errorf("tmux offset %d", got[1].Offset)
	}
}

func TestDecodeBroken(t *testing.T) {
	raw := "\x1b]777;notify;hookinstall;agent needs your inpux\x07" + // corrupted body
		"\x1b]777;notify;hookinstall;agent is done\x1b\\" + // ST, not BEL
		"\x1bPtmux;\x1b\x1b]777;notify;hookinstall;agent is working\x07X" + // passthrough not closed
		"\x1b]777;notify;hookinstall;agent is work" // cut off
	got := DecodeOSC([]byte(raw))
	if len(got) != 4 {
		t.Fatalf("decoded %d, want 4:\n%s", len(got), Describe(got))
	}
	if got[0].State != "" || got[1].Term != "ST" || got[1].State != "done" || got[2].Exact() || got[3].Term != "none" {
		t.Fatalf("unexpected decode:\n%s", Describe(got))
	}
}

func seq(form string, states ...string) []byte {
	var b strings.Builder
	for _, s := range states {
		b.WriteString("\x1b[?25l")
		if form == "tmux" {
			b.WriteString(TmuxOSCBytes("hookinstall", s))
		} else {
			b.WriteString(OSCBytes("hookinstall", s))
		}
	}
	return []byte(b.String())
}

func TestCheckTurn(t *testing.T) {
	cases := []struct {
		name string
		raw  []byte
		form string
		want []string // substrings, one per expected problem; none means pass
	}{
		{"claude ok", seq("verbatim", "working", "attention", "working", "done"), "verbatim", nil},
		{"stale attention", seq("verbatim", "working", "attention", "done"), "verbatim", []string{"stale attention: no working between attention (#2) and done (#3)"}},
		{"opencode ok", seq("verbatim", "working", "attention", "working", "done"), "verbatim", nil},
		{"tmux ok", seq("tmux", "working", "attention", "working", "done"), "tmux", nil},
		{"tmux wanted", seq("verbatim", "working", "attention", "working", "done"), "tmux", []string{
			"state working arrived verbatim, want tmux", "state attention arrived verbatim", "state working arrived verbatim", "state done arrived verbatim"}},
		{"missing attention", seq("verbatim", "working", "done"), "verbatim", []string{
			"missing state attention", "done (#2) arrived with no attention"}},
		{"missing working", seq("verbatim", "attention", "done"), "verbatim", []string{"missing state working", "stale attention"}},
		{"missing done", seq("verbatim", "working", "attention"), "verbatim", []string{"missing state done ("}},
		{"false done", seq("verbatim", "working", "done", "attention", "working", "done"), "verbatim", []string{
			"false done: done (#2) arrived before attention (#3)"}},
		{"order", seq("verbatim", "attention", "working", "done"), "verbatim", []string{
			"out of order: attention (#1) before working (#2)"}},
		{"ends working", seq("verbatim", "working", "attention", "working", "done", "working"), "verbatim", []string{
			"the turn ended on state working"}},
		{"nothing", nil, "verbatim", []string{"missing state working", "missing state attention", "missing state done"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := CheckTurn("agentx", DecodeOSC(c.raw), "hookinstall", c.form)
			if len(probs) != len(c.want) {
				t.Fatalf("problems:\n%s\nwant %d matching %q", strings.Join(probs, "\n"), len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(probs[i], w) || !strings.HasPrefix(probs[i], "agentx: ") {
					t.Errorf("problem %d = %q, want it to contain %q", i, probs[i], w)
				}
			}
		})
	}
}

func TestCheckStates(t *testing.T) {
	want := []string{"working", "attention", "interrupted"}
	cases := []struct {
		name string
		raw  []byte
		form string
		want []string // substrings, one per expected problem; none means pass
	}{
		{"ok", seq("verbatim", "working", "attention", "interrupted"), "verbatim", nil},
		// working again while working says nothing new
		{"working twice", seq("verbatim", "working", "working", "attention", "interrupted"), "verbatim", nil},
		{"missing interrupted", seq("verbatim", "working", "attention"), "verbatim", []string{"missing state interrupted (#3 of working, attention, interrupted"}},
		{"done instead", seq("verbatim", "working", "attention", "done"), "verbatim", []string{"missing state interrupted (#3 of", "OSC #3 is done, want interrupted"}},
		// a state out of order that does come later is not missing
		{"swapped", seq("verbatim", "attention", "working", "interrupted"), "verbatim", []string{"OSC #1 is attention, want working"}},
		// a broken hook in the middle (Qwen's attention between two working)
		{"middle broken", seq("verbatim", "working", "interrupted"), "verbatim", []string{"missing state attention (#2 of", "OSC #2 is interrupted, want attention"}},
		{"extra done", seq("verbatim", "working", "attention", "interrupted", "done"), "verbatim", []string{"1 OSC sequence(s) after the expected working, attention, interrupted: done"}},
		{"tmux wanted", seq("verbatim", "working", "attention", "interrupted"), "tmux", []string{
			"OSC #1 for state working arrived verbatim, want tmux", "#2 for state attention arrived verbatim", "#3 for state interrupted arrived verbatim"}},
		{"broken body", []byte(string(seq("verbatim", "working", "attention")) + "\x1b]777;notify;hookinstall;agent was interruptex\x07"), "verbatim", []string{
			"OSC #3 has an unknown body", "missing state interrupted (#3 of"}},
		{"nothing", nil, "verbatim", []string{"missing state working", "missing state attention", "missing state interrupted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := CheckStates("agentx", DecodeOSC(c.raw), "hookinstall", c.form, want)
			if len(probs) != len(c.want) {
				t.Fatalf("problems:\n%s\nwant %d matching %q", strings.Join(probs, "\n"), len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(probs[i], w) || !strings.HasPrefix(probs[i], "agentx: ") {
					t.Errorf("problem %d = %q, want it to contain %q", i, probs[i], w)
				}
			}
		})
	}
}
