package e2e

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hookinstall/hookinstall"
)

// The states a hook reports, and the exact OSC bodies for them (PRODUCT.md).
var stateBodies = map[string]string{
	"working":     "agent is working",
	"attention":   "agent needs your input",
	"done":        "agent is done",
	"interrupted": "agent was interrupted",
}

// OSCBytes is the exact verbatim wire form for a state in namespace ns.
func OSCBytes(ns, state string) string {
	return "\x1b]777;notify;" + ns + ";" + stateBodies[state] + "\x07"
}

// TmuxOSCBytes is the same sequence wrapped in tmux DCS passthrough, as Claude Code
// sends it when $TMUX is set: ESC P tmux; ESC ESC ]777;... BEL ESC \.
func TmuxOSCBytes(ns, state string) string {
	return "\x1bPtmux;\x1b" + OSCBytes(ns, state) + "\x1b\\"
}

// An OSC is one OSC 777 notify sequence found in a raw pty byte stream.
type OSC struct {
	Offset int    // byte offset of its first byte
	NS     string // the notify title (our namespace, or someone else's)
	Body   string
	State  string // working, attention, done, interrupted; "" for an unknown body
	Form   string // "verbatim" or "tmux" (DCS passthrough)
	Term   string // "BEL", "ST" or "none" (cut off)
}

// Exact reports whether the sequence is byte for byte the documented wire form.
func (o OSC) Exact() bool { return o.State != "" && o.Term == "BEL" }

func (o OSC) String() string {
	st := o.State
	if st == "" {
		st = "?"
	}
	s := fmt.Sprintf("%s %q (%s", st, o.Body, o.Form)
	if o.NS != "" && o.Form != "" {
		s = fmt.Sprintf("%s ns=%s", s, o.NS)
	}
	if o.Term != "BEL" {
		s += ", ended by " + o.Term
	}
	return fmt.Sprintf("%s, @%d)", s, o.Offset)
}

// DecodeOSC finds every OSC 777 notify sequence in raw, verbatim or wrapped for
// tmux, with the host's own decoder (hookinstall.Decoder), and says for each how
// it ended. A sequence the decoder did not complete (cut off, or broken by a
// stray byte) is listed too, ended by "none", so a report shows it.
func DecodeOSC(raw []byte) []OSC {
	const intro, dcs = "\x1b]777;notify;", "\x1bPtmux;\x1b"
	var d hookinstall.Decoder
	var out []OSC
	done := map[int]bool{} // offsets of the intros decoded
	for _, n := range d.Feed(raw) {
		o := OSC{Offset: int(n.Offset), NS: n.Namespace, Body: n.Body, State: string(n.State), Form: "verbatim"}
		at := o.Offset
		if n.Tmux {
			o.Form = "tmux"
			at += len(dcs)
		}
		done[at] = true
		p := at + len(intro) + len(o.NS)
		if p < len(raw) && raw[p] == ';' {
			p += 1 + len(o.Body)
		}
		switch {
		case p < len(raw) && raw[p] == 0x07:
			o.Term = "BEL"
			if n.Tmux && !bytes.HasPrefix(raw[p+1:], []byte("\x1b\\")) {
				o.Term = "BEL without the closing ESC \\ of the passthrough"
			}
		default:
			o.Term = "ST"
		}
		out = append(out, o)
	}
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte(intro))
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(intro)
		if done[at] {
			continue
		}
		o := OSC{Offset: at, Form: "verbatim", Term: "none"}
		if at >= len(dcs) && string(raw[at-len(dcs):at]) == dcs {
			o.Form, o.Offset = "tmux", at-len(dcs)
		}
		field := raw[i:]
		if k := bytes.IndexAny(field, "\x07\x1b"); k >= 0 {
			field = field[:k]
		}
		ns, body, _ := strings.Cut(string(field), ";")
		o.NS, o.Body = ns, body
		for st, b := range stateBodies {
			if b == o.Body {
				o.State = st
			}
		}
		out = append(out, o)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Offset < out[b].Offset })
	return out
}

// OfNS keeps the sequences in namespace ns.
func OfNS(all []OSC, ns string) []OSC {
	var out []OSC
	for _, o := range all {
		if o.NS == ns {
			out = append(out, o)
		}
	}
	return out
}

// States lists the states of seq, "?" for an unknown body.
func States(seq []OSC) []string {
	var s []string
	for _, o := range seq {
		if o.State == "" {
			s = append(s, "?")
		} else {
			s = append(s, o.State)
		}
	}
	return s
}

// Describe renders a sequence list for a failure message, one per line.
func Describe(seq []OSC) string {
	if len(seq) == 0 {
		return "  (no OSC 777 notify sequence at all)"
	}
	var b strings.Builder
	for i, o := range seq {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, o)
	}
	return strings.TrimRight(b.String(), "\n")
}

