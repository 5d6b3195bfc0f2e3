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
func init() {
	register(&Agent{
		ID: "kilo", Product: "Kilo CLI", Programs: []string{"kilo"}, WindowsHooks: plugin,
		Dir:   configDir("KILO_CONFIG_DIR", "kilo"),
		Hooks: opencodeHooks,
		Format: Module{Sub: "plugins", Ext: ".js", Twins: kiloTwins,
			TwinWhy: "Kilo loads plugin/ and plugins/ alike, in ~/.config/kilo, ~/.kilocode and $KILO_CONFIG_DIR"},
		Plugin: &Plugin{
			Render: func(in scripts.Install) ([]byte, error) { return scripts.RenderPlugin(in, "Kilo") },
			Header: func(ns string) string { return scripts.PluginHeader(ns, "Kilo") },
			// Kilo is a Bun binary (Bun 1.3.14 in 7.7.9): with BUN_BE_BUN=1
			// it runs JavaScript, as opencode does.
			Runtime: "kilo", RuntimeEnv: []string{"BUN_BE_BUN=1"}, RuntimeName: "Kilo's Bun runtime",
			Cases: opencodeCases,
		},
		Payloads: "kilo",
		Range:    kiloRange,
		ProjectConfigs: []string{".kilo/plugin/*.js", ".kilo/plugins/*.js", ".kilo/plugin/*.ts", ".kilo/plugins/*.ts",
			".kilocode/plugin/*.js", ".kilocode/plugins/*.js", ".opencode/plugin/*.js", ".opencode/plugins/*.js"},
	})
}

// kiloTwins are opencode's twins, and the same files in the legacy
// ~/.kilocode, which loads beside the config dir, and in ~/.config/kilo
// beside $KILO_CONFIG_DIR (which adds a folder).
func kiloTwins(t Target) []string {
	ts := opencodeTwins(t)
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
}

// kiloRange: the versions measured with our hooks (docs/agents.md "Versions").
var kiloRange = &Range{Program: "kilo", Oldest: "7.7.9", Newest: "7.7.9"}
