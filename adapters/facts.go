package adapters

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
	"howett.net/plist"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

//go:embed payloads/*.json
var payloadFS embed.FS

// Payload returns the recorded hook payload name ("claude.Stop": an agent,
// as Agent.Payloads names it, and an event), or nil. Doctor's live fires
// replay them; payloads/README.md says where each comes from.
func Payload(name string) []byte {
	b, err := payloadFS.ReadFile("payloads/" + name + ".json")
	if err != nil {
		return nil
	}
	return b
}

// Payloads returns every recorded payload of the agent that Agent.Payloads
// names (prefix), keyed by its file's name without "prefix." and ".json":
// the event ("Stop"), or event.variant ("Stop.background"). The bytes are
// copies; nil when there is none.
func Payloads(prefix string) map[string][]byte {
	ents, err := payloadFS.ReadDir("payloads")
	if err != nil {
		return nil
	}
	var m map[string][]byte
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix+".")
		if !ok || !strings.HasSuffix(rest, ".json") {
			continue
		}
		b, err := payloadFS.ReadFile("payloads/" + e.Name())
		if err != nil {
			continue
		}
		if m == nil {
			m = map[string][]byte{}
		}
		m[strings.TrimSuffix(rest, ".json")] = bytes.Clone(b)
	}
	return m
}

// A Plugin is an agent that loads a plugin module of ours in-process.
type Plugin struct {
	// Runtime is the agent's program when it can run JavaScript itself
	// with RuntimeEnv set (opencode is a Bun binary); node is the fallback.
	Runtime     string
	RuntimeEnv  []string
	RuntimeName string // for verdicts: "opencode's Bun runtime"
	// Cases are the live fires: one hook call each, with its payload
	// (an event name under Agent.Payloads) and the state it must report.
	Cases []PluginCase
	// OnAPI: the agent calls the module's default export with an API whose
	// on(event, handler) registers a handler (Pi). Otherwise every export is
	// a plugin function returning its hooks (opencode's API).
	OnAPI bool
	// Render gives the module this version writes for an install (its
	// header names the command that removes it); Header is its first
	// line, which marks a file as ours.
	Render func(in scripts.Install) ([]byte, error)
	Header func(ns string) string
}

// A PluginCase is one call of one plugin hook.
type PluginCase struct {
	ID    string         // the check id: "fire.working"
	Event string         // the payload's event: "chat.message"
	State terminal.State // what must arrive; "" means nothing may
}

// A Variant is one more fire of an event's script with another payload.
type Variant struct {
	ID      string         // the check id: "fire.background"
	Payload string         // the payload's name after the agent's: "Stop.background"
	State   terminal.State // what must arrive; "" means nothing may
	Why     string         // what the run proves, for the verdict
}

// A Trust is how an agent records that the user trusted a hook, stated
// once: doctor checks the records, add says how to trust, add --trust
// writes them where Write is set, remove takes ours out.
type Trust struct {
	// File holds the agent's trust records.
	File func(t Target) string
	// Algo names the hash the records hold, for verdicts.
	Algo string
	// Hint is what the user must do before the hooks run (the plan's
	// Next after an add without --trust).
	Hint func(t Target) string
	// Positional: trust is keyed on an entry's position, so a user's
	// entry that moves up when ours goes may need to be trusted again
	// (remove says so).
	Positional bool
	// Records lists the records our handlers in hooksDoc (the config as
	// written) need, keyed on keyPath (TrustKeyPath).
	Records func(t Target, hooksDoc []byte, keyPath string) ([]TrustEntry, error)
	// Expected lists, for each handler of ours in the event map as the
	// agent reads it (doctor), the record it needs: its key and hash, or
	// Err where the hash cannot be computed.
	Expected func(t Target, m *EventMap, keyPath string) []TrustEntry
	// Recorded reads the records file as the agent does: the hash recorded
	// per key ("" for a record without one).
	Recorded func(f File) (map[string]string, error)
	// Fix is how the user trusts our hooks in the agent (doctor's hint).
	Fix func(t Target) string
	// Drop returns the records file without the records of our hooks:
	// those rec (the manifest's record of the file, nil: none) lists, and
	// those of our handlers (harmless where there are none).
	Drop func(t Target, cur []byte, keyPath string, rec *Record) ([]byte, error)
	// Write is set when hookinstall can write the records itself (add
	// --trust); nil refuses that with ErrTrustUnsupported.
	Write *TrustWrite
}

