package adapters

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A nameChecker finds, on the syntax tree of Go files, each place that
// decides by an agent's name: an == or != with a string that is one, a
// switch case that is one, a map key that is one, or a call of a function
// of strings, bytes or slices (EqualFold, HasPrefix, Contains...) with one
// as an argument. A string is a literal or a constant: a named constant of
// the file's package (from any of its files) or of another package
// (pkg.Name), or a constant expression of them ("co" + "dex").
type nameChecker struct {
	fset  *token.FileSet
	names map[string]bool
	// consts are the string constants of every package parsed: by name
	// within their package (pkg is the package's name), and by
	// "pkg.Name" for a qualified use from elsewhere.
	consts map[string]map[string]ast.Expr
}

func newNameChecker(names map[string]bool) *nameChecker {
	return &nameChecker{fset: token.NewFileSet(), names: names, consts: map[string]map[string]ast.Expr{}}
}

// addConsts records the constants declared anywhere in f (package level or
// in a function: a local constant shadows nothing we care about).
func (c *nameChecker) addConsts(f *ast.File) {
	pkg := f.Name.Name
	if c.consts[pkg] == nil {
		c.consts[pkg] = map[string]ast.Expr{}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		g, ok := n.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			return true
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if i < len(vs.Values) {
					c.consts[pkg][id.Name] = vs.Values[i]
				}
			}
		}
		return true
	})
}

// value evaluates e as a string constant of package pkg, or gives ok false.
func (c *nameChecker) value(pkg string, e ast.Expr, depth int) (string, bool) {
	if depth > 20 {
		return "", false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		if v.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(v), true
	case *ast.ParenExpr:
		return c.value(pkg, e.X, depth+1)
	case *ast.Ident:
		if d, ok := c.consts[pkg][e.Name]; ok {
			return c.value(pkg, d, depth+1)
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if d, ok := c.consts[x.Name][e.Sel.Name]; ok {
				return c.value(x.Name, d, depth+1)
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := c.value(pkg, e.X, depth+1)
			b, ok2 := c.value(pkg, e.Y, depth+1)
			if ok1 && ok2 {
				return a + b, true
			}
		}
	case *ast.CallExpr:
		// string("codex") and other conversions of a constant
		if len(e.Args) == 1 {
			if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "string" {
				return c.value(pkg, e.Args[0], depth+1)
			}
		}
	}
	return "", false
}

// uses returns each place in f that decides by an agent's name.
func (c *nameChecker) uses(f *ast.File) []string {
	pkg := f.Name.Name
	var found []string
	name := func(e ast.Expr, what string) {
		if s, ok := c.value(pkg, e, 0); ok && c.names[s] {
			found = append(found, c.fset.Position(e.Pos()).String()+": "+what+" "+strings.TrimSpace(exprString(e))+" ("+s+")")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				name(n.X, "compares with")
				name(n.Y, "compares with")
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				name(e, "switches on")
			}
		case *ast.KeyValueExpr:
			// A string key is a map key: struct fields are identifiers
			// that name no constant, and array indexes are not strings.
			name(n.Key, "keys a map on")
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "strings" || x.Name == "bytes" || x.Name == "slices") {
					for _, a := range n.Args {
						name(a, "calls "+x.Name+"."+sel.Sel.Name+" with")
					}
				}
			}
		}
		return true
	})
	return found
}

// exprString renders a small expression for a message.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Value
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.ParenExpr:
		return "(" + exprString(e.X) + ")"
	case *ast.BinaryExpr:
		return exprString(e.X) + " " + e.Op.String() + " " + exprString(e.Y)
	case *ast.CallExpr:
		return exprString(e.Fun) + "(...)"
	}
	return "expression"
}

// checkSources parses every file of srcs (path -> source; nil reads the
// path) first, for the constants of every package, then finds the name
// uses in each, in path order.
func (c *nameChecker) checkSources(paths []string, srcs map[string]any) ([]string, error) {
	files := map[string]*ast.File{}
	for _, p := range paths {
		f, err := parser.ParseFile(c.fset, p, srcs[p], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files[p] = f
		c.addConsts(f)
	}
	var found []string
	for _, p := range paths {
		found = append(found, c.uses(files[p])...)
	}
	return found, nil
}

// TestNoAgentNamesOutsideAdapters pins the rule that everything about an
// agent is stated once, in its description: outside the agent files of
// adapters/ (adapters/jsonedit, which knows no agent, is checked), no Go
// code (test files aside) decides by an agent's name, however spelled (see
// nameChecker). What differs between agents is a fact of its
// adapters.Agent, and the code that uses it asks for the fact.
func TestNoAgentNamesOutsideAdapters(t *testing.T) {
	names := map[string]bool{}
	for _, n := range Names() {
		names[n] = true
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "payloads") {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Dir(rel) == "adapters" || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) < 20 {
		t.Fatalf("looked at %d Go files under %s; the walk is broken", len(paths), root)
	}
	found, err := newNameChecker(names).checkSources(paths, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: agent facts belong in adapters/<agent>.go (its adapters.Agent), not in a name check", f)
	}
}

// TestNameUsesFinds: the checker finds each kind of name check, however the
// name is spelled, and nothing else; among them the ones a review slipped
// past the earlier, literal-only checker.
func TestNameUsesFinds(t *testing.T) {
	src := `package p

import (
	"strings"

	"example.com/q"
)

const codexName = "codex"
const twice = "gr" + "ok"

func f(a, b string, id string) {
	if a == "codex" || "claude" != b || a == "codexx" { }
	switch a { case "zerocode", "other": }
	_ = map[string]string{"grok": "x", "y": "opencode"}
	_ = []string{"antigravity"}
	g("codex")
	if a == codexName || strings.EqualFold(a, "grok") || strings.HasPrefix(id, "claude") { }
	if b != twice || a == q.Agent || a == (codexName) { }
	const local = "kimi"
	switch { case a == local: }
	_ = struct{ Name string }{Name: "x"}
}`
	qsrc := `package q

const Agent = "pi"
`
	c := newNameChecker(map[string]bool{"codex": true, "claude": true, "zerocode": true, "grok": true, "opencode": true, "antigravity": true, "kimi": true, "pi": true})
	found, err := c.checkSources([]string{"p.go", "q.go"}, map[string]any{"p.go": src, "q.go": qsrc})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`p.go:13:10: compares with "codex" (codex)`,
		`p.go:13:21: compares with "claude" (claude)`,
		`p.go:14:18: switches on "zerocode" (zerocode)`,
		`p.go:15:24: keys a map on "grok" (grok)`,
		`p.go:18:10: compares with codexName (codex)`,
		`p.go:18:44: calls strings.EqualFold with "grok" (grok)`,
		`p.go:18:77: calls strings.HasPrefix with "claude" (claude)`,
		`p.go:19:10: compares with twice (grok)`,
		`p.go:19:24: compares with q.Agent (pi)`,
		`p.go:19:40: compares with (codexName) (codex)`,
		`p.go:21:21: compares with local (kimi)`,
	}
	if strings.Join(found, "\n") != strings.Join(want, "\n") {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
}
