package main

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Set at build time by make build and goreleaser with -ldflags
// "-X main.version=... -X main.commit=... -X main.date=...". A build that
// sets none of them (go install, go build) takes them from the build info
// the go command stamps into every binary.
var (
	version string
	commit  string
	date    string
)

// testOnlyBuildInfo replaces debug.ReadBuildInfo in tests.
var testOnlyBuildInfo = debug.ReadBuildInfo

// versionInfo is what `hookinstall version` says about this binary.
type versionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"date,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
}

// develVersion is what a binary built with no version information at all
// reports (the go command's own word for it, as in `go version -m`).
const develVersion = "(devel)"

// buildVersion returns this binary's version, commit and date: the values
// set with -ldflags first, then the module version and the VCS stamp from
// the build info. `go install module@v1.2.3` gives the module version (and,
// for a pseudo-version, the commit in it); `go install ./cmd/hookinstall` in
// a git checkout gives a pseudo-version, the commit and its time.
func buildVersion() versionInfo {
	v := versionInfo{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := testOnlyBuildInfo(); ok {
		v.GoVersion = cmp.Or(v.GoVersion, bi.GoVersion)
		if v.Version == "" && bi.Main.Version != develVersion {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = cmp.Or(v.Commit, s.Value)
			case "vcs.time":
				v.Date = cmp.Or(v.Date, s.Value)
			case "vcs.modified":
				v.Modified = v.Modified || s.Value == "true"
			}
		}
		if t, c, ok := pseudoVersion(v.Version); ok {
			v.Commit, v.Date = cmp.Or(v.Commit, c), cmp.Or(v.Date, t)
		}
	}
	v.Version = cmp.Or(v.Version, develVersion)
	return v
}

// pseudoVersion takes a Go pseudo-version such as
// v0.0.0-20261130191533-b6bbf32abcde(+dirty) apart into its time (RFC 3339)
// and its 12-hex-digit commit.
func pseudoVersion(v string) (when, rev string, ok bool) {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 {
		return "", "", false
	}
	if rev = v[i+1:]; strings.Trim(rev, "0123456789abcdef") != "" {
		return "", "", false
	}
	rest := v[:i]
	j := strings.LastIndexAny(rest, "-.")
	if j < 0 || len(rest)-j-1 < 14 {
		return "", "", false
	}
	t, err := time.Parse("20060102150405", rest[len(rest)-14:])
	if err != nil {
		return "", "", false
	}
	return t.UTC().Format(time.RFC3339), rev, true
}

// String is the version written into manifests: the version, and the commit
// when the version does not already name it.
func (v versionInfo) String() string {
	if v.Commit == "" || strings.Contains(v.Version, shortCommit(v.Commit)) {
		return v.Version
	}
	return v.Version + " (" + shortCommit(v.Commit) + ")"
}

func shortCommit(c string) string { return c[:min(len(c), 12)] }

// text is what `hookinstall version` and `hookinstall --version` print.
func (v versionInfo) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hookinstall %s\n", v.Version)
	commit := v.Commit
	if commit == "" {
		commit = "unknown (built without VCS information)"
	} else if v.Modified {
		commit += " (with uncommitted changes)"
	}
	fmt.Fprintf(&b, "  commit  %s\n", commit)
	if v.Date != "" {
		fmt.Fprintf(&b, "  built   %s\n", v.Date)
	}
	fmt.Fprintf(&b, "  go      %s %s\n", v.GoVersion, v.Platform)
	return b.String()
}

type jsonVersion struct {
	Schema   int    `json:"schema"`
	Command  string `json:"command"`
	ExitCode int    `json:"exit_code"`
	versionInfo
}

func newVersionCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit, build date and Go version",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return printVersion(g)
		},
	}
}

func printVersion(g *globalOptions) error {
	v := buildVersion()
	if g.JSON {
		return jsonEncoder(g.IO.Out).Encode(jsonVersion{Schema: jsonSchema, Command: "version", versionInfo: v})
	}
	_, err := fmt.Fprint(g.IO.Out, v.text())
	return err
}
