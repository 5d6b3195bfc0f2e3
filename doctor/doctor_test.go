package doctor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
	"github.com/hookinstall/hookinstall/writer"
)

// TestPayloads: every event of every agent has a recorded payload, and so
// has every Variant, so the live fire never skips nor fires an empty
// payload (adapters checks that each is one line of JSON).
func TestPayloads(t *testing.T) {
	for _, a := range adapters.All() {
		tg := target(t, a.ID, t.TempDir())
		if f := a; f.Plugin != nil {
			for _, c := range f.Plugin.Cases {
				if payload(f.Payloads+"."+c.Event) == nil {
					t.Errorf("no payload %s.%s", f.Payloads, c.Event)
				}
			}
			continue
		}
		ss, err := a.Scripts(tg)
		if err != nil {
			t.Fatal(err)
		}
		r := &run{t: tg}
		for _, s := range ss[:len(ss)-1] { // the runtime last, which no fire runs
			cs, name := r.fireCases(scriptInfo{Event: s.Event, Want: s.Content}, terminal.Working)
			if cs == nil {
				t.Errorf("%s: no payload for %s", a.ID, name)
			}
			for _, c := range cs {
				if payload(c.Payload) == nil {
					t.Errorf("%s: no payload %s for %s (its Variants name it)", a.ID, c.Payload, c.ID)
				}
			}
		}
	}
}

