package kernels

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// convF32 converts one float32 under rules r to type to and returns the destination bytes.
func convF32(t *testing.T, r Rules, to element.Type, x float32) []byte {
	t.Helper()
	src := binary.LittleEndian.AppendUint32(nil, math.Float32bits(x))
	dst := make([]byte, 8)
	if err := (Converter{Rules: r}).Convert(dst, to, src, element.F32, 1); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRulesExamples: the examples of the rule sets' description, which differ between the
// rule sets.
func TestRulesExamples(t *testing.T) {
	for _, c := range []struct {
		r    Rules
		to   element.Type
		x    float32
		want byte
	}{
		{Rules{Set: ONNX}, element.F8E4M3, 465, 0x7E},
		{Rules{Set: ONNX, NoSaturate: true}, element.F8E4M3, 465, 0x7F},
		{Rules{}, element.F8E4M3, 465, 0x7F},
		{Rules{Set: MLDtypes}, element.F8E4M3, math.Float32frombits(0x3a8005f0), 0x01},
		{Rules{}, element.F8E4M3, math.Float32frombits(0x3a8005f0), 0x00},
		{Rules{Set: ONNX}, element.F8E4M3, float32(math.Inf(-1)), 0xFE},
		{Rules{Set: ONNX, NoSaturate: true}, element.F8E5M2, float32(math.Inf(-1)), 0xFC},
		{Rules{Set: ONNX, NoSaturate: true}, element.F8E4M3FNUZ, 1e6, 0x80},
		{Rules{Set: ONNX}, element.F8E4M3FNUZ, -1e6, 0xFF},
		{Rules{Set: MLDtypes}, element.F8E5M2FNUZ, float32(math.Copysign(0, -1)), 0x00},
		{Rules{Set: MLDtypes}, element.F8E8M0, 0, 0xFF},
		{Rules{Set: MLDtypes}, element.F8E8M0, 3, 0x81},
		{Rules{Set: ONNX}, element.F8E8M0, 3, 0x81},
		{Rules{Set: ONNX, E8M0Round: RoundDown}, element.F8E8M0, 3, 0x80},
		{Rules{Set: ONNX, E8M0Round: RoundNearest}, element.F8E8M0, 2.9, 0x80},
		{Rules{}, element.F8E8M0, 3, 0x80},
		{Rules{Set: MLDtypes}, element.F4E2M1, float32(math.NaN()), 0x08},
		{Rules{Set: ONNX}, element.F4E2M1, float32(math.NaN()), 0x07},
	} {
		if got := convF32(t, c.r, c.to, c.x); got[0] != c.want {
			t.Errorf("%+v %v → %v = %#02x, want %#02x", c.r, c.x, c.to, got[0], c.want)
		}
	}
}

// allRules returns OpenVINO's rules and every variant of the other rule sets.
func allRules() []Rules {
	return append([]Rules{{}}, ruleVariants...)
}

// TestRuleVariants: every valid Rules other than OpenVINO's has a variant, the Rules itself
// without the fields its rule set ignores: ml_dtypes has one, ONNX one for each saturate setting
// and f8e8m0 round mode.
func TestRuleVariants(t *testing.T) {
	if len(ruleVariants) != 1+2*int(numE8M0Roundings) {
		t.Errorf("%d rule variants: %+v", len(ruleVariants), ruleVariants)
	}
	for s := ONNX; s < numRuleSets; s++ {
		for _, noSat := range []bool{false, true} {
			for m := range numE8M0Roundings {
				r := Rules{Set: s, NoSaturate: noSat, E8M0Round: m}
				want := r
				if s != ONNX {
					want = Rules{Set: s}
				}
				if got := ruleVariants[r.variant()]; got != want {
					t.Errorf("%+v: variant %d is %+v, want %+v", r, r.variant(), got, want)
				}
			}
		}
	}
}

// TestRulesDifferMatchesDocs: the pairs that leave OpenVINO's kernels are exactly those the rule
// set documentation lists (refRulesDiffer), for every rule set.
func TestRulesDifferMatchesDocs(t *testing.T) {
	for _, r := range allRules()[1:] {
		for _, from := range convertibleTypes() {
			for _, to := range convertibleTypes() {
				want := from != to && refRulesDiffer(r, from, to)
				if got := rulesTable[r.variant()][from][to] != nil; got != want {
					t.Errorf("%+v %v → %v: own loop %v, want %v", r, from, to, got, want)
				}
			}
		}
	}
}

// TestAllPairsRules is TestAllPairs under every rule variant: every pair, on the source vectors
// (every code of the 8-bit and smaller types, edge values and random patterns of the others),
// against the reference model of the rule sets, on every path the CPU runs (the SIMD kernels and
// the pure-Go loops). Its subtests are pair/path, each looping over the rule variants.
func TestAllPairsRules(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ts := convertibleTypes()
	vecs := make(map[element.Type][][2]uint64) // read-only in the subtests
	for _, from := range ts {
		vecs[from] = sourceVector(from, r)
	}
	for _, from := range ts {
		vec := vecs[from]
		src := refPack(from, vec)
		n := len(vec)
		for _, to := range ts {
			t.Run(pairName(from, to), func(t *testing.T) {
				t.Parallel()
				for _, p := range Paths() {
					t.Run(p.String(), func(t *testing.T) {
						for _, rules := range allRules()[1:] {
							c := Converter{Path: p, Rules: rules}
							size, _ := to.ByteSize(int64(n))
							dst := make([]byte, size)
							if err := c.Convert(dst, to, src, from, n); err != nil {
								t.Fatalf("%+v %s → %s: %v", rules, from, to, err)
							}
							got, stray := refUnpack(to, dst, n)
							if stray {
								t.Errorf("%+v %s → %s: unused bits of the packed destination are not zero", rules, from, to)
							}
							bad := 0
							for i, v := range vec {
								wr, wi := refConvertRules(rules, from, to, v[0], v[1])
								if got[i] != [2]uint64{wr, wi} {
									if bad++; bad <= 3 {
										t.Errorf("%+v %s → %s: element %s gives %s, want %s", rules, from, to, vecKey(v), vecKey(got[i]), vecKey([2]uint64{wr, wi}))
									}
								}
							}
						}
					})
				}
			})
		}
	}
}

// narrowRuleCases are the narrow float targets with every rule variant that changes them (the
// FNUZ types also under OpenVINO, which takes ml_dtypes' rules for them).
func narrowRuleCases() []struct {
	r  Rules
	to element.Type
} {
	type c = struct {
		r  Rules
		to element.Type
	}
	var out []c
	onnx := []Rules{{Set: ONNX}, {Set: ONNX, NoSaturate: true}}
	ml := Rules{Set: MLDtypes}
	for _, to := range []element.Type{element.F8E4M3, element.F8E5M2, element.F8E4M3FNUZ, element.F8E5M2FNUZ} {
		out = append(out, c{ml, to}, c{onnx[0], to}, c{onnx[1], to})
		if to.IsFNUZ() {
			out = append(out, c{Rules{}, to})
		}
	}
	out = append(out, c{ml, element.F4E2M1}, c{onnx[0], element.F4E2M1}, c{ml, element.F8E8M0})
	for _, o := range onnx {
		for m := range numE8M0Roundings {
			o.E8M0Round = m
			out = append(out, c{o, element.F8E8M0})
		}
	}
	return out
}

// f32RulePatterns returns the f32 bit patterns of TestRulesNarrowExhaustive: the special values,
// every pattern within 2 of each f8/f4/e8m0 rounding boundary region start, a stride over all
// 2^32 patterns, and random patterns from a fixed seed; at least 2^20 in all unless short.
func f32RulePatterns(short bool) []uint32 {
	var out []uint32
	for _, b := range []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
		0xFF800001, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x00400000,
		0x00400001, 0x00600000, 0x3a8005f0} {
		out = append(out, b)
	}
	for _, x := range []float64{448, 464, 465, 480, 240, 248, 256, 57344, 61440, 65536, 6, 7, 8, 5, 0x1p-127,
		0x1.8p-127, 0x1p-126, 0x1p127, 0x1.8p127, 3, 1.5, 0x1p-9, 0x1p-10, 0x1p-11, 0x1p-16, 0x1p-17, 0x1p-18,
		0.25, 0.75, 0.5} {
		b := math.Float32bits(float32(x))
		for d := uint32(0); d < 3; d++ {
			out = append(out, b+d, b-d, b+d|0x80000000, (b-d)|0x80000000)
		}
	}
	stride, random := uint64(4093), 1<<16
	if short {
		stride, random = 1<<17+1, 1<<13
	}
	for b := uint64(0); b < 1<<32; b += stride {
		out = append(out, uint32(b))
	}
	r := rand.New(rand.NewPCG(19, 25))
	for range random {
		out = append(out, r.Uint32())
	}
	return out
}

