package safetensors

import "github.com/convertpromote/convertpromote/element"

// DType is a tensor's dtype as a safetensors header spells it ("F32", "BF16", "F8_E4M3", ...).
type DType string

// The dtypes of the safetensors format, in the order of its specification.
const (
	BOOL       DType = "BOOL"
	F4         DType = "F4"
	F6E2M3     DType = "F6_E2M3"
	F6E3M2     DType = "F6_E3M2"
	U8         DType = "U8"
	I8         DType = "I8"
	F8E5M2     DType = "F8_E5M2"
	F8E4M3     DType = "F8_E4M3"
	F8E8M0     DType = "F8_E8M0"
	F8E4M3FNUZ DType = "F8_E4M3FNUZ"
	F8E5M2FNUZ DType = "F8_E5M2FNUZ"
	I16        DType = "I16"
	U16        DType = "U16"
	F16        DType = "F16"
	BF16       DType = "BF16"
	I32        DType = "I32"
	U32        DType = "U32"
	F32        DType = "F32"
	C64        DType = "C64"
	F64        DType = "F64"
	I64        DType = "I64"
	U64        DType = "U64"
)

// dtypes lists every dtype with its width in bits and its element type (element.Dynamic for
// the F6 types, which the library has no element type for).
var dtypes = []struct {
	d    DType
	bits int
	t    element.Type
}{
	{BOOL, 8, element.Boolean}, {F4, 4, element.F4E2M1}, {F6E2M3, 6, element.Dynamic},
	{F6E3M2, 6, element.Dynamic}, {U8, 8, element.U8}, {I8, 8, element.I8},
	{F8E5M2, 8, element.F8E5M2}, {F8E4M3, 8, element.F8E4M3}, {F8E8M0, 8, element.F8E8M0},
	{F8E4M3FNUZ, 8, element.F8E4M3FNUZ}, {F8E5M2FNUZ, 8, element.F8E5M2FNUZ},
	{I16, 16, element.I16}, {U16, 16, element.U16}, {F16, 16, element.F16},
	{BF16, 16, element.BF16}, {I32, 32, element.I32}, {U32, 32, element.U32},
	{F32, 32, element.F32}, {C64, 64, element.C64}, {F64, 64, element.F64},
	{I64, 64, element.I64}, {U64, 64, element.U64},
}

// DTypes returns the 22 dtypes of the format.
func DTypes() []DType {
	out := make([]DType, len(dtypes))
	for i, e := range dtypes {
		out[i] = e.d
	}
	return out
}

// Bits returns the width of one element of d in bits (4 for F4, 6 for the F6 types), or 0 for
// a name that is not a safetensors dtype.
func (d DType) Bits() int {
	for _, e := range dtypes {
		if e.d == d {
			return e.bits
		}
	}
	return 0
}

// Element returns the element type d stores: BOOL is element.Boolean, F4 element.F4E2M1 (two
// elements a byte, the first in the low nibble), F8_E4M3 element.F8E4M3 (E4M3FN), F8_E8M0
// element.F8E8M0, the FNUZ types element.F8E4M3FNUZ and element.F8E5M2FNUZ, C64 element.C64,
// and the other names their namesakes. The F6 types and unknown names report false.
func (d DType) Element() (element.Type, bool) {
	for _, e := range dtypes {
		if e.d == d {
			return e.t, e.t != element.Dynamic
		}
	}
	return element.Dynamic, false
}

// DTypeOf returns the dtype that stores element type t, and false for a type the format has no
// dtype for (u1, u4, i4, nf4, c32, c128, string, ...).
func DTypeOf(t element.Type) (DType, bool) {
	for _, e := range dtypes {
		if e.t == t && t != element.Dynamic {
			return e.d, true
		}
	}
	return "", false
}
