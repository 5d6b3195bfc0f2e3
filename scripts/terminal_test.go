package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// allTerms are every dialect and the terminals an agent shows something
// in by itself (ownLike), bare, wrapped for tmux and inside Zellij.
func allTerms() []string {
	var ts []string
	for _, pre := range []string{"", "tmux+", "zellij+"} {
		for _, d := range terminal.Dialects() {
			ts = append(ts, pre+string(d))
		}
		for _, n := range []string{"ghostty", "kitty", "iterm2", "wezterm", "warp", "apple-terminal"} {
			ts = append(ts, pre+n)
		}
	}
	return ts
}

// ownLike is what Claude Code shows by itself (adapters' description).
var ownLike = &terminal.Own{
	Notifies: []terminal.State{terminal.Attention}, In: []string{"ghostty", "kitty", "iterm2"}, InTmux: []string{"ghostty", "kitty", "iterm2"},
	Progress: []terminal.Rule{{Var: "TERM_PROGRAM", Value: "ghostty"}, {Var: "TERM_PROGRAM", Value: "iTerm.app"}},
}

// termBytes is what a pty hook of agent a sends for state s in terminal t,
// its progress included.
func termBytes(t terminal.Terminal, a terminal.Agent, folder, key string, s terminal.State) []byte {
	return terminal.Encode(t, terminal.Sequences(t, a, false, folder, key, s))
}

