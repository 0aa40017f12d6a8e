package kernels

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
)

// Path names a family of implementations.
type Path uint8

// The implementation paths. Best, the zero Path, stands for the best path this CPU runs
// (Paths()[0]), so that the zero Converter converts as Convert does. Generic is always
// available; the others only on CPUs that have the features they need (see Paths).
const (
	Best    Path = iota // the best path this CPU runs: Paths()[0]
	Generic             // pure Go, the reference
	AVX2                // amd64 AVX2, F16C and FMA
	AVX512              // amd64 AVX2's features and AVX-512 F, BW, VL, DQ, VBMI and BMI2
	NEON                // arm64 Advanced SIMD (+ FP16/BF16 conversions where the CPU has them)
	numPaths
)

var pathNames = [numPaths]string{"best", "generic", "avx2", "avx512", "neon"}

// String returns the path's name: "best", "generic", "avx2", "avx512" or "neon".
func (p Path) String() string {
	if p < numPaths {
		return pathNames[p]
	}
	return fmt.Sprintf("kernels.Path(%d)", uint8(p))
}

// ParsePath reads a path name as String writes it.
func ParsePath(s string) (Path, error) {
	for i, n := range pathNames {
		if n == s {
			return Path(i), nil
		}
	}
	return 0, fmt.Errorf("unknown kernel path %q (valid: best, generic, avx2, avx512, neon)", s)
}

// Paths returns the paths this CPU can run, best first; Generic is always last. Best is not
// listed: it stands for the first.
func Paths() []Path {
	ps := archPaths()
	return append(ps, Generic)
}

// loopFunc converts n elements from src to dst. The caller has checked that src and dst hold n
// elements of their types. For packed types the caller only passes n and slices that start at a
// multiple of 64 elements, so every slice starts on a whole byte (and on a 3-byte u3/u6 group).
type loopFunc func(dst, src []byte, n int)

// kernel returns the loop for the pair on path p, falling back to the pure-Go loop when p has no
// kernel for the pair. It returns nil only for an unsupported pair.
func kernel(p Path, from, to element.Type) loopFunc {
	if p = p.resolve(); p != Generic {
		if f := archKernel(p, from, to); f != nil {
			return f
		}
	}
	return genericKernel(from, to)
}

// HasKernel reports whether path p has its own (SIMD) kernel for the pair, rather than falling
// back to the pure-Go loop. HasKernel(Generic, …) reports whether the pair is supported at all;
// HasKernel(Best, …) answers for the best path.
func HasKernel(p Path, from, to element.Type) bool {
	if p = p.resolve(); p == Generic {
		return genericKernel(from, to) != nil
	}
	return archKernel(p, from, to) != nil
}

// Supported reports whether Convert accepts the pair: every pair of static types except string.
func Supported(from, to element.Type) bool { return genericKernel(from, to) != nil }

// best is the path Convert uses and Best stands for: the first of Paths(), fixed at start-up
// (tests run the other paths through WithPath).
var best = Paths()[0]

// resolve returns the path p stands for: best for Best, p itself otherwise.
func (p Path) resolve() Path {
	if p == Best {
		return best
	}
	return p
}

func pathAvailable(p Path) bool { return p < numPaths && availablePaths&(1<<p) != 0 }

// availablePaths is the set of Paths() and Best as a bit mask, computed once so that Convert on an
// explicit path does not allocate.
var availablePaths = func() (m uint32) {
	m = 1 << Best
	for _, p := range Paths() {
		m |= 1 << p
	}
	return m
}()
