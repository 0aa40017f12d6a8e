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

// typedHelpers holds the typed helper of each pair, keyed by source and destination. Boolean
// sides are instantiated with uint8 so that random bytes are valid values.
var typedHelpers = map[[2]element.Type]typedCase{
	{element.F32, element.F16}:     typed(kernels.F16sFromF32s[uint16, float32], false),
	{element.F16, element.F32}:     typed(kernels.F32sFromF16s[float32, uint16], false),
	{element.F32, element.BF16}:    typed(kernels.BF16sFromF32s[uint16, float32], false),
	{element.BF16, element.F32}:    typed(kernels.F32sFromBF16s[float32, uint16], false),
	{element.F16, element.BF16}:    typed(kernels.BF16sFromF16s[uint16, uint16], false),
	{element.BF16, element.F16}:    typed(kernels.F16sFromBF16s[uint16, uint16], false),
	{element.F64, element.F32}:     typed(kernels.F32sFromF64s[float32, float64], false),
	{element.F32, element.F64}:     typed(kernels.F64sFromF32s[float64, float32], false),
	{element.F8E4M3, element.F32}:  typed(kernels.F32sFromF8E4M3s[float32, uint8], false),
	{element.F32, element.F8E4M3}:  typed(kernels.F8E4M3sFromF32s[uint8, float32], false),
	{element.F8E5M2, element.F32}:  typed(kernels.F32sFromF8E5M2s[float32, uint8], false),
	{element.F32, element.F8E5M2}:  typed(kernels.F8E5M2sFromF32s[uint8, float32], false),
	{element.I8, element.F32}:      typed(kernels.F32sFromI8s[float32, int8], false),
	{element.U8, element.F32}:      typed(kernels.F32sFromU8s[float32, uint8], false),
	{element.I16, element.F32}:     typed(kernels.F32sFromI16s[float32, int16], false),
	{element.U16, element.F32}:     typed(kernels.F32sFromU16s[float32, uint16], false),
	{element.I32, element.F32}:     typed(kernels.F32sFromI32s[float32, int32], false),
	{element.F32, element.I32}:     typed(kernels.I32sFromF32s[int32, float32], false),
	{element.F32, element.I8}:      typed(kernels.I8sFromF32s[int8, float32], false),
	{element.F32, element.U8}:      typed(kernels.U8sFromF32s[uint8, float32], false),
	{element.I32, element.I64}:     typed(kernels.I64sFromI32s[int64, int32], false),
	{element.I64, element.I32}:     typed(kernels.I32sFromI64s[int32, int64], false),
	{element.F8E4M3, element.F16}:  typed(kernels.F16sFromF8E4M3s[uint16, uint8], false),
	{element.F8E4M3, element.BF16}: typed(kernels.BF16sFromF8E4M3s[uint16, uint8], false),
	{element.F8E5M2, element.F16}:  typed(kernels.F16sFromF8E5M2s[uint16, uint8], false),
	{element.F16, element.F8E4M3}:  typed(kernels.F8E4M3sFromF16s[uint8, uint16], false),
	{element.F16, element.F8E5M2}:  typed(kernels.F8E5M2sFromF16s[uint8, uint16], false),
	{element.I8, element.F16}:      typed(kernels.F16sFromI8s[uint16, int8], false),
	{element.U8, element.F16}:      typed(kernels.F16sFromU8s[uint16, uint8], false),
	{element.I16, element.F16}:     typed(kernels.F16sFromI16s[uint16, int16], false),
	{element.U16, element.F16}:     typed(kernels.F16sFromU16s[uint16, uint16], false),
	{element.I32, element.F16}:     typed(kernels.F16sFromI32s[uint16, int32], false),
	{element.I8, element.I32}:      typed(kernels.I32sFromI8s[int32, int8], false),
	{element.U8, element.I32}:      typed(kernels.I32sFromU8s[int32, uint8], false),
	{element.I16, element.I32}:     typed(kernels.I32sFromI16s[int32, int16], false),
	{element.I32, element.I16}:     typed(kernels.I16sFromI32s[int16, int32], false),
	{element.I32, element.I8}:      typed(kernels.I8sFromI32s[int8, int32], false),
	{element.F32, element.I16}:     typed(kernels.I16sFromF32s[int16, float32], false),
	{element.Boolean, element.U8}:  typed(kernels.U8sFromBools[uint8, uint8], false),
	{element.U8, element.Boolean}:  typed(kernels.BoolsFromU8s[uint8, uint8], false),
	{element.Boolean, element.F32}: typed(kernels.F32sFromBools[float32, uint8], false),
	{element.F32, element.Boolean}: typed(kernels.BoolsFromF32s[uint8, float32], false),
	{element.U4, element.F32}:      typed(kernels.F32sFromU4s[float32, uint8], true),
	{element.U4, element.F16}:      typed(kernels.F16sFromU4s[uint16, uint8], true),
	{element.I4, element.F32}:      typed(kernels.F32sFromI4s[float32, uint8], true),
	{element.I4, element.F16}:      typed(kernels.F16sFromI4s[uint16, uint8], true),
	{element.NF4, element.F32}:     typed(kernels.F32sFromNF4s[float32, uint8], true),
	{element.NF4, element.F16}:     typed(kernels.F16sFromNF4s[uint16, uint8], true),
	{element.F4E2M1, element.F32}:  typed(kernels.F32sFromF4E2M1s[float32, uint8], true),
	{element.F4E2M1, element.F16}:  typed(kernels.F16sFromF4E2M1s[uint16, uint8], true),
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

// TestDeprecatedTypedNames: the source-first names give the same bytes as the new ones.
func TestDeprecatedTypedNames(t *testing.T) {
	src := []float32{1, 0.1, -65520, float32(math.NaN()), 3e-8}
	a, b := make([]uint16, len(src)), make([]uint16, len(src))
	if err := kernels.F32ToF16(a, src); err != nil {
		t.Fatal(err)
	}
	if err := kernels.F16sFromF32s(b, src); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(kernels.AsBytes(a), kernels.AsBytes(b)) {
		t.Errorf("F32ToF16 %x, F16sFromF32s %x", a, b)
	}
	i := []int64{1 << 40, -1}
	w := make([]int32, 2)
	if err := kernels.I64ToI32(w, i); err != nil || w[0] != 0 || w[1] != -1 {
		t.Errorf("I64ToI32 = %v, %v", w, err)
	}
}
