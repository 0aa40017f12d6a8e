package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"
)

// wantF32 is the float32 bits a decoder must give for a reference value (NaN: nan32).
func wantF32(v float64, nan32 uint32, nan bool) uint32 {
	if nan {
		return nan32
	}
	return math.Float32bits(float32(v))
}

func TestF16DecodeAll(t *testing.T) {
	for h := range 1 << 16 {
		v, n32, nan := refF16Value(uint64(h))
		if !nan && float64(float32(v)) != v {
			t.Fatalf("reference value of f16 %#04x not exact in f32", h)
		}
		if got, want := math.Float32bits(F32FromF16(uint16(h))), wantF32(v, n32, nan); got != want {
			t.Errorf("F32FromF16(%#04x) = %#08x, want %#08x", h, got, want)
		}
		// x448 agrees on every pattern, NaNs included (VCVTPH2PS semantics).
		if got, want := math.Float32bits(F32FromF16(uint16(h))), math.Float32bits(float16.Frombits(uint16(h)).Float32()); got != want {
			t.Errorf("F32FromF16(%#04x) = %#08x, x448 %#08x", h, got, want)
		}
	}
}

func TestBF16DecodeAll(t *testing.T) {
	for h := range 1 << 16 {
		v, n32, nan := refBF16Value(uint64(h))
		if got, want := math.Float32bits(F32FromBF16(uint16(h))), wantF32(v, n32, nan); got != want {
			t.Errorf("F32FromBF16(%#04x) = %#08x, want %#08x", h, got, want)
		}
	}
}

func TestF8DecodeAll(t *testing.T) {
	for c := range 256 {
		v, n32, nan := refE4M3Value(uint64(c))
		if got, want := math.Float32bits(F32FromF8E4M3(uint8(c))), wantF32(v, n32, nan); got != want {
			t.Errorf("F32FromF8E4M3(%#02x) = %#08x, want %#08x", c, got, want)
		}
		wantH := refF16FromF32(math.Float32frombits(wantF32(v, n32, nan)))
		if got := F16FromF8E4M3(uint8(c)); uint64(got) != wantH {
			t.Errorf("F16FromF8E4M3(%#02x) = %#04x, want %#04x", c, got, wantH)
		}
		v, n32, nan = refE5M2Value(uint64(c))
		if got, want := math.Float32bits(F32FromF8E5M2(uint8(c))), wantF32(v, n32, nan); got != want {
			t.Errorf("F32FromF8E5M2(%#02x) = %#08x, want %#08x", c, got, want)
		}
		if got := F16FromF8E5M2(uint8(c)); got != uint16(c)<<8 {
			t.Errorf("F16FromF8E5M2(%#02x) = %#04x, want %#04x", c, got, c<<8)
		}
		v, n32, nan = refE8M0Value(uint64(c))
		if got, want := math.Float32bits(F32FromF8E8M0(uint8(c))), wantF32(v, n32, nan); got != want {
			t.Errorf("F32FromF8E8M0(%#02x) = %#08x, want %#08x", c, got, want)
		}
	}
	// Pinned points of §1 and §3.3.
	for _, tc := range []struct {
		got  float32
		want uint32
	}{
		{F32FromF8E4M3(0x7E), math.Float32bits(448)},
		{F32FromF8E4M3(0x7F), 0x7FC00000},
		{F32FromF8E4M3(0xFF), 0xFFC00000},
		{F32FromF8E4M3(0x01), math.Float32bits(0x1p-9)},
		{F32FromF8E5M2(0x7B), math.Float32bits(57344)},
		{F32FromF8E5M2(0x7C), 0x7F800000},
		{F32FromF8E8M0(0x00), 0x00400000},
		{F32FromF8E8M0(0x7F), math.Float32bits(1)},
		{F32FromF8E8M0(0xFE), math.Float32bits(0x1p127)},
		{F32FromF8E8M0(0xFF), 0x7FC00000},
	} {
		if math.Float32bits(tc.got) != tc.want {
			t.Errorf("decoded %#08x, want %#08x", math.Float32bits(tc.got), tc.want)
		}
	}
}

func TestF4DecodeAll(t *testing.T) {
	want := []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}
	for c := range 16 {
		w := want[c&7]
		if c&8 != 0 {
			w = -w
		}
		if v := refF4E2M1Value(uint64(c)); v != w || math.Signbit(v) != (c&8 != 0) {
			t.Fatalf("reference f4e2m1 %#x = %v, want %v", c, v, w)
		}
		got := F32FromF4E2M1(uint8(c))
		if math.Float32bits(got) != math.Float32bits(float32(w)) {
			t.Errorf("F32FromF4E2M1(%#x) = %v, want %v", c, got, w)
		}
		if got, want := F32FromNF4(uint8(c)), float32(refNF4Values[c]); got != want {
			t.Errorf("F32FromNF4(%d) = %v, want %v", c, got, want)
		}
	}
	// The nf4 midpoints lie between neighbouring codes, near their average.
	for i, m := range refNF4Midpoints {
		lo, hi := refNF4Values[i], refNF4Values[i+1]
		if !(lo < m && m < hi) || math.Abs(m-(lo+hi)/2) > 1e-6 {
			t.Errorf("midpoint %d = %v is not between %v and %v", i, m, lo, hi)
		}
	}
}