// TestTerminalBytes pins what each dialect sends for each state, byte for
// byte, bare and wrapped for tmux.
func TestTerminalBytes(t *testing.T) {
	const p, f = "Gemini CLI", "myrepo"
	want := map[string]string{
		"osc9/working":         "\x1b]9;4;3\x07",
		"osc9/attention":       "\x1b]9;4;4;100\x07\x1b]9;Gemini CLI needs your input \u00b7 myrepo\x07",
		"osc9/done":            "\x1b]9;4;0\x07\x1b]9;Gemini CLI is done \u00b7 myrepo\x07",
		"osc9/interrupted":     "\x1b]9;4;0\x07",
		"osc777/attention":     "\x1b]9;4;4;100\x07\x1b]777;notify;Gemini CLI;needs your input \u00b7 myrepo\x07",
		"osc777/done":          "\x1b]9;4;0\x07\x1b]777;notify;Gemini CLI;is done \u00b7 myrepo\x07",
		"osc99/attention":      "\x1b]9;4;4;100\x07\x1b]99;i=gemini-7:o=unfocused;Gemini CLI needs your input \u00b7 myrepo\x07",
		"osc99/done":           "\x1b]9;4;0\x07\x1b]99;i=gemini-7:o=unfocused;Gemini CLI is done \u00b7 myrepo\x07",
		"osc99/working":        "\x1b]9;4;3\x07\x1b]99;i=gemini-7:p=close;\x07",
		"kitty/interrupted":    "\x1b]9;4;0\x07\x1b]99;i=gemini-7:p=close;\x07",
		"iterm2/working":       "\x1b]9;4;3\x07\x1b]21337;status=working;indicator=#ff9500;status-color=#ff9500;detail=Gemini CLI\x07\x1b]7501;state=working:id=gemini-7:app=gemini:title=R2VtaW5pIENMSQ==\x1b\\",
		"iterm2/attention":     "\x1b]9;4;4;100\x07\x1b]21337;status=waiting;indicator=#5f87ff;status-color=#5f87ff;detail=Gemini CLI\x07\x1b]7501;state=blocked:kind=permission:id=gemini-7:app=gemini:title=R2VtaW5pIENMSQ==\x1b\\\x1b]9;Gemini CLI needs your input \u00b7 myrepo\x07",
		"iterm2/done":          "\x1b]9;4;0\x07\x1b]21337;status=done;indicator=#00d75f;status-color=#00d75f;detail=Gemini CLI\x07\x1b]7501;state=done:id=gemini-7:app=gemini:title=R2VtaW5pIENMSQ==\x1b\\\x1b]9;Gemini CLI is done \u00b7 myrepo\x07",
		"iterm2/interrupted":   "\x1b]9;4;0\x07\x1b]21337;status=idle;indicator=#00d75f;status-color=#00d75f;detail=Gemini CLI\x07\x1b]7501;state=idle:msg=SW50ZXJydXB0ZWQ=:id=gemini-7:app=gemini:title=R2VtaW5pIENMSQ==\x1b\\",
		"tmux+iterm2/working":  "\x1bPtmux;\x1b\x1b]9;4;3\x07\x1b\\\x1bPtmux;\x1b\x1b]7501;state=working:id=gemini-7:app=gemini:title=R2VtaW5pIENMSQ==\x1b\x1b\\\x1b\\",
		"warp/attention":       "\x1b]9;4;4;100\x07\x1b]777;notify;warp://cli-agent;{\"v\":1,\"agent\":\"gemini\",\"event\":\"permission_request\",\"project\":\"myrepo\"}\x07",
		"warp/working":         "\x1b]9;4;3\x07\x1b]777;notify;warp://cli-agent;{\"v\":1,\"agent\":\"gemini\",\"event\":\"prompt_submit\",\"project\":\"myrepo\"}\x07",
		"bell/working":         "\x1b]9;4;3\x07",
		"bell/attention":       "\x1b]9;4;4;100\x07\x07",
		"bell/done":            "\x1b]9;4;0\x07\x07",
		"tmux+osc9/working":    "\x1bPtmux;\x1b\x1b]9;4;3\x07\x1b\\",
		"tmux+osc777/done":     "\x1bPtmux;\x1b\x1b]9;4;0\x07\x1b\\\x1bPtmux;\x1b\x1b]777;notify;Gemini CLI;is done \u00b7 myrepo\x07\x1b\\\x07",
		"tmux+osc99/attention": "\x1bPtmux;\x1b\x1b]9;4;4;100\x07\x1b\\\x1bPtmux;\x1b\x1b]99;i=gemini-7:o=unfocused;Gemini CLI needs your input \u00b7 myrepo\x07\x1b\\\x07",
		"tmux+bell/done":       "\x1bPtmux;\x1b\x1b]9;4;0\x07\x1b\\\x07",
		"tmux+kitty/done":      "\x1bPtmux;\x1b\x1b]9;4;0\x07\x1b\\\x1bPtmux;\x1b\x1b]99;i=gemini-7:o=unfocused;Gemini CLI is done \u00b7 myrepo\x07\x1b\\\x07",
		// inside Zellij: no progress, no tab state; the notification and the bell
		"zellij+osc777/attention": "\x1b]777;notify;Gemini CLI;needs your input \u00b7 myrepo\x07\x07",
		"zellij+iterm2/working":   "",
		"zellij+iterm2/done":      "\x1b]9;Gemini CLI is done \u00b7 myrepo\x07\x07",
		"zellij+bell/done":        "\x07",
		"zellij+osc99/working":    "\x1b]99;i=gemini-7:p=close;\x07",
	}
	for k, w := range want {
		name, state, _ := strings.Cut(k, "/")
		term, err := terminal.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(termBytes(term, terminal.Agent{ID: "gemini", Product: p}, f, "gemini-7", terminal.State(state))); got != w {
			t.Errorf("%s: got %q, want %q", k, got, w)
		}
	}
	// Claude's form: never wrapped (Claude wraps it inside tmux), escapes as
	// JSON \u escapes, the whole line ASCII; inside tmux the plain BEL that
	// marks the window last (Claude writes a BEL unwrapped).
	got := TerminalJSON(terminal.Terminal{Dialect: terminal.OSC777, Tmux: true}, terminal.Agent{ID: "claude", Product: "Claude Code"}, false, "myrepo", "claude-7", terminal.Attention)
	if w := `{"terminalSequence":"\u001b]9;4;4;100\u0007\u001b]777;notify;Claude Code;needs your input \u00b7 myrepo\u0007\u0007"}`; got != w {
		t.Errorf("TerminalJSON = %s, want %s", got, w)
	}
	// What an agent shows by itself is left out; the window's BEL stays.
	for _, c := range []struct {
		term, state string
		draws       bool
		want        string
	}{
		{"ghostty", "attention", false, "\x1b]9;4;4;100\x07"},
		{"tmux+kitty", "attention", false, "\x1bPtmux;\x1b\x1b]9;4;4;100\x07\x1b\\\x07"},
		{"ghostty", "done", true, "\x1b]777;notify;Gemini CLI;is done \u00b7 myrepo\x07"},
		{"ghostty", "working", true, ""},
		{"ghostty", "attention", true, ""},
		{"tmux+kitty", "attention", true, "\x07"},
		{"wezterm", "attention", true, "\x1b]777;notify;Gemini CLI;needs your input \u00b7 myrepo\x07"},
	} {
		term, _ := terminal.Parse(c.term)
		if got := string(terminal.Encode(term, terminal.Sequences(term, terminal.Agent{ID: "gemini", Product: p, Own: ownLike}, c.draws, f, "gemini-7", terminal.State(c.state)))); got != c.want {
			t.Errorf("%s %s draws %v: got %q, want %q", c.term, c.state, c.draws, got, c.want)
		}
	}
}

