package adapters

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
)

// An EventMap is an agent's config as the agent reads it, for doctor: where
// its event map is and each element of it that holds a command of ours.
type EventMap struct {
	Where string // the event map's key, for messages: "hooks"
	Ours  []Occurrence
}

// An Occurrence is one element of an event array that holds a command of
// ours.
type Occurrence struct {
	Event    string
	Index    int          // position in the event array
	Elem     gjson.Result // the element: a group, or a handler where taken directly
	Commands []string     // our commands in it
	Mixed    bool         // it also holds handlers that are not ours
}

// Read reads the agent's config (it exists and was read) the way the
// agent parses it: the config.parse and config.bom findings and, when the
// agent reads hooks from it, its event map.
func (a *Agent) Read(in Input) ([]Check, *EventMap) {
	if a.ReadFiles != nil {
		return a.ReadFiles(in)
	}
	return a.Format.read(a, in.T, in.Config)
}

// Stale are the installs of t's namespace made for another home that the
// files still name: entries like /home/alice/.claude/hookinstall-hooks/stop.sh
// in a settings.json synced from another machine or copied from another
// user. The agent runs them beside ours: each state fires twice, or, where
// that folder is not there, the hook fails every turn. Each is t made for
// that home (AsHome), whose PlanRemove takes its entries out; an install
// for a home the manifest records (a Docker target's) is not stale.
func Stale(t Target, files map[string][]byte, recorded string) []Target {
	needle := []byte(strings.TrimPrefix(t.AsPath(t.HooksDir()), t.AsHome) + "/")
	var out []Target
	seen := map[string]bool{t.AsHome: true, recorded: true}
	for _, b := range files {
		// each quoted path "/HOME<rel>/...": HOME runs back from <rel> to
		// the quote, no space or quote in it (a scan, not a regexp: a
		// settings file can be megabytes)
		for i := 0; ; {
			j := bytes.Index(b[i:], needle)
			if j < 0 {
				break
			}
			j += i
			k := j
			for k > i && !strings.ContainsRune("\"' \t\r\n", rune(b[k-1])) {
				k--
			}
			for i = j + len(needle); i < len(b) && !strings.ContainsRune("\"' \t\r\n", rune(b[i])); i++ {
			}
			if k == j || k == 0 || b[k-1] != '"' && b[k-1] != '\'' || b[k] != '/' {
				continue
			}
			h := string(b[k:j])
			if seen[h] {
				continue
			}
			seen[h] = true
			alt := t
			alt.AsHome = h
			if len(t.Adapter.Holds(alt, files)) > 0 {
				out = append(out, alt)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AsHome < out[j].AsHome })
	return out
}

// Holds is the one answer to "is anything of ours in these files?", for
// the writer, status, doctor and remove --all alike. files are the files of
// Reads(t) that exist, by path (PlanInput.Files). It returns those that
// hold an entry of ours, in the order of a removal's edits (the config
// first): each hook config a forced removal would change (trust records
// are not entries). When the removal cannot read them, a file holds one
// when it may (MayHold): none that cannot be read is claimed free of ours.
// Files that cannot name our namespace at all are not parsed.
func (a *Agent) Holds(t Target, files map[string][]byte) []string {
	may := false
	for _, b := range files {
		may = may || MayHold(t, b)
	}
	if !may {
		return nil
	}
	var held []string
	p, err := a.PlanRemove(t, PlanInput{Files: files, Force: true})
	if err != nil {
		for _, path := range Reads(t) {
			if b, ok := files[path]; ok && MayHold(t, b) {
				held = append(held, path)
			}
		}
		return held
	}
	for _, e := range p.Edits {
		if cur, ok := files[e.Path]; ok && e.Role == RoleConfig && (e.Delete || !bytes.Equal(e.Doc, cur)) {
			held = append(held, e.Path)
		}
	}
	return held
}

// MayHold reports whether data, a file of t's, may hold an entry of ours:
// each one names the hooks dir, <NS>-hooks (or a plugin's header names
// NS), either as it is or spelled with one of the escapes the agent's files
// know (Agent.Escapes); a namespace has no byte that needs another escape.
// False is certain, and spares a large file a parse.
func MayHold(t Target, data []byte) bool { return mayHold(data, t.NS, t.Adapter.Escapes(t)) }

func mayHold(data []byte, ns, escapes string) bool {
	if bytes.Contains(data, []byte(ns)) {
		return true
	}
	// One pass over the backslashes, for the escapes of the agent's
	// files (\u, \U, \x, \/).
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\\')
		if j < 0 || i+j+1 >= len(data) {
			return false
		}
		i += j + 1
		if strings.IndexByte(escapes, data[i]) >= 0 {
			return true
		}
	}
}

