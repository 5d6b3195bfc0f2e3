package adapters

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Every agent plans its config first; zerocode and codex tell the user to
// trust the hooks (Next), the others need nothing.
func TestPlanAddEditsTheConfigAndSaysWhatIsNext(t *testing.T) {
	for _, a := range All() {
		tg := testTarget(t, a.ID, "/home/u")
		p, err := a.PlanAdd(tg, PlanInput{})
		if err != nil {
			t.Fatalf("%s: %v", a.ID, err)
		}
		if len(p.Edits) != 1 || p.Edits[0].Path != a.File(tg) || p.Edits[0].Role != RoleConfig || p.Edits[0].Doc == nil {
			t.Errorf("%s: edits %+v, want the config alone", a.ID, p.Edits)
		}
		trusts := a.ID == "zerocode" || a.ID == "codex"
		if trusts != strings.Contains(p.Next, "/hooks") {
			t.Errorf("%s: Next = %q", a.ID, p.Next)
		}
		if _, err := a.PlanAdd(tg, PlanInput{Trust: true}); a.ID != "codex" && !errors.Is(err, ErrTrustUnsupported) {
			t.Errorf("%s: trust asked: %v, want ErrTrustUnsupported", a.ID, err)
		}
	}
}

// codex's trust is one more file of its plan, written only for the probed
// version whose hash is exact.
func TestCodexTrustPlan(t *testing.T) {
	tg := testTarget(t, "codex", "/home/u")
	toml := "/home/u/.codex/config.toml"
	in := PlanInput{Trust: true, Files: map[string][]byte{toml: []byte("model = \"o3\"\n")}}
	for _, pr := range []Probe{
		{},
		{Binary: "/bin/codex", VersionOut: "codex-cli 0.172.0\n"},
		{Binary: "/bin/codex", VersionOut: "codex-cli " + CodexTrustVersion + "\n", VersionErr: errors.New("exit status 1")},
	} {
		in.Probe = pr
		if _, err := tg.Adapter.PlanAdd(tg, in); !errors.Is(err, ErrTrustVersion) {
			t.Errorf("probe %+v: %v, want ErrTrustVersion", pr, err)
		}
	}
	in.Probe = Probe{Binary: "/bin/codex", VersionOut: "codex-cli " + CodexTrustVersion + "\n"}
	p, err := tg.Adapter.PlanAdd(tg, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Edits) != 2 || p.Edits[1].Path != toml || p.Edits[1].Role != RoleTrust || p.Next != "" {
		t.Fatalf("plan %+v", p)
	}
	if !bytes.HasPrefix(p.Edits[1].Doc, []byte("model = \"o3\"\n\n[hooks.state.\"/home/u/.codex/hooks.json:")) {
		t.Errorf("trust records:\n%s", p.Edits[1].Doc)
	}
	// Remove takes them out again (zerocode alike), and takes an exact
	// restore the writer offers as that file's edit.
	in = PlanInput{Files: map[string][]byte{tg.Adapter.File(tg): p.Edits[0].Doc, toml: p.Edits[1].Doc}}
	rm, err := tg.Adapter.PlanRemove(tg, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Edits) != 2 || string(rm.Edits[1].Doc) != "model = \"o3\"\n" {
		t.Fatalf("remove plan %+v", rm.Edits)
	}
	in.Restore = map[string]Edit{toml: {Doc: []byte("backup")}}
	rm, err = tg.Adapter.PlanRemove(tg, in)
	if err != nil || len(rm.Edits) != 2 || string(rm.Edits[1].Doc) != "backup" {
		t.Fatalf("remove plan with a restore: %+v, %v", rm.Edits, err)
	}
}

// A removal's plan names the scripts it deletes: every script add writes,
// for any version (none for an agent that loads a module of ours).
func TestPlanRemoveNamesTheScripts(t *testing.T) {
	for _, a := range All() {
		tg := testTarget(t, a.ID, "/home/u")
		add, err := a.PlanAdd(tg, PlanInput{})
		if err != nil {
			t.Fatalf("%s: %v", a.ID, err)
		}
		rm, err := a.PlanRemove(tg, PlanInput{})
		if err != nil {
			t.Fatalf("%s: %v", a.ID, err)
		}
		var want, got []string
		for _, s := range add.Scripts {
			want = append(want, s.Name)
		}
		for _, s := range rm.Scripts {
			got = append(got, s.Name)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: remove deletes %q, add writes %q", a.ID, got, want)
		}
	}
}
