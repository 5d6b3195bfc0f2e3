// Package fakemodel is a scripted model server for the end-to-end suite.
//
// It speaks just enough of three wire formats to carry one agent turn:
//
//   - the Anthropic Messages API (POST .../v1/messages, SSE or JSON): Claude Code
//   - the OpenAI Responses API (POST .../responses, SSE): Codex
//   - the OpenAI Chat Completions API (POST .../chat/completions, SSE or JSON): opencode,
//     Qwen Code, Factory Droid (its Execute tool)
//   - the Gemini API (POST .../models/MODEL:streamGenerateContent?alt=sse, SSE, and
//     :generateContent, JSON; :countTokens): Gemini CLI through GOOGLE_GEMINI_BASE_URL
//
// Every answer is decided from the request body alone (no state):
//
//   - tools offered and no tool result yet: one shell tool call, `touch <Marker>`,
//     shaped so that the agent has to ask the user before running it (Chat
//     Completions: no tool result since the last user message, so every prompt
//     of a session is a turn of its own; a prompt holding SlowWord makes the
//     command run on for SlowSeconds)
//   - a tool result present: the final text, so the turn ends
//   - no tools (title generation): a short title
//
// The server binds 127.0.0.1 only, and it stops by itself after MaxRequests requests
// or MaxDuration, whichever comes first.
package fakemodel

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Texts the server answers with.
const (
	FinalText = "All done: fake model finished the turn."
	TitleText = "Hook test session"
)

// A prompt holding SlowWord (in any of the APIs) gets a shell command that runs
// on for SlowSeconds after it touches the marker, so a driver can interrupt
// the agent while the tool runs.
const (
	SlowWord    = "slowly"
	SlowSeconds = 60
)

// A Chat Completions prompt holding StallWord gets a text answer streamed one
// chunk a second for StallSeconds (ending early when the client goes away),
// so a driver can interrupt the agent while the model streams: Factory
// Droid reports an interrupt only then (measured on 0.225.2; Esc while a
// tool runs fires its Stop).
const (
	StallWord    = "stalling"
	StallSeconds = 60
)

// Config says what the server answers and how long it lives.
type Config struct {
	Marker      string        // file name the scripted shell command touches
	MaxRequests int           // stop after this many requests (default 200)
	MaxDuration time.Duration // stop after this long (default 10 minutes)
	Log         io.Writer     // optional: one JSON line per request
}

// A Request is what the server saw and what it answered.
type Request struct {
	N          int             `json:"n"`
	Time       time.Time       `json:"time"`
	Method     string          `json:"method"`
	Path       string          `json:"path"`
	API        string          `json:"api"`   // anthropic, responses, chat, gemini, models, other
	Reply      string          `json:"reply"` // tool:NAME, text:final, text:title, count_tokens, 404
	Model      string          `json:"model,omitempty"`
	Tools      []string        `json:"tools,omitempty"`
	Stream     bool            `json:"stream,omitempty"`
	HasResult  bool            `json:"has_tool_result,omitempty"`
	Encoding   string          `json:"content_encoding,omitempty"`
	RawLen     int             `json:"raw_len,omitempty"`
	UserAgent  string          `json:"user_agent,omitempty"`
	ToolCall   json.RawMessage `json:"tool_call,omitempty"`
	ParseError string          `json:"parse_error,omitempty"`
}

// A Server is a running fake model server.
type Server struct {
	URL  string // http://127.0.0.1:PORT
	Addr *net.TCPAddr

	cfg   Config
	srv   *http.Server
	ln    net.Listener
	mu    sync.Mutex
	reqs  []Request
	n     int
	done  chan struct{}
	once  sync.Once
	timer *time.Timer
}

// Start listens on 127.0.0.1 (an ephemeral port) and serves until Close, MaxRequests
// or MaxDuration.
func Start(cfg Config) (*Server, error) {
	if cfg.Marker == "" {
		cfg.Marker = "hook-marker.txt"
	}
	if cfg.MaxRequests <= 0 {
		cfg.MaxRequests = 200
	}
	if cfg.MaxDuration <= 0 {
		cfg.MaxDuration = 10 * time.Minute
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // loopback only, never a wildcard
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, ln: ln, done: make(chan struct{})}
	s.Addr = ln.Addr().(*net.TCPAddr)
	s.URL = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.timer = time.AfterFunc(cfg.MaxDuration, s.shutdown)
	s.mu.Unlock()
	go func() {
		_ = s.srv.Serve(ln)
		s.once.Do(func() { close(s.done) })
	}()
	return s, nil
}

