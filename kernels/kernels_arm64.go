//go:build gc && !purego

package kernels

import (
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/cpu"
)

// Feature flags, read once at start-up (package internal/cpu). No kernel uses FP16 arithmetic
// (FEAT_FP16, cpu.ARM64.HasFPHP/HasASIMDHP): the f16 conversions FCVTN/FCVTL are base ARMv8
// Advanced SIMD, so every kernel except BFCVTN runs on any arm64 CPU (Cortex-A53 included). The kernels rely on FPCR as
// Go leaves it (round to nearest even, no flush to zero, no default NaN), like Go's own float
// conversions do. Tests switch useBFCVTN off and on to run both f32 → bf16 branches on a CPU
// that has FEAT_BF16.
var (
	// hasASIMD: Advanced SIMD, present on every arm64 CPU Go supports.
	hasASIMD = cpu.ARM64.HasASIMD
	// hasBF16: FEAT_BF16 (BFCVTN), read from the auxiliary vector's HWCAP2 on Linux.
	hasBF16 = cpu.ARM64.HasBF16
	// useBFCVTN selects BFCVTN for f32 → bf16; it is never true without hasBF16.
	useBFCVTN = hasBF16
)

// f32ToBF16Dynamic converts n elements of the pair f32 → bf16 on the NEON path, as the registry's
// loop:
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

// archInit binds the NEON kernels; the package's init calls it before building Convert's
// dispatch table.
func archInit() {
	runs := func(p Path) bool { return p == NEON && hasASIMD }
	bindKernels(arm64Kernels(), onNEON, runs)
	bindRuleKernels(arm64RuleKernels(), onNEON, runs)
	shareKernels()
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
