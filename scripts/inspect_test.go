//go:build unix

package scripts

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/terminal"

	"mvdan.cc/sh/v3/syntax"
)

// allSpecs is every kind of script the package can render: each transport,
// rule and guard, for each state.
func allSpecs() []Spec {
	var specs []Spec
	for _, tr := range []Transport{Stdout, PTY} {
		for _, rule := range []Rule{Always, NonEmptyBackgroundTasks, PermissionPrompt, FieldEquals, FieldTrue, FieldCases} {
			for _, quiet := range [][]string{nil, {"GROK_HOOK_EVENT"}} {
				for _, st := range terminal.States() {
					s := Spec{Install: Install{NS: "my-host", Agent: "agent"}, Event: "SomeEvent", State: st,
						Transport: tr, Rule: rule, Quiet: quiet}
					if rule == FieldEquals {
						s.Field, s.Value = "notification_type", "permission_prompt"
					}
					if rule == FieldTrue {
						s.Field = "is_interrupt"
					}
					if rule == FieldCases {
						s.Field, s.Cases = "notification_type", []Case{{"permission_prompt", st}, {"idle_prompt", terminal.Interrupted}}
					}
					specs = append(specs, s)
				}
			}
		}
	}
	return specs
}

func render(t *testing.T, s Spec) []byte {
	t.Helper()
	b, err := Render(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func specName(s Spec) string {
	return fmt.Sprintf("transport%d-rule%d-guard%v-%s", s.Transport, s.Rule, len(s.Quiet) > 0, s.State)
}

// forbiddenText are constructs no template may hold, even in a comment-free
// line: evaluation, command substitution, sourcing, file creation, the
// controlling tty, network tools, raw escape bytes.
var forbiddenText = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`\beval\b`), "eval"},
	{regexp.MustCompile("`"), "backquote command substitution"},
	{regexp.MustCompile(`\$\([^(]`), "command substitution"},
	{regexp.MustCompile(`(^|[;&|]\s*)\.\s`), "sourcing a file"},
	{regexp.MustCompile(`\b(source|exec|command|trap|alias)\b`), "indirect execution"},
	{regexp.MustCompile(`/dev/tty`), "the controlling tty (absent under agents: ENXIO)"},
	{regexp.MustCompile(`\b(touch|mkdir|mktemp|tee|cat|cp|mv|rm|ln|dd|curl|wget|nc|sh|bash|env|xargs)\b`), "an external program"},
	{regexp.MustCompile(`>>|<>|>\|`), "appending or read-write redirection"},
	{regexp.MustCompile("[\x1b\x07]"), "a raw escape or bell byte"},
	{regexp.MustCompile(`\b(decision|permissionDecision|continue|"async")\b`), "a control field"},
}

// quotedText is a single-quoted word.
var quotedText = regexp.MustCompile(`'[^']*'`)

// TestTemplatesHaveNoForbiddenConstructs reads every template file.
func TestTemplatesHaveNoForbiddenConstructs(t *testing.T) {
	n := 0
	err := fs.WalkDir(templates, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := templates.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				if bytes.ContainsAny([]byte(line), "\x1b\x07") {
					t.Errorf("%s:%d: raw escape byte in a comment", p, i+1)
				}
				continue
			}
			if strings.TrimSpace(line) == `. "${0%/*}/{{.Runtime}}"` {
				continue // the hooks' one source: the install's runtime, beside them
			}
			code := quotedText.ReplaceAllString(line, "''") // what a single-quoted word says is data
			for _, f := range forbiddenText {
				if f.re.MatchString(code) {
					t.Errorf("%s:%d: %s: %s", p, i+1, f.why, line)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no templates found")
	}
}

// allowedCommands are the only commands a generated script may run: shell
// builtins, none of which runs or evaluates anything; a hook's "." sources
// its install's runtime alone, the runtime's tmux sets the pane's option
// alone, and its kill -0 asks whether the record's agent lives (each
// checked below).
var allowedCommands = map[string]bool{"[": true, "printf": true, "exit": true, "set": true, "shift": true, "read": true, "break": true,
	".": true, "tmux": true, "kill": true}

// runtimeSpecs are runtimes of every transport and of an agent that shows
// some of it by itself, each for every state.
func runtimeSpecs() [][]Spec {
	var sets [][]Spec
	for _, tr := range []Transport{Stdout, PTY} {
		for _, own := range []*terminal.Own{nil, ownLike} {
			var specs []Spec
			for _, st := range terminal.States() {
				specs = append(specs, Spec{Install: Install{NS: "my-host", Agent: "agent"}, Event: "E", State: st, Transport: tr, Own: own, Product: "Agent"})
			}
			sets = append(sets, specs)
		}
	}
	return sets
}

// TestGeneratedScriptsSyntax parses every rendered script and runtime as
// POSIX sh and walks it: every command is a literal builtin from
// allowedCommands; no command substitution, subshell, pipeline, background
// job, function or here document; the payload is read only by "read -r
// line" and only split (with globbing off) by "set --", never in command
// position; a hook's only redirections are 2>/dev/null and >"$tty"
// (guarded by [ -c "$tty" ]), and it sources nothing but the runtime
// beside it; the runtime writes only to $tty (Claude's behind [ ! -c "$tty"
// ] ||), to its record ($f), and reads the record and the agent's
// /proc/PID/stat.
func TestGeneratedScriptsSyntax(t *testing.T) {
	for _, spec := range allSpecs() {
		b := render(t, spec)
		t.Run(specName(spec), func(t *testing.T) {
			if !bytes.HasPrefix(b, []byte("#!/bin/sh\n")) {
				t.Error("does not start with #!/bin/sh")
			}
			sawTTYGuard := walkScript(t, b, false)
			if spec.Transport == PTY && !sawTTYGuard {
				t.Error(`no [ -c "$tty" ] guard`)
			}
			if !strings.Contains(string(b), "set -f\n") && strings.Contains(string(b), "set -- $payload") {
				t.Error("payload split with globbing on")
			}
		})
	}
	for i, specs := range runtimeSpecs() {
		b, err := Runtime(specs...)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint("runtime", i), func(t *testing.T) {
			// the pty agents' hooks guard $tty before they source it
			if sawTTYGuard := walkScript(t, b, true, specs[0].Transport == PTY); specs[0].Transport == Stdout && !sawTTYGuard {
				t.Error(`Claude's runtime writes to the pty with no [ ! -c "$tty" ] guard`)
			}
		})
	}
}

