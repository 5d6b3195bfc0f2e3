package adapters

// Codex's own answer about hook trust: `codex app-server` speaks JSON-RPC
// (one JSON object a line) on stdio, and its hooks/list request reports every
// hook it discovered with its trust key, the hash it expects (currentHash)
// and its trustStatus. Measured (docs/codex-trust.md): 0.129.0 to 0.171.0
// answer with both; 0.128.0 answers without them; 0.125.0 and older do not
// know the method.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// codexAppServerInput is initialize, initialized and hooks/list (id 2) for
// the app-server's working directory.
const codexAppServerInput = `{"id":1,"method":"initialize","params":{"clientInfo":{"name":"hookinstall","version":"1"}}}
{"method":"initialized"}
{"id":2,"method":"hooks/list","params":{}}
`

const codexHooksListID = 2

// codexHooksListQuery asks codex app-server for hooks/list, with env.
func codexHooksListQuery(env []string, files map[string][]byte, dir string) *Query {
	return &Query{Argv: []string{"codex", "app-server"}, Env: env, Files: files, Dir: dir,
		Input: []byte(codexAppServerInput), ReplyID: codexHooksListID}
}

// A CodexListedHook is one hook as Codex's hooks/list reports it.
type CodexListedHook struct {
	Key         string  `json:"key"`
	Command     *string `json:"command"`
	CurrentHash *string `json:"currentHash"`
	TrustStatus *string `json:"trustStatus"`
	Enabled     bool    `json:"enabled"`
}

// A CodexHooksList is Codex's reply to hooks/list: every hook it found, and
// what it could not read.
type CodexHooksList struct {
	Hooks    []CodexListedHook
	Errors   []string
	Warnings []string
}

// errNoHooksList says the binary cannot report trust hashes at all.
var errNoHooksList = errors.New("its app-server cannot list hooks with their trust hashes")

// ParseCodexHooksList reads the reply to hooks/list. It
// fails when there is none, when Codex answered with an error (an app-server
// older than the method), or when the hooks carry no currentHash (0.128.0).
func ParseCodexHooksList(a Reply) (CodexHooksList, error) {
	var l CodexHooksList
	if a.Err != nil {
		return l, fmt.Errorf("its app-server did not answer hooks/list (%w)", a.Err)
	}
	var r struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result *struct {
			Data []struct {
				Hooks  []CodexListedHook `json:"hooks"`
				Errors []struct {
					Message string `json:"message"`
					Path    string `json:"path"`
				} `json:"errors"`
				Warnings []string `json:"warnings"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(a.Out, &r); err != nil {
		return l, fmt.Errorf("its app-server's reply to hooks/list is not JSON: %w", err)
	}
	if r.Error != nil {
		msg := r.Error.Message
		if i := strings.Index(msg, ", expected one of"); i >= 0 {
			msg = msg[:i] // the list of every method it knows
		}
		return l, fmt.Errorf("%w (hooks/list: %d %s)", errNoHooksList, r.Error.Code, msg)
	}
	if r.Result == nil {
		return l, errors.New("its app-server's reply to hooks/list holds no result")
	}
	for _, d := range r.Result.Data {
		l.Hooks = append(l.Hooks, d.Hooks...)
		for _, e := range d.Errors {
			l.Errors = append(l.Errors, e.Path+": "+e.Message)
		}
		l.Warnings = append(l.Warnings, d.Warnings...)
	}
	for _, h := range l.Hooks {
		if h.CurrentHash == nil || h.TrustStatus == nil {
			return l, fmt.Errorf("%w (hooks/list reports no currentHash)", errNoHooksList)
		}
	}
	return l, nil
}

// byKey indexes l's hooks by key.
func (l CodexHooksList) byKey() map[string]CodexListedHook {
	m := map[string]CodexListedHook{}
	for _, h := range l.Hooks {
		m[h.Key] = h
	}
	return m
}
