package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		sb.WriteString(sc.Text() + "\n")
	}
	return resp, sb.String()
}

func TestBindsLoopbackOnly(t *testing.T) {
	s := start(t, Config{})
	if !s.Addr.IP.IsLoopback() || s.Addr.IP.String() != "127.0.0.1" {
		t.Fatalf("server bound %v, want 127.0.0.1", s.Addr)
	}
}

func TestAnthropicTurn(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	_, out := post(t, s.URL+"/v1/messages?beta=true",
		`{"model":"claude-x","stream":true,"tools":[{"name":"Bash"},{"name":"Read"}],"messages":[{"role":"user","content":"hi"}]}`)
	if !strings.Contains(out, "event: content_block_start") || !strings.Contains(out, `"name":"Bash"`) ||
		!strings.Contains(out, `touch m.txt`) || !strings.Contains(out, `"stop_reason":"tool_use"`) {
		t.Fatalf("first turn is not a Bash tool call:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1/messages",
		`{"model":"claude-x","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"ok"}]}]}`)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("JSON reply: %v\n%s", err, out)
	}
	if m["stop_reason"] != "end_turn" || !strings.Contains(out, FinalText) {
		t.Fatalf("second turn is not the final text: %s", out)
	}
	rs := s.Requests()
	if len(rs) != 2 || rs[0].Reply != "tool:Bash" || rs[1].Reply != "text:final" {
		t.Fatalf("requests = %+v", rs)
	}
}

