package writer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder that cannot be created under a read-only parent is named, with
// what to do, instead of a raw "mkdir ...: permission denied".
func TestMkdirsReadOnlyParent(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	parent := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(parent, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(parent, 0o700)
	_, err := mkdirs(realSystem{}, filepath.Join(parent, ".claude", "hookinstall-hooks"))
	if err == nil {
		t.Fatal("mkdirs under a read-only folder succeeded")
	}
	want := "cannot create the folder " + filepath.Join(parent, ".claude") + ": " + parent + " is read-only for you; make it writable, or install into a home you can write with --home"
	if err.Error() != want {
		t.Errorf("got %q\nwant %q", err, want)
	}
	if strings.Contains(err.Error(), "mkdir ") {
		t.Errorf("raw mkdir error: %v", err)
	}
}
