package onnxruntime

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	ort "github.com/yalue/onnxruntime_go"
)

// benchSizes are the element counts BenchmarkCast times each Cast at.
var benchSizes = []struct {
	name string
	n    int
}{{"1Ki", 1 << 10}, {"16Ki", 16 << 10}, {"256Ki", 256 << 10}, {"4Mi", 4 << 20}}

// benchCasts are the casts the comparison tests run through ONNX Runtime (onnxCases and
// openvinoCases), each once, without their source patterns. All of them are timed under
// convertpromote's onnx rules, whatever rule set the comparison used.
func benchCasts() []castCase {
	seen := map[string]bool{}
	var cs []castCase
	for _, c := range append(onnxCases(), openvinoCases()...) {
		c.src, c.n, c.rules = nil, 0, "onnx"
		if k := benchName(c); !seen[k] {
			seen[k] = true
			cs = append(cs, c)
		}
	}
	return cs
}

// benchName names a cast for the benchmark: its pair with ASCII separators and no spaces
// (f32-f8e4m3,sat=0; f32-f8e8m0,sat=1,round=up). docs/perf/onnxruntime.sh reads it back.
func benchName(c castCase) string { return benchNamer.Replace(c.pair()) }

var benchNamer = strings.NewReplacer("→", "-", " saturate=", ",sat=", " round_mode=", ",round=")

// BenchmarkCast times ONNX Runtime's Cast (one intra-op thread, input and output tensors bound
// once) against kernels.Converter under the onnx rules (Threads: 1) on the same bytes, for every
// cast of benchCasts at every size of benchSizes. The two run as neighbouring sub-benchmarks,
// BenchmarkCast/<cast>/<size>/ort and …/lib, so that a change in the machine's load hits both.
// Besides ns/op and MB/s (source and destination bytes), each reports ns/elem. It needs the ONNX
// Runtime library (LibraryEnv) and is skipped without it; docs/perf/onnxruntime.sh runs it and
// tabulates the medians.
func BenchmarkCast(b *testing.B) {
	if ortErr != nil {
		b.Skipf("ONNX Runtime unavailable (%v); set %s to libonnxruntime.so.1", ortErr, LibraryEnv)
	}
	maxN := benchSizes[len(benchSizes)-1].n
	for _, c := range benchCasts() {
		// Set up inside the cast's own sub-benchmark, so that -bench runs only the casts it names.
		b.Run(benchName(c), func(b *testing.B) { benchCast(b, c, maxN) })
	}
}

func benchCast(b *testing.B, c castCase, maxN int) {
	conv := kernels.Converter{Rules: onnxRules(c.attrs), Threads: 1}
	src := benchInput(b, c.from, c.to, maxN)
	dst := make([]byte, mustBytes(b, c.to, maxN))
	sess, err := NewCast(c.from, c.to, c.attrs)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	for _, sz := range benchSizes {
		sb, db := mustBytes(b, c.from, sz.n), mustBytes(b, c.to, sz.n)
		in, out := benchTensors(b, sess, src[:sb], dst[:db], sz.n)
		if err := sess.sess.Run([]ort.Value{in}, []ort.Value{out}); err != nil {
			b.Fatalf("onnxruntime: %v", err)
		}
		if err := conv.Convert(dst, c.to, src, c.from, sz.n); err != nil {
			b.Fatalf("convertpromote: %v", err)
		}
		b.Run(sz.name+"/ort", func(b *testing.B) {
			b.SetBytes(sb + db)
			for range b.N {
				if err := sess.sess.Run([]ort.Value{in}, []ort.Value{out}); err != nil {
					b.Fatal(err)
				}
			}
			reportPerElement(b, sz.n)
		})
		b.Run(sz.name+"/lib", func(b *testing.B) {
			b.SetBytes(sb + db)
			for range b.N {
				if err := conv.Convert(dst, c.to, src, c.from, sz.n); err != nil {
					b.Fatal(err)
				}
			}
			reportPerElement(b, sz.n)
		})
		in.Destroy()
		out.Destroy()
	}
}

