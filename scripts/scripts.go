package scripts

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/template"
	"unicode/utf8"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// QuietGuard is the shell line of a script that exits silently while v is
// set (Spec.Quiet), as Render writes it and doctor looks for it.
func QuietGuard(v string) string { return `[ -z "${` + v + `:-}" ] || exit 0` }

// OSC returns the exact bytes the host receives for state s:
// ESC ] 777 ; notify ; NS ; BODY BEL.
func OSC(ns string, s terminal.State) []byte {
	return []byte("\x1b]777;notify;" + ns + ";" + s.Body() + "\x07")
}

// TerminalSequence returns the JSON line a Claude hook prints for state s, with
// the escape and bell written as \u001b and \u0007.
func TerminalSequence(ns string, s terminal.State) string {
	return `{"terminalSequence":"\u001b]777;notify;` + ns + ";" + s.Body() + `\u0007"}`
}

// Transport says how a script delivers its sequence.
type Transport int

const (
	// Stdout prints Claude's terminalSequence JSON; the agent writes it.
	Stdout Transport = iota
	// PTY writes the raw sequence to the pty named by <NS>_PTY.
	PTY
)

// A Rule makes the reported state depend on the payload.
type Rule int

const (
	// Always reports Spec.State.
	Always Rule = iota
	// NonEmptyBackgroundTasks reports Working when the payload's
	// background_tasks array is not empty, and Spec.State otherwise.
	NonEmptyBackgroundTasks
	// PermissionPrompt reports Spec.State only when the payload's
	// notificationType is "permission_prompt", and nothing otherwise.
	PermissionPrompt
	// FieldEquals reports Spec.State only when the payload's top-level
	// string Spec.Field is Spec.Value, and nothing otherwise (Copilot's and
	// Qwen's notification_type "permission_prompt", Gemini's "ToolPermission").
	FieldEquals
	// FieldTrue reports Spec.State only when the payload's top-level
	// Spec.Field is the JSON literal true, and nothing otherwise (Qwen's
	// PostToolUseFailure is_interrupt: the user stopped the tool with Esc).
	FieldTrue
	// FieldCases reports, when the payload's top-level string Spec.Field
	// is the Value of one of Spec.Cases, that case's State, and nothing
	// otherwise (Factory Droid's Notification: permission_prompt is
	// attention, idle_prompt is interrupted). Spec.State is the first
	// case's.
	FieldCases
)

// A Case is one value of a FieldCases rule and the state it reports.
type Case struct {
	Value string
	State terminal.State
}

// A Spec says what one generated hook script does.
type Spec struct {
	// Install is the install the script belongs to (its namespace, the
	// agent or clone, the home), which its header names.
	Install
	Event     string // the agent's event name, named in the header
	State     terminal.State
	Transport Transport
	Rule      Rule
	Quiet     []string // exit silently when one of these variables is set (another agent runs the script)
	// Field and Value are what FieldEquals matches (FieldTrue: Field):
	// Field holds letters, digits and underscores only, and Value such
	// words separated by single spaces, since the script compares them as
	// shell words (a Value with spaces quoted).
	Field, Value string
	// Cases are what FieldCases matches, in order.
	Cases []Case
	// Product is the agent's name for people ("Claude Code"), which a
	// desktop notification names in terminal mode; Agent when empty.
	Product string
	// Own is what the agent shows by itself in terminal mode, which the
	// script leaves out there (nil: nothing).
	Own *terminal.Own
}

// wordPattern is what a FieldEquals key may hold, and valuePattern its
// value: words separated by single spaces (Letta's "Approval needed").
var (
	wordPattern  = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	valuePattern = regexp.MustCompile(`^[A-Za-z0-9_]+( [A-Za-z0-9_]+)*$`)
)

//go:embed templates/hook.sh.tmpl templates/terminal.sh.tmpl
var templates embed.FS

var hookTmpl = parsed(templates, "templates/hook.sh.tmpl")

type stateLine struct{ Name, Body string }

// stateLines is each state's name and OSC body, for a template's table.
func stateLines(states ...terminal.State) []stateLine {
	ls := make([]stateLine, 0, len(states))
	for _, s := range states {
		ls = append(ls, stateLine{string(s), s.Body()})
	}
	return ls
}