// claudeAllows is Claude Code 2.1.332's allowlist for a hook's
// terminalSequence, as read in its bundle (the functions the docs call
// its parser: a run of BEL or ESC ] Ps ; payload (BEL | ESC \), Ps in 0, 1,
// 2, 9, 99, 777, at most 4096 bytes; an OSC 9 payload starting with a digit
// only in the 9;4 progress form). Claude drops a sequence it refuses whole.
func claudeAllows(s string) bool {
	if s == "" || len(s) > 4096 {
		return false
	}
	ok := map[int]bool{0: true, 1: true, 2: true, 9: true, 99: true, 777: true}
	progress := regexp.MustCompile(`^4;[0-4](;(100|\d{1,2})?)?$`)
	digit := regexp.MustCompile(`^[\s\x{180e}\x{200b}]*[+-]?\p{Nd}`)
	for s != "" {
		if s[0] == '\x07' {
			s = s[1:]
			continue
		}
		if !strings.HasPrefix(s, "\x1b]") {
			return false
		}
		end, n := -1, 0
		for i := 2; i < len(s); i++ {
			if s[i] == '\x07' {
				end, n = i, 1
				break
			}
			if s[i] == '\x1b' {
				if i+1 < len(s) && s[i+1] == '\\' {
					end, n = i, 2
					break
				}
				return false
			}
		}
		if end < 0 {
			return false
		}
		body := s[2:end]
		ps, payload, _ := strings.Cut(body, ";")
		num, err := strconv.Atoi(ps)
		if err != nil || !ok[num] {
			return false
		}
		if num == 9 && !progress.MatchString(payload) && digit.MatchString(payload) {
			return false
		}
		s = s[end+n:]
	}
	return true
}

func TestTerminalSequencesPassClaudesAllowlist(t *testing.T) {
	for _, d := range terminal.Dialects() {
		for _, s := range terminal.States() {
			for _, tmux := range []bool{false, true} {
				everywhere := &terminal.Own{Notifies: terminal.States(), In: []string{"*"}, InTmux: []string{"*"}}
				for _, own := range []*terminal.Own{nil, everywhere} {
					for _, draws := range []bool{false, true} {
						seq := strings.Join(terminal.Sequences(terminal.Terminal{Dialect: d, Tmux: tmux}, terminal.Agent{ID: "claude", Product: "Claude Code", Own: own}, draws, terminal.SafeFolder("/w/2024;\x1b]0;pwned\x07"), "claude-7", s), "")
						if seq != "" && !claudeAllows(seq) {
							t.Errorf("%s %s (tmux %v, own %v, draws %v): Claude would drop %q", d, s, tmux, own != nil, draws, seq)
						}
					}
				}
			}
		}
	}
	// The check itself refuses what Claude refuses.
	for _, bad := range []string{"\x1b]9;42 is done\x07", "\x1bPtmux;\x1b\x1b]9;x\x07\x1b\\", "\x1b]8;;http://x\x07", "\x1b]9;4;5\x07"} {
		if claudeAllows(bad) {
			t.Errorf("claudeAllows(%q) = true", bad)
		}
	}
}

