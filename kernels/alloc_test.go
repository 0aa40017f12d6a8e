package kernels_test

import (
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestConvertDoesNotAllocate: a conversion that runs on the calling goroutine allocates nothing,
// for every supported pair on every path, through Convert and through an explicit Converter, also
// under the ONNX and ml_dtypes rule sets.
func TestConvertDoesNotAllocate(t *testing.T) {
	const n = 777 // odd, so packed tails and SIMD tails both run
	src := make([]byte, 16*n)
	dst := make([]byte, 16*n)
	for _, p := range kernels.Paths() {
		c := kernels.WithPath(p, 1)
		for _, from := range element.All() {
			for _, to := range element.All() {
				if !kernels.Supported(from, to) {
					continue
				}
				a := testing.AllocsPerRun(5, func() { _ = c.Convert(dst, to, src, from, n) })
				b := testing.AllocsPerRun(5, func() { _ = kernels.Convert(dst, to, src, from, n) })
				if a != 0 || b != 0 {
					t.Errorf("%v %v→%v: %v allocations per Converter.Convert, %v per Convert", p, from, to, a, b)
				}
				for _, set := range []kernels.RuleSet{kernels.ONNX, kernels.MLDtypes} {
					r := c
					r.Rules = kernels.Rules{Set: set, NoSaturate: true, E8M0Round: kernels.RoundNearest}
					if a := testing.AllocsPerRun(5, func() { _ = r.Convert(dst, to, src, from, n) }); a != 0 {
						t.Errorf("%v %v %v→%v: %v allocations per Converter.Convert", p, set, from, to, a)
					}
				}
			}
		}
	}
}
