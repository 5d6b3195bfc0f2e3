package adapters

import (
	"embed"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/scripts"
)

// Facts are what one agent does with its files beyond where hookinstall
// writes, as data and as pure checks over bytes: how it parses them, what
// switches its hooks off, where ours must never be, how to ask its binary.
// Every agent states them once, in its own file (Adapter.Facts); add,
// remove, status and doctor take them from there. Doctor does the I/O
// (reading files, live fires, running binaries) and applies them.
type Facts struct {
	// Product is the agent's name for people: "Claude Code".
	Product string
	// Detect are the paths whose presence means the agent is installed
	// (besides its programs on PATH), where its config dir alone cannot
	// tell: ~/.gemini is Gemini CLI's and Antigravity's. nil means the
	// config dir.
	Detect []string
	// ReadsComments: the agent reads // and /* */ comments in its JSON
	// config (measured), but no trailing commas. hookinstall edits such a
	// file keeping every comment where it was (jsonedit.MapEdit.Comments).
	ReadsComments bool
	// Plugin is set when the config is a plugin file of ours that runs
	// inside the agent (opencode), not a map of hook entries.
	Plugin *Plugin
	// EventsUnderNS: the event map sits under our namespace key
	// (Antigravity's named hook sets), not under "hooks".
	EventsUnderNS bool
	// ReadConfig, when set, reads a config in a form of the agent's own,
	// as the agent parses it (see Read); nil reads a JSON object whose
	// event map sits at EventsKey.
	ReadConfig func(t Target, cfg File) ([]Finding, *EventMap)
	// ReadFiles, when set, reads the config together with the files of
	// Reads, for an agent that reads its hooks from more than one file
	// (Factory Droid merges settings.json and hooks.json per event): the
	// event map is what the agent runs of them.
	ReadFiles func(in Input) ([]Finding, *EventMap)
	// StrictRoot is every top-level key the agent accepts in its config;
	// any other makes it reject the whole file. nil allows any key.
	StrictRoot []string
	// ReadsBOM: the agent reads a config that starts with a UTF-8 byte
	// order mark (measured). Otherwise it rejects the whole file.
	ReadsBOM bool
	// RewritesStale: the agent has been seen to write back a stale copy of
	// its config that drops our entries.
	RewritesStale bool
	// ProjectConfigs are globs, relative to a project folder, of hook
	// configs the agent also reads there: one of ours there fires twice.
	ProjectConfigs []string
	// SystemFiles are the machine-wide files the agent reads (under
	// t.SystemRoot; none when it is ""), such as managed settings.
	SystemFiles []string
	// Reads are the files Switches and DeadPaths look at, beside the
	// config: switch files, system files, dead paths.
	Reads []string
	// Switches checks what can switch the agent's hooks off, when an
	// install is there.
	Switches func(Input) []Finding
	// DeadPaths checks paths the agent loads but never runs, or loads a
	// second time, whether or not an install is there.
	DeadPaths func(Input) []Finding
	// Trust is set for an agent that runs a hook only once the user
	// trusted it.
	Trust *Trust
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
	// Range is the agent versions measured with our hooks, and what older
	// ones get; nil when no binary of the agent could be run here.
	Range *Range
}

//go:embed payloads/*.json
var payloadFS embed.FS

// Payload returns the recorded hook payload name ("claude.Stop": an agent,
// as Facts.Payloads names it, and an event), or nil. Doctor's live fires
// replay them; payloads/README.md says where each comes from.
func Payload(name string) []byte {
	b, err := payloadFS.ReadFile("payloads/" + name + ".json")
	if err != nil {
		return nil
	}
	return b
}

// A Plugin is an agent that loads a plugin module of ours in-process.
type Plugin struct {
	// Runtime is the agent's program when it can run JavaScript itself
	// with RuntimeEnv set (opencode is a Bun binary); node is the fallback.
	Runtime     string
	RuntimeEnv  []string
	RuntimeName string // for verdicts: "opencode's Bun runtime"
	// Cases are the live fires: one hook call each, with its payload
	// (an event name under Facts.Payloads) and the state it must report.
	Cases []PluginCase
	// OnAPI: the agent calls the module's default export with an API whose
	// on(event, handler) registers a handler (Pi). Otherwise every export is
	// a plugin function returning its hooks (opencode's API).
	OnAPI bool
	// Header is the first line of every file of ours (the adapter fills
	// it in); Render gives the bytes this version writes.
	Header string
	Render func() ([]byte, error)
}

// A PluginCase is one call of one plugin hook.
type PluginCase struct {
	ID    string // the check id: "fire.working"
	Event string // the payload's event: "chat.message"
	State scripts.State
}

// A Variant is one more fire of an event's script with another payload.
type Variant struct {
	ID      string        // the check id: "fire.background"
	Payload string        // the payload's name after the agent's: "Stop.background"
	State   scripts.State // what must arrive; "" means nothing may
	Why     string        // what the run proves, for the verdict
}

// A Trust is how an agent records that the user trusted a hook.
type Trust struct {
	// File holds the agent's trust records.
	File string
	// Algo names the hash the records hold, for verdicts.
	Algo string
	// Version is the agent version whose trust records hookinstall can
	// write itself (add --trust), or "" when it cannot.
	Version string
}

