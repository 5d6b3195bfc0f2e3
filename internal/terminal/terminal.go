// Package terminal is how hookinstall's hooks speak to a terminal when no
// terminal host set them up, but `hookinstall init` (in the user's shell
// rc file) or `hookinstall run` did: the variables they read, the dialects
// of desktop notification, how a terminal is recognised from its
// environment, the exact bytes each state sends, and the shell code init
// prints.
//
// With a host's task id (any <NS>_TASK_ID that does not start with
// TaskPrefix) the hooks send the host protocol instead, byte for byte: see
// package hookinstall.
package terminal

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"path"
	"slices"
	"strings"
)

// A State is one of the four things a hook reports: the one type of it,
// from the scripts to package hookinstall's API.
type State string

// The states, with the exact OSC bodies of the host protocol.
const (
	Working     State = "working"
	Attention   State = "attention"
	Done        State = "done"
	Interrupted State = "interrupted"
)

var bodies = map[State]string{
	Working:     "agent is working",
	Attention:   "agent needs your input",
	Done:        "agent is done",
	Interrupted: "agent was interrupted",
}

// Body returns the OSC body for s, for example "agent is done".
func (s State) Body() string { return bodies[s] }

// States lists every state in a fixed order.
func States() []State { return []State{Working, Attention, Done, Interrupted} }

// A Dialect is how a terminal is asked for a desktop notification.
type Dialect string

// The dialects. Every one of them also gets tab progress as OSC 9;4.
const (
	// OSC9 is ESC ] 9 ; TEXT BEL (iTerm2, WezTerm, Ghostty, kitty, foot).
	OSC9 Dialect = "osc9"
	// OSC777 is ESC ] 777 ; notify ; TITLE ; BODY BEL (Ghostty, WezTerm,
	// foot, kitty, urxvt's notify extension, Windows Terminal with
	// compatibility.allowOSC777).
	OSC777 Dialect = "osc777"
	// OSC99 is kitty's ESC ] 99 ; ; TITLE BEL (kitty, foot).
	OSC99 Dialect = "osc99"
	// Bell is a plain BEL, no text: for a terminal that shows no desktop
	// notification but marks a bell (Apple Terminal's badge, Alacritty's
	// urgency hint, VS Code's tab, GNU screen's window list).
	Bell Dialect = "bell"
)

// Forms are how each dialect sends a notification, one row each, in a
// fixed order: Open, the agent's product, Join, the text, Separator, the
// folder, BEL; a dialect with no Open (Bell) sends the BEL alone.
var Forms = []struct {
	Dialect    Dialect
	Open, Join string
}{
	{OSC9, "\x1b]9;", " "},
	{OSC777, "\x1b]777;notify;", ";"},
	{OSC99, "\x1b]99;i={key}:o=unfocused;", " "},
	{Bell, "", ""},
}

// Dialects lists every dialect in Forms' order.
func Dialects() []Dialect {
	var ds []Dialect
	for _, f := range Forms {
		ds = append(ds, f.Dialect)
	}
	return ds
}

// Shows says what dialect d shows for a notification whose text is
// example: "OSC 777 notifications such as "..."", or the bell.
func Shows(d Dialect, example string) string {
	if d == Bell {
		return "a bell (BEL) when the agent needs you and when it is done"
	}
	return fmt.Sprintf("%s notifications such as %q", strings.ToUpper(string(d[:3]))+" "+string(d[3:]), example)
}

