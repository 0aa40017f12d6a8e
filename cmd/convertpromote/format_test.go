package main

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
)

// narrowTypes are the float types that formatValue formats through a table of their codes.
var narrowTypes = []element.Type{element.F16, element.BF16, element.F8E4M3, element.F8E5M2,
	element.F8E4M3FNUZ, element.F8E5M2FNUZ, element.F8E8M0, element.F4E2M1, element.NF4}

// codeValue is one code of a type and its exact value.
type codeValue struct {
	code uint64
	v    float64
}

// reference rounds exact rationals into one narrow float type by brute force: the nearest of
// all its finite values (ties to the even code), or for nf4 the thresholds of §3.6. It shares
// nothing with the formatter but the decoded values of the codes.
type reference struct {
	t        element.Type
	pos, neg []codeValue // the values a positive (negative) rational may round to, ascending
}

func newReference(t *testing.T, typ element.Type) *reference {
	t.Helper()
	n := 1 << typ.Bits()
	vals := make([]float64, n)
	for c := range n {
		var x op.Tensor
		var err error
		if typ.Bits() == 16 {
			x, err = op.FromBits(typ, []int64{1}, []uint16{uint16(c)})
		} else {
			x, err = op.FromCodes(typ, []int64{1}, []uint8{uint8(c)})
		}
		if err != nil {
			t.Fatal(err)
		}
		f, err := x.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		vals[c] = f[0]
	}
	r := &reference{t: typ}
	f, _ := typ.FloatFormat()
	var sign uint64
	if f.SignBit {
		sign = 1 << (typ.Bits() - 1)
	}
	maxCode, maxV := uint64(0), 0.0
	for c, v := range vals {
		code := uint64(c)
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			continue
		case v > 0 || v == 0 && code&sign == 0:
			r.pos = append(r.pos, codeValue{code, v})
		}
		if v < 0 || v == 0 && (code&sign != 0 || f.NoNegativeZero) {
			r.neg = append(r.neg, codeValue{code, v})
		}
		if v > maxV {
			maxCode, maxV = code, v
		}
	}
	if typ != element.NF4 {
		// The value the type would have one step above its largest: a rational nearer to it
		// than to the largest does not read back. Its code has the parity the next code would.
		_, e := math.Frexp(maxV)
		step := math.Ldexp(1, e-1-f.MantBits)
		r.pos = append(r.pos, codeValue{maxCode + 1, maxV + step})
		if sign != 0 {
			r.neg = append(r.neg, codeValue{(maxCode + 1) | sign, -(maxV + step)})
		}
	}
	for _, s := range [][]codeValue{r.pos, r.neg} {
		sort.Slice(s, func(i, j int) bool { return s[i].v < s[j].v })
	}
	return r
}

// round returns the code the non-zero rational x rounds to.
func (r *reference) round(x *big.Rat) uint64 {
	if r.t == element.NF4 {
		code := uint64(0)
		for _, m := range element.NF4Midpoints {
			if x.Cmp(new(big.Rat).SetFloat64(m)) > 0 {
				code++
			}
		}
		return code
	}
	s := r.pos
	if x.Sign() < 0 {
		s = r.neg
	}
	approx, _ := x.Float64()
	i := sort.Search(len(s), func(i int) bool { return s[i].v >= approx })
	lo, hi := max(i-2, 0), min(i+2, len(s))
	// Nearest by float64 distances when the nearest is clear by far more than their error;
	// otherwise (a tie or close to one) by exact distances.
	first, second := -1, -1
	for k := lo; k < hi; k++ {
		d := math.Abs(approx - s[k].v)
		switch {
		case first < 0 || d < math.Abs(approx-s[first].v):
			first, second = k, first
		case second < 0 || d < math.Abs(approx-s[second].v):
			second = k
		}
	}
	if second < 0 || math.Abs(approx-s[second].v)-math.Abs(approx-s[first].v) > 1e-9*math.Abs(approx) {
		return s[first].code
	}
	best, bestD := uint64(0), (*big.Rat)(nil)
	for k := lo; k < hi; k++ {
		d := new(big.Rat).Sub(x, new(big.Rat).SetFloat64(s[k].v))
		d.Abs(d)
		if bestD == nil || d.Cmp(bestD) < 0 || d.Cmp(bestD) == 0 && s[k].code&1 == 0 {
			best, bestD = s[k].code, d
		}
	}
	return best
}

