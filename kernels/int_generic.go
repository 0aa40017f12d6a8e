package kernels

import (
	"math"

	"github.com/convertpromote/convertpromote/element"
)

// Integer rules (docs/SEMANTICS.md §3.2, §3.3):
//   - integer → integer of 8 bits or more: two's-complement wrap (sign- or zero-extend by the
//     source's signedness, keep the destination's low bits);
//   - float → integer of 8 bits or more: truncate toward zero, saturate to the destination's
//     range, NaN → 0;
//   - any → sub-byte integer (u1 u2 u3 u4 u6 i4): truncate, keep the low N bits (a float NaN,
//     ±Inf or a magnitude of 2^63 or more gives 0: its low bits are zero);
//   - any → boolean: non-zero (NaN and ±Inf included) → 1, ±0 → 0; a complex value is non-zero
//     when either part is (other integer destinations take the real part);
//   - integer → float: round to nearest even; integer → f16 (and the other narrow floats) goes
//     through f32, and i32 → f16 saturates to ±65504 instead of overflowing to ±Inf.

// i32F16Limit is the largest finite f16, the bound i32 → f16 saturates to.
const i32F16Limit = 65504

// satF64ToInt truncates x toward zero and saturates it to [lo, -lo-1], the range of a signed
// integer of 8 to 64 bits (lo = -2^(b-1)); NaN gives 0.
func satF64ToInt(x float64, lo int64) int64 {
	switch {
	case x != x:
		return 0
	case x <= float64(lo):
		return lo
	case x >= -float64(lo):
		return -lo - 1
	}
	return int64(x)
}

// satF64ToUint truncates x toward zero and saturates it to [0, max], the range of an unsigned
// integer of 8 to 64 bits (max = 2^b - 1); NaN gives 0.
func satF64ToUint(x float64, max uint64) uint64 {
	switch {
	case !(x >= 0): // negative or NaN (x in (-1, 0) truncates to 0 anyway)
		return 0
	case x >= float64(max)+1: // 2^b: exact for b ≤ 32, and float64(2^64-1) is already 2^64
		return max
	}
	return uint64(x)
}

// truncLowBits truncates x toward zero and returns the integer's two's-complement bits; NaN,
// ±Inf and magnitudes of 2^63 or more (integers whose low 11 bits are zero) give 0. Callers keep
// the low N ≤ 8 bits.
func truncLowBits(x float64) uint64 {
	if !(math.Abs(x) < 0x1p63) {
		return 0
	}
	return uint64(int64(x))
}

// floatToBits converts floats to the two's-complement bits of integer type to (boolean, any
// integer width), with the float → integer rules above.
func floatToBits(dst []uint64, src []float64, to element.Type) {
	dst = dst[:len(src)]
	switch to {
	case element.Boolean:
		for i, x := range src {
			dst[i] = b2u(x != 0)
		}
	case element.U1, element.U2, element.U3, element.U4, element.U6, element.I4:
		for i, x := range src {
			dst[i] = truncLowBits(x)
		}
	case element.I8, element.I16, element.I32, element.I64:
		lo, _, _ := to.IntRange()
		for i, x := range src {
			dst[i] = uint64(satF64ToInt(x, lo))
		}
	case element.U8, element.U16, element.U32, element.U64:
		_, hi, _ := to.IntRange()
		for i, x := range src {
			dst[i] = satF64ToUint(x, hi)
		}
	default:
		panic("kernels: floatToBits to non-integer type " + to.String())
	}
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sat truncates x toward zero and saturates it to [lo, hi], the range of an integer type of 8 to
// 32 bits (the float → integer rule); NaN gives 0. float32(hi) is exact or, for 2^31 - 1, 2^31,
// which x reaches only when it is beyond the range too.
func sat(x float32, lo, hi int) int {
	switch {
	case !(x > float32(lo)): // x ≤ lo, or NaN
		if x != x {
			return 0
		}
		return lo
	case x >= float32(hi):
		return hi
	}
	return int(x)
}
