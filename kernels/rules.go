package kernels

import (
	"fmt"
	"slices"
	"strings"

	"github.com/convertpromote/convertpromote/element"
)

// RuleSet names whose conversion rules a Converter follows.
//
// OpenVINO is the default and the rules of docs/SEMANTICS.md §3 (two roundings through f16 for
// f32 → f8e4m3 and f8e5m2, NaN above 464 for f8e4m3, i32 → f16 saturating to ±65504, float →
// integer saturating).
//
// ONNX is ONNX's Cast (opset 25): float8 targets (f8e4m3 is FLOAT8E4M3FN, f8e5m2 is FLOAT8E5M2,
// and the two FNUZ types) honour Rules.NoSaturate, f8e8m0 targets honour Rules.E8M0Round, every
// float target is rounded once to nearest even from the source value, and integer → float
// overflows to ±Inf where the target has infinities. Float → integer, which ONNX leaves
// undefined out of range, truncates toward zero and saturates as under OpenVINO.
//
// MLDtypes is ml_dtypes 0.6 (JAX's and PyTorch's float8 casts): one rounding to nearest even,
// no saturation (overflow gives ±Inf where the target has it, NaN otherwise), NaN into f4e2m1
// gives -0 (a NaN with the sign bit set gives +0), zero or a negative value into f8e8m0 gives
// NaN, and float → integer truncates toward zero and then wraps modulo 2^N.
//
// The FNUZ types are not OpenVINO types; under OpenVINO they convert with ml_dtypes' rules.
// Complex types and nf4 follow OpenVINO's rules under every rule set. An integer source is
// rounded once too (to f32 first under OpenVINO).
//
// Special cases are (x is the source value; "sat" is ONNX's default saturate=1, "no sat"
// saturate=0; ±max is the target's largest finite value with x's sign):
//
//	f8e4m3, f8e5m2, FNUZ:   NaN → NaN (f8e4m3 0x7F/0xFF, f8e5m2 0x7F/0xFF under onnx and 0x7E/0xFE under ml_dtypes, by sign; FNUZ 0x80)
//	                        ±Inf, overflow → ±max (ONNX sat); ±Inf for f8e5m2, else NaN (ONNX no sat, ml_dtypes)
//	FNUZ:                   ±0 and a negative value rounding to zero → 0x00
//	f4e2m1:                 ±Inf, overflow → ±6; NaN → 6 (ONNX); NaN → 0x8 (-0), -NaN → 0x0 (ml_dtypes)
//	f8e8m0 (ONNX):          NaN → 0xFF; x < 2^-127 (±0 and x < 0 too) → 0x00 (sat) or 0xFF; x > 2^127 (+Inf too)
//	                        → 0xFE (sat) or 0xFF; otherwise x is rounded up (ceiling power of two), down or to
//	                        nearest (ties up)
//	f8e8m0 (ml_dtypes):     NaN, ±Inf, ±0, x < 0, x ≥ 1.5·2^127 → 0xFF; nearest power of two, ties up;
//	                        0 < x ≤ 2^-127 → 0x00, 2^-127 < x < 2^-126 → 0x01
//	i32 → f16 (ONNX, ml_dtypes): |x| ≥ 65520 → ±Inf (OpenVINO saturates to ±65504)
//	float → integer (ml_dtypes): truncate, wrap modulo 2^N; NaN, ±Inf → 0
type RuleSet uint8

// The rule sets.
const (
	OpenVINO RuleSet = iota // OpenVINO's Convert (the default)
	ONNX                    // ONNX Cast-25
	MLDtypes                // ml_dtypes 0.6
	numRuleSets
)

var ruleSetNames = [numRuleSets]string{"openvino", "onnx", "ml_dtypes"}

// String returns "openvino", "onnx" or "ml_dtypes".
func (r RuleSet) String() string {
	if r < numRuleSets {
		return ruleSetNames[r]
	}
	return fmt.Sprintf("kernels.RuleSet(%d)", uint8(r))
}

// ParseRuleSet reads a rule set name as String writes it.
func ParseRuleSet(s string) (RuleSet, error) {
	i, err := parseName(ruleSetNames[:], s, "rule set")
	return RuleSet(i), err
}

