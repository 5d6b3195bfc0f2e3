package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall"
)

// TestNoMirrorStructs: the command encodes the library's results as they
// are (their json tags are the documented keys). A struct of the command's
// own that repeats two or more keys of one of them is a mirror: one more
// place to keep in step with each field (issue 22). The command's own
// documents (the envelope: schema, command, namespace, ...) share at most
// one key with any of them.
func TestNoMirrorStructs(t *testing.T) {
	lib := map[string]map[string]bool{}
	for _, v := range []any{hookinstall.Agent{}, hookinstall.Event{}, hookinstall.VersionRange{},
		hookinstall.Result{}, hookinstall.Change{}, hookinstall.AgentStatus{}, hookinstall.Report{}, hookinstall.Check{}} {
		ty := reflect.TypeOf(v)
		keys := map[string]bool{}
		for i := 0; i < ty.NumField(); i++ {
			if k, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ","); k != "" && k != "-" {
				keys[k] = true
			}
		}
		lib[ty.Name()] = keys
	}
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	structs := 0
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			f, err := parser.ParseFile(token.NewFileSet(), n, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				var keys []string
				for _, fl := range st.Fields.List {
					if fl.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(fl.Tag.Value)
					if k, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ","); k != "" && k != "-" {
						keys = append(keys, k)
					}
				}
				if len(keys) > 0 {
					structs++
				}
				for name, lk := range lib {
					var same []string
					for _, k := range keys {
						if lk[k] {
							same = append(same, k)
						}
					}
					if len(same) >= 2 {
						t.Errorf("%s mirrors hookinstall.%s (keys %s): encode hookinstall.%s itself", ts.Name.Name, name, strings.Join(same, ", "), name)
					}
				}
				return true
			})
		}
	}
	if structs == 0 {
		t.Fatal("no struct with json tags found: the test reads the wrong folder")
	}
}
