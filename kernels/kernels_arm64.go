//go:build gc && !purego

package kernels

import (
	"golang.org/x/sys/cpu"

	"github.com/convertpromote/convertpromote/element"
)

// Feature flags, read once at start-up. No kernel uses FP16 arithmetic (FEAT_FP16, x/sys/cpu's
// HasFPHP/HasASIMDHP): the f16 conversions FCVTN/FCVTL are base ARMv8 Advanced SIMD, so every
// kernel except BFCVTN runs on any arm64 CPU (Cortex-A53 included). The kernels rely on FPCR as
// Go leaves it (round to nearest even, no flush to zero, no default NaN), like Go's own float
// conversions do. Tests switch useBFCVTN off and on to run both f32 → bf16 branches on a CPU
// that has FEAT_BF16.
var (
	// hasASIMD: Advanced SIMD, present on every arm64 CPU Go supports.
	hasASIMD = cpu.ARM64.HasASIMD
	// hasBF16: FEAT_BF16 (BFCVTN), which golang.org/x/sys/cpu does not report; read from the
	// auxiliary vector's HWCAP2 (see bf16_linux_arm64.go).
	hasBF16 = cpuHasBF16()
	// useBFCVTN selects BFCVTN for f32 → bf16; it is never true without hasBF16.
	useBFCVTN = hasBF16
)

// The NEON kernels of kernels_arm64.s, one for each pair of the registry (two for f32 → bf16).
// Each is a loopFunc: it converts n elements, the last partial block included, and reads or
// writes nothing outside src and dst. Every kernel's documentation shows the scalar loop it
// computes, the loop of its pair's registry row (TestNEONStubLoops checks them), in which src
// and dst are the buffers viewed as slices of the pair's Go types.

// f32ToF16NEON converts n elements (pair f32 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(src[i])
//	}
//
//go:noescape
func f32ToF16NEON(dst, src []byte, n int)

// f16ToF32NEON converts n elements (pair f16 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = F32FromF16(src[i])
//	}
//
//go:noescape
func f16ToF32NEON(dst, src []byte, n int)

// f32ToBF16NEON converts n elements (pair f32 → bf16 of the registry):
//
//	for i := range n {
//		dst[i] = BF16FromF32(src[i])
//	}
//
// It rounds with integer arithmetic and runs on every arm64 CPU; f32ToBF16Dynamic chooses
// between it and f32ToBF16BFCVTN.
//
//go:noescape
func f32ToBF16NEON(dst, src []byte, n int)

// f32ToBF16BFCVTN converts n elements (pair f32 → bf16 of the registry):
//
//	for i := range n {
//		dst[i] = BF16FromF32(src[i])
//	}
//
// It runs BFCVTN, which only a CPU with FEAT_BF16 has.
//
//go:noescape
func f32ToBF16BFCVTN(dst, src []byte, n int)

// bf16ToF32NEON converts n elements (pair bf16 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = F32FromBF16(src[i])
//	}
//
//go:noescape
func bf16ToF32NEON(dst, src []byte, n int)

// f16ToBF16NEON converts n elements (pair f16 → bf16 of the registry):
//
//	for i := range n {
//		dst[i] = BF16FromF32(F32FromF16(src[i]))
//	}
//
//go:noescape
func f16ToBF16NEON(dst, src []byte, n int)

// bf16ToF16NEON converts n elements (pair bf16 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(F32FromBF16(src[i]))
//	}
//
//go:noescape
func bf16ToF16NEON(dst, src []byte, n int)

// f8e4m3ToF16NEON converts n elements (pair f8e4m3 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF8E4M3(src[i])
//	}
//
//go:noescape
func f8e4m3ToF16NEON(dst, src []byte, n int)

// f8e4m3ToF32NEON converts n elements (pair f8e4m3 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = F32FromF8E4M3(src[i])
//	}
//
//go:noescape
func f8e4m3ToF32NEON(dst, src []byte, n int)

// f8e4m3ToBF16NEON converts n elements (pair f8e4m3 → bf16 of the registry):
//
//	for i := range n {
//		dst[i] = BF16FromF32(F32FromF8E4M3(src[i]))
//	}
//
//go:noescape
func f8e4m3ToBF16NEON(dst, src []byte, n int)

// f8e5m2ToF16NEON converts n elements (pair f8e5m2 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF8E5M2(src[i])
//	}
//
//go:noescape
func f8e5m2ToF16NEON(dst, src []byte, n int)

// f8e5m2ToF32NEON converts n elements (pair f8e5m2 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = F32FromF8E5M2(src[i])
//	}
//
//go:noescape
func f8e5m2ToF32NEON(dst, src []byte, n int)

