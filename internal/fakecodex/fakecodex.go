// Package fakecodex is a stand-in `codex` for tests of add --trust: a test
// binary linked into a bin dir as "codex" answers --version and speaks
// app-server's JSON-RPC on stdio (initialize, initialized, hooks/list) the
// way the real one does (docs/codex-trust.md), with the hashes and trust
// state it is told to report. What it is told to be is in fake.json beside
// it, since add runs it with a minimal environment. Tests only.
package fakecodex

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/hookinstall/hookinstall/adapters"
)

// A Config says what the fake is.
type Config struct {
	Version string `json:"version"`
	// Mode: "honest" reports a hash per hook (codextrust.go's for
	// 0.171.0, another for other versions) and the trust config.toml
	// records; "path-hash" makes every hash depend on
	// the file's path too (so trust recorded from a scratch copy is
	// "modified" in the real file); "no-method" answers hooks/list as
	// 0.125.0 does; "no-hash" as 0.128.0 does (no currentHash); "silent"
	// never answers.
	Mode string `json:"mode"`
	// Skip lists events it does not know (0.129.0 has no Interrupt).
	Skip []string `json:"skip"`
	// Log, when set, gets one line per hooks/list: its CODEX_HOME.
	Log string `json:"log"`
	// State: its app-server writes its own state into CODEX_HOME (or
	// $HOME/.codex), as Codex 0.171.0's does (there sqlite files,
	// installation_id, skills; here installation_id).
	State bool `json:"state"`
}

// Install links the running test binary into dir as "codex", told by
// fake.json beside it to be f. The test binary's TestMain must call Main
// when it runs as "codex".
func Install(dir string, f Config) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(dir, "codex"))
	if err := os.Symlink(self, filepath.Join(dir, "codex")); err != nil {
		return err
	}
	b, _ := json.Marshal(f)
	return os.WriteFile(filepath.Join(dir, "fake.json"), b, 0o644)
}

// Main is the fake's main: `codex --version` and `codex app-server`. Each
// run appends its arguments and its HOME, one line, to "calls" beside it.
func Main(args []string) int {
	if cf, err := os.OpenFile(filepath.Join(filepath.Dir(os.Args[0]), "calls"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintf(cf, "%s HOME=%s\n", strings.Join(args, " "), os.Getenv("HOME"))
		cf.Close()
	}
	var f Config
	b, err := os.ReadFile(filepath.Join(filepath.Dir(os.Args[0]), "fake.json"))
	if err == nil {
		err = json.Unmarshal(b, &f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake codex:", err)
		return 2
	}
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println("codex-cli " + f.Version)
		return 0
	}
	if len(args) != 1 || args[0] != "app-server" {
		fmt.Fprintln(os.Stderr, "fake codex: unknown arguments", args)
		return 2
	}
	home := os.Getenv("CODEX_HOME")
	if h := os.Getenv("HOME"); home == "" && h != "" {
		home = filepath.Join(h, ".codex")
	}
	if fi, err := os.Stat(home); err == nil && fi.IsDir() && f.State {
		if _, err := os.Stat(filepath.Join(home, "installation_id")); err != nil {
			_ = os.WriteFile(filepath.Join(home, "installation_id"), []byte("fake-installation\n"), 0o644)
		}
	}
	sc := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for sc.Scan() {
		var req struct {
			ID     *int   `json:"id"`
			Method string `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		switch {
		case req.Method == "initialize":
			_ = out.Encode(map[string]any{"id": *req.ID, "result": map[string]any{"userAgent": "fake/" + f.Version}})
		case req.Method == "hooks/list" && f.Mode == "silent":
		case req.Method == "hooks/list" && f.Mode == "no-method":
			_ = out.Encode(map[string]any{"id": *req.ID, "error": map[string]any{"code": -32600,
				"message": "Invalid request: unknown variant `hooks/list`, expected one of `initialize`, `thread/start`"}})
		case req.Method == "hooks/list":
			hooks, err := hooksList(f)
			if err != nil {
				fmt.Fprintln(os.Stderr, "fake codex:", err)
				return 1
			}
			_ = out.Encode(map[string]any{"id": *req.ID, "result": map[string]any{"data": []any{
				map[string]any{"cwd": ".", "hooks": hooks, "errors": []any{}, "warnings": []any{}}}}})
		}
	}
	return 0
}

// hooksList lists the command hooks of $CODEX_HOME/hooks.json (else
// $HOME/.codex), keyed and trusted as Codex does.
func hooksList(f Config) ([]map[string]any, error) {
	dir := os.Getenv("CODEX_HOME")
	if dir != "" {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
	} else {
		dir = filepath.Join(os.Getenv("HOME"), ".codex")
	}
	if f.Log != "" {
		lf, err := os.OpenFile(f.Log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(lf, dir)
			lf.Close()
		}
	}
	path := filepath.Join(dir, "hooks.json")
	state := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(dir, "config.toml")); err == nil {
		var doc struct {
			Hooks struct {
				State map[string]struct {
					TrustedHash string `toml:"trusted_hash"`
				} `toml:"state"`
			} `toml:"hooks"`
		}
		if err := toml.Unmarshal(b, &doc); err != nil {
			return nil, err
		}
		for k, v := range doc.Hooks.State {
			state[k] = v.TrustedHash
		}
	}
	var hooks []map[string]any
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return hooks, nil
	} else if err != nil {
		return nil, err
	}
	var file struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, err
	}
	for event, groups := range file.Hooks {
		if strings.Contains(","+strings.Join(f.Skip, ",")+",", ","+event+",") {
			continue
		}
		for gi, g := range groups {
			var group struct {
				Hooks []json.RawMessage `json:"hooks"`
			}
			if err := json.Unmarshal(g, &group); err != nil {
				return nil, err
			}
			for hi, h := range group.Hooks {
				var handler struct {
					Command string `json:"command"`
				}
				_ = json.Unmarshal(h, &handler)
				key, err := adapters.CodexTrustKey(path, event, gi, hi)
				if err != nil {
					return nil, err
				}
				hash, err := adapters.CodexTrustHashJSON(event, g, h)
				if err != nil {
					return nil, err
				}
				// Only 0.171.0 hashes as codextrust.go does; this fake's
				// other releases salt the hash with their version (and in
				// path-hash mode with the file's path).
				if f.Version != adapters.CodexTrustVersion {
					hash = saltedHash(hash + f.Version)
				}
				if f.Mode == "path-hash" {
					hash = saltedHash(hash + path)
				}
				m := map[string]any{"key": key, "command": handler.Command, "sourcePath": path, "source": "user"}
				if f.Mode != "no-hash" {
					status := "untrusted"
					switch have, ok := state[key]; {
					case ok && have == hash:
						status = "trusted"
					case ok:
						status = "modified"
					}
					m["currentHash"], m["trustStatus"] = hash, status
				}
				hooks = append(hooks, m)
			}
		}
	}
	return hooks, nil
}

func saltedHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}
