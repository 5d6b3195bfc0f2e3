//go:build unix

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// Custom testscript commands for hostile input: they build fixtures txtar
// cannot hold and prove that a refused run wrote nothing anywhere.

var (
	snapMu sync.Mutex
	snaps  = map[string]treesnap.Tree{} // workdir + name -> tree
)

// snaptree DIR NAME: remember everything under DIR as NAME.
func cmdSnaptree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snaptree DIR NAME")
	}
	d, err := treesnap.Take(ts.MkAbs(args[0]), treesnap.Options{Times: true})
	ts.Check(err)
	snapMu.Lock()
	snaps[ts.Getenv("WORK")+"\x00"+args[1]] = d
	snapMu.Unlock()
}

// cmpsnaptree DIR NAME: nothing under DIR was created, deleted, written,
// renamed, re-moded or touched since snaptree NAME (directory mtimes
// included, so not even a temp file came and went).
func cmdCmpsnaptree(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpsnaptree DIR NAME")
	}
	snapMu.Lock()
	want, ok := snaps[ts.Getenv("WORK")+"\x00"+args[1]]
	snapMu.Unlock()
	if !ok {
		ts.Fatalf("no snapshot %s", args[1])
	}
	got, err := treesnap.Take(ts.MkAbs(args[0]), treesnap.Options{Times: true})
	ts.Check(err)
	diff := treesnap.Diff(want, got)
	if (diff == "") == neg {
		if neg {
			ts.Fatalf("%s is unchanged since snapshot %s", args[0], args[1])
		}
		ts.Fatalf("%s changed since snapshot %s:\n%s", args[0], args[1], diff)
	}
}

// mkfifo PATH: make a named pipe.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
}

// bigjson FILE MB: a valid JSON object of about MB megabytes.
func cmdBigjson(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bigjson FILE MB")
	}
	mb, err := strconv.Atoi(args[1])
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	w := bufio.NewWriter(f)
	w.WriteString("{\n  \"model\": \"opus\",\n  \"padding\": \"")
	line := strings.Repeat("x", 1023)
	for i := 0; i < mb*1024; i++ {
		w.WriteString(line)
		w.WriteByte(' ')
	}
	w.WriteString("\"\n}\n")
	ts.Check(w.Flush())
	ts.Check(f.Close())
}

// nestjson FILE DEPTH: {"deep": [[[...]]]} with DEPTH nested arrays.
func cmdNestjson(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: nestjson FILE DEPTH")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	s := "{\"model\": \"opus\", \"deep\": " + strings.Repeat("[", n) + strings.Repeat("]", n) + "}\n"
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(s), 0o644))
}

// chown UID PATH: give PATH to another user (needs root).
func cmdChown(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: chown UID PATH")
	}
	uid, err := strconv.Atoi(args[0])
	ts.Check(err)
	ts.Check(os.Lchown(ts.MkAbs(args[1]), uid, uid))
}

// TestHostileCoversMalformedCorpus: every malformed file of our own corpus,
// and of the full corpus when it is there, is one of the hostile cases, so a
// file added there is not missed.
func TestHostileCoversMalformedCorpus(t *testing.T) {
	shared, err := sharedCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, env, prefix string }{
		{ownCorpus(), "CORPUS", "hostile_malformed_own"},
		{shared, "SHARED_CORPUS", "hostile_malformed_corpus"},
	} {
		if c.dir == "" {
			t.Logf("no full corpus: %s*.txtar not checked", c.prefix)
			continue
		}
		files, err := filepath.Glob(filepath.Join(c.dir, "malformed", "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no malformed corpus under %s: %v", c.dir, err)
		}
		for _, script := range []string{c.prefix + ".txtar", c.prefix + "_agents.txtar", c.prefix + "_gemini_qwen.txtar"} {
			b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "script", script))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if !strings.Contains(string(b), "cp $"+c.env+"/malformed/"+filepath.Base(f)+" ") {
					t.Errorf("%s does not try malformed/%s", script, filepath.Base(f))
				}
			}
		}
	}
}
