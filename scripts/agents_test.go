package scripts

// The agents' modules as adapters/ renders them (its opencode.go, pi.go and
// omp.go state the products); the tests of this package use them by name.

// RenderOpencode returns the opencode plugin for the install in: an ES
// module whose only export is the plugin function, whose header names the
// command that removes in. The bytes depend only on in.
func RenderOpencode(in Install) ([]byte, error) { return RenderPlugin(in, "opencode") }

// Pi is Pi's extension (@mariozechner/pi-coding-agent 0.73.1): no
// permission prompts, no willContinue.
var Pi = Extension{Product: "Pi"}

// Omp is oh-my-pi's (@oh-my-pi/pi-coding-agent 18.2.3).
var Omp = Extension{Product: "oh-my-pi", Approval: true, Continues: true}

// RenderPi returns the Pi extension for the install in: a TypeScript
// module that is also plain JavaScript, whose default export registers the
// handlers, and whose header names the command that removes in. The bytes
// depend only on in.
func RenderPi(in Install) ([]byte, error) { return Pi.Render(in) }

// RenderOmp returns oh-my-pi's extension for the install in (see RenderPi).
func RenderOmp(in Install) ([]byte, error) { return Omp.Render(in) }

// PiHeader is the first line of every Pi extension hookinstall writes for
// ns: a file that starts with it is ours.
func PiHeader(ns string) string { return Pi.Header(ns) }

// OmpHeader is the first line of every oh-my-pi extension hookinstall
// writes for ns.
func OmpHeader(ns string) string { return Omp.Header(ns) }

// OpencodeHeader is the first line of every opencode plugin hookinstall
// writes for ns: a file that starts with it is ours.
func OpencodeHeader(ns string) string { return PluginHeader(ns, "opencode") }
