package hookinstall

import (
	"encoding/base64"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// A State is one of the four things an agent's hooks report: the one
// type of it, from the generated scripts to this API.
type State = terminal.State

// The states, in the order a turn usually goes through them.
const (
	Working     = terminal.Working     // the agent is working on a prompt
	Attention   = terminal.Attention   // it needs the user: a permission prompt or a question
	Done        = terminal.Done        // the turn is over
	Interrupted = terminal.Interrupted // the user stopped the turn
)

// States lists the four states in a fixed order.
func States() []State { return terminal.States() }

// recordState is the state of a 7501 record's body.
func recordState(body string) State {
	kv := map[string]string{}
	for _, p := range strings.Split(body, ":") {
		k, v, _ := strings.Cut(p, "=")
		kv[k] = v
	}
	if kv["state"] == "idle" {
		if msg, _ := base64.StdEncoding.DecodeString(kv["msg"]); string(msg) == terminal.InterruptedMsg {
			return Interrupted
		}
		return Done
	}
	return map[string]State{"working": Working, "blocked": Attention, "done": Done}[kv["state"]]
}

// stateOf maps an OSC body back to its state.
func stateOf(body string) State {
	for _, s := range States() {
		if s.Body() == body {
			return s
		}
	}
	return ""
}

// OSC returns the exact bytes a hook writes for state s in namespace ns:
// ESC ] 777 ; notify ; NS ; BODY BEL. With tmux set, the same sequence
// wrapped in tmux's passthrough, as an agent running inside tmux sends it:
// ESC P tmux; ESC ESC ] 777 ; notify ; NS ; BODY BEL ESC \.
// For an s that is not one of the four states (see States) it returns nil:
// no hook writes such a sequence, and an empty body would claim one.
func OSC(ns string, s State, tmux bool) []byte {
	if s.Body() == "" {
		return nil
	}
	b := scripts.OSC(ns, s)
	if !tmux {
		return b
	}
	return []byte("\x1bPtmux;\x1b" + string(b) + "\x1b\\")
}

// A Notification is one state report found in a terminal's output: an
// OSC 777 notification of the host protocol, or an OSC 7501 Program Status
// record (which hookinstall's hooks send in terminal mode, and some agents
// themselves: Codex).
type Notification struct {
	// Namespace is the sender's namespace: a host keeps the ones in its
	// own and ignores the rest. "" for a 7501 record, which has none.
	Namespace string
	// State is the state reported, or "" when Body is not one of the four
	// documented bodies (another program's notification), nor a 7501
	// record of one (working, blocked, done; idle, which is Interrupted
	// where its msg says so, as ours does, else Done).
	State State
	// Body is the notification's text as it arrived (a 7501 record's
	// key=value pairs).
	Body string
	// Tmux reports a sequence that arrived wrapped in tmux's passthrough.
	Tmux bool
	// Offset is the position in the stream of the sequence's first byte
	// (counting every byte given to Feed since the Decoder was made).
	Offset int64
}

// maxPayload bounds what a Decoder keeps of one sequence (namespace and
// body): ours are under 60 bytes, and a longer run is dropped, so memory
// stays bounded however much garbage arrives.
const maxPayload = 512

// The sequences' fixed parts after the first ESC, each verbatim and inside
// tmux's passthrough: a notification's, then a 7501 record's.
var intros = [2][2]string{{"]777;notify;", "]7501;"}, {"Ptmux;\x1b\x1b]777;notify;", "Ptmux;\x1b\x1b]7501;"}}

// decoder states
const (
	sGround    = iota
	sEsc       // ESC seen
	sIntro     // matching the intros, n bytes of them seen
	sPayload   // reading NS;BODY
	sPayEsc    // ESC inside the payload
	sPayEscEsc // tmux: ESC ESC inside the payload
	sClose     // tmux: OSC ended, the passthrough's ESC \ may follow
	sCloseEsc  // tmux: its ESC seen
)

const (
	esc = 0x1b
	bel = 0x07
)

// A Decoder finds state notifications in a terminal's raw output. Give it
// the bytes read from the pty in whatever chunks they arrive: a sequence
// split across reads is found all the same, and the result does not depend
// on where the chunks are cut. It decodes the sequence verbatim
// (ESC ] 777 ; notify ; NS ; BODY, ended by BEL or by ST, ESC \) and wrapped
// in tmux's passthrough (ESC P tmux; ESC ESC ] 777 ... BEL ESC \), and keeps
// at most a few hundred bytes between calls. The zero value is ready to use.
// A Decoder is not safe for concurrent use.
type Decoder struct {
	st    int
	lits  []string // the intros still matching in sIntro
	n     int      // bytes of them matched
	tmux  bool
	kind  int   // which intro matched: 0 a notification, 1 a 7501 record
	start int64 // stream offset of the current sequence's ESC
	off   int64 // stream offset of the byte being looked at
	buf   []byte
	out   []Notification
}

// Feed decodes the next chunk of output and returns the notifications
// completed in it, in order.
func (d *Decoder) Feed(p []byte) []Notification {
	d.out = nil
	for _, b := range p {
		d.step(b)
		d.off++
	}
	return d.out
}

// step takes one byte.
func (d *Decoder) step(b byte) {
	switch d.st {
	case sGround:
		if b == esc {
			d.begin()
		}
	case sEsc:
		switch b {
		case ']':
			d.st, d.lits, d.n, d.tmux = sIntro, intros[0][:], 1, false
		case 'P':
			d.st, d.lits, d.n, d.tmux = sIntro, intros[1][:], 1, true
		case esc:
			d.begin()
		default:
			d.st = sGround
		}
	case sIntro:
		var still []string
		for _, l := range d.lits {
			if l[d.n] == b {
				still = append(still, l)
			}
		}
		if len(still) == 0 {
			d.restart(b, d.lits[0][d.n-1] == esc)
			return
		}
		d.lits = still
		d.n++
		if l := d.lits[0]; d.n == len(l) {
			d.st, d.buf, d.kind = sPayload, d.buf[:0], strings.Count(l, "7501")
		}
	case sPayload:
		switch {
		case b == bel:
			d.emit()
		case b == esc:
			d.st = sPayEsc
		case b < 0x20 || b == 0x7f:
			d.restart(b, false) // a control byte ends the string: not ours
		case len(d.buf) == maxPayload:
			d.st = sGround
		default:
			d.buf = append(d.buf, b)
		}
	case sPayEsc:
		switch {
		case b == '\\' && !d.tmux:
			d.emit() // ST
		case b == esc && d.tmux:
			d.st = sPayEscEsc
		case b == '\\':
			d.st = sGround // the passthrough ended inside the OSC: cut off
		default:
			d.restart(b, true)
		}
	case sPayEscEsc:
		if b == '\\' {
			d.emit() // ST, its ESC doubled inside the passthrough
			return
		}
		d.restart(b, true)
	case sClose:
		if b == esc {
			d.st = sCloseEsc
			return
		}
		d.st = sGround
	case sCloseEsc:
		if b == '\\' {
			d.st = sGround
			return
		}
		d.restart(b, true)
	}
}

// begin starts a sequence at the ESC being looked at.
func (d *Decoder) begin() { d.st, d.start = sEsc, d.off }

// restart drops the sequence under way at byte b. When the byte before b
// was an ESC, that ESC may start a new sequence, so b is looked at again
// after it; otherwise b itself may be a new ESC.
func (d *Decoder) restart(b byte, afterEsc bool) {
	d.st = sGround
	if afterEsc {
		d.st, d.start = sEsc, d.off-1
		d.step(b)
		return
	}
	if b == esc {
		d.begin()
	}
}

// emit completes the sequence under way.
func (d *Decoder) emit() {
	n := Notification{Tmux: d.tmux, Offset: d.start}
	if d.kind == 1 {
		n.Body, n.State = string(d.buf), recordState(string(d.buf))
	} else {
		ns, body, _ := strings.Cut(string(d.buf), ";")
		n.Namespace, n.Body, n.State = ns, body, stateOf(body)
	}
	d.out = append(d.out, n)
	d.st = sGround
	if d.tmux {
		d.st = sClose
	}
}