func TestSafeFolder(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/myrepo":                        "myrepo",
		"/":                                     "/",
		"/home/u/my repo-1.2_x+y@z,a=b~c":       "my repo-1.2_x+y@z,a=b~c",
		"/w/a;b":                                "a_b",
		"/w/a\x1b]0;x\x07b":                     "a__0_x_b",
		"/w/caf\u00e9":                          "caf__",
		"/w/x\u009by":                           "x__y",
		"/w/\"q\\":                              "_q_",
		"/w/" + strings.Repeat("abcdefghij", 5): "abcdefghijabcdefghijabcdefghijab",
	} {
		if got := terminal.SafeFolder(in); got != want {
			t.Errorf("terminal.SafeFolder(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseAndDetectTerminal(t *testing.T) {
	for _, s := range allTerms() {
		term, err := terminal.Parse(s)
		again, err2 := terminal.Parse(term.String())
		if err != nil || err2 != nil || again != term || (term.Name == "") != (s == term.String()) {
			t.Errorf("terminal.Parse(%q) = %v, %v; and of its String %v, %v", s, term, err, again, err2)
		}
	}
	for _, s := range []string{"", "off", "terminal.OSC9", "tmux+", "screen+osc9", "osc9 ", "osc9:osc9", "kitty:kitty", "osc777:kitty", "osc99:", "osc9:bogus"} {
		if _, err := terminal.Parse(s); err == nil {
			t.Errorf("terminal.Parse(%q) accepted", s)
		}
	}
	cases := []struct {
		env  map[string]string
		want string
	}{
		{nil, "osc9"},
		{map[string]string{"TERM_PROGRAM": "ghostty"}, "osc777:ghostty"},
		{map[string]string{"TERM": "xterm-ghostty"}, "osc777:ghostty"},
		{map[string]string{"KITTY_WINDOW_ID": "1", "TERM_PROGRAM": "WezTerm"}, "osc99:kitty"},
		{map[string]string{"TERM": "xterm-kitty"}, "osc99:kitty"},
		{map[string]string{"TERM": "foot-extra"}, "osc777:foot"},
		{map[string]string{"WT_SESSION": "x"}, "bell:windows-terminal"},
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, "osc9:iterm2"},
		{map[string]string{"ITERM_SESSION_ID": "w0t0p0"}, "osc9:iterm2"},
		{map[string]string{"TERM_PROGRAM": "tmux", "TMUX": "/tmp/t,1,0", "GHOSTTY_RESOURCES_DIR": "/x"}, "tmux+osc777:ghostty"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "osc99", "TERM_PROGRAM": "ghostty"}, "osc99"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "osc777", "TMUX": "x"}, "tmux+osc777"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "tmux+osc9"}, "tmux+osc9"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "bogus", "TERM": "foot"}, "osc777:foot"},
		{map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, "bell:apple-terminal"},
		{map[string]string{"TERM_PROGRAM": "vscode"}, "bell:vscode"},
		{map[string]string{"TERM": "alacritty"}, "bell:alacritty"},
		{map[string]string{"ALACRITTY_WINDOW_ID": "94"}, "bell:alacritty"},
		{map[string]string{"TERMINAL_EMULATOR": "JetBrains-JediTerm"}, "bell:jetbrains"},
		{map[string]string{"VTE_VERSION": "8002"}, "bell:vte"},
		{map[string]string{"KONSOLE_VERSION": "250800"}, "osc777:konsole"},
		{map[string]string{"STY": "1.pts-0.h", "KITTY_WINDOW_ID": "1"}, "bell:screen"},
		{map[string]string{"TERM": "tmux-256color"}, "tmux+osc9"},
		{map[string]string{"TERM": "tmux-256color", "LC_TERMINAL": "iTerm2"}, "tmux+osc9:iterm2"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "kitty"}, "osc99:kitty"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "tmux+osc99:kitty", "TERM": "foot"}, "osc777:foot"}, // a task id's form is no override
		{map[string]string{"TMUX": "x", "__hookinstall_ctype": "iTerm2 3.6.6", "GHOSTTY_RESOURCES_DIR": "/g"}, "tmux+osc9:iterm2"},
		{map[string]string{"TMUX": "x", "__hookinstall_client": "xterm-kitty", "__hookinstall_ctype": "iTerm2 3.6.6"}, "tmux+osc99:kitty"},
		{map[string]string{"HOOKINSTALL_TERMINAL": "tmux+vscode"}, "tmux+bell:vscode"},
		{map[string]string{"ZELLIJ": "0", "__hookinstall_zellij": "zellij 0.45.0", "TERM_PROGRAM": "ghostty"}, "zellij+osc777:ghostty"},
		{map[string]string{"ZELLIJ": "0", "__hookinstall_zellij": "zellij 0.44.3", "TERM_PROGRAM": "ghostty"}, "zellij+bell"},
		{map[string]string{"ZELLIJ": "0", "TMUX": "x", "TERM_PROGRAM": "ghostty"}, "tmux+osc777:ghostty"},
		{map[string]string{"ZELLIJ": "0", "HOOKINSTALL_TERMINAL": "kitty"}, "zellij+osc99:kitty"},
	}
	for _, c := range cases {
		got, _ := terminal.Detect("hookinstall", func(k string) string { return c.env[k] })
		if got.String() != c.want {
			t.Errorf("terminal.Detect(%v) = %s, want %s", c.env, got, c.want)
		}
	}
	for id, want := range map[string]string{"terminal:zellij+osc777:ghostty": "zellij+osc777:ghostty", "terminal:zellij+weird": "zellij+osc9", "terminal:osc99": "osc99", "terminal:tmux+osc777": "tmux+osc777", "terminal:weird": "osc9", "terminal:tmux+weird": "tmux+osc9", "terminal:tmux+osc777:new-terminal": "tmux+osc777", "terminal:osc99:ghostty": "osc99", "terminal:bell:kitty": "bell"} {
		if got, ok := terminal.FromTask(id); !ok || got.String() != want {
			t.Errorf("terminal.FromTask(%q) = %v, %v; want %s", id, got, ok, want)
		}
	}
	if _, ok := terminal.FromTask("task-1"); ok {
		t.Error("a host's task id read as a terminal")
	}
}

