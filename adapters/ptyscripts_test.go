package adapters

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookinstall/hookinstall/internal/ptytest"
	"github.com/hookinstall/hookinstall/scripts"
)

// installScripts writes agent's generated scripts into a temp dir and returns
// the path of each, by event.
func installScripts(t *testing.T, agent string) map[string]string {
	t.Helper()
	tg := testTarget(t, agent, "/home/u")
	ss, err := tg.Adapter.Scripts(tg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths := map[string]string{}
	for _, s := range ss {
		p := filepath.Join(dir, s.Name)
		if err := os.WriteFile(p, s.Content, 0o755); err != nil {
			t.Fatal(err)
		}
		paths[s.Event] = p
	}
	return paths
}

// runHook runs one script under dash with env and payload on stdin, and
// checks that it exits 0 and prints nothing, on stdout or stderr.
func runHook(t *testing.T, script string, env []string, payload string) {
	t.Helper()
	cmd := exec.Command("dash", script)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	cmd.Stdin = bytes.NewBufferString(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v (stderr %q)", filepath.Base(script), err, stderr.String())
	}
	if stdout.Len() != 0 || stderr.Len() != 0 {
		t.Fatalf("%s: printed stdout %q, stderr %q; want nothing", filepath.Base(script), stdout.String(), stderr.String())
	}
}

func needDash(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dash"); err != nil {
		t.Skip("dash is not installed (apt-get install dash); the generated scripts are checked under it")
	}
}

type hookCase struct {
	agent, event, payload string
	want                  scripts.State // "" means nothing is written
	env                   []string      // extra environment
}