// walkScript checks one script (a runtime when runtime) as
// TestGeneratedScriptsSyntax says, and reports whether it saw a guard on
// $tty before writing to it (guarded: one before it, as a pty agent's hook
// has before it sources the runtime).
func walkScript(t *testing.T, b []byte, runtime bool, guarded ...bool) bool {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(bytes.NewReader(b), "hook.sh")
	if err != nil {
		t.Fatalf("not POSIX sh: %v\n%s", err, b)
	}
	sawTTYGuard := len(guarded) > 0 && guarded[0]
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.Subshell, *syntax.FuncDecl, *syntax.DeclClause,
			*syntax.TimeClause, *syntax.CoprocClause, *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd:
			t.Errorf("%s: forbidden construct %T", n.Pos(), n)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				t.Errorf("%s: pipeline", n.Pos())
			}
		case *syntax.Stmt:
			if n.Background || n.Coprocess {
				t.Errorf("%s: background job", n.Pos())
			}
			for _, r := range n.Redirs {
				target := wordText(r.Word)
				switch {
				case r.Op == syntax.RdrOut && r.N != nil && r.N.Value == "2" && target == "/dev/null":
				case r.Op == syntax.RdrOut && r.N == nil && target == `"$tty"`:
					if !sawTTYGuard {
						t.Errorf("%s: writes to $tty before [ -c \"$tty\" ]", r.Pos())
					}
				case runtime && r.Op == syntax.RdrOut && r.N == nil && (target == `"$f"` || target == "/dev/null"):
				case runtime && r.Op == syntax.RdrIn && (target == `"$f"` || target == `"/proc/$pid/stat"`):
				case runtime && r.Op == syntax.DplOut && r.N != nil && r.N.Value == "2" && target == "1":
				default:
					t.Errorf("%s: forbidden redirection %s %s", r.Pos(), r.Op, target)
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true // assignments only
			}
			name, ok := literal(n.Args[0])
			if !ok || !allowedCommands[name] {
				t.Errorf("%s: command %q is not an allowed builtin", n.Pos(), wordText(n.Args[0]))
				return true
			}
			args := make([]string, len(n.Args))
			for i, a := range n.Args {
				args[i] = wordText(a)
			}
			line := strings.Join(args, " ")
			switch name {
			case "[":
				if line == `[ -c "$tty" ] || exit 0` || line == `[ -c "$tty" ]` || line == `[ ! -c "$tty" ]` {
					sawTTYGuard = true
				}
			case ".":
				if runtime || line != `. "${0%/*}/`+RuntimeName+`"` {
					t.Errorf("%s: sources other than the runtime beside it: %s", n.Pos(), line)
				}
			case "kill":
				if !runtime || line != `kill -0 "${s#pid=}"` {
					t.Errorf("%s: kill other than the record's check that its agent lives: %s", n.Pos(), line)
				}
			case "tmux":
				if !runtime || !strings.HasPrefix(line, `tmux set-option -pq -t "$pane" @`) {
					t.Errorf("%s: tmux in a form the record does not use: %s", n.Pos(), line)
				}
			case "read":
				if line != "read -r line" && !(runtime && slices.Contains([]string{"read -r l", "read -r n", "read -r s"}, line)) {
					t.Errorf("%s: read other than 'read -r line': %s", n.Pos(), line)
				}
			case "set":
				if line != "set -f" && line != "set -- $payload" && !(runtime && line == "set -- ${s##*) }") {
					t.Errorf("%s: unexpected set: %s", n.Pos(), line)
				}
			case "printf":
				if len(n.Args) < 2 {
					t.Errorf("%s: printf without a format", n.Pos())
				} else if _, ok := literal(n.Args[1]); !ok && !(runtime && slices.Contains([]string{`"$x"`, `"$p$x"`}, wordText(n.Args[1]))) {
					t.Errorf("%s: printf format is not a literal: %s", n.Pos(), line)
				}
			}
		}
		return true
	})
	return sawTTYGuard
}

