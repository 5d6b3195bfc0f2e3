package adapters

import (
	"path/filepath"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// pi is Pi (@mariozechner/pi-coding-agent): our own extension
// ~/.pi/agent/extensions/<NS>.ts ($PI_CODING_AGENT_DIR replaces ~/.pi/agent;
// measured on 0.73.1), a TypeScript module Pi loads in-process, whose default
// export registers handlers with pi.on. Pi asks for no permissions, so it
// reports no attention; a prompt the user stops (Esc) ends with agent_end
// whose last assistant message has stopReason "aborted": interrupted.
// piExtension is Pi's module: no permission prompts, no willContinue.
var piExtension = scripts.Extension{Product: "Pi"}

func init() {
	register(&Agent{
		ID: "pi", Product: "Pi", Programs: []string{"pi"}, WindowsHooks: plugin,
		Dir: func(home string, getenv func(string) string) (string, string) {
			return envDir(getenv, "PI_CODING_AGENT_DIR", filepath.Join(home, ".pi", "agent"))
		},
		Hooks: []Hook{
			{Event: "agent_start", State: terminal.Working},
			{Event: "agent_end", State: terminal.Done, Note: "when the prompt's last assistant message did not stop with stopReason aborted"},
			{Event: "agent_end", State: terminal.Interrupted, Note: "when the prompt's last assistant message has stopReason aborted (Esc)"},
		},
		// Pi loads extensions/*.ts, *.js and */index.ts (or index.js).
		Format: Module{Sub: "extensions", Ext: ".ts", TwinWhy: "Pi loads extensions/*.ts, *.js and */index.ts alike",
			Twins: extensionTwins},
		// Pi runs on node and loads the module with jiti; ours is
		// TypeScript without types, so node itself loads it.
		Plugin: &Plugin{
			Render: piExtension.Render, Header: piExtension.Header,
			OnAPI: true,
			Cases: []PluginCase{
				{"fire.working", "agent_start", terminal.Working},
				{"fire.done", "agent_end", terminal.Done},
				{"fire.interrupted", "agent_end.aborted", terminal.Interrupted},
			},
		},
		Payloads:       "pi",
		Range:          piRange,
		ProjectConfigs: []string{".pi/extensions/*.ts", ".pi/extensions/*.js", ".pi/extensions/*/index.ts"},
	})
}

// piRange: the versions measured with our hooks (docs/agents.md "Versions").
var piRange = &Range{Program: "pi", Oldest: "0.52.12", Newest: "0.73.1"}

// extensionTwins are the other names under which Pi's extension loader (and
// oh-my-pi's, its fork) would load an extension of ours a second time.
func extensionTwins(t Target) []string {
	return []string{
		filepath.Join(t.Dir, "extensions", t.NS+".js"),
		filepath.Join(t.Dir, "extensions", t.NS, "index.ts"),
		filepath.Join(t.Dir, "extensions", t.NS, "index.js"),
	}
}
