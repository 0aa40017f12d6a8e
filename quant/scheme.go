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
// Scale per group and, when Zero is not element.Dynamic, a zero point of type Zero per group
// (one for the whole tensor with ScalarZero). An element stands for
//
//	round(round(code − zero) × scale)
//
// computed as OpenVINO evaluates its decompression subgraph: code, zero point and scale are
// each converted to the compute type (Compute: f16 or f32) as kernels.Convert converts them,
// the difference and the product are computed in float32 and rounded to the compute type (to
// nearest, ties to even; float32 arithmetic rounds itself), and the result is converted to the
// destination type. Scale2, when not element.Dynamic (f32 is the only type), is a second-level
// scale: every group's scale is first multiplied by it in float32 (divided by it with
// Scale2Divides), before its conversion to the compute type. element.Dynamic, the zero Type, means none for Zero and Scale2 and f32 for
// Compute.
//
// Codes are packed as kernels.Convert packs Code (4-bit codes two a byte, low nibble first);
// scales and zero points are little-endian values of their types, group by group, u4 zero
// points packed like u4 codes. The element count need not be a multiple of Group: the last
// group is then shorter, and it has a scale like any other. A tensor of n elements has
// s.Groups(n) scales.
//
// Dequantize takes codes u8, i8, u4, i4, nf4, f4e2m1, f8e4m3 and f8e5m2; scales f16, bf16,
// f32, f8e8m0 and f8e4m3; zero points u8, u4, i8, f16 and f32; any group size. Quantize takes
// the block-scaled schemes (MXFP4, MXFP8E4M3, MXFP8E5M2, NVFP4 and their group sizes).
type Scheme struct {
	Code, Scale  element.Type
	Scale2, Zero element.Type
	Group        int
	// Compute is the type the arithmetic rounds to: element.F16 or element.F32
	// (element.Dynamic, the zero value, is f32).
	Compute element.Type
	// ScalarZero makes the zero point one value for the whole tensor rather than one per group.
	ScalarZero bool
	// Scale2Divides makes the second-level scale divide each group's scale (in float32)
	// rather than multiply it, as compressed-tensors' global scale does.
	Scale2Divides bool
	// E8M0Inf makes the f8e8m0 scale 0xFF stand for 2^128, which is +Inf in float32, as
	// torch.ldexp computes it for gpt-oss's MXFP4 in transformers: the group's nonzero codes are
	// then ±Inf and its zero codes NaN (∞ × 0), where the OCP rule makes the whole group NaN.
	// It needs an f8e8m0 Scale.
	E8M0Inf bool
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

// nncfModes are the weight-compression modes of NNCF, as the decompression subgraph NNCF writes
// into OpenVINO IR computes them (in f16), without their group size.
var nncfModes = [...]struct {
	name string
	s    Scheme
}{
	{"int8_asym", Scheme{Code: element.U8, Zero: element.U8, Scale: element.F16, Compute: element.F16}},
	{"int8_sym", Scheme{Code: element.I8, Scale: element.F16, Compute: element.F16}},
	{"int4_asym", Scheme{Code: element.U4, Zero: element.U4, Scale: element.F16, Compute: element.F16}},
	{"int4_sym", Scheme{Code: element.I4, Scale: element.F16, Compute: element.F16}},
	{"nf4", Scheme{Code: element.NF4, Scale: element.F16, Compute: element.F16}},
	{"fp4", Scheme{Code: element.F4E2M1, Scale: element.F16, Compute: element.F16}},
	{"fp8_e4m3", Scheme{Code: element.F8E4M3, Scale: element.F16, Compute: element.F16}},
	{"mxfp4", Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Compute: element.F16}},
	{"mxfp8_e4m3", Scheme{Code: element.F8E4M3, Scale: element.F8E8M0, Compute: element.F16}},
	{"nvfp4", Scheme{Code: element.F4E2M1, Scale: element.F8E4M3, Scale2: element.F32, Compute: element.F16}},
}

// NNCF returns the scheme of an NNCF weight-compression mode with groups of group elements, as
// the decompression subgraph NNCF writes into OpenVINO IR evaluates it: int8_asym (u8 codes and
// zero points), int8_sym (i8), int4_asym (u4 codes and zero points), int4_sym (i4), nf4, fp4
// (f4e2m1), fp8_e4m3 with an f16 scale; mxfp4 and mxfp8_e4m3 with an f8e8m0 scale; nvfp4 with
// an f8e4m3 scale and an f32 second-level scale; all computed in f16. A per-row mode (int8's
// default) takes the row's length as its group. The MX and NVFP4 modes differ from the schemes
// MXFP4, MXFP8E4M3 and NVFP4 in their arithmetic (f16, and their scale converted to f16 first)
// and, for NVFP4, in the second-level scale.
func NNCF(mode string, group int) (Scheme, error) {
	for _, e := range nncfModes {
		if e.name == strings.ToLower(mode) {
			s := e.s
			s.Group = group
			return s, s.check(false)
		}
	}
	return Scheme{}, errorf(kernels.ErrUnsupported, "quant: unknown NNCF mode %q (valid: int8_asym, int8_sym, int4_asym, int4_sym, nf4, fp4, fp8_e4m3, mxfp4, mxfp8_e4m3, nvfp4)", mode)
}

