package adapters

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// Every expected hash and key in this file was OBSERVED from the real codex-cli 0.171.0
// binary (npm @openai/codex@0.171.0, linux-x64 musl) on 2026-11-30 (machine clock),
// never computed by this package. Two methods, both in docs/codex-trust.md:
//
//   - app-server: `codex app-server` over stdio, requests initialize, initialized,
//     hooks/list {"cwds": [...]}; each entry carries "key" and "currentHash".
//   - tui: the interactive TUI in tmux, answering the startup "Hooks need review"
//     dialog with "2. Trust all and continue", which wrote [hooks.state] entries into
//     $CODEX_HOME/config.toml.
//
// testdata/codex-trust-0.171.0.json holds all 192 app-server observations (every hook
// event, matchers, timeouts, optional fields, escapes, parser edge cases).

func u64(v uint64) *uint64 { return &v }
func str(s string) *string { return &s }

// hookinstallShaped is one handler exactly as hookinstall writes it into hooks.json.
func hookinstallShaped(cmd string) CodexHandler {
	return CodexHandler{Command: cmd, Timeout: u64(5)}
}

func TestCodexTrustObservedHookinstallHandlers(t *testing.T) {
	tests := []struct {
		method, hooksJSON, event, script, wantKey, wantHash string
	}{
		// app-server hooks/list, HOME=/tmp/ct/h1, CODEX_HOME=/tmp/ct/h1/.codex
		{"app-server", "/tmp/ct/h1/.codex/hooks.json", "UserPromptSubmit", "user-prompt-submit.sh",
			"/tmp/ct/h1/.codex/hooks.json:user_prompt_submit:0:0",
			"sha256:11c81ac018eb4abeb53d9a8986edf18f5897c0a4b30a37af98d2ac3d922a1d4e"},
		{"app-server", "/tmp/ct/h1/.codex/hooks.json", "PermissionRequest", "permission-request.sh",
			"/tmp/ct/h1/.codex/hooks.json:permission_request:0:0",
			"sha256:349709f25b65a80e8271d7a2c4b5e742ccee75793f296c34041016c0c2453ba9"},
		{"app-server", "/tmp/ct/h1/.codex/hooks.json", "Stop", "stop.sh",
			"/tmp/ct/h1/.codex/hooks.json:stop:0:0",
			"sha256:e6d8c3eb9414b2c4ce78e14f9ef4d368184865bd44b6693581d001d09d367f97"},
		// TUI "Trust all and continue", HOME=/tmp/ct/tA: the entries it wrote to config.toml
		{"tui", "/tmp/ct/tA/.codex/hooks.json", "UserPromptSubmit", "user-prompt-submit.sh",
			"/tmp/ct/tA/.codex/hooks.json:user_prompt_submit:0:0",
			"sha256:adfb4628c3e35c2116fe92f71f20a1a38423ff145cfeb3050f8ed8d6cc64e012"},
		{"tui", "/tmp/ct/tA/.codex/hooks.json", "PermissionRequest", "permission-request.sh",
			"/tmp/ct/tA/.codex/hooks.json:permission_request:0:0",
			"sha256:302ef1079f5b5501b45597f97bc3fe5da75d6e9c627907b78be2723813b2bafc"},
		{"tui", "/tmp/ct/tA/.codex/hooks.json", "Stop", "stop.sh",
			"/tmp/ct/tA/.codex/hooks.json:stop:0:0",
			"sha256:7e73736c4a1fa422a7db3bc69596f976af3db3306a4ac68d5f26de7c86098f2d"},
	}
	for _, tt := range tests {
		cmd := path.Dir(tt.hooksJSON) + "/hookinstall-hooks/" + tt.script
		got, err := CodexTrustHash(tt.event, nil, hookinstallShaped(cmd))
		if err != nil || got != tt.wantHash {
			t.Errorf("%s %s: CodexTrustHash = %q, %v; observed %q", tt.method, cmd, got, err, tt.wantHash)
		}
		key, err := CodexTrustKey(tt.hooksJSON, tt.event, 0, 0)
		if err != nil || key != tt.wantKey {
			t.Errorf("%s: CodexTrustKey = %q, %v; observed %q", tt.method, key, err, tt.wantKey)
		}
	}
}

