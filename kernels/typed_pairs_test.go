package kernels_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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

// TestAsBytesAliases: AsBytes is a view, not a copy, in little-endian order.
func TestAsBytesAliases(t *testing.T) {
	v := []uint32{0x04030201, 0x08070605}
	b := kernels.AsBytes(v)
	if !bytes.Equal(b, []byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("AsBytes = % x", b)
	}
	b[0] = 0xFF
	if v[0] != 0x040302FF {
		t.Errorf("write through AsBytes not seen: %#x", v[0])
	}
	v[1] = 0
	if b[7] != 0 {
		t.Error("write to the slice not seen through AsBytes")
	}
	if kernels.AsBytes([]complex128{}) != nil || len(kernels.AsBytes([]complex128{1})) != 16 {
		t.Error("AsBytes sizes")
	}
}

// errCase is an error a call returned, the sentinel it should match (nil: no error) and a part
// of its message.
type errCase struct {
	name string
	err  error
	want error
	msg  string
}

// TestErrorKinds: each error kind matches its sentinel with errors.Is (and no other) and keeps
// a message that names the problem.
func TestErrorKinds(t *testing.T) {
	sentinels := []error{kernels.ErrUnsupported, kernels.ErrShortBuffer, kernels.ErrOverlap, kernels.ErrLengthMismatch, kernels.ErrInvalid}
	buf := make([]byte, 64)
	unavailable := kernels.Generic
	for _, p := range []kernels.Path{kernels.NEON, kernels.AVX2, kernels.AVX512} {
		if !kernels.HasKernel(p, element.F32, element.F16) {
			unavailable = p
		}
	}
	cases := []errCase{
		{"string destination", kernels.Convert(buf, element.String, buf[32:], element.F32, 2), kernels.ErrUnsupported, "conversion from f32 to string is not supported"},
		{"short source", kernels.Convert(buf[:32], element.F16, buf[32:36], element.F32, 2), kernels.ErrShortBuffer, "f32 source holds 4 bytes, 2 elements need 8"},
		{"short destination", kernels.Convert(buf[:3], element.F16, buf[32:], element.F32, 2), kernels.ErrShortBuffer, "f16 destination holds 3 bytes, 2 elements need 4"},
		{"overlap", kernels.Convert(buf[2:], element.F16, buf, element.F32, 2), kernels.ErrOverlap, "overlap"},
		{"negative count", kernels.Convert(buf, element.F16, buf[32:], element.F32, -1), kernels.ErrInvalid, "negative element count -1"},
		{"negative count, explicit path", kernels.WithPath(kernels.Generic, 1).Convert(buf, element.F16, buf[32:], element.F32, -1), kernels.ErrInvalid, "negative element count -1"},
		{"overflowing count", kernels.Convert(buf, element.F16, buf[32:], element.F64, math.MaxInt), kernels.ErrInvalid, "f64 source elements"},
		{"invalid rules", kernels.Converter{Rules: kernels.Rules{Set: 9}}.Convert(buf, element.F16, buf[32:], element.F32, 2), kernels.ErrInvalid, "invalid rule set 9"},
		{"path out of range", kernels.Converter{Path: 200}.Convert(buf[:4], element.F16, buf[32:40], element.F32, 2), kernels.ErrUnsupported, "not available on this CPU"},
		{"empty slices", kernels.BF16sFromF16s(make([]uint16, 0), []uint16{}), nil, ""},
		{"length", kernels.F16sFromF32s(make([]uint16, 2), make([]float32, 3)), kernels.ErrLengthMismatch, "destination has 2 elements, source 3"},
		{"packed length", kernels.F32sFromNF4s(make([]float32, 3), make([]uint8, 1)), kernels.ErrLengthMismatch, "need 2 source bytes, source has 1"},
	}
	x := make([]uint16, 4)
	cases = append(cases, errCase{"typed same slice", kernels.BF16sFromF16s(x, x), kernels.ErrOverlap, "overlap"})
	if unavailable != kernels.Generic {
		cases = append(cases,
			errCase{"unavailable path", kernels.WithPath(unavailable, 1).Convert(buf[:4], element.F16, buf[32:40], element.F32, 2), kernels.ErrUnsupported, "not available on this CPU"},
			errCase{"unavailable path in a literal", kernels.Converter{Path: unavailable}.Convert(buf[:4], element.F16, buf[32:40], element.F32, 2), kernels.ErrUnsupported, "not available on this CPU"})
	}
	for _, c := range cases {
		if c.want == nil {
			if c.err != nil {
				t.Errorf("%s: %v", c.name, c.err)
			}
			continue
		}
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, s := range sentinels {
			if got := errors.Is(c.err, s); got != (s == c.want) {
				t.Errorf("%s: errors.Is(%q, %v) = %v", c.name, c.err, s, got)
			}
		}
		if !strings.HasPrefix(c.err.Error(), "kernels: ") || !strings.Contains(c.err.Error(), c.msg) {
			t.Errorf("%s: message %q does not say %q", c.name, c.err, c.msg)
		}
	}
}

// TestSetThreadsClamps: a count beyond int32 is stored as the largest int32, not truncated (to
// 1 for 2^32+1, or to a negative number for 2^31).
func TestSetThreadsClamps(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("int has 32 bits")
	}
	old := kernels.SetThreads(0)
	defer kernels.SetThreads(old)
	for _, n := range []int64{1<<32 + 1, 1 << 31, math.MaxInt64} {
		kernels.SetThreads(int(n))
		if got := kernels.SetThreads(0); got != math.MaxInt32 {
			t.Errorf("SetThreads(%d) stored %d, want %d", n, got, math.MaxInt32)
		}
	}
	kernels.SetThreads(-5)
	if got := kernels.SetThreads(0); got != 0 {
		t.Errorf("SetThreads(-5) stored %d, want 0 (the default)", got)
	}
}
