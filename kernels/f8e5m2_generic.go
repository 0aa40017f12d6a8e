package kernels

// F8E5M2FromF32 converts f to f8e5m2 (bias 15, IEEE-like with infinities) in two steps, as
// OpenVINO does: round to nearest even to f16 (F16FromF32), then round the f16 bits to nearest
// even on the low byte and keep the high byte (F8E5M2FromF16).
//
// Special cases are:
//
//	F8E5M2FromF32(±0) = 0x00, 0x80
//	F8E5M2FromF32(±Inf) = 0x7C, 0xFC
//	F8E5M2FromF32(x) = ±Inf for |x| ≥ 61440 (the tie above 57344 rounds up)
//	F8E5M2FromF32(NaN) = the high byte of the quiet f16 NaN: 0x7E or 0x7F by payload, with
//	the sign (0xFE, 0xFF); a NaN never becomes Inf
func F8E5M2FromF32(f float32) uint8 { return F8E5M2FromF16(F16FromF32(f)) }

// F8E5M2FromF16 converts binary16 bits to f8e5m2: round to nearest even on the low byte, keep
// the high byte.
//
// Special cases are:
//
//	F8E5M2FromF16(±Inf) = 0x7C, 0xFC
//	F8E5M2FromF16(h) = ±Inf for |h| ≥ 61440
//	F8E5M2FromF16(NaN) = the high byte of h with the quiet bit 0x0200 set; no rounding
func F8E5M2FromF16(h uint16) uint8 {
	if h&0x7FFF > 0x7C00 {
		return uint8((h | 0x0200) >> 8)
	}
	sign := uint8(h>>8) & 0x80
	a := uint32(h & 0x7FFF)
	a += 0x7F + (a>>8)&1
	return sign | uint8(a>>8)
}

// F16FromF8E5M2 decodes f8e5m2 bits to binary16 bits: the byte shifted left by 8, exact.
//
// Special cases are:
//
//	F16FromF8E5M2(NaN) = the same NaN pattern in the high byte (a signalling NaN stays signalling)
func F16FromF8E5M2(c uint8) uint16 { return uint16(c) << 8 }

// F32FromF8E5M2 decodes f8e5m2 bits to float32: F32FromF16(F16FromF8E5M2(c)), exact.
//
// Special cases are:
//
//	F32FromF8E5M2(±Inf) = ±Inf
//	F32FromF8E5M2(NaN) = the f16 NaN widened by F32FromF16: quiet bit set, sign and payload kept
func F32FromF8E5M2(c uint8) float32 { return f8e5m2ToF32Table[c] }

var f8e5m2ToF32Table [256]float32

func init() {
	for i := range 256 {
		f8e5m2ToF32Table[i] = F32FromF16(uint16(i) << 8)
	}
}