// parseName returns the index of s in names, or an error quoting s and listing the names.
func parseName(names []string, s, what string) (int, error) {
	for i, n := range names {
		if n == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (valid: %s)", what, s, strings.Join(names, ", "))
}

// E8M0Rounding is ONNX Cast's round_mode for f8e8m0 targets.
type E8M0Rounding uint8

// The f8e8m0 rounding modes of ONNX Cast. Each picks one of the two powers of two around |x|.
const (
	RoundUp      E8M0Rounding = iota // the larger ("up", ONNX's default)
	RoundDown                        // the smaller ("down")
	RoundNearest                     // the nearer, ties to the larger ("nearest")
	numE8M0Roundings
)

var e8m0RoundingNames = [numE8M0Roundings]string{"up", "down", "nearest"}

// String returns "up", "down" or "nearest", ONNX's spelling.
func (m E8M0Rounding) String() string {
	if m < numE8M0Roundings {
		return e8m0RoundingNames[m]
	}
	return fmt.Sprintf("kernels.E8M0Rounding(%d)", uint8(m))
}

// ParseE8M0Rounding reads "up", "down" or "nearest".
func ParseE8M0Rounding(s string) (E8M0Rounding, error) {
	i, err := parseName(e8m0RoundingNames[:], s, "f8e8m0 round mode")
	return E8M0Rounding(i), err
}

// Rules selects a rule set and, for ONNX, Cast's attributes. The zero value is OpenVINO's rules.
type Rules struct {
	// Set is the rule set.
	Set RuleSet
	// NoSaturate is ONNX Cast's saturate=0 for float8 targets; the zero value is ONNX's default
	// saturate=1. Other rule sets ignore it.
	NoSaturate bool
	// E8M0Round is ONNX Cast's round_mode for f8e8m0 targets; the zero value is ONNX's default,
	// RoundUp. Other rule sets ignore it.
	E8M0Round E8M0Rounding
}

// String names the rules as ONNX writes Cast's attributes: "openvino", "ml_dtypes", "onnx", and
// for ONNX the attributes that differ from their defaults, "onnx saturate=0 round_mode=down".
func (r Rules) String() string {
	s := r.Set.String()
	if r.Set == ONNX && r.NoSaturate {
		s += " saturate=0"
	}
	if r.Set == ONNX && r.E8M0Round != RoundUp {
		s += " round_mode=" + r.E8M0Round.String()
	}
	return s
}

// check reports an out-of-range field.
func (r Rules) check() error {
	if r.Set >= numRuleSets {
		return errorf(ErrInvalid, "kernels: invalid rule set %d", uint8(r.Set))
	}
	if r.E8M0Round >= numE8M0Roundings {
		return errorf(ErrInvalid, "kernels: invalid f8e8m0 round mode %d", uint8(r.E8M0Round))
	}
	return nil
}

// ignoring returns r without the fields its rule set ignores: NoSaturate and E8M0Round are
// ONNX's only.
func (r Rules) ignoring() Rules {
	if r.Set != ONNX {
		return Rules{Set: r.Set}
	}
	return r
}

// ruleVariants lists the rule variants that have pure-Go loops of their own: every valid Rules
// other than OpenVINO's, without the fields its rule set ignores, each once. variantIndex gives
// the position in it of every valid Rules (OpenVINO's entries are unused), and rulesTable is
// indexed by that position. Both are built once.
var ruleVariants, variantIndex = func() (vs []Rules, idx [numRuleSets][2][numE8M0Roundings]uint8) {
	for s := OpenVINO + 1; s < numRuleSets; s++ {
		for _, noSat := range []bool{false, true} {
			for m := range numE8M0Roundings {
				r := Rules{Set: s, NoSaturate: noSat, E8M0Round: m}.ignoring()
				i := slices.Index(vs, r)
				if i < 0 {
					i = len(vs)
					vs = append(vs, r)
				}
				idx[s][b2u(noSat)][m] = uint8(i)
			}
		}
	}
	return vs, idx
}()

// variant returns the position of r, valid and not OpenVINO's, in ruleVariants.
func (r Rules) variant() int { return int(variantIndex[r.Set][b2u(r.NoSaturate)][r.E8M0Round]) }

// rulesTable holds the pure-Go loop of every pair whose rules differ from OpenVINO's, per
// variant; nil entries take OpenVINO's kernels. A pair with a row in ruleRegistry runs the row's
// loop (ruleLoops), the others the rule set's generic loop (blockLoop). Built once so that a
// Converter with rules does not allocate.
var rulesTable = func() [][numTypes][numTypes]loopFunc {
	t := make([][numTypes][numTypes]loopFunc, len(ruleVariants))
	for v, r := range ruleVariants {
		for _, from := range element.All() {
			for _, to := range element.All() {
				if genericKernel(from, to) != nil && rulesDiffer(r.Set, from, to) {
					t[v][from][to] = blockLoop(r, from, to)
				}
			}
		}
		for _, l := range ruleLoops {
			if r.forPair(l.to) == l.rules {
				t[v][l.from][l.to] = l.f
			}
		}
	}
	return t
}()

// ruleLoop is the loop of a row of ruleRegistry (direct_generic.go, generated from the row).
type ruleLoop struct {
	rules    Rules
	from, to element.Type
	f        loopFunc
}

// forPair returns r without the fields that do not change how a pair converts to to: under ONNX,
// NoSaturate matters to the float8 targets alone and E8M0Round to f8e8m0 alone; other rule sets
// have no fields (see ignoring).
func (r Rules) forPair(to element.Type) Rules {
	r = r.ignoring()
	if r.Set != ONNX {
		return r
	}
	switch to {
	case element.F8E4M3, element.F8E5M2, element.F8E4M3FNUZ, element.F8E5M2FNUZ:
		r.E8M0Round = RoundUp
	case element.F8E8M0:
	default:
		r.NoSaturate, r.E8M0Round = false, RoundUp
	}
	return r
}

// ruleKernel returns the loop of the pair under the rule variant v on path p (resolved): the
// path's SIMD kernel from ruleRegistry when it has one, else the rule set's pure-Go loop; nil
// for a pair that converts as under OpenVINO.
func ruleKernel(p Path, v int, from, to element.Type) loopFunc {
	if p < numPaths && p != Generic {
		if f := ruleSIMD[p][v][from][to]; f != nil {
			return f
		}
	}
	return rulesTable[v][from][to]
}

// OwnLoop reports whether the pair runs the rule set's own loop under r rather than OpenVINO's
// kernels: the pairs the rule set converts differently from OpenVINO. Those pairs run the rule
// set's SIMD kernels where ruleRegistry has them (HasRuleKernel) and its pure-Go loop otherwise.
// It is false for OpenVINO's rules and for rules with a field out of range.
func (r Rules) OwnLoop(from, to element.Type) bool {
	return r.Set != OpenVINO && r.check() == nil && uint(from)|uint(to) < numTypes &&
		rulesTable[r.variant()][from][to] != nil
}

// rulesDiffer reports whether rule set s converts the pair differently from OpenVINO. The pairs
// it does not (f16, bf16, f32 and f64 among themselves except from f64 to f16 and bf16, every
// decode of a narrow float to f16, bf16, f32 or f64, integer → f32 and f64) keep OpenVINO's
// kernels, SIMD included.
// HasRuleKernel reports whether path p (Best: the best path) has a SIMD kernel for the pair under
// r's own loop: the rule set's, or OpenVINO's where the rule set's codes of the pair are
// OpenVINO's (docs/kernels.md, "The rule sets' kernels"); true only where OwnLoop is.
func (r Rules) HasRuleKernel(p Path, from, to element.Type) bool {
	p = p.resolve()
	return r.OwnLoop(from, to) && p < numPaths && p != Generic && ruleSIMD[p][r.variant()][from][to] != nil
}

func rulesDiffer(s RuleSet, from, to element.Type) bool {
	if s == OpenVINO || from == to || from == element.NF4 || to == element.NF4 ||
		from.IsComplex() || to.IsComplex() {
		return false
	}
	switch to {
	case element.F8E4M3, element.F8E5M2, element.F8E4M3FNUZ, element.F8E5M2FNUZ, element.F8E8M0, element.F4E2M1:
		return true
	case element.F16, element.BF16:
		switch from {
		case element.F64, element.I32:
			return true // OpenVINO: two roundings through f32; i32 → f16 saturates
		case element.U32, element.I64, element.U64:
			return to == element.BF16 // two roundings through f32 (f16 overflows either way)
		}
		return false
	}
	if s == MLDtypes && from.IsReal() {
		switch to {
		case element.I8, element.I16, element.I32, element.I64, element.U8, element.U16, element.U32, element.U64:
			return true // wrap instead of saturate
		}
	}
	return false
}