// parsed is the template of files (named after the first), parsed when
// first used: most runs (ls, init, status) render none.
func parsed(fsys embed.FS, files ...string) func() *template.Template {
	return sync.OnceValue(func() *template.Template {
		return template.Must(template.New(path.Base(files[0])).Funcs(template.FuncMap{"q": jsString}).ParseFS(fsys, files...))
	})
}

// execute renders one template.
func execute(t *template.Template, d any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type tmplData struct {
	Spec
	Stdout                      bool
	TaskVar, PTYVar             string
	Match, MatchKey, MatchValue string
	Then, Else                  string
	Cases                       []Case
	States                      []stateLine
	TaskPrefix, Runtime         string
	emit                        func(terminal.State) string
}

// QuietGuards are the script's Quiet guard lines, as QuietGuard writes them.
func (d tmplData) QuietGuards() []string {
	var ls []string
	for _, v := range d.Quiet {
		ls = append(ls, QuietGuard(v))
	}
	return ls
}

// Emit is called by the template with a state's body.
func (d tmplData) Emit(body string) string {
	for _, s := range terminal.States() {
		if s.Body() == body {
			return d.emit(s)
		}
	}
	panic("scripts: unknown body " + body)
}

// Body is the body of the fixed state, for templates without a rule.
func (d tmplData) Body() string { return d.State.Body() }

// Render returns the script for spec. The bytes depend only on the spec, so
// they are stable across runs and versions that do not change the template.
func Render(spec Spec) ([]byte, error) {
	if err := terminal.ValidNamespace(spec.NS); err != nil {
		return nil, err
	}
	if spec.State.Body() == "" {
		return nil, fmt.Errorf("scripts: unknown state %q", spec.State)
	}
	if spec.Product == "" {
		spec.Product = spec.Agent
	}
	d := tmplData{
		Spec:       spec,
		Stdout:     spec.Transport == Stdout,
		TaskVar:    terminal.TaskVar(spec.NS),
		PTYVar:     terminal.PTYVar(spec.NS),
		TaskPrefix: terminal.TaskPrefix,
		Runtime:    RuntimeName,
	}
	d.emit = func(s terminal.State) string {
		if d.Stdout {
			return "printf '%s' '" + TerminalSequence(spec.NS, s) + "'"
		}
		return `printf '\033]777;notify;` + spec.NS + ";" + s.Body() + `\007' 2>/dev/null >"$tty"`
	}
	switch spec.Rule {
	case NonEmptyBackgroundTasks:
		d.Match, d.MatchKey = "nonempty-array", "background_tasks"
		d.Then, d.Else = string(terminal.Working), string(spec.State)
	case PermissionPrompt, FieldEquals:
		d.Match, d.MatchKey, d.MatchValue = "string", "notificationType", "permission_prompt"
		if spec.Rule == FieldEquals {
			if !wordPattern.MatchString(spec.Field) || !valuePattern.MatchString(spec.Value) {
				return nil, fmt.Errorf("scripts: field %q must match %s and value %q must match %s", spec.Field, wordPattern, spec.Value, valuePattern)
			}
			// A value of one word stays as it is; one with spaces is quoted.
			d.MatchKey, d.MatchValue = spec.Field, ShellQuote(spec.Value)
		}
		d.Then, d.Else = string(spec.State), "none"
	case FieldTrue:
		if !wordPattern.MatchString(spec.Field) {
			return nil, fmt.Errorf("scripts: field %q must match %s", spec.Field, wordPattern)
		}
		d.Match, d.MatchKey = "true", spec.Field
		d.Then, d.Else = string(spec.State), "none"
	case FieldCases:
		if !wordPattern.MatchString(spec.Field) || len(spec.Cases) == 0 || spec.Cases[0].State != spec.State {
			return nil, fmt.Errorf("scripts: field %q must match %s, with cases whose first state is %q", spec.Field, wordPattern, spec.State)
		}
		for _, c := range spec.Cases {
			if !wordPattern.MatchString(c.Value) || c.State.Body() == "" {
				return nil, fmt.Errorf("scripts: case %q (%q): the value must match %s and the state be known", c.Value, c.State, wordPattern)
			}
		}
		d.Match, d.MatchKey, d.Cases = "cases", spec.Field, spec.Cases
		d.Else = "none"
	}
	d.States = stateLines(spec.reports()...)
	return execute(hookTmpl(), d)
}

// reports are the states the script reports: its State, or those its rule
// picks from the payload (NonEmptyBackgroundTasks: Working first).
func (spec Spec) reports() []terminal.State {
	states := []terminal.State{spec.State}
	switch spec.Rule {
	case NonEmptyBackgroundTasks:
		states = []terminal.State{terminal.Working, spec.State}
	case FieldCases:
		states = nil
		for _, c := range spec.Cases {
			states = append(states, c.State)
		}
	}
	return slices.Compact(states)
}

// An Install names one install, for the commands that act on it: the
// header of every file generated for it names the one that removes it, and
// every hint the one that mends it (Command).
type Install struct {
	NS    string
	Agent string // the agent's name, or a clone's id
	// Base is, for a clone, the agent it was made from: adding it again
	// names it (--agent-id ID --base BASE).
	Base string
	// Home is the home the install was made in when that is not the user's
	// own (add --home DIR): a plain "hookinstall remove" would act on
	// $HOME instead, so the command names it. "" for the user's own home.
	// In the files of a Docker target it is HostDir: they are read in the
	// container, and the host's folder is never written into them.
	Home string
	// AsHome is the home as the agent sees it, for a Docker target (add
	// --home DIR --as-home CHOME); Where says where its commands run.
	AsHome string
}

// HostDir stands in the header of a Docker target's files for the host
// folder mounted as the container's home. Pasted as it is, it is refused
// (a relative --home), so it never acts on another home.
const HostDir = "HOST_DIR"

// Command is the exact command that runs verb on the install: verb is a
// command and, after a space, its flags ("add --force"); the agent (none
// for an Install with no Agent), --namespace, --home and --as-home follow
// as the install needs them: "hookinstall remove grok --namespace termic
// --home /srv/agents/1". Paths are quoted for the shell where they need it,
// and never hold a raw line break, so a header naming it stays a comment.
func (in Install) Command(verb string) string {
	v, flags, _ := strings.Cut(verb, " ")
	c := "hookinstall " + v
	switch {
	case in.Base != "" && v == "add":
		c += " --agent-id " + in.Agent + " --base " + in.Base
	case in.Agent != "":
		c += " " + in.Agent
	}
	if flags != "" {
		c += " " + flags
	}
	if in.NS != terminal.DefaultNamespace {
		c += " --namespace " + in.NS
	}
	if in.Home != "" {
		c += " --home " + ShellQuote(in.Home)
	}
	if in.AsHome != "" {
		c += " --as-home " + ShellQuote(in.AsHome)
	}
	return c
}

// Where says where Command runs when that is not plain: for a Docker
// target, on the host, with HostDir the folder mounted as the container's
// home. "" otherwise.
func (in Install) Where() string {
	if in.AsHome == "" {
		return ""
	}
	return "on the host, " + HostDir + " being the folder mounted at " + ShellQuote(in.AsHome) + " in the container."
}

// ShellQuote returns s as one word for a POSIX shell: as it is when it
// holds only characters no shell treats specially, else in single quotes,
// else (when it holds a control character, a line or paragraph separator,
// a bidirectional control or bytes that are not UTF-8) in $'...' with those
// escaped, so that the result never breaks a line: a comment holding it
// stays a comment, in sh and in JavaScript alike.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !plainRune(r) }) < 0 {
		return s
	}
	if utf8.ValidString(s) && !strings.ContainsFunc(s, hiddenRune) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && n == 1 || hiddenRune(r):
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// plainRune is a character no shell treats specially.
func plainRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)
}

