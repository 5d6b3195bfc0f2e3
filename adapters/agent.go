package adapters

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// An Agent is one coding agent, every fact about it stated once, in its own
// file (adapters/<id>.go): where it keeps its hooks, what we install there
// and in which shape, how it parses its config, which files it reads, what
// keeps our hooks from running, how it trusts hooks, and how doctor proves
// them. add, remove, status and doctor all read these fields; no code
// outside this package knows an agent by name.
//
// A new agent of an existing shape is one value of this type, registered
// in its file's init (register), plus its recorded payloads and tests.
type Agent struct {
	// ID is the agent's name on the command line: "claude" (Name).
	ID string
	// Product is its name for people: "Claude Code".
	Product string
	// ShowsItself is what the agent shows by itself in a terminal (its own
	// notifications and tab progress, from its code: docs/agents.md), which
	// its scripts leave out there in terminal mode; nil for nothing.
	ShowsItself *terminal.Own
	// Programs are the program names whose presence on PATH means the
	// agent is installed.
	Programs []string
	// OnWindows: the agent's hooks are proven on native Windows, where add
	// refuses every other agent with WindowsHooks, how it runs hooks there
	// ("" when not measured): docs/windows.md.
	OnWindows    bool
	WindowsHooks string

	// Dir is the agent's config dir under home, with getenv giving the
	// agent's own overrides (nil when none apply); from names the variable
	// that chose it, if any.
	Dir func(home string, getenv func(string) string) (dir, from string)
	// File is the config we write, on disk.
	File func(t Target) string
	// Own: File is ours alone (removal deletes it), not shared with the
	// user (removal unmerges).
	Own bool
	// SharesDir: another agent came first in the same config dir (Gemini
	// CLI's ~/.gemini is also Antigravity's), so our hooks dir there is
	// <NS>-<ID>-hooks and each keeps its own manifest.
	SharesDir bool
	// Detect are the paths whose presence means the agent is installed
	// (besides its programs on PATH), where its config dir alone cannot
	// tell: ~/.gemini is Gemini CLI's and Antigravity's. nil means Dir.
	Detect func(t Target) []string

	// Reads are the files the agent reads besides File that matter to
	// hookinstall, listed once: switch files, machine-wide files (named
	// with SystemPath, so none for a Docker target), dead paths, twins of
	// our file, trust records. Plans read them under the lock; the
	// switches, dead paths and doctor judge them.
	Reads func(t Target) []string

	// Hooks are the events we install, and the state each reports.
	Hooks []Hook
	// Transport is how its scripts reach the terminal.
	Transport scripts.Transport
	// Quiet are environment variables under which its scripts print
	// nothing: Claude's, since Grok runs Claude's hooks too.
	Quiet []Quiet
	// Format is the config file's shape, and how our entries sit in it:
	// HookMap, NamedSet, TOMLHooks or Module.
	Format Format

	// ReadsComments: the agent reads // and /* */ comments in its JSON
	// config (measured), but no trailing commas. hookinstall edits such a
	// file keeping every comment where it was (jsonedit.MapEdit.Comments).
	ReadsComments bool
	// ReadsBOM: the agent reads a config that starts with a UTF-8 byte
	// order mark (measured). Otherwise it rejects the whole file.
	ReadsBOM bool
	// StrictRoot is every top-level key the agent accepts in its config;
	// any other makes it reject the whole file. nil allows any key.
	StrictRoot []string
	// RewritesStale: the agent has been seen to write back a stale copy of
	// its config that drops our entries.
	RewritesStale bool
	// RewritesInPlace: the agent (or another one that shares the file)
	// truncates the config and writes it again in place, so an empty config
	// is most likely one caught mid-write: add and remove refuse it rather
	// than replace what is being written.
	RewritesInPlace bool

	// check is add's judgement of the config and the files of Reads:
	// an *OffError when the agent's hooks are switched off, another error
	// when the config cannot be used, and notes for the user.
	check func(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error)
	// Switches checks what can switch the agent's hooks off, when an
	// install is there.
	Switches func(Input) []Check
	// DeadPaths checks paths the agent loads but never runs, or loads a
	// second time, whether or not an install is there.
	DeadPaths func(Input) []Check

	// ReadFiles, when set, reads the config together with the files of
	// Reads, for an agent that reads its hooks from more than one file
	// (Factory Droid merges settings.json and hooks.json per event): the
	// event map is what the agent runs of them. nil: Format reads File.
	ReadFiles func(in Input) ([]Check, *EventMap)
	// planAdd and planRemove, when set, plan an agent whose hooks span
	// several files (droid) instead of the one-config plan.
	planAdd, planRemove func(a *Agent, t Target, in PlanInput) (Plan, error)

	// Trust is set for an agent that runs a hook only once the user
	// trusted it.
	Trust *Trust
	// Next, when set, says what the user must do after an add that changed
	// the config before the hooks run ("type /reload").
	Next func(t Target) string

	// Range is the agent versions measured with our hooks, and what older
	// ones get (versions.go); nil when no binary of the agent could be run
	// here.
	Range *Range

	// Ask is set where the agent's binary can say what it resolved.
	Ask *Ask
	// Payloads names the agent whose recorded payloads the live fires
	// replay (ZeroCode's engine is Codex's, so zerocode replays codex's).
	Payloads string
	// Reconstructed are the events whose payload was built from the
	// agent's documentation rather than recorded from its binary.
	Reconstructed []string
	// Variants are further fires per event, for a state that depends on
	// the payload.
	Variants map[string][]Variant
	// ProjectConfigs are globs, relative to a project folder, of hook
	// configs the agent also reads there: one of ours there fires twice.
	ProjectConfigs []string
	// Plugin is set for an agent that loads a module of ours in-process
	// (Format Module): how it is rendered and how doctor runs it.
	Plugin *Plugin
}

