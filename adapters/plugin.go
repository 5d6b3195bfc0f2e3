package adapters

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/hookinstall/hookinstall/scripts"
)

// pluginAgent is an agent that loads a module of ours in-process from its
// config dir (opencode's plugins/<NS>.js, Kilo's, Pi's extensions/<NS>.ts):
// the file is the whole install, written whole and deleted on removal. It
// has no hook scripts; the hooks dir holds only the manifest. Each such
// agent is one value of it, in its own file.
type pluginAgent struct {
	oneConfig
	name     string
	binaries []string
	events   []EventInfo
	// dir finds the agent's config dir (see Adapter.Dir).
	dir func(home string, getenv func(string) string) (string, string)
	// sub and ext place our file: <dir>/<sub>/<NS><ext>.
	sub, ext string
	// render gives our module's bytes for an install (its header names the
	// command that removes it); header its first line, which marks a file
	// as ours.
	render func(in scripts.Install) ([]byte, error)
	header func(ns string) string
	// twins are the other files the agent would load as a second copy of
	// ours (so every state would be reported twice); twinWhy says why, for
	// messages ("opencode loads plugin/ and plugins/ alike").
	twins   func(t Target) []string
	twinWhy string
	// reads are further files the agent's notes read (oh-my-pi's
	// config.yml), and notes what add says about them (the approval mode);
	// both may be nil.
	reads func(t Target) []string
	notes func(t Target, files map[string][]byte) []string
	// facts are the rest of the agent's facts; Product, Plugin.Header,
	// Plugin.Render, Reads and DeadPaths are filled in from the above.
	facts func(t Target) Facts
}

func (p pluginAgent) Name() string                   { return p.name }
func (p pluginAgent) Binaries() []string             { return p.binaries }
func (pluginAgent) OwnFile() bool                    { return true }
func (pluginAgent) ByNameOnly() bool                 { return false }
func (p pluginAgent) Events() []EventInfo            { return p.events }
func (pluginAgent) Scripts(Target) ([]Script, error) { return nil, nil }
func (p pluginAgent) SwitchFiles(t Target) []string  { return append(p.twins(t), p.extraReads(t)...) }
func (p pluginAgent) Config(t Target) string         { return filepath.Join(t.Dir, p.sub, t.NS+p.ext) }
func (p pluginAgent) Dir(home string, getenv func(string) string) (string, string) {
	return p.dir(home, getenv)
}

// extraReads is reads, or none.
func (p pluginAgent) extraReads(t Target) []string {
	if p.reads == nil {
		return nil
	}
	return p.reads(t)
}

// Check warns about a twin of our file that the agent would load as well,
// and adds the agent's own notes.
func (p pluginAgent) Check(t Target, _ []byte, files map[string][]byte) ([]string, error) {
	var notes []string
	for _, tw := range p.twins(t) {
		if _, ok := files[tw]; ok {
			notes = append(notes, fmt.Sprintf("%s is also there: %s, so every state would be reported twice; delete it (hookinstall writes only %s)", tw, p.twinWhy, p.Config(t)))
		}
	}
	if p.notes != nil {
		notes = append(notes, p.notes(t, files)...)
	}
	return notes, nil
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// state says whose the file is: exact means as hookinstall wrote it (this
// version, or the one the manifest records, or any file with our header when
// there is no manifest); ours means written by hookinstall, perhaps edited
// since.
func (p pluginAgent) state(t Target, cur, want []byte, prev *Record) (exact, ours bool) {
	header := bytes.HasPrefix(cur, []byte(p.header(t.NS)))
	switch {
	case bytes.Equal(cur, want):
		return true, true
	case prev != nil:
		return prev.PostSHA != "" && sha(cur) == prev.PostSHA, true
	default:
		return header, header
	}
}

func (p pluginAgent) Add(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want, err := p.render(t.Install())
	if err != nil {
		return Edit{}, err
	}
	if len(cur) == 0 {
		return Edit{Doc: want}, nil
	}
	exact, ours := p.state(t, cur, want, prev)
	switch {
	case exact || ours && force:
		return Edit{Doc: want}, nil
	case ours:
		return Edit{Doc: cur, Kept: true, Notes: []string{"the " + p.kind() + " was edited by hand; left as it is (--force replaces it)"}}, nil
	default:
		return Edit{}, fmt.Errorf("is not %s hookinstall wrote (it lacks the header line %q); refusing to replace it: move it away, or install under another --namespace", p.aKind(), bytes.TrimSpace([]byte(p.header(t.NS))))
	}
}

func (p pluginAgent) Remove(t Target, cur []byte, prev *Record, force bool) (Edit, error) {
	want, err := p.render(t.Install())
	if err != nil {
		return Edit{}, err
	}
	exact, ours := p.state(t, cur, want, prev)
	switch {
	case len(cur) == 0 || exact || ours && force:
		return Edit{Delete: true}, nil
	case ours:
		return Edit{Doc: cur, Kept: true, Notes: []string{"the " + p.kind() + " was edited by hand; left in place (--force removes it)"}}, nil
	default:
		return Edit{Doc: cur}, nil
	}
}

// aKind is kind with its article.
func (p pluginAgent) aKind() string {
	if p.kind() == "extension" {
		return "an extension"
	}
	return "a plugin"
}

// kind is what the agent calls our file: a plugin, or Pi's extension.
func (p pluginAgent) kind() string {
	if p.sub == "extensions" {
		return "extension"
	}
	return "plugin"
}

func (p pluginAgent) Facts(t Target) Facts {
	f := p.facts(t)
	if f.Plugin == nil {
		panic("adapters: a plugin agent's facts lack Plugin")
	}
	pl := *f.Plugin
	in := t.Install()
	pl.Header = p.header(t.NS)
	pl.Render = func() ([]byte, error) { return p.render(in) }
	f.Plugin = &pl
	f.Reads = append(append([]string(nil), f.Reads...), p.twins(t)...)
	own := f.DeadPaths
	f.DeadPaths = func(in Input) []Finding {
		fs := p.deadPaths(in)
		if own != nil {
			fs = append(fs, own(in)...)
		}
		return fs
	}
	return f
}

// deadPaths flags a copy of our file that the agent would also load.
func (p pluginAgent) deadPaths(in Input) []Finding {
	t := in.T
	id := "doubleplugin." + p.name
	twins := p.twins(t)
	var fs []Finding
	for _, tw := range twins {
		if f := in.File(tw); f.Exists || f.Err != nil {
			fs = append(fs, fail(id, tw, fmt.Sprintf("%s is there as well as %s: %s, so every state would be reported twice", tw, p.Config(t), p.twinWhy), "delete "+tw+" (hookinstall writes only "+p.sub+"/"+t.NS+p.ext+")"))
		}
	}
	if len(fs) == 0 && len(twins) > 0 {
		dir := filepath.Dir(twins[0])
		fs = append(fs, pass(id, dir, fmt.Sprintf("no copy of our %s in %s", p.kind(), dir)))
	}
	return fs
}