// f32ToF8e4m3NEON converts n elements (pair f32 → f8e4m3 of the registry):
//
//	for i := range n {
//		dst[i] = F8E4M3FromF16(F16FromF32(src[i]))
//	}
//
//go:noescape
func f32ToF8e4m3NEON(dst, src []byte, n int)

// f16ToF8e4m3NEON converts n elements (pair f16 → f8e4m3 of the registry):
//
//	for i := range n {
//		dst[i] = F8E4M3FromF16(src[i])
//	}
//
//go:noescape
func f16ToF8e4m3NEON(dst, src []byte, n int)

// f32ToF8e5m2NEON converts n elements (pair f32 → f8e5m2 of the registry):
//
//	for i := range n {
//		dst[i] = F8E5M2FromF16(F16FromF32(src[i]))
//	}
//
//go:noescape
func f32ToF8e5m2NEON(dst, src []byte, n int)

// f16ToF8e5m2NEON converts n elements (pair f16 → f8e5m2 of the registry):
//
//	for i := range n {
//		dst[i] = F8E5M2FromF16(src[i])
//	}
//
//go:noescape
func f16ToF8e5m2NEON(dst, src []byte, n int)

// u4ToF32NEON converts n elements (pair u4 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(nibble(src, i))
//	}
//
//go:noescape
func u4ToF32NEON(dst, src []byte, n int)

// i4ToF32NEON converts n elements (pair i4 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(int8(nibble(src, i)<<4) >> 4)
//	}
//
//go:noescape
func i4ToF32NEON(dst, src []byte, n int)

// nf4ToF32NEON converts n elements (pair nf4 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = F32FromNF4(nibble(src, i))
//	}
//
//go:noescape
func nf4ToF32NEON(dst, src []byte, n int)

// f4e2m1ToF32NEON converts n elements (pair f4e2m1 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = F32FromF4E2M1(nibble(src, i))
//	}
//
//go:noescape
func f4e2m1ToF32NEON(dst, src []byte, n int)

// u4ToF16NEON converts n elements (pair u4 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(nibble(src, i)))
//	}
//
//go:noescape
func u4ToF16NEON(dst, src []byte, n int)

// i4ToF16NEON converts n elements (pair i4 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(int8(nibble(src, i)<<4) >> 4))
//	}
//
//go:noescape
func i4ToF16NEON(dst, src []byte, n int)

// nf4ToF16NEON converts n elements (pair nf4 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(F32FromNF4(nibble(src, i)))
//	}
//
//go:noescape
func nf4ToF16NEON(dst, src []byte, n int)

// f4e2m1ToF16NEON converts n elements (pair f4e2m1 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(F32FromF4E2M1(nibble(src, i)))
//	}
//
//go:noescape
func f4e2m1ToF16NEON(dst, src []byte, n int)

// i8ToF32NEON converts n elements (pair i8 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(src[i])
//	}
//
//go:noescape
func i8ToF32NEON(dst, src []byte, n int)

// u8ToF32NEON converts n elements (pair u8 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(src[i])
//	}
//
//go:noescape
func u8ToF32NEON(dst, src []byte, n int)

// i16ToF32NEON converts n elements (pair i16 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(src[i])
//	}
//
//go:noescape
func i16ToF32NEON(dst, src []byte, n int)

// u16ToF32NEON converts n elements (pair u16 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(src[i])
//	}
//
//go:noescape
func u16ToF32NEON(dst, src []byte, n int)

// i32ToF32NEON converts n elements (pair i32 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(src[i]) // to nearest even
//	}
//
//go:noescape
func i32ToF32NEON(dst, src []byte, n int)

// i8ToF16NEON converts n elements (pair i8 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(src[i]))
//	}
//
//go:noescape
func i8ToF16NEON(dst, src []byte, n int)

// u8ToF16NEON converts n elements (pair u8 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(src[i]))
//	}
//
//go:noescape
func u8ToF16NEON(dst, src []byte, n int)

// i16ToF16NEON converts n elements (pair i16 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(src[i]))
//	}
//
//go:noescape
func i16ToF16NEON(dst, src []byte, n int)

// u16ToF16NEON converts n elements (pair u16 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(src[i]))
//	}
//
//go:noescape
func u16ToF16NEON(dst, src []byte, n int)

// i32ToF16NEON converts n elements (pair i32 → f16 of the registry):
//
//	for i := range n {
//		dst[i] = F16FromF32(float32(max(min(src[i], 65504), -65504)))
//	}
//
//go:noescape
func i32ToF16NEON(dst, src []byte, n int)

// i8ToI32NEON converts n elements (pair i8 → i32 of the registry):
//
//	for i := range n {
//		dst[i] = int32(src[i])
//	}
//
//go:noescape
func i8ToI32NEON(dst, src []byte, n int)

// u8ToI32NEON converts n elements (pair u8 → i32 of the registry):
//
//	for i := range n {
//		dst[i] = int32(src[i])
//	}
//
//go:noescape
func u8ToI32NEON(dst, src []byte, n int)

