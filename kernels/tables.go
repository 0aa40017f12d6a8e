package kernels

import "github.com/convertpromote/convertpromote/element"

// Values shared by the SIMD paths' lookup tables. Every path derives its tables from these and
// from the scalar codecs, never from a kernel, so that a table cannot inherit a kernel's error
// and every architecture looks up the same values.

// nibbleTypes are the 4-bit types the SIMD decoders look up, in the order of nibbleValuesF32 and
// nibbleValuesF16.
var nibbleTypes = [4]element.Type{element.U4, element.I4, element.NF4, element.F4E2M1}

// nibbleValuesF32 holds the float32 value of each code of the 4-bit types (exact), and nibbleValuesF16 its
// binary16 bits (F16FromF32: only nf4 codes round).
var (
	nibbleValuesF32 [len(nibbleTypes)][16]float32
	nibbleValuesF16 [len(nibbleTypes)][16]uint16
)

func init() {
	for c := range uint8(16) {
		nibbleValuesF32[0][c] = float32(c)
		nibbleValuesF32[1][c] = float32(int8(c<<4) >> 4)
		nibbleValuesF32[2][c] = F32FromNF4(c)
		nibbleValuesF32[3][c] = F32FromF4E2M1(c)
		for t := range nibbleTypes {
			nibbleValuesF16[t][c] = F16FromF32(nibbleValuesF32[t][c])
		}
	}
}

// nibbleIndex returns the index of a 4-bit type in nibbleTypes, or -1.
func nibbleIndex(t element.Type) int {
	for i, n := range nibbleTypes {
		if n == t {
			return i
		}
	}
	return -1
}
