package e2e

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// A TermOSC is one OSC sequence found in the bytes a terminal receives:
// its code (9, 99, 777, ...) and payload, as a terminal's parser dispatches
// them; sequences wrapped in tmux's passthrough are unwrapped first.
type TermOSC struct {
	Offset  int
	Code    int
	Payload string
	Tmux    bool // it arrived inside ESC P tmux; ... ESC \
}

func (o TermOSC) String() string {
	t := ""
	if o.Tmux {
		t = " (tmux-wrapped)"
	}
	return fmt.Sprintf("OSC %d %q%s @%d", o.Code, o.Payload, t, o.Offset)
}

// DecodeTerminal finds every OSC sequence with a numeric code in raw,
// ended by BEL or ESC \ (or by an ESC that starts another sequence, as
// xterm.js ends it; one cut off by the end of raw is dropped), looking
// inside tmux's passthrough too.
func DecodeTerminal(raw []byte) []TermOSC {
	var out []TermOSC
	for i := 0; i < len(raw); i++ {
		if raw[i] != 0x1b || i+1 >= len(raw) {
			continue
		}
		switch raw[i+1] {
		case 'P':
			intro := []byte("\x1bPtmux;")
			if !bytes.HasPrefix(raw[i:], intro) {
				continue
			}
			// the body ends at the first ESC \ whose ESC is not doubled
			var body []byte
			j := i + len(intro)
			for ; j+1 < len(raw); j++ {
				if raw[j] == 0x1b && raw[j+1] == 0x1b {
					body = append(body, 0x1b)
					j++
					continue
				}
				if raw[j] == 0x1b && raw[j+1] == '\\' {
					break
				}
				body = append(body, raw[j])
			}
			if j+1 >= len(raw) {
				return out
			}
			for _, o := range DecodeTerminal(body) {
				o.Offset, o.Tmux = i, true
				out = append(out, o)
			}
			i = j + 1
		case ']':
			j := i + 2
			end, n := -1, 0
			for ; j < len(raw); j++ {
				if raw[j] == 0x07 {
					end, n = j, 1
					break
				}
				if raw[j] == 0x1b {
					// ESC \ ends it; so does an ESC starting anything else
					// (as xterm.js ends it), which is then read anew
					end = j
					if j+1 < len(raw) && raw[j+1] == '\\' {
						n = 2
					}
					break
				}
			}
			if end < 0 {
				i = j - 1
				continue
			}
			body := string(raw[i+2 : end])
			code, payload, _ := strings.Cut(body, ";")
			if c, err := strconv.Atoi(code); err == nil {
				out = append(out, TermOSC{Offset: i, Code: c, Payload: payload})
			}
			i = end + n - 1
		}
	}
	return out
}

// TermState reads what one of our terminal-mode sequences reports, for
// product ("Claude Code") in folder: "working" (progress busy), "paused"
// (progress paused), "clear" (progress removed), "attention" or "done" (a
// notification naming product and folder, in any dialect), and the dialect
// of a notification; "" for anything else.
func TermState(o TermOSC, product, folder string) (state, dialect string) {
	tail := " \u00b7 " + folder
	switch o.Code {
	case 9:
		switch o.Payload {
		case "4;3":
			return "working", ""
		case "4;4;100":
			return "paused", ""
		case "4;0":
			return "clear", ""
		}
		if s := saysState(strings.TrimPrefix(o.Payload, product+" "), tail); s != "" && strings.HasPrefix(o.Payload, product+" ") {
			return s, "osc9"
		}
	case 777:
		// Warp's agent events: its sidebar's states (a prompt submitted is
		// the progress's working)
		if ev, ok := strings.CutPrefix(o.Payload, "notify;warp://cli-agent;"); ok {
			switch {
			case strings.Contains(ev, `"event":"permission_request"`):
				return "attention", "osc777"
			case strings.Contains(ev, `"event":"stop"`):
				return "done", "osc777"
			}
			return "", ""
		}
		if s := saysState(strings.TrimPrefix(o.Payload, "notify;"+product+";"), tail); s != "" && strings.HasPrefix(o.Payload, "notify;"+product+";") {
			return s, "osc777"
		}
	case 99: // its metadata (i=ID:o=unfocused), then the title
		if _, title, _ := strings.Cut(o.Payload, ";"); strings.HasPrefix(title, product+" ") {
			if s := saysState(strings.TrimPrefix(title, product+" "), tail); s != "" {
				return s, "osc99"
			}
		}
	}
	return "", ""
}

func saysState(text, tail string) string {
	switch text {
	case "needs your input" + tail:
		return "attention"
	case "is done" + tail:
		return "done"
	}
	return ""
}
