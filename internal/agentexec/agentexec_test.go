//go:build unix

package agentexec

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// notAgents are the production files that may start or look up a program
// themselves, because none of them runs an agent's program as a question
// to it. Everything else goes through this package.
var notAgents = map[string]string{
	// `run` execs the user's own command line with their whole
	// environment, replacing itself
	"cmd/hookinstall/init.go": "the user's command",
	// `watch --exec` runs the user's own command line for each session
	// that comes to wait, with their environment and the session's
	"cmd/hookinstall/sessions.go": "the user's command",
	// the benchmark tool times hookinstall itself and jq; it is not shipped
	"internal/bench/": "a development tool",
	// the tests' private tmux server; not shipped either
	"internal/ptytest/": "a test helper",
}

// TestOnlyHereRunsAgents fails when a production file outside this package
// calls exec.Command, exec.CommandContext or exec.LookPath, or searches PATH
// itself, unless notAgents names it.
func TestOnlyHereRunsAgents(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "internal/agentexec" || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || exempt(rel) {
			return nil
		}
		for _, call := range execCalls(t, path) {
			t.Errorf("%s: %s: agents' programs are found and run by internal/agentexec only (or name the file in notAgents, with why)", rel, call)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func exempt(rel string) bool {
	for p := range notAgents {
		if rel == p || strings.HasSuffix(p, "/") && strings.HasPrefix(rel, p) {
			return true
		}
	}
	return false
}

// banned are the calls that start a program or search PATH for one (a
// PATH search by hand splits it with filepath.SplitList), by package.
var banned = map[string][]string{
	"os/exec":       {"Command", "CommandContext", "LookPath"},
	"path/filepath": {"SplitList"},
}

// execCalls lists the banned calls in the file at path.
func execCalls(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{} // the name a file gives a package: its banned calls
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if calls, ok := banned[p]; ok {
			name := filepath.Base(p)
			if im.Name != nil {
				name = im.Name.Name
			}
			names[name] = calls
		}
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && slices.Contains(names[x.Name], s.Sel.Name) {
				found = append(found, fset.Position(s.Pos()).String()+" "+x.Name+"."+s.Sel.Name)
			}
		}
		return true
	})
	return found
}

// TestRunPolicy: a program runs with the fixed environment and a scratch
// HOME (holding Files, named by $SCRATCH, deleted afterwards), nothing of
// the caller's, and nothing it started outlives the run.
func TestRunPolicy(t *testing.T) {
	bin, out := t.TempDir(), t.TempDir()
	script := "#!/bin/sh\nenv | sort\ncat \"$HOME/f\"\nsleep 60 >/dev/null 2>&1 &\necho $! >" + out + "/pid\n"
	if err := os.WriteFile(filepath.Join(bin, "agent"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		return map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": "/home/user", "SECRET": "x"}[k]
	}
	r := Run(context.Background(), getenv, Cmd{Name: "agent", Env: []string{"X=$SCRATCH/x"}, Files: map[string][]byte{"f": []byte("file\n")}})
	if r.Err != nil || r.Path != filepath.Join(bin, "agent") {
		t.Fatalf("Run = %q, %v", r.Path, r.Err)
	}
	var env []string
	for _, l := range strings.Split(strings.TrimSpace(string(r.Out)), "\n") {
		if k, _, _ := strings.Cut(l, "="); k != "PWD" && k != "SHLVL" && k != "_" { // sh's own
			env = append(env, l)
		}
	}
	want := []string{"HOME=" + r.Scratch, "LANG=C.UTF-8", "NO_COLOR=1", "PATH=" + bin + ":/usr/bin:/bin", "TERM=dumb", "X=" + r.Scratch + "/x", "file"}
	if !slices.Equal(env, want) {
		t.Errorf("it saw\n%s\nwant\n%s", strings.Join(env, "\n"), strings.Join(want, "\n"))
	}
	if _, err := os.Stat(r.Scratch); !os.IsNotExist(err) {
		t.Errorf("the scratch HOME %s is still there", r.Scratch)
	}
	b, err := os.ReadFile(filepath.Join(out, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	alive := func() bool { // a zombie is dead: init reaps it in its own time
		st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return syscall.Kill(pid, 0) == nil && !strings.Contains(string(st), ") Z ")
	}
	for i := 0; alive(); i++ {
		if i == 100 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("what it started in the background outlived the run")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