// terminalSpecs cover every rule and both transports.
var terminalSpecs = []struct {
	spec    Spec
	payload string
	want    terminal.State // "" for nothing
}{
	{Spec{Install: Install{Agent: "gemini"}, Product: "Gemini CLI", Event: "BeforeAgent", State: terminal.Working, Transport: PTY}, `{}`, terminal.Working},
	{Spec{Install: Install{Agent: "gemini"}, Product: "Gemini CLI", Event: "AfterAgent", State: terminal.Done, Transport: PTY}, `{}`, terminal.Done},
	{Spec{Install: Install{Agent: "gemini"}, Product: "Gemini CLI", Event: "Notification", State: terminal.Attention, Transport: PTY, Rule: FieldEquals, Field: "notification_type", Value: "ToolPermission"}, `{"notification_type":"ToolPermission"}`, terminal.Attention},
	{Spec{Install: Install{Agent: "gemini"}, Product: "Gemini CLI", Event: "Notification", State: terminal.Attention, Transport: PTY, Rule: FieldEquals, Field: "notification_type", Value: "ToolPermission"}, `{"notification_type":"other"}`, ""},
	{Spec{Install: Install{Agent: "qwen"}, Product: "Qwen Code", Event: "Stop", State: terminal.Done, Transport: PTY, Rule: NonEmptyBackgroundTasks}, `{"background_tasks":[1]}`, terminal.Working},
	{Spec{Install: Install{Agent: "qwen"}, Product: "Qwen Code", Event: "Stop", State: terminal.Done, Transport: PTY, Rule: NonEmptyBackgroundTasks}, `{"background_tasks":[]}`, terminal.Done},
	{Spec{Install: Install{Agent: "qwen"}, Product: "Qwen Code", Event: "PostToolUseFailure", State: terminal.Interrupted, Transport: PTY, Rule: FieldTrue, Field: "is_interrupt"}, `{"is_interrupt":true}`, terminal.Interrupted},
	{Spec{Install: Install{Agent: "grok"}, Product: "Grok", Event: "Notification", State: terminal.Attention, Transport: PTY, Rule: PermissionPrompt}, `{"notificationType":"permission_prompt"}`, terminal.Attention},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "UserPromptSubmit", State: terminal.Working, Transport: Stdout, Quiet: []string{"GROK_HOOK_EVENT"}}, `{}`, terminal.Working},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "PermissionRequest", State: terminal.Attention, Transport: Stdout, Quiet: []string{"GROK_HOOK_EVENT"}}, `{}`, terminal.Attention},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "Stop", State: terminal.Done, Transport: Stdout, Rule: NonEmptyBackgroundTasks, Quiet: []string{"GROK_HOOK_EVENT"}}, `{"background_tasks":[]}`, terminal.Done},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "Stop", State: terminal.Done, Transport: Stdout, Rule: NonEmptyBackgroundTasks, Quiet: []string{"GROK_HOOK_EVENT"}}, `{"background_tasks":[{}]}`, terminal.Working},
	// an agent that shows some of it by itself, in both transports
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "PermissionRequest", State: terminal.Attention, Transport: Stdout, Own: ownLike}, `{}`, terminal.Attention},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "Stop", State: terminal.Done, Transport: Stdout, Rule: NonEmptyBackgroundTasks, Own: ownLike}, `{"background_tasks":[]}`, terminal.Done},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "UserPromptSubmit", State: terminal.Working, Transport: Stdout, Own: ownLike}, `{}`, terminal.Working},
	{Spec{Install: Install{Agent: "droid"}, Product: "Droid", Event: "Notification", State: terminal.Attention, Transport: PTY, Rule: FieldCases, Field: "notificationType", Own: ownLike,
		Cases: []Case{{"permission_prompt", terminal.Attention}, {"idle_prompt", terminal.Interrupted}}}, `{"notificationType":"permission_prompt"}`, terminal.Attention},
	{Spec{Install: Install{Agent: "gemini"}, Product: "Gemini CLI", Event: "AfterAgent", State: terminal.Done, Transport: PTY, Own: ownLike}, `{}`, terminal.Done},
	// everywhere ("*", a rule with no Var), and by dialect
	{Spec{Install: Install{Agent: "codex"}, Product: "Codex", Event: "Stop", State: terminal.Done, Transport: PTY, Own: &terminal.Own{Notifies: []terminal.State{terminal.Attention, terminal.Done}, In: []string{"*"}, InTmux: []string{"bell"}}}, `{}`, terminal.Done},
	{Spec{Install: Install{Agent: "letta"}, Product: "Letta Code", Event: "Stop", State: terminal.Done, Transport: PTY, Own: &terminal.Own{Notifies: []terminal.State{terminal.Done}, In: []string{"bell", "osc9"}, InTmux: []string{"osc9", "kitty"}, Progress: []terminal.Rule{{}}}}, `{}`, terminal.Done},
	{Spec{Install: Install{Agent: "claude"}, Product: "Claude Code", Event: "Stop", State: terminal.Done, Transport: Stdout, Own: &terminal.Own{Notifies: []terminal.State{terminal.Done}, In: []string{"kitty"}, InTmux: []string{"*"}, Progress: []terminal.Rule{{}}}}, `{}`, terminal.Done},
}

