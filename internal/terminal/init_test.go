package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/ptytest"
)

// initCases are environments for init, each with what init must leave in
// the task variable ("=" + value; "DETECT" for Detect's choice with
// the terminal prefix).
var initCases = []struct {
	name string
	env  map[string]string
	want string
}{
	{"plain", nil, "DETECT"},
	{"ghostty", map[string]string{"TERM_PROGRAM": "ghostty"}, "DETECT"},
	{"kitty", map[string]string{"KITTY_WINDOW_ID": "3", "TERM": "xterm-kitty"}, "DETECT"},
	{"kitty-ssh", map[string]string{"TERM": "xterm-kitty"}, "DETECT"},
	{"foot", map[string]string{"TERM": "foot-direct"}, "DETECT"},
	{"wt", map[string]string{"WT_SESSION": "abc"}, "DETECT"},
	{"wezterm", map[string]string{"TERM_PROGRAM": "WezTerm"}, "DETECT"},
	{"iterm-ssh", map[string]string{"LC_TERMINAL": "iTerm2"}, "DETECT"},
	{"tmux-in-ghostty", map[string]string{"TMUX": "/nonexistent/tmux,1,0", "TERM_PROGRAM": "tmux", "GHOSTTY_RESOURCES_DIR": "/g"}, "DETECT"},
	{"override", map[string]string{"HOOKINSTALL_TERMINAL": "osc99", "TERM_PROGRAM": "ghostty"}, "DETECT"},
	{"override-tmux", map[string]string{"HOOKINSTALL_TERMINAL": "osc777", "TMUX": "/nonexistent/tmux,1,0"}, "DETECT"},
	{"apple", map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, "DETECT"},
	{"vscode", map[string]string{"TERM_PROGRAM": "vscode"}, "DETECT"},
	{"alacritty", map[string]string{"TERM": "alacritty"}, "DETECT"},
	{"screen-in-kitty", map[string]string{"STY": "1.x", "KITTY_WINDOW_ID": "1"}, "DETECT"},
	{"ssh-from-tmux", map[string]string{"TERM": "tmux-256color"}, "DETECT"},
	{"override-name", map[string]string{"HOOKINSTALL_TERMINAL": "kitty"}, "DETECT"},
	{"override-tmux-name", map[string]string{"HOOKINSTALL_TERMINAL": "tmux+apple-terminal"}, "DETECT"},
	{"override-bogus", map[string]string{"HOOKINSTALL_TERMINAL": "bogus", "TERM": "foot"}, "DETECT"},
	{"nested", map[string]string{"HOOKINSTALL_TASK_ID": "terminal:osc9", "HOOKINSTALL_PTY": "/dev/pts/999", "TMUX": "/nonexistent/tmux,1,0"}, "DETECT"},
	{"host", map[string]string{"HOOKINSTALL_TASK_ID": "task-1", "HOOKINSTALL_PTY": "/dev/pts/999"}, "=task-1|/dev/pts/999"},
	{"off", map[string]string{"HOOKINSTALL_TERMINAL": "off", "HOOKINSTALL_TASK_ID": "terminal:osc9", "HOOKINSTALL_PTY": "/dev/pts/999"}, "=|"},
	{"off-host", map[string]string{"HOOKINSTALL_TERMINAL": "off", "HOOKINSTALL_TASK_ID": "task-2", "HOOKINSTALL_PTY": "/dev/pts/9"}, "=task-2|/dev/pts/9"},
	// inside Zellij (a fake zellij on PATH says ZELLIJ_VERSION)
	{"zellij", map[string]string{"ZELLIJ": "0", "ZELLIJ_VERSION": "0.45.0", "TERM_PROGRAM": "ghostty"}, "=terminal:zellij+osc777:ghostty"},
	{"zellij-0.44", map[string]string{"ZELLIJ": "0", "ZELLIJ_VERSION": "0.44.3", "TERM_PROGRAM": "ghostty"}, "=terminal:zellij+bell"},
	{"zellij-0.9", map[string]string{"ZELLIJ": "0", "ZELLIJ_VERSION": "0.9.1"}, "=terminal:zellij+bell"},
	{"tmux-in-zellij", map[string]string{"ZELLIJ": "0", "ZELLIJ_VERSION": "0.45.0", "TMUX": "/nonexistent/tmux,1,0"}, "=terminal:tmux+osc9"},
}

