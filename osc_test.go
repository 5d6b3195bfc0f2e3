package hookinstall

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestOSCBytes(t *testing.T) {
	for _, c := range []struct {
		s    State
		tmux bool
		want string
	}{
		{Working, false, "\x1b]777;notify;hookinstall;agent is working\x07"},
		{Attention, false, "\x1b]777;notify;hookinstall;agent needs your input\x07"},
		{Done, true, "\x1bPtmux;\x1b\x1b]777;notify;hookinstall;agent is done\x07\x1b\\"},
		{Interrupted, false, "\x1b]777;notify;hookinstall;agent was interrupted\x07"},
	} {
		if got := string(OSC("hookinstall", c.s, c.tmux)); got != c.want {
			t.Errorf("OSC(%s, tmux=%v) = %q, want %q", c.s, c.tmux, got, c.want)
		}
	}
}

// TestOSCUnknownState: a value that is not one of the four states gives nil,
// not a sequence with an empty body that no hook writes (review H6).
func TestOSCUnknownState(t *testing.T) {
	for _, s := range []State{"", "bogus", "Done", "agent is done"} {
		for _, tmux := range []bool{false, true} {
			if got := OSC("myhost", s, tmux); got != nil {
				t.Errorf("OSC(myhost, %q, tmux=%v) = %q, want nil", s, tmux, got)
			}
		}
	}
}

// feed decodes b in chunks of size n (the whole of b when n <= 0).
func feed(b []byte, n int) []Notification {
	var d Decoder
	if n <= 0 {
		return d.Feed(b)
	}
	var all []Notification
	for len(b) > 0 {
		k := min(n, len(b))
		all = append(all, d.Feed(b[:k])...)
		b = b[k:]
	}
	return all
}

func show(ns []Notification) string {
	var b strings.Builder
	for _, n := range ns {
		fmt.Fprintf(&b, "%q %q %q tmux=%v @%d\n", n.Namespace, n.State, n.Body, n.Tmux, n.Offset)
	}
	return b.String()
}