func TestCodexTrustObservedTimeoutsAndFields(t *testing.T) {
	tests := []struct {
		name, event string
		matcher     *string
		h           CodexHandler
		want        string // observed with app-server hooks/list
	}{
		{"timeout 5", "Stop", nil, CodexHandler{Command: "/x.sh", Timeout: u64(5)},
			"sha256:17691d03fc769e383f85ce7ae7fb0ace8af6f51a874ce532bae65b2bd12ffeaa"},
		{"no timeout is 600", "Stop", nil, CodexHandler{Command: "/x.sh"},
			"sha256:23469081b600b2e30352cf53d15bcb243efdf386bb453b77b4dfcb27fa65d0b5"},
		{"explicit 600", "Stop", nil, CodexHandler{Command: "/x.sh", Timeout: u64(600)},
			"sha256:23469081b600b2e30352cf53d15bcb243efdf386bb453b77b4dfcb27fa65d0b5"},
		{"timeout 2^63-1", "Stop", nil, CodexHandler{Command: "/x.sh", Timeout: u64(9223372036854775807)},
			"sha256:51da5249dba9ddfe37b99e6c62b895026beb3bbe77c2d6fc94b38dedfe08ed1f"},
		{"timeout 30", "Stop", nil, CodexHandler{Command: "/tmp/ct/h2/.codex/hookinstall-hooks/stop.sh", Timeout: u64(30)},
			"sha256:c95dde1ccb6d2f4492af613fb288ec15a2eb4629345c6a490a8d64c30c3bd4dd"},
		{"timeout 0 is 1", "UserPromptSubmit", nil, CodexHandler{Command: "/tmp/ct/h2/.codex/hookinstall-hooks/ups-t0.sh", Timeout: u64(0)},
			"sha256:1d814eae953686bd258fc97b44a2e4db6aca0c8254d1ff2a6a2f598ce490852c"},
		{"statusMessage", "UserPromptSubmit", nil, CodexHandler{Command: "/tmp/ct/h2/.codex/hookinstall-hooks/ups.sh", Timeout: u64(5), StatusMessage: str("Telling the host")},
			"sha256:5a7d9dae3749aa916073abedf7abf79394af6df693687de72edf3d624969c523"},
		{"matcher * kept verbatim", "PermissionRequest", str("*"), CodexHandler{Command: "/tmp/ct/h2/.codex/hookinstall-hooks/pr.sh", Timeout: u64(5)},
			"sha256:98118dbec65e73d6dec11385ff1e917c45db8c316927c9f4eefe775927fb7116"},
		{"serde_json escapes", "UserPromptSubmit", nil, CodexHandler{
			Command: "/tmp/ct/h2/.codex/hookinstall-hooks/uni \u00e9\u4e2d\U0001F600 \"q\" back\\slash <tag>&amp; tab\there nl\nx \u0001\u001f\u007f \u2028\u2029 /sl",
			Timeout: u64(5)},
			"sha256:a4bf08c1421b91bc17ded13479c858731bcfc5454120789b174fb298115215cf"},
		{"\\b \\f \\r escapes", "Stop", nil, CodexHandler{Command: "/b\b f\f r\r e\u00e9", Timeout: u64(5)},
			"sha256:76b7fb8bfe92e7e81fff5cf37a59f42ee2fa106870849fe5615b67e4e43deeaa"},
	}
	for _, tt := range tests {
		got, err := CodexTrustHash(tt.event, tt.matcher, tt.h)
		if err != nil || got != tt.want {
			t.Errorf("%s: CodexTrustHash = %q, %v; observed %q", tt.name, got, err, tt.want)
		}
	}
}

