package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// Gemini CLI and Qwen Code rewrite their own settings.json without our lock
// (Gemini migrates deprecated keys at start-up, re-indenting the whole file;
// Qwen adds "$version"). When that lands between our read and our rename
// (here: after the manifest, just before the config is re-read and replaced),
// the re-read before the rename sees it, the plan is made again from the
// agent's bytes, and both the agent's change and our entries are in the file.
func TestAgentRewriteBeforeRename(t *testing.T) {
	cases := []struct {
		agent, file, before, rewrite string
	}{
		// Gemini's migration, as measured on 0.61.0: the same settings re-indented
		// to 2 spaces, the deprecated key replaced, the final newline gone.
		{"gemini", ".gemini/settings.json", "{\n    \"general\": {\"disableAutoUpdate\": true}\n}\n",
			"{\n  \"general\": {\n    \"enableAutoUpdate\": false\n  }\n}"},
		// Qwen's migration, as measured on 0.24.4: "$version" added at the end.
		{"qwen", ".qwen/settings.json", "{\n  \"ui\": {\"theme\": \"x\"}\n}\n",
			"{\n  \"ui\": {\"theme\": \"x\"},\n  \"$version\": 4\n}\n"},
		// Letta's first run, as measured on 0.32.18: JSON.stringify with two
		// spaces, deviceId added at the end, no final newline.
		{"letta", ".letta/settings.json", "{\n  \"preferredBackendMode\": \"local\"\n}\n",
			"{\n  \"preferredBackendMode\": \"local\",\n  \"deviceId\": \"7f6d2c16-7ea2-43a1-bee6-cd076fd0f2f4\"\n}"},
	}
	for _, c := range cases {
		t.Run(c.agent, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			path := filepath.Join(home, c.file)
			writeFile(t, path, c.before)
			tg, err := adapters.Resolve(c.agent, adapters.Options{NS: "hookinstall", Home: home, SystemRoot: sysRoot})
			if err != nil {
				t.Fatal(err)
			}
			raced := 0
			w := newWriter(func(step string) error {
				if step == "after write manifest" && raced == 0 {
					raced++
					if err := os.WriteFile(path, []byte(c.rewrite), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return nil
			})
			mustOK(t, w.Add(context.Background(), tg))
			if raced != 1 {
				t.Fatalf("the rewrite never happened")
			}
			got, _ := readOrAbsent(t, path)
			ours := 0
			for _, e := range tg.Adapter.Events() {
				if strings.Contains(got, tg.Prefix()) && strings.Contains(got, "\""+e.Event+"\"") {
					ours++
				}
			}
			// the agent's file up to its last member, then ours
			base := strings.TrimSuffix(c.rewrite, "\n")
			base = base[:strings.LastIndex(base, "\n")]
			if ours != len(tg.Adapter.Events()) || !strings.HasPrefix(got, base+",\n") {
				t.Fatalf("the agent's rewrite or our entries were lost:\n%s", got)
			}
			// remove then takes only ours out and keeps the agent's bytes
			mustOK(t, newWriter(nil).Remove(context.Background(), tg))
			if got, _ := readOrAbsent(t, path); got != c.rewrite {
				t.Fatalf("after remove:\n%q\nwant\n%q", got, c.rewrite)
			}
		})
	}
}