// shellArgs runs code (after eval'ing init from file) as an interactive
// shell of each kind, with no rc files.
func shellArgs(shell, initFile, code string) []string {
	switch shell {
	case "fish":
		// as users write it: the code on source's stdin
		return []string{"fish", "--no-config", "-i", "-c", "cat " + initFile + " | source; " + code}
	case "zsh":
		return []string{"zsh", "-f", "-i", "-c", `eval "$(cat ` + initFile + `)"; ` + code}
	}
	return []string{"bash", "--norc", "--noprofile", "-i", "-c", `eval "$(cat ` + initFile + `)"; ` + code}
}

// runInPTY runs args on a new pty, as a terminal runs its shell, and
// returns all it printed once it has exited.
func runInPTY(t *testing.T, args []string, env []string) string {
	t.Helper()
	c := exec.Command(args[0], args[1:]...)
	c.Env = env
	c.Dir = t.TempDir()
	return strings.ReplaceAll(string(ptytest.Open(t).Run(t, c)), "\r\n", "\n")
}

// TestInitInShells evaluates init's code in real interactive bash,
// zsh and fish on a pty: the task id is Detect's choice with the
// terminal prefix, the pty is the shell's own tty, a host's variables are
// left alone, off undoes init, and a non-interactive shell is untouched.
func TestInitInShells(t *testing.T) {
	dir := t.TempDir()
	for _, sh := range Shells() {
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("%s not installed: not checked", sh)
			continue
		}
		code, err := Init(sh, "hookinstall")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "init."+sh)
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		show := `printf 'RESULT=%s|%s|' "$HOOKINSTALL_TASK_ID" "$HOOKINSTALL_PTY"; tty`
		bin := filepath.Join(dir, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil || os.WriteFile(filepath.Join(bin, "zellij"), []byte("#!/bin/sh\necho \"zellij $ZELLIJ_VERSION\"\n"), 0o755) != nil {
			t.Fatal(err)
		}
		for _, c := range initCases {
			env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + dir, "TERM=xterm-256color"}
			var keys []string
			for k := range c.env {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				env = append(env, k+"="+c.env[k])
			}
			out := runInPTY(t, shellArgs(sh, file, show), env)
			i := strings.LastIndex(out, "RESULT=")
			if i < 0 {
				t.Errorf("%s %s: no result in %q", sh, c.name, out)
				continue
			}
			res := strings.TrimSpace(out[i+len("RESULT="):])
			parts := strings.SplitN(res, "|", 3)
			if len(parts) != 3 {
				t.Errorf("%s %s: result %q", sh, c.name, res)
				continue
			}
			got, tty := parts[0]+"|"+parts[1], parts[2]
			want := strings.TrimPrefix(c.want, "=")
			if strings.HasPrefix(want, "terminal:") {
				want += "|" + tty
			}
			if c.want == "DETECT" {
				term, _ := Detect("hookinstall", func(k string) string {
					if k == "TERM" && c.env[k] == "" {
						return "xterm-256color"
					}
					return c.env[k]
				})
				want = term.TaskID() + "|" + tty
				if !strings.HasPrefix(tty, "/dev/") {
					t.Errorf("%s %s: tty printed %q", sh, c.name, tty)
				}
			}
			if got != want {
				t.Errorf("%s %s: init left %q, want %q (output %q)", sh, c.name, got, want, out)
			}
		}
		// Not interactive: untouched.
		args := shellArgs(sh, file, show)
		args = append(args[:len(args)-3:len(args)-3], args[len(args)-2:]...) // drop -i
		if out := runInPTY(t, args, []string{"PATH=/usr/bin:/bin", "HOME=" + dir}); !strings.Contains(out, "RESULT=||") {
			t.Errorf("%s without -i: %q, want nothing set", sh, out)
		}
	}
}

func TestInitRefuses(t *testing.T) {
	if _, err := Init("csh", "hookinstall"); err == nil || !strings.Contains(err.Error(), "bash, zsh, fish, powershell, pwsh") {
		t.Errorf("csh: %v", err)
	}
	if _, err := Init("bash", "Bad NS"); err == nil {
		t.Error("bad namespace accepted")
	}
	code, _ := Init("zsh", "my-host")
	if !strings.Contains(code, "MY_HOST_TASK_ID") || strings.Contains(code, "HOOKINSTALL_TASK_ID") {
		t.Error("namespace not used")
	}
}

