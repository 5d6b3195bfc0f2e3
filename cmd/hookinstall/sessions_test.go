package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/ptytest"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TestDue: --exec runs once per waiting episode that lasts --after: not
// for one that resumed within it, not twice for one still waiting, again
// for a new episode of the same session.
func TestDue(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	waiting := func(since time.Time) []hookinstall.Session {
		return []hookinstall.Session{{Agent: "claude", State: hookinstall.Attention, Since: since, TTY: "/dev/pts/3"},
			{Agent: "gemini", State: hookinstall.Working, Since: t0, TTY: "/dev/pts/4"}}
	}
	fired := map[string]time.Time{}
	for _, c := range []struct {
		ss       []hookinstall.Session
		now      time.Time
		runs     int
		wait     time.Duration
		scenario string
	}{
		{waiting(t0), t0.Add(200 * time.Millisecond), 0, 800 * time.Millisecond, "waiting 0.2 s of 1 s"},
		{waiting(t0)[1:], t0.Add(900 * time.Millisecond), 0, 0, "resumed within the second: forgotten"},
		{waiting(t0.Add(time.Second)), t0.Add(2 * time.Second), 1, 0, "a new episode, 1 s in: due now"},
	} {
		run, wait := due(c.ss, fired, time.Second, c.now)
		if len(run) != c.runs || wait != c.wait {
			t.Errorf("%s: %d runs, wait %s; want %d, %s", c.scenario, len(run), wait, c.runs, c.wait)
		}
	}
	if run, _ := due(waiting(t0.Add(time.Second)), fired, time.Second, t0.Add(3*time.Second)); len(run) != 0 {
		t.Error("ran twice for one episode")
	}
	if run, _ := due(waiting(t0.Add(5*time.Second)), fired, time.Second, t0.Add(7*time.Second)); len(run) != 1 {
		t.Error("did not run for a later episode of the same session")
	}
}

// TestShortFits: the status line holds at most 40 columns, whatever the
// counts.
func TestShortFits(t *testing.T) {
	var ss []hookinstall.Session
	for _, st := range hookinstall.States() {
		for i := 0; i < 120; i++ {
			ss = append(ss, hookinstall.Session{State: st})
		}
	}
	if s := short(ss); len(s) > 40 || s == "" {
		t.Errorf("%q: %d columns", s, len(s))
	}
	// each state in a word a reader knows, not its first four letters
	ss = ss[:0]
	for _, st := range hookinstall.States() {
		ss = append(ss, make([]hookinstall.Session, 12)...)
		for i := len(ss) - 12; i < len(ss); i++ {
			ss[i].State = st
		}
	}
	if got, want := short(ss), "12 work 12 wait 12 done 12 stop"; got != want {
		t.Errorf("short = %q, want %q", got, want)
	}
}

// TestJumpSelectsWaitingPane: a private tmux server with three windows, an
// agent waiting in window 2: jump, run from window 0, makes window 2 and
// its pane the active ones.
func TestJumpSelectsWaitingPane(t *testing.T) {
	tm := ptytest.StartTmux(t)
	tm.Run("new-window", "-t", "s:1", "exec sleep 86400")
	pane := tm.Run("new-window", "-P", "-F", "#{pane_id}", "-t", "s:2", "exec sleep 86400")
	tm.Run("select-window", "-t", "s:0")
	rundir := t.TempDir()
	writeRecord(t, rundir, map[string]string{"state": "attention", "agent": "claude", "folder": "repo", "tty": "/dev/pts/9", "mux": "tmux", "pane": pane, "server": tm.Sock})
	env := map[string]string{"HOME": t.TempDir(), "PATH": os.Getenv("PATH"), "XDG_RUNTIME_DIR": rundir, "TMUX": tm.Sock + ",1,0"}
	if got := tm.Run("display-message", "-p", "-t", "s:", "#{window_index} #{pane_id}"); got != "0 "+tm.Run("display-message", "-p", "-t", "s:0", "#{pane_id}") {
		t.Fatalf("before: %s", got)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"jump"}, nil, &out, &errb, func(k string) string { return env[k] }); code != 0 {
		t.Fatalf("jump: exit %d: %s %s", code, out.String(), errb.String())
	}
	if got := tm.Run("display-message", "-p", "-t", "s:", "#{window_index} #{pane_id}"); got != "2 "+pane {
		t.Errorf("after jump the active window and pane are %s, want 2 %s", got, pane)
	}
}

