//go:build !purego

package kernels

// The AVX-512 kernels (kernels_avx512_amd64.s). Each is a loopFunc: it converts n elements, whole blocks in
// vector registers and a last partial block through its stack frame; the doc comments give the scalar loop, in terms of the
// pure-Go rules, that each one computes. "Sat" below is the saturating float→integer rule of
// docs/SEMANTICS.md §3.2 (truncate toward zero, clamp to the type's range, NaN → 0).

// f32ToF16AVX512: for i < n { dst16[i] = F16FromF32(src32[i]) } (VCVTPS2PH, round to nearest even).
//
//go:noescape
func f32ToF16AVX512(dst, src []byte, n int)

// f16ToF32AVX512: for i < n { dst32[i] = F16ToF32(src16[i]) } (VCVTPH2PS).
//
//go:noescape
func f16ToF32AVX512(dst, src []byte, n int)

// f32ToBF16AVX512: for i < n { x := src32[i]; if x&0x7FFFFFFF > 0x7F800000 { dst16[i] = x>>16 | 0x40 }
// else { dst16[i] = (x + 0x7FFF + (x>>16)&1) >> 16 } }.
//
//go:noescape
func f32ToBF16AVX512(dst, src []byte, n int)

// f32ToBF16AVX512BF: the loop of f32ToBF16AVX512, with VCVTNE2PS2BF16 (AVX512_BF16) for the blocks
// of 32 that have no subnormal element.
//
//go:noescape
func f32ToBF16AVX512BF(dst, src []byte, n int)

// f16ToBF16AVX512BF: the loop of f16ToBF16AVX512 with VCVTNE2PS2BF16 (AVX512_BF16); an f16 value
// is never a float32 subnormal, so no lane needs the integer rounding.
//
//go:noescape
func f16ToBF16AVX512BF(dst, src []byte, n int)

// bf16ToF32AVX512: for i < n { dst32[i] = uint32(src16[i]) << 16 }.
//
//go:noescape
func bf16ToF32AVX512(dst, src []byte, n int)

// f16ToBF16AVX512: for i < n { dst16[i] = BF16FromF32(F16ToF32(src16[i])) }.
//
//go:noescape
func f16ToBF16AVX512(dst, src []byte, n int)

// bf16ToF16AVX512: the loop of bf16ToF16AVX2 (for i < n { dst16[i] = F16FromF32(BF16ToF32(src16[i]))
// }, on the integer route for groups of zeros and exact binary16 normals), in 512-bit
// registers.
//
//go:noescape
func bf16ToF16AVX512(dst, src []byte, n int)

// f8e4m3ToF16AVX512: for i < n { c := src8[i]; t := lutE4m3F16Hi[c&0x7F]; dst16[i] = uint16(c&0x80|t&0x7F)<<8 | uint16(t&0x80) }
// (one VPERMI2B lookup of 128 bytes).
//
//go:noescape
func f8e4m3ToF16AVX512(dst, src []byte, n int)

// f8e4m3ToF32AVX512: for i < n { c := src8[i]; dst32[i] = (uint32(lutE4m3BF16[128+c&0x7F]|c&0x80)<<8 | uint32(lutE4m3BF16[c&0x7F])) << 16 }
// (the bfloat16 of the value, looked up like f8e4m3ToF16AVX512, is the top half of the exact float32).
//
//go:noescape
func f8e4m3ToF32AVX512(dst, src []byte, n int)

// f8e5m2ToF16AVX512: for i < n { dst16[i] = uint16(src8[i]) << 8 }.
//
//go:noescape
func f8e5m2ToF16AVX512(dst, src []byte, n int)

// f8e5m2ToF32AVX512: for i < n { dst32[i] = F16ToF32(uint16(src8[i]) << 8) }.
//
//go:noescape
func f8e5m2ToF32AVX512(dst, src []byte, n int)

// f32ToF8e4m3AVX512: for i < n { dst8[i] = F8E4M3FromF16(F16FromF32(src32[i])) }: VCVTPS2PH, then
// the byte lookup of f16ToF8e4m3AVX512, 64 elements a step.
//
//go:noescape
func f32ToF8e4m3AVX512(dst, src []byte, n int)