// Names are what <NS>_TERMINAL and Parse take (after an optional
// "tmux+"): each dialect by its own name, then each terminal by its own,
// with the dialect init picks for it. Rules name these terminals, and a
// terminal's name ends the task id init sets ("terminal:osc777:ghostty"),
// so that an agent's hooks can leave out what the agent shows by itself
// there (Own). Holds are the ways the terminal keeps an agent's state in
// its tab (docs/terminals.md says where each was read).
var Names = []struct {
	Name    string
	Dialect Dialect
	Holds   []Status
}{
	{"osc9", OSC9, nil}, {"osc777", OSC777, nil}, {"osc99", OSC99, nil}, {"bell", Bell, nil},
	{"kitty", OSC99, nil}, {"ghostty", OSC777, nil}, {"wezterm", OSC777, nil}, {"foot", OSC777, nil},
	{"konsole", OSC777, nil}, {"windows-terminal", Bell, nil}, {"urxvt", OSC777, nil},
	{"warp", OSC777, []Status{WarpEvents}}, {"iterm2", OSC9, []Status{TabStatus, ProgramStatus}},
	{"apple-terminal", Bell, nil}, {"vscode", Bell, nil}, {"alacritty", Bell, nil}, {"jetbrains", Bell, nil},
	{"vte", Bell, nil}, {"screen", Bell, nil},
}

// A Status is a way a terminal holds an agent's state in its tab, besides
// a notification and the progress: sent where the terminal's row of Names
// holds it.
type Status string

const (
	// ProgramStatus is OSC 7501, the Program Status protocol: a record per
	// agent session (id), ESC ] 7501 ; state=... : id=... : app=... :
	// title=BASE64 ESC \, shown as the tab's status.
	ProgramStatus Status = "osc7501"
	// TabStatus is iTerm2's OSC 21337, the tab's one status: no id, so
	// never inside tmux, whose panes share one tab.
	TabStatus Status = "osc21337"
	// WarpEvents are Warp's warp://cli-agent events (OSC 777 notify with
	// JSON), which feed its sidebar, in place of the notification, for the
	// agents Warp knows (WarpAgents).
	WarpEvents Status = "warp"
)

// Says is h for people: "an OSC 7501 program status record".
func (h Status) Says() string {
	return map[Status]string{ProgramStatus: "an OSC 7501 program status record", TabStatus: "iTerm2's OSC 21337 tab status",
		WarpEvents: "Warp's agent events (its sidebar)"}[h]
}

// WarpAgents are the agents Warp's sidebar takes events of: hookinstall's
// ids, which are Warp's names for them.
var WarpAgents = []string{"claude", "droid", "gemini", "grok", "omp", "opencode", "pi"}

// name is the row of Names named n.
func name(n string) (row struct {
	Name    string
	Dialect Dialect
	Holds   []Status
}, ok bool) {
	for _, r := range Names {
		if r.Name == n {
			return r, true
		}
	}
	return row, false
}

// dialectOf is the dialect of a name in Names, and whether it is one.
func dialectOf(n string) (Dialect, bool) {
	r, ok := name(n)
	return r.Dialect, ok
}

// A Terminal is what the hooks speak when no host set them up but `init`
// or `run` did: a notification dialect, the terminal when init recognised
// it, wrapped for tmux's passthrough when the shell runs inside tmux, or
// inside Zellij, which passes on notifications (from 0.45.0) and a bell,
// and nothing of the rest.
type Terminal struct {
	Dialect Dialect
	// Name is the terminal init recognised, one of Names that is not a
	// dialect's ("ghostty"); "" when none was, or the user named a dialect.
	Name         string
	Tmux, Zellij bool
}

// TaskPrefix starts the <NS>_TASK_ID that `init` and `run` set: a task id
// that starts with it selects the terminal's language instead of the host
// protocol, and says the id was not set by a host (so `init` may set it
// again in a nested shell).
const TaskPrefix = "terminal:"

// String is the terminal as written in <NS>_TERMINAL and after TaskPrefix:
// "osc777", "tmux+osc9", "tmux+osc99:kitty", "zellij+osc777:ghostty".
func (t Terminal) String() string {
	s := string(t.Dialect)
	if t.Name != "" {
		s += ":" + t.Name
	}
	if t.Tmux {
		s = "tmux+" + s
	} else if t.Zellij {
		s = "zellij+" + s
	}
	return s
}

// TaskID is the <NS>_TASK_ID value that selects t: "terminal:tmux+osc9".
func (t Terminal) TaskID() string { return TaskPrefix + t.String() }

