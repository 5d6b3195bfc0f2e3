//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// Payloads as the agents send them (Claude's recorded in
// shared/harness/samples; the others in the same shape, with the fields
// their rules read). A hook that reads stdin reads all of it.
var payloads = map[string]string{
	"UserPromptSubmit":  `{"session_id":"063117be-df0d-4c79-a25b-a38ce6ee00ba","transcript_path":"/home/u/.claude/projects/-home-u-work/063117be-df0d-4c79-a25b-a38ce6ee00ba.jsonl","cwd":"/home/u/work","prompt_id":"4885280c-ea50-42ce-a27b-5bc0ae772250","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"please create the marker file"}`,
	"PermissionRequest": `{"session_id":"063117be-df0d-4c79-a25b-a38ce6ee00ba","transcript_path":"/home/u/.claude/projects/-home-u-work/063117be-df0d-4c79-a25b-a38ce6ee00ba.jsonl","cwd":"/home/u/work","prompt_id":"4885280c-ea50-42ce-a27b-5bc0ae772250","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"touch claude-marker.txt","description":"Create hook test marker file"},"permission_suggestions":[{"type":"addDirectories","directories":["/home/u/work"],"destination":"session"},{"type":"setMode","mode":"acceptEdits","destination":"session"}]}`,
	"Stop":              `{"session_id":"063117be-df0d-4c79-a25b-a38ce6ee00ba","transcript_path":"/home/u/.claude/projects/-home-u-work/063117be-df0d-4c79-a25b-a38ce6ee00ba.jsonl","cwd":"/home/u/work","prompt_id":"4885280c-ea50-42ce-a27b-5bc0ae772250","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All done: fake model finished the turn.","background_tasks":[],"session_crons":[]}`,
	"Notification":      `{"sessionId":"4c1d6a7e-2b1f-4f0e-9d3a-6f8b2e1c9a70","cwd":"/home/u/work","hookEventName":"Notification","notificationType":"permission_prompt","message":"Grok needs your permission to use Bash"}`,
}

// fieldRx and valueRx find what a FieldEquals script compares.
var (
	fieldRx = regexp.MustCompile(`if \[ "\$1" = ([A-Za-z0-9_]+) \]`)
	valueRx = regexp.MustCompile(`\[ "\$3" != ([A-Za-z0-9_]+) \]`)
)

// A hookCase is one generated hook with what it must write.
type hookCase struct {
	agent, name string
	path        string // the generated script
	peer        string // the same hook in Node.js
	pty         bool   // writes to the pty, not stdout
	want        []byte // on stdout or on the pty
	payload     []byte
	note        string
	long        bool // the payload carries a long last_assistant_message
	reads       bool // the hook reads the payload (its state depends on it)
	product     string
	state       terminal.State
	terminal    bool          // run in terminal mode (termTask), as init sets it up
	fresh       bool          // terminal mode, the state changed at each run: it is sent, the record written
	tmux        bool          // terminal mode inside tmux: its pane's option set on a change
	own         *terminal.Own // what the agent shows by itself, which its hooks leave out
}

// termTask is the task id of the terminal-mode rows: the longest path a
// hook takes (the folder made safe, a notification, both wrapped for tmux).
const termTask = terminal.TaskPrefix + "tmux+osc777"

// inTerminal returns c as it runs where hookinstall init set the shell up
// (inside tmux with tmux, its state changed at each run with fresh): no
// Node.js peer, the bytes of terminal mode for the folder the bench runs in.
func inTerminal(c hookCase, fresh, tmux bool) hookCase {
	c.terminal, c.fresh, c.tmux, c.peer, c.long = true, fresh, tmux, "", false
	t, _ := terminal.FromTask(termTask)
	wd, _ := os.Getwd()
	// the hooks run with PATH and the two variables alone (termEnv)
	draws := c.own.Draws(func(string) string { return "" })
	a := terminal.Agent{Product: c.product, Own: c.own} // termTask's terminal holds nothing that names it
	if c.pty {
		c.want = terminal.Encode(t, terminal.Sequences(t, a, draws, terminal.SafeFolder(wd), "", c.state))
	} else {
		c.want = claudeJSON(terminal.Sequences(t, a, draws, terminal.SafeFolder(wd), "", c.state))
	}
	return c
}