// TestInitUnderStrictZshenv: init's zsh code holds in a shell whose
// ~/.zshenv prints and sets -u (nounset), as some users' do and as zsh
// reads first, before ~/.zshrc: it sets the task id and the pty, prints
// nothing of its own, and no unset variable stops it. (Letta on macOS runs
// hooks with /bin/zsh -c, so the same ~/.zshenv runs before our hooks;
// they are #!/bin/sh scripts, which zsh's -u does not reach.)
func TestInitUnderStrictZshenv(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("SKIPPING: zsh is not installed (apt-get install zsh)")
	}
	dir := t.TempDir()
	code, err := Init("zsh", "hookinstall")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "init.zsh")
	if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	zshenv := "echo zshenv-ran\nset -u\n"
	if err := os.WriteFile(filepath.Join(dir, ".zshenv"), []byte(zshenv), 0o644); err != nil {
		t.Fatal(err)
	}
	show := `printf 'RESULT=%s|%s|' "${HOOKINSTALL_TASK_ID-}" "${HOOKINSTALL_PTY-}"; tty`
	args := []string{"zsh", "-i", "-c", `eval "$(cat ` + file + `)"; ` + show}
	for _, env := range [][]string{
		{"TERM_PROGRAM=ghostty"},
		{"TMUX=/nonexistent/tmux,1,0"},
		{"HOOKINSTALL_TERMINAL=off"},
	} {
		out := runInPTY(t, args, append([]string{"PATH=/usr/bin:/bin", "HOME=" + dir, "ZDOTDIR=" + dir, "TERM=xterm-256color"}, env...))
		if !strings.Contains(out, "zshenv-ran") {
			t.Fatalf("%v: ~/.zshenv did not run: %q", env, out)
		}
		if strings.Contains(out, "parameter not set") || strings.Contains(out, "unbound") {
			t.Errorf("%v: init stopped on an unset variable under set -u: %q", env, out)
		}
		i := strings.LastIndex(out, "RESULT=")
		if i < 0 {
			t.Errorf("%v: no result in %q", env, out)
			continue
		}
		res := strings.SplitN(strings.TrimSpace(out[i+len("RESULT="):]), "|", 3)
		if len(res) != 3 {
			t.Errorf("%v: result %q", env, out[i:])
			continue
		}
		want := "|"
		if env[0] != "HOOKINSTALL_TERMINAL=off" {
			m := map[string]string{"TERM": "xterm-256color"}
			k, v, _ := strings.Cut(env[0], "=")
			m[k] = v
			term, _ := Detect("hookinstall", func(k string) string { return m[k] })
			want = term.TaskID() + "|" + res[2]
		}
		if got := res[0] + "|" + res[1]; got != want {
			t.Errorf("%v: init left %q, want %q (output %q)", env, got, want, out)
		}
	}
}

// TestInitPowerShell: init powershell sets the task id alone (no pty on
// Windows) to Windows Terminal's dialect under WT_SESSION, VS Code's and
// WezTerm's under theirs, unless the user's override or a host's id says
// otherwise; no PowerShell here runs it (docs/windows.md).
func TestInitPowerShell(t *testing.T) {
	for _, shell := range []string{"powershell", "pwsh"} {
		code, err := Init(shell, "hookinstall")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"if ($env:WT_SESSION) { 'bell:windows-terminal'; break }",
			"if ($env:TERM_PROGRAM -like 'vscode') { 'bell:vscode'; break }",
			"if ($env:WEZTERM_PANE) { 'osc777:wezterm'; break }",
			"'osc777' { 'osc777' }",
			"$env:HOOKINSTALL_TASK_ID = 'terminal:' + $t",
			"(-not $env:HOOKINSTALL_TASK_ID -or $env:HOOKINSTALL_TASK_ID -like 'terminal:*')",
			"if ($env:HOOKINSTALL_TERMINAL -eq 'off')",
		} {
			if !strings.Contains(code, want) {
				t.Errorf("init %s lacks %q:\n%s", shell, want, code)
			}
		}
		if strings.Contains(code, "HOOKINSTALL_PTY") || strings.Contains(code, "__hookinstall") {
			t.Errorf("init %s sets a pty or reads tmux's client: no tty nor tmux on Windows", shell)
		}
	}
}
