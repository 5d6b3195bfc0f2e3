package hookinstall_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"

	"github.com/hookinstall/hookinstall"
)

// A host installs Claude Code's hooks into a user's home, and later takes
// them out: the user's settings come back byte for byte.
func ExampleInstaller_Install() {
	home, err := os.MkdirTemp("", "home")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	settings := filepath.Join(home, ".claude", "settings.json")
	_ = os.MkdirAll(filepath.Dir(settings), 0o755)
	_ = os.WriteFile(settings, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644)

	in, err := hookinstall.New(hookinstall.Options{Namespace: "myhost", Home: home})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	res := in.Install(ctx, "claude", hookinstall.InstallOptions{})
	if res.Err != nil {
		log.Fatal(res.Err)
	}
	fmt.Println(res.Agent, res.Status)
	var changed []string
	for _, c := range res.Changes {
		rel, _ := filepath.Rel(home, c.Path)
		changed = append(changed, c.Action+" "+rel)
	}
	sort.Strings(changed)
	for _, c := range changed {
		fmt.Println(" ", c)
	}

	res = in.Remove(ctx, "claude", hookinstall.RemoveOptions{})
	if res.Err != nil {
		log.Fatal(res.Err)
	}
	fmt.Println(res.Agent, res.Status)
	b, _ := os.ReadFile(settings)
	fmt.Printf("%s", b)
	// Output:
	// claude installed
	//   create .claude/myhost-hooks/backup/settings.json
	//   create .claude/myhost-hooks/manifest.json
	//   create .claude/myhost-hooks/permission-request.sh
	//   create .claude/myhost-hooks/post-tool-use.sh
	//   create .claude/myhost-hooks/stop.sh
	//   create .claude/myhost-hooks/terminal.sh
	//   create .claude/myhost-hooks/user-prompt-submit.sh
	//   modify .claude/settings.json
	// claude removed
	// {
	//   "model": "opus"
	// }
}

// A host starts each agent with the task and pty variables of its tab.
func ExampleInstaller_Env() {
	in, err := hookinstall.New(hookinstall.Options{Namespace: "my-host", Home: os.TempDir()})
	if err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command("claude")
	cmd.Env = append(os.Environ(), in.Env("tab-7", "/dev/pts/3")...)
	for _, kv := range cmd.Env[len(cmd.Env)-2:] {
		fmt.Println(kv)
	}
	// Output:
	// MY_HOST_TASK_ID=tab-7
	// MY_HOST_PTY=/dev/pts/3
}

// A host feeds what it reads from a tab's pty to a Decoder, in whatever
// chunks the reads return: here a sequence split across two reads, and one
// wrapped by tmux.
func ExampleDecoder() {
	var d hookinstall.Decoder
	reads := []string{
		"\x1b[32mok\x1b[0m\r\n\x1b]777;notify;myhost;agent ",
		"needs your input\x07",
		"\x1bPtmux;\x1b\x1b]777;notify;myhost;agent is done\x07\x1b\\",
	}
	for _, r := range reads {
		for _, n := range d.Feed([]byte(r)) {
			if n.Namespace == "myhost" {
				fmt.Println(n.State, n.Tmux)
			}
		}
	}
	// Output:
	// attention false
	// done true
}

// An install refuses a file it cannot parse, and a file whose agent has its
// hooks switched off; the errors say which, and where.
func ExampleFileError() {
	home, err := os.MkdirTemp("", "home")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	settings := filepath.Join(home, ".claude", "settings.json")
	_ = os.MkdirAll(filepath.Dir(settings), 0o755)
	in, err := hookinstall.New(hookinstall.Options{Namespace: "myhost", Home: home})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	_ = os.WriteFile(settings, []byte("{\n  \"model\": \"opus\",\n}\n"), 0o644)
	res := in.Install(ctx, "claude", hookinstall.InstallOptions{})
	var fe *hookinstall.FileError
	if errors.As(res.Err, &fe) {
		fmt.Println(fe.Agent, filepath.Base(fe.Path), "line", fe.Line, "written:", fe.Written)
	}

	_ = os.WriteFile(settings, []byte(`{"disableAllHooks": true}`), 0o644)
	res = in.Install(ctx, "claude", hookinstall.InstallOptions{})
	fmt.Println(res.Status, errors.Is(res.Err, hookinstall.ErrHooksOff))
	// Output:
	// claude settings.json line 3 written: false
	// disabled true
}