// A Hook is one event we install for an agent: the state it reports, and
// how its script decides when the state depends on the payload.
type Hook struct {
	Event string
	State terminal.State
	Rule  scripts.Rule // the zero Rule is scripts.Always
	// Field and Value are what a scripts.FieldEquals or FieldTrue rule
	// matches.
	Field, Value string
	// Cases are what a scripts.FieldCases rule matches (on Field).
	Cases []scripts.Case
	// Note says when the state applies, where the payload decides.
	Note string
	// Timeout is this event's handler timeout in the agent's unit, where it
	// differs from the Format's; 0 means the Format's.
	Timeout int
	// Also are further states the event reports (a FieldCases rule's
	// other cases), listed after its own by Events.
	Also []EventInfo
}

// A Quiet is an environment variable under which an agent's scripts exit
// at once and print nothing, because another agent runs them too. Scripts
// render the guard from it, and doctor checks it and fires with it set.
type Quiet struct {
	Var string // "GROK_HOOK_EVENT"
	ID  string // doctor's fire with Var set is fire.<ID>
	Who string // who runs the scripts: "Grok"
	Why string // "Grok runs Claude's hooks"
}

func (a *Agent) quietVars() []string {
	var vs []string
	for _, q := range a.Quiet {
		vs = append(vs, q.Var)
	}
	return vs
}

// An EventInfo says which state an agent event reports.
type EventInfo struct {
	Event string
	State terminal.State
	Note  string // the condition, where the state depends on the payload
}

// A Script is one generated hook file.
type Script struct {
	Event   string
	Name    string // file name inside the hooks dir
	Content []byte
}

// HookTimeout is the timeout, in seconds, of every handler we write.
const HookTimeout = 5

// Events lists what the agent's hooks report, for docs and status.
func (a *Agent) Events() []EventInfo {
	var es []EventInfo
	for _, h := range a.Hooks {
		es = append(es, EventInfo{Event: h.Event, State: h.State, Note: h.Note})
		es = append(es, h.Also...)
	}
	return es
}