// norm returns s with an f32 compute type spelled as its zero value, so that two schemes that
// compute alike compare equal.
func (s Scheme) norm() Scheme {
	if s.Compute == element.F32 {
		s.Compute = element.Dynamic
	}
	return s
}

// String returns the name of a named scheme ("mxfp4", "mxfp8e4m3", "mxfp8e5m2", "nvfp4"), the
// mode and group of an NNCF mode ("int4_asym/128"), and otherwise code/scale/group (as
// "f4e2m1/f8e8m0/64") followed by "/zero=" (per group) or "/scalarzero=" (one for the tensor)
// and the zero point's type, "/scale2=" (multiplying) or "/scale2div=" (dividing) and the
// second-level scale's type, "/e8m0inf" and "/compute=f16", for the fields the scheme has.
func (s Scheme) String() string {
	n := s.norm()
	for _, e := range named {
		if e.s == n {
			return e.name
		}
	}
	g := n
	g.Group = 0
	for _, e := range nncfModes {
		if e.s == g {
			return e.name + "/" + strconv.Itoa(s.Group)
		}
	}
	str := fmt.Sprintf("%s/%s/%d", s.Code, s.Scale, s.Group)
	switch {
	case s.Zero != element.Dynamic && s.ScalarZero:
		str += "/scalarzero=" + s.Zero.String()
	case s.Zero != element.Dynamic:
		str += "/zero=" + s.Zero.String()
	}
	switch {
	case s.Scale2 != element.Dynamic && s.Scale2Divides:
		str += "/scale2div=" + s.Scale2.String()
	case s.Scale2 != element.Dynamic:
		str += "/scale2=" + s.Scale2.String()
	}
	if s.E8M0Inf {
		str += "/e8m0inf"
	}
	if n.Compute != element.Dynamic {
		str += "/compute=" + s.Compute.String()
	}
	return str
}