// literal returns the text of a word with no expansion in it.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

func wordText(w *syntax.Word) string {
	var b bytes.Buffer
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// shellcheckPath finds shellcheck, failing under CI when it is missing and
// skipping loudly otherwise.
func shellcheckPath(t *testing.T) string {
	p, err := exec.LookPath("shellcheck")
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" && os.Getenv("CI") != "false" {
		t.Fatal("shellcheck is not installed and CI is set: .ci/run must install it (apt-get install -y shellcheck)")
	}
	t.Skip("SKIPPING: shellcheck is not installed (apt-get install -y shellcheck); CI fails without it")
	return ""
}

// TestShellcheck runs shellcheck -s sh on every kind of generated script,
// with the runtime beside it, which it follows (-x); of the states, working
// and done (the word sh knows as a keyword) are enough: the others differ
// by their words alone.
func TestShellcheck(t *testing.T) {
	sc := shellcheckPath(t)
	var files []string
	for _, spec := range allSpecs() {
		if spec.State != terminal.Working && spec.State != terminal.Done {
			continue
		}
		dir := filepath.Join(t.TempDir(), "hooks")
		must(t, os.Mkdir(dir, 0o755))
		rt, err := Runtime(spec)
		must(t, err)
		p := filepath.Join(dir, specName(spec)+".sh")
		must(t, os.WriteFile(filepath.Join(dir, RuntimeName), rt, 0o755))
		must(t, os.WriteFile(p, render(t, spec), 0o755))
		files = append(files, p)
	}
	out, err := exec.Command(sc, append([]string{"-s", "sh", "-S", "style", "-x", "-P", "SCRIPTDIR"}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("shellcheck -s sh: %v\n%s", err, out)
	}
}

// TestPTYScriptsNeverCreateOrWriteElsewhere runs every PTY-transport script
// under dash, gate set, with the PTY variable naming a regular file, a
// directory, a FIFO, a symlink to a missing file and a missing path: each
// exits 0, prints nothing, does not block on the FIFO, and leaves the whole
// scratch tree (mtimes included) as it was.
func TestPTYScriptsNeverCreateOrWriteElsewhere(t *testing.T) {
	dash, err := exec.LookPath("dash")
	if err != nil {
		if os.Getenv("CI") != "" && os.Getenv("CI") != "false" {
			t.Fatal("dash is not installed and CI is set")
		}
		t.Skip("SKIPPING: dash is not installed")
	}
	payloads := []string{"", `{"background_tasks":[{"id":1}],"notificationType":"permission_prompt","notification_type":"permission_prompt"}`,
		`{"notificationType":"$(touch pwned)","notification_type":"$(touch pwned4)","background_tasks":"; touch pwned2"}` + "\n`touch pwned3`\n*"}
	for _, spec := range allSpecs() {
		if spec.Transport != PTY {
			continue
		}
		b := render(t, spec)
		t.Run(specName(spec), func(t *testing.T) {
			root := t.TempDir()
			script := filepath.Join(root, "hook.sh")
			if err := os.WriteFile(script, b, 0o755); err != nil {
				t.Fatal(err)
			}
			work := filepath.Join(root, "work")
			must(t, os.Mkdir(work, 0o755))
			must(t, os.WriteFile(filepath.Join(work, "regular"), []byte("keep\n"), 0o644))
			must(t, os.Mkdir(filepath.Join(work, "dir"), 0o755))
			must(t, syscall.Mkfifo(filepath.Join(work, "fifo"), 0o644))
			must(t, os.Symlink("nothing-here", filepath.Join(work, "dangling")))
			for _, name := range []string{"regular", "dir", "fifo", "dangling", "missing", "dir/missing"} {
				for _, payload := range payloads {
					before := tree(t, root)
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					cmd := exec.CommandContext(ctx, dash, script)
					cmd.Dir = work
					cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + work, "TMPDIR=" + work,
						terminal.TaskVar(spec.NS) + "=task-1", terminal.PTYVar(spec.NS) + "=" + filepath.Join(work, name)}
					cmd.Stdin = strings.NewReader(payload)
					var out bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &out
					err := cmd.Run()
					blocked := ctx.Err() == context.DeadlineExceeded
					cancel()
					if blocked {
						t.Fatalf("PTY=%s: the script blocked", name)
					}
					if err != nil || out.Len() != 0 {
						t.Fatalf("PTY=%s: err %v, output %q", name, err, out.String())
					}
					if after := tree(t, root); after != before {
						t.Fatalf("PTY=%s payload %q: the tree changed:\nbefore:\n%s\nafter:\n%s", name, payload, before, after)
					}
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tree describes every node under root: name, mode, size, mtime, content.
func tree(t *testing.T, root string) string {
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %d", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			c, _ := os.ReadFile(p)
			fmt.Fprintf(&b, " %q", c)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
