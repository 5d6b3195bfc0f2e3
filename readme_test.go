package hookinstall

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// docFiles are the Markdown files whose links, snippets and generated parts
// the tests below check: the README, CONTRIBUTING.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	return append([]string{"README.md", "CONTRIBUTING.md"}, docs...)
}

func readDoc(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestREADMEExamples: every Go snippet in the README, CONTRIBUTING.md and
// docs/*.md is cut from the Example functions in example_test.go (its
// lines appear there, in order), which go test compiles and runs, so the
// docs cannot show code that no longer builds or does something else.
func TestREADMEExamples(t *testing.T) {
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	have := lines(readDoc(t, "example_test.go"))
	n := 0
	for _, f := range docFiles(t) {
		for i, b := range strings.Split(readDoc(t, f), "```go\n")[1:] {
			n++
			code, _, ok := strings.Cut(b, "```")
			if !ok {
				t.Fatalf("%s: Go snippet %d is not closed", f, i+1)
			}
			j := 0
			for _, l := range lines(code) {
				for j < len(have) && have[j] != l {
					j++
				}
				if j == len(have) {
					t.Errorf("%s: Go snippet %d: line %q is not in example_test.go (in this order)", f, i+1, l)
					break
				}
				j++
			}
		}
	}
	if n < 3 {
		t.Fatalf("the docs have %d Go snippets, want the API's and the wire's (3, in docs/hosts.md)", n)
	}
}

// TestDocsRowsEveryAgent: the docs a new agent needs by hand (CONTRIBUTING.md,
// "To add an agent") exist for every agent of the registry: its section in
// docs/agents.md, and its recorded payloads named in
// adapters/payloads/README.md (where each was recorded). Its row in the
// README's Agents table is generated (TestGeneratedTables).
func TestDocsRowsEveryAgent(t *testing.T) {
	agentsDoc, payloads := readDoc(t, "docs/agents.md"), readDoc(t, "adapters/payloads/README.md")
	for _, a := range adapters.All() {
		if !strings.Contains(agentsDoc, "\n## "+a.ID+"\n") {
			t.Errorf("docs/agents.md: no section \"## %s\" (what its binary was measured to do)", a.ID)
		}
		if a.Payloads != "" && !strings.Contains(payloads, "`"+a.Payloads+".") {
			t.Errorf("adapters/payloads/README.md: no row for %s's payloads (`%s.<event>.json`: where each was recorded)", a.ID, a.Payloads)
		}
	}
}

// The README's Agents table sits between these two lines, generated from the
// registry by agentsTable.
const (
	tableBegin = "<!-- agents table: generated from the registry (adapters) by make update; do not edit -->\n"
	tableEnd   = "<!-- end of agents table -->\n"
)

// agentsTable renders the README's Agents table from the registry: each
// agent's name, the file it writes (default namespace, home as ~) and the
// variable that moves its folder, whether that file is shared with the
// user, and each event with the state it reports.
func agentsTable(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("| agent | file written | shared with you? | events → state |\n|---|---|---|---|\n")
	for _, a := range adapters.All() {
		tg, err := adapters.Resolve(a.ID, adapters.Options{NS: "hookinstall", Home: "/h"})
		if err != nil {
			t.Fatal(err)
		}
		// The variables that move the agent's folder: those Dir asks for.
		var vars []string
		a.Dir("/h", func(k string) string {
			if k != "HOME" {
				vars = append(vars, "`$"+k+"`")
			}
			return ""
		})
		name := "`" + a.ID + "`"
		if a.Product != "" && a.Product != a.ID {
			name += " (" + a.Product + ")"
		}
		file := "`~" + strings.TrimPrefix(a.File(tg), "/h") + "`"
		if len(vars) > 0 {
			file += " (" + strings.Join(vars, ", ") + " can move `~" + strings.TrimPrefix(tg.Dir, "/h") + "`)"
		}
		shared := "yes: our entries merged in"
		if a.Own {
			shared = "no: our own file"
		}
		var events []string
		for _, e := range a.Events() {
			s := e.Event + " → " + string(e.State)
			if e.Note != "" {
				s += " (" + e.Note + ")"
			}
			events = append(events, s)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, file, shared, strings.Join(events, ", "))
	}
	return b.String()
}

// endsTable renders docs/agents.md's table of what ends each state, per
// agent, from the registry: the events that end attention and working, and
// the gaps its Range measured (adapters.Gap), where the state shown
// outlives the agent's own.
func endsTable(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("| agent | measured | attention ends at | working ends at | it sends its hooks nothing when: the state shown lasts until |\n|---|---|---|---|---|\n")
	for _, a := range adapters.All() {
		ends := map[State][]string{}
		for _, e := range a.Events() {
			for _, st := range []State{Attention, Working} {
				if e.State != st && !slices.Contains(ends[st], e.Event) {
					ends[st] = append(ends[st], e.Event)
				}
			}
		}
		measured, gaps := "no binary here", []string{"not measured: attention and working may outlive the agent's"}
		if r := a.Range; r != nil {
			measured, gaps = r.Oldest+" to "+r.Newest, []string{"no gap measured"}
			if r.Oldest == r.Newest {
				measured = r.Newest
			}
			if len(r.Silent) > 0 {
				gaps = nil
			}
			for _, g := range r.Silent {
				gaps = append(gaps, fmt.Sprintf("%s: %s until %s", g.At, g.State, g.Until))
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", a.ID, measured, strings.Join(ends[Attention], ", "), strings.Join(ends[Working], ", "), strings.Join(gaps, "; "))
	}
	return b.String()
}

// TestGeneratedTables: the README's Agents table and docs/agents.md's table
// of what ends each state are the ones agentsTable and endsTable render
// from the registry, so a new agent, event, path or gap shows there
// without a hand edit. HOOKINSTALL_UPDATE_DOCS=1 rewrites them (make update).
func TestGeneratedTables(t *testing.T) {
	for _, g := range []struct {
		file, begin, end string
		render           func(*testing.T) string
	}{
		{"README.md", tableBegin, tableEnd, agentsTable},
		{"docs/agents.md", "<!-- ends table: generated from the registry (adapters) by make update; do not edit -->\n", "<!-- end of ends table -->\n", endsTable},
	} {
		doc := readDoc(t, g.file)
		head, rest, ok1 := strings.Cut(doc, g.begin)
		_, tail, ok2 := strings.Cut(rest, g.end)
		if !ok1 || !ok2 {
			t.Fatalf("%s: no generated table (want it between %q and %q)", g.file, g.begin, g.end)
		}
		want := head + g.begin + g.render(t) + g.end + tail
		if os.Getenv("HOOKINSTALL_UPDATE_DOCS") == "1" {
			if err := os.WriteFile(g.file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if doc != want {
			t.Errorf("%s: the generated table is not what the registry says; run make update "+
				"(HOOKINSTALL_UPDATE_DOCS=1 go test . -run '^TestGeneratedTables$') and review the diff:\n%s",
				g.file, firstLineDiff(doc, want))
		}
	}
}

func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  have %s\n  want %s", i+1, gl, wl)
		}
	}
	return ""
}

// TestDocLinks: every relative link in the README, CONTRIBUTING.md and
// docs/*.md names a file or folder of the repository, and its #anchor a
// heading of that file (as GitHub makes anchors from headings), and each
// of those files is reached from the README by following links, so no
// section moved out of the README is out of reach.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(p string) map[string]bool {
		if as, ok := anchors[p]; ok {
			return as
		}
		as := map[string]bool{}
		for _, h := range headings(readDoc(t, p)) {
			a := slug(h)
			for i := 1; as[a]; i++ { // GitHub numbers repeated headings
				a = slug(h) + "-" + strconv.Itoa(i)
			}
			as[a] = true
		}
		anchors[p] = as
		return as
	}
	n := 0
	links := map[string][]string{} // file -> the files it links to
	for _, f := range docFiles(t) {
		for i, line := range strings.Split(prose(readDoc(t, f)), "\n") {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				n++
				path, anchor, _ := strings.Cut(target, "#")
				file := f
				if path != "" {
					file = filepath.Join(filepath.Dir(f), path)
					if _, err := os.Stat(file); err != nil {
						t.Errorf("%s:%d: link %q: %v", f, i+1, target, err)
						continue
					}
					links[f] = append(links[f], file)
				}
				if anchor != "" && (!strings.HasSuffix(file, ".md") || !anchorsOf(file)[anchor]) {
					t.Errorf("%s:%d: link %q: %s has no heading with the anchor #%s", f, i+1, target, file, anchor)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative links found: the link pattern is broken")
	}
	// Every doc is reached from the README, following links.
	seen := map[string]bool{"README.md": true}
	for queue := []string{"README.md"}; len(queue) > 0; queue = queue[1:] {
		for _, to := range links[queue[0]] {
			if !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	for _, f := range docFiles(t) {
		if !seen[f] {
			t.Errorf("%s: no chain of links leads to it from README.md", f)
		}
	}
}

// prose blanks the fenced code blocks and inline code spans of Markdown
// text (keeping its lines), where a "](" is not a link.
func prose(s string) string {
	lines := strings.Split(s, "\n")
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			lines[i] = ""
			continue
		}
		if fenced {
			lines[i] = ""
			continue
		}
		parts := strings.Split(l, "`")
		for j := 1; j < len(parts); j += 2 {
			parts[j] = ""
		}
		lines[i] = strings.Join(parts, "``")
	}
	return strings.Join(lines, "\n")
}

// headings are the text of a Markdown file's # headings, outside code.
func headings(s string) []string {
	var hs []string
	fenced := false
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(l, "#") {
			if h := strings.TrimLeft(l, "#"); strings.HasPrefix(h, " ") {
				hs = append(hs, strings.TrimSpace(h))
			}
		}
	}
	return hs
}

// slug is GitHub's anchor for a heading: lower case, punctuation but '-'
// and '_' dropped, each space a '-'.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '→' && r != '·':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDoctorDocNamesEveryCheck: every check id spelled in the production
// code (a string literal such as "config.hooksfile", in any package but
// internal/) has its row in docs/doctor.md's table of checks.
func TestDoctorDocNamesEveryCheck(t *testing.T) {
	doc := readDoc(t, "docs/doctor.md")
	id := regexp.MustCompile(`^(config|entries|manifest|hooksdir|script|switch|outdated|version|env|trust|deadpath|doubleplugin|fire|binary)\.[a-zA-Z][a-zA-Z_-]*(\.[a-zA-Z][a-zA-Z_-]*)?$`)
	file := regexp.MustCompile(`\.(json|toml|yml|yaml|sh|js|ts|go|md)$`)
	n := 0
	err := filepath.WalkDir(".", func(src string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && src != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" ||
			src == "internal" || src == "bin" || src == "dist" || src == "build"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(src, ".go") || strings.HasSuffix(src, "_test.go"):
			return nil
		}
		b := []byte(readDoc(t, src))
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(src, -1, len(b)), b, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				return nil
			}
			v, err := strconv.Unquote(lit)
			if tok != token.STRING || err != nil || !id.MatchString(v) || file.MatchString(v) {
				continue
			}
			n++
			if !strings.Contains(doc, "`"+v+"`") {
				t.Errorf("%s: check id %q has no row in docs/doctor.md's table of checks", fset.Position(pos), v)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Fatalf("found %d check ids in the production code, want the whole set (30 or more)", n)
	}
}

// TestREADMEOneScreen: the README stays one screen's worth: at most 250
// lines, and its first 40 say what hookinstall is, show the demo, how to
// install it and the init line. It names the two commands a fresh clone
// needs, make demo and make test, and make check, the full pass.
func TestREADMEOneScreen(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(readDoc(t, "README.md"), "\n"), "\n")
	if len(lines) > 250 {
		t.Errorf("README.md is %d lines, want at most 250: move the detail to docs/ or CONTRIBUTING.md, and link it", len(lines))
	}
	first := strings.Join(strings.Fields(strings.Join(lines[:min(40, len(lines))], "\n")), " ")
	for _, want := range []string{"```console $ hookinstall add ", "## Install ", `eval "$(hookinstall init bash)"`, "`make demo`", "`make test`", "`make check`"} {
		if !strings.Contains(first, want) {
			t.Errorf("README.md: the first 40 lines lack %q (the pitch, the demo, install, the init line, make demo/test/check)", want)
		}
	}
}

// TestCommandsSynopsis: the README's command synopsis is docs/commands.md's,
// line for line, so the two cannot drift apart.
func TestCommandsSynopsis(t *testing.T) {
	synopsis := func(f string) string {
		_, rest, _ := strings.Cut(readDoc(t, f), "```\nhookinstall add ")
		block, _, ok := strings.Cut(rest, "```")
		if !ok {
			t.Fatalf("%s: no command synopsis (a ``` block starting \"hookinstall add \")", f)
		}
		return block
	}
	if r, c := synopsis("README.md"), synopsis("docs/commands.md"); r != c {
		t.Errorf("README.md's command synopsis differs from docs/commands.md's:\n%s", firstLineDiff(r, c))
	}
}