// encodeInputs returns float32 test inputs: every f16 value, the midpoints between neighbouring
// values of every narrow format and their float32 neighbours, special values, and random
// patterns (uniform bits and uniform in the narrow ranges).
func encodeInputs(nRandom int) []float32 {
	var in []float32
	add := func(x float64) {
		f := float32(x)
		in = append(in, f, -f, math.Nextafter32(f, float32(math.Inf(1))), math.Nextafter32(f, float32(math.Inf(-1))))
	}
	for h := range 1 << 16 {
		v, n32, nan := refF16Value(uint64(h))
		in = append(in, math.Float32frombits(wantF32(v, n32, nan)))
	}
	for _, f := range []*refFormat{refF16, refBF16, refE4M3, refE5M2, refF4E2M1} {
		vals := f.vals
		if f.over != 0 {
			vals = append(vals[:len(vals):len(vals)], f.over)
		}
		for i := 1; i < len(vals); i++ {
			add(vals[i])
			add((vals[i-1] + vals[i]) / 2)
		}
	}
	for _, m := range refNF4Midpoints {
		add(m)
	}
	for e := -149; e <= 127; e++ {
		add(math.Ldexp(1, e))
		add(math.Ldexp(1.5, e))
		add(math.Ldexp(1.75, e))
	}
	for _, x := range []float64{0, 464, 465, 448, 0x1.84Cp0, 65504, 65519, 65520, 57344, 61440, 0.21875, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5, 6, 7, 1e30, 1e-30} {
		add(x)
	}
	in = append(in, float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0x3F84C000),
		math.Float32frombits(0x7FC00000), math.Float32frombits(0xFFC00000), math.Float32frombits(0x7F800001),
		math.Float32frombits(0xFF800001), math.Float32frombits(0x7FBFFFFF), math.Float32frombits(0x7F802000),
		math.Float32frombits(0x7F801FFF), math.Float32frombits(0x7FFFFFFF), math.Float32frombits(1))
	r := rand.New(rand.NewPCG(1, 2))
	for range nRandom {
		in = append(in, math.Float32frombits(r.Uint32()))
		in = append(in, float32(r.NormFloat64()*math.Ldexp(1, r.IntN(40)-20)))
	}
	return in
}

func TestEncodersAgainstReference(t *testing.T) {
	n := 500_000
	if testing.Short() {
		n = 100_000
	}
	in := encodeInputs(n)
	type enc struct {
		name string
		got  func(float32) uint64
		want func(float32) uint64
	}
	encs := []enc{
		{"f16", func(x float32) uint64 { return uint64(F16FromF32(x)) }, refF16FromF32},
		{"bf16", func(x float32) uint64 { return uint64(BF16FromF32(x)) }, refBF16FromF32},
		{"f8e4m3", func(x float32) uint64 { return uint64(F8E4M3FromF32(x)) }, refE4M3FromF32},
		{"f8e5m2", func(x float32) uint64 { return uint64(F8E5M2FromF32(x)) }, refE5M2FromF32},
		{"f8e8m0", func(x float32) uint64 { return uint64(F8E8M0FromF32(x)) }, refE8M0FromF32},
		{"f4e2m1", func(x float32) uint64 { return uint64(F4E2M1FromF32(x)) }, refF4E2M1FromF32},
		{"nf4", func(x float32) uint64 { return uint64(NF4FromF32(x)) }, func(x float32) uint64 {
			if x != x {
				return 0
			}
			return refNF4FromF32(x)
		}},
	}
	for _, e := range encs {
		t.Run(e.name, func(t *testing.T) {
			bad := 0
			for _, x := range in {
				if got, want := e.got(x), e.want(x); got != want {
					if bad++; bad <= 20 {
						t.Errorf("%s(%v = %#08x) = %#x, want %#x", e.name, x, math.Float32bits(x), got, want)
					}
				}
			}
			t.Logf("%d inputs, %d mismatches", len(in), bad)
		})
	}
}

