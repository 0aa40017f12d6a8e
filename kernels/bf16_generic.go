package kernels

import "math"

// BF16FromF32 converts f to bfloat16 bits (the top half of a float32), rounding to nearest,
// ties to even. Subnormal inputs are rounded like any other value, not flushed to zero (unlike
// x86's VCVTNEPS2BF16), and the result keeps subnormals (docs/SEMANTICS.md §3.4, §4.1).
//
// Special cases are:
//
//	BF16FromF32(±0) = 0x0000, 0x8000
//	BF16FromF32(±Inf) = 0x7F80, 0xFF80
//	BF16FromF32(x) = ±Inf when x rounds above the largest finite bf16 (|x| ≥ 0x1.FFp127)
//	BF16FromF32(NaN) = the top 16 bits with the quiet bit 0x0040 set (sign and top payload kept)
func BF16FromF32(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7FFFFFFF > 0x7F800000 {
		return uint16(b>>16) | 0x0040
	}
	return uint16((b + 0x7FFF + (b>>16)&1) >> 16)
}

// F32FromBF16 converts bfloat16 bits to float32: the bits shifted into the top half, exact for
// every pattern.
//
// Special cases are:
//
//	F32FromBF16(NaN) = the same NaN, bits unchanged (a signalling NaN stays signalling)
func F32FromBF16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
