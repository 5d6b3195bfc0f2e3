package writer

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/manifest"
	"github.com/hookinstall/hookinstall/scripts"
)

// Recorded is t with the home its install was made for, the one place that
// decides it for remove (Remove calls it), status and doctor (package
// hookinstall calls it). An install for a Docker target (add --home DIR
// --as-home CHOME) names CHOME in every path it wrote into configs and
// scripts, and its manifest records CHOME: when t's AsHome was not named
// (adapters.Target.AsHomeNamed), the recorded one replaces it, so the
// entries the install really wrote are the ones looked for, not DIR's. A
// named AsHome that is not the recorded one is returned as it is, with an
// error that names the command to run: a removal with it would miss every
// entry of ours (status and doctor check t as named and ignore the error).
// Without a readable manifest that records an absolute AsHome, t is
// returned unchanged.
func Recorded(t adapters.Target) (adapters.Target, error) {
	path := filepath.Join(t.HooksDir(), manifest.FileName)
	raw, err := os.ReadFile(path)
	if err != nil {
		return t, nil
	}
	m, err := manifest.Load(raw)
	if err != nil || m.AsHome == "" || !filepath.IsAbs(m.AsHome) {
		return t, nil
	}
	rec := filepath.Clean(m.AsHome)
	switch {
	case rec == t.AsHome:
		return t, nil
	case !t.AsHomeNamed:
		t.AsHome, t.SystemRoot = rec, ""
		return t, nil
	}
	in := t.Install()
	in.Home, in.AsHome = t.Home, ""
	made := "without --as-home"
	if rec != t.Home {
		in.AsHome = rec
		made = "with --as-home " + scripts.ShellQuote(rec)
	}
	return t, fmt.Errorf("installed %s, not --as-home %s (its manifest %s says so): run '%s'",
		made, scripts.ShellQuote(t.AsHome), path, in.Command("remove"))
}