// f16ToF8e4m3AVX512: for i < n { dst8[i] = F8E4M3FromF16(src16[i]) }, computed as
// { H, L := h>>8&0x7F, h&0xFF; b := lutE4m3Enc[H]; c := b&0x7F
// if L > lutE4m3Enc[128+H] { c++ }; if b&0x80 != 0 && L > 0xBF { c++ }; dst8[i] = c | h>>8&0x80 },
// 64 elements a step (the high and low bytes gathered with VPERMT2B/VPERMI2B, the tables
// looked up with VPERMI2B, the comparisons in mask registers); groups of 256 elements whose
// magnitudes are all in the normal f8e4m3 range (2^-6 ≤ |h| < 448) skip the lookups: there
// c = 2·H - 0x40 + [L > 0x40] + [L > 0xBF].
//
//go:noescape
func f16ToF8e4m3AVX512(dst, src []byte, n int)

// f32ToF8e5m2AVX512: for i < n { h := F16FromF32(src32[i]); if h&0x7FFF > 0x7C00 { dst8[i] = h>>8 | 2 }
// else { dst8[i] = (h + 0x7F + (h>>8)&1) >> 8 } }: VCVTPS2PH, then the rounding of the else
// branch alone for groups of 256 elements without a NaN, and for a group with one the byte lookup
// of f16ToF8e4m3AVX512 with the tables lutE5m2Enc (one rounding step at L > 0x7F or 0x80; the
// second step, flagged only for H = 0x7C, turns +Inf with L > 0 into the quiet NaN 0x7E).
//
//go:noescape
func f32ToF8e5m2AVX512(dst, src []byte, n int)

// f16ToF8e5m2AVX512: the loop of f32ToF8e5m2AVX512 with h = src16[i] (a NaN is quieted: | 2 on the
// high byte), the NaN test only in the groups of 256 elements that have one.
//
//go:noescape
func f16ToF8e5m2AVX512(dst, src []byte, n int)

// u4ToF32AVX512: for i < n { dst32[i] = lutU4F32[src8[i/2] >> (4*(i%2)) & 15] } (low nibble first).
//
//go:noescape
func u4ToF32AVX512(dst, src []byte, n int)

// u4ToF16AVX512: for i < n { dst16[i] = binary16 of lutU4F32[src8[i/2] >> (4*(i%2)) & 15] } (a table lookup).
//
//go:noescape
func u4ToF16AVX512(dst, src []byte, n int)

// i4ToF32AVX512: for i < n { dst32[i] = lutI4F32[src8[i/2] >> (4*(i%2)) & 15] } (low nibble first).
//
//go:noescape
func i4ToF32AVX512(dst, src []byte, n int)

// i4ToF16AVX512: for i < n { dst16[i] = binary16 of lutI4F32[src8[i/2] >> (4*(i%2)) & 15] } (a table lookup).
//
//go:noescape
func i4ToF16AVX512(dst, src []byte, n int)

// nf4ToF32AVX512: for i < n { dst32[i] = lutNf4F32[src8[i/2] >> (4*(i%2)) & 15] } (low nibble first).
//
//go:noescape
func nf4ToF32AVX512(dst, src []byte, n int)

// nf4ToF16AVX512: for i < n { dst16[i] = binary16 of lutNf4F32[src8[i/2] >> (4*(i%2)) & 15] } (a table lookup).
//
//go:noescape
func nf4ToF16AVX512(dst, src []byte, n int)

// f4e2m1ToF32AVX512: for i < n { dst32[i] = lutF4e2m1F32[src8[i/2] >> (4*(i%2)) & 15] } (low nibble first).
//
//go:noescape
func f4e2m1ToF32AVX512(dst, src []byte, n int)

// f4e2m1ToF16AVX512: for i < n { dst16[i] = binary16 of lutF4e2m1F32[src8[i/2] >> (4*(i%2)) & 15] } (a table lookup).
//
//go:noescape
func f4e2m1ToF16AVX512(dst, src []byte, n int)

// The non-temporal variants: the same loops as f32ToF16AVX512 and so on, with VMOVNTDQ stores.
// n must be a multiple of the block size (32 for f32ToF16AVX512NT and f32ToBF16AVX512NT, 64 for
// f8e4m3ToF16AVX512NT, 8 for f32ToF64AVX512NT, 16 for the others) and dst must be 64-byte
// aligned; ntKernel arranges both.

//go:noescape
func f32ToF16AVX512NT(dst, src []byte, n int)

//go:noescape
func f16ToF32AVX512NT(dst, src []byte, n int)

//go:noescape
func f32ToBF16AVX512NT(dst, src []byte, n int)

//go:noescape
func bf16ToF32AVX512NT(dst, src []byte, n int)

//go:noescape
func f8e4m3ToF16AVX512NT(dst, src []byte, n int)
