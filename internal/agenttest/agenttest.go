// Package agenttest reads the facts the tests pin about each agent, one file
// per agent: adapters/testdata/agents/<agent>.json. It is for tests only.
//
// A newcomer adding an agent writes that one file beside the agent's Go
// file; the tests that iterate the registry (adapters' resolve and pty
// tests, writer's crash matrix) read it, and TestAgentTestdata in package
// adapters fails, naming the file and the missing field, when an agent has
// none or an incomplete one.
package agenttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Facts are one agent's pinned facts.
type Facts struct {
	// Config and Clone: the file the agent's hooks go into with the home
	// at /h, plain and as the clone "<agent>-2" of it (TestResolvePaths).
	Config string `json:"config"`
	Clone  string `json:"clone"`
	// Env: each variable of the agent's that moves its folder, with the
	// home at /home/u (TestResolveOverrides); none when nothing moves it.
	Env []Env `json:"env,omitempty"`
	// Crash: for an agent that shares its file with the user, that file
	// as a user has it (with an entry of theirs), and a small one reached
	// through a symlink (writer's TestCrashSafety).
	Crash *Crash `json:"crash,omitempty"`
	// BOM: for an agent whose config is not a plugin module, the error
	// add gives for a config that starts with a UTF-8 byte order mark,
	// word for word: whether the agent reads such a file is a measured
	// fact of the agent (TestBOMOneMessage).
	BOM string `json:"bom,omitempty"`
	// PTY: for an agent whose scripts write to the host's pty, payloads
	// and the state each must write, at least one per event
	// (TestPTYScriptsWriteExactOSC).
	PTY []PTYCase `json:"pty,omitempty"`
	// Healthy: files, by path under the home, that a user's home holds
	// for doctor to pass every check of the agent's (doctor_all_healthy
	// writes them with its healthyhome command); $HOME in them is the home.
	Healthy map[string]string `json:"healthy,omitempty"`
}

// An Env is one variable that moves the agent's folder.
type Env struct {
	Var    string `json:"var"`
	Value  string `json:"value"`
	Dir    string `json:"dir"`
	Config string `json:"config"`
	Note   string `json:"note,omitempty"` // how it was measured, for the reader
}

// Crash holds the crash matrix's starting configs.
type Crash struct {
	Existing string `json:"existing"`
	Linked   string `json:"linked"`
}

// A PTYCase is one run of one event's script with one payload.
type PTYCase struct {
	Event   string   `json:"event"`
	Payload string   `json:"payload"`
	Want    string   `json:"want"` // a state, or "silent": nothing may arrive
	Env     []string `json:"env,omitempty"`
}

// Silent is PTYCase.Want for a payload that must write nothing.
const Silent = "silent"

// Dir is the folder of the agents' files: adapters/testdata/agents in
// this module, wherever the test runs from.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "adapters", "testdata", "agents")
}

// Path is the agent's file.
func Path(agent string) string { return filepath.Join(Dir(), agent+".json") }

// Load reads the agent's file; an unknown field is an error, so a typo
// cannot drop a fact silently.
func Load(agent string) (*Facts, error) {
	b, err := os.ReadFile(Path(agent))
	if err != nil {
		return nil, fmt.Errorf("agent %s has no test facts: %w (see CONTRIBUTING.md, \"To add an agent\")", agent, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f Facts
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", Path(agent), err)
	}
	return &f, nil
}

// Agents lists the agents that have a file, sorted.
func Agents() ([]string, error) {
	ms, err := filepath.Glob(filepath.Join(Dir(), "*.json"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range ms {
		out = append(out, strings.TrimSuffix(filepath.Base(m), ".json"))
	}
	sort.Strings(out)
	return out, nil
}
