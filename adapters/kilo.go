package adapters

import (
	"path/filepath"

	"github.com/hookinstall/hookinstall/scripts"
)

// kilo is Kilo CLI, opencode's fork: the plugin of opencode's API as our own
// file ~/.config/kilo/plugins/<NS>.js, loaded in-process. Kilo 7.7.9 (the
// platform package @kilocode/cli-linux-x64; measured with `kilo debug config`)
// loads {plugin,plugins}/*.{js,ts} from ~/.config/kilo, from the legacy
// ~/.kilocode, and from $KILO_CONFIG_DIR as one more folder beside them; it
// emits opencode's bus events, so the plugin and its map are opencode's.
var kilo = pluginAgent{
	name:     "kilo",
	binaries: []string{"kilo"},
	events:   opencodeEvents,
	dir:      configDir("KILO_CONFIG_DIR", "kilo"),
	sub:      "plugins", ext: ".js",
	render: func(in scripts.Install) ([]byte, error) { return scripts.RenderPlugin(in, "Kilo") },
	header: func(ns string) string { return scripts.PluginHeader(ns, "Kilo") },
	twins: func(t Target) []string {
		ts := opencodeTwins(t)
		// the legacy ~/.kilocode loads beside the config dir, and so does
		// ~/.config/kilo beside $KILO_CONFIG_DIR (which adds a folder)
		others := []string{filepath.Join(t.Home, ".kilocode")}
		if t.DirFrom == "KILO_CONFIG_DIR" {
			others = append(others, filepath.Join(t.Home, ".config", "kilo"))
		}
		for _, d := range others {
			if d == t.Dir {
				continue
			}
			for _, sub := range []string{"plugins", "plugin"} {
				ts = append(ts, filepath.Join(d, sub, t.NS+".js"), filepath.Join(d, sub, t.NS+".ts"))
			}
		}
		return ts
	},
	twinWhy: "Kilo loads plugin/ and plugins/ alike, in ~/.config/kilo, ~/.kilocode and $KILO_CONFIG_DIR",
	facts: func(Target) Facts {
		return Facts{
			Range:   kiloRange,
			Product: "Kilo CLI",
			Plugin: &Plugin{
				// Kilo is a Bun binary (Bun 1.3.14 in 7.7.9): with BUN_BE_BUN=1
				// it runs JavaScript, as opencode does.
				Runtime: "kilo", RuntimeEnv: []string{"BUN_BE_BUN=1"}, RuntimeName: "Kilo's Bun runtime",
				Cases: opencodeCases,
			},
			ProjectConfigs: []string{".kilo/plugin/*.js", ".kilo/plugins/*.js", ".kilo/plugin/*.ts", ".kilo/plugins/*.ts",
				".kilocode/plugin/*.js", ".kilocode/plugins/*.js", ".opencode/plugin/*.js", ".opencode/plugins/*.js"},
			Payloads: "kilo",
		}
	},
}

func init() { register(kilo) }

// kiloRange: the versions measured with our hooks (docs/agents.md "Versions").
var kiloRange = &Range{Program: "kilo", Oldest: "7.7.9", Newest: "7.7.9"}