// claudeJSON is the line a Claude hook prints for seqs: those its
// terminalSequence carries (OSC 0, 1, 2, 9, 99 and 777, and BEL), in ASCII
// JSON; nothing when none is left.
func claudeJSON(seqs []string) []byte {
	var b strings.Builder
	for _, q := range seqs {
		if ps, _, _ := strings.Cut(strings.TrimPrefix(q, "\x1b]"), ";"); q != "\a" && !slices.Contains([]string{"0", "1", "2", "9", "99", "777"}, ps) {
			continue
		}
		for _, r := range q {
			switch {
			case r == '"' || r == '\\':
				b.WriteString(`\` + string(r))
			case r < 0x20 || r >= 0x7f:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				b.WriteRune(r)
			}
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return []byte(`{"terminalSequence":"` + b.String() + `"}`)
}

// longMessage pads a payload the way a long final answer does: Claude's
// Stop payload carries the whole last_assistant_message.
var longMessage = strings.Repeat("The change is in place and the tests pass. ", 190) // 8 KB

// withLongMessage returns c reading a payload with an 8 KB message before
// the fields its rule reads.
func withLongMessage(c hookCase) hookCase {
	c.long = true
	c.payload = append([]byte(`{"last_assistant_message":"`+longMessage+`",`), c.payload[1:]...)
	return c
}

// hookCases renders every agent's sh hooks into dir. Agents' own hooks come
// from the adapters; when none of them writes to a pty, a PTY hook rendered
// by scripts.Render stands in.
func hookCases(dir, node string) ([]hookCase, error) {
	home := filepath.Join(dir, "home")
	var cs []hookCase
	anyPTY := false
	for _, a := range adapters.All() {
		t, err := adapters.Resolve(a.ID, adapters.Options{NS: ns, Home: home})
		if err != nil {
			return nil, err
		}
		ss, err := a.Scripts(t)
		if err != nil {
			return nil, err
		}
		agentDir := filepath.Join(dir, a.ID) // its scripts and their runtime, side by side
		if err := os.MkdirAll(agentDir, 0o755); err != nil {
			return nil, err
		}
		states := map[string]terminal.State{}
		for _, e := range a.Events() {
			if _, ok := states[e.Event]; !ok {
				states[e.Event] = e.State // the event's own; an "also" case follows it
			}
		}
		for _, s := range ss {
			if s.Event == "" { // the runtime, which the hooks source
				if err := writeExec(filepath.Join(agentDir, s.Name), s.Content); err != nil {
					return nil, err
				}
				continue
			}
			c, err := newCase(agentDir, a.ID, s.Event, s.Name, s.Content, states[s.Event], node)
			if rec := adapters.Payload(a.Payloads + "." + s.Event); rec != nil && err == nil {
				// the payload recorded from the agent's binary, where there is one
				c.payload = append(bytes.TrimRight(rec, "\n"), '\n')
			}
			if err != nil {
				return nil, err
			}
			c.product, c.own = a.Product, a.ShowsItself
			anyPTY = anyPTY || c.pty
			cs = append(cs, c, inTerminal(c, true, false), inTerminal(c, false, true), inTerminal(c, true, true))
			if c.reads {
				cs = append(cs, withLongMessage(c))
			}
		}
	}
	if !anyPTY {
		b, err := scripts.Render(scripts.Spec{Install: scripts.Install{NS: ns, Agent: "pty"}, Event: "Stop", State: terminal.Done, Transport: scripts.PTY})
		if err != nil {
			return nil, err
		}
		c, err := newCase(filepath.Join(dir, "pty"), "(pty)", "Stop", "stop.sh", b, terminal.Done, node)
		if err != nil {
			return nil, err
		}
		c.note = "rendered by scripts.Render with Transport PTY: no agent writes to a pty yet"
		cs = append(cs, c)
	}
	return cs, nil
}

func newCase(dir, agent, event, name string, content []byte, state terminal.State, node string) (hookCase, error) {
	c := hookCase{agent: agent, name: name, pty: !bytes.Contains(content, []byte("terminalSequence")), state: state, product: agent}
	base := filepath.Join(dir, strings.TrimSuffix(name, ".sh"))
	c.path = base + ".sh"
	if err := os.MkdirAll(dir, 0o755); err != nil || writeExec(c.path, content) != nil {
		return c, fmt.Errorf("writing %s: %v", c.path, err)
	}
	p, ok := payloads[event]
	if !ok {
		p = payloads["Stop"]
	}
	c.payload = []byte(p + "\n")
	rule := scripts.Always
	field, value := "", ""
	switch {
	case bytes.Contains(content, []byte("background_tasks")):
		rule = scripts.NonEmptyBackgroundTasks
	case bytes.Contains(content, []byte("notificationType")):
		rule = scripts.PermissionPrompt
		c.payload = []byte(payloads["Notification"] + "\n")
	default:
		// FieldEquals: the script compares a field and a value as shell words
		if m := fieldRx.FindSubmatch(content); m != nil {
			if v := valueRx.FindSubmatch(content); v != nil {
				rule, field, value = scripts.FieldEquals, string(m[1]), string(v[1])
			} else if bytes.Contains(content, []byte("case $sep in true")) {
				// FieldTrue: the field must be the JSON literal true
				rule, field = scripts.FieldTrue, string(m[1])
			}
		}
	}
	c.reads = rule != scripts.Always
	if c.pty {
		c.want = scripts.OSC(ns, state)
	} else {
		c.want = []byte(scripts.TerminalSequence(ns, state))
	}
	if node != "" {
		c.peer = base + ".js"
		guard := bytes.Contains(content, []byte("GROK_HOOK_EVENT"))
		if err := writeExec(c.peer, nodePeer(node, state, rule, field, value, c.pty, guard)); err != nil {
			return c, err
		}
	}
	return c, nil
}

// nodePeer is the hook as peers write it: a Node.js script that gates on
// the same variables, parses the payload with JSON.parse where the state
// depends on it, and writes the same bytes the same way.
func nodePeer(node string, state terminal.State, rule scripts.Rule, field, value string, toPTY, guard bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "#!%s\n'use strict';\n", node)
	fmt.Fprintf(&b, "const env = process.env;\nif (!env.%s) process.exit(0);\n", terminal.TaskVar(ns))
	if guard {
		b.WriteString("if (env.GROK_HOOK_EVENT) process.exit(0);\n")
	}
	b.WriteString("const fs = require('fs');\n")
	fmt.Fprintf(&b, "let state = %q;\n", state.Body())
	switch rule {
	case scripts.NonEmptyBackgroundTasks:
		b.WriteString("let p = {};\ntry { p = JSON.parse(fs.readFileSync(0, 'utf8')); } catch (e) {}\n")
		fmt.Fprintf(&b, "if (Array.isArray(p.background_tasks) && p.background_tasks.length > 0) state = %q;\n", terminal.Working.Body())
	case scripts.PermissionPrompt:
		b.WriteString("let p = {};\ntry { p = JSON.parse(fs.readFileSync(0, 'utf8')); } catch (e) {}\n")
		b.WriteString("if (p.notificationType !== 'permission_prompt') process.exit(0);\n")
	case scripts.FieldEquals:
		b.WriteString("let p = {};\ntry { p = JSON.parse(fs.readFileSync(0, 'utf8')); } catch (e) {}\n")
		fmt.Fprintf(&b, "if (p[%q] !== %q) process.exit(0);\n", field, value)
	case scripts.FieldTrue:
		b.WriteString("let p = {};\ntry { p = JSON.parse(fs.readFileSync(0, 'utf8')); } catch (e) {}\n")
		fmt.Fprintf(&b, "if (p[%q] !== true) process.exit(0);\n", field)
	}
	fmt.Fprintf(&b, "const osc = '\\x1b]777;notify;%s;' + state + '\\x07';\n", ns)
	if toPTY {
		fmt.Fprintf(&b, "const tty = env.%s || '';\n", terminal.PTYVar(ns))
		b.WriteString("try {\n  if (fs.statSync(tty).isCharacterDevice()) {\n    const fd = fs.openSync(tty, fs.constants.O_WRONLY | fs.constants.O_NOCTTY);\n    fs.writeSync(fd, osc);\n    fs.closeSync(fd);\n  }\n} catch (e) {}\n")
	} else {
		b.WriteString("process.stdout.write(JSON.stringify({ terminalSequence: osc }));\n")
	}
	return []byte(b.String())
}

// ptyReader drains the master side of a pty into a buffer.
type ptyReader struct {
	master, slave *os.File
	mu            sync.Mutex
	buf           bytes.Buffer
}

func openPTY() (*ptyReader, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, err
	}
	p := &ptyReader{master: m, slave: s}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := m.Read(b)
			p.mu.Lock()
			p.buf.Write(b[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p, nil
}

// take returns what was written so far, after a marker written to the pty
// itself has come back (so nothing a finished process wrote is missed).
func (p *ptyReader) take() ([]byte, error) {
	const mark = "<<hookbench>>"
	if _, err := p.slave.Write([]byte(mark)); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		all := p.buf.Bytes()
		if i := bytes.Index(all, []byte(mark)); i >= 0 {
			got := append([]byte(nil), all[:i]...)
			rest := append([]byte(nil), all[i+len(mark):]...)
			p.buf.Reset()
			p.buf.Write(rest)
			p.mu.Unlock()
			return got, nil
		}
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	return nil, fmt.Errorf("pty: marker not read back")
}

func (p *ptyReader) close() { p.slave.Close(); p.master.Close() }

// runHook runs one script the way an agent does: the payload on a pipe as
// stdin, stdout on a pipe, the host's variables set. It returns the wall
// time and what the script printed.
func runHook(path string, payload []byte, env []string) (time.Duration, []byte, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return 0, nil, err
	}
	defer inR.Close()
	if _, err := inW.Write(payload); err != nil { // fits the pipe buffer
		inW.Close()
		return 0, nil, err
	}
	inW.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		return 0, nil, err
	}
	defer outR.Close()
	c := exec.Command(path)
	c.Env, c.Stdin, c.Stdout, c.Stderr = env, inR, outW, devNull
	r, err := timed(c)
	outW.Close()
	out := readAll(outR)
	if err == nil && r.code != 0 {
		err = fmt.Errorf("%s exited %d", path, r.code)
	}
	return r.wall, out, err
}

func benchHooks(r *report, _ string, work string) error {
	dir := filepath.Join(work, "hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	node, _ := exec.LookPath("node")
	cases, err := hookCases(dir, node)
	if err != nil {
		return err
	}
	floor := filepath.Join(dir, "floor.sh")
	if err := writeExec(floor, []byte("#!/bin/sh\nexit 0\n")); err != nil {
		return err
	}
	p, err := openPTY()
	if err != nil {
		return err
	}
	defer p.close()
	// This process holds the pty as its controlling terminal, as an agent
	// started in it does: terminal mode reports only to its agent's own
	// (setsid fails where this process leads its group: run it by make bench).
	_, _ = syscall.Setsid()
	signal.Ignore(syscall.SIGHUP) // when the pty closes, at the end
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, p.slave.Fd(), syscall.TIOCSCTTY, 0); e != 0 {
		return fmt.Errorf("the pty as controlling terminal: %v (run hookbench by make bench)", e)
	}
	env := []string{"PATH=/usr/bin:/bin", terminal.TaskVar(ns) + "=bench-task", terminal.PTYVar(ns) + "=" + p.slave.Name()}
	// terminal mode keeps each session's record in the user's runtime
	// folder (docs/commands.md "ls, jump and watch")
	xdg := filepath.Join(work, "run")
	if err := os.MkdirAll(xdg, 0o700); err != nil {
		return err
	}
	termEnv := []string{"PATH=/usr/bin:/bin", terminal.TaskVar(ns) + "=" + termTask, terminal.PTYVar(ns) + "=" + p.slave.Name(), "XDG_RUNTIME_DIR=" + xdg}
	records := terminal.RecordDir(ns, func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": xdg}[k] })
	if err := os.MkdirAll(records, 0o700); err != nil { // as init makes it
		return err
	}
	forget := func() { // the state changes at every run: it is sent, the record written
		es, _ := os.ReadDir(records)
		for _, e := range es {
			_ = os.Remove(filepath.Join(records, e.Name()))
		}
	}
	tmuxEnv, stop, err := tmuxWithClient(work)
	if err != nil {
		return err
	}
	defer stop()

	var rows [][]string
	worst := map[string]float64{}
	worstName := map[string]string{}
	for _, c := range cases {
		env := env
		if c.terminal {
			env = termEnv
		}
		if c.tmux {
			env = append(slices.Clone(termEnv), tmuxEnv...)
		}
		forget() // the bytes are checked where the state changes
		// Check the bytes first: a hook whose gate fails is fast and wrong.
		progs := []string{c.path}
		if c.peer != "" {
			progs = append(progs, c.peer)
		}
		for _, prog := range progs {
			_, out, err := runHook(prog, c.payload, env)
			if err != nil {
				return err
			}
			got := out
			if c.pty {
				if got, err = p.take(); err != nil {
					return err
				}
				if len(out) > 0 {
					return fmt.Errorf("%s printed %q on stdout", prog, out)
				}
			}
			if !bytes.Equal(got, c.want) {
				return fmt.Errorf("%s wrote %q, want %q", prog, got, c.want)
			}
		}
		var fl, hk, nd samples
		for round := 0; round < *flagHook; round++ {
			n := 2
			if c.peer != "" && round%*flagNode == 0 {
				n = 3
			}
			for _, i := range rotate(n, round) {
				prog := []string{floor, c.path, c.peer}[i]
				if c.fresh && i == 1 {
					forget()
				}
				d, _, err := runHook(prog, c.payload, env)
				if err != nil {
					return err
				}
				switch i {
				case 0:
					fl = append(fl, d)
				case 1:
					hk = append(hk, d)
				case 2:
					nd = append(nd, d)
				}
			}
		}
		if c.pty {
			got, err := p.take()
			if err != nil {
				return err
			}
			if (len(c.want) == 0 || c.terminal && !c.fresh) && len(got) > 0 {
				// the agent shows it all itself, or the state is the one
				// the record says: the hook writes nothing
				return fmt.Errorf("%s: wrote %q on the pty, want nothing", c.path, got)
			}
			if n, want := hasBytes(got, c.want), len(hk)+len(nd); len(c.want) > 0 && (!c.terminal || c.fresh) && n != want {
				return fmt.Errorf("%s: %d sequences on the pty, want %d", c.path, n, want)
			}
		}
		transport := "stdout"
		if c.pty {
			transport = "pty"
		}
		name := c.agent + " " + c.name
		if c.long {
			name += ", " + fmt.Sprint(len(c.payload)/1024) + " KB payload"
		}
		kind := "host"
		switch {
		case c.long:
			kind = "long"
		case c.terminal:
			name += ", terminal mode"
			kind = map[bool]string{true: "changed", false: "unchanged"}[c.fresh]
			if c.tmux {
				name, kind = name+", inside tmux", kind+" tmux"
			}
			name += map[bool]string{true: ", state changed", false: ", state unchanged"}[c.fresh]
		}
		if c.note != "" {
			name += " ¹"
			r.notes = append(r.notes, "¹ "+c.note+".")
		}
		hr := ratio(hk, fl)
		if hr > worst[kind] {
			worst[kind], worstName[kind] = hr, name
		}
		if c.reads && kind == "host" && hr > worst["reads"] {
			worst["reads"], worstName["reads"] = hr, name
		}
		nodeCell, nodeRatio := "node not installed", "n/a"
		if c.peer != "" {
			nodeCell, nodeRatio = cell(nd), fmt.Sprintf("%.1f×", ratio(nd, fl))
		}
		rows = append(rows, []string{name, transport, cell(fl), cell(hk), nodeCell, fmt.Sprintf("%.2f×", hr), nodeRatio})
	}
	r.tables = append(r.tables, "### Hooks: floor, hook, Node.js\n\n"+
		"Each hook runs as its agent runs it: the recorded payload on a pipe as stdin (and, for the hooks whose state depends on the payload, again with an 8 KB `last_assistant_message` in front, as a long final answer makes it), the task variable set, `"+terminal.PTYVar(ns)+"` naming a real pty (opened with creack/pty); its output is checked byte for byte before timing, and every sequence is counted on the pty after. The rows marked \"terminal mode\" run the same hook with `"+terminal.TaskVar(ns)+"="+termTask+"`, as `hookinstall init` sets it inside tmux, so its runtime (`terminal.sh`) runs: \"state changed\" removes the terminal's record before each run, so the hook sends the state (the folder made safe, the progress and notification wrapped for tmux, checked byte for byte) and writes the record; \"state unchanged\" finds the record saying its state already, and sends nothing; \"inside tmux\" runs with `TMUX` and `TMUX_PANE` of a private tmux server with one client attached, so a change also sets the pane's option. The floor is `#!/bin/sh` + `exit 0` run the same way; the Node.js peer is the same hook as a `#!"+node+"` script (JSON.parse, JSON.stringify, fs.writeSync), run every "+fmt.Sprint(*flagNode)+"th round.\n\n"+
		table([]string{"hook", "writes to", "floor", "hook", "Node.js", "hook/floor", "node/floor"}, rows))
	for _, t := range []struct {
		kind, what string
		max        float64
	}{
		{"host", "host-mode hook (worst of all), recorded payloads", 1.1},
		{"reads", "host-mode hook that reads its payload (worst)", 1.1},
		{"changed", "terminal mode, the state changed, outside tmux", 1.5},
		{"unchanged tmux", "terminal mode, the state unchanged, inside tmux", 1.5},
		{"changed tmux", "terminal mode, the state changed, inside tmux (one client)", 3},
		{"long", "hook that reads its payload, 8 KB message", 1.5},
	} {
		if worstName[t.kind] != "" {
			r.target(t.what, fmt.Sprintf("≤ %.1f× the floor", t.max), fmt.Sprintf("%.2f× (%s)", worst[t.kind], worstName[t.kind]), worst[t.kind] <= t.max)
		}
	}
	return nil
}

// tmuxWithClient starts a private tmux server with one client attached on
// a pty (its output drained), and returns the variables of a pane of it.
func tmuxWithClient(work string) (env []string, stop func(), err error) {
	sock := filepath.Join(work, "tmux.sock")
	tmux := func(args ...string) ([]byte, error) {
		return exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	}
	if out, err := tmux("new-session", "-d", "-s", "b", "-x", "80", "-y", "24", "sleep 86400"); err != nil {
		return nil, nil, fmt.Errorf("tmux: %v %s", err, out)
	}
	client := exec.Command("tmux", "-S", sock, "attach", "-t", "b")
	client.Env = append(os.Environ(), "TERM=xterm-256color")
	f, err := pty.Start(client)
	if err != nil {
		_, _ = tmux("kill-server")
		return nil, nil, err
	}
	go func() { _, _ = io.Copy(io.Discard, f) }()
	stop = func() { _, _ = tmux("kill-server"); f.Close(); _ = client.Wait() }
	pane, err := tmux("display-message", "-p", "-t", "b", "#{pane_id}")
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("tmux: %v %s", err, pane)
	}
	return []string{"TMUX=" + sock + ",1,0", "TMUX_PANE=" + strings.TrimSpace(string(pane))}, stop, nil
}