func reportPerElement(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

func mustBytes(b *testing.B, t element.Type, n int) int64 {
	s, err := t.ByteSize(int64(n))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchTensors wraps src and dst as rank-1 tensors of n elements for sess, once for all runs.
func benchTensors(b *testing.B, c *Cast, src, dst []byte, n int) (ort.Value, ort.Value) {
	shape := ort.NewShape(int64(n))
	in, err := ort.NewCustomDataTensor(shape, src, ort.TensorElementDataType(c.onnxFrom))
	if err != nil {
		b.Fatal(err)
	}
	out, err := ort.NewCustomDataTensor(shape, dst, ort.TensorElementDataType(c.onnx))
	if err != nil {
		b.Fatal(err)
	}
	return in, out
}

// benchInput returns n elements of type from: normally distributed values with a spread that
// keeps most of them inside both from's and to's range (a few beyond to's largest value, where
// saturation matters), and every 509th element one of a few specials (zeros, infinities, NaN,
// the extremes, a tiny value). Integer sources get rounded values clamped to their range.
// Types narrower than f32 are encoded from f32 values by convertpromote's onnx rules. The seed
// depends on the pair only, so every run times the same bytes.
func benchInput(b *testing.B, from, to element.Type, n int) []byte {
	r := rand.New(rand.NewPCG(uint64(from), uint64(to)))
	limit := 1e6
	if f, ok := to.FloatFormat(); ok {
		limit = min(limit, f.MaxFinite)
	}
	if f, ok := from.FloatFormat(); ok {
		limit = min(limit, f.MaxFinite)
	}
	if lo, hi, ok := from.IntRange(); ok {
		if lo < 0 {
			limit = min(limit, -float64(lo))
		} else {
			limit = min(limit, float64(hi))
		}
	}
	vals := make([]float64, n)
	for i := range vals {
		if to == element.F8E8M0 || from == element.F8E8M0 {
			// Scales: positive, spread over powers of two.
			vals[i] = math.Ldexp(1+r.Float64(), r.IntN(41)-20)
		} else {
			vals[i] = r.NormFloat64() * limit / 4
		}
	}
	if lo, hi, ok := from.IntRange(); ok {
		if lo == 0 {
			for i, v := range vals {
				vals[i] = math.Abs(v)
			}
		}
		specials := []float64{0, float64(lo), float64(hi), 1, -1}
		for i := 0; i < n; i += 509 {
			vals[i] = specials[(i/509)%len(specials)]
		}
		return packInts(from, vals)
	}
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e30, -1e30, 1e-30}
	for i := 0; i < n; i += 509 {
		vals[i] = specials[(i/509)%len(specials)]
	}
	switch from {
	case element.F64:
		out := make([]byte, 8*n)
		for i, v := range vals {
			binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(v))
		}
		return out
	}
	f32 := make([]byte, 4*n)
	for i, v := range vals {
		binary.LittleEndian.PutUint32(f32[4*i:], math.Float32bits(float32(v)))
	}
	if from == element.F32 {
		return f32
	}
	out := make([]byte, mustBytes(b, from, n))
	if err := (kernels.Converter{Rules: kernels.Rules{Set: kernels.ONNX}}).Convert(out, from, f32, element.F32, n); err != nil {
		b.Fatalf("benchmark input f32 → %v: %v", from, err)
	}
	return out
}

// packInts lays out integer values (rounded, clamped to t's range) as t's little-endian bytes,
// two's complement; 4-bit types two per byte, low nibble first.
func packInts(t element.Type, vals []float64) []byte {
	lo, hi, _ := t.IntRange()
	w := t.Bits()
	var out []byte
	if w < 8 {
		out = make([]byte, (len(vals)*w+7)/8)
	} else {
		out = make([]byte, len(vals)*w/8)
	}
	for i, v := range vals {
		v = math.Round(v)
		var x uint64
		switch {
		case v <= float64(lo):
			x = uint64(lo)
		case v >= float64(hi):
			x = hi
		case v < 0:
			x = uint64(int64(v))
		default:
			x = uint64(v)
		}
		if w == 4 {
			out[i/2] |= byte(x&0xf) << (4 * (i % 2))
			continue
		}
		for k := range w / 8 {
			out[i*w/8+k] = byte(x >> (8 * k))
		}
	}
	return out
}
