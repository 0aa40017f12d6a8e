package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// benchSource returns n elements of type t: the wide float types (f64, f32, f16, bf16, c64)
// hold normally distributed values with standard deviation 100, the common case of real tensors
// (mostly in the normal range of the narrow formats, as convertpromote bench fills them); other
// types get random bytes, every pattern being a value.
func benchSource(t element.Type, n int, r *rand.Rand) []byte {
	size, _ := t.ByteSize(int64(n))
	src := make([]byte, size)
	le := binary.LittleEndian
	switch t {
	case element.F32:
		for i := range n {
			le.PutUint32(src[4*i:], math.Float32bits(float32(r.NormFloat64()*100)))
		}
	case element.F64:
		for i := range n {
			le.PutUint64(src[8*i:], math.Float64bits(r.NormFloat64()*100))
		}
	case element.F16:
		for i := range n {
			le.PutUint16(src[2*i:], F16FromF32(float32(r.NormFloat64()*100)))
		}
	case element.BF16:
		for i := range n {
			le.PutUint16(src[2*i:], uint16(math.Float32bits(float32(r.NormFloat64()*100))>>16))
		}
	case element.C64:
		for i := range 2 * n {
			le.PutUint32(src[4*i:], math.Float32bits(float32(r.NormFloat64()*100)))
		}
	default:
		for i := range src {
			src[i] = byte(r.Uint32())
		}
	}
	return src
}

// BenchSource is benchSource for the benchmarks of package kernels_test.
var BenchSource = benchSource

// BenchmarkGeneric measures the pure-Go path on one goroutine, 64Ki elements: the direct loop
// of a hot pair ("direct") against the general decode/encode loop for the same pair ("block"),
// and a few pairs that only have the general loop.
func BenchmarkGeneric(b *testing.B) {
	const n = 1 << 16
	r := rand.New(rand.NewPCG(1, 2))
	pairs := [][2]element.Type{
		{element.F32, element.F16}, {element.F16, element.F32}, {element.F32, element.BF16},
		{element.F32, element.F8E4M3}, {element.F8E4M3, element.F32}, {element.U4, element.F32},
		{element.I8, element.F32}, {element.F32, element.I32}, {element.F64, element.F32},
		{element.F64, element.NF4}, {element.I64, element.F16}, {element.U3, element.BF16}, {element.C64, element.F16},
	}
	for _, p := range pairs {
		from, to := p[0], p[1]
		sb, _ := from.ByteSize(n)
		db, _ := to.ByteSize(n)
		src := benchSource(from, n, r)
		dst := make([]byte, db)
		loops := map[string]loopFunc{"block": blockLoop(Rules{}, from, to)}
		if d := directKernel(from, to); d != nil {
			loops["direct"] = d
		}
		for _, name := range []string{"direct", "block"} {
			f, ok := loops[name]
			if !ok {
				continue
			}
			b.Run(fmt.Sprintf("%s-%s/%s", from, to, name), func(b *testing.B) {
				b.SetBytes(sb + db)
				for b.Loop() {
					f(dst, src, n)
				}
			})
		}
	}
}
