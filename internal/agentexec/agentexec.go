// Package agentexec is the one place hookinstall finds and runs a program:
// an agent's (`--version`, for the version gate and --trust; doctor's
// questions: claude doctor, kimi doctor config, agy -p /hooks; Codex's
// app-server, JSON-RPC on stdio, for trust), our own hook scripts and
// plugins as doctor fires them, and tmux and tty(1) for init and run.
// (`hookinstall run` replaces itself with the user's command: that is the
// user's, not run here.)
//
// One policy for every run:
//   - the program is found on the caller's PATH (getenv("PATH")), never the
//     process's own, so a host and a test decide what is found; or it is
//     given by its path;
//   - the environment is fixed: PATH, HOME, LANG=C.UTF-8, TERM=dumb and
//     NO_COLOR=1, then the variables the question names (Cmd.Env), and
//     nothing else of the caller's;
//   - HOME is a fresh scratch folder, deleted afterwards, so that a program
//     reads no config of the user's and writes nothing of theirs. Only a
//     question about the user's own config names their HOME in Cmd.Env:
//     doctor's asks and fires (what the agent resolves from it, and our hooks
//     run as the agent runs them) and Codex's check of the trust just written
//     (which hooks.json it finds, trusted or not);
//   - it runs in its own process group (Session: its own session, with no
//     controlling terminal, as agents run hooks), killed whole at the
//     timeout, when ctx is cancelled, or (a JSON-RPC server) a second after
//     its answer when it does not exit on its own; and killed whole when it
//     ends, so that nothing it started is left when Run returns;
//   - Timeout bounds every run (a caller may bound it lower).
package agentexec

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Timeout bounds one run of an agent's program.
const Timeout = 20 * time.Second

// LookPath finds the program name on getenv("PATH").
func LookPath(getenv func(string) string, name string) (string, error) {
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && executable(fi) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on PATH", name)
}

// A Cmd is one program to run: a question to an agent's, or our hook.
type Cmd struct {
	Name string // the program: looked up on getenv("PATH"), or run as it is when it holds a slash
	Args []string
	// Env is added to the fixed environment (a HOME here replaces the
	// scratch one); "$SCRATCH" in a value stands for the scratch folder.
	Env []string
	// Files are written into the scratch folder, by name, before it runs.
	Files map[string][]byte
	Dir   string   // where it runs; "" is the scratch folder
	Input []byte   // its stdin
	Stdin *os.File // its stdin instead of Input: a terminal (tty(1) names it)
	// Stderr, when set, takes what it prints on stderr, and Out only stdout.
	Stderr io.Writer
	// Session runs it in a session of its own, with no controlling
	// terminal, as agents run hooks.
	Session bool
	// ReplyID makes it a JSON-RPC server on stdio: Input is written and
	// stdin kept open until the reply line whose id is ReplyID (Out).
	ReplyID int
	Timeout time.Duration // 0 is Timeout
}

// A Result is what one run said.
type Result struct {
	Path string // where Name was found; "" when it is not on PATH (Err says so)
	// Out is what it printed on stdout and stderr; with ReplyID, the reply.
	Out []byte
	// Err is why it could not run, or how it failed (an *exec.ExitError
	// for an exit status other than 0).
	Err     error
	Dur     time.Duration
	Scratch string // the scratch folder, its symlinks resolved (deleted by now)
}

// ErrScratch is Run's error when it has no scratch folder (an unusable
// TMPDIR): the program was not run.
var ErrScratch = errors.New("no scratch folder in the temporary folder")

