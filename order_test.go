package hookinstall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall"
	"github.com/hookinstall/hookinstall/internal/treesnap"
)

// An actor is one install: an agent (or a clone of one) in a namespace.
type actor struct {
	ns, agent, base string
}

func (a actor) String() string {
	if a.base != "" {
		return a.ns + ":" + a.agent + "(clone of " + a.base + ")"
	}
	return a.ns + ":" + a.agent
}

// A step adds (add) or removes one actor's install.
type step struct {
	a   actor
	add bool
}

func (s step) String() string {
	if s.add {
		return "+" + s.a.String()
	}
	return "-" + s.a.String()
}

// interleavings are every order of adding and removing each actor once, each
// add before its remove.
func interleavings(as []actor) [][]step {
	var out [][]step
	var rec func(seq []step, added, removed []bool)
	rec = func(seq []step, added, removed []bool) {
		if len(seq) == 2*len(as) {
			out = append(out, append([]step(nil), seq...))
			return
		}
		for i, a := range as {
			switch {
			case !added[i]:
				added[i] = true
				rec(append(seq, step{a, true}), added, removed)
				added[i] = false
			case !removed[i]:
				removed[i] = true
				rec(append(seq, step{a, false}), added, removed)
				removed[i] = false
			}
		}
	}
	rec(nil, make([]bool, len(as)), make([]bool, len(as)))
	return out
}

// permutations are every order of xs.
func permutations(xs []actor) [][]actor {
	if len(xs) <= 1 {
		return [][]actor{append([]actor(nil), xs...)}
	}
	var out [][]actor
	for i := range xs {
		rest := append(append([]actor(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]actor{xs[i]}, p...))
		}
	}
	return out
}

// allThenRemove are every install order followed by every removal order.
func allThenRemove(as []actor) [][]step {
	var out [][]step
	for _, ins := range permutations(as) {
		for _, rms := range permutations(as) {
			var seq []step
			for _, a := range ins {
				seq = append(seq, step{a, true})
			}
			for _, a := range rms {
				seq = append(seq, step{a, false})
			}
			out = append(out, seq)
		}
	}
	return out
}

// userConfig is a config of the user's own, in the format of the agent's
// config file, with a hook of theirs under an event of the agent's.
func userConfig(config string, a hookinstall.Agent) string {
	ev := a.Events[len(a.Events)-1].Name
	if strings.HasSuffix(config, ".toml") {
		return "# mine\nmodel = \"x\"\n\n[[hooks]]\nevent = \"" + ev + "\"\ncommand = \"notify-send done\"\n"
	}
	return "{\n  \"description\": \"mine\",\n  \"hooks\": {\n    \"" + ev + "\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}\n    ]\n  }\n}\n"
}

// TestEveryOrderRestores is the promise across namespaces and clones: any
// sequence of installs and removals that ends with nothing installed gives
// the user's files back byte for byte, for every agent whose config is
// shared with the user (taken from the registry, so a new one is tested
// too): every interleaving of two namespaces' adds and removes, every
// install order times every removal order for three, and two namespaces
// with a clone of the agent beside the agent itself. Each sequence starts
// from a config dir with no config, with a config of the user's, and with
// one whose hooks container is empty (the clone sequences from the user's
// config only: the clone's own folder starts empty whatever the agent's holds).
func TestEveryOrderRestores(t *testing.T) {
	if testing.Short() {
		t.Skip("many installs")
	}
	home, agents := registry(t)
	shared := 0
	for _, a := range agents {
		if !a.Shared {
			continue
		}
		shared++
		a := a
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			rel, err := filepath.Rel(home, a.Config)
			if err != nil {
				t.Fatal(err)
			}
			two := []actor{{"hookinstall", a.Name, ""}, {"termic", a.Name, ""}}
			three := append(two, actor{"zed-host", a.Name, ""})
			clones := []actor{two[0], two[1], {"hookinstall", "twin", a.Name}, {"termic", "twin", a.Name}}
			var seqs, cloneSeqs [][]step
			seqs = append(seqs, interleavings(two)...)
			seqs = append(seqs, allThenRemove(three)...)
			for _, rms := range permutations(clones) {
				seq := []step{{clones[0], true}, {clones[2], true}, {clones[1], true}, {clones[3], true}}
				for _, a := range rms {
					seq = append(seq, step{a, false})
				}
				cloneSeqs = append(cloneSeqs, seq)
			}
			starts := map[string]string{"no config": "", "user config": userConfig(rel, a)}
			if !strings.HasSuffix(rel, ".toml") {
				starts["empty hooks"] = "{\n  \"hooks\": {\n  }\n}\n"
			}
			failed := 0
			for name, content := range starts {
				all := seqs
				if name == "user config" {
					// the clone's own folder starts empty whatever the
					// agent's holds: one start is enough
					all = append(all, cloneSeqs...)
				}
				for _, seq := range all {
					if msg := runSequence(t, rel, content, seq); msg != "" {
						t.Errorf("%s, %v:\n%s", name, seq, msg)
						if failed++; failed > 5 {
							t.Fatal("more failures left out")
						}
					}
				}
			}
		})
	}
	if shared < 7 {
		t.Errorf("only %d agents with a shared config in the registry", shared)
	}
}

