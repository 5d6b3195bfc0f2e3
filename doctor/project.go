package doctor

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// projectDirs are the folders from cwd up to, not including, the home (the
// home's own dot folders are the global configs), or cwd alone when it is
// not under the home.
func (r *run) projectDirs() []string {
	cwd := filepath.Clean(r.d.Cwd)
	home := r.t.Home
	rel, err := filepath.Rel(home, cwd)
	if err == nil && rel == "." {
		return nil
	}
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return []string{cwd}
	}
	var dirs []string
	for d := cwd; d != home && d != filepath.Dir(d); d = filepath.Dir(d) {
		dirs = append(dirs, d)
	}
	return dirs
}

// projectChecks looks for a project-level hook config of ours under the
// current directory: the agent would run it beside the global one, so every
// event would fire twice (seed 003 measured 24 and 24).
func (r *run) projectChecks(p profile) {
	if r.d.Cwd == "" {
		return
	}
	marker := []byte("/" + r.t.NS + "-hooks/")
	found := 0
	for _, dir := range r.projectDirs() {
		for _, glob := range p.projectFiles() {
			matches, _ := filepath.Glob(filepath.Join(dir, glob))
			for _, path := range matches {
				f := readFile(path)
				ours := f.Exists && bytes.Contains(f.Data, marker)
				if strings.HasSuffix(glob, ".js") || strings.HasSuffix(glob, ".ts") {
					ours = f.Exists && strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) == r.t.NS
				}
				if ours {
					r.fail("deadpath.project", path, fmt.Sprintf("%s is a project-level hook config of ours: %s runs it beside the global one, so every event fires twice", path, r.t.ID),
						"remove our entries from it (hookinstall installs only into global configs)")
					found++
				}
			}
		}
	}
	if found == 0 && len(p.projectFiles()) > 0 {
		r.pass("deadpath.project", "", fmt.Sprintf("no project-level hook config of ours under %s", r.d.Cwd))
	}
}
