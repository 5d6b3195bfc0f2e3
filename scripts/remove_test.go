package scripts

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// TestCommand pins the commands headers and hints name, byte for byte:
// --namespace outside the default one, --home for a home that is not the
// user's own (quoted for the shell where it needs it), for a Docker
// target --as-home (in a header with HOST_DIR in place of the host
// folder), and a clone added again by id and base.
func TestCommand(t *testing.T) {
	for _, c := range []struct {
		in   Install
		want string
	}{
		{Install{NS: "hookinstall", Agent: "claude"}, "hookinstall remove claude"},
		{Install{NS: "termic", Agent: "grok"}, "hookinstall remove grok --namespace termic"},
		{Install{NS: "termic", Agent: "claude-work", Home: "/srv/agents/a-1"}, "hookinstall remove claude-work --namespace termic --home /srv/agents/a-1"},
		{Install{NS: "hookinstall", Agent: "claude", Home: "/tmp/my home"}, "hookinstall remove claude --home '/tmp/my home'"},
		{Install{NS: "hookinstall", Agent: "claude", Home: "/tmp/it's $HOME"}, `hookinstall remove claude --home '/tmp/it'\''s $HOME'`},
		{Install{NS: "hookinstall", Agent: "claude", Home: "/tmp/é"}, "hookinstall remove claude --home '/tmp/é'"},
		{Install{NS: "hookinstall", Agent: "claude", Home: "/tmp/a\nrm -rf ~"}, `hookinstall remove claude --home $'/tmp/a\nrm -rf ~'`},
		{Install{NS: "hookinstall", Agent: "claude", Home: "/tmp/a\u2028b'\\\xff"}, `hookinstall remove claude --home $'/tmp/a\xe2\x80\xa8b\'\\\xff'`},
		{Install{NS: "hookinstall", Agent: "claude", Home: "/srv/c", AsHome: "/root"}, "hookinstall remove claude --home /srv/c --as-home /root"},
		{Install{NS: "termic", Agent: "kilo", Home: HostDir, AsHome: "/home/my agent"}, "hookinstall remove kilo --namespace termic --home HOST_DIR --as-home '/home/my agent'"},
		{Install{NS: "termic", Agent: "claude-2", Base: "claude", Home: "/srv/c"}, "hookinstall remove claude-2 --namespace termic --home /srv/c"},
	} {
		if got := c.in.Command("remove"); got != c.want {
			t.Errorf("%+v: got\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
	for verb, want := range map[string]string{
		"add --force": "hookinstall add claude --force --namespace termic",
		"doctor":      "hookinstall doctor claude --namespace termic",
	} {
		if got := (Install{NS: "termic", Agent: "claude"}).Command(verb); got != want {
			t.Errorf("%s: got %q, want %q", verb, got, want)
		}
	}
	if got := (Install{NS: "hookinstall", Agent: "claude-2", Base: "claude"}).Command("add"); got != "hookinstall add --agent-id claude-2 --base claude" {
		t.Errorf("a clone's add: %q", got)
	}
	if got := (Install{NS: "termic"}).Command("status"); got != "hookinstall status --namespace termic" {
		t.Errorf("no agent: %q", got)
	}
	if w := (Install{NS: "termic", Agent: "kilo", AsHome: "/home/a b"}).Where(); w != "on the host, HOST_DIR being the folder mounted at '/home/a b' in the container." {
		t.Errorf("Where: %q", w)
	}
	if w := (Install{NS: "termic", Agent: "kilo", Home: "/home/a"}).Where(); w != "" {
		t.Errorf("Where without AsHome: %q", w)
	}
}

// TestHeaderNamesHome renders every kind of file for an install in another
// home, and for a Docker target, and checks the header's lines byte for
// byte; a home holding a line break leaves the file's lines as they were (it
// cannot end the comment and smuggle in a command).
func TestHeaderNamesHome(t *testing.T) {
	hook := func(in Install) []byte {
		b, err := Render(Spec{Install: in, Event: "Stop", State: terminal.Done, Transport: PTY})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	plugin := func(in Install) []byte {
		b, err := RenderPlugin(in, "Kilo")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pi := func(in Install) []byte {
		b, err := RenderPi(in)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	home := Install{NS: "termic", Agent: "claude-2", Home: "/srv/my home"}
	dock := Install{NS: "termic", Agent: "claude-2", Home: HostDir, AsHome: "/root"}
	for _, c := range []struct {
		name   string
		render func(Install) []byte
		in     Install
		want   string
	}{
		{"hook", hook, home, "# Remove it with: hookinstall remove claude-2 --namespace termic --home '/srv/my home'\n[ -n"},
		{"hook", hook, dock, "# Remove it with: hookinstall remove claude-2 --namespace termic --home HOST_DIR --as-home /root\n# Run it on the host, HOST_DIR being the folder mounted at /root in the container.\n[ -n"},
		{"plugin", plugin, home, "// Remove it with: hookinstall remove claude-2 --namespace termic --home '/srv/my home'\nimport"},
		{"plugin", plugin, dock, "// Remove it with: hookinstall remove claude-2 --namespace termic --home HOST_DIR --as-home /root\n// Run it on the host, HOST_DIR being the folder mounted at /root in the container.\nimport"},
		{"pi", pi, home, "// Remove it with: hookinstall remove claude-2 --namespace termic --home '/srv/my home'\nimport"},
		{"pi", pi, dock, "// Remove it with: hookinstall remove claude-2 --namespace termic --home HOST_DIR --as-home /root\n// Run it on the host, HOST_DIR being the folder mounted at /root in the container.\nimport"},
	} {
		b := c.render(c.in)
		if !bytes.Contains(b, []byte("\n"+c.want)) {
			t.Errorf("%s %+v: lacks\n%s\nin\n%s", c.name, c.in, c.want, b)
		}
		if !bytes.Equal(b, c.render(c.in)) {
			t.Errorf("%s %+v: not byte-stable", c.name, c.in)
		}
		plain := c.in
		plain.Home, plain.AsHome = "", ""
		evil := plain
		evil.Home = "/tmp/x\nrm -rf ~\u2028evil()\r"
		lines := func(b []byte) int {
			return strings.Count(string(b), "\n") + strings.Count(string(b), "\r") + strings.Count(string(b), "\u2028") + strings.Count(string(b), "\u2029")
		}
		if e, p := c.render(evil), c.render(plain); lines(e) != lines(p) {
			t.Errorf("%s: a home with line breaks adds lines:\n%s", c.name, e)
		}
	}
}

// TestShellQuoteRoundTrip has a shell read each quoted word back: it must
// give the path's exact bytes. dash reads the plain and single-quoted
// forms; $'...' is bash's (and POSIX 2024's).
func TestShellQuoteRoundTrip(t *testing.T) {
	ran := 0
	for _, c := range []struct{ shell, s string }{
		{"dash", "/srv/agents/a-1"},
		{"dash", "/tmp/my home"},
		{"dash", "/tmp/it's $HOME `id` \"x\" *"},
		{"dash", "/tmp/é"},
		{"bash", "/tmp/a\nrm -rf ~"},
		{"bash", "/tmp/a\u2028b'\\\xff\x01\t\r"},
	} {
		if _, err := exec.LookPath(c.shell); err != nil {
			t.Logf("%s not installed", c.shell)
			continue
		}
		ran++
		q := ShellQuote(c.s)
		out, err := exec.Command(c.shell, "-c", "printf %s "+q).Output()
		if err != nil || string(out) != c.s {
			t.Errorf("%s read %s as %q (%v), want %q", c.shell, q, out, err, c.s)
		}
	}
	if ran == 0 {
		t.Skip("neither dash nor bash is installed: nothing was checked")
	}
}
