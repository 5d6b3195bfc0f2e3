//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// standIn installs hooks equivalent to what hookinstall writes (same paths, events,
// script behaviour), for developing the suite before an adapter is on main. It is
// chosen only by HOOKINSTALL_E2E_STANDIN; `make e2e` always uses the real CLI. Its
// JSON merge re-serialises the file (it is not byte preserving); remove puts the
// original bytes back.
type standIn struct {
	orig    map[string][]byte // config path -> bytes before add (nil: absent)
	created []string          // files and dirs to delete on remove, deepest last
}

var standInEvents = map[string][][2]string{ // agent -> (event, state)
	"claude": {{"UserPromptSubmit", "working"}, {"PermissionRequest", "attention"}, {"Stop", "done"}},
	"codex":  {{"UserPromptSubmit", "working"}, {"PermissionRequest", "attention"}, {"Stop", "done"}},
}

func scriptName(event string) string {
	out := []byte{}
	for i, c := range event {
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				out = append(out, '-')
			}
			c += 'a' - 'A'
		}
		out = append(out, byte(c))
	}
	return string(out) + ".sh"
}

func (s *standIn) keep(p string) error {
	if s.orig == nil {
		s.orig = map[string][]byte{}
	}
	if _, ok := s.orig[p]; ok {
		return nil
	}
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		s.orig[p] = nil
		return nil
	}
	s.orig[p] = b
	return err
}

func (s *standIn) mkdir(p string) error {
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	if err := s.mkdir(filepath.Dir(p)); err != nil {
		return err
	}
	s.created = append(s.created, p)
	return os.Mkdir(p, 0o755)
}

func (s *standIn) writeNew(p, content string, mode os.FileMode) error {
	if err := s.mkdir(filepath.Dir(p)); err != nil {
		return err
	}
	s.created = append(s.created, p)
	return os.WriteFile(p, []byte(content), mode)
}

// mergeHooks appends one {"hooks":[{type,command,timeout}]} group per event.
func (s *standIn) mergeHooks(cfg string, cmds map[string]string) error {
	if err := s.keep(cfg); err != nil {
		return err
	}
	doc := map[string]any{}
	if b := s.orig[cfg]; b != nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", cfg, err)
		}
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	evs := make([]string, 0, len(cmds))
	for ev := range cmds {
		evs = append(evs, ev)
	}
	sort.Strings(evs)
	for _, ev := range evs {
		l, _ := hooks[ev].([]any)
		hooks[ev] = append(l, map[string]any{"hooks": []any{map[string]any{
			"type": "command", "command": cmds[ev], "timeout": 5}}})
	}
	doc["hooks"] = hooks
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := s.mkdir(filepath.Dir(cfg)); err != nil {
		return err
	}
	return os.WriteFile(cfg, append(b, '\n'), 0o644)
}

const standInHeader = "#!/bin/sh\n# hookinstall (e2e stand-in): %s %s hook. Safe to delete.\n"

func (s *standIn) add(r *run) (string, error) {
	switch r.agent {
	case "claude", "codex":
		dir := filepath.Join(r.home, "."+r.agent, "hookinstall-hooks")
		cfg := filepath.Join(r.home, ".claude", "settings.json")
		if r.agent == "codex" {
			cfg = filepath.Join(r.home, ".codex", "hooks.json")
		}
		cmds := map[string]string{}
		for _, es := range standInEvents[r.agent] {
			p := filepath.Join(dir, scriptName(es[0]))
			body := fmt.Sprintf(standInHeader, r.agent, es[0]) +
				"[ -n \"${HOOKINSTALL_TASK_ID:-}\" ] || exit 0\n"
			if r.agent == "claude" {
				body += "[ -z \"${GROK_HOOK_EVENT+x}\" ] || exit 0\n" +
					"printf '%s\\n' '{\"terminalSequence\":\"\\u001b]777;notify;hookinstall;" + stateBodies[es[1]] + "\\u0007\"}'\n"
			} else {
				body += "[ -c \"${HOOKINSTALL_PTY:-}\" ] || exit 0\n" +
					"printf '\\033]777;notify;hookinstall;%s\\007' '" + stateBodies[es[1]] + "' > \"$HOOKINSTALL_PTY\" 2>/dev/null\n"
			}
			body += "exit 0\n"
			if err := s.writeNew(p, body, 0o755); err != nil {
				return "", err
			}
			cmds[es[0]] = p
		}
		return "stand-in: installed " + r.agent + " hooks\n", s.mergeHooks(cfg, cmds)
	case "opencode":
		p := filepath.Join(r.home, ".config", "opencode", "plugins", "hookinstall.js")
		return "stand-in: installed opencode plugin\n", s.writeNew(p, standInPlugin, 0o644)
	}
	return "", fmt.Errorf("stand-in: unknown agent %s", r.agent)
}

func (s *standIn) remove(r *run) (string, error) {
	for p, b := range s.orig {
		if b == nil {
			os.Remove(p)
		} else if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
	}
	for i := len(s.created) - 1; i >= 0; i-- {
		os.Remove(s.created[i])
	}
	return "stand-in: removed\n", nil
}

const standInPlugin = `// hookinstall (e2e stand-in): opencode plugin. Safe to delete.
import { openSync, writeSync, closeSync, statSync, constants } from "node:fs";

function emit(body) {
  try {
    if (!process.env.HOOKINSTALL_TASK_ID) return;
    const p = process.env.HOOKINSTALL_PTY;
    if (!p || !statSync(p).isCharacterDevice()) return;
    const fd = openSync(p, constants.O_WRONLY | constants.O_NOCTTY);
    try { writeSync(fd, "\x1b]777;notify;hookinstall;" + body + "\x07"); } finally { closeSync(fd); }
  } catch {}
}

export const HookinstallPlugin = async () => ({
  "chat.message": async () => emit("agent is working"),
  event: async ({ event }) => {
    try {
      switch (event && event.type) {
        case "permission.asked": emit("agent needs your input"); break;
        case "permission.replied": emit("agent is working"); break;
        case "session.idle": emit("agent is done"); break;
      }
    } catch {}
  },
});
`
