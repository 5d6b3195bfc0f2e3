package adapters

import (
	"strings"
	"testing"
)

// P is the command prefix of our hooks in these tests.
const P = "/home/u/.claude/hookinstall-hooks/"

func ours(event string) string {
	return `{"hooks":[{"type":"command","command":"` + P + map[string]string{
		"UserPromptSubmit": "user-prompt-submit.sh", "PermissionRequest": "permission-request.sh", "PostToolUse": "post-tool-use.sh", "Stop": "stop.sh"}[event] + `","timeout":5}]}`
}

func allOurs() string {
	return `"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PermissionRequest":[` + ours("PermissionRequest") + `],"PostToolUse":[` + ours("PostToolUse") + `],"Stop":[` + ours("Stop") + `]`
}

func TestClaudeAddCases(t *testing.T) {
	tg := testTarget(t, "claude", "/home/u")
	old := `{"hooks":[{"type":"command","command":"` + P + `permission-request.sh","timeout":5,"statusMessage":"v0"}]}`
	tests := []struct {
		name  string
		in    string
		prev  *Record
		force bool
		want  string
		note  string
	}{{
		name: "empty object",
		in:   `{}`,
		want: `{"hooks":{` + allOurs() + `}}`,
	}, {
		name: "upgrade an older entry of ours in place, no manifest",
		in:   `{"hooks":{"PermissionRequest":[{"hooks":[{"type":"command","command":"x"}]},` + old + `,{"hooks":[{"type":"command","command":"y"}]}]}}`,
		want: `{"hooks":{"PermissionRequest":[{"hooks":[{"type":"command","command":"x"}]},` + ours("PermissionRequest") + `,{"hooks":[{"type":"command","command":"y"}]}],` +
			`"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PostToolUse":[` + ours("PostToolUse") + `],"Stop":[` + ours("Stop") + `]}}`,
	}, {
		name: "upgrade an entry the manifest recorded",
		in:   `{"hooks":{"PermissionRequest":[` + old + `]}}`,
		prev: &Record{Entries: map[string][]string{"PermissionRequest": {old}}},
		want: `{"hooks":{"PermissionRequest":[` + ours("PermissionRequest") + `],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PostToolUse":[` + ours("PostToolUse") + `],"Stop":[` + ours("Stop") + `]}}`,
	}, {
		name: "leave an entry of ours edited by hand",
		in:   `{"hooks":{"PermissionRequest":[` + old + `]}}`,
		prev: &Record{Entries: map[string][]string{"PermissionRequest": {ours("PermissionRequest")}}},
		want: `{"hooks":{"PermissionRequest":[` + old + `],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PostToolUse":[` + ours("PostToolUse") + `],"Stop":[` + ours("Stop") + `]}}`,
		note: "PermissionRequest entry 0 of ours was edited by hand",
	}, {
		name:  "force replaces an entry edited by hand",
		in:    `{"hooks":{"PermissionRequest":[` + old + `]}}`,
		prev:  &Record{Entries: map[string][]string{"PermissionRequest": {ours("PermissionRequest")}}},
		force: true,
		want:  `{"hooks":{"PermissionRequest":[` + ours("PermissionRequest") + `],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PostToolUse":[` + ours("PostToolUse") + `],"Stop":[` + ours("Stop") + `]}}`,
	}, {
		name: "duplicates of ours collapse to one",
		in:   `{"hooks":{"Stop":[` + ours("Stop") + `,{"hooks":[]},` + ours("Stop") + `]}}`,
		want: `{"hooks":{"Stop":[` + ours("Stop") + `,{"hooks":[]}],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PermissionRequest":[` + ours("PermissionRequest") + `],"PostToolUse":[` + ours("PostToolUse") + `]}}`,
	}, {
		name: "an event an older version used is cleaned up",
		in:   `{"hooks":{"Notification":[{"hooks":[{"type":"command","command":"` + P + `notification.sh"}]}],"Stop":[]}}`,
		want: `{"hooks":{"Stop":[` + ours("Stop") + `],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PermissionRequest":[` + ours("PermissionRequest") + `],"PostToolUse":[` + ours("PostToolUse") + `]}}`,
	}, {
		name: "a group mixing ours with the user's is left alone",
		in:   `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine"},{"type":"command","command":"` + P + `stop.sh","timeout":5}]}]}}`,
		want: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine"},{"type":"command","command":"` + P + `stop.sh","timeout":5}]}],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PermissionRequest":[` + ours("PermissionRequest") + `],"PostToolUse":[` + ours("PostToolUse") + `]}}`,
		note: "Stop entry 0 mixes our hook with others",
	}, {
		name: "another namespace's entries are not ours",
		in:   `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/home/u/.claude/termic-hooks/stop.sh"}]}]}}`,
		want: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/home/u/.claude/termic-hooks/stop.sh"}]},` + ours("Stop") + `],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `],"PermissionRequest":[` + ours("PermissionRequest") + `],"PostToolUse":[` + ours("PostToolUse") + `]}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ed, err := tg.Adapter.Add(tg, []byte(tt.in), tt.prev, tt.force)
			if err != nil {
				t.Fatal(err)
			}
			if string(ed.Doc) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", ed.Doc, tt.want)
			}
			notes := strings.Join(ed.Notes, "\n")
			if (tt.note == "") != (notes == "") || !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}