// reformattedHooksJSON is, byte for byte, the hooks.json that gave the same currentHash
// values as the compact one in TestCodexTrustObservedHookinstallHandlers: tab indent,
// CRLF, every object's keys reversed, and an unknown key in each group.
const reformattedHooksJSON = "{\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [\r\n\t\t\t{\r\n\t\t\t\t\"hooks\": [\r\n\t\t\t\t\t{\r\n" +
	"\t\t\t\t\t\t\"timeout\": 5,\r\n\t\t\t\t\t\t\"command\": \"/tmp/ct/h1/.codex/hookinstall-hooks/stop.sh\",\r\n" +
	"\t\t\t\t\t\t\"type\": \"command\"\r\n\t\t\t\t\t}\r\n\t\t\t\t],\r\n\t\t\t\t\"x-note\": \"reformatted\"\r\n\t\t\t}\r\n\t\t],\r\n" +
	"\t\t\"PermissionRequest\": [\r\n\t\t\t{\r\n\t\t\t\t\"hooks\": [\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"timeout\": 5,\r\n" +
	"\t\t\t\t\t\t\"command\": \"/tmp/ct/h1/.codex/hookinstall-hooks/permission-request.sh\",\r\n" +
	"\t\t\t\t\t\t\"type\": \"command\"\r\n\t\t\t\t\t}\r\n\t\t\t\t],\r\n\t\t\t\t\"x-note\": \"reformatted\"\r\n\t\t\t}\r\n\t\t],\r\n" +
	"\t\t\"UserPromptSubmit\": [\r\n\t\t\t{\r\n\t\t\t\t\"hooks\": [\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"timeout\": 5,\r\n" +
	"\t\t\t\t\t\t\"command\": \"/tmp/ct/h1/.codex/hookinstall-hooks/user-prompt-submit.sh\",\r\n" +
	"\t\t\t\t\t\t\"type\": \"command\"\r\n\t\t\t\t\t}\r\n\t\t\t\t],\r\n\t\t\t\t\"x-note\": \"reformatted\"\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n"

const compactHooksJSON = `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"/tmp/ct/h1/.codex/hookinstall-hooks/user-prompt-submit.sh","timeout":5}]}],` +
	`"PermissionRequest":[{"hooks":[{"type":"command","command":"/tmp/ct/h1/.codex/hookinstall-hooks/permission-request.sh","timeout":5}]}],` +
	`"Stop":[{"hooks":[{"type":"command","command":"/tmp/ct/h1/.codex/hookinstall-hooks/stop.sh","timeout":5}]}]}}` + "\n"

type rawHooksFile struct {
	Hooks map[string][]json.RawMessage `json:"hooks"`
}