// Parse reads a terminal as String writes it, or named by one of Names.
func Parse(s string) (Terminal, error) {
	rest, tmux := strings.CutPrefix(s, "tmux+")
	rest, zellij := strings.CutPrefix(rest, "zellij+")
	first, name, named := strings.Cut(rest, ":")
	if d, ok := dialectOf(first); ok && !(tmux && zellij) {
		t := Terminal{Dialect: d, Tmux: tmux, Zellij: zellij}
		if string(d) != first {
			t.Name = first
		}
		if !named {
			return t, nil
		}
		if nd, ok := dialectOf(name); ok && t.Name == "" && nd == d && name != string(d) {
			t.Name = name
			return t, nil
		}
	}
	var names []string
	for _, n := range Names {
		names = append(names, n.Name)
	}
	return Terminal{}, fmt.Errorf("unknown terminal %q: want one of %s, optionally prefixed tmux+ or zellij+", s, strings.Join(names, ", "))
}

// FromTask returns the terminal a task id selects, and false when
// the id is a host's (or empty).
func FromTask(id string) (Terminal, bool) {
	rest, ok := strings.CutPrefix(id, TaskPrefix)
	if !ok {
		return Terminal{}, false
	}
	t, err := Parse(rest)
	if err != nil {
		// What the scripts do with a value they do not know: the dialect
		// (but OSC 9, the default) it starts with, else OSC 9.
		bare, tmux := strings.CutPrefix(rest, "tmux+")
		bare, zellij := strings.CutPrefix(bare, "zellij+")
		t = Terminal{Dialect: OSC9, Tmux: tmux, Zellij: zellij && !tmux}
		for _, d := range Dialects()[1:] {
			if strings.HasPrefix(bare, string(d)) {
				t.Dialect = d
			}
		}
	}
	return t, true
}

// A Rule names a terminal (one of Names) when an environment variable is
// set (Value "") or holds a value (a shell pattern: "foot*").
type Rule struct {
	Var, Value, Name string
	Why              string // the terminal, for docs and doctor
}

// Rules are checked in order; the first that matches wins, and OSC 9
// is the rest's. Inside tmux TERM_PROGRAM and TERM name tmux, so the
// tmux client attached now comes first (ClientType's rules here, and
// those on TERM read on Client before all), then the variables a terminal
// sets for its own panes (which tmux passes on). Over ssh only TERM (and
// LC_*) arrive.
var Rules = []Rule{
	{ClientType, "ghostty*", "ghostty", "Ghostty, the tmux client attached now"},
	{ClientType, "kitty*", "kitty", "kitty, the tmux client attached now"},
	{ClientType, "iTerm2*", "iterm2", "iTerm2, the tmux client attached now"},
	{ClientType, "WezTerm*", "wezterm", "WezTerm, the tmux client attached now"},
	{"STY", "", "screen", "GNU screen (which passes on no notification, and marks a window's bell)"},
	{"KITTY_WINDOW_ID", "", "kitty", "kitty"},
	{"TERM", "xterm-kitty", "kitty", "kitty (over ssh)"},
	{"GHOSTTY_RESOURCES_DIR", "", "ghostty", "Ghostty"},
	{"TERM_PROGRAM", "ghostty", "ghostty", "Ghostty"},
	{"TERM", "xterm-ghostty", "ghostty", "Ghostty (over ssh)"},
	{"WT_SESSION", "", "windows-terminal", "Windows Terminal (no notification: its bell marks the tab, or with bellStyle notification shows one)"},
	{"WEZTERM_PANE", "", "wezterm", "WezTerm"},
	{"TERM_PROGRAM", "WezTerm", "wezterm", "WezTerm"},
	{"TERM", "foot*", "foot", "foot"},
	{"TERM", "rxvt*", "urxvt", "urxvt (with its notify extension)"},
	{"WARP_CLI_AGENT_PROTOCOL_VERSION", "", "warp", "Warp, its agent protocol on"},
	{"TERM_PROGRAM", "WarpTerminal", "osc777", "Warp (its agent protocol off: OSC 777 toasts)"},
	{"ITERM_SESSION_ID", "", "iterm2", "iTerm2"},
	{"TERM_PROGRAM", "iTerm.app", "iterm2", "iTerm2"},
	{"LC_TERMINAL", "iTerm2", "iterm2", "iTerm2 (over ssh)"},
	{"KONSOLE_VERSION", "", "konsole", "Konsole"},
	{"TERM_PROGRAM", "Apple_Terminal", "apple-terminal", "Apple Terminal (no notification: its bell badges the tab)"},
	{"TERM_PROGRAM", "vscode", "vscode", "VS Code (no notification: its bell marks the tab)"},
	{"ALACRITTY_WINDOW_ID", "", "alacritty", "Alacritty (no notification: its bell sets the urgency hint)"},
	{"TERM", "alacritty*", "alacritty", "Alacritty (no notification: its bell sets the urgency hint)"},
	{"TERMINAL_EMULATOR", "JetBrains-JediTerm", "jetbrains", "JetBrains' terminal (no notification: only its bell)"},
	{"VTE_VERSION", "", "vte", "a VTE terminal (GNOME Terminal, Ptyxis, Tilix: no notification upstream)"},
}

