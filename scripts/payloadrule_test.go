package scripts

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// ruleSpecs are the scripts that read their payload: every rule, with the
// keys and values the agents use.
var ruleSpecs = []Spec{
	{Install: Install{Agent: "claude"}, Event: "Stop", State: terminal.Done, Rule: NonEmptyBackgroundTasks},
	{Install: Install{Agent: "gemini"}, Event: "Notification", State: terminal.Attention, Rule: PermissionPrompt},
	{Install: Install{Agent: "qwen"}, Event: "Notification", State: terminal.Attention, Rule: FieldEquals, Field: "notification_type", Value: "permission_prompt"},
	{Install: Install{Agent: "copilot"}, Event: "notification", State: terminal.Attention, Rule: FieldEquals, Field: "notification_type", Value: "tool permission"},
	{Install: Install{Agent: "qwen"}, Event: "PostToolUseFailure", State: terminal.Interrupted, Rule: FieldTrue, Field: "is_interrupt"},
	{Install: Install{Agent: "droid"}, Event: "Notification", State: terminal.Attention, Rule: FieldCases, Field: "notification_type",
		Cases: []Case{{"permission_prompt", terminal.Attention}, {"idle_prompt", terminal.Interrupted}}},
}

// ruleKey and ruleValues are what a spec's payload is about.
func ruleKey(s Spec) (string, []string) {
	switch s.Rule {
	case NonEmptyBackgroundTasks:
		return "background_tasks", []string{"[]", "[ ]", "[{}]", "[ {}]", `["a"]`, "[\n]", "null", "[1]"}
	case PermissionPrompt:
		return "notificationType", []string{`"permission_prompt"`, `"idle_prompt"`, `"permission_prompt_x"`}
	case FieldTrue:
		return s.Field, []string{"true", "false", "truex", `"true"`, "true}", "true ", "null"}
	case FieldCases:
		return s.Field, []string{`"permission_prompt"`, `"idle_prompt"`, `"other"`, `"idle_prompt_x"`, "1"}
	}
	return s.Field, []string{`"` + s.Value + `"`, `"` + s.Value + `x"`, `"other"`, `"` + strings.ReplaceAll(s.Value, " ", "  ") + `"`}
}

// rulePayloads are the payloads every rule script is run with: each recorded
// one, hand-made edge cases around the key (spaces around the colon, the key
// twice, the key as a value, escaped quotes, unterminated strings, several
// lines) and random strings of JSON-ish tokens, from a fixed seed.
func rulePayloads(t *testing.T, s Spec, random int) (recordedPayloads, made []string) {
	recorded, err := filepath.Glob(filepath.Join("..", "adapters", "payloads", "*.json"))
	if err != nil || len(recorded) == 0 {
		t.Fatalf("no recorded payloads: %v", err)
	}
	var ps []string
	for _, f := range recorded {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recordedPayloads = append(recordedPayloads, string(b))
	}
	k, values := ruleKey(s)
	q := `"` + k + `"`
	for _, v := range values {
		ps = append(ps, []string{
			`{` + q + `:` + v + `}`,
			`{"a":1,` + q + `:` + v + `,"b":2}`,
			`{` + q + ` : ` + v + `}`,
			`{` + q + ":\t" + v + `}`,
			`{` + q + "\n:" + v + "}\n",
			`{"x":` + q + `,` + q + `:` + v + `}`,
			`{` + q + `:` + v + `,` + q + `:true}`,
			`{` + q + `:"x",` + q + `:` + v + `}`,
			`{"m":"\"` + k + `\":` + v + `",` + q + `:` + v + `}`,
			`{"m":"\"` + k + `\":` + v + `"}`,
			k + `":` + v,
			q + `:` + v,
			`{"p":{` + q + `:` + v + `}}`,
			`{` + q + `:` + v,
			`{` + q + `:`,
			`{` + q,
			`{"a":"` + strings.Repeat("x", 3000) + `",` + q + `:` + v + `}`,
			"{\n  " + q + ": " + v + "\n}\n",
		}...)
	}
	tokens := []string{q, k, `"`, `:`, ` `, "\t", "\n", `,`, `{`, `}`, `[`, `]`, `\"`, `\`, "true", "false", "x"}
	for _, v := range values {
		tokens = append(tokens, v, strings.Trim(v, `"`))
	}
	r := rand.New(rand.NewSource(int64(len(k)) * 7919))
	for range random {
		var b strings.Builder
		for range 1 + r.Intn(12) {
			b.WriteString(tokens[r.Intn(len(tokens))])
		}
		ps = append(ps, b.String())
	}
	return recordedPayloads, ps
}

// TestPayloadFastPathAgreesWithSlowPath runs every payload-reading script
// twice, under dash and bash: as rendered, and with its fast path (the case
// patterns over the whole payload) switched off, so that the field loop
// decides every payload. Both must print the same bytes for every payload.
// And the fast path must decide alone for every recorded payload.
func TestPayloadFastPathAgreesWithSlowPath(t *testing.T) {
	sh := shells(t)
	const fastGate = `if [ -n "$slow" ]; then` // the slow path's
	for _, s := range ruleSpecs {
		s.NS, s.Transport, s.Product = "hookinstall", Stdout, "Agent"
		t.Run(s.Agent+"-"+s.Event+"-"+s.Field, func(t *testing.T) {
			t.Parallel()
			script, err := Render(s)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(script, []byte(fastGate)) {
				t.Fatalf("no %q in the rendered script:\n%s", fastGate, script)
			}
			dir := t.TempDir()
			both := filepath.Join(dir, "hook.sh")
			slowOnly := filepath.Join(dir, "slow.sh")
			fastOnly := filepath.Join(dir, "fast.sh")
			for path, text := range map[string][]byte{
				both:     script,
				slowOnly: bytes.Replace(script, []byte(fastGate), []byte("if true; then"), 1),
				fastOnly: bytes.Replace(script, []byte(fastGate), []byte("[ -z \"$slow\" ] || exit 3\n"+fastGate), 1),
			} {
				if err := os.WriteFile(path, text, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			run := func(shell []string, path, payload string) (string, int) {
				cmd := exec.Command(shell[0], append(shell[1:], path)...)
				cmd.Env = []string{"PATH=/usr/bin:/bin", "HOOKINSTALL_TASK_ID=task-1"}
				cmd.Stdin = strings.NewReader(payload)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				var ee *exec.ExitError
				if err != nil && !errors.As(err, &ee) || errb.Len() > 0 {
					t.Fatalf("%s %s: %v, stderr %q", shell[0], path, err, errb.String())
				}
				return out.String(), cmd.ProcessState.ExitCode()
			}
			recorded, made := rulePayloads(t, s, 150)
			seen := map[string]bool{}
			for _, p := range recorded {
				if _, code := run(sh[0], fastOnly, p); code == 3 {
					t.Errorf("the fast path leaves a recorded payload to the field loop: %q", p)
				}
			}
			for _, p := range append(recorded, made...) {
				for _, shell := range sh {
					got, _ := run(shell, both, p)
					want, _ := run(shell, slowOnly, p)
					if got != want {
						t.Errorf("%s, payload %q: fast path prints %q, the field loop %q", shell[0], p, got, want)
					}
					seen[got] = true
				}
			}
			if len(seen) < 2 {
				t.Errorf("every payload printed the same %v: the payloads do not exercise the rule", seen)
			}
		})
	}
}