// hiddenRune is a character that would end a comment line (in sh or
// JavaScript) or hide what a line says: a control character, a line or
// paragraph separator, a bidirectional control.
func hiddenRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// FileName is the script's file name for an agent event:
// "PermissionRequest" gives "permission-request.sh".
func FileName(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		} else if r == '.' || r == '_' {
			r = '-'
		}
		b.WriteRune(r)
	}
	return b.String() + ".sh"
}

//go:embed templates/opencode.js.tmpl templates/pi.ts.tmpl templates/writer.js.tmpl
var jsFS embed.FS

var opencodeTmpl = parsed(jsFS, "templates/opencode.js.tmpl", "templates/writer.js.tmpl")

// OpencodeStates are the states the opencode plugin reports, in the order its
// table lists them.
var opencodeStates = []terminal.State{terminal.Working, terminal.Attention, terminal.Done, terminal.Interrupted}

// RenderPlugin returns the plugin of opencode's plugin API (opencode, and
// Kilo, which forked it) for the install in; product names the agent in its
// header. The bytes depend only on in and product.
func RenderPlugin(in Install, product string) ([]byte, error) {
	ns := in.NS
	if err := terminal.ValidNamespace(ns); err != nil {
		return nil, err
	}
	d := struct {
		NS, Product, TaskVar, PTYVar, Export string
		TaskPrefix                           string
		T                                    jsTerminal
		Install                              Install
		States                               []stateLine
	}{NS: ns, Install: in, Product: product, TaskVar: terminal.TaskVar(ns), PTYVar: terminal.PTYVar(ns), Export: ExportName(ns),
		TaskPrefix: terminal.TaskPrefix, T: newJSTerminal(in, terminal.Agent{Product: product})}
	d.States = stateLines(opencodeStates...)
	return execute(opencodeTmpl(), d)
}