// f64RulePatterns returns float64 sources at and next to every midpoint between neighbouring
// values of the narrow targets (where rounding once from f64 and rounding through f32 differ),
// and random patterns.
func f64RulePatterns() []uint64 {
	var out []uint64
	add := func(x float64) {
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1))} {
			out = append(out, math.Float64bits(y), math.Float64bits(-y))
		}
	}
	for _, f := range []*refFormat{rrE4M3, rrE5M2, rrE4M3FNUZ, rrE5M2FNUZ, rrE2M1} {
		for i := 1; i < len(f.vals); i++ {
			add((f.vals[i-1] + f.vals[i]) / 2)
		}
		add((f.vals[len(f.vals)-1] + f.over) / 2)
	}
	for k := -140; k <= 130; k++ {
		add(math.Ldexp(1, k))
		add(math.Ldexp(1.5, k))
	}
	for _, x := range []float64{0, math.Inf(1), math.NaN(), 1e300, 1e-300, 0x1p-1074} {
		add(x)
	}
	r := rand.New(rand.NewPCG(20, 26))
	for range 1 << 12 {
		out = append(out, r.Uint64())
	}
	return out
}

// TestRulesNarrowExhaustive converts to every narrow float target under every rule variant, on
// every path the CPU runs (the rule sets' SIMD kernels and their pure-Go loops), and compares
// each element with the independent reference (rules_reference_test.go): all 2^16
// f16 and bf16 patterns (a stride of 7 under -short), at least 2^20 f32 patterns (fewer under
// -short), and f64 values at and next to every rounding midpoint. 8-bit sources are exhaustive
// in TestAllPairsRules. Its subtests are pair/path, each looping over the target's rule variants.
func TestRulesNarrowExhaustive(t *testing.T) {
	short := testing.Short()
	step := 1
	if short {
		step = 7
	}
	var h16 []uint64
	for c := 0; c < 1<<16; c += step {
		h16 = append(h16, uint64(c))
	}
	var f32s []uint64
	for _, b := range f32RulePatterns(short) {
		f32s = append(f32s, uint64(b))
	}
	if !short && len(f32s) < 1<<20 {
		t.Fatalf("%d f32 patterns, want at least 2^20", len(f32s))
	}
	sources := []struct {
		from element.Type
		bits []uint64
	}{{element.F16, h16}, {element.BF16, h16}, {element.F32, f32s}, {element.F64, f64RulePatterns()}}
	var targets []element.Type // narrowRuleCases' targets, each once
	for _, c := range narrowRuleCases() {
		if !slices.Contains(targets, c.to) {
			targets = append(targets, c.to)
		}
	}
	for _, s := range sources {
		w := s.from.Bits() / 8
		src := make([]byte, w*len(s.bits)) // src and vals are read-only in the subtests
		for i, b := range s.bits {
			for k := range w {
				src[w*i+k] = byte(b >> (8 * k))
			}
		}
		vals := make([]refVal, len(s.bits))
		for i, b := range s.bits {
			vals[i] = refDecode(s.from, b, 0)
		}
		for _, to := range targets {
			t.Run(pairName(s.from, to), func(t *testing.T) {
				t.Parallel()
				for _, p := range Paths() {
					t.Run(p.String(), func(t *testing.T) {
						for _, c := range narrowRuleCases() {
							if c.to != to {
								continue
							}
							n := len(s.bits)
							size, _ := c.to.ByteSize(int64(n))
							dst := make([]byte, size)
							if err := (Converter{Path: p, Rules: c.r}).Convert(dst, c.to, src, s.from, n); err != nil {
								t.Fatal(err)
							}
							got, stray := refUnpack(c.to, dst, n)
							if stray {
								t.Errorf("%+v %v → %v: unused bits of the packed destination are not zero", c.r, s.from, c.to)
							}
							bad := 0
							for i, v := range vals {
								if want := refRulesEncode(c.r, c.to, v); got[i][0] != want {
									if bad++; bad <= 3 {
										t.Errorf("%+v %v %#x → %v: got %#x, want %#x", c.r, s.from, s.bits[i], c.to, got[i][0], want)
									}
								}
							}
							if bad > 3 {
								t.Errorf("%+v %v → %v: %d of %d differ", c.r, s.from, c.to, bad, n)
							}
						}
					})
				}
			})
		}
	}
}