// i16ToI32NEON converts n elements (pair i16 → i32 of the registry):
//
//	for i := range n {
//		dst[i] = int32(src[i])
//	}
//
//go:noescape
func i16ToI32NEON(dst, src []byte, n int)

// i32ToI64NEON converts n elements (pair i32 → i64 of the registry):
//
//	for i := range n {
//		dst[i] = int64(src[i])
//	}
//
//go:noescape
func i32ToI64NEON(dst, src []byte, n int)

// i64ToI32NEON converts n elements (pair i64 → i32 of the registry):
//
//	for i := range n {
//		dst[i] = int32(src[i]) // the low 32 bits
//	}
//
//go:noescape
func i64ToI32NEON(dst, src []byte, n int)

// i32ToI16NEON converts n elements (pair i32 → i16 of the registry):
//
//	for i := range n {
//		dst[i] = int16(src[i]) // the low 16 bits
//	}
//
//go:noescape
func i32ToI16NEON(dst, src []byte, n int)

// i32ToI8NEON converts n elements (pair i32 → i8 of the registry):
//
//	for i := range n {
//		dst[i] = int8(src[i]) // the low 8 bits
//	}
//
//go:noescape
func i32ToI8NEON(dst, src []byte, n int)

// f32ToI32NEON converts n elements (pair f32 → i32 of the registry):
//
//	for i := range n {
//		dst[i] = int32(sat(src[i], math.MinInt32, math.MaxInt32)) // sat: truncate, clamp, NaN → 0
//	}
//
//go:noescape
func f32ToI32NEON(dst, src []byte, n int)

// f32ToI16NEON converts n elements (pair f32 → i16 of the registry):
//
//	for i := range n {
//		dst[i] = int16(sat(src[i], math.MinInt16, math.MaxInt16)) // sat: truncate, clamp, NaN → 0
//	}
//
//go:noescape
func f32ToI16NEON(dst, src []byte, n int)

// f32ToI8NEON converts n elements (pair f32 → i8 of the registry):
//
//	for i := range n {
//		dst[i] = int8(sat(src[i], math.MinInt8, math.MaxInt8)) // sat: truncate, clamp, NaN → 0
//	}
//
//go:noescape
func f32ToI8NEON(dst, src []byte, n int)

// f32ToU8NEON converts n elements (pair f32 → u8 of the registry):
//
//	for i := range n {
//		dst[i] = uint8(sat(src[i], 0, math.MaxUint8)) // sat: truncate, clamp, NaN → 0
//	}
//
//go:noescape
func f32ToU8NEON(dst, src []byte, n int)

// f64ToF32NEON converts n elements (pair f64 → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(src[i]) // to nearest even
//	}
//
//go:noescape
func f64ToF32NEON(dst, src []byte, n int)

// f32ToF64NEON converts n elements (pair f32 → f64 of the registry):
//
//	for i := range n {
//		dst[i] = float64(src[i])
//	}
//
//go:noescape
func f32ToF64NEON(dst, src []byte, n int)

// boolToU8NEON converts n elements (pair boolean → u8 of the registry):
//
//	for i := range n {
//		dst[i] = uint8(b2u(src[i] != 0))
//	}
//
//go:noescape
func boolToU8NEON(dst, src []byte, n int)

// u8ToBoolNEON converts n elements (pair u8 → boolean of the registry):
//
//	for i := range n {
//		dst[i] = uint8(b2u(src[i] != 0))
//	}
//
//go:noescape
func u8ToBoolNEON(dst, src []byte, n int)

// boolToF32NEON converts n elements (pair boolean → f32 of the registry):
//
//	for i := range n {
//		dst[i] = float32(b2u(src[i] != 0))
//	}
//
//go:noescape
func boolToF32NEON(dst, src []byte, n int)

// f32ToBoolNEON converts n elements (pair f32 → boolean of the registry):
//
//	for i := range n {
//		dst[i] = uint8(b2u(src[i] != 0)) // NaN → 1
//	}
//
//go:noescape
func f32ToBoolNEON(dst, src []byte, n int)

// f32ToBF16Dynamic is the f32 → bf16 kernel of the NEON path (pair f32 → bf16 of the registry):
//
//	for i := range n {
//		dst[i] = BF16FromF32(src[i])
//	}
//
// It picks BFCVTN or the integer routine on every call, so that Convert's dispatch table, built
// once, follows the tests' switch of useBFCVTN.
func f32ToBF16Dynamic(dst, src []byte, n int) {
	if bf16UsesBFCVTN() {
		f32ToBF16BFCVTN(dst, src, n)
		return
	}
	f32ToBF16NEON(dst, src, n)
}