// TestFormatNarrowExact checks every code of every narrow float type: the printed value reads
// back as a float32 to the code's value exactly (the sign of zero included), and, rounded to
// nearest into the type by brute force, to the same code.
func TestFormatNarrowExact(t *testing.T) {
	for _, ty := range narrowTypes {
		ref := newReference(t, ty)
		bad := 0
		for c := uint64(0); c < 1<<ty.Bits() && bad < 10; c++ {
			v := narrowFloats(ty).values[c]
			s := formatValue(ty, c)
			f, err := strconv.ParseFloat(s, 32)
			switch {
			case err != nil:
				t.Errorf("%s 0x%x: printed %q: %v", ty, c, s, err)
				bad++
				continue
			case math.IsNaN(v):
				if s != "NaN" {
					t.Errorf("%s 0x%x: printed %q, want NaN", ty, c, s)
					bad++
				}
				continue
			case math.Float32bits(float32(f)) != math.Float32bits(float32(v)):
				t.Errorf("%s 0x%x (%g): printed %q, which reads back as %g", ty, c, v, s, f)
				bad++
				continue
			case math.IsInf(v, 0) || v == 0:
				continue
			}
			r, ok := new(big.Rat).SetString(s)
			if !ok {
				t.Errorf("%s 0x%x: printed %q, not a decimal", ty, c, s)
				bad++
				continue
			}
			if back := ref.round(r); back != c {
				t.Errorf("%s 0x%x (%g): printed %q, which rounds to 0x%x", ty, c, v, s, back)
				bad++
			}
		}
	}
}

// TestFormatReadsBackThroughConvert: the value convert prints for a code, given back to convert
// as a VALUE of the same type, gives the same code (the library's own reading of decimals, under
// each rule set), for every finite code of f16, bf16, the 8-bit floats, f4e2m1 and nf4, and for
// the infinities except under ONNX's saturating Cast.
func TestFormatReadsBackThroughConvert(t *testing.T) {
	for _, set := range []kernels.RuleSet{kernels.OpenVINO, kernels.ONNX, kernels.MLDtypes} {
		conv := kernels.Converter{Rules: kernels.Rules{Set: set}}
		for _, ty := range narrowTypes {
			n := 1 << ty.Bits()
			words := make([]string, n)
			for c := range n {
				words[c] = formatValue(ty, uint64(c))
			}
			x, err := sourceTensor(conv, ty, words, false, func(i int) string { return words[i] })
			if err != nil {
				t.Fatalf("%s, %s rules: %v", ty, set, err)
			}
			var got []uint64
			if ty.Bits() == 16 {
				b, _ := x.Bits16()
				for _, v := range b {
					got = append(got, uint64(v))
				}
			} else {
				b, _ := x.Codes()
				for _, v := range b {
					got = append(got, uint64(v))
				}
			}
			bad := 0
			for c := range n {
				v := narrowFloats(ty).values[c]
				if math.IsNaN(v) || got[c] == uint64(c) || math.IsInf(v, 0) && set == kernels.ONNX {
					continue // ONNX's saturating Cast reads inf into f8e5m2 as its largest value
				}
				if v == 0 && narrowFloats(ty).values[got[c]] == 0 && ty.IsFNUZ() {
					continue // FNUZ has no -0
				}
				if bad++; bad <= 10 {
					t.Errorf("%s, %s rules, 0x%x: printed %q, which convert reads as 0x%x", ty, set, c, words[c], got[c])
				}
			}
		}
	}
}

// TestFormatValue pins the rule on chosen values of every kind.
func TestFormatValue(t *testing.T) {
	cases := []struct {
		t    element.Type
		bits uint64
		want string
	}{
		{element.F16, 0x7bff, "65504"},
		{element.F16, 0xfbff, "-65504"},
		{element.F16, 0x2400, "0.015625"},
		{element.F16, 0x0001, "5.9604645e-08"},
		{element.F16, 0x3c00, "1"},
		{element.F16, 0x8000, "-0"},
		{element.F16, 0x7e00, "NaN"},
		{element.F16, 0xfc00, "-Inf"},
		{element.BF16, 0x3c00, "0.0078125"},
		{element.BF16, 0x3f85, "1.0390625"},
		{element.F8E4M3, 0x7e, "448"},
		{element.F8E4M3, 0x38, "1"},
		{element.F8E4M3, 0x01, "0.001953125"},
		{element.F8E4M3, 0x7f, "NaN"},
		{element.F8E5M2, 0x7b, "57344"},
		{element.F8E5M2, 0x7c, "+Inf"},
		{element.F8E4M3FNUZ, 0x80, "NaN"},
		{element.F8E8M0, 0x7f, "1"},
		{element.F8E8M0, 0x80, "2"},
		{element.F8E8M0, 0x90, "131072"},
		{element.F8E8M0, 0x00, "5.877472e-39"},
		{element.F8E8M0, 0xff, "NaN"},
		{element.F4E2M1, 0x7, "6"},
		{element.F4E2M1, 0x1, "0.5"},
		{element.F4E2M1, 0x8, "-0"},
		{element.NF4, 0x8, "0.0795803"},
		{element.NF4, 0x0, "-1"},
		{element.NF4, 0x7, "0"},
		{element.F32, uint64(math.Float32bits(0.1)), "0.1"},
		{element.F32, uint64(math.Float32bits(math.MaxFloat32)), "3.4028235e+38"},
		{element.F64, math.Float64bits(0.1), "0.1"},
		{element.I8, 0x80, "-128"},
		{element.I4, 0xf, "-1"},
		{element.U64, math.MaxUint64, "18446744073709551615"},
		{element.U3, 5, "5"},
		{element.Boolean, 7, "true"},
		{element.Boolean, 0, "false"},
	}
	for _, c := range cases {
		if got := formatValue(c.t, c.bits); got != c.want {
			t.Errorf("formatValue(%s, 0x%x) = %q, want %q", c.t, c.bits, got, c.want)
		}
	}
}