// Parse reads a scheme as String writes it, in any letter case: "mxfp4", "mxfp8e4m3",
// "mxfp8e5m2", "nvfp4"; an NNCF mode and its group, "int4_asym/128" (see NNCF); or
// code/scale/group with optional /zero=TYPE or /scalarzero=TYPE, /scale2=TYPE or
// /scale2div=TYPE, /e8m0inf and /compute=TYPE. A scheme that Dequantize does not take is an
// error wrapping kernels.ErrUnsupported that names the field.
func Parse(str string) (Scheme, error) {
	l := strings.ToLower(str)
	for _, e := range named {
		if e.name == l {
			return e.s, nil
		}
	}
	parts := strings.Split(l, "/")
	syntax := fmt.Errorf("unknown quantization scheme %q (valid: mxfp4, mxfp8e4m3, mxfp8e5m2, nvfp4, an NNCF mode and group such as int4_asym/128, or code/scale/group such as f4e2m1/f8e8m0/32)", str)
	if len(parts) == 2 {
		group, err := strconv.Atoi(parts[1])
		if err != nil {
			return Scheme{}, syntax
		}
		for _, e := range nncfModes {
			if e.name == parts[0] {
				return NNCF(e.name, group)
			}
		}
		return Scheme{}, syntax
	}
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
	seen := map[string]bool{}
	for _, p := range parts[3:] {
		if p == "e8m0inf" && !s.E8M0Inf {
			s.E8M0Inf = true
			continue
		}
		key, val, _ := strings.Cut(p, "=")
		t, err := element.Parse(val)
		if err != nil || t == element.Dynamic || seen[key] || key == "zero" && seen["scalarzero"] || key == "scalarzero" && seen["zero"] || key == "scale2" && seen["scale2div"] || key == "scale2div" && seen["scale2"] {
			return Scheme{}, syntax
		}
		seen[key] = true
		switch key {
		case "zero":
			s.Zero = t
		case "scalarzero":
			s.Zero, s.ScalarZero = t, true
		case "scale2":
			s.Scale2 = t
		case "scale2div":
			s.Scale2, s.Scale2Divides = t, true
		case "compute":
			s.Compute = t
		default:
			return Scheme{}, syntax
		}
	}
	if err := s.check(false); err != nil {
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

// ZeroBytes returns the bytes of the zero points of n elements: none without a zero point type,
// one zero point with ScalarZero, s.Groups(n) otherwise (u4 zero points two a byte).
func (s Scheme) ZeroBytes(n int) int {
	k := s.Groups(n)
	switch {
	case s.Zero == element.Dynamic || n <= 0:
		return 0
	case s.ScalarZero:
		k = 1
	}
	return (k*s.Zero.Bits() + 7) / 8
}

// Scale2Bytes returns the bytes of the second-level scale: 4 for an f32 one, 0 without.
func (s Scheme) Scale2Bytes() int {
	if s.Scale2 == element.Dynamic {
		return 0
	}
	return s.Scale2.Bits() / 8
}

// Alloc returns a Data whose buffers hold n elements of the scheme.
func (s Scheme) Alloc(n int) Data {
	d := Data{Codes: make([]byte, s.CodeBytes(n)), Scales: make([]byte, s.ScaleBytes(n))}
	if b := s.ZeroBytes(n); b > 0 {
		d.Zeros = make([]byte, b)
	}
	if b := s.Scale2Bytes(); b > 0 {
		d.Scale2 = make([]byte, b)
	}
	return d
}

// maxGroup bounds Group so that group arithmetic cannot overflow.
const maxGroup = 1 << 20

// check reports whether the package can dequantize s (see Scheme) and, with encode, quantize
// into it: the block-scaled schemes, codes f4e2m1, f8e4m3 or f8e5m2 with an f8e8m0 scale or
// f4e2m1 with an f8e4m3 scale, computed in f32, without zero point or second-level scale, the
// group even for f4e2m1 so that every group starts on a whole byte. Group must be in
// 1..2^20. Its errors wrap kernels.ErrUnsupported and name the field.
func (s Scheme) check(encode bool) error {
	bad := func(field string, t element.Type, valid string) error {
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: %s %s is not supported (%s)", s, field, t, valid)
	}
	switch {
	case !oneOf(s.Code, element.U8, element.I8, element.U4, element.I4, element.NF4, element.F4E2M1, element.F8E4M3, element.F8E5M2):
		return bad("Code", s.Code, "u8, i8, u4, i4, nf4, f4e2m1, f8e4m3 or f8e5m2")
	case !oneOf(s.Scale, element.F16, element.BF16, element.F32, element.F8E8M0, element.F8E4M3):
		return bad("Scale", s.Scale, "f16, bf16, f32, f8e8m0 or f8e4m3")
	case !oneOf(s.Scale2, element.Dynamic, element.F32):
		return bad("Scale2", s.Scale2, "f32, or none")
	case !oneOf(s.Zero, element.Dynamic, element.U8, element.U4, element.I8, element.F16, element.F32):
		return bad("Zero", s.Zero, "u8, u4, i8, f16 or f32, or none")
	case s.E8M0Inf && s.Scale != element.F8E8M0:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: E8M0Inf with Scale %s (it needs f8e8m0)", s, s.Scale)
	case s.Scale2Divides && s.Scale2 == element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Scale2Divides without a second-level scale type", s)
	case s.ScalarZero && s.Zero == element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: ScalarZero without a zero point type", s)
	case !oneOf(s.Compute, element.Dynamic, element.F16, element.F32):
		return bad("Compute", s.Compute, "f16 or f32")
	case s.Group < 1 || s.Group > maxGroup:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Group %d is not in 1..%d", s, s.Group, maxGroup)
	case !encode:
		return nil
	case s.Zero != element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: quantizing with zero points (Zero %s) is not implemented", s, s.Zero)
	case s.E8M0Inf:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: quantizing with E8M0Inf is not implemented", s)
	case s.Scale2 != element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: quantizing with a second-level scale (Scale2 %s) is not implemented", s, s.Scale2)
	case s.norm().Compute != element.Dynamic:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: quantizing is implemented in f32 only, not Compute %s", s, s.Compute)
	case !(s.Scale == element.F8E8M0 && oneOf(s.Code, element.F4E2M1, element.F8E4M3, element.F8E5M2) || s.Scale == element.F8E4M3 && s.Code == element.F4E2M1):
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: quantizing Code %s with Scale %s is not implemented (f4e2m1, f8e4m3 or f8e5m2 codes with f8e8m0 scales, f4e2m1 with f8e4m3 scales)", s, s.Code, s.Scale)
	case s.Code == element.F4E2M1 && s.Group%2 != 0:
		return errorf(kernels.ErrUnsupported, "quant: scheme %s: Group %d: quantizing f4e2m1 codes needs an even group", s, s.Group)
	}
	return nil
}

// oneOf reports whether t is one of ts.
func oneOf(t element.Type, ts ...element.Type) bool {
	for _, u := range ts {
		if t == u {
			return true
		}
	}
	return false
}

// The NVFP4 weights of Hugging Face checkpoints (docs/SEMANTICS.md §9.7): f4e2m1 codes with an
// f8e4m3 scale per group of 16 and an f32 second-level scale for the tensor, computed in f32.
// NVIDIA ModelOpt multiplies each group's scale by the second-level scale (weight_scale_2);
// compressed-tensors divides it by its global scale (weight_global_scale, the reciprocal of
// ModelOpt's).
var (
	NVFP4ModelOpt          = Scheme{Code: element.F4E2M1, Scale: element.F8E4M3, Scale2: element.F32, Group: 16}
	NVFP4CompressedTensors = Scheme{Code: element.F4E2M1, Scale: element.F8E4M3, Scale2: element.F32, Scale2Divides: true, Group: 16}
)

// MXFP4Transformers is gpt-oss's MXFP4 as transformers dequantizes it (docs/SEMANTICS.md §9.7):
// MXFP4 but for the scale 0xFF, 2^128 (see E8M0Inf).
var MXFP4Transformers = Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, E8M0Inf: true, Group: 32}
