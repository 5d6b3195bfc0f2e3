package adapters

import (
	"path/filepath"

	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// opencode is opencode: a plugin of ours, ~/.config/opencode/plugins/<NS>.js,
// an ES module that runs inside opencode and writes to the host's pty.
func init() {
	register(&Agent{
		ID: "opencode", Product: "opencode", Programs: []string{"opencode"}, WindowsHooks: plugin,
		Dir:   configDir("OPENCODE_CONFIG_DIR", "opencode"),
		Hooks: opencodeHooks,
		// opencode also loads plugin/ (singular): we never write there,
		// since a copy in both fires every event twice.
		Format: Module{Sub: "plugins", Ext: ".js", Twins: opencodeTwins, TwinWhy: "opencode loads plugin/ and plugins/ alike"},
		Plugin: &Plugin{
			Render: func(in scripts.Install) ([]byte, error) { return scripts.RenderPlugin(in, "opencode") },
			Header: func(ns string) string { return scripts.PluginHeader(ns, "opencode") },
			// opencode is a Bun binary: with BUN_BE_BUN=1 it runs JavaScript.
			Runtime: "opencode", RuntimeEnv: []string{"BUN_BE_BUN=1"}, RuntimeName: "opencode's Bun runtime",
			Cases: opencodeCases,
		},
		Payloads:       "opencode",
		Range:          opencodeRange,
		ProjectConfigs: []string{".opencode/plugin/*.js", ".opencode/plugins/*.js", ".opencode/plugin/*.ts", ".opencode/plugins/*.ts"},
	})
}

// plugin is how the plugin agents run hooks on Windows (Agent.WindowsHooks).
const plugin = "in a plugin in its own process"

// opencodeHooks are what the plugin of opencode's API reports (opencode's
// and Kilo's).
var opencodeHooks = []Hook{
	{Event: "chat.message", State: terminal.Working},
	{Event: "permission.asked", State: terminal.Attention, Note: "bus event, through the event hook"},
	{Event: "permission.replied", State: terminal.Working, Note: "bus event, through the event hook"},
	{Event: "session.idle", State: terminal.Done, Note: "bus event, through the event hook; not for a subagent's session, nor after an abort"},
	{Event: "session.error", State: terminal.Interrupted, Note: "bus event, through the event hook; when error.name is MessageAbortedError (Esc while the turn runs)"},
}

// opencodeTwins are the other files through which opencode (and Kilo, in
// its config dir) would load a second copy of our plugin.
func opencodeTwins(t Target) []string {
	return []string{
		filepath.Join(t.Dir, "plugin", t.NS+".js"),
		filepath.Join(t.Dir, "plugin", t.NS+".ts"),
		filepath.Join(t.Dir, "plugins", t.NS+".ts"),
	}
}

// opencodeCases are the live fires of a plugin of opencode's API.
var opencodeCases = []PluginCase{
	{"fire.working", "chat.message", terminal.Working},
	{"fire.attention", "permission.asked", terminal.Attention},
	{"fire.replied", "permission.replied", terminal.Working},
	{"fire.done", "session.idle", terminal.Done},
	{"fire.interrupted", "session.error", terminal.Interrupted},
}

// configDir is $<envVar>, else $XDG_CONFIG_HOME/<name>, else
// ~/.config/<name>: where opencode and Kilo keep their config.
func configDir(envVar, name string) func(home string, getenv func(string) string) (string, string) {
	return func(home string, getenv func(string) string) (string, string) {
		if d, from := envDir(getenv, envVar, ""); from != "" {
			return d, from
		}
		if x, from := envDir(getenv, "XDG_CONFIG_HOME", ""); from != "" {
			return filepath.Join(x, name), from
		}
		return filepath.Join(home, ".config", name), ""
	}
}

// opencodeRange: the versions measured with our hooks (docs/agents.md "Versions").
var opencodeRange = &Range{Program: "opencode", Oldest: "1.3.2", Newest: "1.18.33"}
