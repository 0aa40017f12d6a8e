package ir

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// fuzzLimits keep each fuzz input cheap.
var fuzzLimits = Limits{MaxXMLBytes: 1 << 20, MaxTokenBytes: 64 << 10, MaxDepth: 64, MaxNodes: 20000}

// FuzzRead feeds arbitrary bytes to the reader. Whatever parses must also check, load its Const
// data (from the input itself, standing in for a .bin), survive read → write → read unchanged,
// run, fold into a model that checks, and decompose into a model that writes, reads back and
// checks. Nothing may panic or hang.
func FuzzRead(f *testing.F) {
	for _, dir := range []string{"../testdata/ir", "../testdata/ir/bad"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil && len(data) < 8<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := fuzzLimits.Parse(bytes.NewReader(data), "f.xml")
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		m.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		m.Check()
		for _, l := range m.Layers {
			if l.Type == "Const" {
				if ci, b, err := m.ConstData(l); err == nil && int64(len(b)) > ci.Size {
					t.Fatalf("ConstData returned %d bytes for size %d", len(b), ci.Size)
				}
			}
		}
		w1 := m.String()
		m2, err := Parse(bytes.NewReader([]byte(w1)), "w.xml")
		if err != nil {
			t.Fatalf("written model does not read: %v\n%s", err, w1)
		}
		if !reflect.DeepEqual(strip(m), strip(m2)) {
			t.Fatalf("read → write → read changed the model\n%s", w1)
		}
		if w2 := m2.String(); w2 != w1 {
			t.Fatalf("second write differs:\n%s\n----\n%s", w1, w2)
		}
		m2.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		if res, err := m2.Run(nil); err == nil {
			for _, o := range res.Outputs {
				FirstValues(o.Tensor, 4)
			}
		}
		m4, _ := Parse(bytes.NewReader([]byte(w1)), "w.xml")
		m4.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		if n, err := m4.Fold(); err == nil && n > 0 {
			if _, err := m4.Check(); err != nil {
				t.Fatalf("folded model does not check: %v\n%s", err, m4.String())
			}
		}
		if n, err := m2.Decompose(); err == nil && n > 0 {
			w3 := m2.String()
			m3, err := Parse(bytes.NewReader([]byte(w3)), "d.xml")
			if err != nil {
				t.Fatalf("decomposed model does not read: %v\n%s", err, w3)
			}
			m3.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
			if _, err := m3.Check(); err != nil {
				t.Fatalf("decomposed model does not check: %v\n%s", err, w3)
			}
		}
	})
}

// FuzzReadNPY feeds arbitrary bytes to ReadNPY: it must return a valid tensor or an error, and a
// tensor it returns must write back to a file that reads as the same tensor.
func FuzzReadNPY(f *testing.F) {
	f.Add([]byte("\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }          \n\x00\x00\x80\x3f\x00\x00\x00\x40"))
	f.Add([]byte("\x93NUMPY\x02\x00\x10\x00\x00\x00{'descr': '|b1', 'fortran_order': False, 'shape': (), }\x01"))
	for _, h := range []string{
		`{"descr":"<i8","fortran_order":False,"shape":(1,1,)}`,
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (2,)}",
		"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': ((1),)}",
		"{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }\n",
	} {
		b := []byte("\x93NUMPY\x01\x00")
		b = append(b, byte(len(h)), 0)
		f.Add(append(append(b, h...), "\x01\x00\x02\x00\x03\x00\x04\x00"...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ReadNPY(bytes.NewReader(data))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteNPY(&b, x); err != nil {
			t.Fatalf("WriteNPY of a read tensor: %v", err)
		}
		y, err := ReadNPY(&b)
		if err != nil || y.Type() != x.Type() || !slices.Equal(y.Shape(), x.Shape()) || !bytes.Equal(y.Bytes(), x.Bytes()) {
			t.Fatalf("npy round trip: %v", err)
		}
	})
}

// FuzzParsePyLiteral feeds arbitrary text to the parser of .npy headers' Python literals: it
// must return a value or an error, never panic, and a dict it returns has no repeated key.
func FuzzParsePyLiteral(f *testing.F) {
	for _, s := range []string{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "((1,), [2, 'a'], -3)", `"it\'s"`, "(((", "{'a': 1, 'a': 2}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parsePyLiteral(s)
		if err != nil || v.kind != pyDict {
			return
		}
		seen := map[string]bool{}
		for _, k := range v.keys {
			if seen[k] {
				t.Fatalf("key %q twice in %q", k, s)
			}
			seen[k] = true
		}
		parseNPYHeader(s)
	})
}

// FuzzParseSnippet feeds arbitrary text to the tolerant reader of pasted <layer> elements: it
// must return a model or an error, and a model it returns must check, decompose and write
// without panicking, and the written model must read back with the strict reader.
func FuzzParseSnippet(f *testing.F) {
	f.Add([]byte(`<layer id="1" type="ConvertPromoteTypes" version="opset14"><data promote_unsafe="true"/><input><port id="0" precision="FP16"><dim>2</dim></port><port id="1" precision="I64" names="b"/></input><output><port id="2" precision="FP16,"/><port id="3"/></output></layer>`))
	f.Add([]byte("< !-- comment --><layer ... type=\"ConvertPromoteTypes\"><input><port id=\"0\" precision=\"U64\"/><port id=\"1\" precision=\"I8\"/></input></layer>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		m, err := ParseSnippet(data, "snippet.txt")
		if err != nil {
			return
		}
		m.Check()
		m.Decompose()
		w := m.String()
		if _, err := Parse(bytes.NewReader([]byte(w)), "w.xml"); err != nil {
			t.Fatalf("written snippet model does not read: %v\n%s", err, w)
		}
	})
}