// Wrappers are the rules that say the shell runs inside tmux, so that
// what the hooks send is wrapped for tmux's passthrough: $TMUX, or a TERM
// that names tmux without it (a shell reached by ssh from inside a tmux on
// the machine ssh ran on, since only TERM crosses). Their Name is unused.
var Wrappers = []Rule{
	{"TMUX", "", "", "tmux"},
	{"TERM", "tmux*", "", "a tmux on the machine ssh ran on (TERM names tmux, and no $TMUX is here)"},
}

// Client and ClientType are the variables init sets, inside tmux, to the
// TERM of the tmux client attached now and to what that terminal answered
// tmux's XTVERSION query ("ghostty 1.2.3"; "" if nothing): tmux
// display-message -p ClientFormat prints both, split at the first space.
// run and emit ask the same. The rules on TERM are read on Client before
// every rule, and ClientType's rules come first in Rules, so that the
// terminal follows the one attached now, not the variables tmux's server
// kept from the terminal it started in.
const (
	Client, ClientType = "__hookinstall_client", "__hookinstall_ctype"
	ClientFormat       = "#{client_termname} #{client_termtype}"
)

// checked are the rules in the order init and Detect read them: each rule
// on TERM read on Client, then Rules.
func checked() []Rule {
	var rs []Rule
	for _, r := range Rules {
		if r.Var == "TERM" {
			name, _, _ := strings.Cut(r.Why, " (")
			rs = append(rs, Rule{Client, r.Value, r.Name, name + ", the tmux client attached now"})
		}
	}
	return append(rs, Rules...)
}

// match is a tiny shell-pattern match: an exact value, or a prefix ending
// in '*'.
func (r Rule) match(v string) bool {
	if r.Value == "" {
		return v != ""
	}
	if p, ok := strings.CutSuffix(r.Value, "*"); ok {
		return strings.HasPrefix(v, p)
	}
	return v == r.Value
}

// Detect picks the terminal for an environment, as init does: <NS>_TERMINAL
// (Var) when it holds a terminal, else the first rule that matches (Client's,
// then Rules), else OSC 9; wrapped for tmux when one of Wrappers matches. why
// names the terminal a rule matched, the override, or the default.
func Detect(ns string, getenv func(string) string) (t Terminal, why string) {
	tmux := slices.ContainsFunc(Wrappers, func(r Rule) bool { return r.match(getenv(r.Var)) })
	wrap := func(t Terminal) Terminal {
		if t.Tmux = t.Tmux || tmux; !t.Tmux && getenv("ZELLIJ") != "" {
			return t.inZellij(getenv(ZellijVersion))
		}
		return t
	}
	// the override is a name in Names (init's shell code takes no other)
	if o, err := Parse(getenv(Var(ns))); err == nil && !strings.Contains(getenv(Var(ns)), ":") {
		return wrap(o), "chosen by " + Var(ns)
	}
	for _, r := range checked() {
		if r.match(getenv(r.Var)) {
			set := "set"
			if r.Value != "" {
				set = "=" + r.Value
			}
			t, _ := Parse(r.Name) // a terminal's name, or a dialect's
			return wrap(t), fmt.Sprintf("%s (%s %s)", r.Why, r.Var, set)
		}
	}
	return wrap(Terminal{Dialect: OSC9}), "no terminal recognised: OSC 9, which most terminals that notify understand"
}

