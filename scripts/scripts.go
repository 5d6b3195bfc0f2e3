package scripts

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"text/template"
)

// A State is one of the four things a hook reports.
type State string

// The states, with the exact OSC bodies of the host protocol.
const (
	Working     State = "working"
	Attention   State = "attention"
	Done        State = "done"
	Interrupted State = "interrupted"
)

var bodies = map[State]string{
	Working:     "agent is working",
	Attention:   "agent needs your input",
	Done:        "agent is done",
	Interrupted: "agent was interrupted",
}

// Body returns the OSC body for s, for example "agent is done".
func (s State) Body() string { return bodies[s] }

// States lists every state in a fixed order.
func States() []State { return []State{Working, Attention, Done, Interrupted} }

// nsPattern is the rule every namespace must match.
var nsPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{1,31}$`)

// ValidNamespace reports an error when ns may not be used as a namespace.
func ValidNamespace(ns string) error {
	if !nsPattern.MatchString(ns) {
		return fmt.Errorf("invalid namespace %q: it must match %s", ns, nsPattern)
	}
	return nil
}

// EnvPrefix is the namespace as an environment variable prefix:
// "my-host" gives "MY_HOST".
func EnvPrefix(ns string) string { return strings.ToUpper(strings.ReplaceAll(ns, "-", "_")) }

// TaskVar is the variable that gates every hook: unset or empty means the
// agent does not run inside the host.
func TaskVar(ns string) string { return EnvPrefix(ns) + "_TASK_ID" }

// PTYVar is the variable that names the host's pty slave.
func PTYVar(ns string) string { return EnvPrefix(ns) + "_PTY" }

// OSC returns the exact bytes the host receives for state s:
// ESC ] 777 ; notify ; NS ; BODY BEL.
func OSC(ns string, s State) []byte {
	return []byte("\x1b]777;notify;" + ns + ";" + s.Body() + "\x07")
}

// TerminalSequence returns the JSON line a Claude hook prints for state s, with
// the escape and bell written as \u001b and \u0007.
func TerminalSequence(ns string, s State) string {
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
)

// A Spec says what one generated hook script does.
type Spec struct {
	NS        string
	Agent     string // the agent id, named in the header
	Event     string // the agent's event name, named in the header
	State     State
	Transport Transport
	Rule      Rule
	GrokGuard bool // exit silently when GROK_HOOK_EVENT is set (Grok runs Claude's hooks)
	// Field and Value are what FieldEquals matches (FieldTrue: Field):
	// letters, digits and underscores only, since the script compares them
	// as shell words.
	Field, Value string
}

// wordPattern is what a FieldEquals key or value may hold.
var wordPattern = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

//go:embed templates/hook.sh.tmpl
var templates embed.FS

var hookTmpl = template.Must(template.New("hook.sh.tmpl").Funcs(funcs).ParseFS(templates, "templates/hook.sh.tmpl"))

type stateLine struct{ Name, Body string }

type tmplData struct {
	Spec
	Stdout                      bool
	TaskVar, PTYVar             string
	Match, MatchKey, MatchValue string
	Then, Else                  string
	States                      []stateLine
	emit                        func(State) string
}

// Emit is called by the template with a state's body.
func (d tmplData) Emit(body string) string {
	for _, s := range States() {
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
	if err := ValidNamespace(spec.NS); err != nil {
		return nil, err
	}
	if spec.State.Body() == "" {
		return nil, fmt.Errorf("scripts: unknown state %q", spec.State)
	}
	d := tmplData{
		Spec:    spec,
		Stdout:  spec.Transport == Stdout,
		TaskVar: TaskVar(spec.NS),
		PTYVar:  PTYVar(spec.NS),
	}
	d.emit = func(s State) string {
		if d.Stdout {
			return "printf '%s' '" + TerminalSequence(spec.NS, s) + "'"
		}
		return `printf '\033]777;notify;` + spec.NS + ";" + s.Body() + `\007' 2>/dev/null >"$tty"`
	}
	switch spec.Rule {
	case NonEmptyBackgroundTasks:
		d.Match, d.MatchKey = "nonempty-array", "background_tasks"
		d.Then, d.Else = string(Working), string(spec.State)
		d.States = []stateLine{{string(Working), Working.Body()}}
		if spec.State != Working {
			d.States = append(d.States, stateLine{string(spec.State), spec.State.Body()})
		}
	case PermissionPrompt, FieldEquals:
		d.Match, d.MatchKey, d.MatchValue = "string", "notificationType", "permission_prompt"
		if spec.Rule == FieldEquals {
			if !wordPattern.MatchString(spec.Field) || !wordPattern.MatchString(spec.Value) {
				return nil, fmt.Errorf("scripts: field %q and value %q must match %s", spec.Field, spec.Value, wordPattern)
			}
			d.MatchKey, d.MatchValue = spec.Field, spec.Value
		}
		d.Then, d.Else = string(spec.State), "none"
		d.States = []stateLine{{string(spec.State), spec.State.Body()}}
	case FieldTrue:
		if !wordPattern.MatchString(spec.Field) {
			return nil, fmt.Errorf("scripts: field %q must match %s", spec.Field, wordPattern)
		}
		d.Match, d.MatchKey = "true", spec.Field
		d.Then, d.Else = string(spec.State), "none"
		d.States = []stateLine{{string(spec.State), spec.State.Body()}}
	}
	var b bytes.Buffer
	if err := hookTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// funcs are the templates' functions.
var funcs = template.FuncMap{"removeCommand": RemoveCommand}

// RemoveCommand is the exact command that removes the install of agent (an
// agent's name or a clone's id) in namespace ns, as every generated file's
// header names it: "hookinstall remove grok --namespace termic".
func RemoveCommand(ns, agent string) string {
	c := "hookinstall remove " + agent
	if ns != "hookinstall" {
		c += " --namespace " + ns
	}
	return c
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

//go:embed templates/opencode.js.tmpl
var opencodeFS embed.FS

var opencodeTmpl = template.Must(template.New("opencode.js.tmpl").Funcs(funcs).ParseFS(opencodeFS, "templates/opencode.js.tmpl"))

// OpencodeStates are the states the opencode plugin reports, in the order its
// table lists them.
var opencodeStates = []State{Working, Attention, Done, Interrupted}

// RenderOpencode returns the opencode plugin for namespace ns: an ES module
// whose only export is the plugin function. agent is the id named in its
// header. The bytes depend only on ns and agent.
func RenderOpencode(ns, agent string) ([]byte, error) { return RenderPlugin(ns, agent, "opencode") }

// RenderPlugin returns the plugin of opencode's plugin API (opencode, and
// Kilo, which forked it) for namespace ns; product names the agent in its
// header. The bytes depend only on ns, agent and product.
func RenderPlugin(ns, agent, product string) ([]byte, error) {
	if err := ValidNamespace(ns); err != nil {
		return nil, err
	}
	d := struct {
		NS, Agent, Product, TaskVar, PTYVar, Export string
		States                                      []stateLine
	}{NS: ns, Agent: agent, Product: product, TaskVar: TaskVar(ns), PTYVar: PTYVar(ns), Export: ExportName(ns)}
	for _, s := range opencodeStates {
		d.States = append(d.States, stateLine{string(s), s.Body()})
	}
	var b bytes.Buffer
	if err := opencodeTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

//go:embed templates/pi.ts.tmpl
var piFS embed.FS

var piTmpl = template.Must(template.New("pi.ts.tmpl").Funcs(funcs).ParseFS(piFS, "templates/pi.ts.tmpl"))

// piStates are the states the Pi extension reports (Pi has no permission
// prompts), in the order its table lists them.
var piStates = []State{Working, Done, Interrupted}

// RenderPi returns the Pi extension for namespace ns: a TypeScript module
// that is also plain JavaScript, whose default export registers the
// handlers. agent is the id named in its header. The bytes depend only on ns
// and agent.
func RenderPi(ns, agent string) ([]byte, error) {
	if err := ValidNamespace(ns); err != nil {
		return nil, err
	}
	d := struct {
		NS, Agent, TaskVar, PTYVar string
		States                     []stateLine
	}{NS: ns, Agent: agent, TaskVar: TaskVar(ns), PTYVar: PTYVar(ns)}
	for _, s := range piStates {
		d.States = append(d.States, stateLine{string(s), s.Body()})
	}
	var b bytes.Buffer
	if err := piTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// PiHeader is the first line of every Pi extension hookinstall writes for
// ns: a file that starts with it is ours.
func PiHeader(ns string) string {
	return "// " + ns + " extension for Pi (generated by hookinstall; safe to delete).\n"
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

// OpencodeHeader is the first line of every opencode plugin hookinstall
// writes for ns: a file that starts with it is ours.
func OpencodeHeader(ns string) string { return PluginHeader(ns, "opencode") }

// PluginHeader is the first line of every plugin of opencode's API that
// hookinstall writes for ns and product.
func PluginHeader(ns, product string) string {
	return "// " + ns + " plugin for " + product + " (generated by hookinstall; safe to delete).\n"
}
