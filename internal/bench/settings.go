// Package bench holds the inputs shared by hookinstall's benchmarks: a
// typical Claude settings.json, and large ones generated deterministically
// (years of hand edits: thousands of user hooks), so the Go benchmarks and
// the hookbench driver measure the same bytes.
package bench

import (
	_ "embed"
	"fmt"
	"strings"
)

// Typical is a realistic ~1 KB ~/.claude/settings.json: permissions, env, a
// status line and two user hooks, two-space indent as Claude writes it.
//
//go:embed testdata/settings.json
var Typical []byte

// Sizes are the large-file sizes the benchmarks use, by name.
var Sizes = []struct {
	Name  string
	Bytes int
}{{"1MB", 1 << 20}, {"10MB", 10 << 20}}

// events are the Claude events users hang hooks on; the three we install
// into come first, so our arrays are as long as the user's.
var events = []string{
	"UserPromptSubmit", "PermissionRequest", "Stop",
	"PreToolUse", "PostToolUse", "Notification", "SessionStart", "SubagentStop", "PreCompact",
}

var tools = []string{"Bash", "Edit|Write", "Read", "Grep|Glob", "WebFetch", "mcp__github__.*", "Task", "NotebookEdit"}

// Settings returns a settings.json of at least size bytes (and less than
// size plus one hook group), the same bytes for the same size. Most of it is
// the hooks object: every event holds a long array of the user's groups,
// some with a matcher, some with several handlers, spread round-robin so
// each event array is long. A permissions list and an env block sit before
// it, and a status line after it, as in real files.
func Settings(size int) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString("{\n")
	b.WriteString("  \"$schema\": \"https://json.schemastore.org/claude-code-settings.json\",\n")
	b.WriteString("  \"model\": \"opus\",\n")
	b.WriteString("  \"permissions\": {\n    \"allow\": [\n")
	nAllow := 50 + size/(1<<16)
	for i := 0; i < nAllow; i++ {
		sep := ","
		if i == nAllow-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "      \"Bash(npm run task-%d:*)\"%s\n", i, sep)
	}
	b.WriteString("    ],\n    \"deny\": [\n      \"Read(./.env)\",\n      \"Read(./secrets/**)\"\n    ],\n")
	b.WriteString("    \"defaultMode\": \"default\"\n  },\n")
	b.WriteString("  \"env\": {\n    \"CLAUDE_CODE_ENABLE_TELEMETRY\": \"0\",\n    \"BASH_DEFAULT_TIMEOUT_MS\": \"120000\"\n  },\n")
	b.WriteString("  \"hooks\": {\n")
	// Groups are rendered per event, then joined, so we first decide how
	// many fit: each group is about groupSize bytes.
	per := make([][]string, len(events))
	total := b.Len() + 200
	for i := 0; total < size; i++ {
		ev := i % len(events)
		g := group(i)
		per[ev] = append(per[ev], g)
		total += len(g) + 2
	}
	for ev, name := range events {
		fmt.Fprintf(&b, "    %q: [\n", name)
		for j, g := range per[ev] {
			b.WriteString(g)
			if j < len(per[ev])-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("    ]")
		if ev < len(events)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  },\n")
	b.WriteString("  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"~/.claude/statusline.sh\"\n  }\n}\n")
	return []byte(b.String())
}

// group renders the user's i-th hook group at the depth Claude writes it.
func group(i int) string {
	var b strings.Builder
	b.WriteString("      {\n")
	if i%3 != 0 {
		fmt.Fprintf(&b, "        \"matcher\": %q,\n", tools[i%len(tools)])
	}
	b.WriteString("        \"hooks\": [\n")
	n := 1 + i%3
	for h := 0; h < n; h++ {
		fmt.Fprintf(&b, "          {\n            \"type\": \"command\",\n            \"command\": \"$HOME/.local/bin/hook-%d-%d.sh --project \\\"$CLAUDE_PROJECT_DIR\\\" --verbose\",\n            \"timeout\": %d\n          }", i, h, 5+i%55)
		if h < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("        ]\n      }")
	return b.String()
}
