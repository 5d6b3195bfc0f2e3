package writer

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// searchPath returns a LookPath that searches getenv("PATH"), so a caller
// (and its tests) decides where agents' binaries are found.
func searchPath(getenv func(string) string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, dir := range filepath.SplitList(getenv("PATH")) {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				return p, nil
			}
		}
		return "", errors.New("not found on PATH")
	}
}

// runWith returns a Run that runs a binary with getenv's PATH and HOME, for
// at most 15 seconds.
func runWith(getenv func(string) string) func(ctx context.Context, path string, args ...string) ([]byte, error) {
	return func(ctx context.Context, path string, args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = append(os.Environ(), "PATH="+getenv("PATH"), "HOME="+getenv("HOME"))
		return cmd.Output()
	}
}
