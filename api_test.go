package hookinstall

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// maxAPI bounds this package's exported top-level names (types, functions,
// variables, constants; not methods or fields): every name is one more a
// host author reads and the module promises to keep (issue 22: at most 55).
const maxAPI = 55

func TestAPISize(t *testing.T) {
	names := exportedNames(t, ".")
	if len(names) > maxAPI {
		t.Errorf("package hookinstall exports %d names, more than %d: %s", len(names), maxAPI, strings.Join(names, " "))
	}
}

// exportedNames lists the exported top-level names of the package in dir
// (test files left out).
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	for _, f := range parseNonTest(t, dir) {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return names
}

// TestJSONTagsEncoded: the types the command encodes as they are carry
// json tags on every exported field, so that no field reaches --json by
// its Go name (the command has no mirror structs of them: see
// cmd/hookinstall's TestNoMirrorStructs).
func TestJSONTagsEncoded(t *testing.T) {
	for _, v := range []any{Agent{}, Event{}, VersionRange{}, adapters.Older{}, Result{}, Change{}, AgentStatus{}, Report{}, Check{}} {
		ty := reflect.TypeOf(v)
		for i := 0; i < ty.NumField(); i++ {
			if f := ty.Field(i); f.IsExported() && f.Tag.Get("json") == "" {
				t.Errorf("%s.%s has no json tag", ty.Name(), f.Name)
			}
		}
	}
}

// parseNonTest parses the non-test Go files of dir.
func parseNonTest(t *testing.T, dir string) []*ast.File {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var fs []*ast.File
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, f)
		}
	}
	return fs
}
