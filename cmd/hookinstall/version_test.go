package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	defer func(f func() (*debug.BuildInfo, bool)) { testOnlyBuildInfo = f }(testOnlyBuildInfo)
	info := func(v string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/hookinstall/hookinstall", Version: v}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	for _, tc := range []struct {
		name                  string
		ldVersion, ldCommit   string
		bi                    func() (*debug.BuildInfo, bool)
		version, commit, when string
		modified              bool
		manifest              string
	}{
		{name: "goreleaser ldflags win", ldVersion: "1.2.3", ldCommit: "0123456789abcdef0123456789abcdef01234567",
			bi: info("(devel)"), version: "1.2.3", commit: "0123456789abcdef0123456789abcdef01234567", manifest: "1.2.3 (0123456789ab)"},
		{name: "go install module@tag", bi: info("v1.4.0"), version: "v1.4.0", manifest: "v1.4.0"},
		{name: "go install module@commit (pseudo-version, no vcs stamp)", bi: info("v0.0.0-20261130191354-b6bbf32f8424"),
			version: "v0.0.0-20261130191354-b6bbf32f8424", commit: "b6bbf32f8424", when: "2026-11-30T19:13:54Z",
			manifest: "v0.0.0-20261130191354-b6bbf32f8424"},
		{name: "go install ./cmd/hookinstall in a checkout", bi: info("v0.0.0-20261130191354-b6bbf32f8424+dirty",
			"vcs.revision", "b6bbf32f84248cdd2274b087aa5a66fbc125b145", "vcs.time", "2026-11-30T19:13:54Z", "vcs.modified", "true"),
			version: "v0.0.0-20261130191354-b6bbf32f8424+dirty", commit: "b6bbf32f84248cdd2274b087aa5a66fbc125b145",
			when: "2026-11-30T19:13:54Z", modified: true, manifest: "v0.0.0-20261130191354-b6bbf32f8424+dirty"},
		{name: "no information at all", bi: info("(devel)"), version: "(devel)", manifest: "(devel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version, commit, date = tc.ldVersion, tc.ldCommit, ""
			testOnlyBuildInfo = tc.bi
			v := buildVersion()
			if v.Version != tc.version || v.Commit != tc.commit || v.Date != tc.when || v.Modified != tc.modified {
				t.Errorf("got %+v, want version %q commit %q date %q modified %v", v, tc.version, tc.commit, tc.when, tc.modified)
			}
			if v.Version == "dev" || v.String() != tc.manifest {
				t.Errorf("manifest version %q, want %q", v.String(), tc.manifest)
			}
		})
	}
}

// TestGoInstallVersion is the acceptance check: `go install ./cmd/hookinstall`
// from a clean clone gives a binary whose `version` names the module version
// and the commit, not "dev". It builds in a clone of HEAD (committed work
// only), with -buildvcs=true since this machine's go env turns VCS stamping
// off.
func TestGoInstallVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary in a fresh clone")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	clone := filepath.Join(dir, "clone")
	if out, err := exec.Command("git", "clone", "-q", strings.TrimSpace(string(top)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", clone, "checkout", "-q", strings.TrimSpace(string(head))).CombinedOutput(); err != nil {
		t.Fatalf("git checkout: %v\n%s", err, out)
	}
	gobin := filepath.Join(dir, "bin")
	cmd := exec.Command("go", "install", "./cmd/hookinstall")
	cmd.Dir = clone
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-buildvcs=true")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "hookinstall"), "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v jsonVersion
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := strings.TrimSpace(string(head))
	if v.Commit != want || !strings.HasPrefix(v.Version, "v") || !strings.Contains(v.Version, want[:12]) || v.Date == "" {
		t.Errorf("version --json after go install: %s\nwant a module version naming commit %s", out, want)
	}
	text, err := exec.Command(filepath.Join(gobin, "hookinstall"), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text, []byte(want)) || bytes.Contains(text, []byte(" dev\n")) {
		t.Errorf("--version after go install:\n%s", text)
	}
}
