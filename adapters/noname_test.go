package adapters

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// nameUses returns, for the Go source src, each place that compares against
// one of names: an == or != with a string literal that is a name, a switch
// case that is one, or a map key that is one.
func nameUses(fset *token.FileSet, path string, src any, names map[string]bool) ([]string, error) {
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []string
	lit := func(e ast.Expr, what string) {
		b, ok := e.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			return
		}
		if s, err := strconv.Unquote(b.Value); err == nil && names[s] {
			found = append(found, fset.Position(b.Pos()).String()+": "+what+" "+b.Value)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				lit(n.X, "compares with")
				lit(n.Y, "compares with")
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				lit(e, "switches on")
			}
		case *ast.KeyValueExpr:
			// A string literal key is a map key: struct fields are
			// identifiers and array indexes are not strings.
			lit(n.Key, "keys a map on")
		}
		return true
	})
	return found, nil
}

// TestNoAgentNamesOutsideAdapters pins the rule that everything about an
// agent is stated once, in its adapter: outside adapters/, no Go code (test
// files aside) compares against an agent's name, switches on one, or keys a
// map on one. What differs between agents is a fact (its adapters.Agent), and
// the code that uses it asks for the fact.
func TestNoAgentNamesOutsideAdapters(t *testing.T) {
	names := map[string]bool{}
	for _, n := range Names() {
		names[n] = true
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == "adapters" || rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		files++
		found, err := nameUses(fset, p, nil, names)
		if err != nil {
			return err
		}
		for _, f := range found {
			t.Errorf("%s: agent facts belong in adapters/<agent>.go (its adapters.Agent), not in a name check", f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("looked at %d Go files under %s; the walk is broken", files, root)
	}
}

// TestNameUsesFinds: the checker above finds each kind of name check, and
// nothing else.
func TestNameUsesFinds(t *testing.T) {
	src := `package p
func f(a, b string) {
	if a == "codex" || "claude" != b || a == "codexx" { }
	switch a { case "zerocode", "other": }
	_ = map[string]string{"grok": "x", "y": "opencode"}
	_ = []string{"antigravity"}
	g("codex")
}`
	found, err := nameUses(token.NewFileSet(), "p.go", src, map[string]bool{"codex": true, "claude": true, "zerocode": true, "grok": true, "opencode": true, "antigravity": true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`p.go:3:10: compares with "codex"`,
		`p.go:3:21: compares with "claude"`,
		`p.go:4:18: switches on "zerocode"`,
		`p.go:5:24: keys a map on "grok"`,
	}
	if strings.Join(found, "\n") != strings.Join(want, "\n") {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
}
