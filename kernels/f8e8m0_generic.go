package kernels

import "math"

// F8E8M0FromF32 converts f to f8e8m0, the unsigned exponent-only scale 2^(c-127), with
// OpenVINO's rule: the float32 exponent field E, rounded up by the mantissa M when
// M > 0x400000, or M == 0x400000 and E is odd (ties to the even exponent field).
//
// Special cases are:
//
//	F8E8M0FromF32(x) = 0x00 for every x with the sign bit set (-0, negatives, -Inf, -NaN)
//	F8E8M0FromF32(+0) = 0x00 (2^-127)
//	F8E8M0FromF32(NaN) = 0xFF
//	F8E8M0FromF32(+Inf) = 0xFE, and 0xFE for every x ≥ 2^127
//	F8E8M0FromF32(1.5) = 0x80 (2), F8E8M0FromF32(3) = 0x80 (2), F8E8M0FromF32(6) = 0x82 (8)
func F8E8M0FromF32(f float32) uint8 {
	b := math.Float32bits(f)
	switch {
	case b&0x80000000 != 0:
		return 0x00
	case b > 0x7F800000:
		return 0xFF
	case b >= 0x7F000000: // ≥ 2^127, including +Inf
		return 0xFE
	}
	e := b >> 23
	m := b & 0x7FFFFF
	if m > 0x400000 || m == 0x400000 && e&1 != 0 {
		e++
	}
	return uint8(e)
}

// F32FromF8E8M0 decodes f8e8m0 bits to float32: 2^(c-127), exact.
//
// Special cases are:
//
//	F32FromF8E8M0(0x00) = 2^-127 (a float32 subnormal, 0x00400000)
//	F32FromF8E8M0(0xFF) = NaN (0x7FC00000)
func F32FromF8E8M0(c uint8) float32 { return f8e8m0ToF32Table[c] }

var f8e8m0ToF32Table = func() (t [256]float32) {
	for i := range t {
		switch i {
		case 0x00:
			t[i] = math.Float32frombits(0x00400000)
		case 0xFF:
			t[i] = math.Float32frombits(0x7FC00000)
		default:
			t[i] = math.Float32frombits(uint32(i) << 23)
		}
	}
	return t
}()