// Close stops the server; it is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	s.timer.Stop()
	s.mu.Unlock()
	s.shutdown()
}

func (s *Server) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		_ = s.srv.Close()
	}
	s.once.Do(func() { close(s.done) })
}

// Done is closed when the server has stopped.
func (s *Server) Done() <-chan struct{} { return s.done }

// Requests returns a copy of every request seen so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	if s.cfg.Log != nil {
		b, _ := json.Marshal(r)
		_, _ = s.cfg.Log.Write(append(b, '\n'))
	}
	s.mu.Unlock()
}

func (s *Server) next() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return s.n, s.n > s.cfg.MaxRequests
}

// ServeHTTP dispatches on the path suffix.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n, over := s.next()
	if over {
		go s.Close()
		http.Error(w, "fake model server: request limit reached", http.StatusServiceUnavailable)
		return
	}
	rec := Request{N: n, Time: time.Now(), Method: r.Method, Path: r.URL.RequestURI(),
		UserAgent: r.Header.Get("User-Agent"), Encoding: r.Header.Get("Content-Encoding")}
	p := r.URL.Path
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	if r.Method == http.MethodGet {
		if strings.HasSuffix(p, "/models") {
			rec.API, rec.Reply = "models", "models"
			s.record(rec)
			writeJSON(w, map[string]any{"object": "list", "data": []any{
				map[string]any{"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"}}})
			return
		}
		rec.API, rec.Reply = "other", "404"
		s.record(rec)
		notFound(w)
		return
	}
	body, raw, err := readBody(r)
	rec.RawLen = len(raw)
	if err != nil {
		rec.ParseError = err.Error()
	}
	switch {
	case strings.HasSuffix(p, ":countTokens"):
		rec.API, rec.Reply = "gemini", "count_tokens"
		s.record(rec)
		writeJSON(w, map[string]any{"totalTokens": 42})
	case strings.HasSuffix(p, ":streamGenerateContent"), strings.HasSuffix(p, ":generateContent"):
		rec.API = "gemini"
		d := geminiDecide(body, s.cfg.Marker)
		s.fill(&rec, body, d)
		rec.Model = geminiModel(p)
		rec.Stream = strings.HasSuffix(p, ":streamGenerateContent")
		s.record(rec)
		if rec.Stream {
			writeSSE(w, []sseEvent{{"", geminiJSON(d, rec.Model)}}, false, false)
		} else {
			writeJSON(w, geminiJSON(d, rec.Model))
		}
	case strings.HasSuffix(p, "/messages/count_tokens"):
		rec.API, rec.Reply = "anthropic", "count_tokens"
		s.record(rec)
		writeJSON(w, map[string]any{"input_tokens": 42})
	case strings.HasSuffix(p, "/messages"):
		rec.API = "anthropic"
		d := anthropicDecide(body, s.cfg.Marker)
		s.fill(&rec, body, d)
		s.record(rec)
		if b, _ := body["stream"].(bool); b {
			writeSSE(w, anthropicEvents(body, d, n), true, false)
		} else {
			writeJSON(w, anthropicJSON(body, d, n))
		}
	case strings.HasSuffix(p, "/responses"):
		rec.API = "responses"
		d := responsesDecide(body, s.cfg.Marker)
		s.fill(&rec, body, d)
		s.record(rec)
		writeSSE(w, responsesEvents(body, d, n), true, false)
	case strings.HasSuffix(p, "/chat/completions"):
		rec.API = "chat"
		d := chatDecide(body, s.cfg.Marker)
		s.fill(&rec, body, d)
		s.record(rec)
		if b, _ := body["stream"].(bool); b && d.stall {
			evs := chatChunks(body, d, n)
			writeStalled(r.Context(), w, evs[:2], evs[2:])
		} else if b {
			writeSSE(w, chatChunks(body, d, n), false, true)
		} else {
			writeJSON(w, chatJSON(body, d, n))
		}
	default:
		rec.API, rec.Reply = "other", "404"
		s.record(rec)
		notFound(w)
	}
}

