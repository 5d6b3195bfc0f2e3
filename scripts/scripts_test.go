package scripts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// claudeSpecs are the scripts the claude adapter installs.
var claudeSpecs = []Spec{
	{Install: Install{NS: "hookinstall", Agent: "claude"}, Product: "Claude Code", Event: "UserPromptSubmit", State: terminal.Working, Transport: Stdout, Quiet: []string{"GROK_HOOK_EVENT"}, Own: ownLike},
	{Install: Install{NS: "hookinstall", Agent: "claude"}, Product: "Claude Code", Event: "PermissionRequest", State: terminal.Attention, Transport: Stdout, Quiet: []string{"GROK_HOOK_EVENT"}, Own: ownLike},
	{Install: Install{NS: "hookinstall", Agent: "claude"}, Product: "Claude Code", Event: "Stop", State: terminal.Done, Transport: Stdout, Rule: NonEmptyBackgroundTasks, Quiet: []string{"GROK_HOOK_EVENT"}, Own: ownLike},
}

func TestOSCBytes(t *testing.T) {
	// The host protocol, pinned byte for byte.
	want := map[terminal.State]string{
		terminal.Working:     "\x1b]777;notify;hookinstall;agent is working\x07",
		terminal.Attention:   "\x1b]777;notify;hookinstall;agent needs your input\x07",
		terminal.Done:        "\x1b]777;notify;hookinstall;agent is done\x07",
		terminal.Interrupted: "\x1b]777;notify;hookinstall;agent was interrupted\x07",
	}
	for s, w := range want {
		if got := string(OSC("hookinstall", s)); got != w {
			t.Errorf("OSC(%s) = %q, want %q", s, got, w)
		}
		if strings.Contains(s.Body(), "is waiting for your input") {
			t.Errorf("body %q matches the host's ignore filter", s.Body())
		}
	}
	if got, w := TerminalSequence("termic", terminal.Attention), `{"terminalSequence":"\u001b]777;notify;termic;agent needs your input\u0007"}`; got != w {
		t.Errorf("TerminalSequence = %s, want %s", got, w)
	}
	if terminal.EnvPrefix("my-host") != "MY_HOST" || terminal.TaskVar("my-host") != "MY_HOST_TASK_ID" || terminal.PTYVar("termic") != "TERMIC_PTY" {
		t.Error("env names wrong")
	}
}