// Scripts are the hook scripts to install: one per hook, then their
// terminal runtime (scripts.Runtime, its Event ""); none for an agent that
// loads a module of ours.
func (a *Agent) Scripts(t Target) ([]Script, error) {
	if _, ok := a.Format.(Module); ok {
		return nil, nil
	}
	var ss []Script
	var specs []scripts.Spec
	for _, h := range gated(t, a.Hooks) {
		spec := t.spec(scripts.Spec{Event: h.Event, State: h.State, Transport: a.Transport, Rule: h.Rule, Quiet: a.quietVars(), Field: h.Field, Value: h.Value, Cases: h.Cases})
		b, err := scripts.Render(spec)
		if err != nil {
			return nil, err
		}
		ss, specs = append(ss, Script{Event: h.Event, Name: scripts.FileName(h.Event), Content: b}), append(specs, spec)
	}
	b, err := scripts.Runtime(specs...)
	if err != nil {
		return nil, err
	}
	return append(ss, Script{Name: scripts.RuntimeName, Content: b}), nil
}

// ScriptNames are the file names of the scripts Scripts renders, by event
// (none for a module of ours), without rendering them.
func (a *Agent) ScriptNames(t Target) map[string]string {
	m := map[string]string{}
	if _, ok := a.Format.(Module); !ok {
		for _, h := range gated(t, a.Hooks) {
			m[h.Event] = scripts.FileName(h.Event)
		}
	}
	return m
}

// TrustWritable reports whether add --trust can record the user's trust
// for this agent's hooks.
func (a *Agent) TrustWritable() bool { return a.Trust != nil && a.Trust.Write != nil }

// Add returns the config with our entries installed: the config's edit that
// PlanAdd is built from.
func (a *Agent) Add(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	return a.Format.add(a, t, cur, prev, force)
}

// Remove returns the config without our entries.
func (a *Agent) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	return a.Format.remove(a, t, cur, prev, force)
}

// Check judges the config and the files of Reads as add does: an
// *OffError when the agent's hooks are switched off (an install would never
// fire), another error when the config cannot be used, and notes that the
// user should read.
func (a *Agent) Check(t Target, cur []byte, files map[string][]byte) ([]string, error) {
	var notes []string
	if m, ok := a.Format.(Module); ok {
		notes = m.check(a, t, files)
	}
	if a.check != nil {
		more, err := a.check(a, t, cur, files)
		if err != nil {
			return nil, err
		}
		notes = append(notes, more...)
	}
	if off := a.switchedOff(t, cur, files); off != nil {
		return nil, off
	}
	return notes, nil
}

// switchedOff runs the agent's Switches over the config (cur, nil when it
// is absent) and the files read, and returns the first finding that says
// its hooks are switched off, as an *OffError in the finding's words.
func (a *Agent) switchedOff(t Target, cur []byte, files map[string][]byte) *OffError {
	if a.Switches == nil {
		return nil
	}
	in := Input{T: t, Config: File{Path: a.File(t), Data: cur, Exists: cur != nil}, Files: map[string]File{}}
	for p, b := range files {
		in.Files[p] = File{Path: p, Data: b, Exists: true}
	}
	for _, f := range a.Switches(in) {
		if f.Off {
			return &OffError{File: f.File, Key: strings.TrimPrefix(f.ID, "switch."), Verdict: f.Verdict, Hint: f.Hint}
		}
	}
	return nil
}

// A Format is the shape of an agent's config, and how our entries sit in
// it: HookMap (an event map of hook entries), NamedSet (one top-level key of
// ours), TOMLHooks ([[hooks]] tables) or Module (a whole module of ours).
type Format interface {
	// add and remove are Agent.Add and Agent.Remove.
	add(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error)
	remove(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error)
	// read reads the config as the agent does, for doctor (Agent.Read).
	read(a *Agent, t Target, cfg File) ([]Check, *EventMap)
	// empty reports whether doc, the config after a remove, holds nothing:
	// a file the install created is then deleted.
	empty(doc []byte) bool
	// escapes are the letters that, after a backslash, let the config's
	// strings spell a byte another way (see Agent.Escapes).
	escapes() string
}