func (s *Server) fill(rec *Request, body map[string]any, d decision) {
	rec.Model, _ = body["model"].(string)
	rec.Stream, _ = body["stream"].(bool)
	rec.Tools = d.tools
	rec.HasResult = d.hasResult
	if d.kind == "tool" {
		rec.Reply = "tool:" + d.name
		rec.ToolCall, _ = json.Marshal(d.args)
	} else {
		rec.Reply = "text:" + d.which
	}
}

func readBody(r *http.Request) (map[string]any, []byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return map[string]any{}, raw, err
	}
	data := raw
	switch enc := r.Header.Get("Content-Encoding"); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return map[string]any{}, raw, err
		}
		if data, err = io.ReadAll(zr); err != nil {
			return map[string]any{}, raw, err
		}
	default:
		return map[string]any{}, raw, fmt.Errorf("unsupported content encoding %q", enc)
	}
	body := map[string]any{}
	if len(bytes.TrimSpace(data)) == 0 {
		return body, raw, nil
	}
	if err := json.Unmarshal(data, &body); err != nil {
		return map[string]any{}, raw, err
	}
	return body, raw, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

func notFound(w http.ResponseWriter) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "not found", "type": "not_found"}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write(b)
}

type sseEvent struct {
	name string
	data any
}

func writeSSE(w http.ResponseWriter, evs []sseEvent, named, done bool) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	for _, e := range evs {
		b, _ := json.Marshal(e.data)
		if named {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, b)
		} else {
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		if fl != nil {
			fl.Flush()
		}
	}
	if done {
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}
	if fl != nil {
		fl.Flush()
	}
}