func TestClaudeRemoveCases(t *testing.T) {
	tg := testTarget(t, "claude", "/home/u")
	mixed := `{"hooks":[{"type":"command","command":"mine"},{"type":"command","command":"` + P + `stop.sh","timeout":5}]}`
	tests := []struct {
		name  string
		in    string
		prev  *Record
		force bool
		want  string
		kept  bool
	}{{
		name: "containers we created go; an array the user had stays",
		in:   `{"a":1,"hooks":{"Stop":[` + ours("Stop") + `],"UserPromptSubmit":[` + ours("UserPromptSubmit") + `]}}`,
		prev: &Record{Created: []string{"hooks/UserPromptSubmit"}},
		want: `{"a":1,"hooks":{"Stop":[]}}`,
	}, {
		name: "no manifest: emptied containers go",
		in:   `{"a":1,"hooks":{"Stop":[` + ours("Stop") + `]}}`,
		want: `{"a":1}`,
	}, {
		name: "a user entry added after ours stays",
		in:   `{"hooks":{"Stop":[` + ours("Stop") + `,{"hooks":[]}]}}`,
		want: `{"hooks":{"Stop":[{"hooks":[]}]}}`,
	}, {
		name: "a mixed group is left without force",
		in:   `{"hooks":{"Stop":[` + mixed + `]}}`,
		want: `{"hooks":{"Stop":[` + mixed + `]}}`,
		kept: true,
	}, {
		name:  "force takes our handler out of a mixed group",
		in:    `{"hooks":{"Stop":[` + mixed + `]}}`,
		force: true,
		want:  `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine"}]}]}}`,
	}, {
		name: "nothing of ours: unchanged",
		in:   `{"hooks":{"Stop":[{"hooks":[]}]}}`,
		want: `{"hooks":{"Stop":[{"hooks":[]}]}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ed, err := tg.Adapter.Remove(tg, []byte(tt.in), tt.prev, tt.force)
			if err != nil {
				t.Fatal(err)
			}
			if string(ed.Doc) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", ed.Doc, tt.want)
			}
			if ed.Kept != tt.kept {
				t.Errorf("Kept = %v, want %v", ed.Kept, tt.kept)
			}
		})
	}
}

func TestResolveGlobalOnly(t *testing.T) {
	for _, name := range Names() {
		tg, err := Resolve(name, Options{NS: "hookinstall", Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{tg.Dir, tg.HooksDir(), tg.Adapter.File(tg)} {
			if !strings.HasPrefix(p, "/home/u/") {
				t.Errorf("%s: %s is not under the home", name, p)
			}
		}
	}
	// An override that points outside the home is refused.
	_, err := Resolve("claude", Options{NS: "hookinstall", Home: "/home/u", Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return "/srv/project/.claude"
		}
		return ""
	}})
	if err == nil || !strings.Contains(err.Error(), "CLAUDE_CONFIG_DIR") {
		t.Errorf("override outside the home: err = %v", err)
	}
	// Relative overrides (a project dir) are refused.
	_, err = Resolve("claude", Options{NS: "hookinstall", Home: "/home/u", Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return ".claude"
		}
		return ""
	}})
	if err == nil {
		t.Error("relative override accepted")
	}
}
