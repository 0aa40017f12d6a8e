package bench

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/x448/float16"
)

// decodeFloats reads count floats of a 16/32/64-bit float type from b.
func decodeFloats(t element.Type, b []byte, count int) []float64 {
	xs := make([]float64, count)
	for i := range xs {
		switch t {
		case element.F16:
			xs[i] = float64(float16.Frombits(binary.LittleEndian.Uint16(b[2*i:])).Float32())
		case element.BF16:
			xs[i] = float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16))
		case element.F32:
			xs[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		case element.F64:
			xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	return xs
}

func TestFillFloatsInRange(t *testing.T) {
	const n = 20000
	for _, tc := range []struct {
		from, to element.Type
		count    int     // floats written (complex: two per element)
		bound    float64 // the destination's range
		minFrac  float64 // fraction that must be within ±bound
		unsigned bool
	}{
		{element.F32, element.F16, n, 65504, 1, false},
		{element.F64, element.F16, n, 65504, 1, false},
		{element.F32, element.BF16, n, math.MaxFloat32, 1, false},
		{element.BF16, element.F32, n, math.MaxFloat32, 1, false},
		{element.F16, element.F32, n, 65504, 1, false},
		{element.F32, element.F8E4M3, n, 448, 0.999, false},
		{element.F32, element.I8, n, 127, 0.999, false},
		{element.F32, element.U8, n, 255, 0.999, true},
		{element.F32, element.U4, n, 15, 0.999, true},
		{element.C64, element.F16, 2 * n, 65504, 1, false},
	} {
		sz, _ := tc.from.ByteSize(n)
		buf := make([]byte, sz)
		Fill(buf, tc.from, tc.to, n, rand.New(rand.NewPCG(7, 8)))
		part := tc.from
		if p, ok := tc.from.ComplexPart(); ok {
			part = p
		}
		xs := decodeFloats(part, buf, tc.count)
		in, nonzero := 0, 0
		exps := map[int]bool{}
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%s→%s: non-finite value %v", tc.from, tc.to, x)
			}
			if tc.unsigned && x < 0 {
				t.Fatalf("%s→%s: negative value %v for an unsigned destination", tc.from, tc.to, x)
			}
			if math.Abs(x) <= tc.bound {
				in++
			}
			if x != 0 {
				nonzero++
				_, e := math.Frexp(x)
				exps[e] = true
			}
		}
		if frac := float64(in) / float64(len(xs)); frac < tc.minFrac {
			t.Errorf("%s→%s: %.4f of the values in ±%g, want at least %g", tc.from, tc.to, frac, tc.bound, tc.minFrac)
		}
		if nonzero < len(xs)*99/100 || len(exps) < 6 {
			t.Errorf("%s→%s: %d non-zero values over %d exponents: not a realistic spread", tc.from, tc.to, nonzero, len(exps))
		}
	}
}

func TestFillBytesTypes(t *testing.T) {
	for _, tc := range []struct {
		from, to element.Type
		n        int
	}{
		{element.I8, element.F32, 4096},
		{element.F8E4M3, element.F16, 4096},
		{element.U4, element.F32, 8191}, // 4096 bytes, half of the last one
		{element.I32, element.F32, 1024},
	} {
		sz, _ := tc.from.ByteSize(int64(tc.n))
		buf := make([]byte, sz+16)
		Fill(buf, tc.from, tc.to, tc.n, rand.New(rand.NewPCG(9, 10)))
		if !bytes.Equal(buf[sz:], make([]byte, 16)) {
			t.Errorf("%s: Fill wrote past the %d bytes of %d elements", tc.from, sz, tc.n)
		}
		seen := map[byte]bool{}
		for _, b := range buf[:sz] {
			seen[b] = true
		}
		if len(seen) < 250 {
			t.Errorf("%s: only %d distinct byte values in %d random bytes", tc.from, len(seen), sz)
		}
	}
}

func TestFillDeterministic(t *testing.T) {
	a, b := make([]byte, 4000), make([]byte, 4000)
	Fill(a, element.F32, element.F16, 1000, rand.New(rand.NewPCG(1, 1)))
	Fill(b, element.F32, element.F16, 1000, rand.New(rand.NewPCG(1, 1)))
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different data")
	}
}