// TestEncodePinned checks the §3.1 and §3.2 pinned points as literal values from the spec.
func TestEncodePinned(t *testing.T) {
	f := math.Float32frombits
	cases := []struct {
		name string
		got  uint64
		want uint64
	}{
		{"f16(1)", uint64(F16FromF32(1)), 0x3C00},
		{"f16(65520)", uint64(F16FromF32(65520)), 0x7C00},
		{"f16(65519)", uint64(F16FromF32(65519)), 0x7BFF},
		{"f16(1e-8)", uint64(F16FromF32(1e-8)), 0x0000},
		{"f16(-0)", uint64(F16FromF32(float32(math.Copysign(0, -1)))), 0x8000},
		{"f16(sNaN 0x7F800001)", uint64(F16FromF32(f(0x7F800001))), 0x7E00},
		{"f16(NaN 0xFFFFFFFF)", uint64(F16FromF32(f(0xFFFFFFFF))), 0xFFFF},
		{"bf16(0x3F84C000)", uint64(BF16FromF32(f(0x3F84C000))), 0x3F85},
		{"bf16(sNaN 0x7F800001)", uint64(BF16FromF32(f(0x7F800001))), 0x7FC0},
		{"bf16(min subnormal)", uint64(BF16FromF32(f(0x00010000))), 0x0001},
		{"bf16(half min subnormal)", uint64(BF16FromF32(f(0x00008000))), 0x0000},
		{"bf16(above half min subnormal)", uint64(BF16FromF32(f(0x00008001))), 0x0001},
		{"e4m3(464)", uint64(F8E4M3FromF32(464)), 0x7E},
		{"e4m3(465)", uint64(F8E4M3FromF32(465)), 0x7F},
		{"e4m3(-465)", uint64(F8E4M3FromF32(-465)), 0xFF},
		{"e4m3(+Inf)", uint64(F8E4M3FromF32(float32(math.Inf(1)))), 0x7F},
		{"e4m3(NaN)", uint64(F8E4M3FromF32(float32(math.NaN()))), 0x7F},
		{"e5m2(57344)", uint64(F8E5M2FromF32(57344)), 0x7B},
		{"e5m2(61440)", uint64(F8E5M2FromF32(61440)), 0x7C},
		{"e5m2(NaN 0x7F802000)", uint64(F8E5M2FromF32(f(0x7F802000))), 0x7E},
		{"e5m2(NaN 0x7FF00000)", uint64(F8E5M2FromF32(f(0x7FF00000))), 0x7F},
		{"e5m2(-NaN)", uint64(F8E5M2FromF32(f(0xFFC00000))), 0xFE},
		{"e8m0(1.5)", uint64(F8E8M0FromF32(1.5)), 0x80},
		{"e8m0(3)", uint64(F8E8M0FromF32(3)), 0x80},
		{"e8m0(6)", uint64(F8E8M0FromF32(6)), 0x82},
		{"e8m0(-1)", uint64(F8E8M0FromF32(-1)), 0x00},
		{"e8m0(-0)", uint64(F8E8M0FromF32(float32(math.Copysign(0, -1)))), 0x00},
		{"e8m0(NaN)", uint64(F8E8M0FromF32(float32(math.NaN()))), 0xFF},
		{"e8m0(-NaN)", uint64(F8E8M0FromF32(f(0xFFC00000))), 0x00},
		{"e8m0(+Inf)", uint64(F8E8M0FromF32(float32(math.Inf(1)))), 0xFE},
		{"e8m0(2^127)", uint64(F8E8M0FromF32(0x1p127)), 0xFE},
		{"f4(0.21875)", uint64(F4E2M1FromF32(0.21875)), 0x0},
		{"f4(0.25)", uint64(F4E2M1FromF32(0.25)), 0x0},
		{"f4(0.26)", uint64(F4E2M1FromF32(0.26)), 0x1},
		{"f4(0.75)", uint64(F4E2M1FromF32(0.75)), 0x2},
		{"f4(1.25)", uint64(F4E2M1FromF32(1.25)), 0x2},
		{"f4(1.75)", uint64(F4E2M1FromF32(1.75)), 0x4},
		{"f4(2.5)", uint64(F4E2M1FromF32(2.5)), 0x4},
		{"f4(3.5)", uint64(F4E2M1FromF32(3.5)), 0x6},
		{"f4(5)", uint64(F4E2M1FromF32(5)), 0x6},
		{"f4(5.01)", uint64(F4E2M1FromF32(5.01)), 0x7},
		{"f4(-100)", uint64(F4E2M1FromF32(-100)), 0xF},
		{"f4(+Inf)", uint64(F4E2M1FromF32(float32(math.Inf(1)))), 0x7},
		{"nf4(0)", uint64(NF4FromF32(0)), 7},
		{"nf4(NaN)", uint64(NF4FromF32(float32(math.NaN()))), 0},
		{"nf4(-Inf)", uint64(NF4FromF32(float32(math.Inf(-1)))), 0},
		{"nf4(+Inf)", uint64(NF4FromF32(float32(math.Inf(1)))), 15},
		{"nf4(0.9)", uint64(NF4FromF32(0.9)), 15},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, c.got, c.want)
		}
	}
	// A value exactly on a midpoint takes the lower code; only float64 inputs can sit exactly
	// on these float64 midpoints, so test the threshold function directly.
	for i, m := range refNF4Midpoints {
		if got := nf4FromF64(m); got != uint8(i) {
			t.Errorf("nf4 on midpoint %d = %d, want %d", i, got, i)
		}
		if got := nf4FromF64(math.Nextafter(m, 2)); got != uint8(i+1) {
			t.Errorf("nf4 just above midpoint %d = %d, want %d", i, got, i+1)
		}
	}
}