// Present is in's files as a plan reads them: the existing ones, by path.
func (in Input) Present() map[string][]byte {
	files := map[string][]byte{}
	if in.Config.Exists {
		files[in.Config.Path] = in.Config.Data
	}
	for p, f := range in.Files {
		if f.Exists {
			files[p] = f.Data
		}
	}
	return files
}

// readJSONMap reads a JSON config whose event map sits at root[key].
func (a *Agent) readJSONMap(t Target, cfg File, key string) ([]Check, *EventMap) {
	file := cfg.Path
	data := cfg.Data
	var fs []Check
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		if !a.ReadsBOM {
			return append(fs, fail("config.parse", file, file+" "+a.BOMVerdict(), BOMHint(file))), nil
		}
		fs = append(fs, info("config.bom", file, file+" "+a.BOMVerdict(), BOMHint(file)))
		data = data[3:]
	}
	if a.ReadsComments {
		data = jsonedit.Blank(data) // read as the agent reads it; add and remove keep them
	}
	root, err := jsonedit.ParseObject(data)
	if err != nil {
		return append(fs, fail("config.parse", file, fmt.Sprintf("%s: %v: %s rejects the whole file, so none of its hooks run", file, err, a.Product), "fix the file (it must be strict JSON), then run '"+t.Command("doctor")+"' again")), nil
	}
	if k := duplicateKey(root); k != "" {
		return append(fs, fail("config.parse", file, fmt.Sprintf("%s: the key %q appears twice at the top level; agents disagree on which copy wins", file, k), "merge the two copies into one")), nil
	}
	for _, m := range jsonedit.Members(root) {
		if !a.Accepts(m.Key) {
			verdict, hint := a.strictRootVerdict(file, m.Key)
			return append(fs, fail("config.parse", file, verdict, hint)), nil
		}
	}
	m := &EventMap{Where: key}
	events := root.Get(gjson.Escape(m.Where))
	if events.Exists() && !events.IsObject() {
		return append(fs, fail("config.parse", file, fmt.Sprintf("%s: %q is not an object, so %s reads no hooks from it", file, m.Where, a.Product), "make it an object of event arrays")), nil
	}
	if k := duplicateKey(events); k != "" {
		return append(fs, fail("config.parse", file, fmt.Sprintf("%s: %q appears twice in %q; agents disagree on which copy wins", file, k, m.Where), "merge the two copies into one")), nil
	}
	note := "strict JSON, no BOM"
	switch {
	case a.StrictRoot != nil:
		note = "strict JSON, no BOM, top level only " + a.StrictRootList()
	case a.ReadsComments && a.ReadsBOM:
		note = "JSON with comments allowed, no trailing commas"
	case a.ReadsComments:
		note = "JSON with comments allowed, no trailing commas, no BOM"
	case a.ReadsBOM:
		note = "strict JSON"
	}
	fs = append(fs, pass("config.parse", file, fmt.Sprintf("%s parses the way %s parses it (%s)", file, a.Product, note)))
	m.Ours = FindOurs(events, t.Prefix())
	return fs, m
}

// strictRootVerdict is what add (refusing) and doctor (failing) say of a
// top-level key the agent's strict root does not accept.
func (a *Agent) strictRootVerdict(file, key string) (verdict, hint string) {
	return fmt.Sprintf("%s: top-level key %q: %s accepts only %s at the top level and rejects the WHOLE file otherwise, so none of its hooks run", file, key, a.Product, a.StrictRootList()),
		fmt.Sprintf("remove %q from the top level (move it elsewhere)", key)
}

// duplicateKey returns a key that appears twice in obj, or "".
func duplicateKey(obj gjson.Result) string {
	seen := map[string]bool{}
	for _, m := range jsonedit.Members(obj) {
		if seen[m.Key] {
			return m.Key
		}
		seen[m.Key] = true
	}
	return ""
}

// FindOurs lists the elements of every event array in events that hold a
// command under prefix.
func FindOurs(events gjson.Result, prefix string) []Occurrence {
	var os []Occurrence
	for _, ev := range jsonedit.Members(events) {
		if !ev.Val.IsArray() {
			continue
		}
		for i, e := range jsonedit.Elements(ev.Val) {
			var ours []string
			all := jsonedit.Commands(e)
			for _, c := range all {
				if strings.HasPrefix(c, prefix) {
					ours = append(ours, c)
				}
			}
			if len(ours) > 0 {
				os = append(os, Occurrence{Event: ev.Key, Index: i, Elem: e, Commands: ours, Mixed: len(ours) != len(all)})
			}
		}
	}
	return os
}
