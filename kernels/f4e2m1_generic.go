package kernels

import "math"

// F4E2M1FromF32 converts f to the 4-bit code of f4e2m1 (sign, 2 exponent bits with bias 1, 1
// mantissa bit: ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}), rounding to nearest, ties to even, and
// saturating (the format has no infinity or NaN; docs/SEMANTICS.md §3.6):
//
//	|f| ≤ 0.25 → 0, < 0.75 → 0.5, ≤ 1.25 → 1, < 1.75 → 1.5, ≤ 2.5 → 2, < 3.5 → 3, ≤ 5 → 4, else 6
//
// The sign bit (0x8) is f's sign bit, also for a result of zero.
//
// Special cases are:
//
//	F4E2M1FromF32(±0) = 0x0, 0x8
//	F4E2M1FromF32(0.21875) = 0x0 (OpenVINO gives 0.5)
//	F4E2M1FromF32(±Inf) = ±6 (0x7, 0xF)
//	F4E2M1FromF32(NaN) = ±6 by the NaN's sign bit
func F4E2M1FromF32(f float32) uint8 {
	b := math.Float32bits(f)
	sign := uint8(b>>28) & 0x8
	a := math.Float32frombits(b & 0x7FFFFFFF)
	var c uint8
	switch {
	case a != a: // NaN saturates like an overflow
		c = 7
	case a <= 0.25:
		c = 0
	case a < 0.75:
		c = 1
	case a <= 1.25:
		c = 2
	case a < 1.75:
		c = 3
	case a <= 2.5:
		c = 4
	case a < 3.5:
		c = 5
	case a <= 5:
		c = 6
	default:
		c = 7
	}
	return sign | c
}

// F32FromF4E2M1 decodes the low 4 bits of c as f4e2m1, exactly. The high bits are ignored.
//
// Special cases are:
//
//	F32FromF4E2M1(0x8) = -0
func F32FromF4E2M1(c uint8) float32 { return f4e2m1Values[c&0xF] }

var f4e2m1Values = [16]float32{0, 0.5, 1, 1.5, 2, 3, 4, 6, float32(math.Copysign(0, -1)), -0.5, -1, -1.5, -2, -3, -4, -6}