// Run runs c: the program on getenv's PATH, or at its path.
func Run(ctx context.Context, getenv func(string) string, c Cmd) Result {
	r := Result{Path: c.Name}
	if filepath.Base(c.Name) == c.Name {
		if r.Path, r.Err = LookPath(getenv, c.Name); r.Err != nil {
			return r
		}
	}
	tmp, err := os.MkdirTemp("", "hookinstall-agent-")
	if err != nil {
		r.Err = fmt.Errorf("%w: %v; set TMPDIR to a folder you can write", ErrScratch, err)
		return r
	}
	defer os.RemoveAll(tmp)
	if r.Scratch, r.Err = filepath.EvalSymlinks(tmp); r.Err != nil {
		return r
	}
	for name, data := range c.Files {
		if r.Err = os.WriteFile(filepath.Join(r.Scratch, name), data, 0o600); r.Err != nil {
			return r
		}
	}
	timeout := cmp.Or(c.Timeout, Timeout)
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, r.Path, c.Args...)
	cmd.Env = []string{"PATH=" + cmp.Or(getenv("PATH"), "/usr/bin:/bin"), "HOME=" + r.Scratch, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1"}
	for _, kv := range c.Env {
		cmd.Env = append(cmd.Env, strings.ReplaceAll(kv, "$SCRATCH", r.Scratch))
	}
	cmd.Dir = cmp.Or(c.Dir, r.Scratch)
	group(cmd, c.Session)
	cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, syscall.SIGKILL) }
	// After it exits (or is killed), its output pipes get this long to
	// drain: only a program that leaves a child holding them waits it out.
	// (200 ms was too short on a loaded machine.)
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if c.ReplyID != 0 {
		r.Out, err = rpc(tctx, cmd, c.Input, c.ReplyID)
	} else {
		var out bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(c.Input), &out, &out
		if c.Stdin != nil {
			cmd.Stdin = c.Stdin
		}
		if c.Stderr != nil {
			cmd.Stderr = c.Stderr
		}
		err = cmd.Run()
		r.Out = out.Bytes()
	}
	r.Dur = time.Since(start)
	if cmd.Process != nil { // what it left running goes with it
		end(ctx, cmd.Process.Pid, timeout)
	}
	switch {
	case ctx.Err() != nil:
		r.Err = fmt.Errorf("stopped: %w", ctx.Err())
	case tctx.Err() != nil && (c.ReplyID == 0 || r.Out == nil):
		r.Err = fmt.Errorf("did not finish within %s (killed)", timeout)
	default:
		r.Err = err
	}
	return r
}

// end kills process group pgid, and waits until none of it is left (for
// at most wait, or until ctx is done): nothing it started writes anything
// after Run returns. A killed process counts until it is reaped, which for
// one whose parent is gone is init's doing; the group is usually empty
// already, its leader reaped by Wait.
func end(ctx context.Context, pgid int, wait time.Duration) {
	_ = signalGroup(pgid, syscall.SIGKILL)
	deadline := time.Now().Add(wait)
	for signalGroup(pgid, 0) == nil && ctx.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// rpc runs cmd as a JSON-RPC server on stdio: it writes input, and reads
// stdout a line at a time up to the reply whose id is want. Then stdin is
// closed, and a server that does not exit at the end of its input is
// killed, with its process group, a second later.
func rpc(ctx context.Context, cmd *exec.Cmd, input []byte, want int) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var reply []byte
	answered, drained := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var m struct {
				ID *int `json:"id"`
			}
			if reply == nil && json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil && *m.ID == want {
				reply = append([]byte(nil), sc.Bytes()...)
				close(answered)
			}
		}
		_, _ = io.Copy(io.Discard, out) // until it exits
	}()
	go func() { _, _ = in.Write(input) }()
	select {
	case <-answered:
	case <-drained:
	case <-ctx.Done():
	}
	in.Close()
	kill := time.AfterFunc(time.Second, func() { _ = signalGroup(cmd.Process.Pid, syscall.SIGKILL) })
	<-drained
	_ = cmd.Wait()
	kill.Stop()
	if reply == nil {
		// stderr is read only now: exec copies it until Wait returns
		return nil, fmt.Errorf("exited without answering%s", stderrTail(stderr.Bytes()))
	}
	return reply, nil
}

// stderrTail is the last line the program printed on stderr, for an error.
func stderrTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return ""
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return " (" + s + ")"
}

// A Version is what a program said to `--version`.
type Version struct {
	Path string // where it was found; "" when it is not on PATH
	Out  string // what it printed
	Err  error  // why it could not be asked, or how it failed
	// Kept: said to an earlier run, and kept on disk. A wrapper's bytes do
	// not change when the binary behind it does, so a caller acts on a
	// kept answer only where it would not refuse: it asks again (Fresh).
	Kept bool
}

// Versions asks each program its version once for one call (of an
// Installer: add's version gate and its --trust take the same answer),
// however many ask at once: one flight per program, and no lock held while
// a program runs. An answer that a cancelled ctx stopped is not kept. The
// zero value is ready to use; a nil *Versions asks each time.
//
// Beneath it, an answer is kept on disk (the user's cache folder) for a
// day, keyed by the binary's path, size and modification time, so that a
// program is started again only when its binary changed (or one behind a
// wrapper: Version.Kept).
type Versions struct {
	mu      sync.Mutex
	flights map[string]*flight
}

type flight struct {
	done    chan struct{}
	v       Version
	stopped bool // by its asker's ctx: the next asker asks again
}