// An Ask is how to ask the agent's binary what it resolved. It runs with no
// stdin (or the RPC lines), a fixed minimal environment plus Env, and a
// timeout; Read turns what it printed into findings.
type Ask struct {
	ID      string // the check id: "binary.claude"
	Program string // looked up on PATH
	Args    []string
	Env     func(t Target) []string
	// AnyExit: the program's exit status is part of its answer (kimi doctor
	// config exits 1 on a config it rejects), so what it printed is read
	// whatever the status; otherwise a non-zero exit means it could not answer.
	AnyExit bool
	// RPC, when set, gives JSON-RPC lines written one by one to stdin; the
	// answer is then the one reply line whose id is ReplyID.
	RPC     func(t Target) []string
	ReplyID int
	// What names the run in a verdict; %s is the program's path.
	What string
	// Hint is what to do when the program cannot answer.
	Hint string
	// Read judges the answer.
	Read func(AskInput) []Finding
}

// AskInput is what Read judges.
type AskInput struct {
	T      Target
	Config string   // the config path
	Out    []byte   // what the program printed (stdout and stderr)
	Ours   []string // our command for each script
	// Trusted is the trust check's verdict per command of ours (nil when
	// the agent has no trust), to compare with the binary's word.
	Trusted map[string]bool
}

// A File is what was read of one file.
type File struct {
	Path   string
	Data   []byte
	Exists bool
	Err    error
}

// Input is what Switches and DeadPaths judge: the config and every file in
// Facts.Reads, as read.
type Input struct {
	T      Target
	Config File
	Files  map[string]File
}

// File returns what was read of path ("" gives an absent file).
func (in Input) File(path string) File {
	if f, ok := in.Files[path]; ok {
		return f
	}
	return File{Path: path}
}

// ReadTOML parses a TOML file as read; ok is false when it is absent.
func ReadTOML(f File) (doc map[string]any, ok bool, err error) {
	switch {
	case f.Err != nil:
		return nil, true, f.Err
	case !f.Exists:
		return nil, false, nil
	}
	doc, err = parseTOML(f.Data)
	return doc, true, err
}

// The results of a Finding, as doctor reports them.
const (
	Pass = "pass"
	Fail = "fail"
	Info = "info"
	Skip = "skip"
)

// A Finding is one check's outcome.
type Finding struct {
	ID      string
	Result  string // Pass, Fail, Info or Skip
	File    string
	Verdict string
	Hint    string
	// Timed findings carry the time of the run that produced them (an Ask).
	Timed bool
}

func pass(id, file, verdict string) Finding {
	return Finding{ID: id, Result: Pass, File: file, Verdict: verdict}
}

func fail(id, file, verdict, hint string) Finding {
	return Finding{ID: id, Result: Fail, File: file, Verdict: verdict, Hint: hint}
}

func info(id, file, verdict, hint string) Finding {
	return Finding{ID: id, Result: Info, File: file, Verdict: verdict, Hint: hint}
}

// SystemPath is the machine-wide file p ("/etc/...") under t.SystemRoot, or
// "" when t reads no system files (a Docker target's are the container's).
func SystemPath(t Target, p string) string {
	if t.SystemRoot == "" {
		return ""
	}
	return filepath.Join(t.SystemRoot, p)
}

// nonEmpty drops the empty strings of ps.
func nonEmpty(ps ...string) []string {
	var out []string
	for _, p := range ps {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// BOMHint is how to fix a config that starts with a byte order mark.
const BOMHint = "remove the first three bytes (EF BB BF) of the file"

// BOMVerdict says what a leading UTF-8 byte order mark means for the agent:
// add, remove and doctor all say it this way. hookinstall edits no such file
// either way (PRODUCT.md, bad input).
func (f Facts) BOMVerdict() string {
	if f.ReadsBOM {
		return "starts with a UTF-8 byte order mark (BOM): " + f.Product + " reads it anyway (measured), but hookinstall add and remove will not edit the file"
	}
	return "starts with a UTF-8 byte order mark (BOM): " + f.Product + " rejects the whole file, so none of its hooks run"
}

// Explain rewrites an error about t's config in the agent's own terms: a
// byte order mark is refused with what the agent itself does with one.
// (A comment is an error only for an agent that reads none: one that reads
// JSONC gets its comments kept.)
func Explain(t Target, err error) error {
	var se *jsonedit.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	if se.Msg == jsonedit.MsgBOM && se.Offset == 0 {
		c := *se
		c.Msg = t.Adapter.Facts(t).BOMVerdict()
		return &c
	}
	return err
}

// StrictRootList renders the keys of a strict root for messages:
// `"description" and "hooks"`.
func (f Facts) StrictRootList() string {
	ks := append([]string(nil), f.StrictRoot...)
	sort.Strings(ks)
	for i, k := range ks {
		ks[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(ks, " and ")
}

// Accepts reports whether key may stand at the top level of the config.
func (f Facts) Accepts(key string) bool {
	if f.StrictRoot == nil {
		return true
	}
	for _, k := range f.StrictRoot {
		if k == key {
			return true
		}
	}
	return false
}

// EventsKey is the top-level key that holds the event map.
func (f Facts) EventsKey(t Target) string {
	if f.EventsUnderNS {
		return t.NS
	}
	return "hooks"
}
