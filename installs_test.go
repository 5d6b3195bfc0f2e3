package hookinstall_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookinstall/hookinstall"
)

func TestInstallsEveryNamespaceAndClone(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".claude", ".grok"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "PATH" {
			return "/nonexistent"
		}
		return ""
	}
	ctx := context.Background()
	newIn := func(ns string) *hookinstall.Installer {
		in, err := hookinstall.New(hookinstall.Options{Namespace: ns, Home: home, Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	def, termic := newIn(""), newIn("termic")
	for _, step := range []struct {
		in          *hookinstall.Installer
		agent, base string
	}{{def, "claude", ""}, {termic, "grok", ""}, {termic, "claude", ""}, {def, "claude-work", "claude"}} {
		if _, err := both(step.in.Install(ctx, step.agent, hookinstall.InstallOptions{Base: step.base})); err != nil {
			t.Fatalf("install %s: %v", step.agent, err)
		}
	}
	is, err := def.Installs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range is {
		got = append(got, i.Namespace+"/"+i.Agent+"/"+i.Base+" "+i.HooksDir)
	}
	want := []string{
		"hookinstall/claude/ " + filepath.Join(home, ".claude", "hookinstall-hooks"),
		"hookinstall/claude-work/claude " + filepath.Join(home, ".claude-work", "hookinstall-hooks"),
		"termic/claude/ " + filepath.Join(home, ".claude", "termic-hooks"),
		"termic/grok/ " + filepath.Join(home, ".grok", "termic-hooks"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Installs:\n got %q\nwant %q", got, want)
	}
	// The Installer's own namespace does not limit what is found.
	if is2, _ := termic.Installs(); !reflect.DeepEqual(is2, is) {
		t.Errorf("Installs from namespace termic differ:\n%v\n%v", is2, is)
	}
	if ns, _ := def.Namespaces(); !reflect.DeepEqual(ns, []string{"hookinstall", "termic"}) {
		t.Errorf("Namespaces = %q", ns)
	}
	// A removed install is gone from the list.
	if _, err := both(termic.Remove(ctx, "grok", hookinstall.RemoveOptions{})); err != nil {
		t.Fatal(err)
	}
	if is, _ := def.Installs(); len(is) != 3 {
		t.Errorf("after removing termic/grok: %d installs, want 3", len(is))
	}
	// RemoveAll from a named namespace takes only that one's; from the
	// default one, unnamed, every namespace's and every clone's.
	say := func(rs []*hookinstall.Result) (got []string) {
		for _, r := range rs {
			got = append(got, fmt.Sprintf("%s/%s/%s %s %s", r.Namespace, r.Agent, r.Base, r.Status, r.HooksDir))
		}
		return got
	}
	rs, err := termic.RemoveAll(ctx, hookinstall.RemoveOptions{DryRun: true})
	if want := []string{"termic/claude/ would-remove " + filepath.Join(home, ".claude", "termic-hooks")}; err != nil || !reflect.DeepEqual(say(rs), want) {
		t.Errorf("RemoveAll in namespace termic: %v\n got %q\nwant %q", err, say(rs), want)
	}
	rs, err = def.RemoveAll(ctx, hookinstall.RemoveOptions{})
	want = []string{
		"hookinstall/claude/ removed " + filepath.Join(home, ".claude", "hookinstall-hooks"),
		"hookinstall/claude-work/claude removed " + filepath.Join(home, ".claude-work", "hookinstall-hooks"),
		"termic/claude/ removed " + filepath.Join(home, ".claude", "termic-hooks"),
	}
	if err != nil || !reflect.DeepEqual(say(rs), want) {
		t.Errorf("RemoveAll: %v\n got %q\nwant %q", err, say(rs), want)
	}
	if is, _ := def.Installs(); len(is) != 0 {
		t.Errorf("after RemoveAll: %v", is)
	}
}

func TestAgentName(t *testing.T) {
	in, err := hookinstall.New(hookinstall.Options{Home: t.TempDir(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"claude": "claude", "Claude": "claude", "CODEX": "codex", "agy": "antigravity", "claud": "", "": ""} {
		a, err := in.Agent(name)
		if a.Name != want || (err == nil) != (want != "") {
			t.Errorf("Agent(%q) = %q, %v; want %q", name, a.Name, err, want)
		}
	}
	for _, name := range []string{"codex", "claude", "zerocode"} {
		if a, _ := in.Agent(name); a.TrustWritable != (name == "codex") {
			t.Errorf("%s: TrustWritable %v: only codex's trust records are written", name, a.TrustWritable)
		}
	}
}

// A library caller that names no Version gets this module's version from the
// build info in its manifests, never "dev".
func TestManifestVersionDefault(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := hookinstall.New(hookinstall.Options{Home: home, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := both(in.Install(context.Background(), "claude", hookinstall.InstallOptions{})); err != nil {
		t.Fatal(err)
	}
	is, err := in.Installs()
	if err != nil || len(is) != 1 {
		t.Fatalf("Installs: %v %v", is, err)
	}
	if v := is[0].Version; v != hookinstall.ModuleVersion() || v == "dev" || v == "" {
		t.Errorf("manifest tool_version %q, want ModuleVersion() %q", v, hookinstall.ModuleVersion())
	}
}
