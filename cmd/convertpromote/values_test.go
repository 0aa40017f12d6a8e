package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
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

func TestFirstValues(t *testing.T) {
	cases := []struct {
		t    op.Tensor
		n    int
		want string
	}{
		{tn(element.F32, []int64{3}, le[float32](0.1, float32(math.Inf(-1)), float32(math.NaN()))), 8, "0.1 -Inf NaN"},
		{tn(element.F64, []int64{1}, le(0.1)), 8, "0.1"},
		{tn(element.U64, []int64{2}, le[uint64](math.MaxUint64, 3)), 1, "18446744073709551615"},
		{tn(element.I4, []int64{3}, []byte{0xF8, 0x07}), 8, "-8 -1 7"},
		{tn(element.Boolean, []int64{}, []byte{7}), 8, "1"},
		{tn(element.NF4, []int64{2}, []byte{0xF0}), 8, "-1 1"},
	}
	for _, c := range cases {
		got, err := firstValues(c.t, c.n)
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%s: %q %v, want %q", c.t.Type(), got, err, c.want)
		}
	}
}
