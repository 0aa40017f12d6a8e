package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
)

// tn builds a tensor over data, which must be the exact packed size.
func tn(typ element.Type, shape []int64, data []byte) op.Tensor {
	t, err := op.FromBytes(typ, shape, data)
	if err != nil {
		panic(err)
	}
	return t
}

// le returns the little-endian bytes of vs.
func le[T any](vs ...T) []byte {
	var b bytes.Buffer
	for _, v := range vs {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// f16s returns the little-endian f16 bits of vs.
func f16s(vs ...float32) []byte {
	out := make([]byte, 0, 2*len(vs))
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint16(out, kernels.F16FromF32(v))
	}
	return out
}

// head returns at most the first 32 bytes of b, for messages.
func head(b []byte) []byte {
	if len(b) > 32 {
		return b[:32]
	}
	return b
}

func TestWrite(t *testing.T) {
	cases := []struct {
		t      op.Tensor
		header string
		data   []byte
	}{
		{tn(element.F16, []int64{2}, f16s(1, -2)), "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", f16s(1, -2)},
		{tn(element.I64, []int64{}, le[int64](-5)), "{'descr': '<i8', 'fortran_order': False, 'shape': (), }", le[int64](-5)},
		{tn(element.Boolean, []int64{1, 2}, []byte{1, 0}), "{'descr': '|b1', 'fortran_order': False, 'shape': (1, 2), }", []byte{1, 0}},
		{tn(element.U1, []int64{3}, []byte{0xA0}), "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", []byte{1, 0, 1}},
		{tn(element.I4, []int64{2}, []byte{0xF8}), "{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", le[int8](-8, -1)},
		{tn(element.BF16, []int64{2}, le[uint16](0x3FC0, 0xC120)), "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", le[float32](1.5, -10)},
		{tn(element.F8E4M3, []int64{2}, []byte{0x38, 0x7E}), "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", le[float32](1, 448)},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := Write(&b, c.t); err != nil {
			t.Errorf("%s: %v", c.t.Type(), err)
			continue
		}
		out := b.Bytes()
		if string(out[:8]) != "\x93NUMPY\x01\x00" {
			t.Errorf("%s: magic %q", c.t.Type(), out[:8])
		}
		hl := int(binary.LittleEndian.Uint16(out[8:]))
		if (10+hl)%64 != 0 || out[10+hl-1] != '\n' {
			t.Errorf("%s: header length %d", c.t.Type(), hl)
		}
		if h := strings.TrimRight(string(out[10:10+hl]), " \n"); h != c.header {
			t.Errorf("%s: header %q, want %q", c.t.Type(), h, c.header)
		}
		if !bytes.Equal(out[10+hl:], c.data) {
			t.Errorf("%s: data %x, want %x", c.t.Type(), out[10+hl:], c.data)
		}
	}
	if err := Write(&bytes.Buffer{}, op.Tensor{}); err == nil {
		t.Errorf("zero tensor written")
	}
	if _, _, err := storedType(element.String); err == nil {
		t.Errorf("string has an npy type")
	}
}

func TestRead(t *testing.T) {
	// Every type NumPy has round-trips through WriteNPY and ReadNPY.
	for _, typ := range []element.Type{element.Boolean, element.I8, element.I16, element.I32, element.I64,
		element.U8, element.U16, element.U32, element.U64, element.F16, element.F32, element.F64, element.C64, element.C128} {
		for _, shape := range [][]int64{{}, {3}, {2, 0}, {2, 3, 1}} {
			x, err := op.NewTensor(typ, shape)
			if err != nil {
				t.Fatal(err)
			}
			for i := range x.Bytes() {
				x.Bytes()[i] = byte(i*37 + 1)
				if typ == element.Boolean {
					x.Bytes()[i] &= 1
				}
			}
			var b bytes.Buffer
			if err := Write(&b, x); err != nil {
				t.Fatal(err)
			}
			y, err := Read(&b)
			if err != nil || y.Type() != typ || !slices.Equal(y.Shape(), shape) || !bytes.Equal(y.Bytes(), x.Bytes()) {
				t.Errorf("%s%v: %v %v %x", typ, shape, err, y.Shape(), y.Bytes())
			}
		}
	}
	hdr := func(h string, data []byte) []byte {
		b := []byte("\x93NUMPY\x01\x00")
		b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
		return append(append(b, h...), data...)
	}
	bad := []struct {
		in   []byte
		want string
	}{
		{[]byte("\x93NUMP"), "EOF"},
		{[]byte("PK\x03\x04zipfile"), "bad magic"},
		{[]byte("\x93NUMPY\x09\x00\x00\x00"), "format version 9.0"},
		{hdr("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", make([]byte, 4)), `dtype ">f4" is not supported`},
		{hdr("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", make([]byte, 4)), "Fortran-order"},
		{hdr("{'descr': '<f4', 'shape': (1,), }", make([]byte, 4)), "malformed header"},
		{hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", nil), "bad dimension"},
		{hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", nil), "overflows"},
		{hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (1048576, 1048576), }", nil), "more than the"},
		{hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 5)), "data: 8 bytes expected"},
	}
	for _, c := range bad {
		if _, err := Read(bytes.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Read(%q): %v, want %q", head(c.in), err, c.want)
		}
	}
}

// TestReadFile reads back a file that Write wrote, and names a missing file in its error.
func TestReadFile(t *testing.T) {
	x := tn(element.I16, []int64{2, 2}, le[int16](1, -2, 3, -4))
	p := filepath.Join(t.TempDir(), "x.npy")
	var b bytes.Buffer
	if err := Write(&b, x); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	y, err := ReadFile(p)
	if err != nil || y.Type() != x.Type() || !slices.Equal(y.Shape(), x.Shape()) || !bytes.Equal(y.Bytes(), x.Bytes()) {
		t.Errorf("ReadFile: %v %v %v", y.Type(), y.Shape(), err)
	}
	missing := filepath.Join(t.TempDir(), "none.npy")
	if _, err := ReadFile(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("ReadFile(missing) = %v, want a not-exist error naming the file", err)
	}
}