// TestRulesPathsAgree: under every rule variant, every path gives the pure-Go path's bits for
// every pair, on random buffers long enough to reach the SIMD loops' main bodies and tails. Its
// subtests are pair/path, each looping over the rule variants.
func TestRulesPathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 1000 + 37
	ts := convertibleTypes()
	srcs := make(map[element.Type][]byte) // read-only in the subtests
	for _, from := range ts {
		size, _ := from.ByteSize(n)
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		srcs[from] = b
	}
	for _, from := range ts {
		for _, to := range ts {
			t.Run(pairName(from, to), func(t *testing.T) {
				t.Parallel()
				for _, p := range Paths() {
					if p == Generic {
						continue
					}
					t.Run(p.String(), func(t *testing.T) {
						for _, rules := range allRules() {
							c, g := WithPath(p, 1), WithPath(Generic, 1)
							c.Rules, g.Rules = rules, rules
							size, _ := to.ByteSize(n)
							want, got := make([]byte, size), make([]byte, size)
							if err := g.Convert(want, to, srcs[from], from, n); err != nil {
								t.Fatal(err)
							}
							if err := c.Convert(got, to, srcs[from], from, n); err != nil {
								t.Fatal(err)
							}
							if string(got) != string(want) {
								t.Errorf("%v %+v %v → %v: differs from the pure-Go path", p, rules, from, to)
							}
						}
					})
				}
			})
		}
	}
}

