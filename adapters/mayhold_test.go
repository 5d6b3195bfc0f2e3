package adapters

import (
	"bytes"
	"math/rand"
	"testing"
)

// mayHold's one pass says what the five searches it replaced said.
func TestMayHoldNSOnePass(t *testing.T) {
	slow := func(data []byte, ns string) bool {
		for _, s := range []string{ns, `\u`, `\U`, `\x`, `\/`} {
			if bytes.Contains(data, []byte(s)) {
				return true
			}
		}
		return false
	}
	alphabet := []byte(`\\\\uUx/"a n-ok`)
	r := rand.New(rand.NewSource(1))
	cases := [][]byte{nil, []byte(`\`), []byte(`a\`), []byte(`\\`), []byte(`\\u`), []byte(`"\n"`), []byte(`x-ns`)}
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.Intn(12))
		for j := range b {
			b[j] = alphabet[r.Intn(len(alphabet))]
		}
		cases = append(cases, b)
	}
	for _, c := range cases {
		if got, want := mayHold(c, "x-ns", "uUx/"), slow(c, "x-ns"); got != want {
			t.Fatalf("mayHold(%q) = %v, want %v", c, got, want)
		}
	}
}
