package hookinstall

import (
	"os"
	"strings"
	"testing"
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