// TestRoundTrips: decode → f32 → encode gives the same bits for every non-NaN pattern.
func TestRoundTrips(t *testing.T) {
	for h := range 1 << 16 {
		if h&0x7FFF <= 0x7C00 {
			if got := F16FromF32(F32FromF16(uint16(h))); got != uint16(h) {
				t.Errorf("f16 %#04x round trip gives %#04x", h, got)
			}
		}
		if h&0x7FFF <= 0x7F80 {
			if got := BF16FromF32(F32FromBF16(uint16(h))); got != uint16(h) {
				t.Errorf("bf16 %#04x round trip gives %#04x", h, got)
			}
		}
	}
	for c := range 256 {
		b := uint8(c)
		if c&0x7F != 0x7F {
			if got := F8E4M3FromF32(F32FromF8E4M3(b)); got != b {
				t.Errorf("f8e4m3 %#02x round trip gives %#02x", c, got)
			}
		}
		if c&0x7F <= 0x7C {
			if got := F8E5M2FromF32(F32FromF8E5M2(b)); got != b {
				t.Errorf("f8e5m2 %#02x round trip gives %#02x", c, got)
			}
		}
		if c != 0xFF {
			if got := F8E8M0FromF32(F32FromF8E8M0(b)); got != b {
				t.Errorf("f8e8m0 %#02x round trip gives %#02x", c, got)
			}
		}
	}
	for c := range 16 {
		if got := F4E2M1FromF32(F32FromF4E2M1(uint8(c))); got != uint8(c) {
			t.Errorf("f4e2m1 %#x round trip gives %#x", c, got)
		}
		if got := NF4FromF32(F32FromNF4(uint8(c))); got != uint8(c) {
			t.Errorf("nf4 %d round trip gives %d", c, got)
		}
	}
}

// TestF32ToF16X448Sample compares F16FromF32 with x448/float16 on a fixed sample of 2^20 + 2^16
// patterns: a stride through all 2^32 and random bits.
func TestF32ToF16X448Sample(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(b uint32) {
		f := math.Float32frombits(b)
		if got, want := F16FromF32(f), float16.Fromfloat32(f).Bits(); got != want {
			t.Fatalf("F16FromF32(%#08x) = %#04x, x448 %#04x", b, got, want)
		}
	}
	for i := range uint32(1 << 20) {
		check(i*4099 + 7) // 4099 is odd: the stride visits every exponent and residue
		if i < 1<<16 {
			check(r.Uint32())
		}
	}
}

// TestF32ToF16X448All compares F16FromF32 with x448/float16 on all 2^32 float32 patterns, on
// two goroutines. Skipped under -short.
func TestF32ToF16X448All(t *testing.T) {
	if testing.Short() {
		t.Skip("2^32 patterns: skipped under -short")
	}
	errs := make(chan uint32, 2)
	for half := range uint64(2) {
		go func() {
			bad := uint32(0)
			found := false
			for b := half << 31; b < (half+1)<<31; b++ {
				f := math.Float32frombits(uint32(b))
				if F16FromF32(f) != float16.Fromfloat32(f).Bits() && !found {
					bad, found = uint32(b), true
				}
			}
			if found {
				errs <- bad
			} else {
				errs <- 0xFFFFFFFF // sentinel: 0xFFFFFFFF itself is checked below
			}
		}()
	}
	for range 2 {
		if b := <-errs; b != 0xFFFFFFFF {
			t.Errorf("F16FromF32(%#08x) = %#04x, x448 %#04x", b, F16FromF32(math.Float32frombits(b)), float16.Fromfloat32(math.Float32frombits(b)).Bits())
		}
	}
	if f := math.Float32frombits(0xFFFFFFFF); F16FromF32(f) != float16.Fromfloat32(f).Bits() {
		t.Errorf("F16FromF32(0xFFFFFFFF) differs from x448")
	}
}
