package kernels

import "math"

// F16FromF32 converts f to IEEE 754 binary16 bits, rounding to nearest, ties to even. It gives
// the same bits as x86's VCVTPS2PH (F16C) and github.com/x448/float16's Fromfloat32.
//
// Special cases are:
//
//	F16FromF32(±0) = 0x0000, 0x8000
//	F16FromF32(±Inf) = 0x7C00, 0xFC00
//	F16FromF32(x) = ±Inf for |x| ≥ 65520 (the tie above 65504 rounds up to Inf)
//	F16FromF32(x) = a subnormal (or ±0) for |x| < 2^-14, rounded to a multiple of 2^-24
//	F16FromF32(NaN) = sign | 0x7E00 | the top 9 payload bits (quiet bit set, sign kept)
func F16FromF32(f float32) uint16 {
	// Small enough for Go to inline into loops (no calls), with the normal range's code first
	// and the rest behind one branch.
	b := math.Float32bits(f)
	a := b & 0x7FFFFFFF
	// The normal range, 2^-14 ≤ |f| < 65520: rebias the exponent from 127 to 15 (subtract
	// 0x38000000) and round to nearest even on the 13 dropped bits (add 0x0FFF and the lowest
	// kept bit, the same bit of a).
	r := (a - (0x38000000 - 0x0FFF) + (a>>13)&1) >> 13
	if a-0x38800000 >= 0x477FF000-0x38800000 {
		r = 0x7C00          // overflow or infinity
		if a < 0x38800000 { // subnormal f16 or zero
			// 0.5 has an ulp of 2^-24, the f16 subnormal step: the float32 addition rounds to
			// nearest even exactly where binary16 would, and the low 16 bits of the sum are the
			// f16 bits (0.5 has none set; a sum of 0x3F000400 is the smallest normal, which is
			// also the right encoding).
			r = math.Float32bits(max(f, -f) + 0.5)
		}
		if a > 0x7F800000 { // NaN: quiet, with the top 9 payload bits
			r = 0x7E00 | a>>13&0x3FF
		}
	}
	return uint16(b>>16&0x8000 | r)
}

// F32FromF16 converts binary16 bits to float32. Every f16 value is exactly representable, so the
// conversion is exact; it gives the same bits as x86's VCVTPH2PS (F16C).
//
// Special cases are:
//
//	F32FromF16(0x0000, 0x8000) = ±0
//	F32FromF16(0x7C00, 0xFC00) = ±Inf
//	F32FromF16(NaN) = a quiet NaN with the sign and the 10 payload bits kept in the top of the
//	float32 mantissa (a signalling NaN becomes quiet)
func F32FromF16(h uint16) float32 {
	a := uint32(h & 0x7FFF)
	sign := uint32(h&0x8000) << 16
	if a >= 0x7C00 {
		if a == 0x7C00 {
			return math.Float32frombits(sign | 0x7F800000)
		}
		return math.Float32frombits(sign | 0x7FC00000 | a<<13)
	}
	// Shifted into place, the f16 fields read as a float32 scaled by 2^-112 (subnormal f16
	// values land on float32 subnormals); multiplying by 2^112 is exact.
	v := math.Float32frombits(a<<13) * 0x1p112
	return math.Float32frombits(math.Float32bits(v) | sign)
}
