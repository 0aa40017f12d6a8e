package ckfixture

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestExamplesCommitted checks that testdata/safetensors holds exactly what the generator
// writes (go run ./internal/ckfixture/gen testdata/safetensors), file for file.
func TestExamplesCommitted(t *testing.T) {
	committed := filepath.Join("..", "..", "testdata", "safetensors")
	fresh := t.TempDir()
	for name, c := range Examples() {
		if err := c.Write(filepath.Join(fresh, name)); err != nil {
			t.Fatal(err)
		}
		ents, err := os.ReadDir(filepath.Join(fresh, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			want, _ := os.ReadFile(filepath.Join(fresh, name, e.Name()))
			got, err := os.ReadFile(filepath.Join(committed, name, e.Name()))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from the generator's output (%v): run go run ./internal/ckfixture/gen testdata/safetensors", name, e.Name(), err)
			}
		}
		have, _ := os.ReadDir(filepath.Join(committed, name))
		if len(have) != len(ents) {
			t.Errorf("%s holds %d files, the generator writes %d", name, len(have), len(ents))
		}
	}
}