// writeStalled streams head, then one more chunk of text a second for
// StallSeconds (or until ctx ends: the client went away), then tail.
func writeStalled(ctx context.Context, w http.ResponseWriter, head, tail []sseEvent) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	send := func(e sseEvent) {
		b, _ := json.Marshal(e.data)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	for _, e := range head {
		send(e)
	}
	tk := time.NewTicker(time.Second)
	defer tk.Stop()
	for i := 0; i < StallSeconds; i++ {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		c := head[len(head)-1].data.(map[string]any)
		more := map[string]any{}
		for k, v := range c {
			more[k] = v
		}
		more["choices"] = []any{map[string]any{"index": 0, "delta": map[string]any{"content": " ..."}, "finish_reason": nil}}
		send(sseEvent{"", more})
	}
	for _, e := range tail {
		send(e)
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// decision is what to answer.
type decision struct {
	kind      string // "tool" or "text"
	name      string // tool name
	args      map[string]any
	which     string // "final" or "title"
	text      string
	tools     []string
	hasResult bool
	stall     bool // stream the text slowly (StallWord)
}

func text(which string, tools []string, hasResult bool) decision {
	d := decision{kind: "text", which: which, text: FinalText, tools: tools, hasResult: hasResult}
	if which == "title" {
		d.text = TitleText
	}
	return d
}

func list(v any) []any { l, _ := v.([]any); return l }
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
func str(v any) string { s, _ := v.(string); return s }

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- Anthropic

func anthropicDecide(body map[string]any, marker string) decision {
	var tools []string
	for _, t := range list(body["tools"]) {
		if n := str(obj(t)["name"]); n != "" {
			tools = append(tools, n)
		}
	}
	// Only this turn counts: a tool result after the user's last words (a
	// second prompt in the session gets its own tool call; Claude Code puts
	// its reminders and "[Request interrupted ...]" in text blocks too).
	has, prompt := false, ""
	for _, m := range list(body["messages"]) {
		if c, ok := obj(m)["content"].(string); ok && str(obj(m)["role"]) == "user" {
			has, prompt = false, c
		}
		for _, b := range list(obj(m)["content"]) {
			switch t := str(obj(b)["text"]); {
			case str(obj(b)["type"]) == "tool_result":
				has = true
			case str(obj(m)["role"]) == "user" && t != "" && !strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "[Request interrupted"):
				has, prompt = false, t
			}
		}
	}
	switch {
	case len(tools) > 0 && !has && contains(tools, "Bash"):
		cmd := "touch " + marker
		if strings.Contains(prompt, SlowWord) {
			cmd += " && sleep " + fmt.Sprint(SlowSeconds)
		}
		return decision{kind: "tool", name: "Bash", tools: tools,
			args: map[string]any{"command": cmd, "description": "Create hook test marker file"}}
	case len(tools) == 0:
		return text("title", tools, has)
	default:
		return text("final", tools, has)
	}
}

func anthropicEvents(body map[string]any, d decision, n int) []sseEvent {
	model := str(body["model"])
	if model == "" {
		model = "fake-model"
	}
	evs := []sseEvent{{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_fake_%d", n), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 12, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}}}}
	stop := "end_turn"
	if d.kind == "tool" {
		args, _ := json.Marshal(d.args)
		evs = append(evs,
			sseEvent{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%d", n),
					"name": d.name, "input": map[string]any{}}}},
			sseEvent{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}}})
		stop = "tool_use"
	} else {
		evs = append(evs,
			sseEvent{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "text", "text": ""}}},
			sseEvent{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": d.text}}})
	}
	return append(evs,
		sseEvent{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		sseEvent{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": 20}}},
		sseEvent{"message_stop", map[string]any{"type": "message_stop"}})
}

func anthropicJSON(body map[string]any, d decision, n int) map[string]any {
	var content []any
	stop := "end_turn"
	if d.kind == "tool" {
		content = []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%d", n), "name": d.name, "input": d.args}}
		stop = "tool_use"
	} else {
		content = []any{map[string]any{"type": "text", "text": d.text}}
	}
	model := str(body["model"])
	if model == "" {
		model = "fake-model"
	}
	return map[string]any{"id": fmt.Sprintf("msg_fake_%d", n), "type": "message", "role": "assistant",
		"model": model, "content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 12, "output_tokens": 20}}
}

// ---------------------------------------------------------------- OpenAI Responses

func responsesDecide(body map[string]any, marker string) decision {
	var tools []string
	for _, t := range list(body["tools"]) {
		o := obj(t)
		n := str(o["name"])
		if n == "" {
			n = str(obj(o["function"])["name"])
		}
		if n == "" {
			n = str(o["type"])
		}
		tools = append(tools, n)
	}
	// Only this turn counts: a tool result after the user's last words (Codex's
	// own context and "<turn_aborted>" come as user messages too).
	has, prompt := false, ""
	for _, it := range list(body["input"]) {
		switch t := chatText(obj(it)["content"]); str(obj(it)["type"]) {
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			has = true
		case "message":
			if str(obj(it)["role"]) == "user" && t != "" && !strings.HasPrefix(strings.TrimSpace(t), "<") {
				has, prompt = false, t
			}
		}
	}
	if len(tools) > 0 && !has {
		cmd := "touch " + marker
		if strings.Contains(prompt, SlowWord) {
			cmd += " && sleep " + fmt.Sprint(SlowSeconds)
		}
		// Codex runs a plain command in its read-only sandbox without asking; asking
		// to run it outside the sandbox is what makes it ask the user.
		esc := func(m map[string]any) map[string]any {
			m["sandbox_permissions"] = "require_escalated"
			m["justification"] = "Create hook test marker file?"
			return m
		}
		switch {
		case contains(tools, "exec_command"):
			return decision{kind: "tool", name: "exec_command", tools: tools, args: esc(map[string]any{"cmd": cmd})}
		case contains(tools, "shell_command"):
			return decision{kind: "tool", name: "shell_command", tools: tools, args: esc(map[string]any{"command": cmd})}
		case contains(tools, "shell"):
			return decision{kind: "tool", name: "shell", tools: tools, args: esc(map[string]any{"command": []any{"bash", "-lc", cmd}})}
		}
	}
	if len(tools) == 0 {
		return text("title", tools, has)
	}
	return text("final", tools, has)
}

func responsesEvents(body map[string]any, d decision, n int) []sseEvent {
	model := str(body["model"])
	if model == "" {
		model = "fake-model"
	}
	rid := fmt.Sprintf("resp_fake_%d", n)
	evs := []sseEvent{{"response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": rid, "object": "response", "model": model, "status": "in_progress", "output": []any{}}}}}
	if d.kind == "tool" {
		args, _ := json.Marshal(d.args)
		item := func(a, status string) map[string]any {
			return map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_fake_%d", n),
				"call_id": fmt.Sprintf("call_fake_%d", n), "name": d.name, "arguments": a, "status": status}
		}
		evs = append(evs,
			sseEvent{"response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item("", "in_progress")}},
			sseEvent{"response.function_call_arguments.delta", map[string]any{"type": "response.function_call_arguments.delta",
				"output_index": 0, "item_id": fmt.Sprintf("fc_fake_%d", n), "delta": string(args)}},
			sseEvent{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item(string(args), "completed")}})
	} else {
		mid := fmt.Sprintf("msg_fake_%d", n)
		evs = append(evs,
			sseEvent{"response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
				"item": map[string]any{"type": "message", "id": mid, "role": "assistant", "status": "in_progress", "content": []any{}}}},
			sseEvent{"response.output_text.delta", map[string]any{"type": "response.output_text.delta",
				"output_index": 0, "content_index": 0, "item_id": mid, "delta": d.text}},
			sseEvent{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0,
				"item": map[string]any{"type": "message", "id": mid, "role": "assistant", "status": "completed",
					"content": []any{map[string]any{"type": "output_text", "text": d.text, "annotations": []any{}}}}}})
	}
	return append(evs, sseEvent{"response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": rid, "object": "response", "model": model, "status": "completed", "output": []any{},
		"usage": map[string]any{"input_tokens": 12, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 20, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 32}}}})
}