// bf16UsesBFCVTN reports whether f32 → bf16 runs BFCVTN: only on a CPU with FEAT_BF16.
func bf16UsesBFCVTN() bool { return useBFCVTN && hasBF16 }

// arm64Kernels lists the NEON kernels with their pairs, for bindKernels.
func arm64Kernels() []kernelSpec {
	const (
		bf16, f16, f32, f64 = element.BF16, element.F16, element.F32, element.F64
		f8e4m3, f8e5m2      = element.F8E4M3, element.F8E5M2
		u4, i4, nf4, f4e2m1 = element.U4, element.I4, element.NF4, element.F4E2M1
		i8, i16, i32, i64   = element.I8, element.I16, element.I32, element.I64
		u8, u16, boolean    = element.U8, element.U16, element.Boolean
	)
	return []kernelSpec{
		{NEON, f32, f16, f32ToF16NEON, false},
		{NEON, f16, f32, f16ToF32NEON, false},
		{NEON, f32, bf16, f32ToBF16Dynamic, false},
		{NEON, bf16, f32, bf16ToF32NEON, false},
		{NEON, f16, bf16, f16ToBF16NEON, false},
		{NEON, bf16, f16, bf16ToF16NEON, false},
		{NEON, f8e4m3, f16, f8e4m3ToF16NEON, false},
		{NEON, f8e4m3, f32, f8e4m3ToF32NEON, false},
		{NEON, f8e4m3, bf16, f8e4m3ToBF16NEON, false},
		{NEON, f8e5m2, f16, f8e5m2ToF16NEON, false},
		{NEON, f8e5m2, f32, f8e5m2ToF32NEON, false},
		{NEON, f32, f8e4m3, f32ToF8e4m3NEON, false},
		{NEON, f16, f8e4m3, f16ToF8e4m3NEON, false},
		{NEON, f32, f8e5m2, f32ToF8e5m2NEON, false},
		{NEON, f16, f8e5m2, f16ToF8e5m2NEON, false},
		{NEON, u4, f32, u4ToF32NEON, false},
		{NEON, i4, f32, i4ToF32NEON, false},
		{NEON, nf4, f32, nf4ToF32NEON, false},
		{NEON, f4e2m1, f32, f4e2m1ToF32NEON, false},
		{NEON, u4, f16, u4ToF16NEON, false},
		{NEON, i4, f16, i4ToF16NEON, false},
		{NEON, nf4, f16, nf4ToF16NEON, false},
		{NEON, f4e2m1, f16, f4e2m1ToF16NEON, false},
		{NEON, i8, f32, i8ToF32NEON, false},
		{NEON, u8, f32, u8ToF32NEON, false},
		{NEON, i16, f32, i16ToF32NEON, false},
		{NEON, u16, f32, u16ToF32NEON, false},
		{NEON, i32, f32, i32ToF32NEON, false},
		{NEON, i8, f16, i8ToF16NEON, false},
		{NEON, u8, f16, u8ToF16NEON, false},
		{NEON, i16, f16, i16ToF16NEON, false},
		{NEON, u16, f16, u16ToF16NEON, false},
		{NEON, i32, f16, i32ToF16NEON, false},
		{NEON, i8, i32, i8ToI32NEON, false},
		{NEON, u8, i32, u8ToI32NEON, false},
		{NEON, i16, i32, i16ToI32NEON, false},
		{NEON, i32, i64, i32ToI64NEON, false},
		{NEON, i64, i32, i64ToI32NEON, false},
		{NEON, i32, i16, i32ToI16NEON, false},
		{NEON, i32, i8, i32ToI8NEON, false},
		{NEON, f32, i32, f32ToI32NEON, false},
		{NEON, f32, i16, f32ToI16NEON, false},
		{NEON, f32, i8, f32ToI8NEON, false},
		{NEON, f32, u8, f32ToU8NEON, false},
		{NEON, f64, f32, f64ToF32NEON, false},
		{NEON, f32, f64, f32ToF64NEON, false},
		{NEON, boolean, u8, boolToU8NEON, false},
		{NEON, u8, boolean, u8ToBoolNEON, false},
		{NEON, boolean, f32, boolToF32NEON, false},
		{NEON, f32, boolean, f32ToBoolNEON, false},
	}
}

// archInit binds the NEON kernels; the package's init calls it before building Convert's
// dispatch table.
func archInit() {
	bindKernels(arm64Kernels(), onNEON, func(p Path) bool { return p == NEON && hasASIMD })
}

// archPaths returns the SIMD paths this CPU can run, best first: NEON on every arm64 CPU with
// Advanced SIMD.
func archPaths() []Path {
	if hasASIMD {
		return []Path{NEON}
	}
	return nil
}

// archKernel returns the NEON kernel for the pair, or nil when NEON has none (or p is not NEON).
func archKernel(p Path, from, to element.Type) loopFunc { return simdKernel(p, from, to) }
