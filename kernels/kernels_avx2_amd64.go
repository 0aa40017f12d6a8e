//go:build !purego

package kernels

// The AVX2 + F16C kernels (kernels_avx2_amd64.s). Each is a loopFunc: it converts n elements, whole blocks in
// vector registers and a last partial block through its stack frame; the doc comments give the scalar loop, in terms of the
// pure-Go rules, that each one computes. "Sat" below is the saturating float→integer rule of
// docs/SEMANTICS.md §3.2 (truncate toward zero, clamp to the type's range, NaN → 0).

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
