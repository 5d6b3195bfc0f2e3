package bench

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestSettingsIsValidAndSized(t *testing.T) {
	for _, size := range []int{16 << 10, 1 << 20} {
		doc := Settings(size)
		if !json.Valid(doc) {
			t.Fatalf("size %d: not valid JSON", size)
		}
		if len(doc) < size || len(doc) > size+4096 {
			t.Fatalf("size %d: got %d bytes", size, len(doc))
		}
		if !bytes.Equal(doc, Settings(size)) {
			t.Fatalf("size %d: not deterministic", size)
		}
	}
	if !json.Valid(Typical) {
		t.Fatal("Typical is not valid JSON")
	}
}