// Escapes are the letters that, after a backslash, let the strings of the
// files t reads (its config in its Format, and the others by their kind:
// JSON \u \/, TOML \u \U \x, JavaScript \u \x) spell a byte another way.
// A file that holds none of them holds our namespace verbatim or not at
// all, which the writer tests with one search.
func (a *Agent) Escapes(t Target) string {
	esc := a.Format.escapes()
	add := func(s string) {
		for _, c := range s {
			if !strings.ContainsRune(esc, c) {
				esc += string(c)
			}
		}
	}
	for _, f := range a.Files(t) {
		switch filepath.Ext(f) {
		case ".json":
			add(jsonedit.Escapes)
		case ".toml":
			add(tomlEscapes)
		case ".js", ".ts":
			add(jsEscapes)
		default:
			add(jsonedit.Escapes + tomlEscapes + jsEscapes)
		}
	}
	return esc
}

// tomlEscapes and jsEscapes are Escapes for TOML and JavaScript strings.
const (
	tomlEscapes = "uUx"
	jsEscapes   = "ux"
)

var registry = map[string]*Agent{}

// register adds an agent; its file's init calls it.
func register(a *Agent) {
	if m, ok := a.Format.(Module); ok {
		a.Own = true // the module is ours alone
		if a.File == nil {
			a.File = m.File
		}
	}
	if _, dup := registry[a.ID]; dup {
		panic("adapters: agent " + a.ID + " registered twice")
	}
	if a.ID == "" || a.Product == "" || a.Dir == nil || a.File == nil || a.Format == nil || a.Payloads == "" {
		panic(fmt.Sprintf("adapters: agent %q lacks ID, Product, Dir, File, Format or Payloads", a.ID))
	}
	if _, ok := a.Format.(Module); ok != (a.Plugin != nil) {
		panic("adapters: agent " + a.ID + ": a Module format goes with Plugin, and only it")
	}
	if r := a.Range; r != nil { // stated once here: the floor is Oldest unless set
		r.Floor = cmp.Or(r.Floor, r.Oldest)
		r.Silent = append([]Gap{}, r.Silent...)
		if r.Older == nil {
			r.Older = []Older{}
		}
		for i := range r.Older {
			if r.Older[i].Drop == nil {
				r.Older[i].Drop = []string{}
			}
		}
	}
	registry[a.ID] = a
}

// Lookup returns the agent named name.
func Lookup(name string) (*Agent, bool) {
	a, ok := registry[name]
	return a, ok
}

// All returns every agent, in name order.
func All() []*Agent {
	return slices.SortedFunc(maps.Values(registry), func(a, b *Agent) int { return cmp.Compare(a.ID, b.ID) })
}

// Names returns every agent's name, in order.
func Names() []string {
	var ns []string
	for _, a := range All() {
		ns = append(ns, a.ID)
	}
	return ns
}

// Files are every file the agent reads besides its config: its Reads, and
// for a Module the twins of our file.
func (a *Agent) Files(t Target) []string {
	var fs []string
	if a.Reads != nil {
		fs = append(fs, a.Reads(t)...)
	}
	if m, ok := a.Format.(Module); ok {
		fs = append(fs, m.Twins(t)...)
	}
	return fs
}

// CheckDeadPaths runs the checks of paths the agent loads but never runs,
// or loads a second time: a Module's twins, then DeadPaths.
func (a *Agent) CheckDeadPaths(in Input) []Check {
	var fs []Check
	if m, ok := a.Format.(Module); ok {
		fs = append(fs, m.deadPaths(a, in)...)
	}
	if a.DeadPaths != nil {
		fs = append(fs, a.DeadPaths(in)...)
	}
	return fs
}

// Accepts reports whether key may stand at the top level of the config.
func (a *Agent) Accepts(key string) bool {
	return a.StrictRoot == nil || slices.Contains(a.StrictRoot, key)
}

// StrictRootList renders the keys of a strict root for messages:
// `"description" and "hooks"`.
func (a *Agent) StrictRootList() string {
	ks := slices.Sorted(slices.Values(a.StrictRoot))
	for i, k := range ks {
		ks[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(ks, " and ")
}