// ZellijVersion is the variable init sets, inside Zellij, to what `zellij
// --version` answered ("zellij 0.45.0"); run, emit and doctor ask the same.
const ZellijVersion = "__hookinstall_zellij"

// ZellijDrops are the answers (shell patterns) of the Zellij releases that
// pass on no notification: before 0.45.0 its grid drops OSC 9 and 777 (0.44
// passes OSC 99 alone), so the bell is all that reaches the terminal.
var ZellijDrops = []string{"zellij 0.[0-9].*", "zellij 0.[1-3][0-9].*", "zellij 0.4[0-4].*"}

// inZellij is t inside a Zellij whose --version said v ("" when unknown:
// as 0.45's): the bell alone where that Zellij passes no notification on.
func (t Terminal) inZellij(v string) Terminal {
	for _, p := range ZellijDrops {
		if ok, _ := path.Match(p, v); ok {
			return Terminal{Dialect: Bell, Zellij: true}
		}
	}
	t.Zellij = true
	return t
}

// Var is the override `init` and `run` read: a terminal as
// Terminal.String writes it, or "off".
func Var(ns string) string { return EnvPrefix(ns) + "_TERMINAL" }

// The OSC 9;4 progress sequences.
const (
	progressBusy   = "\x1b]9;4;3\x07"     // indeterminate
	progressPaused = "\x1b]9;4;4;100\x07" // paused (a full bar, in the warning colour)
	progressClear  = "\x1b]9;4;0\x07"
)

// Notification is what state s says in a desktop notification, after the
// agent's name; "" for the states that notify nothing.
func Notification(s State) string {
	switch s {
	case Attention:
		return "needs your input"
	case Done:
		return "is done"
	}
	return ""
}

// Progress is the OSC 9;4 tab progress sequence state s sends: busy while
// working, a paused full bar while it needs the user, cleared otherwise.
func Progress(s State) string {
	switch s {
	case Working:
		return progressBusy
	case Attention:
		return progressPaused
	}
	return progressClear
}

// Separator stands between the agent's words and the project folder:
// " · " (U+00B7).
const Separator = " \u00b7 "

// notify is the notification sequence of a dialect (its row of Forms);
// OSC 99's names the agent session (key), so that a later one closes it
// (closeNote), and shows only while the window is not focused.
func notify(d Dialect, product, text, folder, key string) string {
	for _, f := range Forms {
		if f.Dialect == d && f.Open != "" {
			return strings.Replace(f.Open, "{key}", key, 1) + product + f.Join + text + Separator + folder + "\x07"
		}
	}
	return "\x07"
}

// closeNote closes the OSC 99 notification of the agent session key: the
// agent works again, so what it needed is stale.
func closeNote(key string) string { return "\x1b]99;i=" + key + ":p=close;\x07" }

// An Agent is what the decision knows of the agent whose hook sends: its
// id (7501's app, Warp's agent name), its name for people, and what it
// shows by itself.
type Agent struct {
	ID, Product string
	Own         *Own
}

