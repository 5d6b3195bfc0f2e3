package doctor

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/manifest"
	"github.com/hookinstall/hookinstall/scripts"
	"github.com/hookinstall/hookinstall/writer"
)

// A scriptInfo is one installed script as doctor found it.
type scriptInfo struct {
	Event    string
	Path     string // on disk
	Want     []byte // what this version writes
	Runnable bool   // exists, regular, executable: the live fire may run it
	// Transport is how the agent's scripts reach the terminal.
	Transport scripts.Transport
}

// stdoutTransport reports whether a script delivers through its stdout
// (Claude's terminalSequence) rather than the pty.
func (s scriptInfo) stdoutTransport() bool { return s.Transport == scripts.Stdout }

// gates are the lines that keep a script silent where it must be. A script
// must carry each one that this version writes into it, before any output.
func gates(t adapters.Target) []struct{ Line, What string } {
	ns := t.NS
	gs := []struct{ Line, What string }{
		{`[ -n "${` + terminal.TaskVar(ns) + `:-}" ] || exit 0`, "the task gate (silent outside the host: no " + terminal.TaskVar(ns) + ")"},
	}
	for _, q := range t.Adapter.Quiet {
		gs = append(gs, struct{ Line, What string }{scripts.QuietGuard(q.Var), "the " + q.Who + " guard (" + q.Why + ": silent when " + q.Var + " is set)"})
	}
	return append(gs, struct{ Line, What string }{`[ -c "$tty" ] || exit 0`, "the pty gate (writes only to a character device, never creates a file)"})
}

// missingGates returns what data lacks of the gates that want carries, as a
// whole line before the first printf.
func missingGates(t adapters.Target, data, want []byte) []string {
	var miss []string
	lines := strings.Split(string(data), "\n")
	firstOut := len(lines)
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "printf") || strings.Contains(l, ") printf") {
			firstOut = i
			break
		}
	}
	for _, g := range gates(t) {
		if !bytes.Contains(want, []byte(g.Line)) {
			continue
		}
		if !slices.Contains(lines[:firstOut], g.Line) {
			miss = append(miss, g.What)
		}
	}
	return miss
}

// scriptChecks runs manifest.valid, hooksdir.private and, per script,
// script.exists, script.mode, script.hash and script.gates.
func (r *run) scriptChecks() []scriptInfo {
	t := r.t
	dir := t.HooksDir()
	r.manifestCheck()
	if _, err := os.Lstat(dir); err == nil {
		if err := writer.CheckPrivateDir(dir); err != nil {
			fault, hint := err.Error(), "make it yours and not writable by group or others"
			var h interface {
				Fault() string
				Hint() string
			}
			if errors.As(err, &h) {
				fault, hint = h.Fault(), h.Hint()
			}
			r.fail("hooksdir.private", dir, fault, hint)
		} else {
			r.pass("hooksdir.private", dir, dir+" is yours and not writable by group or others")
		}
	}
	return r.scriptFiles()
}

// manifestCheck runs manifest.valid.
func (r *run) manifestCheck() {
	manPath := filepath.Join(r.t.HooksDir(), manifest.FileName)
	switch {
	case r.manErr != nil:
		r.fail("manifest.valid", manPath, fmt.Sprintf("%s: %v", manPath, r.manErr), r.addHint())
	case r.man == nil:
		r.fail("manifest.valid", manPath, fmt.Sprintf("%s is missing, so nothing records what the scripts should hold", manPath), r.addHint())
	default:
		r.pass("manifest.valid", manPath, fmt.Sprintf("%s records the install (%s)", manPath, r.man.ToolVersion))
	}
}

