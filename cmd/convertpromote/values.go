package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
)

// firstValues formats the first n values of t (fewer when it has fewer): floats (and nf4) in
// the shortest form that reads back to the same value of their width ("0.1", "-Inf", "NaN"),
// integers in decimal, booleans as 0 and 1.
func firstValues(t op.Tensor, n int) ([]string, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("the tensor is not valid (the zero op.Tensor)")
	}
	typ := t.Type()
	n = min(n, t.Len())
	if n <= 0 {
		return nil, nil
	}
	var to element.Type
	switch {
	case typ.IsFloat():
		to = element.F64
	case typ == element.Boolean || typ.IsSigned() && typ.IsInteger():
		to = element.I64
	case typ.IsInteger():
		to = element.U64
	default:
		return nil, fmt.Errorf("cannot format %s values", typ)
	}
	buf := make([]byte, 8*n)
	if err := kernels.Convert(buf, to, t.Bytes(), typ, n); err != nil {
		return nil, err
	}
	bits := 32
	if typ == element.F64 {
		bits = 64
	}
	out := make([]string, n)
	for i := range out {
		u := binary.LittleEndian.Uint64(buf[8*i:])
		switch to {
		case element.F64:
			out[i] = strconv.FormatFloat(math.Float64frombits(u), 'g', -1, bits)
		case element.I64:
			out[i] = strconv.FormatInt(int64(u), 10)
		default:
			out[i] = strconv.FormatUint(u, 10)
		}
	}
	return out, nil
}