// shells are the shells the scripts are run under: dash always, bash (in
// POSIX mode, macOS's /bin/sh) where it is installed.
func shells(t *testing.T) [][]string {
	if _, err := exec.LookPath("dash"); err != nil {
		t.Skip("dash not installed")
	}
	sh := [][]string{{"dash"}}
	if _, err := exec.LookPath("bash"); err == nil {
		sh = append(sh, []string{"bash", "--posix"})
	}
	return sh
}

// TestTerminalScriptsRun runs scripts of every rule under dash (and bash)
// in folders with hostile names, against a real pty, in every terminal: the
// pty (or stdout, for Claude) gets exactly terminal.Sequences, encoded (TerminalJSON) of
// the payload's state, with the folder as terminal.SafeFolder makes it; a host's
// task id still gets the host protocol.
func TestTerminalScriptsRun(t *testing.T) {
	sh := shells(t)
	p := ptytest.Open(t)
	root := t.TempDir()
	var dirs []string
	for _, name := range []string{"myrepo", "a;b\x1b]0;x\x07 \u00e9\u009b", strings.Repeat("long-name_", 5)} {
		d := filepath.Join(root, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	terms := allTerms()
	for i, c := range terminalSpecs {
		c.spec.NS = "hookinstall"
		script, err := Render(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(root, "hook"+strconv.Itoa(i)+".sh")
		rt, err := Runtime(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, script, 0o755); err != nil || os.WriteFile(filepath.Join(root, RuntimeName), rt, 0o755) != nil {
			t.Fatal(err)
		}
		for _, shell := range sh {
			for _, dir := range dirs {
				for k, ts := range terms {
					term, _ := terminal.Parse(ts)
					cmd := exec.Command(shell[0], append(shell[1:], path)...)
					cmd.Dir = dir
					cmd.Env = []string{"PATH=/usr/bin:/bin", "PWD=" + dir, "LANG=C.UTF-8", "HOOKINSTALL_TASK_ID=" + term.TaskID(), "HOOKINSTALL_PTY=" + p.Path}
					// the terminal the agent draws its own progress in, every other run
					env := map[string]string{"TERM_PROGRAM": []string{"ghostty", "iTerm.app", "tmux"}[k%3]}
					cmd.Env = append(cmd.Env, "TERM_PROGRAM="+env["TERM_PROGRAM"])
					draws := c.spec.Own.Draws(func(k string) string { return env[k] })
					a := terminal.Agent{ID: c.spec.Agent, Product: c.spec.Product, Own: c.spec.Own}
					key := c.spec.Agent + "-" + filepath.Base(p.Path)
					cmd.Stdin = strings.NewReader(c.payload)
					p.Agent(cmd)
					var out, errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &errb
					if err := cmd.Run(); err != nil || errb.Len() > 0 {
						t.Fatalf("%s %s %s: %v, stderr %q", shell[0], c.spec.Event, ts, err, errb.String())
					}
					folder := terminal.SafeFolder(dir)
					var wantPTY, wantOut string
					if c.want != "" {
						if c.spec.Transport == Stdout {
							wantOut = TerminalJSON(term, a, draws, folder, key, c.want)
							var pty []string // what Claude's terminalSequence does not carry
							for _, q := range terminal.Sequences(term, a, draws, folder, key, c.want) {
								if !stdoutCarries(q) {
									pty = append(pty, q)
								}
							}
							wantPTY = string(terminal.Encode(term, pty))
						} else {
							wantPTY = string(terminal.Encode(term, terminal.Sequences(term, a, draws, folder, key, c.want)))
						}
					}
					if got := string(p.Drain(t)); got != wantPTY {
						t.Errorf("%s %s %s %v in %q: pty got %q, want %q", shell[0], c.spec.Event, ts, env, filepath.Base(dir), got, wantPTY)
					}
					if out.String() != wantOut {
						t.Errorf("%s %s %s %v in %q: stdout %q, want %q", shell[0], c.spec.Event, ts, env, filepath.Base(dir), out.String(), wantOut)
					}
				}
			}
		}
		// A host's task id: the host protocol, exactly.
		cmd := exec.Command("dash", path)
		cmd.Dir = dirs[1]
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOOKINSTALL_TASK_ID=task-1", "HOOKINSTALL_PTY=" + p.Path}
		cmd.Stdin = strings.NewReader(c.payload)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		var wantPTY, wantOut string
		if c.want != "" {
			if c.spec.Transport == Stdout {
				wantOut = TerminalSequence("hookinstall", c.want)
			} else {
				wantPTY = string(OSC("hookinstall", c.want))
			}
		}
		if got := string(p.Drain(t)); got != wantPTY || string(out) != wantOut {
			t.Errorf("%s with a host's task id: pty %q stdout %q, want %q %q", c.spec.Event, got, out, wantPTY, wantOut)
		}
	}
}

// TestPluginsTerminalMode drives the opencode plugin and the Pi extension in
// node, from a folder with a hostile name, in every terminal: the pty gets
// exactly what the sh hooks send (terminal.Sequences, terminal.SafeFolder's folder).
func TestPluginsTerminalMode(t *testing.T) {
	node := needNode(t)
	p := ptytest.Open(t)
	work := filepath.Join(t.TempDir(), "a;b\x1b]0;x\x07 \u00e9\u009b"+strings.Repeat("-long", 8))
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	ocDir, ocPlugin := writePlugin(t, "hookinstall")
	piDir, piExt := writePi(t, "hookinstall")
	// an extension of an agent that shows some of it by itself
	own := &terminal.Own{Notifies: []terminal.State{terminal.Done}, In: []string{"kitty", "bell"}, InTmux: []string{"osc9"}, Progress: ownLike.Progress}
	ownDir, ownExt := writeExtension(t, "hookinstall", func(ns string) ([]byte, error) {
		return Extension{Product: "Own", Own: own}.Render(Install{NS: ns, Agent: "pi"})
	}, piDriver)
	for k, ts := range allTerms() {
		term, _ := terminal.Parse(ts)
		env := map[string]string{"TERM_PROGRAM": []string{"ghostty", "vscode"}[k%2]}
		for _, c := range []struct {
			dir, file, id, product string
			own                    *terminal.Own
			states                 []terminal.State
		}{
			{ocDir, ocPlugin, "opencode", "opencode", nil, []terminal.State{terminal.Working, terminal.Attention, terminal.Working, terminal.Done, terminal.Working, terminal.Interrupted}},
			{piDir, piExt, "pi", "Pi", nil, []terminal.State{terminal.Working, terminal.Done, terminal.Working, terminal.Interrupted}},
			{ownDir, ownExt, "pi", "Own", own, []terminal.State{terminal.Working, terminal.Done, terminal.Working, terminal.Interrupted}},
		} {
			cmd := exec.Command(node, filepath.Join(c.dir, "driver.mjs"), c.file, "turn")
			cmd.Dir = work
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOOKINSTALL_TASK_ID=" + term.TaskID(), "HOOKINSTALL_PTY=" + p.Path, "TERM_PROGRAM=" + env["TERM_PROGRAM"]}
			p.Agent(cmd)
			if out, err := cmd.CombinedOutput(); err != nil || !strings.HasSuffix(string(out), "ok\n") {
				t.Fatalf("%s %s: %v %s", c.product, ts, err, out)
			}
			var want []byte
			for _, s := range c.states {
				draws := c.own.Draws(func(k string) string { return env[k] })
				a := terminal.Agent{ID: c.id, Product: c.product, Own: c.own}
				want = append(want, terminal.Encode(term, terminal.Sequences(term, a, draws, terminal.SafeFolder(work), c.id+"-"+filepath.Base(p.Path), s))...)
			}
			if got := p.Drain(t); !bytes.Equal(got, want) {
				t.Errorf("%s %s %v: pty got %q, want %q", c.product, ts, env, got, want)
			}
		}
	}
}

// TerminalJSON is the line a Claude hook prints for state s in
// terminal t, its progress left out when draws: the sequences its
// terminalSequence carries (stdoutCarries), never tmux-wrapped (Claude
// wraps them itself inside tmux, and its allowlist refuses a DCS; a plain
// BEL it writes as it is); "" when nothing is left.
func TerminalJSON(t terminal.Terminal, a terminal.Agent, draws bool, folder, key string, s terminal.State) string {
	var seqs []string
	for _, q := range terminal.Sequences(t, a, draws, folder, key, s) {
		if stdoutCarries(q) {
			seqs = append(seqs, q)
		}
	}
	if len(seqs) == 0 {
		return ""
	}
	return `{"terminalSequence":"` + jsonEscape(strings.Join(seqs, "")) + `"}`
}