// Own is what an agent shows by itself in a terminal, read from its own
// code (docs/agents.md): its hooks leave that out there, so that nothing
// shows twice.
type Own struct {
	// Notifies are the states whose desktop notification the agent sends by
	// itself in the terminals In names outside tmux, and InTmux inside it: a
	// terminal's name, a dialect's (every terminal init gives it), or "*"
	// (every terminal).
	Notifies   []State
	In, InTmux []string
	// Progress are the rules, read when the hook runs, under which the agent
	// draws OSC 9;4 tab progress by itself (what it reads is its own
	// environment, which the hook shares: over ssh, init may name a terminal
	// whose variables the agent does not see); a rule with no Var always
	// holds.
	Progress []Rule
	// Holds are the ways of holding its state in the tab that the agent
	// sends by itself (Codex: OSC 7501 and 21337), and HoldsInTmux those
	// that reach the terminal from inside tmux (Codex's none: it writes
	// them unwrapped there, and tmux drops them, measured).
	Holds, HoldsInTmux []Status
}

// HoldsIn are the ways of holding its state that the agent sends itself
// and that reach terminal t.
func (o *Own) HoldsIn(t Terminal) []Status {
	switch {
	case o == nil:
		return nil
	case t.Tmux:
		return o.HoldsInTmux
	}
	return o.Holds
}

// NotifiesIn reports whether the agent sends state s's notification by
// itself in terminal t.
func (o *Own) NotifiesIn(t Terminal, s State) bool {
	if o == nil || !slices.Contains(o.Notifies, s) {
		return false
	}
	in := o.In
	if t.Tmux {
		in = o.InTmux
	}
	return slices.Contains(in, "*") || slices.Contains(in, string(t.Dialect)) || t.Name != "" && slices.Contains(in, t.Name)
}

// Draws reports whether the agent draws its own tab progress in the
// environment getenv reads (a hook's).
func (o *Own) Draws(getenv func(string) string) bool {
	return o != nil && slices.ContainsFunc(o.Progress, func(r Rule) bool { return r.Var == "" || r.match(getenv(r.Var)) })
}

// holds reports whether t holds the state by h and the agent sends none
// of its own that way.
func (a Agent) holds(t Terminal, h Status) bool {
	row, _ := name(t.Name)
	return slices.Contains(row.Holds, h) && !slices.Contains(a.Own.HoldsIn(t), h)
}

// Holds lists the ways terminal t holds the agent's state for its hooks
// (doctor's words).
func (a Agent) Holds(t Terminal) []Status {
	var hs []Status
	for _, h := range []Status{TabStatus, ProgramStatus, WarpEvents} { // 7501 last: it then shows where both are read
		if a.holds(t, h) && !(h == TabStatus && t.Tmux) && !(h == WarpEvents && !slices.Contains(WarpAgents, a.ID)) && !t.Zellij {
			hs = append(hs, h)
		}
	}
	return hs
}

// Sends is the one decision of what a hook sends for state s in terminal
// t, unwrapped: the OSC 9;4 progress, which the hook leaves out where the
// agent draws its own (Own.Draws, read when it runs), and the rest: the
// state held in the tab where the terminal holds it (Holds: iTerm2's tab
// status, a 7501 record), the notification unless the agent sends it
// itself in t (Warp's event in its place for the agents Warp knows; a
// stale OSC 99 one closed when the agent works again), and inside tmux a
// plain BEL, which marks the window's bell flag in tmux's window list (the
// Bell dialect's notification is that BEL). Inside Zellij, which drops OSC
// 7501 and 21337 and takes any OSC 9 for a notification (9;4 too, in
// 0.45.0), no progress and no tab state, and the BEL that marks its tab.
// The generated scripts and plugins are this decision, tabled for every
// terminal init names. folder
// must already be safe (SafeFolder); key tells this agent session from
// others in the tab ("claude-3": hooks of one session share it).
func Sends(t Terminal, a Agent, folder, key string, s State) (progress string, rest []string) {
	for _, h := range a.Holds(t) {
		switch h {
		case TabStatus:
			rest = append(rest, tabStatus(a.Product, s))
		case ProgramStatus:
			rest = append(rest, programStatus(a, key, s))
		case WarpEvents:
			rest = append(rest, warpEvent(a.ID, folder, s))
		}
	}
	n := Notification(s)
	own := a.Own
	switch warp := slices.Contains(a.Holds(t), WarpEvents); {
	case n != "" && !warp && !own.NotifiesIn(t, s):
		rest = append(rest, notify(t.Dialect, a.Product, n, folder, key))
	case n == "" && t.Dialect == OSC99 && !(own.NotifiesIn(t, Attention) && own.NotifiesIn(t, Done)):
		rest = append(rest, closeNote(key))
	}
	if n != "" && (t.Tmux || t.Zellij) && (own.NotifiesIn(t, s) || t.Dialect != Bell) {
		rest = append(rest, "\x07")
	}
	if t.Zellij { // 0.45 takes any OSC 9 for a notification (9;4 included); the others drop it
		return "", rest
	}
	return Progress(s), rest
}