// ---------------------------------------------------------------- OpenAI Chat Completions

func chatDecide(body map[string]any, marker string) decision {
	var tools []string
	for _, t := range list(body["tools"]) {
		if n := str(obj(obj(t)["function"])["name"]); n != "" {
			tools = append(tools, n)
		}
	}
	// Only this turn counts: a tool result after the last user message. (A
	// second prompt in the same session gets its own tool call.)
	has, prompt := false, ""
	for _, m := range list(body["messages"]) {
		switch str(obj(m)["role"]) {
		case "user":
			has, prompt = false, chatText(obj(m)["content"])
		case "tool":
			has = true
		}
	}
	if len(tools) > 0 && !has {
		cmd := "touch " + marker
		if strings.Contains(prompt, SlowWord) {
			cmd += " && sleep " + fmt.Sprint(SlowSeconds)
		}
		if strings.Contains(prompt, StallWord) {
			d := text("final", tools, has)
			d.stall = true
			return d
		}
		// Execute: Factory Droid's shell tool; "medium" is a risk its
		// default autonomy asks the user about
		if contains(tools, "Execute") {
			return decision{kind: "tool", name: "Execute", tools: tools,
				args: map[string]any{"command": cmd, "summary": "Create hook test marker file",
					"riskLevel": "medium", "riskLevelReason": "it creates a file"}}
		}
		// run_shell_command: Qwen Code's shell tool
		for _, n := range []string{"bash", "shell", "Bash", "run_shell_command"} {
			if contains(tools, n) {
				return decision{kind: "tool", name: n, tools: tools,
					args: map[string]any{"command": cmd, "description": "Create hook test marker file"}}
			}
		}
	}
	if len(tools) == 0 {
		return text("title", tools, has)
	}
	return text("final", tools, has)
}

// chatText is the text of a chat message's content: a string, or an array of
// {type:"text",text} parts.
func chatText(c any) string {
	if s, ok := c.(string); ok {
		return s
	}
	var b strings.Builder
	for _, p := range list(c) {
		b.WriteString(str(obj(p)["text"]))
	}
	return b.String()
}

func chatChunks(body map[string]any, d decision, n int) []sseEvent {
	model := str(body["model"])
	if model == "" {
		model = "fake-model"
	}
	id := fmt.Sprintf("chatcmpl-fake-%d", n)
	now := time.Now().Unix()
	chunk := func(delta map[string]any, finish any, usage any) sseEvent {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": now, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		return sseEvent{"", c}
	}
	out := []sseEvent{chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)}
	fin := "stop"
	if d.kind == "tool" {
		args, _ := json.Marshal(d.args)
		out = append(out, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0,
			"id": fmt.Sprintf("call_fake_%d", n), "type": "function",
			"function": map[string]any{"name": d.name, "arguments": string(args)}}}}, nil, nil))
		fin = "tool_calls"
	} else {
		out = append(out, chunk(map[string]any{"content": d.text}, nil, nil))
	}
	return append(out, chunk(map[string]any{}, fin, map[string]any{"prompt_tokens": 12, "completion_tokens": 20, "total_tokens": 32}))
}

