package adapters

import (
	"fmt"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/scripts"
)

// claudeStyle is the shape Claude Code defined and others copied:
// hooks.<Event>[] = {"hooks":[{"type":"command","command":ABS,"timeout":5}]}.
type claudeStyle struct {
	name      string
	events    []claudeEvent
	transport scripts.Transport
	grokGuard bool
}

type claudeEvent struct {
	event string
	state scripts.State
	rule  scripts.Rule
	note  string
}

// HookTimeout is the timeout, in seconds, of every handler we write.
const HookTimeout = 5

func (c claudeStyle) Name() string { return c.name }

func (c claudeStyle) Events() []EventInfo {
	var es []EventInfo
	for _, e := range c.events {
		es = append(es, EventInfo{Event: e.event, State: e.state, Note: e.note})
	}
	return es
}

func (c claudeStyle) Scripts(t Target) ([]Script, error) {
	var ss []Script
	for _, e := range c.events {
		b, err := scripts.Render(scripts.Spec{NS: t.NS, Agent: t.ID, Event: e.event, State: e.state,
			Transport: c.transport, Rule: e.rule, GrokGuard: c.grokGuard})
		if err != nil {
			return nil, err
		}
		ss = append(ss, Script{Event: e.event, Name: scripts.FileName(e.event), Content: b})
	}
	return ss, nil
}

// Handler is the handler object we write for one event.
func (c claudeStyle) handler(t Target, event string) Obj {
	return Obj{{"type", "command"}, {"command", t.ScriptPath(scripts.FileName(event))}, {"timeout", HookTimeout}}
}

func (c claudeStyle) want(t Target) []EventEntry {
	var ws []EventEntry
	for _, e := range c.events {
		ws = append(ws, EventEntry{e.event, Obj{{"hooks", []any{c.handler(t, e.event)}}}})
	}
	return ws
}

func (c claudeStyle) edit(t Target, prev *Record, force bool) mapEdit {
	return mapEdit{Key: "hooks", Prefix: t.Prefix(), Want: c.want(t), Prev: prev, Force: force}
}

func (c claudeStyle) Add(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	return c.edit(t, prev, force).add(cur)
}

func (c claudeStyle) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	return c.edit(t, prev, force).remove(cur)
}

func (c claudeStyle) OwnFile() bool      { return false }
func (c claudeStyle) ByNameOnly() bool   { return false }
func (c claudeStyle) Binaries() []string { return []string{c.name} }

// parseShared parses a shared config and checks the shape at our path.
func (c claudeStyle) parseShared(t Target, cur []byte) (gjson.Result, error) {
	if IsBlank(cur) {
		return gjson.Result{}, nil
	}
	_, _, _, _, err := c.edit(t, nil, false).parse(cur)
	if err != nil {
		return gjson.Result{}, err
	}
	root, _ := ParseObject(cur)
	return root, nil
}

// claude is Claude Code: ~/.claude/settings.json, shared with the user, and
// terminalSequence on stdout as transport.
type claude struct{ claudeStyle }

func init() {
	register(claude{claudeStyle{
		name: "claude",
		events: []claudeEvent{
			{"UserPromptSubmit", scripts.Working, scripts.Always, ""},
			{"PermissionRequest", scripts.Attention, scripts.Always, ""},
			{"Stop", scripts.Done, scripts.NonEmptyBackgroundTasks, "working while background_tasks is not empty"},
		},
		transport: scripts.Stdout,
		grokGuard: true,
	}})
}

func (claude) Dir(home string, getenv func(string) string) (string, string) {
	return envDir(getenv, "CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
}

func (claude) Config(t Target) string { return filepath.Join(t.Dir, "settings.json") }

func (claude) SwitchFiles(Target) []string { return nil }

func (c claude) Check(t Target, cur []byte, _ map[string][]byte) ([]string, error) {
	root, err := c.parseShared(t, cur)
	if err != nil || !root.Exists() {
		return nil, err
	}
	var notes []string
	if v := root.Get("disableAllHooks"); v.Type == gjson.True {
		return nil, &OffError{File: c.Config(t), Key: "disableAllHooks", Reason: "is true, so Claude Code runs no hooks at all; set it to false or remove it, then run add again"}
	}
	if v := root.Get("permissions.defaultMode"); v.Str == "auto" {
		notes = append(notes, fmt.Sprintf("%s: permissions.defaultMode is \"auto\": Claude answers permission prompts itself, so PermissionRequest (needs your input) will not fire", c.Config(t)))
	}
	return notes, nil
}