// Sequences is what a hook of agent a sends for state s in terminal t,
// unwrapped, its progress left out when draws.
func Sequences(t Terminal, a Agent, draws bool, folder, key string, s State) []string {
	p, rest := Sends(t, a, folder, key, s)
	if draws {
		return rest
	}
	return append([]string{p}, rest...)
}

// Clear is what clears terminal t's tab of agent a's session key, once it
// is gone: its progress, its 7501 record where the tab holds one, and its
// OSC 99 notification.
func Clear(t Terminal, a Agent, key string) []string {
	var seqs []string
	if !t.Zellij { // 0.45 takes any OSC 9 for a notification
		seqs = append(seqs, progressClear)
	}
	if slices.Contains(a.Holds(t), ProgramStatus) {
		seqs = append(seqs, "\x1b]7501;state=clear:id="+key+"\x1b\\")
	}
	if t.Dialect == OSC99 {
		seqs = append(seqs, closeNote(key))
	}
	return seqs
}

// InterruptedMsg is the msg of an interrupted turn's 7501 record: idle,
// the spec's state after a cancellation, is also other programs' state at
// every turn's end (Codex's).
const InterruptedMsg = "Interrupted"

// programStatus is agent a's OSC 7501 record (rev 0.3) for state s:
// blocked on a permission while it needs the user, idle once the user
// stopped it (the spec's word for a cancelled turn, InterruptedMsg its
// msg), its name for people as the title; the id is this session's, so
// that agents in panes that share a tab keep a record each.
func programStatus(a Agent, key string, s State) string {
	st := map[State]string{Working: "working", Attention: "blocked:kind=permission", Done: "done",
		Interrupted: "idle:msg=" + base64.StdEncoding.EncodeToString([]byte(InterruptedMsg))}[s]
	app := ""
	if a.ID != "" {
		app = ":app=" + a.ID
	}
	return "\x1b]7501;state=" + st + ":id=" + key + app + ":title=" + base64.StdEncoding.EncodeToString([]byte(a.Product)) + "\x1b\\"
}

// tabStatus is iTerm2's OSC 21337 for state s, in its own words and
// colours (those of its ProgramStatusController).
func tabStatus(product string, s State) string {
	w := map[State][2]string{Working: {"working", "#ff9500"}, Attention: {"waiting", "#5f87ff"}, Done: {"done", "#00d75f"}, Interrupted: {"idle", "#00d75f"}}[s]
	return "\x1b]21337;status=" + w[0] + ";indicator=" + w[1] + ";status-color=" + w[1] + ";detail=" + product + "\x07"
}

// warpEvent is Warp's warp://cli-agent event (schema v1) for state s: a
// prompt submitted, a permission asked, a stop (Warp has no event for a
// turn the user stopped: a stop is the end of it).
func warpEvent(agent, folder string, s State) string {
	ev := map[State]string{Working: "prompt_submit", Attention: "permission_request", Done: "stop", Interrupted: "stop"}[s]
	return "\x1b]777;notify;warp://cli-agent;{\"v\":1,\"agent\":\"" + agent + "\",\"event\":\"" + ev + "\",\"project\":\"" + folder + "\"}\x07"
}

// TmuxWrap wraps one sequence in tmux's DCS passthrough: ESC P tmux ;
// the sequence with every ESC doubled, ESC \.
func TmuxWrap(seq string) string {
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}

