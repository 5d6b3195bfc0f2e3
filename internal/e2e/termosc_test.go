package e2e

import (
	"reflect"
	"testing"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

func TestDecodeTerminal(t *testing.T) {
	work := "/home/u/work"
	var raw []byte
	raw = append(raw, "text\x1b]0;title\x07"...)
	raw = append(raw, termBytes(terminal.Terminal{Dialect: terminal.OSC777}, terminal.Agent{ID: "gemini", Product: "Gemini CLI"}, terminal.SafeFolder(work), "gemini-1", hookinstall.Attention)...)
	raw = append(raw, termBytes(terminal.Terminal{Dialect: terminal.OSC99, Tmux: true}, terminal.Agent{ID: "gemini", Product: "Gemini CLI"}, terminal.SafeFolder(work), "gemini-1", hookinstall.Done)...)
	raw = append(raw, "\x1b]9;cut by ESC\x1b[0m\x1b]9;4;3\x1b\\\x1b]9;never ended"...)
	got := DecodeTerminal(raw)
	var states []string
	for _, o := range got {
		s, d := TermState(o, "Gemini CLI", "work")
		states = append(states, s+"/"+d)
	}
	want := []string{"/", "paused/", "attention/osc777", "clear/", "done/osc99", "/", "working/"}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("states %v, want %v (decoded %v)", states, want, got)
	}
	if !got[3].Tmux || got[1].Tmux || got[5].Payload != "cut by ESC" {
		t.Errorf("decoded %v", got)
	}
	if s, _ := TermState(TermOSC{Code: 9, Payload: "Claude Code is done \u00b7 other"}, "Claude Code", "work"); s != "" {
		t.Errorf("another folder read as ours: %q", s)
	}
}

// termBytes is what a pty hook of agent a sends for state s in terminal t,
// its progress included.
func termBytes(t terminal.Terminal, a terminal.Agent, folder, key string, s terminal.State) []byte {
	return terminal.Encode(t, terminal.Sequences(t, a, false, folder, key, s))
}