// TestRulesInvalid: a Converter with a field of Rules out of range is an error and writes
// nothing; ParseRuleSet and ParseE8M0Rounding read what String writes and reject the rest.
func TestRulesInvalid(t *testing.T) {
	src, dst := make([]byte, 4), []byte{0xA5}
	for _, r := range []Rules{{Set: 3}, {Set: ONNX, E8M0Round: 3}, {E8M0Round: 7}} {
		if err := (Converter{Rules: r}).Convert(dst, element.F8E4M3, src, element.F32, 1); !errors.Is(err, ErrInvalid) || dst[0] != 0xA5 {
			t.Errorf("%+v: err %v, dst %#x", r, err, dst[0])
		}
	}
	for s := range numRuleSets {
		if got, err := ParseRuleSet(s.String()); err != nil || got != s {
			t.Errorf("ParseRuleSet(%q) = %v, %v", s, got, err)
		}
	}
	for m := range numE8M0Roundings {
		if got, err := ParseE8M0Rounding(m.String()); err != nil || got != m {
			t.Errorf("ParseE8M0Rounding(%q) = %v, %v", m, got, err)
		}
	}
	if _, err := ParseRuleSet("ONNX"); err == nil {
		t.Error("ParseRuleSet accepts a spelling String does not write")
	}
	if _, err := ParseE8M0Rounding("ceil"); err == nil {
		t.Error("ParseE8M0Rounding accepts ceil")
	}
}

// TestRulesLargeSplit: a rule set's loop runs split across goroutines for a large
// conversion with the same bits as on one goroutine.
func TestRulesLargeSplit(t *testing.T) {
	const n = 3 * ParallelMinBytes / 4
	src := make([]byte, 4*n)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	one, many := make([]byte, n), make([]byte, n)
	c1, c4 := WithPath(Generic, 1), WithPath(Generic, 4)
	c1.Rules, c4.Rules = Rules{Set: MLDtypes}, Rules{Set: MLDtypes}
	if !c4.Rules.OwnLoop(element.F32, element.F8E4M3) || c4.Goroutines(element.F32, element.F8E4M3, n) < 2 {
		t.Fatalf("f32 → f8e4m3 under ml_dtypes, %d elements: own loop %v, %d goroutines; want the rule set's loop split",
			n, c4.Rules.OwnLoop(element.F32, element.F8E4M3), c4.Goroutines(element.F32, element.F8E4M3, n))
	}
	if err := c1.Convert(one, element.F8E4M3, src, element.F32, n); err != nil {
		t.Fatal(err)
	}
	if err := c4.Convert(many, element.F8E4M3, src, element.F32, n); err != nil {
		t.Fatal(err)
	}
	if string(one) != string(many) {
		t.Error("split conversion differs")
	}
}