// Encode returns the exact bytes a hook that writes to the pty sends for
// seqs (Sequences): each wrapped for tmux when t.Tmux, but a plain BEL.
func Encode(t Terminal, seqs []string) []byte {
	var b strings.Builder
	for _, q := range seqs {
		if t.Tmux && q != "\x07" {
			q = TmuxWrap(q)
		}
		b.WriteString(q)
	}
	return []byte(b.String())
}

// EnvPrefix is the namespace as an environment variable prefix:
// "my-host" is MY_HOST.
func EnvPrefix(ns string) string { return strings.ToUpper(strings.ReplaceAll(ns, "-", "_")) }

// TaskVar is <NS>_TASK_ID, the variable that gates every hook: unset or
// empty means the hook prints and writes nothing; a value that starts
// with TaskPrefix selects the terminal's language; any other is a host's.
func TaskVar(ns string) string { return EnvPrefix(ns) + "_TASK_ID" }

// PTYVar is <NS>_PTY, the variable that names the pty (its slave side)
// the hooks of every agent but Claude write to.
func PTYVar(ns string) string { return EnvPrefix(ns) + "_PTY" }

// FolderMax bounds a folder name in a notification, in bytes.
const FolderMax = 32

// FolderSafe are the bytes a folder name keeps; every other byte becomes
// '_'. None is a control byte, ';', '"' or '\', so the name can split
// no sequence, end none, and needs no escape in JSON.
const FolderSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+@,=~ -"

// SafeFolder is the last element of dir as the hooks put it in a
// notification: every byte outside FolderSafe (control bytes, ';', quotes,
// and each byte of a non-ASCII character) becomes '_', then it is cut to
// FolderMax bytes; "/" for the root. The scripts compute the same from
// $PWD with builtins.
func SafeFolder(dir string) string {
	name := dir[strings.LastIndexByte(dir, '/')+1:]
	if name == "" {
		return "/"
	}
	b := []byte(name[:min(len(name), FolderMax)])
	for i, c := range b {
		if strings.IndexByte(FolderSafe, c) < 0 {
			b[i] = '_'
		}
	}
	return string(b)
}

// RecordDir is the folder of the user's agent sessions' records, one file
// each, which terminal-mode hooks keep ("hookinstall ls"): <NS> in
// $XDG_RUNTIME_DIR (the user's own runtime folder), else <NS>-<user> in
// $TMPDIR or /tmp; "" when no user can be named there. It must be a folder
// the user owns, no symlink, writable by no one else; the hooks write
// nothing elsewhere.
func RecordDir(ns string, getenv func(string) string) string {
	if r := getenv("XDG_RUNTIME_DIR"); r != "" {
		return r + "/" + ns
	}
	user := cmp.Or(getenv("USER"), getenv("LOGNAME"))
	if user == "" {
		return ""
	}
	return cmp.Or(getenv("TMPDIR"), "/tmp") + "/" + ns + "-" + user
}

// RecordFields are the lines of a terminal's record, key=value each, in
// this order, then the line RecordEnd, which marks it whole (it is written
// in place): the state, the agent and the agent's process first (a hook
// that finds them unchanged, the process alive, sends and writes nothing,
// so the file's time is when the state began), the project folder (as
// notifications name it), the agent's pty, its multiplexer ("tmux"), pane
// ("%3") and server (tmux's socket), and "1" over ssh. Nothing of the
// prompt or the payload. The sh runtime names its variables after the
// keys, the JavaScript writer its object's, and package hookinstall reads
// them by these names.
var RecordFields = []string{"state", "agent", "pid", "folder", "tty", "mux", "pane", "server", "ssh"}

// RecordEnd is a record's last line; RecordPrefix and the pty's name are
// its file's name ("tty-3"): one record per terminal.
const RecordEnd, RecordPrefix = "end", "tty-"

// PaneOption is the tmux pane option that holds the state of the agent in
// the pane, for tmux's own formats (#{@<NS>_state}).
func PaneOption(ns string) string { return "@" + strings.ReplaceAll(ns, "-", "_") + "_state" }
