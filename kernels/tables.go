package kernels

import "github.com/convertpromote/convertpromote/element"

// Values shared by the SIMD paths' lookup tables. Every path derives its tables from these and
// from the scalar codecs, never from a kernel, so that a table cannot inherit a kernel's error
// and every architecture looks up the same values.

// nibbleTypes are the 4-bit types the SIMD decoders look up, in the order of nibbleValuesF32 and
// nibbleValuesF16.
var nibbleTypes = [4]element.Type{element.U4, element.I4, element.NF4, element.F4E2M1}

// nibbleValuesF32 holds the float32 value of each code of the 4-bit types (exact), and
// nibbleValuesF16 and nibbleValuesBF16 its binary16 and bfloat16 bits (only nf4 codes round):
// the values of the registry's loops from the 4-bit types to f32, f16 and bf16
// (direct_generic.go), in the order of nibbleTypes. They are package-level initialisers, so
// every init function sees them filled.
var (
	nibbleValuesF32  = [len(nibbleTypes)][16]float32{u4ToF32Values, i4ToF32Values, nf4ToF32Values, f4e2m1ToF32Values}
	nibbleValuesF16  = [len(nibbleTypes)][16]uint16{u4ToF16Values, i4ToF16Values, nf4ToF16Values, f4e2m1ToF16Values}
	nibbleValuesBF16 = [len(nibbleTypes)][16]uint16{u4ToBF16Values, i4ToBF16Values, nf4ToBF16Values, f4e2m1ToBF16Values}
)

// nibbleIndex returns the index of a 4-bit type in nibbleTypes, or -1.
func nibbleIndex(t element.Type) int {
	for i, n := range nibbleTypes {
		if n == t {
			return i
		}
	}
	return -1
}
