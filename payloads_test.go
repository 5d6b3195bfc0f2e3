package hookinstall_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/adapters"
)

// TestPayloads: for every agent of the registry, Payloads gives exactly the
// recorded files of the agent whose payloads it replays
// (adapters/payloads/<agent>.<event>[.<variant>].json), byte for byte, keyed
// as they are named, with one for every event the agent reports; the bytes
// are copies; an unknown agent gives nil (review H2b).
func TestPayloads(t *testing.T) {
	dir := filepath.Join("adapters", "payloads")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	in, err := hookinstall.New(hookinstall.Options{Getenv: env("HOME", t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range hookinstall.AgentNames() {
		t.Run(name, func(t *testing.T) {
			a, err := in.Agent(name)
			if err != nil {
				t.Fatal(err)
			}
			got := a.Payloads()
			if len(got) == 0 {
				t.Fatalf("Payloads(%q) is empty", name)
			}
			// the agent whose payloads it replays (zerocode replays codex's)
			ad, ok := adapters.Lookup(name)
			if !ok {
				t.Fatal("not in the registry")
			}
			prefix := ad.Payloads
			var want []string
			for _, e := range ents {
				if rest, ok := strings.CutPrefix(e.Name(), prefix+"."); ok && strings.HasSuffix(rest, ".json") {
					want = append(want, strings.TrimSuffix(rest, ".json"))
				}
			}
			sort.Strings(want)
			if k := keys(got); !reflect.DeepEqual(k, want) {
				t.Errorf("Payloads(%q) keys %q, want the files of %s: %q", name, k, prefix, want)
			}
			for k, b := range got {
				file, err := os.ReadFile(filepath.Join(dir, prefix+"."+k+".json"))
				if err != nil {
					t.Errorf("key %s: %v", k, err)
					continue
				}
				if !bytes.Equal(b, file) {
					t.Errorf("key %s: %q, want the file's %q", k, b, file)
				}
			}
			for _, e := range a.Events {
				if _, ok := got[e.Name]; !ok && prefix == name {
					t.Errorf("event %s has no payload", e.Name)
				}
			}
			// copies: what a caller does to them changes nothing
			for k := range got {
				got[k][0] ^= 0xff
				got[k] = nil
			}
			again := a.Payloads()
			for k, b := range again {
				if file, _ := os.ReadFile(filepath.Join(dir, prefix+"."+k+".json")); !bytes.Equal(b, file) {
					t.Errorf("after changing the first result, key %s: %q", k, b)
				}
			}
		})
	}
	if got := (hookinstall.Agent{Name: "claudex"}).Payloads(); got != nil {
		t.Errorf("Payloads(claudex) = %d payloads, want nil", len(got))
	}
	clone, err := in.Clone("claude-2", "claude")
	if err != nil {
		t.Fatal(err)
	}
	claude, _ := in.Agent("Claude")
	if got, want := clone.Payloads(), claude.Payloads(); !reflect.DeepEqual(got, want) || len(got) == 0 {
		t.Errorf("a clone of claude has %d payloads, want claude's %d", len(got), len(want))
	}
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
