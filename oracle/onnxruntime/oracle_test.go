package onnxruntime

import (
	"fmt"
	"math"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// sources returns the patterns for a source type.
func sources(t element.Type) ([]byte, int) {
	switch t.Bits() {
	case 4:
		return all4()
	case 8:
		return all8()
	case 16:
		return all16()
	}
	switch t {
	case element.F32:
		return f32Patterns()
	case element.F64:
		return f64Patterns()
	case element.I32, element.U32:
		return int32Patterns()
	}
	return int64Patterns()
}

func checkResult(t *testing.T, r result) {
	t.Helper()
	for _, f := range r.failures {
		t.Errorf("%s (%s): %s", r.c.pair(), r.c.rules, f)
	}
}

// TestReference holds the specification reference to the facts it rests on: each float8 format's
// largest value, every code surviving decode → round → encode, and the rows of the tables.
func TestReference(t *testing.T) {
	for f, max := range map[f8format]float64{fmtE4M3FN: 448, fmtE5M2: 57344, fmtE4M3FNUZ: 240, fmtE5M2FNUZ: 57344} {
		if got := f.max(); got != max {
			t.Errorf("%s: max %g, want %g", f.name, got, max)
		}
		for c := range 256 {
			v, nan := f.decode(uint8(c))
			if nan || math.IsInf(v, 0) || (v == 0 && math.Signbit(v)) || (f.fnuz && c == 0) {
				continue
			}
			if a := specF8(f, v, true); !a.has(uint8(c)) || a.class != clRNE && v != 0 {
				t.Errorf("%s: code 0x%02x (%g) encodes to %v", f.name, c, v, a)
			}
		}
	}
	for _, tc := range []struct {
		f        f8format
		x        float64
		saturate bool
		want     string
	}{
		{fmtE4M3FN, 464, false, "0x7e"},                   // [x] = 448: a tie, to even
		{fmtE4M3FN, 465, false, "0x7f or 0xff"},           // [x] = 480 > 448
		{fmtE4M3FN, 465, true, "0x7e"},                    // saturate
		{fmtE4M3FN, math.Inf(-1), false, "0xff"},          // -Inf → -NaN
		{fmtE4M3FN, math.Inf(-1), true, "0xfe"},           // -Inf → -FLT_MAX
		{fmtE5M2, 61440, false, "0x7c"},                   // tie between 57344 and 65536: to even, Inf
		{fmtE5M2, 61439, false, "0x7b"},                   // below the tie
		{fmtE5M2, math.Copysign(0, -1), true, "0x80"},     // -0
		{fmtE4M3FNUZ, math.Copysign(0, -1), true, "0x00"}, // no -0
		{fmtE4M3FNUZ, -math.Ldexp(1, -12), true, "0x00"},  // a tie to zero, positive
		{fmtE4M3FNUZ, 248, true, "0x7f"},                  // tie 240/256 goes to 256: saturate
		{fmtE4M3FNUZ, 248, false, "0x80"},                 // … or NaN
		{fmtE5M2FNUZ, math.Inf(1), false, "0x80"},
		{fmtE5M2FNUZ, math.NaN(), true, "0x80"},
		{fmtE4M3FN, 0x1.4p-9, true, "0x01"}, // 1.25·2^-9 rounds to the smallest subnormal 2^-9
	} {
		if got := specF8(tc.f, tc.x, tc.saturate).String(); got != tc.want {
			t.Errorf("%s(%g, saturate %v) = %s, want %s", tc.f.name, tc.x, tc.saturate, got, tc.want)
		}
	}
	for _, tc := range []struct {
		x        float64
		mode     string
		saturate bool
		want     string
	}{
		{0.75, "up", true, "0x7f"},
		{0.75, "down", true, "0x7e"},
		{0.75, "nearest", true, "0x7f"}, // the midpoint goes up
		{0.74, "nearest", true, "0x7e"},
		{0, "up", true, "0x00"},
		{0, "nearest", false, "0xff"},
		{math.Inf(1), "up", true, "0xfe"},
		{math.Ldexp(1.2, 127), "up", true, "0xfe"},
		{math.Ldexp(1.2, 127), "up", false, "0xff"},
		{math.Ldexp(1.2, 127), "nearest", false, "0xff"}, // the rows are read on x, not on [x]
		{math.Ldexp(1, -128), "up", false, "0xff"},
		{math.Ldexp(1, -128), "up", true, "0x00"},
		{-2, "up", true, "0x00"}, // a negative value is below E8M0_MIN
		{-2, "down", false, "0xff"},
	} {
		if got := specE8M0(tc.x, tc.mode, tc.saturate).String(); got != tc.want {
			t.Errorf("e8m0(%g, %s, saturate %v) = %s, want %s", tc.x, tc.mode, tc.saturate, got, tc.want)
		}
	}
	for _, tc := range []struct {
		f    ieeeFormat
		x    float64
		want uint16
	}{
		{fmtF16, 65504, 0x7bff},
		{fmtF16, 65519.99, 0x7bff},
		{fmtF16, 65520, 0x7c00}, // the tie above the largest value rounds to even: Inf
		{fmtF16, math.MaxFloat64, 0x7c00},
		{fmtF16, -0x1p-25, 0x8000},  // half the smallest subnormal: a tie, to even (-0)
		{fmtF16, 0x1.8p-25, 0x0001}, // above the tie
		{fmtBF16, -math.MaxFloat64, 0xff80},
		{fmtBF16, 0x1.01p0, 0x3f80}, // 1 + 2^-8, half an ulp: a tie, to even (down)
		{fmtBF16, 0x1.03p0, 0x3f82}, // 1 + 3·2^-8: a tie, to even
	} {
		if got := tc.f.encode(tc.x); got != tc.want {
			t.Errorf("encode(%+v, %g) = 0x%04x, want 0x%04x", tc.f, tc.x, got, tc.want)
		}
	}
	// 0x0e57ffff needs 28 bits: rounded once to bf16's 8 it goes down; through f32 (24 bits) it
	// would go up to a tie and then to even, upwards.
	i32 := []byte{0xff, 0xff, 0x57, 0x0e}
	if got := fmtBF16.encode(intValue(element.I32, i32, 0, 8)); got != 0x4d65 {
		t.Errorf("i32 0x0e57ffff → bf16 = 0x%04x, want 0x4d65", got)
	}
	i64min := []byte{0, 0, 0, 0, 0, 0, 0, 0x80}
	if got := fmtF16.encode(intValue(element.I64, i64min, 0, 11)); got != 0xfc00 {
		t.Errorf("i64 min → f16 = 0x%04x, want 0xfc00", got)
	}
}

var floats = []element.Type{element.F16, element.BF16, element.F32, element.F64}

// TestOpenVINORulesAgree: under the default (OpenVINO) rules, the pairs whose rules coincide with
// ONNX's give ONNX Runtime's bits on every input, NaN payloads aside.
func TestOpenVINORulesAgree(t *testing.T) {
	needORT(t)
	for _, c := range openvinoCases() {
		r := runCase(t, c, kernels.Convert)
		checkResult(t, r)
	}
}

// openvinoCases are the casts compared under the default (OpenVINO) rules: between the wide floats,
// and from every float8 type and every integer type to them.
func openvinoCases() []castCase {
	var cases []castCase
	for _, from := range floats {
		src, n := sources(from)
		for _, to := range floats {
			if to != from {
				cases = append(cases, castCase{rules: "openvino", from: from, to: to, src: src, n: n})
			}
		}
	}
	decode := append([]element.Type{element.F8E4M3, element.F8E5M2, element.F8E8M0}, fnuzTypes...)
	ints := []element.Type{element.I4, element.U4, element.I8, element.U8, element.I16, element.U16, element.I32, element.U32, element.I64, element.U64}
	for _, from := range append(decode, ints...) {
		src, n := sources(from)
		for _, to := range floats {
			if from == element.I32 && to == element.F16 {
				continue // OpenVINO saturates i32 → f16 to ±65504; ONNX gives ±Inf
			}
			cases = append(cases, castCase{rules: "openvino", from: from, to: to, src: src, n: n})
		}
	}
	return cases
}

// onnxCases are the casts the ONNX rules are compared on: every float8 target with saturate on and
// off, f8e8m0 in each round mode, and the decodes to f32.
func onnxCases() []castCase {
	var cases []castCase
	f8 := append([]element.Type{element.F8E4M3, element.F8E5M2}, fnuzTypes...)
	for _, from := range []element.Type{element.F32, element.F16, element.BF16} {
		src, n := sources(from)
		for _, to := range f8 {
			for _, nosat := range []bool{false, true} {
				cases = append(cases, castCase{rules: "onnx", from: from, to: to, attrs: CastAttrs{NoSaturate: nosat}, src: src, n: n})
			}
		}
	}
	src, n := sources(element.F32)
	for _, mode := range roundModes {
		for _, nosat := range []bool{false, true} {
			cases = append(cases, castCase{rules: "onnx", from: element.F32, to: element.F8E8M0, attrs: CastAttrs{NoSaturate: nosat, RoundMode: mode}, src: src, n: n})
		}
	}
	for _, from := range append([]element.Type{element.F8E4M3, element.F8E5M2, element.F8E8M0, element.F16, element.BF16}, fnuzTypes...) {
		src, n := sources(from)
		cases = append(cases, castCase{rules: "onnx", from: from, to: element.F32, src: src, n: n})
	}
	// The narrowings ONNX rounds as IEEE 754 does (no table; "+/- infinity if OOR"). i32 → f16,
	// where OpenVINO saturates and ONNX overflows to ±Inf, is among them.
	for _, from := range []element.Type{element.I16, element.I32, element.U32, element.I64, element.F32, element.F64} {
		src, n := sources(from)
		for _, to := range []element.Type{element.F16, element.BF16} {
			cases = append(cases, castCase{rules: "onnx", from: from, to: to, src: src, n: n})
		}
	}
	return cases
}

// TestONNXRules compares ONNX Runtime, convertpromote's onnx rule set and the specification
// reference on onnxCases.
func TestONNXRules(t *testing.T) {
	needORT(t)
	got := map[departure]int{}
	example := map[departure]string{}
	for _, c := range onnxCases() {
		r := runCase(t, c, onnxConvert(c.attrs))
		checkResult(t, r)
		for d, n := range r.groups {
			got[d] = n
			example[d] = r.examples[d][0]
		}
	}
	want := map[departure]int{}
	for _, e := range onnxDepartures {
		want[e.departure] = e.count
	}
	for d, n := range got {
		switch {
		case d.who == "convertpromote" || d.who == "both":
			t.Errorf("%s: convertpromote departs from the specification on %d inputs (%s: spec %s), e.g. %s", d.pair, n, d.class, d.spec, example[d])
		case want[d] != n:
			t.Errorf("unlisted or changed: %#v, count %d (listed %d)", d, n, want[d])
		}
	}
	for d, n := range want {
		if _, ok := got[d]; !ok {
			t.Errorf("listed but not seen: %#v, count %d", d, n)
		}
	}
	if t.Failed() {
		for d, n := range got {
			fmt.Printf("\t{departure{%q, %q, %q, %q, %q}, %d},\n", d.pair, d.class, d.who, d.spec, d.ort, n)
		}
	}
}

// onnxDepartures lists every difference between ONNX Runtime 1.30 and convertpromote's onnx rules
// on onnxCases, by case, input class and the two answers (see departure), with its count:
// "onnxruntime" rows are ONNX Runtime departing from the ONNX specification's tables; "NaN
// payload" rows are different NaN codes
// where the specification allows any NaN. The "IEEE rounding" rows are narrowings that ONNX
// Runtime rounds twice, through f32 (i32, u32, i64 → bf16; f64 → f16, bf16), where one rounding
// of the source value gives another result. A change in any count fails the test.
var onnxDepartures = []struct {
	departure
	count int
}{
	{departure{"f32→f8e4m3 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+NaN or -NaN", "+max"}, 182},
	{departure{"f32→f8e4m3 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+NaN or -NaN", "-max"}, 184},
	{departure{"f16→f8e4m3 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+NaN or -NaN", "+max"}, 64},
	{departure{"f16→f8e4m3 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+NaN or -NaN", "-max"}, 64},
	{departure{"bf16→f8e4m3 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+NaN or -NaN", "+max"}, 8},
	{departure{"bf16→f8e4m3 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+NaN or -NaN", "-max"}, 8},
	{departure{"bf16→f8e4m3 saturate=0", "NaN", "onnxruntime", "-NaN", "+NaN"}, 127},
	{departure{"f32→f8e5m2 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+Inf", "+NaN"}, 369},
	{departure{"f32→f8e5m2 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "-Inf", "-NaN"}, 348},
	{departure{"f16→f8e5m2 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+Inf", "+NaN"}, 128},
	{departure{"f16→f8e5m2 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "-Inf", "-NaN"}, 128},
	{departure{"bf16→f8e5m2 saturate=0", "NaN", "onnxruntime", "-NaN", "+NaN"}, 127},
	{departure{"bf16→f8e5m2 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "+Inf", "+NaN"}, 16},
	{departure{"bf16→f8e5m2 saturate=0", "[x] beyond FLT_MAX", "onnxruntime", "-Inf", "-NaN"}, 16},
	{departure{"f32→bf16", "NaN", "NaN payload", "NaN", "NaN"}, 5575},
	{departure{"f64→bf16", "IEEE rounding", "onnxruntime", "value", "value"}, 25},
	{departure{"f64→bf16", "NaN", "NaN payload", "NaN", "NaN"}, 12273},
	{departure{"i32→bf16", "IEEE rounding", "onnxruntime", "value", "value"}, 17},
	{departure{"u32→bf16", "IEEE rounding", "onnxruntime", "value", "value"}, 30},
	{departure{"i64→bf16", "IEEE rounding", "onnxruntime", "value", "value"}, 7},
	{departure{"f64→f16", "IEEE rounding", "onnxruntime", "value", "value"}, 29},
	{departure{"f64→f16", "NaN", "NaN payload", "NaN", "NaN"}, 12443},
	{departure{"f8e4m3fnuz→f32", "NaN", "NaN payload", "NaN", "NaN"}, 1},
	{departure{"f8e5m2fnuz→f32", "NaN", "NaN payload", "NaN", "NaN"}, 1},
	{departure{"f8e5m2→f32", "NaN", "NaN payload", "NaN", "NaN"}, 4},
}
