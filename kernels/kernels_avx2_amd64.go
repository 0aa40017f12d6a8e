//go:build !purego

package kernels

// The AVX2 + F16C kernels (kernels_avx2_amd64.s). Each is a loopFunc: it converts n elements, whole blocks in
// vector registers and a last partial block through its stack frame; the doc comments give the scalar loop, in terms of the
// pure-Go rules, that each one computes. "Sat" below is the saturating float→integer rule of
// docs/SEMANTICS.md §3.2 (truncate toward zero, clamp to the type's range, NaN → 0).

// f32ToF16AVX2: for i < n { dst16[i] = F16FromF32(src32[i]) } (VCVTPS2PH, round to nearest even).
//
//go:noescape
func f32ToF16AVX2(dst, src []byte, n int)

// f16ToF32AVX2: for i < n { dst32[i] = F16ToF32(src16[i]) } (VCVTPH2PS).
//
//go:noescape
func f16ToF32AVX2(dst, src []byte, n int)

// f32ToBF16AVX2: for i < n { x := src32[i]; if x&0x7FFFFFFF > 0x7F800000 { dst16[i] = x>>16 | 0x40 }
// else { dst16[i] = (x + 0x7FFF + (x>>16)&1) >> 16 } } (blocks of 1024 without the NaN lanes, a block
// with a NaN done again with them).
//
//go:noescape
func f32ToBF16AVX2(dst, src []byte, n int)

// bf16ToF32AVX2: for i < n { dst32[i] = uint32(src16[i]) << 16 }.
//
//go:noescape
func bf16ToF32AVX2(dst, src []byte, n int)

// f16ToBF16AVX2: for i < n { h := src16[i]; a := h & 0x7FFF; if a == 0 { dst16[i] = h } else if
// 0x0400 ≤ a ≤ 0x7BFF { dst16[i] = h&0x8000 | (a + 3 + (a>>3)&1)>>3 + 112<<7 } else { dst16[i] =
// BF16FromF32(F16ToF32(h)) } } (all three = BF16FromF32(F16ToF32(h))): the integer route (on h
// with its sign, VPSRAW, VPSIGNW and VPAVGW) for groups of elements that are all +0 or normal, else
// VCVTPH2PS, then the rounding by float32 addition and subtraction of ±2^(e+16) described in
// the .s file.
//
//go:noescape
func f16ToBF16AVX2(dst, src []byte, n int)

// bf16ToF16AVX2: for i < n { h := src16[i]; a := h & 0x7FFF; if a == 0 { dst16[i] = h } else if
// 0x3880 ≤ a ≤ 0x477F { dst16[i] = h&0x8000 | (a - 112<<7)<<3 } else { dst16[i] =
// F16FromF32(BF16ToF32(h)) } } (all three = F16FromF32(BF16ToF32(h))): the integer route for
// groups of elements that are all zero or exact binary16 normals, else VCVTPS2PH of the
// even and the odd elements, widened by a shift and a mask.
//
//go:noescape
func bf16ToF16AVX2(dst, src []byte, n int)

// f8e4m3ToF16AVX2: for i < n { c := src8[i]; m := c&0x7F; h := m<<7 + 0x2000 (normal);
// if m < 8 { h = subnormal m·2^-9 as binary16 }; if m == 0x7F { h = 0x7E00 }; dst16[i] = h | (c&0x80)<<8 }
// (32 bytes a step: y = h>>7 without the sign computed in byte lanes, m + 0x40 plus a VPSHUFB
// correction for m < 8 and NaN, then paired with the sign byte by unpacks and shifted by 7).
//
//go:noescape
func f8e4m3ToF16AVX2(dst, src []byte, n int)

// f8e4m3ToF32AVX2: for i < n { c := src8[i]; m := c&0x7F; b := m<<4 + 0x3C00 (normal); if m < 8
// { b = bfloat16 of m·2^-9 }; if m == 0x7F { b = 0x7FC0 }; dst32[i] = uint32(b | (c&0x80)<<8) << 16 }
// (= F32FromF8E4M3; 32 bytes a step in byte lanes, VPSHUFB corrections for m < 8 and NaN, then
// widened by unpacks under a zero low half).
//
//go:noescape
func f8e4m3ToF32AVX2(dst, src []byte, n int)

// f8e5m2ToF16AVX2: for i < n { dst16[i] = uint16(src8[i]) << 8 }.
//
//go:noescape
func f8e5m2ToF16AVX2(dst, src []byte, n int)

// f8e5m2ToF32AVX2: for i < n { dst32[i] = F16ToF32(uint16(src8[i]) << 8) }.
//
//go:noescape
func f8e5m2ToF32AVX2(dst, src []byte, n int)

// f32ToF8e4m3AVX2: for i < n { dst8[i] = F8E4M3FromF16(F16FromF32(src32[i])) }: VCVTPS2PH, then
// the rounding of f16ToF8e4m3AVX2, or, for four blocks of 32 whose binary16 values h all have
// M = h>>8&0x7F in 0x24..0x5E (normal f8e4m3 values), the normal rule alone: dst8[i] =
// (h>>8) + M - 0x40 + [L > 0x40] + [L > 0xBF] with L = h&0xFF.
//
//go:noescape
func f32ToF8e4m3AVX2(dst, src []byte, n int)

