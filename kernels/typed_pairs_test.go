package kernels_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// typedCase runs one typed helper on n elements of random source bytes and returns the
// destination's bytes, the source's bytes and the helper's error.
type typedCase func(r *rand.Rand, n int) (dst, src []byte, err error)

// typed wraps a helper of element types D and S; packed says the source holds two 4-bit codes a
// byte.
func typed[D, S kernels.Fixed](f func([]D, []S) error, packed bool) typedCase {
	return func(r *rand.Rand, n int) ([]byte, []byte, error) {
		ns := n
		if packed {
			ns = (n + 1) / 2
		}
		src := make([]S, ns)
		sb := kernels.AsBytes(src)
		for i := range sb {
			sb[i] = byte(r.Uint32())
		}
		dst := make([]D, n)
		db := kernels.AsBytes(dst)
		for i := range db {
			db[i] = 0xA5 // Convert must overwrite every byte
		}
		err := f(dst, src)
		return kernels.AsBytes(dst), sb, err
	}
}

// TestTypedHelperEveryPair: every pair with a SIMD kernel on a path of this CPU has a typed
// helper, and each helper gives Convert's bytes for random sources of several lengths (odd ones
// included, for the packed sources' half-used last byte).
func TestTypedHelperEveryPair(t *testing.T) {
	for _, p := range kernels.Paths() {
		for _, from := range element.All() {
			for _, to := range element.All() {
				if p != kernels.Generic && kernels.HasKernel(p, from, to) && typedHelpers[[2]element.Type{from, to}] == nil {
					t.Errorf("%s has a %s kernel for %s → %s but no typed helper", p, p, from, to)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(20, 20))
	for pair, f := range typedHelpers {
		for _, n := range []int{0, 1, 7, 64, 1003} {
			dst, src, err := f(r, n)
			if err != nil {
				t.Fatalf("%s → %s n=%d: %v", pair[0], pair[1], n, err)
			}
			want := make([]byte, len(dst))
			if err := kernels.Convert(want, pair[1], src, pair[0], n); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dst, want) {
				t.Fatalf("%s → %s n=%d: helper wrote % x, Convert % x", pair[0], pair[1], n, dst, want)
			}
		}
	}
}

// TestTypedHelperBoolSlices: the boolean helpers take and give Go's []bool.
func TestTypedHelperBoolSlices(t *testing.T) {
	in := []bool{true, false, true}
	f := make([]float32, 3)
	if err := kernels.F32sFromBools(f, in); err != nil || f[0] != 1 || f[1] != 0 || f[2] != 1 {
		t.Fatalf("F32sFromBools = %v, %v", f, err)
	}
	out := make([]bool, 4)
	if err := kernels.BoolsFromF32s(out, []float32{0, float32(math.NaN()), float32(math.Copysign(0, -1)), -2}); err != nil {
		t.Fatal(err)
	}
	if out[0] || !out[1] || out[2] || !out[3] {
		t.Errorf("BoolsFromF32s(0, NaN, -0, -2) = %v", out)
	}
}
