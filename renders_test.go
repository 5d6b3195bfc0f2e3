package hookinstall_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall"
)

// TestOwnFileRenders compares, byte for byte, the file that an install
// writes for every agent whose config is a file of ours alone (the opencode
// and Kilo plugins, the Pi and oh-my-pi extensions, ...; taken from the
// registry, so a new one needs its golden) with testdata/renders/<agent>,
// in the default namespace and in another (termic). The home's path is
// written as /home/u in the goldens. HOOKINSTALL_UPDATE_RENDERS=1 rewrites
// them after an intended change (review the diff).
func TestOwnFileRenders(t *testing.T) {
	update := os.Getenv("HOOKINSTALL_UPDATE_RENDERS") == "1"
	_, agents := registry(t)
	n := 0
	for _, a := range agents {
		if a.Shared {
			continue
		}
		for _, ns := range []string{hookinstall.DefaultNamespace, "termic"} {
			n++
			home := t.TempDir()
			in, err := hookinstall.New(hookinstall.Options{Namespace: ns, Getenv: env("HOME", home)})
			if err != nil {
				t.Fatal(err)
			}
			r, err := both(in.Install(context.Background(), a.Name, hookinstall.InstallOptions{}))
			if err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
			got, err := os.ReadFile(r.Config)
			if err != nil {
				t.Fatal(err)
			}
			got = bytes.ReplaceAll(got, []byte(home), []byte("/home/u"))
			golden := filepath.Join("testdata", "renders", ns, a.Name+filepath.Ext(r.Config))
			if update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Errorf("%s: no golden (HOOKINSTALL_UPDATE_RENDERS=1 writes it): %v", a.Name, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s (namespace %s): %s differs from %s at byte %d", a.Name, ns, r.Config, golden, firstDiff(got, want))
			}
		}
	}
	for _, want := range []string{"opencode", "kilo", "pi"} {
		if !strings.Contains(strings.Join(ownNames(agents), " "), want) {
			t.Errorf("%s is not an agent with a file of its own in the registry", want)
		}
	}
	if n == 0 {
		t.Fatal("no agent with a file of its own")
	}
}

func ownNames(as []hookinstall.Agent) []string {
	var ns []string
	for _, a := range as {
		if !a.Shared {
			ns = append(ns, a.Name)
		}
	}
	return ns
}

func firstDiff(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