func chatJSON(body map[string]any, d decision, n int) map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil}
	fin := "stop"
	if d.kind == "tool" {
		args, _ := json.Marshal(d.args)
		msg["tool_calls"] = []any{map[string]any{"id": fmt.Sprintf("call_fake_%d", n), "type": "function",
			"function": map[string]any{"name": d.name, "arguments": string(args)}}}
		fin = "tool_calls"
	} else {
		msg["content"] = d.text
	}
	model := str(body["model"])
	if model == "" {
		model = "fake-model"
	}
	return map[string]any{"id": fmt.Sprintf("chatcmpl-fake-%d", n), "object": "chat.completion",
		"created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": fin}},
		"usage":   map[string]any{"prompt_tokens": 12, "completion_tokens": 20, "total_tokens": 32}}
}

// ---------------------------------------------------------------- Gemini

// geminiModel is MODEL in .../models/MODEL:method.
func geminiModel(path string) string {
	m := path[strings.LastIndex(path, "/")+1:]
	if i := strings.IndexByte(m, ':'); i >= 0 {
		m = m[:i]
	}
	return m
}

func geminiDecide(body map[string]any, marker string) decision {
	var tools []string
	for _, t := range list(body["tools"]) {
		for _, f := range list(obj(t)["functionDeclarations"]) {
			if n := str(obj(f)["name"]); n != "" {
				tools = append(tools, n)
			}
		}
	}
	// Only this turn counts: a functionResponse after the last user text (a
	// second prompt in the same session gets its own tool call).
	has, prompt := false, ""
	for _, c := range list(body["contents"]) {
		resp, txt := false, ""
		for _, p := range list(obj(c)["parts"]) {
			if obj(p)["functionResponse"] != nil {
				resp = true
			}
			txt += str(obj(p)["text"])
		}
		switch {
		case resp:
			has = true
		case str(obj(c)["role"]) == "user" && txt != "":
			has, prompt = false, txt
		}
	}
	if len(tools) > 0 && !has && contains(tools, "run_shell_command") {
		cmd := "touch " + marker
		if strings.Contains(prompt, SlowWord) {
			cmd += " && sleep " + fmt.Sprint(SlowSeconds)
		}
		return decision{kind: "tool", name: "run_shell_command", tools: tools,
			args: map[string]any{"command": cmd, "description": "Create hook test marker file"}}
	}
	if len(tools) == 0 {
		// Gemini CLI's helper calls (the model router's classifier, the
		// next-speaker check) ask for JSON in a schema: answer a value of it.
		gc := obj(body["generationConfig"])
		schema := obj(gc["responseJsonSchema"])
		if schema == nil {
			schema = obj(gc["responseSchema"])
		}
		if str(gc["responseMimeType"]) == "application/json" && schema != nil {
			b, _ := json.Marshal(fromSchema(schema))
			d := text("json", tools, has)
			d.text = string(b)
			return d
		}
		return text("title", tools, has)
	}
	return text("final", tools, has)
}

// fromSchema makes the smallest value a JSON schema (JSON Schema or the
// Gemini API's upper-case OpenAPI subset) accepts: every property filled, the
// minimum of a number, an enum's "user" where it has one (Gemini CLI's
// next-speaker check: the user speaks next, the turn ends), else its first.
func fromSchema(s map[string]any) any {
	if e := list(s["enum"]); len(e) > 0 {
		for _, v := range e {
			if v == "user" {
				return v
			}
		}
		return e[0]
	}
	switch strings.ToLower(str(s["type"])) {
	case "object":
		o := map[string]any{}
		for k, v := range obj(s["properties"]) {
			o[k] = fromSchema(obj(v))
		}
		return o
	case "array":
		return []any{}
	case "number", "integer":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return false
	default:
		return "fake"
	}
}

// geminiJSON is one GenerateContentResponse: the whole answer in one candidate
// (a stream of one chunk).
func geminiJSON(d decision, model string) map[string]any {
	var part map[string]any
	if d.kind == "tool" {
		part = map[string]any{"functionCall": map[string]any{"name": d.name, "args": d.args}}
	} else {
		part = map[string]any{"text": d.text}
	}
	return map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 12, "candidatesTokenCount": 20, "totalTokenCount": 32},
		"modelVersion":  model,
	}
}