// f16ToF8e4m3AVX2: for i < n { h := src16[i]; M, L := h>>8&0x7F, h&0xFF; if M ≥ 0x24
// { c = min(2(M-0x20) + [L > 0x40] + [L > 0xBF], 0x7F) } else if M ≥ 0x14 { c = lutE4m3Sub[M-0x14] +
// [L > ^lutE4m3Sub[16+M-0x14]] } else { c = 0 }; dst8[i] = c | (h>>8)&0x80 } (= F8E4M3FromF16(h)),
// or, for four blocks of 32 whose M are all in 0x24..0x5E (normal f8e4m3 values), the normal rule
// alone: dst8[i] = (h>>8) + M - 0x40 + [L > 0x40] + [L > 0xBF].
//
//go:noescape
func f16ToF8e4m3AVX2(dst, src []byte, n int)

// f32ToF8e5m2AVX2: for i < n { h := F16FromF32(src32[i]); H, L := h>>8, h&0xFF; if H&0x7F > 0x7D
// { dst8[i] = H } else { dst8[i] = H + [L + H&1 > 0x80] } } (VCVTPS2PH gives quiet NaNs, so H&0x7F > 0x7D
// is exactly a NaN, and H is F8E5M2FromF16's H | 2; = F8E5M2FromF16(h)).
//
//go:noescape
func f32ToF8e5m2AVX2(dst, src []byte, n int)

// f16ToF8e5m2AVX2: for i < n { h := src16[i]; H, L := h>>8, h&0xFF; if h&0x7FFF > 0x7C00 { dst8[i] = H | 2 }
// else { dst8[i] = H + [L + H&1 > 0x80] } } (= F8E5M2FromF16(h)), the NaN test left out for four
// blocks of 32 whose h&0x7FFF are all below 0x7C00.
//
//go:noescape
func f16ToF8e5m2AVX2(dst, src []byte, n int)

// u4ToF32AVX2: for i < n { dst32[i] = float32(src8[i/2] >> (4*(i%2)) & 15) } (low nibble first;
// VPSLLVD of 4 broadcast bytes, VPSRLD, VCVTDQ2PS).
//
//go:noescape
func u4ToF32AVX2(dst, src []byte, n int)

// u4ToF16AVX2: for i < n { dst16[i] = binary16 of lutU4F32[src8[i/2] >> (4*(i%2)) & 15] }
// (low nibble first; two VPSHUFB lookups, low and high byte, 64 nibbles a step).
//
//go:noescape
func u4ToF16AVX2(dst, src []byte, n int)

// i4ToF32AVX2: for i < n { dst32[i] = float32(int8(src8[i/2] >> (4*(i%2)) << 4) >> 4) } (low nibble
// first; VPSLLVD of 4 broadcast bytes, VPSRAD, VCVTDQ2PS).
//
//go:noescape
func i4ToF32AVX2(dst, src []byte, n int)

// i4ToF16AVX2: for i < n { dst16[i] = binary16 of lutI4F32[src8[i/2] >> (4*(i%2)) & 15] }
// (low nibble first; two VPSHUFB lookups, low and high byte, 64 nibbles a step).
//
//go:noescape
func i4ToF16AVX2(dst, src []byte, n int)

// nf4ToF32AVX2: for i < n { dst32[i] = lutNf4F32[src8[i/2] >> (4*(i%2)) & 15] } (low nibble first;
// VPSRLVD of 4 broadcast bytes gives the indices, two VPERMPS and a blend the values).
//
//go:noescape
func nf4ToF32AVX2(dst, src []byte, n int)

// nf4ToF16AVX2: for i < n { dst16[i] = binary16 of lutNf4F32[src8[i/2] >> (4*(i%2)) & 15] }
// (low nibble first; two VPSHUFB lookups, low and high byte, 64 nibbles a step).
//
//go:noescape
func nf4ToF16AVX2(dst, src []byte, n int)

// f4e2m1ToF32AVX2: for i < n { dst32[i] = lutF4e2m1F32[src8[i/2] >> (4*(i%2)) & 15] } (low nibble first;
// two VPSHUFB lookups of the two high bytes, the low half of every f4e2m1 float32 being zero,
// then three rounds of unpacks, 64 nibbles a step).
//
//go:noescape
func f4e2m1ToF32AVX2(dst, src []byte, n int)

// f4e2m1ToF16AVX2: for i < n { dst16[i] = binary16 of lutF4e2m1F32[src8[i/2] >> (4*(i%2)) & 15] }
// (low nibble first; one VPSHUFB lookup of the high byte, the low byte being zero for every
// f4e2m1 value, 64 nibbles a step).
//
//go:noescape
func f4e2m1ToF16AVX2(dst, src []byte, n int)
