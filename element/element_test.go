package element

import (
	"math"
	"strings"
	"testing"
)

func TestParseCanonicalAndIRSpellings(t *testing.T) {
	cases := map[string]Type{
		"dynamic": Dynamic, "UNSPECIFIED": Dynamic, "undefined": Dynamic,
		"boolean": Boolean, "BOOL": Boolean, "bool": Boolean, // BOOL, case-insensitively
		"bf16": BF16, "BF16": BF16, "f16": F16, "FP16": F16, "fp16": F16, "f32": F32, "FP32": F32,
		"f64": F64, "FP64": F64, "i4": I4, "I4": I4, "i8": I8, "I16": I16, "i32": I32, "I64": I64,
		"u1": U1, "BIN": U1, "bin": U1, "U1": U1, "u2": U2, "U3": U3, "u4": U4, "U6": U6, "u8": U8,
		"U16": U16, "u32": U32, "U64": U64, "nf4": NF4, "NF4": NF4, "f8e4m3": F8E4M3,
		"F8E4M3": F8E4M3, "f8e5m2": F8E5M2, "F8E8M0": F8E8M0, "f4e2m1": F4E2M1, "STRING": String,
		"string": String, "c32": C32, "c64": C64, "C128": C128, " f32 ": F32,
	}
	for in, want := range cases {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseUnknownQuotesAndLists(t *testing.T) {
	_, err := Parse("f33")
	if err == nil {
		t.Fatal("Parse(f33) succeeded")
	}
	msg := err.Error()
	for _, want := range []string{`"f33"`, "f32", "nf4", "f8e4m3", "boolean"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

func TestNamesRoundTrip(t *testing.T) {
	for _, ty := range All() {
		for _, s := range []string{ty.String(), ty.IRPrecision(), strings.ToUpper(ty.String())} {
			got, err := Parse(s)
			if err != nil || got != ty {
				t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, ty)
			}
		}
		b, err := ty.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Type
		if err := back.UnmarshalText(b); err != nil || back != ty {
			t.Errorf("text round trip of %v gave %v, %v", ty, back, err)
		}
	}
	if n := len(All()); n != 31 {
		t.Errorf("%d types, want 26 of OpenVINO + 3 complex + 2 FNUZ = 31", n)
	}
	for s, want := range map[string]Type{"float8_e4m3fnuz": F8E4M3FNUZ, "float8_e5m2fnuz": F8E5M2FNUZ, "F8E4M3FNUZ": F8E4M3FNUZ} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
}

// TestOpenVINOTable checks each type against OpenVINO's element type table
// (src/core/src/type/element_type.cpp: bitwidth, is_real, is_signed, is_quantized).
func TestOpenVINOTable(t *testing.T) {
	type row struct {
		bits                    int
		real, signed, quantized bool
	}
	want := map[Type]row{
		Boolean: {8, false, true, false}, BF16: {16, true, true, false}, F16: {16, true, true, false},
		F32: {32, true, true, false}, F64: {64, true, true, false}, I4: {4, false, true, true},
		I8: {8, false, true, true}, I16: {16, false, true, false}, I32: {32, false, true, true},
		I64: {64, false, true, false}, U1: {1, false, false, false}, U2: {2, false, false, false},
		U3: {3, false, false, false}, U4: {4, false, false, false}, U6: {6, false, false, false},
		U8: {8, false, false, true}, U16: {16, false, false, false}, U32: {32, false, false, false},
		U64: {64, false, false, false}, NF4: {4, false, false, true}, F8E4M3: {8, true, true, true},
		F8E5M2: {8, true, true, true}, F4E2M1: {4, true, true, true}, F8E8M0: {8, true, true, true},
		Dynamic: {0, false, false, false},
	}
	for ty, w := range want {
		got := row{ty.Bits(), ty.IsReal(), ty.IsSigned(), ty.IsQuantized()}
		if got != w {
			t.Errorf("%v: got %+v, want %+v", ty, got, w)
		}
	}
	if NF4.IsReal() || !NF4.IsIntegral() {
		t.Error("nf4 must not be real (OpenVINO) and so counts as integral")
	}
	if !Boolean.IsIntegral() || Boolean.IsIntegralNumber() {
		t.Error("boolean is integral but not an integral number")
	}
	for _, ty := range []Type{Dynamic, String, C64, F32} {
		if ty.IsIntegral() {
			t.Errorf("%v is not integral", ty)
		}
	}
}

// TestInOpenVINO: the complex and FNUZ types are outside OpenVINO's type set, every other
// declared type is inside, and an invalid value is neither.
func TestInOpenVINO(t *testing.T) {
	outside := map[Type]bool{C32: true, C64: true, C128: true, F8E4M3FNUZ: true, F8E5M2FNUZ: true}
	for _, ty := range All() {
		if got := ty.InOpenVINO(); got == outside[ty] {
			t.Errorf("%v.InOpenVINO() = %v", ty, got)
		}
	}
	if Type(200).InOpenVINO() {
		t.Error("an invalid type is in OpenVINO's set")
	}
	for _, ty := range []Type{F8E4M3FNUZ, F8E5M2FNUZ} {
		if !ty.IsFNUZ() || !ty.IsReal() || ty.Bits() != 8 {
			t.Errorf("%v: IsFNUZ %v IsReal %v Bits %d", ty, ty.IsFNUZ(), ty.IsReal(), ty.Bits())
		}
	}
	if F8E4M3.IsFNUZ() {
		t.Error("f8e4m3 is not FNUZ")
	}
}

func TestIRPrecision(t *testing.T) {
	want := map[Type]string{F32: "FP32", F16: "FP16", BF16: "BF16", F64: "FP64", I8: "I8", U1: "BIN",
		Boolean: "BOOL", NF4: "NF4", F8E4M3: "F8E4M3", U64: "U64", String: "STRING", Dynamic: "UNSPECIFIED"}
	for ty, s := range want {
		if got := ty.IRPrecision(); got != s {
			t.Errorf("%v.IRPrecision() = %q, want %q", ty, got, s)
		}
	}
}

func TestByteSize(t *testing.T) {
	cases := []struct {
		t    Type
		n    int64
		want int64
	}{
		{F32, 3, 12}, {F16, 5, 10}, {Boolean, 7, 7}, {C128, 2, 32}, {C32, 1, 4}, {I64, 0, 0},
		{U1, 0, 0}, {U1, 1, 1}, {U1, 8, 1}, {U1, 9, 2},
		{U2, 4, 1}, {U2, 5, 2},
		{U4, 1, 1}, {U4, 2, 1}, {U4, 3, 2}, {I4, 3, 2}, {NF4, 5, 3}, {F4E2M1, 4, 2},
		{U3, 1, 3}, {U3, 8, 3}, {U3, 9, 6}, {U3, 16, 6},
		{U6, 1, 3}, {U6, 4, 3}, {U6, 5, 6},
	}
	for _, c := range cases {
		got, err := c.t.ByteSize(c.n)
		if err != nil || got != c.want {
			t.Errorf("%v.ByteSize(%d) = %d, %v; want %d", c.t, c.n, got, err, c.want)
		}
	}
	for _, bad := range []struct {
		t Type
		n int64
	}{{F32, -1}, {Dynamic, 1}, {String, 1}, {F64, math.MaxInt64 / 4}, {C128, math.MaxInt64}} {
		if got, err := bad.t.ByteSize(bad.n); err == nil {
			t.Errorf("%v.ByteSize(%d) = %d, want an error", bad.t, bad.n, got)
		}
	}
	// The largest counts still work for packed types.
	if got, err := U1.ByteSize(math.MaxInt64); err != nil || got != math.MaxInt64/8+1 {
		t.Errorf("U1.ByteSize(MaxInt64) = %d, %v", got, err)
	}
}

func TestIntRange(t *testing.T) {
	cases := []struct {
		t   Type
		min int64
		max uint64
	}{
		{Boolean, 0, 1}, {I4, -8, 7}, {I8, -128, 127}, {I16, -32768, 32767},
		{I32, math.MinInt32, math.MaxInt32}, {I64, math.MinInt64, math.MaxInt64},
		{U1, 0, 1}, {U2, 0, 3}, {U3, 0, 7}, {U4, 0, 15}, {U6, 0, 63}, {U8, 0, 255},
		{U16, 0, 65535}, {U32, 0, math.MaxUint32}, {U64, 0, math.MaxUint64},
	}
	for _, c := range cases {
		lo, hi, ok := c.t.IntRange()
		if !ok || lo != c.min || hi != c.max {
			t.Errorf("%v.IntRange() = %d, %d, %v; want %d, %d", c.t, lo, hi, ok, c.min, c.max)
		}
	}
	for _, ty := range []Type{F32, NF4, Dynamic, C64} {
		if _, _, ok := ty.IntRange(); ok {
			t.Errorf("%v has no integer range", ty)
		}
	}
}

// TestFloatFormats derives each format's extremes from its field widths and compares them with
// the stated constants, so a typo in one of them cannot pass.
func TestFloatFormats(t *testing.T) {
	for _, ty := range []Type{F16, BF16, F32, F64, F8E4M3, F8E5M2, F4E2M1, F8E4M3FNUZ, F8E5M2FNUZ} {
		f, ok := ty.FloatFormat()
		if !ok {
			t.Fatalf("%v has no format", ty)
		}
		if w := f.ExpBits + f.MantBits + 1; w != ty.Bits() {
			t.Errorf("%v: %d+%d+1 bits != %d", ty, f.ExpBits, f.MantBits, ty.Bits())
		}
		bias := 1<<(f.ExpBits-1) - 1
		if ty.IsFNUZ() {
			bias++ // FNUZ: one more than IEEE's, the pattern of -0 being the NaN
		}
		if f.Bias != bias || f.NoNegativeZero != ty.IsFNUZ() {
			t.Errorf("%v: bias %d, NoNegativeZero %v", ty, f.Bias, f.NoNegativeZero)
		}
		maxExp := 1<<f.ExpBits - 1 - f.Bias // all-ones exponent field
		var maxFinite float64
		switch {
		case f.HasInf: // IEEE: the all-ones exponent is inf/NaN
			maxFinite = math.Ldexp(2-math.Ldexp(1, -f.MantBits), maxExp-1)
		case f.NoNegativeZero: // FNUZ: every positive pattern finite, NaN is 0x80
			maxFinite = math.Ldexp(2-math.Ldexp(1, -f.MantBits), maxExp)
		case f.HasNaN: // E4M3FN: only S.1111.111 is NaN
			maxFinite = math.Ldexp(2-math.Ldexp(1, 1-f.MantBits), maxExp)
		default: // E2M1: every pattern finite
			maxFinite = math.Ldexp(2-math.Ldexp(1, -f.MantBits), maxExp)
		}
		if maxFinite != f.MaxFinite {
			t.Errorf("%v: MaxFinite %g, derived %g", ty, f.MaxFinite, maxFinite)
		}
		if mn := math.Ldexp(1, 1-f.Bias); mn != f.MinNormal {
			t.Errorf("%v: MinNormal %g, derived %g", ty, f.MinNormal, mn)
		}
		if ms := math.Ldexp(1, 1-f.Bias-f.MantBits); ms != f.MinSubnormal {
			t.Errorf("%v: MinSubnormal %g, derived %g", ty, f.MinSubnormal, ms)
		}
		if f.HasNaN && !f.NoNegativeZero && f.NaNNegative != f.NaNPositive|1<<(ty.Bits()-1) {
			t.Errorf("%v: NaN encodings %#x/%#x differ in more than the sign", ty, f.NaNPositive, f.NaNNegative)
		}
	}
	if f, _ := F8E8M0.FloatFormat(); f.SignBit || f.HasSubnormals || f.MaxFinite != math.Ldexp(1, 127) ||
		f.MinNormal != math.Ldexp(1, -127) || f.NaNPositive != 0xFF {
		t.Errorf("f8e8m0 format %+v", f)
	}
	if _, ok := NF4.FloatFormat(); ok {
		t.Error("nf4 is a code table, not a binary float format")
	}
}

func TestNF4Tables(t *testing.T) {
	for i := 1; i < 16; i++ {
		if !(NF4Codes[i-1] < NF4Codes[i]) {
			t.Fatalf("codes not increasing at %d", i)
		}
	}
	// Each midpoint lies between its neighbours, within float32 rounding of their mean.
	for i, m := range NF4Midpoints {
		lo, hi := float64(NF4Codes[i]), float64(NF4Codes[i+1])
		if !(lo < m && m < hi) || math.Abs(m-(lo+hi)/2) > 1e-7 {
			t.Errorf("midpoint %d = %v not the mean of %v and %v", i, m, lo, hi)
		}
	}
}

func TestComplexPart(t *testing.T) {
	for c, p := range map[Type]Type{C32: F16, C64: F32, C128: F64} {
		if got, ok := c.ComplexPart(); !ok || got != p || got.Bits()*2 != c.Bits() {
			t.Errorf("%v.ComplexPart() = %v, %v", c, got, ok)
		}
	}
	if _, ok := F32.ComplexPart(); ok {
		t.Error("f32 is not complex")
	}
}
