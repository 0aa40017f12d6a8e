//go:build gc && !purego

package kernels

import (
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/cpu"
)

// CPU features, read once at start-up (package internal/cpu). The AVX2 path needs AVX2, F16C (VCVTPS2PH, VCVTPH2PS)
// and FMA (the Haswell baseline); the AVX-512 path needs AVX-512 F, BW, VL, DQ and VBMI
// (VPERMB, VPERMI2B) and BMI2 (BZHI, for the tail masks) on top of the AVX2 path, since it uses the AVX2 kernels for the pairs it has
// no wider kernel for.
var (
	haveAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasF16C && cpu.X86.HasFMA

	haveAVX512 = haveAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VBMI
)

// haveBF16 reports AVX512_BF16 (VCVTNE2PS2BF16), which the AVX-512 path uses for f32 and f16 →
// bf16 when the CPU has it.
var haveBF16 = haveAVX512 && cpu.X86.HasAVX512BF16

// archPaths returns the SIMD paths this CPU can run, best first.
func archPaths() []Path { return cpuPaths }

// cpuPaths is archPaths' answer, with its capacity cut to its length so that callers that
// append to it get a copy.
var cpuPaths = func() []Path {
	switch {
	case haveAVX512:
		return []Path{AVX512, AVX2}[:2:2]
	case haveAVX2:
		return []Path{AVX2}[:1:1]
	}
	return nil
}()

// archKernel returns the SIMD kernel for the pair on path p, or nil.
func archKernel(p Path, from, to element.Type) loopFunc { return simdKernel(p, from, to) }

// amd64Paths are the paths this architecture has kernels for, whether or not the CPU runs them.
const amd64Paths = onAVX2 | onAVX512

// archInit fills the dispatch tables of the paths the CPU has; the package's init calls it
// before building Convert's dispatch table.
func archInit() {
	runs := func(p Path) bool { return p == AVX2 && haveAVX2 || p == AVX512 && haveAVX512 }
	bindKernels(amd64Kernels(), amd64Paths, runs)
	bindRuleKernels(append(avx2RuleKernels(), avx512RuleKernels()...), amd64Paths, runs)
	shareKernels()
	if !haveAVX2 {
		return
	}
	if haveAVX512 {
		largeKernel = func(p Path, v int, from, to element.Type) loopFunc {
			switch {
			case p != AVX512 || from >= numTypes || to >= numTypes:
				return nil
			case v >= 0:
				return ruleNT[v][from][to]
			}
			return ntTable[from][to]
		}
	}
}

// amd64Kernels lists every amd64 kernel with its path and pair: the lists are generated with the
// kernels (stubs_amd64.go). With AVX512_BF16 the kernels of avx512BF16Kernels come last and replace avx512Kernels' for
// their pairs (bindKernels keeps the last kernel of a path and pair), before bindKernels
// combines each non-temporal kernel with the ordinary one of its pair.
func amd64Kernels() []kernelSpec {
	ks := append(avx2Kernels(), avx512Kernels()...)
	if haveBF16 {
		ks = append(ks, avx512BF16Kernels()...)
	}
	return ks
}
