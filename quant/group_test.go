package quant_test

// Grouped weights (docs/SEMANTICS.md §9.5): Dequantize against a reference that follows the
// formula step by step, written apart from the package: codes, zero points and scales are
// decoded from their bit fields here, rounding to f16 is github.com/x448/float16's, to bf16
// this file's, and the difference and product are float32 arithmetic, as OpenVINO computes its
// f16 Subtract and Multiply.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// nf4Values are the 16 values of NormalFloat4 as QLoRA publishes them.
var nf4Values = [16]float32{-1, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453,
	-0.28444138169288635, -0.18477343022823334, -0.09105003625154495, 0, 0.07958029955625534,
	0.16093020141124725, 0.24611230194568634, 0.33791524171829224, 0.44070982933044434,
	0.5626170039176941, 0.7229568362236023, 1}

var f4Values = [8]float32{0, 0.5, 1, 1.5, 2, 3, 4, 6}

// refDecode returns the value of the code (or raw bits) c of type t.
func refDecode(t element.Type, c uint32) float32 {
	switch t {
	case element.U8, element.U4:
		return float32(c)
	case element.I8:
		return float32(int8(uint8(c)))
	case element.I4:
		return float32(int32(c<<28) >> 28)
	case element.NF4:
		return nf4Values[c]
	case element.F4E2M1:
		return float32(math.Copysign(float64(f4Values[c&7]), -float64(c>>3&1)*2+1))
	case element.F8E4M3:
		e, m := int(c>>3&0xF), float64(c&7)
		var v float64
		switch {
		case e == 15 && m == 7:
			v = math.NaN()
		case e == 0:
			v = math.Ldexp(m, -9)
		default:
			v = math.Ldexp(1+m/8, e-7)
		}
		if c&0x80 != 0 {
			v = -v
		}
		return float32(v)
	case element.F8E5M2:
		return float16.Frombits(uint16(c) << 8).Float32()
	case element.F8E8M0:
		if c == 0xFF {
			return float32(math.NaN())
		}
		return float32(math.Ldexp(1, int(c)-127))
	case element.F16:
		return float16.Frombits(uint16(c)).Float32()
	case element.BF16:
		return math.Float32frombits(c << 16)
	}
	return math.Float32frombits(c) // f32
}

// refRound rounds a non-NaN float32 to f16 (through x448/float16) when f16 is set.
func refRound(v float32, f16 bool) float32 {
	if f16 {
		return float16.Fromfloat32(v).Float32()
	}
	return v
}

const canonicalNaN = 0x7FC00000

// refElement is one element's value in the compute type (a NaN as its float32 bits: the
// canonical NaN, or a NaN code's own), from the code, zero-point and scale bits of scheme s.
func refElement(s quant.Scheme, code uint32, zero, scale uint32, scale2 float32) float32 {
	f16 := s.Compute == element.F16
	sv := refDecode(s.Scale, scale)
	if s.Scale2 != element.Dynamic && !math.IsNaN(float64(sv)) {
		sv *= scale2
	}
	var zv float32
	if s.Zero != element.Dynamic {
		zv = refDecode(s.Zero, zero)
	}
	cv := refDecode(s.Code, code)
	switch {
	case math.IsNaN(float64(sv)) || math.IsNaN(float64(zv)):
		return math.Float32frombits(canonicalNaN)
	case math.IsNaN(float64(cv)):
		return cv
	}
	sv, zv, cv = refRound(sv, f16), refRound(zv, f16), refRound(cv, f16)
	d := cv - zv
	if math.IsNaN(float64(d)) {
		return math.Float32frombits(canonicalNaN)
	}
	y := refRound(d, f16) * sv
	if math.IsNaN(float64(y)) {
		return math.Float32frombits(canonicalNaN)
	}
	return refRound(y, f16)
}

// refBits converts a non-NaN compute value to the bits of to.
func refBits(to element.Type, v float32) uint32 {
	switch to {
	case element.F32:
		return math.Float32bits(v)
	case element.F16:
		return uint32(float16.Fromfloat32(v).Bits())
	}
	b := math.Float32bits(v)
	return (b + 0x7FFF + (b >> 16 & 1)) >> 16
}

