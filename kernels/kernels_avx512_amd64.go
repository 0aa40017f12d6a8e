//go:build !purego

package kernels

// The AVX-512 kernels (kernels_avx512_amd64.s). Each is a loopFunc: it converts n elements, whole blocks in
// vector registers and a last partial block through its stack frame; the doc comments give the scalar loop, in terms of the
// pure-Go rules, that each one computes. "Sat" below is the saturating float→integer rule of
// docs/SEMANTICS.md §3.2 (truncate toward zero, clamp to the type's range, NaN → 0).

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