// CheckTurn checks the OSC sequences of one agent turn (prompt, permission prompt,
// approval, end of turn) in namespace ns, and returns one line per problem, each
// naming who (e.g. "claude ($TMUX unset)") and the missing or out-of-order state.
// form is the wrapping every sequence must have: "verbatim" or "tmux".
func CheckTurn(who string, all []OSC, ns, form string) []string {
	seq := OfNS(all, ns)
	var probs []string
	idx := func(state string, from int) int {
		for i := from; i < len(seq); i++ {
			if seq[i].State == state {
				return i
			}
		}
		return -1
	}
	for _, o := range seq {
		switch {
		case o.State == "":
			probs = append(probs, fmt.Sprintf("%s: unknown OSC body %q (want one of the four documented bodies)", who, o.Body))
		case !o.Exact():
			probs = append(probs, fmt.Sprintf("%s: OSC for state %s is not terminated by BEL as documented (%s)", who, o.State, o.Term))
		}
		if o.Form != form {
			probs = append(probs, fmt.Sprintf("%s: OSC for state %s arrived %s, want %s", who, o.State, o.Form, form))
		}
	}
	w := idx("working", 0)
	a := idx("attention", 0)
	if w < 0 {
		probs = append(probs, fmt.Sprintf("%s: missing state working (%q never reached the pty after the prompt)", who, stateBodies["working"]))
	}
	if a < 0 {
		probs = append(probs, fmt.Sprintf("%s: missing state attention (%q never reached the pty at the permission prompt)", who, stateBodies["attention"]))
	}
	d := -1
	if a >= 0 {
		d = idx("done", a+1)
	}
	if d < 0 {
		if idx("done", 0) < 0 {
			probs = append(probs, fmt.Sprintf("%s: missing state done (%q never reached the pty at the end of the turn)", who, stateBodies["done"]))
		} else if a >= 0 {
			probs = append(probs, fmt.Sprintf("%s: missing state done after attention (the turn's end was not reported after the permission prompt)", who))
		}
	}
	if n := idx("working", a+1); a >= 0 && d > a && (n < 0 || n > d) {
		// every agent's hooks now say working at the first event after an
		// approval (docs/agents.md "After an approval")
		probs = append(probs, fmt.Sprintf("%s: stale attention: no working between attention (#%d) and done (#%d): after the approval the tab said it needs you until the turn ended", who, a+1, d+1))
	}
	if w >= 0 && a >= 0 && a < w {
		probs = append(probs, fmt.Sprintf("%s: out of order: attention (#%d) before working (#%d)", who, a+1, w+1))
	}
	if a >= 0 {
		for i := 0; i < a; i++ {
			if seq[i].State == "done" {
				probs = append(probs, fmt.Sprintf("%s: false done: done (#%d) arrived before attention (#%d), between the prompt and the permission prompt", who, i+1, a+1))
			}
		}
	} else if dd := idx("done", 0); dd >= 0 && w >= 0 && dd > w {
		probs = append(probs, fmt.Sprintf("%s: done (#%d) arrived with no attention before it", who, dd+1))
	}
	if len(seq) > 0 && seq[len(seq)-1].State != "done" && d >= 0 {
		probs = append(probs, fmt.Sprintf("%s: the turn ended on state %s, not done", who, States(seq[len(seq)-1:])[0]))
	}
	return probs
}

// CheckStates checks that the OSC sequences in namespace ns are exactly want, state
// by state in order, each in the documented wire form (BEL-terminated, wrapped as
// form says), and returns one line per problem naming who. It is for turns other
// than CheckTurn's (an interrupted one, an agent with no permission prompt).
func CheckStates(who string, all []OSC, ns, form string, want []string) []string {
	seq := OfNS(all, ns)
	var probs []string
	for i, o := range seq {
		switch {
		case o.State == "":
			probs = append(probs, fmt.Sprintf("%s: OSC #%d has an unknown body %q (want one of the four documented bodies)", who, i+1, o.Body))
		case !o.Exact():
			probs = append(probs, fmt.Sprintf("%s: OSC #%d for state %s is not terminated by BEL as documented (%s)", who, i+1, o.State, o.Term))
		}
		if o.Form != form {
			probs = append(probs, fmt.Sprintf("%s: OSC #%d for state %s arrived %s, want %s", who, i+1, o.State, o.Form, form))
		}
	}
	var got []string // the known states; an unknown body is reported above
	for _, o := range seq {
		// working again while working (a post-tool hook after a tool
		// that needed no approval) says nothing new
		if o.State != "" && (o.State != "working" || len(got) == 0 || got[len(got)-1] != "working") {
			got = append(got, o.State)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		for i, w := range want {
			if i >= len(got) {
				probs = append(probs, fmt.Sprintf("%s: missing state %s (#%d of %s; %q never reached the pty)", who, w, i+1, strings.Join(want, ", "), stateBodies[w]))
				continue
			}
			if got[i] != w {
				if !slices.Contains(got[i:], w) { // a state that never came: name it
					probs = append(probs, fmt.Sprintf("%s: missing state %s (#%d of %s; %q never reached the pty; got %s)", who, w, i+1, strings.Join(want, ", "), stateBodies[w], strings.Join(got, ", ")))
				}
				probs = append(probs, fmt.Sprintf("%s: OSC #%d is %s, want %s (want the states %s in that order, got %s)", who, i+1, got[i], w, strings.Join(want, ", "), strings.Join(got, ", ")))
				break
			}
		}
		if len(got) > len(want) {
			probs = append(probs, fmt.Sprintf("%s: %d OSC sequence(s) after the expected %s: %s", who, len(got)-len(want), strings.Join(want, ", "), strings.Join(got[len(want):], ", ")))
		}
	}
	return probs
}
