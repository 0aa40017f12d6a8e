package kernels

// F8E4M3FromF32 converts f to f8e4m3 (E4M3FN: bias 7, no infinities, NaN S.1111.111) in two
// steps, as OpenVINO does: round to nearest even to f16 (F16FromF32), then round that to nearest
// even to e4m3 (F8E4M3FromF16).
//
// Special cases are:
//
//	F8E4M3FromF32(±0) = 0x00, 0x80
//	F8E4M3FromF32(±464) = ±448 (0x7E, 0xFE): the tie rounds to the even mantissa
//	F8E4M3FromF32(x) = NaN with x's sign (0x7F, 0xFF) for |x| > 464 after the f16 step
//	F8E4M3FromF32(±Inf) = 0x7F, 0xFF
//	F8E4M3FromF32(NaN) = 0x7F, or 0xFF for a NaN with the sign bit set
func F8E4M3FromF32(f float32) uint8 { return F8E4M3FromF16(F16FromF32(f)) }

// F8E4M3FromF16 converts binary16 bits to f8e4m3, rounding to nearest, ties to even.
//
// Special cases are:
//
//	F8E4M3FromF16(±0) = 0x00, 0x80
//	F8E4M3FromF16(±464) = ±448 (0x7E, 0xFE)
//	F8E4M3FromF16(h) = 0x7F, 0xFF (NaN with h's sign) when |h| > 464, h is ±Inf or h is NaN
//	F8E4M3FromF16(h) = a subnormal (or ±0) for |h| < 2^-6, rounded to a multiple of 2^-9
func F8E4M3FromF16(h uint16) uint8 {
	sign := uint8(h>>8) & 0x80
	a := uint32(h & 0x7FFF)
	switch {
	case a > 0x5F40: // above 464 (0x5F40), infinity or NaN
		return sign | 0x7F
	case a >= 0x2400: // normal e4m3: |h| ≥ 2^-6
		r := a - 0x2000 // rebias the exponent from 15 to 7
		r += 0x3F + (r>>7)&1
		return sign | uint8(r>>7)
	case a >= 0x0400: // normal f16 below 2^-6: an e4m3 subnormal, a multiple of 2^-9
		e := a >> 10 // 1..8
		m := a&0x3FF | 0x400
		return sign | uint8(rneShift(m, 16-e))
	default: // f16 subnormal or zero: below 2^-14, rounds to zero
		return sign
	}
}

// rneShift returns x / 2^s rounded to nearest, ties to even, for 1 ≤ s ≤ 31 and x < 2^31.
func rneShift(x, s uint32) uint32 {
	return (x + (1<<(s-1) - 1) + (x>>s)&1) >> s
}

// F32FromF8E4M3 decodes f8e4m3 bits to float32, exactly.
//
// Special cases are:
//
//	F32FromF8E4M3(0x00, 0x80) = ±0
//	F32FromF8E4M3(0x7F, 0xFF) = quiet NaN 0x7FC00000, 0xFFC00000
func F32FromF8E4M3(c uint8) float32 { return f8e4m3ToF32Table[c] }

// F16FromF8E4M3 decodes f8e4m3 bits to binary16 bits, exactly.
//
// Special cases are:
//
//	F16FromF8E4M3(0x7F, 0xFF) = quiet NaN 0x7E00, 0xFE00
func F16FromF8E4M3(c uint8) uint16 { return f8e4m3ToF16Table[c] }

// f8e4m3ToF16Scalar is the rule the tables are built from.
func f8e4m3ToF16Scalar(c uint8) uint16 {
	sign := uint16(c&0x80) << 8
	e := uint16(c>>3) & 0xF
	m := uint16(c & 7)
	switch {
	case e == 0xF && m == 7:
		return sign | 0x7E00
	case e != 0: // normal: rebias 7 → 15
		return sign | (e+8)<<10 | m<<7
	case m == 0:
		return sign
	default: // subnormal m·2^-9 is a normal f16: m = 1.xx·2^k, k = 0..2
		k := uint16(0)
		for m>>(k+1) != 0 {
			k++
		}
		// value 2^(k-9)·(m/2^k): exponent field k-9+15, mantissa the bits below the top one.
		return sign | (k+6)<<10 | (m&^(1<<k))<<(10-k)
	}
}

var (
	f8e4m3ToF16Table [256]uint16
	f8e4m3ToF32Table [256]float32
)

func init() {
	for i := range 256 {
		h := f8e4m3ToF16Scalar(uint8(i))
		f8e4m3ToF16Table[i] = h
		f8e4m3ToF32Table[i] = F32FromF16(h)
	}
}