// A TrustWrite is how add --trust writes an agent's trust records, with
// hashes the installed binary confirms (a wrong hash silently leaves the
// hooks skipped).
type TrustWrite struct {
	// Version is the release whose hash hookinstall computes itself.
	Version string
	// Program is the binary whose --version says the installed release;
	// the writer asks it (Probe, once per run) before a plan with
	// PlanInput.Trust.
	Program string
	// Query, when set, is what the binary is asked before the plan
	// (Agent.TrustQuery); its reply comes in as Probe.Reply.
	Query func(a *Agent, t Target, in PlanInput) *Query
	// Add plans an add with trust: the config's edit and the records.
	Add func(a *Agent, t Target, in PlanInput) (Plan, error)
}

// An Ask is how to ask the agent's binary what it resolved. It runs as
// internal/agentexec runs every agent program, with Input on its stdin,
// from the user's HOME (the question is what it resolves there)
// plus Env; Read turns what it printed into findings.
type Ask struct {
	ID      string // the check id: "binary.claude"
	Program string // looked up on PATH
	Args    []string
	Env     func(t Target) []string
	// AnyExit: the program's exit status is part of its answer (kimi doctor
	// config exits 1 on a config it rejects), so what it printed is read
	// whatever the status; otherwise a non-zero exit means it could not answer.
	AnyExit bool
	// Input, when set, is written to its stdin; with ReplyID it is a
	// JSON-RPC server, and the answer is the one reply line whose id it is.
	Input   []byte
	ReplyID int
	// What names the run in a verdict; %s is the program's path.
	What string
	// Hint is what to do when the program cannot answer.
	Hint string
	// Read judges the answer.
	Read func(AskInput) []Check
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

// Input is what Switches and DeadPaths judge: the config and every file of
// Agent.Files, as read.
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

// switchOff is f marked Off.
func switchOff(f Check) Check {
	f.Off = true
	return f
}

func pass(id, file, verdict string) Check {
	return Check{ID: id, Result: Pass, File: file, Verdict: verdict}
}

func fail(id, file, verdict, hint string) Check {
	return Check{ID: id, Result: Fail, File: file, Verdict: verdict, Hint: hint}
}

func info(id, file, verdict, hint string) Check {
	return Check{ID: id, Result: Info, File: file, Verdict: verdict, Hint: hint}
}

// An OSPath is a machine-wide path an agent reads, as its code names it
// on each OS ("" where it reads none there).
type OSPath struct{ Linux, Darwin string }

// SystemPath is p for t's OS under t.SystemRoot, or "" when t reads no
// system files (a Docker target's are the container's) or the agent none
// on that OS. $env, when the agent's code lets it move the file and the
// run gives it, replaces it.
func SystemPath(t Target, p OSPath, env string) string {
	if t.SystemRoot == "" {
		return ""
	}
	if v := t.env(env); v != "" {
		return v
	}
	path := p.Linux
	if t.GOOS == "darwin" {
		path = p.Darwin
	}
	if path == "" {
		return ""
	}
	return filepath.Join(t.SystemRoot, path)
}

// systemSettings are the system settings (p, or $env) and the system
// defaults (system-defaults.json beside them, or $defaultsEnv), as Gemini
// CLI and Qwen Code (its fork) find them (getSystemSettingsPath and
// getSystemDefaultsPath in their code); none for a Docker target.
func systemSettings(t Target, p OSPath, env, defaultsEnv string) []string {
	sys := SystemPath(t, p, env)
	if sys == "" {
		return nil
	}
	return []string{sys, cmp.Or(t.env(defaultsEnv), filepath.Join(filepath.Dir(sys), "system-defaults.json"))}
}

// The layers of settings Gemini CLI and Qwen Code merge, as settingsLayers
// lists them: the user's, the system settings (which override the
// user's) and the system defaults (which the user's override).
const (
	layerUser = iota
	_
	layerDefaults
)

// layerWhere says where a switch was found, by layer.
var layerWhere = []string{"", " in the system settings (they override the user's)", " in the system defaults"}

// settingsLayers are the user's settings (in.Config) and the files of sys
// (systemSettings), as read.
func settingsLayers(in Input, sys []string) []File {
	fs := []File{in.Config}
	for _, p := range sys {
		fs = append(fs, in.File(p))
	}
	return fs
}

// plistRoot parses a property list, binary or XML as a managed profile
// leaves one, into the JSON plutil -convert json makes of it; an absent
// file gives an empty result.
func plistRoot(f File) (gjson.Result, error) {
	var v any
	if !f.Exists {
		return gjson.Result{}, nil
	}
	if _, err := plist.Unmarshal(f.Data, &v); err != nil {
		return gjson.Result{}, fmt.Errorf("not a property list: %w", err)
	}
	b, err := json.Marshal(v)
	return gjson.ParseBytes(b), err
}

// jsoncRoot parses a JSONC file as Gemini CLI and Qwen Code read it.
func jsoncRoot(f File) gjson.Result {
	data := jsonedit.Blank(f.Data)
	return jsonRoot(File{Path: f.Path, Data: data, Exists: f.Exists})
}

// env is the variable name as the run gives it to the agents ("" when
// none apply).
func (t Target) env(name string) string {
	if t.getenv == nil || name == "" {
		return ""
	}
	return t.getenv(name)
}

// dropIns are the *.json files of folder dir, hidden ones left out, in
// the order the caller's ListDir names them.
func (t Target) dropIns(dir string) []string {
	if t.listDir == nil {
		return nil
	}
	var fs []string
	for _, n := range t.listDir(dir) {
		if strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
			fs = append(fs, filepath.Join(dir, n))
		}
	}
	return fs
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

// BOMHint is how to fix file, which starts with a byte order mark.
func BOMHint(file string) string { return "remove the first three bytes (EF BB BF) of " + file }

// BOMVerdict says what a leading UTF-8 byte order mark means for the agent:
// add, remove and doctor all say it this way. hookinstall edits no such file
// either way (PRODUCT.md, bad input).
func (a *Agent) BOMVerdict() string {
	if a.ReadsBOM {
		return "starts with a UTF-8 byte order mark (BOM): " + a.Product + " reads it anyway (measured), but hookinstall add and remove will not edit the file"
	}
	return "starts with a UTF-8 byte order mark (BOM): " + a.Product + " rejects the whole file, so none of its hooks run"
}

// Explain rewrites an error about t's file in the agent's own terms: a
// byte order mark is refused with what the agent itself does with one,
// and how to fix it.
// (A comment is an error only for an agent that reads none: one that reads
// JSONC gets its comments kept.)
func Explain(t Target, file string, err error) error {
	var se *jsonedit.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	if se.Msg == jsonedit.MsgBOM && se.Offset == 0 {
		c := *se
		c.Msg = t.Adapter.BOMVerdict()
		return fmt.Errorf("%w; to fix it, %s", &c, BOMHint(file))
	}
	return err
}

// EventsKey is the top-level key that holds the event map of a JSON
// config: "hooks", or our namespace for a NamedSet; "" for another format.
func (a *Agent) EventsKey(t Target) string {
	if m, ok := a.Format.(interface{ eventsKey(Target) string }); ok {
		return m.eventsKey(t)
	}
	return ""
}