// tn builds a tensor over data, which must be the exact packed size.
func tn(typ element.Type, shape []int64, data []byte) op.Tensor {
	t, err := op.FromBytes(typ, shape, data)
	if err != nil {
		panic(err)
	}
	return t
}

func TestFormatValues(t *testing.T) {
	f32 := func(v ...float32) []byte { return kernels.AsBytes(v) }
	cases := []struct {
		t    op.Tensor
		n    int
		want string
	}{
		{tn(element.F32, []int64{3}, f32(0.1, float32(math.Inf(-1)), float32(math.NaN()))), 8, "0.1 -Inf NaN"},
		{tn(element.F64, []int64{1}, kernels.AsBytes([]float64{0.1})), 8, "0.1"},
		{tn(element.U64, []int64{2}, kernels.AsBytes([]uint64{math.MaxUint64, 3})), 1, "18446744073709551615"},
		{tn(element.I4, []int64{3}, []byte{0xF8, 0x07}), 8, "-8 -1 7"},
		{tn(element.I4, []int64{3}, []byte{0xF8, 0x07}), -1, "-8 -1 7"},
		{tn(element.U3, []int64{8}, []byte{0x1B, 0x00, 0x00}), 4, "0 1 2 3"},
		{tn(element.Boolean, []int64{}, []byte{7}), 8, "true"},
		{tn(element.NF4, []int64{2}, []byte{0xF0}), 8, "-1 1"},
		{tn(element.F16, []int64{2}, kernels.AsBytes([]uint16{0x7bff, 0x3c00})), 8, "65504 1"},
		{tn(element.C32, []int64{1}, kernels.AsBytes([]uint16{0x7bff, 0xbc00})), 8, "(65504-1i)"},
		{tn(element.C64, []int64{1}, f32(1.5, 0.1)), 8, "(1.5+0.1i)"},
		{tn(element.C128, []int64{1}, kernels.AsBytes([]float64{math.Copysign(0, -1), math.Inf(1)})), 8, "(-0+Infi)"},
		{tn(element.F32, []int64{0}, nil), 8, ""},
		{tn(element.F32, []int64{2}, f32(1, 2)), 0, ""},
	}
	for _, c := range cases {
		got, err := formatValues(c.t, c.n)
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%s%v, %d: %q %v, want %q", c.t.Type(), c.t.Shape(), c.n, got, err, c.want)
		}
	}
	if _, err := formatValues(op.Tensor{}, 1); err == nil {
		t.Errorf("the zero op.Tensor formatted without an error")
	}
}

// TestOneFormatterForEveryCommand: convert, block and ir run print the same f16 value alike.
func TestOneFormatterForEveryCommand(t *testing.T) {
	if code, out, errs := cli(t, "", "convert", "--from", "f16", "--to", "f16", "--bits", "0x7bff", "0x7b00"); code != 0 || out != "65504\t0x7bff\n57344\t0x7b00\n" {
		t.Errorf("convert: exit %d, %q %q", code, out, errs)
	}
	// 448 · 2^7 = 57344 in f16 (0x7b00).
	if code, out, errs := cli(t, "", "block", "--format", "mxfp8e4m3", "--to", "f16", "--scale", "0x86", "0x7e"); code != 0 || !strings.HasSuffix(out, "\t57344\t0x7b00\n") {
		t.Errorf("block: exit %d, %q %q", code, out, errs)
	}
	// f8_consts.xml converts the f8e5m2 57344 (0x7b) to f16.
	code, out, errs := cli(t, "", "ir", "run", irTestdata("f8_consts.xml"))
	if code != 0 || !strings.Contains(out, "e4m3_e5m2:1  f16[8]  1, 57344, +Inf") {
		t.Errorf("ir run: exit %d, %q %q", code, out, errs)
	}
}