func TestDecoder(t *testing.T) {
	v := func(ns string, s State) string { return string(OSC(ns, s, false)) }
	x := func(ns string, s State) string { return string(OSC(ns, s, true)) }
	cases := []struct {
		name string
		in   string
		want []Notification
	}{
		{"verbatim", "\x1b[2Jhi" + v("hookinstall", Working) + "\x1b]0;title\x07",
			[]Notification{{"hookinstall", Working, "agent is working", false, 6}}},
		{"tmux", "ab" + x("termic", Attention) + "cd",
			[]Notification{{"termic", Attention, "agent needs your input", true, 2}}},
		{"st", "\x1b]777;notify;hookinstall;agent is done\x1b\\",
			[]Notification{{"hookinstall", Done, "agent is done", false, 0}}},
		{"tmux st", "\x1bPtmux;\x1b\x1b]777;notify;ns;agent is done\x1b\x1b\\\x1b\\",
			[]Notification{{"ns", Done, "agent is done", true, 0}}},
		{"unknown body", "\x1b]777;notify;other;build finished\x07",
			[]Notification{{"other", "", "build finished", false, 0}}},
		{"text is not a sequence", "text ]777;notify;hookinstall;agent is done\x07", nil},
		{"cut off", "\x1b]777;notify;hookinstall;agent is wo", nil},
		{"control byte ends it", "\x1b]777;notify;hookinstall;agent\nis done\x07", nil},
		{"passthrough ends inside", "\x1bPtmux;\x1b\x1b]777;notify;a;agent is done\x1b\\" + v("b", Done),
			[]Notification{{"b", Done, "agent is done", false, 38}}},
		{"esc restarts", "\x1b]77\x1b]777;notify;a;agent is done\x07",
			[]Notification{{"a", Done, "agent is done", false, 4}}},
		{"single esc inside tmux", "\x1bPtmux;\x1b]777;notify;a;agent is done\x07",
			[]Notification{{"a", Done, "agent is done", false, 7}}},
		{"esc esc", "\x1b\x1b\x1b" + v("a", Done),
			[]Notification{{"a", Done, "agent is done", false, 3}}},
		{"back to back", x("a", Working) + v("a", Attention) + x("a", Done),
			[]Notification{{"a", Working, "agent is working", true, 0}, {"a", Attention, "agent needs your input", false, 42},
				{"a", Done, "agent is done", true, 80}}},
		{"tmux without close", "\x1bPtmux;\x1b\x1b]777;notify;a;agent is done\x07\x1b" + v("b", Working)[1:],
			[]Notification{{"a", Done, "agent is done", true, 0}, {"b", Working, "agent is working", false, 37}}},
		// OSC 7501 records: ours (terminal mode) and Codex's (idle at a
		// turn's end, without our msg: done)
		{"7501", "\x1b]7501;state=blocked:kind=permission:id=claude-3:app=claude:title=Q2xhdWRlIENvZGU=\x1b\\",
			[]Notification{{"", Attention, "state=blocked:kind=permission:id=claude-3:app=claude:title=Q2xhdWRlIENvZGU=", false, 0}}},
		{"7501 tmux", "x\x1bPtmux;\x1b\x1b]7501;state=working:id=g-1:app=gemini\x1b\x1b\\\x1b\\",
			[]Notification{{"", Working, "state=working:id=g-1:app=gemini", true, 1}}},
		{"7501 each", "\x1b]7501;state=done:id=a-1\x07\x1b]7501;state=idle:id=a-1:msg=SW50ZXJydXB0ZWQ=\x07\x1b]7501;state=idle:app=codex\x1b\\\x1b]7501;state=clear\x07",
			[]Notification{{"", Done, "state=done:id=a-1", false, 0}, {"", Interrupted, "state=idle:id=a-1:msg=SW50ZXJydXB0ZWQ=", false, 25},
				{"", Done, "state=idle:app=codex", false, 71}, {"", "", "state=clear", false, 100}}},
		{"7501 and 777 back to back", "\x1b]7501;state=working\x07" + v("a", Done),
			[]Notification{{"", Working, "state=working", false, 0}, {"a", Done, "agent is done", false, 21}}},
		{"75 is neither", "\x1b]75;x\x07" + v("a", Done), []Notification{{"a", Done, "agent is done", false, 7}}},
		{"too long", "\x1b]777;notify;a;" + strings.Repeat("x", maxPayload) + "\x07" + v("a", Done),
			[]Notification{{"a", Done, "agent is done", false, int64(len("\x1b]777;notify;a;") + maxPayload + 1)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, n := range []int{0, 1, 2, 3, 7} {
				got := feed([]byte(c.in), n)
				if !reflect.DeepEqual(got, c.want) {
					t.Fatalf("chunks of %d:\ngot\n%swant\n%s", n, show(got), show(c.want))
				}
			}
		})
	}
}

// TestDecoderBounded feeds a megabyte of sequences that never end: the
// decoder keeps no more than maxPayload bytes.
func TestDecoderBounded(t *testing.T) {
	var d Decoder
	junk := bytes.Repeat([]byte("\x1b]777;notify;a;"+strings.Repeat("y", 300)), 4000)
	if got := d.Feed(junk); len(got) != 0 {
		t.Fatalf("decoded %d notifications from junk", len(got))
	}
	if cap(d.buf) > 2*maxPayload {
		t.Fatalf("decoder holds %d bytes", cap(d.buf))
	}
	long := append([]byte("\x1b]777;notify;a;"), bytes.Repeat([]byte("z"), 1<<20)...)
	d.Feed(long)
	if cap(d.buf) > 2*maxPayload {
		t.Fatalf("decoder holds %d bytes after a 1 MB sequence", cap(d.buf))
	}
}

// FuzzDecoder checks that where the chunks are cut never changes what is
// decoded, and that every notification decoded starts at its offset.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte(string(OSC("hookinstall", Working, false))+"x"+string(OSC("termic", Done, true))), uint16(1), uint16(3))
	f.Add([]byte("\x1b]777;notify;hookinstall;agent is done\x1b\\"), uint16(5), uint16(2))
	f.Add([]byte("\x1bPtmux;\x1b\x1b]777;notify;a;agent is done\x1b\x1b\\\x1b\\\x1b\x1b]777"), uint16(7), uint16(11))
	f.Add([]byte("\x1b]77\x1b]777;notify;a;b\x07\x1bPtmux;\x1b]777;notify;a;agent is working\x07"), uint16(2), uint16(9))
	f.Fuzz(func(t *testing.T, in []byte, a, b uint16) {
		whole := feed(in, 0)
		var d Decoder
		var got []Notification
		// chunks of varying sizes, cut where a and b say
		for i, rest := 0, in; len(rest) > 0; i++ {
			n := int(a)
			if i%2 == 1 {
				n = int(b)
			}
			n = n%17 + 1
			k := min(n, len(rest))
			got = append(got, d.Feed(rest[:k])...)
			rest = rest[k:]
		}
		if !reflect.DeepEqual(whole, got) {
			t.Fatalf("chunking changed the result:\nwhole\n%schunked\n%s", show(whole), show(got))
		}
		if !reflect.DeepEqual(whole, feed(in, 1)) {
			t.Fatalf("one-byte chunks changed the result")
		}
		for _, n := range whole {
			if n.Offset < 0 || n.Offset >= int64(len(in)) || in[n.Offset] != esc {
				t.Fatalf("notification at offset %d does not start with ESC", n.Offset)
			}
			if n.State != "" && !bytes.Contains(in[n.Offset:], []byte(n.Namespace+";"+n.State.Body())) {
				t.Fatalf("notification %+v not in the input", n)
			}
		}
		if cap(d.buf) > 2*maxPayload {
			t.Fatalf("decoder holds %d bytes", cap(d.buf))
		}
	})
}