func TestValidNamespace(t *testing.T) {
	for _, ok := range []string{"hookinstall", "termic", "a1", "my-host"} {
		if terminal.ValidNamespace(ok) != nil {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "a", "A1", "1ab", "a b", "a;rm", "a/b", "ab$", "a'b", strings.Repeat("a", 33)} {
		if terminal.ValidNamespace(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// goldenSpecs are the scripts whose bytes are pinned: Claude's three (the
// stdout transport) and one pty script per payload rule, with the PTY
// transport and another agent's guard where one applies; ruleSpecs (the
// fast path's test) add the rules' other keys and values.
func goldenSpecs() map[string]Spec {
	specs := map[string]Spec{}
	for _, s := range claudeSpecs {
		specs[s.Agent+"-"+FileName(s.Event)] = s
	}
	for _, s := range ruleSpecs {
		s.NS, s.Transport, s.Product = "hookinstall", PTY, "Agent"
		specs["pty-"+s.Agent+"-"+FileName(s.Event)] = s
	}
	specs["pty-always-stop.sh"] = Spec{Install: Install{NS: "my-host", Agent: "codex"}, Product: "Codex", Event: "Stop", State: terminal.Done, Transport: PTY}
	return specs
}

// TestGolden pins every template's output, byte for byte, in
// testdata/<name>; UPDATE_GOLDEN=1 rewrites them after an intended change
// (review the diff).
func TestGolden(t *testing.T) {
	specs := goldenSpecs()
	// and two runtimes: Claude's (stdout), and the pty one of the last spec
	runtimes := map[string][]Spec{"claude-terminal.sh": claudeSpecs, "pty-terminal.sh": {specs["pty-always-stop.sh"]}}
	for name, ss := range runtimes {
		got, err := Runtime(ss...)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, got)
		if !bytes.HasPrefix(got, []byte("# "+ss[0].NS+" terminal runtime for "+ss[0].Agent)) {
			t.Errorf("%s: header missing", name)
		}
	}
	for name, s := range specs {
		got, err := Render(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden(t, name, got)
		if !bytes.HasPrefix(got, []byte("#!/bin/sh\n# "+s.NS+" hook for "+s.Agent)) || !bytes.Contains(got, []byte("config runs it: deleting it by hand leaves the config pointing at nothing")) {
			t.Errorf("%s: header missing", name)
		}
	}
	// no golden left over from a spec that is gone
	files, err := filepath.Glob(filepath.Join("testdata", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, ok := specs[filepath.Base(f)]; !ok && runtimes[filepath.Base(f)] == nil {
			t.Errorf("%s is no spec's golden: delete it", f)
		}
	}
}

// golden compares got with testdata/name, which UPDATE_GOLDEN=1 rewrites;
// no golden holds a raw escape, bell or CR byte.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n%s", golden, got)
	}
	if bytes.ContainsAny(got, "\x1b\x07\r") {
		t.Errorf("%s has raw escape, bell or CR bytes", golden)
	}
}

func runScript(t *testing.T, script []byte, env []string, stdin string) (stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(path, script, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dash", path)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("exit %d, want 0 (stderr %q)", ee.ExitCode(), e.String())
		}
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("script created files: %v", ents)
	}
	return o.String(), e.String()
}

func TestClaudeScriptsRun(t *testing.T) {
	if _, err := exec.LookPath("dash"); err != nil {
		t.Skip("dash not installed")
	}
	stopPayload := `{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All done: \"background_tasks\":[1]","background_tasks":[],"session_crons":[]}`
	busy := `{"hook_event_name":"Stop","background_tasks":[{"id":"b1","type":"bash","status":"running"}],"session_crons":[]}`
	spaced := "{\n  \"background_tasks\" :\n [ ]\n}"
	for _, s := range claudeSpecs {
		script, err := Render(s)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(s.Event, func(t *testing.T) {
			// No task env: silent.
			if out, errOut := runScript(t, script, nil, stopPayload); out != "" || errOut != "" {
				t.Errorf("without task env: stdout %q stderr %q", out, errOut)
			}
			if out, _ := runScript(t, script, []string{"HOOKINSTALL_TASK_ID="}, stopPayload); out != "" {
				t.Errorf("with empty task env: %q", out)
			}
			// Under Grok: silent.
			if out, _ := runScript(t, script, []string{"HOOKINSTALL_TASK_ID=t1", "GROK_HOOK_EVENT=stop"}, stopPayload); out != "" {
				t.Errorf("under grok: %q", out)
			}
			out, errOut := runScript(t, script, []string{"HOOKINSTALL_TASK_ID=t1"}, stopPayload)
			if want := TerminalSequence("hookinstall", s.State); out != want || errOut != "" {
				t.Errorf("stdout %q, want %q (stderr %q)", out, want, errOut)
			}
			// Empty stdin must not hang or fail.
			if out, _ := runScript(t, script, []string{"HOOKINSTALL_TASK_ID=t1"}, ""); out != TerminalSequence("hookinstall", s.State) {
				t.Errorf("empty payload: %q", out)
			}
			if s.Rule == NonEmptyBackgroundTasks {
				if out, _ := runScript(t, script, []string{"HOOKINSTALL_TASK_ID=t1"}, busy); out != TerminalSequence("hookinstall", terminal.Working) {
					t.Errorf("background tasks running: %q, want working", out)
				}
				if out, _ := runScript(t, script, []string{"HOOKINSTALL_TASK_ID=t1"}, spaced); out != TerminalSequence("hookinstall", terminal.Done) {
					t.Errorf("spaced empty array: %q, want done", out)
				}
			}
		})
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{"PermissionRequest": "permission-request.sh", "Stop": "stop.sh", "UserPromptSubmit": "user-prompt-submit.sh", "StopCancelled": "stop-cancelled.sh"} {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A FieldCases key and its values are shell words too, and its first case
// is the spec's state; each case reports its own state.
func TestFieldCasesRefusesNonWords(t *testing.T) {
	ok := []Case{{"permission_prompt", terminal.Attention}, {"idle_prompt", terminal.Interrupted}}
	for _, s := range []Spec{
		{Field: "a b", Cases: ok, State: terminal.Attention},
		{Field: "notification_type", Cases: nil, State: terminal.Attention},
		{Field: "notification_type", Cases: []Case{{"x'y", terminal.Attention}}, State: terminal.Attention},
		{Field: "notification_type", Cases: []Case{{"x", "asleep"}}, State: terminal.Attention},
		{Field: "notification_type", Cases: ok, State: terminal.Interrupted},
	} {
		s.NS, s.Agent, s.Event, s.Transport, s.Rule = "hookinstall", "droid", "Notification", PTY, FieldCases
		if _, err := Render(s); err == nil {
			t.Errorf("field %q cases %v state %q rendered", s.Field, s.Cases, s.State)
		}
	}
	b, err := Render(Spec{Install: Install{NS: "hookinstall", Agent: "droid"}, Event: "Notification", State: terminal.Attention, Transport: PTY, Rule: FieldCases, Field: "notification_type", Cases: ok})
	if err != nil || !bytes.Contains(b, []byte("permission_prompt) state='attention' ;;")) || !bytes.Contains(b, []byte("idle_prompt) state='interrupted' ;;")) {
		t.Fatalf("render: %v\n%s", err, b)
	}
}

// A FieldEquals key is compared as a shell word, and its value as words
// separated by single spaces: anything but letters, digits and underscores
// (and those spaces in the value) is refused, not rendered.
func TestFieldEqualsRefusesNonWords(t *testing.T) {
	for _, fv := range [][2]string{{"", "x"}, {"x", ""}, {"a b", "x"}, {"x", "a'b"}, {"x", "$(id)"}, {"a-b", "x"},
		{"x", " a"}, {"x", "a "}, {"x", "a  b"}, {"x", "a\tb"}, {"x", "a\nb"}} {
		s := Spec{Install: Install{NS: "hookinstall", Agent: "copilot"}, Event: "notification", State: terminal.Attention, Transport: PTY, Rule: FieldEquals, Field: fv[0], Value: fv[1]}
		if _, err := Render(s); err == nil {
			t.Errorf("field %q value %q rendered", fv[0], fv[1])
		}
	}
	s := Spec{Install: Install{NS: "hookinstall", Agent: "copilot"}, Event: "notification", State: terminal.Attention, Transport: PTY, Rule: FieldEquals, Field: "notification_type", Value: "permission_prompt"}
	b, err := Render(s)
	if err != nil || !bytes.Contains(b, []byte(`if [ "$1" = notification_type ]`)) || !bytes.Contains(b, []byte(`[ "$3" != permission_prompt ]`)) {
		t.Fatalf("render: %v\n%s", err, b)
	}
	// Letta's "Approval needed": quoted, one word for the shell.
	s.Value = "Approval needed"
	if b, err = Render(s); err != nil || !bytes.Contains(b, []byte(`[ "$3" != 'Approval needed' ]`)) {
		t.Fatalf("render: %v\n%s", err, b)
	}
}
