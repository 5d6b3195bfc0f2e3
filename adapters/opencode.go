package adapters

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/hookinstall/hookinstall/scripts"
)

// opencode is opencode: a plugin of ours, ~/.config/opencode/plugins/<NS>.js,
// an ES module that runs inside opencode and writes to the host's pty. It has
// no hook scripts; the hooks dir holds only the manifest.
type opencode struct{ oneConfig }

func init() { register(opencode{}) }

func (opencode) Name() string       { return "opencode" }
func (opencode) Binaries() []string { return []string{"opencode"} }
func (opencode) OwnFile() bool      { return true }
func (opencode) ByNameOnly() bool   { return false }

func (opencode) Events() []EventInfo {
	return []EventInfo{
		{Event: "chat.message", State: scripts.Working},
		{Event: "permission.asked", State: scripts.Attention, Note: "bus event, through the event hook"},
		{Event: "permission.replied", State: scripts.Working, Note: "bus event, through the event hook"},
		{Event: "session.idle", State: scripts.Done, Note: "bus event, through the event hook; not for a subagent's session"},
	}
}

// Dir is $OPENCODE_CONFIG_DIR, else $XDG_CONFIG_HOME/opencode, else
// ~/.config/opencode.
func (opencode) Dir(home string, getenv func(string) string) (string, string) {
	if d, from := envDir(getenv, "OPENCODE_CONFIG_DIR", ""); from != "" {
		return d, from
	}
	if x, from := envDir(getenv, "XDG_CONFIG_HOME", ""); from != "" {
		return filepath.Join(x, "opencode"), from
	}
	return filepath.Join(home, ".config", "opencode"), ""
}

// Config is under plugins/. opencode also loads plugin/ (singular): we never
// write there, since a copy in both fires every event twice.
func (opencode) Config(t Target) string { return filepath.Join(t.Dir, "plugins", t.NS+".js") }

func (opencode) otherPath(t Target) string { return filepath.Join(t.Dir, "plugin", t.NS+".js") }

// SwitchFiles names the plugin/ twin, only to warn about it.
func (o opencode) SwitchFiles(t Target) []string { return []string{o.otherPath(t)} }

func (opencode) Scripts(Target) ([]Script, error) { return nil, nil }

func (o opencode) Check(t Target, _ []byte, files map[string][]byte) ([]string, error) {
	if _, ok := files[o.otherPath(t)]; ok {
		return []string{fmt.Sprintf("%s is also there: opencode loads plugin/ and plugins/ alike, so every state would be reported twice; delete it (hookinstall writes only %s)", o.otherPath(t), o.Config(t))}, nil
	}
	return nil, nil
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// state says whose the plugin file is: exact means as hookinstall wrote it
// (this version, or the one the manifest records, or any file with our
// header when there is no manifest); ours means written by hookinstall,
// perhaps edited since.
func (opencode) state(t Target, cur, want []byte, prev *Record) (exact, ours bool) {
	header := bytes.HasPrefix(cur, []byte(scripts.OpencodeHeader(t.NS)))
	switch {
	case bytes.Equal(cur, want):
		return true, true
	case prev != nil:
		return prev.PostSHA != "" && sha(cur) == prev.PostSHA, true
	default:
		return header, header
	}
}

func (o opencode) Add(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want, err := scripts.RenderOpencode(t.NS, t.ID)
	if err != nil {
		return Edit{}, err
	}
	if len(cur) == 0 {
		return Edit{Doc: want}, nil
	}
	exact, ours := o.state(t, cur, want, prev)
	switch {
	case exact || ours && force:
		return Edit{Doc: want}, nil
	case ours:
		return Edit{Doc: cur, Kept: true, Notes: []string{"the plugin was edited by hand; left as it is (--force replaces it)"}}, nil
	default:
		return Edit{}, fmt.Errorf("is not a plugin hookinstall wrote (it lacks the header line %q); refusing to replace it: move it away, or install under another --namespace", bytes.TrimSpace([]byte(scripts.OpencodeHeader(t.NS))))
	}
}

func (o opencode) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want, err := scripts.RenderOpencode(t.NS, t.ID)
	if err != nil {
		return Edit{}, err
	}
	exact, ours := o.state(t, cur, want, prev)
	switch {
	case len(cur) == 0 || exact || ours && force:
		return Edit{Delete: true}, nil
	case ours:
		return Edit{Doc: cur, Kept: true, Notes: []string{"the plugin was edited by hand; left in place (--force removes it)"}}, nil
	default:
		return Edit{Doc: cur}, nil
	}
}

// --- opencode's facts, for add, remove, status and doctor ---

// twins are the other files opencode would load as a copy of our plugin:
// plugin/ (singular) as .js or .ts, and plugins/<NS>.ts beside ours.
func (opencode) twins(t Target) []string {
	return []string{
		filepath.Join(t.Dir, "plugin", t.NS+".js"),
		filepath.Join(t.Dir, "plugin", t.NS+".ts"),
		filepath.Join(t.Dir, "plugins", t.NS+".ts"),
	}
}

func (o opencode) Facts(t Target) Facts {
	return Facts{
		Product: "opencode",
		Plugin: &Plugin{
			// opencode is a Bun binary: with BUN_BE_BUN=1 it runs JavaScript.
			Runtime: "opencode", RuntimeEnv: []string{"BUN_BE_BUN=1"}, RuntimeName: "opencode's Bun runtime",
			Cases: []PluginCase{
				{"fire.working", "chat.message", scripts.Working},
				{"fire.attention", "permission.asked", scripts.Attention},
				{"fire.replied", "permission.replied", scripts.Working},
				{"fire.done", "session.idle", scripts.Done},
			},
		},
		ProjectConfigs: []string{".opencode/plugin/*.js", ".opencode/plugins/*.js", ".opencode/plugin/*.ts", ".opencode/plugins/*.ts"},
		Reads:          o.twins(t),
		DeadPaths:      o.deadPaths,
		Payloads:       "opencode",
	}
}

// deadPaths flags a copy of our plugin that opencode would also load: it
// loads {plugin,plugins}/*.{ts,js}, so both would report every state twice.
func (o opencode) deadPaths(in Input) []Finding {
	t := in.T
	var fs []Finding
	for _, p := range o.twins(t) {
		if f := in.File(p); f.Exists || f.Err != nil {
			fs = append(fs, fail("doubleplugin.opencode", p, fmt.Sprintf("%s is there as well as %s: opencode loads plugin/ and plugins/ alike, so every state would be reported twice", p, o.Config(t)), "delete "+p+" (hookinstall writes only plugins/"+t.NS+".js)"))
		}
	}
	if len(fs) == 0 {
		dir := filepath.Join(t.Dir, "plugin")
		fs = append(fs, pass("doubleplugin.opencode", dir, fmt.Sprintf("no copy of our plugin in %s", dir)))
	}
	return fs
}
