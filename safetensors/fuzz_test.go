package safetensors

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics and that a header it accepts describes a file that
// the Writer reproduces: the same tensors and metadata, and the same data bytes.
func FuzzParse(f *testing.F) {
	f.Add(file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, make([]byte, 8)))
	f.Add(file(`{"__metadata__":{"format":"pt"},"b":{"dtype":"F4","shape":[2,2],"data_offsets":[0,2]},"c":{"dtype":"BF16","shape":[],"data_offsets":[2,4]}}`, []byte{1, 2, 3, 4}))
	f.Add(file(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`, []byte{1, 2}))
	f.Add(file(`  {"x":{"dtype":"F8_E4M3","shape":[3,0],"data_offsets":[0,0]}}  `, nil))
	f.Add(binary.LittleEndian.AppendUint64(nil, 1<<62))
	f.Fuzz(func(t *testing.T, b []byte) {
		pf, err := parse(b)
		if err != nil {
			return
		}
		decls := make([]Decl, len(pf.Tensors()))
		for i, tt := range pf.Tensors() {
			decls[i] = Decl{Name: tt.Name, DType: tt.DType, Shape: tt.Shape}
		}
		var m memFile
		w, err := NewWriter(&m, decls, pf.Metadata())
		if err != nil {
			t.Fatalf("a parsed header does not write: %v", err)
		}
		data := b[pf.DataOffset():]
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		back, err := parse(m.b)
		if err != nil {
			t.Fatalf("written file does not parse: %v", err)
		}
		if !reflect.DeepEqual(back.Tensors(), pf.Tensors()) || len(back.Metadata()) != len(pf.Metadata()) {
			t.Fatalf("tensors %v, want %v", back.Tensors(), pf.Tensors())
		}
		for k, v := range pf.Metadata() {
			if back.Metadata()[k] != v {
				t.Fatalf("metadata %q", k)
			}
		}
		if !bytes.Equal(m.b[back.DataOffset():], data) {
			t.Fatal("data differs")
		}
	})
}
