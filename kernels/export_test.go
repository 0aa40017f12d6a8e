package kernels

// Test helpers shared by the internal tests (package kernels) and the external ones (package
// kernels_test): each is defined here once and exported to the external tests.

import (
	"slices"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// RegistryPairs returns the pairs with SIMD kernels under OpenVINO's rules, the registry's and then
// those of the openvino rows of ruleRegistry, for the external tests' pair lists.
func RegistryPairs() [][2]element.Type {
	ps := make([][2]element.Type, len(registry))
	for i, r := range registry {
		ps[i] = [2]element.Type{r.from, r.to}
	}
	for _, r := range ruleRegistry {
		if p := [2]element.Type{r.from, r.to}; r.openvino && !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// RegistryNames reports whether the pair has a kernel on path p under OpenVINO's rules (openvinoPaths).
func RegistryNames(p Path, from, to element.Type) bool { return openvinoPaths(from, to).has(p) }

// pairName names a pair in the tests' subtests: "f32-f16". Every test that loops over pairs and
// paths runs one subtest per pair and path, named pair/path ("f32-f16/avx512"; "f32-f16/generic"
// for the pure-Go path, "f32-f16/best" for a Converter left to choose), so that
// `go test -run 'TestX/f32-f16/avx512'` runs one pair on one path. Any further dimension (a rule
// variant, a length, an offset, the f32 → bf16 branch) is looped over inside that subtest, and
// its failure messages name it, with the pair, the path and the input.
func pairName(from, to element.Type) string { return from.String() + "-" + to.String() }

// randomCount is the number of random patterns the equivalence tests draw for each pair with a
// 32- or 64-bit source, on top of their exhaustive, structured or special inputs: 10^7 in the
// full run, 2^18 under -short (which CI also runs under qemu, 10-50× slower).
func randomCount() int {
	if testing.Short() {
		return 1 << 18
	}
	return 10_000_000
}

// Exported to the external tests.
var (
	PairName    = pairName
	RandomCount = randomCount
)
