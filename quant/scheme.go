package quant

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// Scheme describes how a 1-D tensor is quantized (docs/SEMANTICS.md §9): n elements stored as
// codes of type Code, cut into groups of Group consecutive elements, with one scale of type
// Scale per group. An element stands for its code's value times its group's scale.
//
// Zero, when not element.Dynamic, is the type of a zero point per group, subtracted from each
// code before scaling; Scale2, when not element.Dynamic, is the type of a second-level scale
// that multiplies every group's scale. element.Dynamic (the zero Type) means none. The package
// does not implement zero points or second-level scales: a scheme with either is an error
// wrapping kernels.ErrUnsupported.
//
// Codes are packed as kernels.Convert packs Code (f4e2m1 two a byte, low nibble first); scales
// are one byte each, group by group. The element count need not be a multiple of Group: the
// last group is then shorter, and it has a scale like any other. A tensor of n elements has
// s.Groups(n) scales.
type Scheme struct {
	Code, Scale  element.Type
	Scale2, Zero element.Type
	Group        int
}

// The block-scaled formats. The MX formats are those of the OCP Microscaling Formats
// specification v1.0: codes with a power-of-two f8e8m0 scale per group of 32. NVFP4 has
// f4e2m1 codes with an f8e4m3 scale per group of 16; its per-tensor float32 scale is the
// caller's to apply.
var (
	MXFP4     = Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Group: 32}
	MXFP8E4M3 = Scheme{Code: element.F8E4M3, Scale: element.F8E8M0, Group: 32}
	MXFP8E5M2 = Scheme{Code: element.F8E5M2, Scale: element.F8E8M0, Group: 32}
	NVFP4     = Scheme{Code: element.F4E2M1, Scale: element.F8E4M3, Group: 16}
)

// named are the named schemes, in the order of String's documentation.
var named = [...]struct {
	name string
	s    Scheme
}{{"mxfp4", MXFP4}, {"mxfp8e4m3", MXFP8E4M3}, {"mxfp8e5m2", MXFP8E5M2}, {"nvfp4", NVFP4}}

// String returns the name of a named scheme ("mxfp4", "mxfp8e4m3", "mxfp8e5m2", "nvfp4") and
// code/scale/group (as "f4e2m1/f8e8m0/64") for any other, followed by "/zero=" and the zero
// point's type and "/scale2=" and the second-level scale's type when the scheme has them.
func (s Scheme) String() string {
	for _, e := range named {
		if e.s == s {
			return e.name
		}
	}
	str := fmt.Sprintf("%s/%s/%d", s.Code, s.Scale, s.Group)
	if s.Zero != element.Dynamic {
		str += "/zero=" + s.Zero.String()
	}
	if s.Scale2 != element.Dynamic {
		str += "/scale2=" + s.Scale2.String()
	}
	return str
}

// Parse reads a scheme's name as String writes it, in any letter case: "mxfp4", "mxfp8e4m3",
// "mxfp8e5m2", "nvfp4" or code/scale/group with optional /zero=TYPE and /scale2=TYPE. A scheme
// the package does not implement is an error wrapping kernels.ErrUnsupported that names the
// field.
func Parse(str string) (Scheme, error) {
	l := strings.ToLower(str)
	for _, e := range named {
		if e.name == l {
			return e.s, nil
		}
	}
	parts := strings.Split(l, "/")
	syntax := fmt.Errorf("unknown quantization scheme %q (valid: mxfp4, mxfp8e4m3, mxfp8e5m2, nvfp4, or code/scale/group such as f4e2m1/f8e8m0/32)", str)
	if len(parts) < 3 {
		return Scheme{}, syntax
	}
	code, err1 := element.Parse(parts[0])
	scale, err2 := element.Parse(parts[1])
	group, err3 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || err3 != nil {
		return Scheme{}, syntax
	}
	s := Scheme{Code: code, Scale: scale, Group: group}
	for _, p := range parts[3:] {
		key, val, _ := strings.Cut(p, "=")
		t, err := element.Parse(val)
		switch {
		case err != nil || t == element.Dynamic:
			return Scheme{}, syntax
		case key == "zero" && s.Zero == element.Dynamic:
			s.Zero = t
		case key == "scale2" && s.Scale2 == element.Dynamic:
			s.Scale2 = t
		default:
			return Scheme{}, syntax
		}
	}
	if err := s.check(); err != nil {
		return Scheme{}, err
	}
	return s, nil
}

// Groups returns the number of groups, and so of scales, of a tensor of n elements: n / Group
// rounded up. It returns 0 for n ≤ 0 or a scheme with Group ≤ 0.
func (s Scheme) Groups(n int) int {
	if n <= 0 || s.Group <= 0 {
		return 0
	}
	return (n-1)/s.Group + 1
}

// CodeBytes returns the bytes of n elements' packed codes: n·Code.Bits()/8 rounded up, 0 for
// n ≤ 0.
func (s Scheme) CodeBytes(n int) int {
	if n <= 0 {
		return 0
	}
	return (n*s.Code.Bits() + 7) / 8
}

// ScaleBytes returns the bytes of the scales of n elements: s.Groups(n) scales of Scale's size.
func (s Scheme) ScaleBytes(n int) int { return s.Groups(n) * ((s.Scale.Bits() + 7) / 8) }

// Alloc returns a Data whose codes and scales hold n elements of the scheme.
func (s Scheme) Alloc(n int) Data {
	return Data{Codes: make([]byte, s.CodeBytes(n)), Scales: make([]byte, s.ScaleBytes(n))}
}

// maxGroup bounds Group so that group arithmetic cannot overflow.
const maxGroup = 1 << 20

// check reports whether the package can dequantize and quantize s: codes f4e2m1, f8e4m3 or
// f8e5m2 with an f8e8m0 scale, or f4e2m1 with an f8e4m3 scale; no zero point and no
// second-level scale; Group in 1..2^20, even for f4e2m1 so that every group starts on a whole
// byte. Its errors wrap kernels.ErrUnsupported and name the field.
func (s Scheme) check() error {
	switch {
	case s.Zero != element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: zero points (Zero %s) are not implemented", s, s.Zero)
	case s.Scale2 != element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: second-level scales (Scale2 %s) are not implemented", s, s.Scale2)
	case s.Scale != element.F8E8M0 && s.Scale != element.F8E4M3:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Scale %s is not supported (scales are f8e8m0 or f8e4m3)", s, s.Scale)
	case s.Scale == element.F8E8M0 && s.Code != element.F4E2M1 && s.Code != element.F8E4M3 && s.Code != element.F8E5M2:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Code %s is not supported with f8e8m0 scales (f4e2m1, f8e4m3 or f8e5m2)", s, s.Code)
	case s.Scale == element.F8E4M3 && s.Code != element.F4E2M1:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Code %s is not supported with f8e4m3 scales (f4e2m1)", s, s.Code)
	case s.Group < 1 || s.Group > maxGroup || s.Code == element.F4E2M1 && s.Group%2 != 0:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Group %d is not in 1..%d (and even for f4e2m1 codes)", s, s.Group, maxGroup)
	}
	return nil
}
