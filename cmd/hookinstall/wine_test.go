//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// prngStub is bcryptprimitives.dll's ProcessPrng, which Go's runtime loads
// at start on Windows and Wine 8.0 lacks: RtlGenRandom
// (advapi32!SystemFunction036) does its job.
const prngStub = `#include <windows.h>
typedef BOOLEAN (WINAPI *rgr)(PVOID, ULONG);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE p, SIZE_T n) {
	rgr f = (rgr)GetProcAddress(LoadLibraryA("advapi32.dll"), "SystemFunction036");
	for (; n > 0; ) { ULONG k = n > 0x10000000 ? 0x10000000 : (ULONG)n; if (!f(p, k)) return FALSE; p += k; n -= k; }
	return TRUE;
}
`

// TestWindowsUnderWine runs hookinstall.exe, built for windows/amd64, under
// Wine with the user's Windows home (%USERPROFILE%): add claude, status,
// doctor --no-fire and remove claude on a CRLF settings.json and on files
// of our corpus give each file back byte for byte; every command add wrote
// holds no backslash (Git Bash would eat it), and run by bash -c as Claude
// Code's Git Bash runs it, with a payload and a terminal-mode task id, it
// prints Claude's terminalSequence for its state. .ci/run installs wine64
// and gcc-mingw-w64-x86-64; without them the test says so and skips.
func TestWindowsUnderWine(t *testing.T) {
	for _, tool := range []string{"wine", "wineboot", "wineserver", "x86_64-w64-mingw32-gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install wine64 wine gcc-mingw-w64-x86-64): not checked", tool)
		}
	}
	dir := t.TempDir()
	run := func(t *testing.T, env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir = append(os.Environ(), env...), dir
		// Wine's services, started by the first run, keep its output open
		cmd.WaitDelay = time.Second
		out, err := cmd.CombinedOutput()
		if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	exe := filepath.Join(dir, "hookinstall.exe")
	run(t, []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}, "go", "build", "-C", mustAbs(t, "."), "-o", exe, ".")
	if err := os.WriteFile(filepath.Join(dir, "prng.c"), []byte(prngStub), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, nil, "x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", "bcryptprimitives.dll", "prng.c")
	prefix := filepath.Join(dir, "prefix")
	// no Mono or Gecko installer: nothing here needs them
	wine := []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=", "DISPLAY="}
	// one Wine server for every run below (each would start its own), gone
	// with the test
	if err := os.Mkdir(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	server := exec.Command("wineserver", "-p")
	server.Env = append(os.Environ(), wine...) // its output to /dev/null: it stays
	if err := server.Run(); err != nil {
		t.Fatalf("wineserver -p: %v", err)
	}
	t.Cleanup(func() {
		k := exec.Command("wineserver", "-k")
		k.Env = server.Env
		_ = k.Run()
	})
	run(t, wine, "wineboot", "-i")
	dll, _ := os.ReadFile(filepath.Join(dir, "bcryptprimitives.dll"))
	if err := os.WriteFile(filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll"), dll, 0o644); err != nil {
		t.Fatal(err)
	}
	users, _ := filepath.Glob(filepath.Join(prefix, "drive_c", "users", "*", "AppData"))
	if len(users) != 1 {
		t.Fatalf("want one Wine user's home, found %v", users)
	}
	home := filepath.Dir(users[0])
	winHome := `C:\users\` + filepath.Base(home)
	// C: in the folder the commands run from is Wine's drive, so that a
	// command's C:/users/... is found there as Git Bash finds it
	if err := os.Symlink(filepath.Join(prefix, "drive_c"), filepath.Join(dir, "C:")); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{"crlf": []byte("{\r\n  \"theme\": \"dark\",\r\n  \"hooks\": {}\r\n}\r\n")}
	for _, n := range []string{"001", "003", "005"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", "claude", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		cases[n] = b
	}
	// every other agent is refused there, in one sentence, with exit 3
	refuse := exec.Command("wine", exe, "add", "codex")
	refuse.Env, refuse.Dir, refuse.WaitDelay = append(os.Environ(), wine...), dir, time.Second
	out, err := refuse.CombinedOutput()
	if code := refuse.ProcessState.ExitCode(); code != 3 || !strings.Contains(string(out), "Codex runs its hooks with PowerShell") {
		t.Errorf("add codex on Windows: exit %d (%v), printed\n%s\nwant exit 3 and what Codex runs hooks with", code, err, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".codex")); err == nil {
		t.Errorf("add codex on Windows made %s", filepath.Join(home, ".codex"))
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	for name, before := range cases {
		t.Run(name, func(t *testing.T) {
			if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(settings, before, 0o644); err != nil {
				t.Fatal(err)
			}
			if out := run(t, wine, "wine", exe, "add", "claude"); !strings.Contains(out, winHome+`\.claude\settings.json`) {
				t.Fatalf("add claude did not name %s:\n%s", winHome, out)
			}
			after, _ := os.ReadFile(settings)
			if name == "crlf" && !bytes.Contains(after, []byte("\r\n    \"UserPromptSubmit\"")) {
				t.Errorf("add wrote LF lines into a CRLF settings.json:\n%q", after)
			}
			// Windows Terminal's dialect: the tab's progress, and a bell
			// when the agent needs you or is done
			want := map[string]string{"UserPromptSubmit": "\x1b]9;4;3\a", "PermissionRequest": "\x1b]9;4;4;100\a\a",
				"PostToolUse": "\x1b]9;4;3\a", "Stop": "\x1b]9;4;0\a\a"}
			for event, seq := range want {
				var cmds []string
				gjson.GetBytes(after, "hooks."+event+".#.hooks.#.command").ForEach(func(_, v gjson.Result) bool {
					v.ForEach(func(_, c gjson.Result) bool {
						if strings.Contains(c.String(), "hookinstall-hooks") {
							cmds = append(cmds, c.String())
						}
						return true
					})
					return true
				})
				if len(cmds) != 1 {
					t.Fatalf("%s: want one command of ours, got %q", event, cmds)
				}
				c := cmds[0]
				if strings.Contains(c, `\`) || !strings.HasPrefix(c, `"C:/users/`) {
					t.Errorf("%s: command %q: want it quoted, in forward slashes", event, c)
				}
				// Git Bash (its mounts take no ACLs) runs a file that starts
				// with #!; Linux needs the mode bit Wine does not set
				script := filepath.Join(dir, strings.Trim(c, `"`))
				if err := os.Chmod(script, 0o755); err != nil {
					t.Fatal(err)
				}
				payload := `{"hook_event_name":"` + event + `","session_id":"s","cwd":"C:/work/repo","background_tasks":[]}`
				cmd := exec.Command("bash", "-c", c)
				cmd.Dir, cmd.Stdin = dir, strings.NewReader(payload)
				cmd.Env = append(os.Environ(), "HOOKINSTALL_TASK_ID=terminal:bell:windows-terminal", "HOOKINSTALL_PTY=")
				out, err := cmd.Output()
				if got := gjson.GetBytes(out, "terminalSequence").String(); err != nil || got != seq {
					t.Errorf("bash -c %s with a %s payload: %v, terminalSequence %q; want %q", c, event, err, got, seq)
				}
			}
			run(t, wine, "wine", exe, "status", "claude")
			run(t, wine, "wine", exe, "doctor", "--no-fire", "claude")
			run(t, wine, "wine", exe, "remove", "claude")
			if got, _ := os.ReadFile(settings); !bytes.Equal(got, before) {
				t.Errorf("remove claude: settings.json is not the user's again:\ngot  %q\nwant %q", got, before)
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