// groupCase is a tensor of one scheme: each group holds every code of the code type once (or
// count codes drawn at random), with the group's zero point and scale from the lists.
type groupCase struct {
	s             quant.Scheme
	zeros, scales []uint32 // raw bits, one entry per group
	scale2        float32
}

// pack writes v (bits of t) as element i of b.
func pack(b []byte, t element.Type, i int, v uint32) {
	switch t.Bits() {
	case 4:
		b[i/2] |= byte(v&0xF) << (4 * (i % 2))
	case 8:
		b[i] = byte(v)
	case 16:
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	default:
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
}

// check dequantizes the case to f32, f16 and bf16 and compares every element with the
// reference.
func (c groupCase) check(t *testing.T, r *rand.Rand) {
	t.Helper()
	s := c.s
	k := 1 << s.Code.Bits()
	groups := len(c.scales)
	n := s.Group * groups
	q := s.Alloc(n)
	codes := make([]uint32, n)
	for i := range codes {
		codes[i] = uint32(i % s.Group % k)
		if s.Group > k || s.Group%k != 0 {
			codes[i] = uint32(r.IntN(k))
		}
		pack(q.Codes, s.Code, i, codes[i])
	}
	for g := range groups {
		pack(q.Scales, s.Scale, g, c.scales[g])
		if s.Zero != element.Dynamic && (!s.ScalarZero || g == 0) {
			pack(q.Zeros, s.Zero, g, c.zeros[g])
		}
	}
	if s.Scale2 != element.Dynamic {
		binary.LittleEndian.PutUint32(q.Scale2, math.Float32bits(c.scale2))
	}
	want := make([]float32, n)
	for i := range want {
		g := i / s.Group
		want[i] = refElement(s, codes[i], zeroOf(c, g), c.scales[g], c.scale2)
	}
	for _, to := range []element.Type{element.F32, element.F16, element.BF16} {
		dst := make([]byte, n*to.Bits()/8)
		if err := quant.Dequantize(dst, to, q, s, n); err != nil {
			t.Fatalf("%s → %s: %v", s, to, err)
		}
		bad := 0
		for i, w := range want {
			var got uint32
			if to == element.F32 {
				got = binary.LittleEndian.Uint32(dst[4*i:])
			} else {
				got = uint32(binary.LittleEndian.Uint16(dst[2*i:]))
			}
			g := i / s.Group
			if math.IsNaN(float64(w)) {
				// The canonical NaN exactly; a NaN code's own NaN by its sign (its payload is
				// kernels.Convert's, which the block tests check).
				sign := uint32(math.Float32bits(w) >> 31)
				ok := isNaNBits(to, got) && got>>(to.Bits()-1) == sign
				if math.Float32bits(w) == canonicalNaN {
					ok = got == refNaN(to)
				}
				if !ok && bad < 5 {
					t.Errorf("%s → %s, element %d (code %#x, zero %#x, scale %#x): %#x, want a NaN (%#x)", s, to, i, codes[i], zeroOf(c, g), c.scales[g], got, math.Float32bits(w))
					bad++
				}
				continue
			}
			if rb := refBits(to, w); got != rb && bad < 5 {
				t.Errorf("%s → %s, element %d (code %#x, zero %#x, scale %#x): %#x, want %#x (%g)", s, to, i, codes[i], zeroOf(c, g), c.scales[g], got, rb, w)
				bad++
			}
		}
	}
}

func zeroOf(c groupCase, g int) uint32 {
	switch {
	case c.zeros == nil:
		return 0
	case c.s.ScalarZero:
		return c.zeros[0]
	}
	return c.zeros[g]
}

func isNaNBits(to element.Type, b uint32) bool {
	switch to {
	case element.F32:
		return b&0x7FFFFFFF > 0x7F800000
	case element.F16:
		return b&0x7FFF > 0x7C00
	}
	return b&0x7FFF > 0x7F80
}

func refNaN(to element.Type) uint32 {
	switch to {
	case element.F32:
		return canonicalNaN
	case element.F16:
		return 0x7E00
	}
	return 0x7FC0
}

// sweep returns the bit patterns of a scale or zero-point type to test: every pattern of an
// 8-bit type; for wider ones, the special values and count random patterns (every f16 pattern
// when count is 1<<16).
func sweep(t element.Type, count int, r *rand.Rand) []uint32 {
	switch {
	case t.Bits() <= 8:
		out := make([]uint32, 1<<t.Bits())
		for i := range out {
			out[i] = uint32(i)
		}
		return out
	case t.Bits() == 16 && count >= 1<<16:
		out := make([]uint32, 1<<16)
		for i := range out {
			out[i] = uint32(i)
		}
		return out
	}
	var special []uint32
	if t == element.F32 {
		special = []uint32{0, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x7F7FFFFF, 0x3DCCCCCD, 0x477FE000, 0x477FF000}
	} else {
		special = []uint32{0, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x7BFF, 0x2E66, 0x7F80, 0x3F80}
	}
	out := append([]uint32(nil), special...)
	mask := uint32(1)<<t.Bits() - 1
	for range count {
		out = append(out, r.Uint32()&mask)
	}
	return out
}

// cross returns the cases of scheme s for every pair of zero point (or none) and scale.
func cross(s quant.Scheme, zeros, scales []uint32, scale2 float32) groupCase {
	c := groupCase{s: s, scale2: scale2}
	if s.Zero == element.Dynamic || s.ScalarZero {
		c.scales = scales
		if s.ScalarZero {
			c.zeros = zeros[:1]
		}
		return c
	}
	for _, z := range zeros {
		for _, sc := range scales {
			c.zeros = append(c.zeros, z)
			c.scales = append(c.scales, sc)
		}
	}
	return c
}

// TestGroupReference checks Dequantize against the reference for every code type, zero-point
// type, scale type, compute type and destination, every code in every group, and for each of
// those: every zero point of an 8-bit or 4-bit type, every scale of an 8-bit type, and special
// and random scales and zero points of the wider types (every f16 scale of int4_asym, int4_sym
// and int8_sym in the full run).
func TestGroupReference(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 27))
	wide := 48
	if testing.Short() {
		wide = 12
	}
	codeTypes := []element.Type{element.U8, element.I8, element.U4, element.I4, element.NF4, element.F4E2M1, element.F8E4M3, element.F8E5M2}
	zeroTypes := []element.Type{element.Dynamic, element.U8, element.U4, element.I8, element.F16, element.F32}
	scaleTypes := []element.Type{element.F16, element.BF16, element.F32, element.F8E8M0, element.F8E4M3}
	var cases []groupCase
	for _, compute := range []element.Type{element.F16, element.F32} {
		// Every code type, with and without a u8 zero point, f16 scales.
		for _, code := range codeTypes {
			for _, zero := range []element.Type{element.Dynamic, element.U8} {
				s := quant.Scheme{Code: code, Scale: element.F16, Zero: zero, Compute: compute, Group: 1 << code.Bits()}
				cases = append(cases, cross(s, sweep(element.U8, 0, r)[:16:16], sweep(element.F16, wide, r), 0))
			}
		}
		// Every zero-point type (and a scalar one) with u4 and u8 codes.
		for _, code := range []element.Type{element.U4, element.U8} {
			for _, zero := range zeroTypes[1:] {
				for _, scalar := range []bool{false, true} {
					s := quant.Scheme{Code: code, Scale: element.F16, Zero: zero, ScalarZero: scalar, Compute: compute, Group: 1 << code.Bits()}
					zs := sweep(zero, wide, r)
					if zero.Bits() == 8 {
						zs = zs[:64]
					}
					cases = append(cases, cross(s, zs, sweep(element.F16, wide/4, r), 0))
				}
			}
		}
		// Every scale type, and NVFP4's f8e4m3 scale with an f32 second-level scale, with u4
		// and f4e2m1 codes.
		for _, code := range []element.Type{element.U4, element.F4E2M1} {
			for _, scale := range scaleTypes {
				s := quant.Scheme{Code: code, Scale: scale, Compute: compute, Group: 16}
				cases = append(cases, cross(s, nil, sweep(scale, wide, r), 0))
			}
			s := quant.Scheme{Code: code, Scale: element.F8E4M3, Scale2: element.F32, Compute: compute, Group: 16}
			for _, s2 := range []float32{1, 1.0 / 3, 1e-6, 3e4, float32(math.Inf(1)), 0} {
				cases = append(cases, cross(s, nil, sweep(element.F8E4M3, 0, r), s2))
			}
		}
	}
	// Groups smaller than the code count, odd groups and a partial last group take the
	// element-by-element route.
	for _, g := range []int{1, 3, 7, 33} {
		s := quant.Scheme{Code: element.U4, Zero: element.U4, Scale: element.F16, Compute: element.F16, Group: g}
		cases = append(cases, cross(s, sweep(element.U4, 0, r), sweep(element.F16, 8, r), 0))
		s = quant.Scheme{Code: element.F8E4M3, Scale: element.F8E8M0, Compute: element.F16, Group: g}
		cases = append(cases, cross(s, nil, sweep(element.F8E8M0, 0, r), 0))
	}
	// Every f16 scale for the NNCF integer modes in the full run.
	if !testing.Short() {
		for _, mode := range []string{"int4_asym", "int4_sym", "int8_sym"} {
			s, err := quant.NNCF(mode, 16)
			if err != nil {
				t.Fatal(err)
			}
			zeros := sweep(element.U4, 0, r)
			if s.Zero == element.Dynamic {
				zeros = nil
			}
			s.Group = 1 << s.Code.Bits()
			cases = append(cases, cross(s, zeros, sweep(element.F16, 1<<16, r), 0))
		}
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d-groups", c.s, len(c.scales)), func(t *testing.T) {
			c.check(t, rand.New(rand.NewPCG(uint64(len(c.scales)), 1)))
		})
	}
}