func TestResponsesTurn(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	_, out := post(t, s.URL+"/v1/responses", `{"model":"fake-model","tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"message","role":"user","content":"x"}]}`)
	if !strings.Contains(out, `require_escalated`) || !strings.Contains(out, `"name":"exec_command"`) {
		t.Fatalf("no escalated exec_command call:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1/responses", `{"model":"fake-model","tools":[],"input":"title please"}`)
	if !strings.Contains(out, TitleText) {
		t.Fatalf("no title:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1/responses", `{"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"function_call_output","call_id":"c","output":"ok"}]}`)
	if !strings.Contains(out, FinalText) || !strings.Contains(out, "response.completed") {
		t.Fatalf("no final text:\n%s", out)
	}
}

func TestChatTurn(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	_, out := post(t, s.URL+"/v1/chat/completions", `{"model":"fake-model","stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"x"}]}`)
	if !strings.Contains(out, `"finish_reason":"tool_calls"`) || !strings.Contains(out, "data: [DONE]") {
		t.Fatalf("no bash tool call:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1/chat/completions", `{"model":"fake-model","tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"tool","content":"ok"}]}`)
	if !strings.Contains(out, FinalText) {
		t.Fatalf("no final text:\n%s", out)
	}
}

// A second prompt in one session is a turn of its own; "slowly" makes the
// command run on, so that a driver can interrupt it (Pi's interrupted state).
func TestChatSecondPromptAndSlow(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	const tools = `"tools":[{"type":"function","function":{"name":"bash"}}]`
	turn1 := `{"role":"user","content":"x"},{"role":"assistant","tool_calls":[]},{"role":"tool","content":"ok"},{"role":"assistant","content":"done"}`
	_, out := post(t, s.URL+"/v1/chat/completions", `{"model":"fake-model",`+tools+`,"messages":[`+turn1+`,{"role":"user","content":[{"type":"text","text":"again, slowly"}]}]}`)
	if !strings.Contains(out, `"finish_reason":"tool_calls"`) || !strings.Contains(out, `touch m.txt`) || !strings.Contains(out, `sleep 60`) {
		t.Fatalf("the second prompt got no slow bash call:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1/chat/completions", `{"model":"fake-model",`+tools+`,"messages":[`+turn1+`,{"role":"user","content":"again"}]}`)
	if !strings.Contains(out, `"finish_reason":"tool_calls"`) || strings.Contains(out, "sleep") {
		t.Fatalf("the second prompt got no plain bash call:\n%s", out)
	}
}

// Qwen Code's shell tool is run_shell_command.
func TestChatRunShellCommand(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	_, out := post(t, s.URL+"/v1/chat/completions", `{"model":"fake-model","stream":true,"tools":[{"type":"function","function":{"name":"read_file"}},{"type":"function","function":{"name":"run_shell_command"}}],"messages":[{"role":"user","content":"x"}]}`)
	if !strings.Contains(out, `"name":"run_shell_command"`) || !strings.Contains(out, `touch m.txt`) {
		t.Fatalf("no run_shell_command call:\n%s", out)
	}
}

// Factory Droid's shell tool is Execute, with a risk level its default
// autonomy asks about; a prompt holding StallWord gets text that keeps
// streaming (read here up to its third chunk, then the client goes away).
func TestChatExecuteAndStall(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	const tools = `"tools":[{"type":"function","function":{"name":"Read"}},{"type":"function","function":{"name":"Execute"}}]`
	_, out := post(t, s.URL+"/v1/chat/completions", `{"model":"fake-model","stream":true,`+tools+`,"messages":[{"role":"user","content":"x"}]}`)
	if !strings.Contains(out, `"name":"Execute"`) || !strings.Contains(out, `touch m.txt`) || !strings.Contains(out, `riskLevel\":\"medium`) {
		t.Fatalf("no Execute call of medium risk:\n%s", out)
	}
	resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"fake-model","stream":true,`+tools+`,"messages":[{"role":"user","content":"x `+StallWord+`"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	var got []string
	for len(got) < 3 && sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "data: ") {
			got = append(got, l)
		}
	}
	resp.Body.Close()
	if len(got) < 3 || !strings.Contains(got[1], FinalText) || !strings.Contains(got[2], `"content":" ..."`) || strings.Contains(strings.Join(got, ""), "finish_reason\":\"stop") {
		t.Fatalf("the stalled answer is not text that goes on streaming:\n%s", strings.Join(got, "\n"))
	}
}

// Gemini CLI: a function call for run_shell_command, the final text once a
// functionResponse is in the contents, and a value of the asked schema for
// its JSON helper calls.
func TestGeminiTurn(t *testing.T) {
	s := start(t, Config{Marker: "m.txt"})
	tools := `"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"run_shell_command"}]}]`
	_, out := post(t, s.URL+"/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"x"}]}],`+tools+`}`)
	want := `data: {"candidates":[{"content":{"parts":[{"functionCall":{"args":{"command":"touch m.txt","description":"Create hook test marker file"},"name":"run_shell_command"}}],"role":"model"},"finishReason":"STOP","index":0}]`
	if !strings.HasPrefix(out, want) {
		t.Fatalf("no run_shell_command call:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"x"}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{}}}]}],`+tools+`}`)
	if !strings.Contains(out, `"text":"`+FinalText+`"`) {
		t.Fatalf("no final text:\n%s", out)
	}
	// a second prompt after a finished turn is a turn of its own; "slowly" runs on
	turn1 := `{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{}}}]},{"role":"model","parts":[{"text":"done"}]}`
	_, out = post(t, s.URL+"/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
		`{"contents":[`+turn1+`,{"role":"user","parts":[{"text":"again, slowly"}]}],`+tools+`}`)
	if !strings.Contains(out, `"command":"touch m.txt \u0026\u0026 sleep 60"`) {
		t.Fatalf("the second, slow prompt got no slow call:\n%s", out)
	}
	_, out = post(t, s.URL+"/v1beta/models/gemini-lite:generateContent",
		`{"contents":[{"role":"user","parts":[{"text":"route"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"complexity_reasoning":{"type":"string"},"complexity_score":{"type":"number","minimum":1,"maximum":100},"next_speaker":{"type":"string","enum":["model","user"]}}}}}`)
	var m struct {
		Candidates []struct {
			Content struct{ Parts []struct{ Text string } }
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Candidates) != 1 || len(m.Candidates[0].Content.Parts) != 1 {
		t.Fatalf("not one candidate with one part: %v\n%s", err, out)
	}
	if got, want := m.Candidates[0].Content.Parts[0].Text, `{"complexity_reasoning":"fake","complexity_score":1,"next_speaker":"user"}`; got != want {
		t.Fatalf("JSON answer = %s, want %s", got, want)
	}
	_, out = post(t, s.URL+"/v1beta/models/gemini-x:countTokens", `{}`)
	if strings.TrimSpace(out) != `{"totalTokens":42}` {
		t.Fatalf("countTokens = %s", out)
	}
	var replies []string
	for _, q := range s.Requests() {
		replies = append(replies, q.API+":"+q.Reply+":"+q.Model)
	}
	if got := strings.Join(replies, " "); got != "gemini:tool:run_shell_command:gemini-x gemini:text:final:gemini-x gemini:tool:run_shell_command:gemini-x gemini:text:json:gemini-lite gemini:count_tokens:" {
		t.Fatalf("requests = %s", got)
	}
}

func TestStopsAfterMaxRequests(t *testing.T) {
	s := start(t, Config{MaxRequests: 1})
	post(t, s.URL+"/v1/models", ``)
	resp, _ := post(t, s.URL+"/v1/messages", `{}`)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("request over the limit: status %d", resp.StatusCode)
	}
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("server did not stop after MaxRequests")
	}
}

func TestStopsAfterMaxDuration(t *testing.T) {
	s := start(t, Config{MaxDuration: 100 * time.Millisecond})
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("server did not stop after MaxDuration")
	}
	if _, err := http.Get(s.URL + "/v1/models"); err == nil {
		t.Fatal("server still answers after it stopped")
	}
}
