package npy

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Read: it must return a valid tensor or an error, and a
// tensor it returns must write back to a file that reads as the same tensor.
func FuzzRead(f *testing.F) {
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
		x, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, x); err != nil {
			t.Fatalf("Write of a read tensor: %v", err)
		}
		y, err := Read(&b)
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
		parseHeader(s)
	})
}
