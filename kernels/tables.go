package kernels

import "github.com/convertpromote/convertpromote/element"

// Values shared by the SIMD paths' lookup tables. Every path derives its tables from these and
// from the scalar codecs, never from a kernel, so that a table cannot inherit a kernel's error
// and every architecture looks up the same values.

// nibbleTypes are the 4-bit types the SIMD decoders look up, in the order of nibbleValuesF32 and
// nibbleValuesF16.
var nibbleTypes = [4]element.Type{element.U4, element.I4, element.NF4, element.F4E2M1}

// The indices of nibbleTypes, for the pure-Go loops.
const (
	nibU4 = iota
	nibI4
	nibNF4
	nibF4E2M1
)

// nibbleValuesF32 holds the float32 value of each code of the 4-bit types (exact), and
// nibbleValuesF16 its binary16 bits (F16FromF32: only nf4 codes round). They are package-level
// initialisers, so every init function and the pure-Go loops see them filled.
var (
	nibbleValuesF32 = func() (t [len(nibbleTypes)][16]float32) {
		for c := range uint8(16) {
			t[nibU4][c] = float32(c)
			t[nibI4][c] = float32(int8(c<<4) >> 4)
			t[nibNF4][c] = F32FromNF4(c)
			t[nibF4E2M1][c] = F32FromF4E2M1(c)
		}
		return t
	}()
	nibbleValuesF16 = func() (t [len(nibbleTypes)][16]uint16) {
		for i := range t {
			for c, v := range nibbleValuesF32[i] {
				t[i][c] = F16FromF32(v)
			}
		}
		return t
	}()
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
