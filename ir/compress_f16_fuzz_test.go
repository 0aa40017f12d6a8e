package ir

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCompressToF16 feeds arbitrary models (their own bytes standing in for the .bin) to
// CompressToF16 and CompactWeights: nothing may panic; a model that checks before checks after,
// writes, reads back with its compacted data and checks again.
func FuzzCompressToF16(f *testing.F) {
	files, _ := filepath.Glob("../testdata/ir/*.xml")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil && len(data) < 16<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := fuzzLimits.Parse(bytes.NewReader(data), "f.xml")
		if err != nil {
			return
		}
		m.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		if _, err := m.Check(); err != nil {
			return
		}
		if _, err := CompressToF16(m); err != nil {
			return
		}
		if _, err := m.Check(); err != nil {
			t.Fatalf("compressed model does not check: %v\n%s", err, m.String())
		}
		if err := m.CompactWeights(); err != nil {
			t.Fatalf("CompactWeights: %v", err)
		}
		r, size, err := m.weights.load()
		if err != nil {
			t.Fatal(err)
		}
		bin := make([]byte, size)
		if _, err := r.ReadAt(bin, 0); err != nil && size > 0 {
			t.Fatalf("reading the compacted data: %v", err)
		}
		back, err := ParseBytes([]byte(m.String()), bin, "w.xml")
		if err != nil {
			t.Fatalf("written model does not read: %v", err)
		}
		if _, err := back.Check(); err != nil {
			t.Fatalf("written model does not check: %v", err)
		}
	})
}
