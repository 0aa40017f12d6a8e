// Package cpu reads the CPU features that the SIMD kernels of packages kernels and quant
// depend on, once at start-up, so that both packages (and their tests) dispatch on the same
// answers. Every field is false on an architecture other than its own.
//
// The x86 fields come from golang.org/x/sys/cpu. On arm64, FEAT_BF16 is not reported by
// golang.org/x/sys/cpu; it is read from Linux's auxiliary vector (HWCAP2) and is false on other
// operating systems.
package cpu

// X86 holds the amd64 features the kernels use. The operating system's support for the AVX and
// AVX-512 register state is part of each AVX flag, as golang.org/x/sys/cpu reports them.
var X86 struct {
	HasAVX, HasAVX2, HasF16C, HasFMA, HasBMI2 bool
	// AVX-512 Foundation, Byte and Word, Vector Length, Doubleword and Quadword, Vector Byte
	// Manipulation.
	HasAVX512F, HasAVX512BW, HasAVX512VL, HasAVX512DQ, HasAVX512VBMI bool
	// HasAVX512BF16: VCVTNE2PS2BF16 and friends.
	HasAVX512BF16 bool
}

// ARM64 holds the arm64 features the kernels use or their tests report.
var ARM64 struct {
	// HasASIMD: Advanced SIMD, present on every arm64 CPU Go supports.
	HasASIMD bool
	// HasFPHP and HasASIMDHP: FEAT_FP16 half-precision arithmetic (scalar, vector). No kernel
	// uses it (the f16 conversions FCVTN/FCVTL are base Advanced SIMD); tests report it.
	HasFPHP, HasASIMDHP bool
	// HasBF16: FEAT_BF16 (BFCVTN, BFDOT, ...), from HWCAP2 on Linux.
	HasBF16 bool
}