// runSequence runs seq in a fresh home whose agent dir holds content at rel
// ("" for no file), and says how the home differs afterwards, or "".
func runSequence(t *testing.T, rel, content string, seq []step) string {
	home := scratchDir(t)
	defer os.RemoveAll(home)
	cfg := filepath.Join(home, rel)
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if content != "" {
		if err := os.WriteFile(cfg, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, err := treesnap.Take(home, treesnap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, s := range seq {
		in, err := hookinstall.New(hookinstall.Options{Namespace: s.a.ns, Home: home, Getenv: env()})
		if err != nil {
			t.Fatal(err)
		}
		var r *hookinstall.Result
		if s.add {
			r, err = both(in.Install(ctx, s.a.agent, hookinstall.InstallOptions{Base: s.a.base}))
		} else {
			r, err = both(in.Remove(ctx, s.a.agent, hookinstall.RemoveOptions{Base: s.a.base}))
		}
		want := hookinstall.StatusInstalled
		if !s.add {
			want = hookinstall.StatusRemoved
		}
		if err != nil || r.Status != want {
			return fmt.Sprintf("step %d %v: %s, %v (notes %q)", i, s, r.Status, err, r.Notes)
		}
	}
	after, err := treesnap.Take(home, treesnap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return treesnap.Diff(before, after)
}

// scratchDir is a new empty folder, in memory (/dev/shm) where there is one:
// the thousands of installs and removals here are about bytes, not disks,
// and each of them syncs its files.
func scratchDir(t *testing.T) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "hookinstall-order-"); err == nil {
			return d
		}
	}
	d, err := os.MkdirTemp(t.TempDir(), "home")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestReAddAdopts: an install made before namespaces adopted each other's
// containers (its manifest records none of the other's) takes them over
// when it is added again, so the two come out in any order after that; and
// adding again then changes nothing.
func TestReAddAdopts(t *testing.T) {
	for _, first := range []bool{true, false} {
		home := scratchDir(t)
		defer os.RemoveAll(home)
		if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		before, err := treesnap.Take(home, treesnap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		a, _ := hookinstall.New(hookinstall.Options{Home: home, Getenv: env()})
		b, _ := hookinstall.New(hookinstall.Options{Namespace: "termic", Home: home, Getenv: env()})
		for _, in := range []*hookinstall.Installer{a, b} {
			if _, err := both(in.Install(ctx, "claude", hookinstall.InstallOptions{})); err != nil {
				t.Fatal(err)
			}
		}
		// what an older hookinstall wrote for termic: no containers of
		// the other namespace's
		man := filepath.Join(home, ".claude", "termic-hooks", "manifest.json")
		raw, err := os.ReadFile(man)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		f := m["files"].([]any)[0].(map[string]any)
		delete(f, "containers")
		if err := os.WriteFile(man, append(mustJSON(t, m), '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := both(b.Install(ctx, "claude", hookinstall.InstallOptions{}))
		if err != nil || r.Status != hookinstall.StatusInstalled {
			t.Fatalf("add again over an older install: %v, %v (want installed: the manifest takes over the containers)", r.Status, err)
		}
		if r, err := both(b.Install(ctx, "claude", hookinstall.InstallOptions{})); err != nil || r.Status != hookinstall.StatusUnchanged {
			t.Fatalf("add a third time: %v, %v, want unchanged", r.Status, err)
		}
		if r, err := both(a.Install(ctx, "claude", hookinstall.InstallOptions{})); err != nil || r.Status != hookinstall.StatusUnchanged {
			t.Fatalf("add again in the first namespace: %v, %v, want unchanged", r.Status, err)
		}
		order := []*hookinstall.Installer{a, b}
		if !first {
			order = []*hookinstall.Installer{b, a}
		}
		for _, in := range order {
			if _, err := both(in.Remove(ctx, "claude", hookinstall.RemoveOptions{})); err != nil {
				t.Fatal(err)
			}
		}
		after, err := treesnap.Take(home, treesnap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := treesnap.Diff(before, after); d != "" {
			t.Errorf("removing the first-installed first = %v:\n%s", first, d)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// registry is every agent hookinstall knows, as the library lists them for a
// scratch home (returned too), so that a test over agents takes a new one
// without being told.
func registry(t *testing.T) (string, []hookinstall.Agent) {
	t.Helper()
	probe, err := hookinstall.New(hookinstall.Options{Home: t.TempDir(), Getenv: env()})
	if err != nil {
		t.Fatal(err)
	}
	agents, err := probe.Agents()
	if err != nil {
		t.Fatal(err)
	}
	return probe.Home(), agents
}