// TestGroupValues pins hand-computed elements of OpenVINO's f16 arithmetic.
func TestGroupValues(t *testing.T) {
	int4asym, _ := quant.NNCF("int4_asym", 2)
	f16 := func(v float32) []byte { return binary.LittleEndian.AppendUint16(nil, kernels.F16FromF32(v)) }
	cases := []struct {
		name string
		s    quant.Scheme
		q    quant.Data
		to   element.Type
		n    int
		want []uint32
	}{
		// Codes 15 and 0, zero point 8, scale f16(0.1) = 0.0999755859375: 7 × that rounds to
		// f16 0.69970703125 (0x3999), −8 × it is exactly −0.7998046875 (0xBA66).
		{"int4_asym", int4asym, quant.Data{Codes: []byte{0x0F}, Scales: f16(0.1), Zeros: []byte{0x08}}, element.F16, 2, []uint32{0x3999, 0xBA66}},
		// The same to f32: the f16 values, exactly.
		{"int4_asym to f32", int4asym, quant.Data{Codes: []byte{0x0F}, Scales: f16(0.1), Zeros: []byte{0x08}}, element.F32, 2, []uint32{0x3F332000, 0xBF4CC000}},
		// In f32 the product 7 × 0.0999755859375 = 0.6998291015625 is kept.
		{"u4 asym in f32", quant.Scheme{Code: element.U4, Zero: element.U4, Scale: element.F16, Group: 2}, quant.Data{Codes: []byte{0x0F}, Scales: f16(0.1), Zeros: []byte{0x08}}, element.F32, 2, []uint32{0x3F332800, 0xBF4CC000}},
		// An f8e8m0 scale of 2^17 is +Inf in f16: every product of a non-zero code is ±Inf,
		// and code 0 makes 0 × Inf, the quiet NaN.
		{"mxfp4 in f16, large scale", quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Compute: element.F16, Group: 2}, quant.Data{Codes: []byte{0x90}, Scales: []byte{0x90}}, element.F16, 2, []uint32{0x7E00, 0xFC00}},
		// The block format computes in f32: 2^17 · 0 = 0, −0.5 · 2^17 = −65536 → f16 −Inf.
		{"mxfp4, large scale", quant.MXFP4, quant.Data{Codes: []byte{0x90}, Scales: []byte{0x90}}, element.F16, 2, []uint32{0x0000, 0xFC00}},
		// nf4 code 8 (0.07958029955625534) rounds to f16 0.07958984375 (0x2D18) before the
		// product; scale 1.
		{"nf4 in f16", quant.Scheme{Code: element.NF4, Scale: element.F16, Compute: element.F16, Group: 1}, quant.Data{Codes: []byte{0x08}, Scales: f16(1)}, element.F32, 1, []uint32{0x3DA30000}},
		// A scalar u8 zero point 128 for every group (NNCF 2.8's int8_sym), two groups.
		{"scalar zero point", quant.Scheme{Code: element.U8, Zero: element.U8, ScalarZero: true, Scale: element.F16, Compute: element.F16, Group: 1}, quant.Data{Codes: []byte{129, 127}, Scales: append(f16(2), f16(-3)...), Zeros: []byte{128}}, element.F16, 2, []uint32{0x4000, 0x4200}},
	}
	for _, c := range cases {
		dst := make([]byte, c.n*c.to.Bits()/8)
		if err := quant.Dequantize(dst, c.to, c.q, c.s, c.n); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for i, w := range c.want {
			var got uint32
			if c.to == element.F32 {
				got = binary.LittleEndian.Uint32(dst[4*i:])
			} else {
				got = uint32(binary.LittleEndian.Uint16(dst[2*i:]))
			}
			if got != w {
				t.Errorf("%s, element %d: %#x, want %#x", c.name, i, got, w)
			}
		}
	}
}

