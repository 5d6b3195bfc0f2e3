package hookinstall

import (
	"os"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/adapters"
)

// TestREADMEExamples: every Go snippet in the README is cut from the
// Example functions in example_test.go (its lines appear there, in order),
// which go test compiles and runs, so the README cannot show code that no
// longer builds or does something else.
func TestREADMEExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	have := lines(string(examples))
	blocks := strings.Split(string(readme), "```go\n")[1:]
	if len(blocks) < 3 {
		t.Fatalf("README has %d Go snippets, want the API's and the wire's (3)", len(blocks))
	}
	for i, b := range blocks {
		code, _, ok := strings.Cut(b, "```")
		if !ok {
			t.Fatalf("snippet %d is not closed", i+1)
		}
		j := 0
		for _, l := range lines(code) {
			for j < len(have) && have[j] != l {
				j++
			}
			if j == len(have) {
				t.Errorf("README snippet %d: line %q is not in example_test.go (in this order)", i+1, l)
				break
			}
			j++
		}
	}
}

// TestDocsRowsEveryAgent: the docs rows of the README's "To add an agent"
// exist for every agent of the registry: its row in the README's Agents
// table, its section in docs/agents.md, and its recorded payloads named in
// adapters/payloads/README.md (where each was recorded).
func TestDocsRowsEveryAgent(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, agentsDoc, payloads := read("README.md"), read("docs/agents.md"), read("adapters/payloads/README.md")
	table, _, _ := strings.Cut(readme[strings.Index(readme, "\n## Agents\n")+1:], "\n\n- ")
	for _, a := range adapters.All() {
		if !strings.Contains(table, "\n| `"+a.ID+"`") {
			t.Errorf("README.md: no row for %s in the Agents table (\"| `%s` ...\")", a.ID, a.ID)
		}
		if !strings.Contains(agentsDoc, "\n## "+a.ID+"\n") {
			t.Errorf("docs/agents.md: no section \"## %s\" (what its binary was measured to do)", a.ID)
		}
		if a.Payloads != "" && !strings.Contains(payloads, "`"+a.Payloads+".") {
			t.Errorf("adapters/payloads/README.md: no row for %s's payloads (`%s.<event>.json`: where each was recorded)", a.ID, a.Payloads)
		}
	}
}