var piTmpl = parsed(jsFS, "templates/pi.ts.tmpl", "templates/writer.js.tmpl")

// An Extension is an agent of Pi's extension API (Pi, and oh-my-pi, which
// forked it): what the extension of the shared template does differs only
// by these data.
type Extension struct {
	// Product names the agent in the extension's header and comments.
	Product string
	// Approval: the agent fires tool_approval_requested when it shows an
	// approval dialog, which reports attention.
	Approval bool
	// Continues: the agent's agent_end carries willContinue, true when
	// another run follows at once; such an agent_end reports nothing.
	Continues bool
	// Own is what the agent shows by itself in terminal mode, which the
	// extension leaves out there (nil: nothing).
	Own *terminal.Own
}

// states are the states the extension reports, in the order its table
// lists them.
func (e Extension) states() []terminal.State {
	if e.Approval {
		return []terminal.State{terminal.Working, terminal.Attention, terminal.Done, terminal.Interrupted}
	}
	return []terminal.State{terminal.Working, terminal.Done, terminal.Interrupted}
}

// Render returns the extension for the install in; the bytes depend only
// on e and in.
func (e Extension) Render(in Install) ([]byte, error) {
	ns := in.NS
	if err := terminal.ValidNamespace(ns); err != nil {
		return nil, err
	}
	d := struct {
		Extension
		NS, TaskVar, PTYVar string
		TaskPrefix          string
		T                   jsTerminal
		Install             Install
		States              []stateLine
	}{Extension: e, NS: ns, Install: in, TaskVar: terminal.TaskVar(ns), PTYVar: terminal.PTYVar(ns), TaskPrefix: terminal.TaskPrefix, T: newJSTerminal(in, terminal.Agent{Product: e.Product, Own: e.Own})}
	d.States = stateLines(e.states()...)
	return execute(piTmpl(), d)
}

// Header is the first line of every extension hookinstall writes for ns
// and this agent: a file that starts with it is ours.
func (e Extension) Header(ns string) string {
	return "// " + ns + " extension for " + e.Product + " (generated by hookinstall; safe to delete).\n"
}

// ExportName is the JavaScript name of the opencode plugin function:
// "my-host" gives "MyHostPlugin".
func ExportName(ns string) string {
	var b strings.Builder
	up := true
	for _, r := range ns {
		if r == '-' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String() + "Plugin"
}

// PluginHeader is the first line of every plugin of opencode's API that
// hookinstall writes for ns and product.
func PluginHeader(ns, product string) string {
	return "// " + ns + " plugin for " + product + " (generated by hookinstall; safe to delete).\n"
}