// TestNNCFModes: each mode parses from mode/group and prints back as it.
func TestNNCFModes(t *testing.T) {
	for _, mode := range []string{"int8_asym", "int8_sym", "int4_asym", "int4_sym", "nf4", "fp4", "fp8_e4m3", "mxfp4", "mxfp8_e4m3", "nvfp4"} {
		s, err := quant.NNCF(mode, 128)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		name := mode + "/128"
		if s.String() != name || s.Compute != element.F16 {
			t.Errorf("NNCF(%s, 128) = %v (compute %s)", mode, s, s.Compute)
		}
		if p, err := quant.Parse(name); err != nil || p != s {
			t.Errorf("Parse(%q) = %v, %v", name, p, err)
		}
	}
	if _, err := quant.NNCF("int3_asym", 128); err == nil {
		t.Error("NNCF accepts int3_asym")
	}
	if s, _ := quant.NNCF("mxfp4", 32); s == quant.MXFP4 || s.String() == quant.MXFP4.String() {
		t.Error("NNCF's mxfp4 (f16) is the block format MXFP4 (f32)")
	}
}

// FuzzDequantizeGroups checks Dequantize against the reference for any scheme Dequantize takes,
// with the zero points, scales and second-level scale taken from the input's bytes.
func FuzzDequantizeGroups(f *testing.F) {
	f.Add(uint8(2), uint8(2), uint8(0), true, false, uint16(128), []byte{0x66, 0x2e, 0x08, 0x01, 0x3c, 0xff})
	f.Add(uint8(5), uint8(0), uint8(3), false, false, uint16(32), []byte{0x90, 0x7f, 0xff})
	f.Add(uint8(0), uint8(1), uint8(4), true, true, uint16(3), []byte{0x40, 0x00, 0x80, 0x3f, 0x7f})
	f.Fuzz(func(t *testing.T, ci, zi, si uint8, f16, scalar bool, group uint16, data []byte) {
		codeTypes := []element.Type{element.U8, element.I8, element.U4, element.I4, element.NF4, element.F4E2M1, element.F8E4M3, element.F8E5M2}
		zeroTypes := []element.Type{element.Dynamic, element.U8, element.U4, element.I8, element.F16, element.F32}
		scaleTypes := []element.Type{element.F16, element.BF16, element.F32, element.F8E8M0, element.F8E4M3}
		s := quant.Scheme{
			Code:  codeTypes[int(ci)%len(codeTypes)],
			Zero:  zeroTypes[int(zi)%len(zeroTypes)],
			Scale: scaleTypes[int(si)%len(scaleTypes)],
			Group: 1 + int(group)%300,
		}
		if f16 {
			s.Compute = element.F16
		}
		s.ScalarZero = scalar && s.Zero != element.Dynamic
		if s.Scale == element.F8E4M3 && scalar {
			s.Scale2 = element.F32
		}
		next := func(bits int) uint32 { // the input's next bytes as a value of bits bits
			var v uint32
			for k := 0; k < (bits+7)/8; k++ {
				v <<= 8
				if len(data) > 0 {
					v |= uint32(data[0])
					data = data[1:]
				}
			}
			return v & (1<<bits - 1)
		}
		c := groupCase{s: s, scale2: math.Float32frombits(next(32))}
		for range 1 + int(group)%5 {
			c.scales = append(c.scales, next(s.Scale.Bits()))
			if s.Zero != element.Dynamic {
				c.zeros = append(c.zeros, next(s.Zero.Bits()))
			}
		}
		c.check(t, rand.New(rand.NewPCG(uint64(group), uint64(ci))))
	})
}
