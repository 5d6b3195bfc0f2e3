package adapters

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
)

// A Module is the config of an agent that loads a module of ours in-process
// from its config dir (opencode's plugins/<NS>.js, Kilo's, Pi's
// extensions/<NS>.ts): the file is the whole install, written whole and
// deleted on removal. Such an agent has no hook scripts (its hooks dir holds
// only the manifest); its Plugin says how the module is rendered and run.
type Module struct {
	// Sub and Ext place our file: <dir>/<Sub>/<NS><Ext>.
	Sub, Ext string
	// Twins are the other files the agent would load as a second copy of
	// ours (so every state would be reported twice); TwinWhy says why, for
	// messages ("opencode loads plugin/ and plugins/ alike"). The agent
	// reads them (Agent.Files), add warns and doctor fails about them.
	Twins   func(t Target) []string
	TwinWhy string
}

// File is where the module goes in t: an agent's File.
func (m Module) File(t Target) string { return filepath.Join(t.Dir, m.Sub, t.NS+m.Ext) }

// check warns about a twin of our file that the agent would load as well.
func (m Module) check(a *Agent, t Target, files map[string][]byte) []string {
	var notes []string
	for _, tw := range m.Twins(t) {
		if _, ok := files[tw]; ok {
			notes = append(notes, fmt.Sprintf("%s is also there: %s, so every state would be reported twice; delete it (hookinstall writes only %s)", tw, m.TwinWhy, a.Config(t)))
		}
	}
	return notes
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// state says whose the file is: exact means as hookinstall wrote it (this
// version, or the one the manifest records, or any file with our header when
// there is no manifest); ours means written by hookinstall, perhaps edited
// since.
func (Module) state(a *Agent, t Target, cur, want []byte, prev *Record) (exact, ours bool) {
	header := bytes.HasPrefix(cur, []byte(a.Plugin.Header(t.NS)))
	switch {
	case bytes.Equal(cur, want):
		return true, true
	case prev != nil:
		return prev.PostSHA != "" && sha(cur) == prev.PostSHA, true
	default:
		return header, header
	}
}

func (m Module) add(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want, err := a.Plugin.Render(t.Install())
	if err != nil {
		return Edit{}, err
	}
	if len(cur) == 0 {
		return Edit{Doc: want}, nil
	}
	exact, ours := m.state(a, t, cur, want, prev)
	switch {
	case exact || ours && force:
		return Edit{Doc: want}, nil
	case ours:
		return Edit{Doc: cur, Kept: true, Notes: []string{"the " + m.Kind() + " was edited by hand; left as it is (--force replaces it)"}}, nil
	default:
		return Edit{}, fmt.Errorf("is not %s hookinstall wrote (it lacks the header line %q); refusing to replace it: move it away, or install under another --namespace", m.aKind(), bytes.TrimSpace([]byte(a.Plugin.Header(t.NS))))
	}
}

func (m Module) remove(a *Agent, t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want, err := a.Plugin.Render(t.Install())
	if err != nil {
		return Edit{}, err
	}
	exact, ours := m.state(a, t, cur, want, prev)
	switch {
	case len(cur) == 0 || exact || ours && force:
		return Edit{Delete: true}, nil
	case ours:
		return Edit{Doc: cur, Kept: true, Notes: []string{"the " + m.Kind() + " was edited by hand; left in place (--force removes it)"}}, nil
	default:
		return Edit{Doc: cur}, nil
	}
}

// read is not used: doctor reads a module as a module (its own profile).
func (Module) read(*Agent, Target, File) ([]Finding, *EventMap) { return nil, nil }

func (Module) empty(doc []byte) bool { return len(doc) == 0 }

// aKind is Kind with its article.
func (m Module) aKind() string {
	if m.Kind() == "extension" {
		return "an extension"
	}
	return "a plugin"
}

// Kind is what the agent calls our file: a plugin, or an extension.
func (m Module) Kind() string {
	if m.Sub == "extensions" {
		return "extension"
	}
	return "plugin"
}

// deadPaths flags a copy of our file that the agent would also load.
func (m Module) deadPaths(a *Agent, in Input) []Finding {
	t := in.T
	id := "doubleplugin." + a.ID
	twins := m.Twins(t)
	var fs []Finding
	for _, tw := range twins {
		if f := in.File(tw); f.Exists || f.Err != nil {
			fs = append(fs, fail(id, tw, fmt.Sprintf("%s is there as well as %s: %s, so every state would be reported twice", tw, a.Config(t), m.TwinWhy), "delete "+tw+" (hookinstall writes only "+m.Sub+"/"+t.NS+m.Ext+")"))
		}
	}
	if len(fs) == 0 && len(twins) > 0 {
		dir := filepath.Dir(twins[0])
		fs = append(fs, pass(id, dir, fmt.Sprintf("no copy of our %s in %s", m.Kind(), dir)))
	}
	return fs
}
