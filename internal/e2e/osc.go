package e2e

import (
	"bytes"
	"fmt"
	"strings"
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

// DecodeOSC finds every OSC 777 notify sequence in raw, verbatim or wrapped for tmux.
func DecodeOSC(raw []byte) []OSC {
	const intro = "]777;notify;"
	var out []OSC
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte(intro))
		if j < 0 {
			return out
		}
		at := i + j
		i = at + len(intro)
		if at == 0 || raw[at-1] != 0x1b {
			continue // "]777;notify;" without ESC before it: text, not a sequence
		}
		o := OSC{Offset: at - 1, Form: "verbatim"}
		const dcs = "\x1bPtmux;\x1b"
		if at-1 >= len(dcs) && string(raw[at-1-len(dcs):at-1]) == dcs {
			o.Form = "tmux"
			o.Offset = at - 1 - len(dcs)
		}
		rest := raw[i:]
		end, term := len(rest), "none"
		if k := bytes.IndexByte(rest, 0x07); k >= 0 {
			end, term = k, "BEL"
		}
		stEsc := "\x1b\\"
		if o.Form == "tmux" {
			stEsc = "\x1b\x1b\\" // an ST inside passthrough has its ESC doubled
		}
		if k := bytes.Index(rest[:end], []byte(stEsc)); k >= 0 {
			end, term = k, "ST"
		}
		// no terminator yet: stop at the next ESC so a cut-off sequence stays short
		if term == "none" {
			if k := bytes.IndexByte(rest, 0x1b); k >= 0 {
				end = k
			}
		}
		field := string(rest[:end])
		if k := strings.IndexByte(field, ';'); k >= 0 {
			o.NS, o.Body = field[:k], field[k+1:]
		} else {
			o.Body = field
		}
		for st, b := range stateBodies {
			if b == o.Body {
				o.State = st
			}
		}
		if o.Form == "tmux" && term == "BEL" {
			// the passthrough must close with ESC \ right after the BEL
			if !bytes.HasPrefix(rest[end+1:], []byte("\x1b\\")) {
				o.Term = "BEL without the closing ESC \\ of the passthrough"
				out = append(out, o)
				i += end
				continue
			}
		}
		o.Term = term
		out = append(out, o)
		i += end
	}
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