// scriptFiles runs script.exists, script.mode, script.hash and script.gates
// per script.
func (r *run) scriptFiles() []scriptInfo {
	t := r.t
	dir := t.HooksDir()
	want, err := t.Adapter.Scripts(t)
	if err != nil {
		r.fail("script.exists", dir, fmt.Sprintf("cannot render our scripts: %v", err), "")
		return nil
	}
	var infos []scriptInfo
	for _, s := range want {
		path := filepath.Join(dir, s.Name)
		info := scriptInfo{Event: s.Event, Path: path, Want: s.Content, Transport: t.Adapter.Transport}
		fi, err := os.Lstat(path)
		rel, _ := filepath.Rel(t.Home, path)
		switch {
		case err != nil && r.man != nil && r.man.Script(rel) == nil:
			r.fail("outdated.script", path, fmt.Sprintf("%s is missing: the install (hookinstall %s) has none, and add now writes it", path, r.man.ToolVersion), r.upHint())
			infos = append(infos, info)
			continue
		case err != nil:
			what := "the " + s.Event + " hook runs nothing"
			if s.Event == "" {
				what = "the hooks send nothing in terminal mode (hookinstall init or run)"
			}
			r.fail("script.exists", path, fmt.Sprintf("%s is missing, so %s", path, what), r.addHint())
			infos = append(infos, info)
			continue
		case fi.Mode()&fs.ModeSymlink != 0:
			r.fail("script.exists", path, fmt.Sprintf("%s is a symlink, not the script hookinstall wrote", path), r.addHint())
			infos = append(infos, info)
			continue
		case !fi.Mode().IsRegular():
			r.fail("script.exists", path, fmt.Sprintf("%s is not a regular file", path), r.addHint())
			infos = append(infos, info)
			continue
		}
		r.pass("script.exists", path, path+" exists")
		perm := fi.Mode().Perm()
		switch {
		case runtime.GOOS == "windows":
			r.skip("script.mode", path, path+": Windows keeps no mode bits (Git Bash runs a file that starts with #!)")
			info.Runnable = true
		case perm&0o100 == 0:
			r.fail("script.mode", path, fmt.Sprintf("%s is not executable (mode %04o), so the agent cannot run it", path, perm), "run 'chmod 755 "+path+"'")
		case perm&0o022 != 0:
			r.fail("script.mode", path, fmt.Sprintf("%s is writable by group or others (mode %04o): anyone who can write it runs code in your agent", path, perm), "run 'chmod 755 "+path+"'")
		default:
			r.pass("script.mode", path, fmt.Sprintf("%s is executable (mode %04o)", path, perm))
			info.Runnable = true
		}
		data := readFile(path)
		if data.Err != nil {
			r.fail("script.hash", path, fmt.Sprintf("%s: %v", path, data.Err), r.addHint())
			infos = append(infos, info)
			continue
		}
		var recorded *string
		if rec := r.man.Script(rel); rec != nil {
			recorded = &rec.SHA256
		}
		r.hashCheck(path, data.Data, s.Content, recorded, "outdated.script", "")
		r.gatesCheck(path, missingGates(t, data.Data, s.Content))
		infos = append(infos, info)
	}
	return infos
}

// hashCheck runs script.hash on data, our file at path as read, against
// the sum the manifest recorded of it (nil when none) and what this version
// writes (want); outdated is the id of the check that the file is as an
// older version wrote it, and edited ends the hint for a file edited since.
func (r *run) hashCheck(path string, data, want []byte, recorded *string, outdated, edited string) {
	sum := manifest.Sum(data)
	switch {
	case recorded != nil && sum == *recorded:
		r.pass("script.hash", path, fmt.Sprintf("%s is byte-identical to what the manifest recorded", path))
		if !bytes.Equal(data, want) {
			r.fail(outdated, path, fmt.Sprintf("%s is as the install (hookinstall %s) wrote it, not as add writes it now", path, r.man.ToolVersion), r.upHint())
		}
	case recorded != nil:
		r.fail("script.hash", path, fmt.Sprintf("%s changed since it was installed (sha256 %s, the manifest recorded %s)", path, short(sum), short(*recorded)), r.addHint()+edited)
	case bytes.Equal(data, want):
		r.pass("script.hash", path, fmt.Sprintf("%s is byte-identical to what this version writes (no manifest record)", path))
	default:
		r.fail("script.hash", path, fmt.Sprintf("%s is not what hookinstall writes and no manifest records it", path), r.addHint()+edited)
	}
}

// gatesCheck runs script.gates on our file at path, which lacks miss.
func (r *run) gatesCheck(path string, miss []string) {
	if len(miss) > 0 {
		r.fail("script.gates", path, fmt.Sprintf("%s lacks %s", path, strings.Join(miss, "; and ")), r.addHint())
	} else {
		r.pass("script.gates", path, fmt.Sprintf("%s keeps its gates", path))
	}
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}