func target(t *testing.T, agent, home string) adapters.Target {
	t.Helper()
	tg, err := adapters.Resolve(agent, adapters.Options{NS: "hookinstall", Home: home, SystemRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestFireBytes runs scripts against a real pty and checks that the bytes
// are compared exactly: the right OSC passes; a different byte, an extra
// newline, output on stdout and a non-zero exit each fail.
func TestFireBytes(t *testing.T) {
	dir := t.TempDir()
	good, err := scripts.Render(scripts.Spec{Install: scripts.Install{NS: "hookinstall", Agent: "grok"}, Event: "Stop", State: terminal.Done, Transport: scripts.PTY})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	r := &run{ctx: context.Background(), d: New(Options{}), t: adapters.Target{NS: "hookinstall"}}
	env := []string{"PATH=/usr/bin:/bin", "HOOKINSTALL_TASK_ID=t1"}
	want := scripts.OSC("hookinstall", terminal.Done)
	res := r.fire([]string{write("good.sh", string(good))}, []byte("{}"), env, 5*time.Second)
	if res.Err != nil || res.Exit != 0 || string(res.PTY) != string(want) || len(res.Stdout) != 0 || len(res.Stderr) != 0 {
		t.Fatalf("good script: %+v", res)
	}
	silent := r.fire([]string{write("good2.sh", string(good))}, []byte("{}"), env[:1], 5*time.Second)
	if len(silent.PTY) != 0 || len(silent.Stdout) != 0 {
		t.Fatalf("without the task env the script wrote %q / %q", silent.PTY, silent.Stdout)
	}
	for name, body := range map[string]string{
		"newline.sh": "#!/bin/sh\nprintf '\\033]777;notify;hookinstall;agent is done\\007\\n' >\"$HOOKINSTALL_PTY\"\n",
		"other.sh":   "#!/bin/sh\nprintf '\\033]777;notify;hookinstall;agent is dune\\007' >\"$HOOKINSTALL_PTY\"\n",
		"stdout.sh":  "#!/bin/sh\nprintf '\\033]777;notify;hookinstall;agent is done\\007'\n",
		"exit.sh":    "#!/bin/sh\nprintf '\\033]777;notify;hookinstall;agent is done\\007' >\"$HOOKINSTALL_PTY\"\nexit 2\n",
	} {
		res := r.fire([]string{write(name, body)}, nil, env, 5*time.Second)
		ok := res.Err == nil && res.Exit == 0 && string(res.PTY) == string(want) && len(res.Stdout) == 0
		if ok {
			t.Errorf("%s passed: %+v", name, res)
		}
	}
	slow := r.fire([]string{write("slow.sh", "#!/bin/sh\nsleep 10\n")}, nil, env, 200*time.Millisecond)
	if slow.Err == nil || slow.Dur > 3*time.Second {
		t.Errorf("a hanging script was not stopped at the timeout: %+v", slow)
	}
}

// TestFireUnread: a hook that leaves its pty so that doctor's own end
// marker cannot be read back (stty olcuc: every letter written to it
// arrives upper-case, the marker's too) is reported as not checked,
// never as what the hook wrote.
func TestFireUnread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("olcuc is Linux's")
	}
	hook := filepath.Join(t.TempDir(), "stop.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nstty olcuc <\"$HOOKINSTALL_PTY\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &run{ctx: context.Background(), d: New(Options{FireTimeout: 3 * time.Second}), t: target(t, "grok", t.TempDir()), a: &Agent{}}
	r.fireOne(scriptInfo{Event: "Stop", Path: hook, Runnable: true, Transport: scripts.PTY},
		fireCase{ID: "fire.silent", Payload: "grok.Stop", Why: "no HOOKINSTALL_TASK_ID"})
	if len(r.a.Checks) != 1 {
		t.Fatalf("checks: %+v", r.a.Checks)
	}
	c := r.a.Checks[0]
	if c.Result != adapters.Skip || !strings.Contains(c.Verdict, "could not read the pty back within 3s") {
		t.Errorf("%s %q, want a skip: the pty could not be read back", c.Result, c.Verdict)
	}
}

func TestStripControl(t *testing.T) {
	v, found := stripControl(decode(`{"hooks":[{"type":"command","command":"/x","timeout":5,"async":true}],"continue":false}`))
	if strings.Join(found, ",") != "async,continue" {
		t.Errorf("found %v", found)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"hooks":[{"command":"/x","timeout":5,"type":"command"}]}` {
		t.Errorf("stripped %s", b)
	}
}

func TestShapeDiff(t *testing.T) {
	handler := `{"type":"command","command":"/x"}`
	group := `{"hooks":[` + handler + `]}`
	for _, c := range []struct{ got, want, has string }{
		{handler, handler, ""},
		{`{ "type" : "command", "command": "/x" }`, handler, ""},
		{`{"command":"/x","type":"command"}`, handler, ""},
		{`{"matcher":"","hooks":[` + handler + `]}`, handler, "wrapped in"},
		{handler, group, "bare handler"},
		{`{"hooks":[{"type":"command","command":"/x","timeout":6}]}`, group, "not as hookinstall writes it"},
		{`{"hooks":[` + handler + `],"async":true}`, group, ""},
	} {
		d := shapeDiff(gjson.Parse(c.got), c.want)
		if c.has == "" && d != "" || c.has != "" && !strings.Contains(d, c.has) {
			t.Errorf("shapeDiff(%s, %s) = %q, want %q", c.got, c.want, d, c.has)
		}
	}
}

func TestMissingGates(t *testing.T) {
	want, err := scripts.Render(scripts.Spec{Install: scripts.Install{NS: "hookinstall", Agent: "claude"}, Event: "Stop", State: terminal.Done, Transport: scripts.Stdout, Quiet: []string{"GROK_HOOK_EVENT"}})
	if err != nil {
		t.Fatal(err)
	}
	tg := target(t, "claude", t.TempDir())
	if m := missingGates(tg, want, want); len(m) != 0 {
		t.Errorf("the rendered script lacks %v", m)
	}
	noGuard := strings.Replace(string(want), `[ -z "${GROK_HOOK_EVENT:-}" ] || exit 0`, "", 1)
	if m := missingGates(tg, []byte(noGuard), want); len(m) != 1 || !strings.Contains(m[0], "Grok") {
		t.Errorf("without the guard: %v", m)
	}
	// A gate after the output does not gate it.
	late := strings.Replace(string(want), `[ -n "${HOOKINSTALL_TASK_ID:-}" ] || exit 0`+"\n", "", 1) + `[ -n "${HOOKINSTALL_TASK_ID:-}" ] || exit 0` + "\n"
	if m := missingGates(tg, []byte(late), want); len(m) != 1 || !strings.Contains(m[0], "task gate") {
		t.Errorf("gate after the output: %v", m)
	}
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"UserPromptSubmit": "user_prompt_submit", "Stop": "stop", "StopCancelled": "stop_cancelled"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// installAll installs every agent into home and returns the targets. Their
// machine-wide files (/etc/...) are looked up in an empty folder, so the
// machine's own (a managed-settings.json that switches hooks off) cannot
// change what the tests see.
func installAll(tb testing.TB, home string) []adapters.Target {
	tb.Helper()
	w := writer.New(writer.Options{})
	sys := tb.TempDir()
	var ts []adapters.Target
	for _, a := range adapters.All() {
		tg, err := adapters.Resolve(a.ID, adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sys})
		if err != nil {
			tb.Fatal(err)
		}
		if r := w.Add(context.Background(), tg); r.Err != nil {
			tb.Fatalf("add %s: %v", a.ID, r.Err)
		}
		ts = append(ts, tg)
	}
	return ts
}

// TestAgentsStatic: on a fresh install of every agent, every static check
// passes except trust (nothing is trusted yet), so codex and zerocode say
// untrusted and the rest installed.
func TestAgentsStatic(t *testing.T) {
	home := t.TempDir()
	ts := installAll(t, home)
	d := New(Options{Getenv: func(string) string { return "" }})
	for _, tg := range ts {
		a := d.Agent(tg)
		want := adapters.StatusInstalled
		if tg.ID == "codex" || tg.ID == "zerocode" {
			want = adapters.StatusUntrusted
		}
		if a.Status != want {
			t.Errorf("%s: status %s, want %s: %v", tg.ID, a.Status, want, a.Reasons())
		}
		for _, c := range a.Failed() {
			if !strings.HasPrefix(c.ID, "trust.") {
				t.Errorf("%s: %s failed: %s", tg.ID, c.ID, c.Verdict)
			}
		}
	}
}

// BenchmarkDoctorAllAgents measures one doctor run over every agent of the
// registry installed in one home, live fires included:
// every script against its own pty, and the opencode plugin in a
// JavaScript runtime when one is on PATH. Agents' binaries are not asked.
func BenchmarkDoctorAllAgents(b *testing.B) {
	home := b.TempDir()
	ts := installAll(b, home)
	d := New(Options{Fire: true})
	checks, fires := 0, 0
	for _, tg := range ts {
		for _, c := range d.Agent(tg).Checks {
			checks++
			if strings.HasPrefix(c.ID, "fire.") && c.Result == adapters.Pass {
				fires++
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, tg := range ts {
			d.Agent(tg)
		}
	}
	b.ReportMetric(float64(checks), "checks/op")
	b.ReportMetric(float64(fires), "fires/op")
}
