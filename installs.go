package hookinstall

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/writer"
)

// agentName returns the agent a person's name for it means: one of
// AgentNames in any case ("Claude"), or the name of the agent's own program
// ("agy" is antigravity). ok is false when the name means no agent.
func agentName(name string) (agent string, ok bool) {
	n := strings.ToLower(name)
	if _, ok := adapters.Lookup(n); ok {
		return n, true
	}
	for _, a := range adapters.All() {
		if slices.Contains(a.Programs, n) {
			return a.ID, true
		}
	}
	return "", false
}

// An Install is one install found on disk, by its manifest: one agent (or
// clone) in one namespace.
type Install struct {
	Namespace string // the namespace it was made in
	Agent     string // the agent, or a clone's own id
	Base      string // for a clone, the agent whose shape it uses
	HooksDir  string // the install's hooks dir, on disk
	Version   string // the version of the program that made it
}

// Installs lists every install under the Installer's home, whatever its
// namespace, clones included, by the manifests in the agents' folders and
// in the folders beside them, where clones live (writer.Manifests), each
// kept when its agent's target puts its hooks dir where it was found;
// sorted by namespace, then agent. A manifest it cannot read is skipped.
func (in *Installer) Installs() ([]Install, error) {
	o := in.options()
	var dirs []string
	for _, name := range adapters.Names() {
		t, err := adapters.Resolve(name, o)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, t.Dir)
		// a clone's folder is its base's sibling, named after its id
		co := o
		co.Base, co.Getenv = name, nil
		if ct, err := adapters.Resolve("hookinstall-clone", co); err == nil {
			parent := filepath.Dir(ct.Dir)
			es, _ := os.ReadDir(parent)
			for _, e := range es {
				if e.IsDir() {
					dirs = append(dirs, filepath.Join(parent, e.Name()))
				}
			}
		}
	}
	var out []Install
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		for _, f := range writer.Manifests(d) {
			m, ro := f.M, o
			ro.NS = m.Namespace
			if m.Base != "" && m.Base != m.Agent {
				ro.Base, ro.Getenv = m.Base, nil
			}
			t, err := adapters.Resolve(m.Agent, ro)
			if err != nil || t.HooksDir() != f.HooksDir {
				continue
			}
			out = append(out, Install{Namespace: m.Namespace, Agent: m.Agent, Base: baseOf(t), HooksDir: f.HooksDir, Version: m.ToolVersion})
		}
	}
	slices.SortFunc(out, func(a, b Install) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Agent, b.Agent))
	})
	return out, nil
}

// RemoveAll removes every install of ours under the home, one Result
// each: every agent with one in the Installer's namespace (a hooks dir, or
// an entry of ours in a file it reads), then each clone's (Installs); then,
// unless the namespace was named (Options.Namespace or $HOOKINSTALL_NAMESPACE), every
// other namespace's the same way. One failure does not stop the others;
// the error joins every one.
func (in *Installer) RemoveAll(ctx context.Context, o RemoveOptions) ([]*Result, error) {
	if o.Base != "" {
		return nil, errors.New("hookinstall: RemoveAll takes no base (RemoveOptions.Base is set)")
	}
	installs, err := in.Installs()
	if err != nil {
		return nil, err
	}
	nss := []string{in.ns}
	for _, i := range installs {
		if !in.nsNamed && nss[len(nss)-1] != i.Namespace && i.Namespace != in.ns {
			nss = append(nss, i.Namespace)
		}
	}
	var rs []*Result
	for _, ns := range nss {
		nin := &Installer{ns: ns, home: in.home, asHome: in.asHome, homeGiven: in.homeGiven, getenv: in.getenv, version: in.version}
		ts, err := nin.pick(writer.Installed)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			rs = append(rs, nin.remove(ctx, t, o))
		}
		for _, i := range installs {
			if i.Namespace == ns && i.Base != "" {
				r := nin.Remove(ctx, i.Agent, RemoveOptions{DryRun: o.DryRun, Force: o.Force, Base: i.Base})
				r.Namespace, r.Base, r.HooksDir = ns, i.Base, i.HooksDir
				rs = append(rs, r)
			}
		}
	}
	return rs, joinErrs(rs)
}

// Namespaces lists the namespaces that have an install under the home.
func (in *Installer) Namespaces() ([]string, error) {
	is, err := in.Installs()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, i := range is {
		out = append(out, i.Namespace)
	}
	return slices.Compact(out), nil
}

// modulePath is this module's path, as build info names it.
const modulePath = "github.com/hookinstall/hookinstall"

// moduleVersion is the version of this module in the running binary, from
// its build info: the main module's version when the binary is hookinstall's
// own (a pseudo-version for a build from a checkout), or the version a host's
// go.mod requires when the host embeds the package. "(devel)" when the build
// recorded none.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if bi.Main.Path == modulePath && bi.Main.Version != "" {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			if d.Replace != nil && d.Replace.Version != "" {
				return d.Replace.Version
			}
			if d.Version != "" {
				return d.Version
			}
		}
	}
	return "(devel)"
}
