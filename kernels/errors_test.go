package kernels_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

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
