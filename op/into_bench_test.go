package op

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// BenchmarkEvaluateInto measures EvaluateInto on f16[n] + f32[n] → f32 against the two
// kernels.Convert calls it makes ("bare"), at 1 Ki elements (where the checks and the promotion
// are a visible share) and 1 Mi.
func BenchmarkEvaluateInto(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	t := &testing.T{}
	for _, n := range []int64{1 << 10, 1 << 20} {
		shape := []int64{n}
		x, y := viewOf(t, r, element.F16, shape), viewOf(t, r, element.F32, shape)
		dx, dy := viewOf(t, r, element.F32, shape), viewOf(t, r, element.F32, shape)
		c := New()
		size := "n=" + strconv.FormatInt(n, 10)
		b.Run("into/"+size, func(b *testing.B) {
			b.SetBytes(int64(len(x.data) + len(y.data) + len(dx.data) + len(dy.data)))
			for b.Loop() {
				if err := c.EvaluateInto(dx, dy, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("bare/"+size, func(b *testing.B) {
			b.SetBytes(int64(len(x.data) + len(y.data) + len(dx.data) + len(dy.data)))
			for b.Loop() {
				if err := kernels.Convert(dx.data, element.F32, x.data, element.F16, int(n)); err != nil {
					b.Fatal(err)
				}
				if err := kernels.Convert(dy.data, element.F32, y.data, element.F32, int(n)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