func firstGroupAndHandler(t *testing.T, file, event string) (group, handler json.RawMessage) {
	t.Helper()
	var f rawHooksFile
	if err := json.Unmarshal([]byte(file), &f); err != nil {
		t.Fatal(err)
	}
	group = f.Hooks[event][0]
	var g struct {
		Hooks []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(group, &g); err != nil {
		t.Fatal(err)
	}
	return group, g.Hooks[0]
}

func TestCodexTrustReformattingInvariance(t *testing.T) {
	observed := map[string]string{ // app-server currentHash, identical for both files
		"UserPromptSubmit":  "sha256:11c81ac018eb4abeb53d9a8986edf18f5897c0a4b30a37af98d2ac3d922a1d4e",
		"PermissionRequest": "sha256:349709f25b65a80e8271d7a2c4b5e742ccee75793f296c34041016c0c2453ba9",
		"Stop":              "sha256:e6d8c3eb9414b2c4ce78e14f9ef4d368184865bd44b6693581d001d09d367f97",
	}
	for _, file := range []string{compactHooksJSON, reformattedHooksJSON} {
		for event, want := range observed {
			group, handler := firstGroupAndHandler(t, file, event)
			got, err := CodexTrustHashJSON(event, group, handler)
			if err != nil || got != want {
				t.Errorf("%s in %.20q: CodexTrustHashJSON = %q, %v; observed %q", event, file, got, err, want)
			}
		}
	}
}

type observedVector struct {
	Source       string          `json:"source"`
	Key          string          `json:"key"`
	Event        string          `json:"event"`
	GroupIndex   int             `json:"group_index"`
	HandlerIndex int             `json:"handler_index"`
	Group        json.RawMessage `json:"group"`
	Handler      json.RawMessage `json:"handler"`
	CurrentHash  string          `json:"current_hash"`
}

func loadObserved(t *testing.T) []observedVector {
	t.Helper()
	b, err := os.ReadFile("testdata/codex-trust-0.171.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		CodexVersion string           `json:"codex_version"`
		Vectors      []observedVector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.CodexVersion != CodexTrustVersion || len(f.Vectors) < 190 {
		t.Fatalf("testdata: version %q, %d vectors", f.CodexVersion, len(f.Vectors))
	}
	return f.Vectors
}

// TestCodexTrustAllObserved replays every app-server observation through both entry
// points and the key function.
func TestCodexTrustAllObserved(t *testing.T) {
	events := map[string]bool{}
	for _, v := range loadObserved(t) {
		events[v.Event] = true
		got, err := CodexTrustHashJSON(v.Event, v.Group, v.Handler)
		if err != nil || got != v.CurrentHash {
			t.Errorf("%s: %s\n  handler %s\n  CodexTrustHashJSON = %q, %v; observed %q", v.Source, v.Key, v.Handler, got, err, v.CurrentHash)
		}
		hooksJSON := v.Key[:strings.Index(v.Key, "hooks.json:")+len("hooks.json")]
		key, err := CodexTrustKey(hooksJSON, v.Event, v.GroupIndex, v.HandlerIndex)
		if err != nil || key != v.Key {
			t.Errorf("CodexTrustKey = %q, %v; observed %q", key, err, v.Key)
		}
	}
	if len(events) != len(codexEvents) {
		t.Errorf("observations cover %d events, the table has %d", len(events), len(codexEvents))
	}
}

// TestCodexTrustJSONRejectsWhatCodexRejects: each handler below made codex 0.171.0
// reject the whole hooks.json ("failed to parse hooks config"), skip the handler, or
// panic in hook discovery (observed with app-server hooks/list).
func TestCodexTrustJSONRejectsWhatCodexRejects(t *testing.T) {
	group := json.RawMessage(`{"hooks":[]}`)
	for _, h := range []string{
		`{"type":"command","command":"/x.sh","timeout":5.0}`,                                          // invalid type, expected u64
		`{"type":"command","command":"/x.sh","timeout":-1}`,                                           // invalid value
		`{"type":"command","command":"/x.sh","timeout":"5"}`,                                          // invalid type: string
		`{"type":"command","command":"/x.sh","timeout":5,"timeout":6}`,                                // duplicate field `timeout`
		`{"type":"command","type":"command","command":"/x.sh","timeout":5}`,                           // duplicate field `type`
		`{"type":"command","command":"/x.sh","timeout":5,"async":null}`,                               // expected a boolean
		`{"type":"command","command":"/x.sh","timeout":5,"commandWindows":5}`,                         // expected a string
		`{"type":"command","command":"/x.sh","timeout":5,"commandWindows":"a","command_windows":"b"}`, // duplicate
		`{"type":"command","command":"/x.sh","timeout":5,"additionalContextLimit":"x"}`,               // expected usize
		`{"type":"command","command":"/x.sh","timeout":18446744073709551615}`,                         // discovery panics
		`{"type":"command","command":"/x.sh","timeout":9223372036854775808}`,                          // discovery panics
		`{"type":"command","command":"   ","timeout":5}`,                                              // skipping empty hook command
		`{"type":"command","command":null,"timeout":5}`,                                               // expected a string
		`{"command":"/x.sh","timeout":5}`,                                                             // missing field `type`
		`{"type":"Command","command":"/x.sh","timeout":5}`,                                            // unknown variant
		`{"type":"mcp_tool","server":"s","tool":"t"}`,                                                 // not a command hook
		`{"type":"command","command":"/x.sh","timeout":5,"x":"\ud800"}`,                               // lone surrogate, unknown key
		`{"type":"command","command":"/x.sh","timeout":5,"statusMessage":"\udc00"}`,                   // lone surrogate
	} {
		if got, err := CodexTrustHashJSON("Stop", group, json.RawMessage(h)); err == nil {
			t.Errorf("CodexTrustHashJSON(%s) = %q, want an error", h, got)
		}
	}
	// Repeated UNKNOWN members are accepted by codex (observed: same hash as without).
	for _, gh := range [][2]string{
		{`{"hooks":[]}`, `{"type":"command","command":"/x.sh","timeout":5,"x":1,"x":2}`},
		{`{"y":1,"y":2,"hooks":[]}`, `{"type":"command","command":"/x.sh","timeout":5}`},
	} {
		got, err := CodexTrustHashJSON("Stop", json.RawMessage(gh[0]), json.RawMessage(gh[1]))
		if want := "sha256:17691d03fc769e383f85ce7ae7fb0ace8af6f51a874ce532bae65b2bd12ffeaa"; err != nil || got != want {
			t.Errorf("%s %s: %q, %v; observed %q", gh[0], gh[1], got, err, want)
		}
	}
	// A valid surrogate pair is fine (observed: accepted, hash below).
	got, err := CodexTrustHashJSON("Stop", group, json.RawMessage(`{"type":"command","command":"/x\ud83d\ude00.sh","timeout":5}`))
	if want := "sha256:77d1480f2d5ed90f2d97e59443bad277a7240324f37013435400582365ee5666"; err != nil || got != want {
		t.Errorf("surrogate pair: %q, %v; observed %q", got, err, want)
	}
}

func TestCodexTrustUnknownEvent(t *testing.T) {
	if _, err := CodexTrustHash("NotAnEvent", nil, hookinstallShaped("/x.sh")); err == nil {
		t.Error("CodexTrustHash accepted an unknown event")
	}
	if _, err := CodexTrustKey("/h/.codex/hooks.json", "user_prompt_submit", 0, 0); err == nil {
		t.Error("CodexTrustKey accepted a snake_case event; it takes hooks.json names")
	}
}

// TestCodexTrustTOML: the exact text the TUI's "Trust all" wrote (2026-11-30), one
// entry per case; HOME paths as used in the runs.
func TestCodexTrustTOML(t *testing.T) {
	tests := []struct{ key, hash, want string }{
		{"/tmp/ct/tA/.codex/hooks.json:stop:0:0",
			"sha256:7e73736c4a1fa422a7db3bc69596f976af3db3306a4ac68d5f26de7c86098f2d",
			"[hooks.state.\"/tmp/ct/tA/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:7e73736c4a1fa422a7db3bc69596f976af3db3306a4ac68d5f26de7c86098f2d\"\n"},
		{`/tmp/ct/tW/sp ace "q" b\s/.codex/hooks.json:stop:0:0`,
			"sha256:17691d03fc769e383f85ce7ae7fb0ace8af6f51a874ce532bae65b2bd12ffeaa",
			"[hooks.state.'/tmp/ct/tW/sp ace \"q\" b\\s/.codex/hooks.json:stop:0:0']\ntrusted_hash = \"sha256:17691d03fc769e383f85ce7ae7fb0ace8af6f51a874ce532bae65b2bd12ffeaa\"\n"},
		{`/tmp/ct/tQ-dq_only_/dq"only/.codex/hooks.json:stop:0:0`, "sha256:0",
			"[hooks.state.'/tmp/ct/tQ-dq_only_/dq\"only/.codex/hooks.json:stop:0:0']\ntrusted_hash = \"sha256:0\"\n"},
		{`/tmp/ct/tQ-bs_only_/bs\only/.codex/hooks.json:stop:0:0`, "sha256:0",
			"[hooks.state.'/tmp/ct/tQ-bs_only_/bs\\only/.codex/hooks.json:stop:0:0']\ntrusted_hash = \"sha256:0\"\n"},
		{`/tmp/ct/tQ-sq_only_/sq'only/.codex/hooks.json:stop:0:0`, "sha256:0",
			"[hooks.state.\"/tmp/ct/tQ-sq_only_/sq'only/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:0\"\n"},
		{`/tmp/ct/tQ-sp_ace_/sp ace/.codex/hooks.json:stop:0:0`, "sha256:0",
			"[hooks.state.\"/tmp/ct/tQ-sp_ace_/sp ace/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:0\"\n"},
		// Not observed (codex quoting of such paths unknown); any valid TOML works.
		{"/a'\"b/hooks.json:stop:0:0", "sha256:0", "[hooks.state.\"/a'\\\"b/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:0\"\n"},
	}
	for _, tt := range tests {
		if got := CodexTrustTOML(tt.key, tt.hash); got != tt.want {
			t.Errorf("CodexTrustTOML(%q)\n got %q\nwant %q", tt.key, got, tt.want)
		}
	}
}

// TestTrustKeyPath pins what app-server reported as the key's path for each way
// of pointing codex at /tmp/ct/paths/real/.codex (link -> real is a symlink).
func TestTrustKeyPath(t *testing.T) {
	resolve := map[string]string{
		"/tmp/ct/paths/link/.codex": "/tmp/ct/paths/real/.codex",
		"/tmp/ct/paths/real/.codex": "/tmp/ct/paths/real/.codex",
		"/tmp/ct/paths/h2/.codex":   "/tmp/ct/paths/real/.codex", // ~/.codex a symlink
	}
	tests := []struct{ env, home, want string }{
		{"/tmp/ct/paths/link/.codex", "/tmp/ct/paths/real", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"/tmp/ct/paths/real/.codex/", "/tmp/ct/paths/real", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"/tmp/ct/paths/real//./.codex", "/tmp/ct/paths/real", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"/tmp/ct/paths/real/../real/.codex", "/tmp/ct/paths/real", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"/tmp/ct/paths/h2/.codex", "/tmp/ct/paths/h2", "/tmp/ct/paths/real/.codex/hooks.json"}, // set to ~/.codex, a symlink: resolved
		{"", "/tmp/ct/paths/real", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"", "/tmp/ct/paths/link", "/tmp/ct/paths/link/.codex/hooks.json"}, // symlinked HOME kept
		{"", "/tmp/ct/paths/h2", "/tmp/ct/paths/h2/.codex/hooks.json"},     // ~/.codex a symlink: kept
		{"", "/tmp/ct/paths/real/", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"", "/tmp/ct/paths/./real", "/tmp/ct/paths/real/.codex/hooks.json"},
		{"", "/tmp/ct/paths/link/../real", "/tmp/ct/paths/real/.codex/hooks.json"},
	}
	for _, tt := range tests {
		a, _ := Lookup("codex")
		tg := Target{ID: "codex", Adapter: a, NS: "hookinstall", Home: tt.home, AsHome: tt.home}
		tg.Dir, tg.DirFrom = a.Dir(tt.home, func(string) string { return tt.env })
		tg.Dir = filepath.Clean(tg.Dir) // as Resolve does
		if got := TrustKeyPath(tg, resolve[tg.Dir]); got != tt.want {
			t.Errorf("CODEX_HOME=%q HOME=%q: TrustKeyPath = %q; observed %q", tt.env, tt.home, got, tt.want)
		}
	}
}

func TestSerdeJSONStringRoundTrips(t *testing.T) {
	for _, s := range []string{"plain", "/a b/c.sh", "q\"b\\", "\b\f\t\n\r\x01\x1f\x7f", "é中😀<>&\u2028"} {
		var b bytes.Buffer
		writeSerdeJSONString(&b, s)
		var back string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || back != s {
			t.Errorf("%q: %s does not round-trip (%v)", s, b.String(), err)
		}
	}
}