// Ask runs `name --version`, with CI=1 (no prompt, no update check), or
// returns what it said when asked before (with a Fresh ctx, never: the
// answer replaces what was kept).
func (vs *Versions) Ask(ctx context.Context, getenv func(string) string, name string) Version {
	path, err := LookPath(getenv, name)
	if err != nil {
		return Version{Err: err}
	}
	if vs == nil {
		return askVersion(ctx, getenv, path)
	}
	for {
		vs.mu.Lock()
		f := vs.flights[path]
		if f != nil && ctx.Value(freshKey{}) != nil && f.v.Kept {
			f = nil // asked again, in a flight of its own
		}
		if f == nil {
			f = &flight{done: make(chan struct{})}
			if vs.flights == nil {
				vs.flights = map[string]*flight{}
			}
			vs.flights[path] = f
			vs.mu.Unlock()
			f.v = askVersion(ctx, getenv, path)
			if f.stopped = ctx.Err() != nil; f.stopped {
				vs.mu.Lock()
				delete(vs.flights, path)
				vs.mu.Unlock()
			}
			close(f.done)
			return f.v
		}
		vs.mu.Unlock()
		select {
		case <-f.done:
			if !f.stopped {
				return f.v
			}
		case <-ctx.Done():
			return Version{Path: path, Err: fmt.Errorf("stopped: %w", ctx.Err())}
		}
	}
}

type (
	sayKey   struct{}
	freshKey struct{}
)

// Fresh returns ctx, under which Versions.Ask runs the program whatever it
// said before.
func Fresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

// Waiting returns ctx with say, which Versions.Ask tells what it is waiting
// on when a program takes more than a second to say its version.
func Waiting(ctx context.Context, say func(string)) context.Context {
	return context.WithValue(ctx, sayKey{}, say)
}

// askVersion asks the program at path its version, or takes the answer
// kept on disk for this binary.
func askVersion(ctx context.Context, getenv func(string) string, path string) Version {
	file := cacheFile(getenv)
	key, err := binaryKey(path)
	if a, ok := readCache(file)[path]; err == nil && ok && a.Key == key && time.Since(a.At) < keep && ctx.Value(freshKey{}) == nil {
		return Version{Path: path, Out: a.Out, Kept: true}
	}
	if say, ok := ctx.Value(sayKey{}).(func(string)); ok {
		t := time.AfterFunc(time.Second, func() {
			say(fmt.Sprintf("waiting for %s --version (asked once, until the binary changes)", filepath.Base(path)))
		})
		defer t.Stop()
	}
	r := Run(ctx, getenv, Cmd{Name: path, Args: []string{"--version"}, Env: []string{"CI=1"}})
	if r.Err == nil && err == nil {
		writeCache(file, path, answer{Key: key, Out: string(r.Out), At: time.Now()})
	}
	return Version{Path: r.Path, Out: string(r.Out), Err: r.Err}
}

// The answers kept on disk: one JSON file in the user's cache folder,
// $XDG_CACHE_HOME/hookinstall, else ~/.cache/hookinstall. A file that is
// not one of ours (its kind differs) or does not parse is taken as empty,
// and replaced at the next answer.
const cacheKind = "hookinstall: what each agent's program said to --version, by path"

type cacheDoc struct {
	Kind    string            `json:"kind"`
	Answers map[string]answer `json:"answers"`
}

type answer struct {
	Key string    `json:"key"` // the binary's size and modification time
	Out string    `json:"out"`
	At  time.Time `json:"at"` // when it was said: an answer is kept a day
}

// keep is how long an answer is kept.
const keep = 24 * time.Hour

// cacheMu keeps one process's writers of the cache from losing each
// other's answers (another process's may: that answer is asked again).
var cacheMu sync.Mutex

func cacheFile(getenv func(string) string) string {
	dir := getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(dir) {
		if dir = getenv("HOME"); !filepath.IsAbs(dir) {
			return ""
		}
		dir = filepath.Join(dir, ".cache")
	}
	return filepath.Join(dir, "hookinstall", "versions.json")
}

// binaryKey is what tells one binary at path from the next one there: its
// size and modification time, and where path is a symbolic link (npm's
// bin folder), the link's own time too, for npm gives the files it unpacks
// one fixed time.
func binaryKey(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano())
	if li, err := os.Lstat(path); err == nil && li.Mode()&os.ModeSymlink != 0 {
		key += fmt.Sprintf(" link %d", li.ModTime().UnixNano())
	}
	return key, nil
}

func readCache(file string) map[string]answer {
	var d cacheDoc
	if b, err := os.ReadFile(file); file == "" || err != nil || json.Unmarshal(b, &d) != nil || d.Kind != cacheKind {
		return nil
	}
	return d.Answers
}

// writeCache keeps a for path, writing the file whole (a temporary file
// renamed over it); a failure only means the program is asked next time.
func writeCache(file, path string, a answer) {
	if file == "" {
		return
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	d := cacheDoc{Kind: cacheKind, Answers: readCache(file)}
	if d.Answers == nil {
		d.Answers = map[string]answer{}
	}
	d.Answers[path] = a
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil || os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(file), ".versions-*")
	if err != nil {
		return
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err != nil || cerr != nil || os.Rename(f.Name(), file) != nil {
		os.Remove(f.Name())
	}
}