// TestWatchRunsOncePerEpisode: watch --after 1s --exec CMD over two
// sessions that start waiting: one resumes before it is due (CMD never runs
// for it), the other waits on (CMD runs for it, its agent and state in the
// environment).
func TestWatchRunsOncePerEpisode(t *testing.T) {
	rundir := t.TempDir()
	rec := func(tty, agent, state string) string {
		return writeRecord(t, rundir, map[string]string{"state": state, "agent": agent, "folder": "repo", "tty": "/dev/pts/" + tty})
	}
	// the gemini waits from an hour on (its file's time): never due in this test
	if g := rec("1", "gemini", "attention"); os.Chtimes(g, time.Now(), time.Now().Add(time.Hour)) != nil {
		t.Fatal("chtimes")
	}
	rec("2", "claude", "attention")
	rec("3", "kimi", "attention")
	env := map[string]string{"HOME": t.TempDir(), "XDG_RUNTIME_DIR": rundir}
	out, errb := &listing{}, &listing{}
	o := &sessionsOptions{globalOptions: &globalOptions{IO: IO{Out: out, Err: errb}, Getenv: func(k string) string { return env[k] }},
		After: time.Second, Exec: `echo "ran for $HOOKINSTALL_AGENT $HOOKINSTALL_STATE$HOOKINSTALL_UNSURE"`} // on watch's stdout
	await, stop := startWatch(t, o, out, errb)
	await(out, `(?m)^gemini +waiting`, "it listed the gemini waiting")
	rec("1", "gemini", "working") // resumed before it was due
	await(out, `(?m)^ran for kimi`, "CMD ran for the kimi that kept waiting")
	await(out, `(?m)^ran for claude`, "CMD ran for the claude that kept waiting")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// Claude may have left its attention unsaid (Esc at its prompt): CMD is told
	ran := regexp.MustCompile(`(?m)^ran for .*$`).FindAllString(out.String(), -1)
	if slices.Sort(ran); strings.Join(ran, "|") != "ran for claude attention?|ran for kimi attention" {
		t.Errorf("CMD ran %q, want once for the waiting claude (unsure) and once for the kimi", ran)
	}
	// the list, with its time, once at the start and once for the change:
	// not once per file event (review 2026-12-06, bug 8)
	if n := len(regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d$`).FindAllString(out.String(), -1)); n != 2 {
		t.Errorf("watch printed the list %d times, want 2:\n%s", n, out.String())
	}
}

// writeRecord writes a whole record of fields into the records' folder
// under rundir (made as init makes it): the lines of terminal.RecordFields
// (pid this process's), then terminal.RecordEnd, in the file of its tty's
// name. It returns its path.
func writeRecord(t *testing.T, rundir string, fields map[string]string) string {
	t.Helper()
	dir := filepath.Join(rundir, "hookinstall")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fields["pid"] = strconv.Itoa(os.Getpid())
	var b strings.Builder
	for _, k := range terminal.RecordFields {
		b.WriteString(k + "=" + fields[k] + "\n")
	}
	b.WriteString(terminal.RecordEnd + "\n")
	// whole at once (a temporary name and a rename): a reader never sees
	// it half written, which the hooks' in-place write does not promise
	path := filepath.Join(dir, terminal.RecordPrefix+filepath.Base(fields["tty"]))
	if err := os.WriteFile(path+".tmp", []byte(b.String()), 0o600); err != nil || os.Rename(path+".tmp", path) != nil {
		t.Fatal(err)
	}
	return path
}

// listing is what watch prints, safe to read while it runs; when returns
// a channel closed once the output matches re.
type listing struct {
	mu    sync.Mutex
	b     bytes.Buffer
	re    *regexp.Regexp
	match chan struct{}
}

func (l *listing) when(re *regexp.Regexp) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.re, l.match = re, make(chan struct{})
	l.check()
	return l.match
}

func (l *listing) check() {
	if l.re != nil && l.re.Match(l.b.Bytes()) {
		close(l.match)
		l.re = nil
	}
}

func (l *listing) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// last is the end of what watch printed.
func (l *listing) last() string { s := l.String(); return s[max(0, len(s)-2000):] }

func (l *listing) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	l.check()
	return len(p), nil
}

// TestWatchSurvivesGroupWritable: a records' folder made group-writable
// while watch runs is made private again, said, and watch goes on (it
// exited for good, a restart loop under the documented unit: issue 36).
func TestWatchSurvivesGroupWritable(t *testing.T) {
	rundir := t.TempDir()
	writeRecord(t, rundir, map[string]string{"state": "working", "agent": "gemini", "folder": "repo", "tty": "/dev/pts/1"})
	env := map[string]string{"HOME": t.TempDir(), "XDG_RUNTIME_DIR": rundir}
	out, errb := &listing{}, &listing{}
	o := &sessionsOptions{globalOptions: &globalOptions{IO: IO{Out: out, Err: errb}, Getenv: func(k string) string { return env[k] }}}
	await, _ := startWatch(t, o, out, errb)
	await(out, `(?m)^gemini +working`, "it listed the gemini")
	if err := os.Chmod(filepath.Join(rundir, "hookinstall"), 0o770); err != nil {
		t.Fatal(err)
	}
	writeRecord(t, rundir, map[string]string{"state": "attention", "agent": "claude", "folder": "repo", "tty": "/dev/pts/2"})
	await(out, `(?m)^claude +waiting`, "it listed the claude, after the folder turned group-writable")
	await(errb, `made it yours alone`, "it said it made the folder private again")
}

// startWatch runs watch with o, which prints to out and errb, until stop
// or the test's end; await waits (up to 30 s) until l matches re, said as
// what; stop ends watch and returns its error.
func startWatch(t *testing.T, o *sessionsOptions, out, errb *listing) (await func(l *listing, re, what string), stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runWatch(ctx, o) }()
	t.Cleanup(cancel)
	stop = func() error { cancel(); return <-done }
	return func(l *listing, re, what string) {
		t.Helper()
		select {
		case <-l.when(regexp.MustCompile(re)):
		case err := <-done:
			t.Fatalf("watch ended before %s: %v; stderr %q", what, err, errb.last())
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: not within 30 s; stderr %q, output:\n%s", what, errb.last(), out.last())
		}
	}, stop
}
