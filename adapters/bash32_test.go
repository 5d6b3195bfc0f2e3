package adapters

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hookinstall/hookinstall/internal/ptytest"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// bash32Build is the script beside the checkout that builds GNU bash
// 3.2.48, the bash behind macOS's /bin/sh (macOS ships 3.2.57: the same
// language plus security fixes), and prints its path.
const bash32Build = "../../shared/vendor/bash-3.2/build.sh"

// bash32 returns the path of bash 3.2, built (and cached) by bash32Build,
// or skips the test saying why it cannot. In CI a failed build fails.
func bash32(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(bash32Build); err != nil {
		t.Skipf("SKIPPING: %s is not beside the checkout (../shared absent), so the scripts are not run under bash 3.2, macOS's /bin/sh", bash32Build)
	}
	out, err := exec.Command("sh", bash32Build).Output()
	if err != nil {
		msg := fmt.Sprintf("building bash 3.2 with %s: %v (it needs cc, make and bison: apt-get install -y build-essential bison)", bash32Build, err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPING: " + msg)
	}
	return strings.TrimSpace(string(out))
}

// TestScriptsSameUnderBash32AndDash runs every generated script of every
// agent (each payload rule among them) under dash and under GNU bash 3.2.48
// in POSIX mode (macOS's /bin/sh), with each recorded payload of its own
// event (and one of another event's, and none) on stdin, in host mode, in terminal mode (three dialects, with
// and without tmux), and with no task id: both shells must print the same
// bytes on stdout and stderr, write the same bytes to the pty, and exit 0.
func TestScriptsSameUnderBash32AndDash(t *testing.T) {
	needDash(t)
	bash := bash32(t)
	if out, err := exec.Command(bash, "--posix", "-c", "echo $BASH_VERSION").Output(); err != nil || !strings.HasPrefix(string(out), "3.2.") {
		t.Fatalf("%s is not bash 3.2: %q, %v", bash, out, err)
	}
	tasks := []string{"", "host-task-1", terminal.TaskPrefix + "osc777", terminal.TaskPrefix + "osc9",
		terminal.TaskPrefix + "tmux+osc99", terminal.TaskPrefix + "tmux+osc777", terminal.TaskPrefix + "bell", terminal.TaskPrefix + "tmux+bell"}
	work := filepath.Join(t.TempDir(), "my project;\x1b]0;x")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, name := range Names() {
		a, _ := Lookup(name)
		tg := testTarget(t, name, "/home/u")
		ss, err := a.Scripts(tg)
		if err != nil {
			t.Fatal(err)
		}
		payloads := Payloads(a.Payloads)
		keys := make([]string, 0, len(payloads))
		for k := range payloads {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		keys = append(keys, "(empty)")
		dir := t.TempDir() // the scripts and their runtime, side by side
		for _, s := range ss {
			if err := os.WriteFile(filepath.Join(dir, s.Name), s.Content, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range ss {
			if !bytes.HasPrefix(s.Content, []byte("#!/bin/sh\n")) {
				continue
			}
			script := filepath.Join(dir, s.Name)
			p := ptytest.Open(t)
			// its own event's payloads, one of another event's, and none
			var mine []string
			foreign := ""
			for _, k := range keys {
				switch {
				case k == s.Event || strings.HasPrefix(k, s.Event+".") || k == "(empty)":
					mine = append(mine, k)
				case foreign == "":
					foreign = k
					mine = append(mine, k)
				}
			}
			for _, task := range tasks {
				for _, k := range mine {
					env := []string{"PATH=/usr/bin:/bin", "PWD=" + work,
						terminal.TaskVar("hookinstall") + "=" + task, terminal.PTYVar("hookinstall") + "=" + p.Path}
					got := map[string]string{}
					for _, sh := range []struct{ name, path string }{{"dash", "dash"}, {"bash 3.2", bash}} {
						args := []string{script}
						if sh.name != "dash" {
							args = []string{"--posix", script}
						}
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
						cmd := exec.CommandContext(ctx, sh.path, args...)
						cmd.Dir, cmd.Env = work, env
						cmd.Stdin = bytes.NewReader(payloads[k])
						var stdout, stderr bytes.Buffer
						cmd.Stdout, cmd.Stderr = &stdout, &stderr
						err := cmd.Run()
						cancel()
						got[sh.name] = fmt.Sprintf("exit %v\nstdout %q\nstderr %q\npty %q", err, stdout.Bytes(), stderr.Bytes(), p.Drain(t))
						runs++
					}
					if got["dash"] != got["bash 3.2"] {
						t.Errorf("%s %s, task %q, payload %s:\ndash:\n%s\nbash 3.2 --posix:\n%s", name, s.Name, task, k, got["dash"], got["bash 3.2"])
					} else if !strings.HasPrefix(got["dash"], "exit <nil>\n") {
						t.Errorf("%s %s, task %q, payload %s: %s", name, s.Name, task, k, got["dash"])
					}
				}
			}
		}
	}
	if runs == 0 {
		t.Fatal("no script was run")
	}
	t.Logf("%d runs, half under each shell", runs)
}