var ptyHookCases = []hookCase{
	{"grok", "UserPromptSubmit", `{"hookEventName":"user_prompt_submit","sessionId":"s1","prompt":"<user_query>hi</user_query>"}`, scripts.Working, nil},
	{"grok", "Notification", `{"hookEventName":"notification","notificationType":"permission_prompt","message":"Grok needs your permission","permissionMode":"default","level":"info"}`, scripts.Attention, nil},
	{"grok", "Notification", "{\n  \"hookEventName\" : \"notification\",\n\t\"notificationType\"\t:\r\n  \"permission_prompt\" ,\n  \"message\": \"x\"\n}\n", scripts.Attention, nil},
	{"grok", "Notification", `{"notificationType":"permission_prompt"}`, scripts.Attention, []string{"GROK_HOOK_EVENT=notification", "GROK_HOOK_NAME=global/hooks:notification[0].hooks[0]"}},
	{"grok", "Notification", `{"hookEventName":"notification","notificationType":"idle_prompt","message":"Grok is waiting for your input"}`, "", nil},
	{"grok", "Notification", `{"hookEventName":"notification","notificationType":"auth_success","message":"permission_prompt"}`, "", nil},
	{"grok", "Notification", `{"hookEventName":"notification","message":"notificationType: permission_prompt"}`, "", nil},
	{"grok", "Notification", `{"message":"\"notificationType\":\"permission_prompt\"","notificationType":"idle_prompt"}`, "", nil},
	{"grok", "Notification", `{"hookEventName":"notification","notificationType":""}`, "", nil},
	{"grok", "Notification", ``, "", nil},
	{"grok", "Stop", `{"hookEventName":"stop","reason":"end_turn"}`, scripts.Done, nil},
	{"grok", "StopCancelled", `{"hookEventName":"stop_cancelled","reason":"user_interrupt"}`, scripts.Interrupted, nil},
	{"antigravity", "PreInvocation", `{"conversationId":"c1","executionNum":0}`, scripts.Working, nil},
	{"antigravity", "Stop", `{"conversationId":"c1","executionNum":0,"fullyIdle":true,"terminationReason":"NO_TOOL_CALL","error":""}`, scripts.Done, nil},
	{"zerocode", "UserPromptSubmit", `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi","turn_id":"t"}`, scripts.Working, nil},
	{"zerocode", "PermissionRequest", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"touch x"}}`, scripts.Attention, nil},
	{"zerocode", "Stop", `{"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`, scripts.Done, nil},
	{"codex", "UserPromptSubmit", `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi","turn_id":"t"}`, scripts.Working, nil},
	{"codex", "PermissionRequest", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"touch x","description":"why"}}`, scripts.Attention, nil},
	{"codex", "Stop", `{"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All done"}`, scripts.Done, nil},
	{"codex", "Interrupt", `{"session_id":"01a22de3-d308-7c21-a6f9-3191b58407a3","turn_id":"01a22de4-15e9-7451-b293-d13cc03d17e4","transcript_path":"/tmp/h/.codex/sessions/2026/11/30/rollout.jsonl","cwd":"/tmp/w","hook_event_name":"Interrupt","model":"fake-model","permission_mode":"default"}`, scripts.Interrupted, nil},
	{"copilot", "userPromptSubmitted", `{"sessionId":"74a4756b-605e-4287-b0e7-b64b96cbff75","timestamp":1796067298500,"cwd":"/tmp/w","prompt":"please create the marker file"}`, scripts.Working, nil},
	{"copilot", "notification", `{"sessionId":"74a4756b-605e-4287-b0e7-b64b96cbff75","timestamp":1796067298989,"cwd":"/tmp/w","message":"Run command: touch probe-marker.txt","title":"Permission needed","hook_event_name":"Notification","notification_type":"permission_prompt"}`, scripts.Attention, nil},
	{"copilot", "notification", "{\n  \"notification_type\" : \"permission_prompt\",\n  \"title\": \"Permission needed\"\n}\n", scripts.Attention, nil},
	{"copilot", "notification", `{"hook_event_name":"Notification","notification_type":"agent_completed","message":"permission_prompt"}`, "", nil},
	{"copilot", "notification", `{"hook_event_name":"Notification","notificationType":"permission_prompt"}`, "", nil},
	{"copilot", "notification", `{"message":"\"notification_type\":\"permission_prompt\"","notification_type":"elicitation"}`, "", nil},
	{"copilot", "notification", ``, "", nil},
	{"copilot", "agentStop", `{"sessionId":"s","timestamp":1796067299000,"cwd":"/tmp/w","transcriptPath":"/tmp/h/.copilot/session-state/s/events.jsonl","stopReason":"end_turn","stop_hook_active":false}`, scripts.Done, nil},
	{"letta", "UserPromptSubmit", `{"event_type":"UserPromptSubmit","working_directory":"/tmp/om/probe/lwork","prompt":"please create the marker file","is_command":false,"agent_id":"agent-local-6b227726-7f78-439c-8c77-230d73ee444a","conversation_id":"default"}`, scripts.Working, nil},
	{"letta", "Notification", `{"event_type":"Notification","working_directory":"/tmp/om/probe/lwork","message":"Approval needed","level":"info"}`, scripts.Attention, nil},
	{"letta", "Notification", `{"event_type":"Notification","working_directory":"/tmp/om/probe/lwork","message":"Turn completed, awaiting your input","level":"info"}`, "", nil},
	{"letta", "Notification", `{"event_type":"Notification","message":"Approval needed later","level":"info"}`, "", nil},
	{"letta", "Notification", `{"event_type":"Notification","level":"Approval needed","message":"Awaiting your input"}`, "", nil},
	{"letta", "Stop", `{"event_type":"Stop","working_directory":"/tmp/om/probe/lwork","stop_reason":"end_turn","message_count":6,"tool_call_count":1,"assistant_message":"All done: fake model finished the turn.","user_message":"please create the marker file"}`, scripts.Done, nil},
	{"kimi", "UserPromptSubmit", `{"hook_event_name":"UserPromptSubmit","session_id":"session_3237f229-4dc3-41d0-9214-094430d929a0","cwd":"/tmp/agc/km/work","client_type":"kimi_code_cli","session_title":"please create the marker file","prompt":[{"type":"text","text":"please create the marker file"}],"is_steer":false}`, scripts.Working, nil},
	{"kimi", "PermissionRequest", `{"hook_event_name":"PermissionRequest","session_id":"session_3237f229-4dc3-41d0-9214-094430d929a0","cwd":"/tmp/agc/km/work","client_type":"kimi_code_cli","session_title":"please create the marker file","id":"approval_70915230-f242-4042-8829-dc6b38f490b1","agent_id":"main","turn_id":0,"tool_call_id":"call_fake_18","tool_name":"Bash","action":"Running: touch kimi-marker.txt","display":{"kind":"command","command":"touch kimi-marker.txt","cwd":"/tmp/agc/km/work","description":"Create hook test marker file","language":"bash"},"tool_input":{"command":"touch kimi-marker.txt","description":"Create hook test marker file"}}`, scripts.Attention, nil},
	{"kimi", "Stop", `{"hook_event_name":"Stop","session_id":"session_3237f229-4dc3-41d0-9214-094430d929a0","cwd":"/tmp/agc/km/work","client_type":"kimi_code_cli","session_title":"please create the marker file","stop_hook_active":false}`, scripts.Done, nil},
	{"kimi", "Interrupt", `{"hook_event_name":"Interrupt","session_id":"session_3237f229-4dc3-41d0-9214-094430d929a0","cwd":"/tmp/agc/km/work","client_type":"kimi_code_cli","session_title":"please create the marker file","turn_id":1,"reason":"cancelled"}`, scripts.Interrupted, nil},
	{"gemini", "BeforeAgent", `{"session_id":"s","hook_event_name":"BeforeAgent","prompt":"please create the marker file"}`, scripts.Working, nil},
	{"gemini", "Notification", `{"session_id":"s","hook_event_name":"Notification","notification_type":"ToolPermission","message":"Tool Confirm Shell Command requires execution","details":{"type":"exec","title":"Confirm Shell Command","command":"touch x","rootCommand":"touch"}}`, scripts.Attention, nil},
	{"gemini", "Notification", `{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"ToolPermission"}`, "", nil},
	{"gemini", "AfterAgent", `{"hook_event_name":"AfterAgent","prompt":"p","prompt_response":"All done","stop_hook_active":false}`, scripts.Done, nil},
	{"qwen", "UserPromptSubmit", `{"hook_event_name":"UserPromptSubmit","permission_mode":"default","prompt":""}`, scripts.Working, nil},
	{"qwen", "Notification", `{"hook_event_name":"Notification","message":"Qwen Code needs your permission to use run_shell_command","notification_type":"permission_prompt","title":"Permission needed"}`, scripts.Attention, nil},
	{"qwen", "Notification", `{"hook_event_name":"Notification","message":"Qwen Code is waiting for your input","notification_type":"idle_prompt","title":"Waiting for input"}`, "", nil},
	{"qwen", "Notification", `{"hook_event_name":"Notification","message":"Successfully authenticated with openai","notification_type":"auth_success"}`, "", nil},
	{"qwen", "Stop", `{"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All done","background_tasks":[]}`, scripts.Done, nil},
	{"qwen", "PostToolUseFailure", `{"session_id":"e0a321f9-9c8d-4d88-8cff-a2e89ed8f454","transcript_path":"/tmp/agents-a/probe/home-qwen/.qwen/projects/-tmp-agents-a-probe-work-qwen/chats/e0a321f9-9c8d-4d88-8cff-a2e89ed8f454.jsonl","cwd":"/tmp/agents-a/probe/work-qwen","hook_event_name":"PostToolUseFailure","timestamp":"2026-11-30T20:14:27.354Z","permission_mode":"default","tool_use_id":"toolu_1796069662222_33ck38g2k","tool_call_id":"call_fake_2","tool_name":"run_shell_command","tool_input":{"command":"touch probe-marker.txt && sleep 60","description":"Create hook test marker file"},"error":"The tool had already completed; its output was discarded. User intentionally cancelled. Stop and await further instructions; do not retry.","is_interrupt":true,"duration_ms":4995}`, scripts.Interrupted, nil},
	{"qwen", "PostToolUseFailure", `{"is_interrupt":true}`, scripts.Interrupted, nil},
	{"qwen", "PostToolUseFailure", "{\n  \"is_interrupt\" :\ttrue\n}", scripts.Interrupted, nil},
	{"qwen", "PostToolUseFailure", `{"hook_event_name":"PostToolUseFailure","error":"exit 1","is_interrupt":false,"duration_ms":5}`, "", nil},
	{"qwen", "PostToolUseFailure", `{"is_interrupt":"true"}`, "", nil},
	{"qwen", "PostToolUseFailure", `{"is_interrupt":trueish}`, "", nil},
	{"qwen", "PostToolUseFailure", `{"error":"\"is_interrupt\": true","is_interrupt":false}`, "", nil},
	{"qwen", "PostToolUseFailure", `{"hook_event_name":"PostToolUseFailure","error":"exit 1"}`, "", nil},
	{"qwen", "PostToolUseFailure", ``, "", nil},
	{"droid", "UserPromptSubmit", `{"hook_event_name":"UserPromptSubmit","prompt":"SAYHI please","has_images":false}`, scripts.Working, nil},
	{"droid", "Notification", `{"hook_event_name":"Notification","message":"Factory CLI needs permission to execute 1 tool(s)","notification_type":"permission_prompt"}`, scripts.Attention, nil},
	{"droid", "Notification", `{"hook_event_name":"Notification","message":"Agent stopped by user and is waiting for input","notification_type":"idle_prompt"}`, scripts.Interrupted, nil},
	{"droid", "Notification", "{\n  \"notification_type\" : \"idle_prompt\"\n}", scripts.Interrupted, nil},
	{"droid", "Notification", `{"hook_event_name":"Notification","message":"Factory CLI is asking the user 1 question(s)","notification_type":"elicitation_dialog"}`, scripts.Attention, nil},
	{"droid", "Notification", `{"hook_event_name":"Notification","message":"x","notification_type":"auth_success"}`, "", nil},
	{"droid", "Notification", `{"message":"\"notification_type\":\"idle_prompt\"","notification_type":"permission_prompt"}`, scripts.Attention, nil},
	{"droid", "Notification", `{"notification_type":"idle_prompt_x"}`, "", nil},
	{"droid", "Notification", `{"notification_type":""}`, "", nil},
	{"droid", "Notification", ``, "", nil},
	{"droid", "Stop", `{"hook_event_name":"Stop","stop_hook_active":false,"tool_execution_count":0,"elapsed_time":0}`, scripts.Done, nil},
}

// TestPTYScriptsWriteExactOSC runs every script of every agent that writes to
// the host's pty, under dash, against a real pty: with the task env set, the
// exact OSC bytes arrive, and nothing else.
func TestPTYScriptsWriteExactOSC(t *testing.T) {
	needDash(t)
	p := ptytest.Open(t)
	for _, c := range ptyHookCases {
		paths := installScripts(t, c.agent)
		script, ok := paths[c.event]
		if !ok {
			t.Fatalf("%s has no script for %s", c.agent, c.event)
		}
		env := append([]string{"HOOKINSTALL_TASK_ID=task-1", "HOOKINSTALL_PTY=" + p.Path}, c.env...)
		runHook(t, script, env, c.payload)
		var want []byte
		if c.want != "" {
			want = scripts.OSC("hookinstall", c.want)
		}
		if got := p.Drain(t); !bytes.Equal(got, want) {
			t.Errorf("%s %s with payload %q: pty got %q, want %q", c.agent, c.event, c.payload, got, want)
		}
	}
}

// TestPTYScriptsEveryEventCovered pins which events each pty agent installs,
// so a new event cannot go untested above.
func TestPTYScriptsEveryEventCovered(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range ptyHookCases {
		seen[c.agent+"/"+c.event] = true
	}
	for _, agent := range []string{"grok", "antigravity", "zerocode", "codex", "kimi", "letta"} {
		for ev := range installScripts(t, agent) {
			if !seen[agent+"/"+ev] {
				t.Errorf("%s %s: no case in ptyHookCases", agent, ev)
			}
		}
	}
}

// TestPTYScriptsSilent: outside the host (no task env), or with the pty path
// unset, missing, a regular file or a directory, every script writes nothing,
// creates nothing, prints nothing and exits 0.
func TestPTYScriptsSilent(t *testing.T) {
	needDash(t)
	p := ptytest.Open(t)
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	subdir := filepath.Join(dir, "subdir")
	if err := os.Mkdir(subdir, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	envs := map[string][]string{
		"no task env":        {"HOOKINSTALL_PTY=" + p.Path},
		"empty task env":     {"HOOKINSTALL_TASK_ID=", "HOOKINSTALL_PTY=" + p.Path},
		"other namespace":    {"TERMIC_TASK_ID=t", "TERMIC_PTY=" + p.Path},
		"pty unset":          {"HOOKINSTALL_TASK_ID=t"},
		"pty missing":        {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + missing},
		"pty a regular file": {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + regular},
		"pty a directory":    {"HOOKINSTALL_TASK_ID=t", "HOOKINSTALL_PTY=" + subdir},
	}
	for name, env := range envs {
		for _, c := range ptyHookCases {
			if c.want == "" {
				continue
			}
			runHook(t, installScripts(t, c.agent)[c.event], append(env, c.env...), c.payload)
			if got := p.Drain(t); len(got) != 0 {
				t.Errorf("%s, %s %s: pty got %q, want nothing", name, c.agent, c.event, got)
			}
			if _, err := os.Lstat(missing); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s, %s %s: created %s", name, c.agent, c.event, missing)
			}
			if b, err := os.ReadFile(regular); err != nil || len(b) != 0 {
				t.Fatalf("%s, %s %s: regular file now holds %q (%v)", name, c.agent, c.event, b, err)
			}
			if es, err := os.ReadDir(subdir); err != nil || len(es) != 0 {
				t.Fatalf("%s, %s %s: directory changed: %v %v", name, c.agent, c.event, es, err)
			}
		}
	}
	if fi, err := os.Stat(subdir); err != nil || !fi.IsDir() {
		t.Fatalf("directory gone: %v", err)
	}
}

// TestScriptsShellcheck runs shellcheck (POSIX sh) over every script of every
// agent, when shellcheck is installed (CI installs it). SC1010 is excluded: it
// flags the assignment state=done, where done is a plain word, not a keyword.
func TestScriptsShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed (apt-get install shellcheck)")
	}
	for _, name := range Names() {
		for ev, p := range installScripts(t, name) {
			if out, err := exec.Command(sc, "-s", "sh", "-e", "SC1010", p).CombinedOutput(); err != nil {
				t.Errorf("%s %s: shellcheck: %v\n%s", name, ev, err, out)
			}
		}
	}
}
