package kernels

// Independent reference of the ONNX and ml_dtypes rule sets (and of the FNUZ types under
// OpenVINO, which take ml_dtypes' rules), written from the rules as the rule set documentation
// states them, not from rules_generic.go. A narrow float is a sorted table of every finite
// non-negative value of the format (fieldValue, by code), and rounding picks the nearest value
// with ties to the even code (refFormat.round). Every value involved (sources up to float64,
// table values, their midpoints) is a dyadic rational exact in float64, so float64 comparisons
// are exact comparisons of the rationals. f8e8m0 candidates are found by bisection over powers
// of two; integers go through math/big.

import (
	"math"
	"math/big"

	"github.com/convertpromote/convertpromote/element"
)

// refOverflow is the code refFormat.round gives past the largest finite value: the next value
// of the format's unbounded exponent range, so that the tie at the boundary goes by parity.
const refOverflow = 1 << 20

func refRulesFormat(expBits, mantBits, bias int, maxCode uint64, signBit uint64) *refFormat {
	vals := ieeeTable(expBits, mantBits, bias, maxCode)
	// The value after the largest: code maxCode+1 read as a normal number, its exponent field
	// allowed one past the format's.
	c := maxCode + 1
	e, m := int(c>>uint(mantBits)), float64(c&(1<<uint(mantBits)-1))
	next := math.Ldexp(m+math.Ldexp(1, mantBits), e-bias-mantBits)
	return &refFormat{vals: vals, over: next, overCode: refOverflow, signBit: signBit}
}

var (
	rrE4M3     = refRulesFormat(4, 3, 7, 0x7E, 0x80)
	rrE5M2     = refRulesFormat(5, 2, 15, 0x7B, 0x80)
	rrE4M3FNUZ = refRulesFormat(4, 3, 8, 0x7F, 0x80)
	rrE5M2FNUZ = refRulesFormat(5, 2, 16, 0x7F, 0x80)
	rrE2M1     = refRulesFormat(2, 1, 1, 0x7, 0x8)
	rrF16      = refRulesFormat(5, 10, 15, 0x7BFF, 0x8000)
	rrBF16     = refRulesFormat(8, 7, 127, 0x7F7F, 0x8000)
)

// refRuleSpec is what a rule set's documentation says for one narrow target.
type refRuleSpec struct {
	f              *refFormat
	maxCode        uint64
	infCode        uint64 // 0: no infinity
	nanPos, nanNeg uint64
	sat            bool // overflow and ±Inf give ±max
	noNegZero      bool
}

func refSpec(r Rules, to element.Type) refRuleSpec {
	sat := r.Set == ONNX && !r.NoSaturate
	switch to {
	case element.F8E4M3: // E4M3FN: NaN S.1111.111 keeps the sign (ONNX's table: -NaN → -NaN)
		return refRuleSpec{f: rrE4M3, maxCode: 0x7E, nanPos: 0x7F, nanNeg: 0xFF, sat: sat}
	case element.F8E5M2:
		if r.Set == ONNX { // onnx.helper's float32_to_float8e5m2: NaN → 0x7F | sign
			return refRuleSpec{f: rrE5M2, maxCode: 0x7B, infCode: 0x7C, nanPos: 0x7F, nanNeg: 0xFF, sat: sat}
		}
		return refRuleSpec{f: rrE5M2, maxCode: 0x7B, infCode: 0x7C, nanPos: 0x7E, nanNeg: 0xFE, sat: sat}
	case element.F8E4M3FNUZ:
		return refRuleSpec{f: rrE4M3FNUZ, maxCode: 0x7F, nanPos: 0x80, nanNeg: 0x80, sat: sat, noNegZero: true}
	case element.F8E5M2FNUZ:
		return refRuleSpec{f: rrE5M2FNUZ, maxCode: 0x7F, nanPos: 0x80, nanNeg: 0x80, sat: sat, noNegZero: true}
	case element.F4E2M1:
		if r.Set == ONNX { // ONNX's float4 table: NaN → 6, ±Inf and overflow → ±6
			return refRuleSpec{f: rrE2M1, maxCode: 7, nanPos: 7, nanNeg: 7, sat: true}
		}
		// ml_dtypes: NaN → its "NaN" pattern 0x8 (-0), negated for a negative NaN; its
		// "infinity" is 6, so overflow and ±Inf give ±6.
		return refRuleSpec{f: rrE2M1, maxCode: 7, nanPos: 8, nanNeg: 0, sat: true}
	case element.F16:
		return refRuleSpec{f: rrF16, maxCode: 0x7BFF, infCode: 0x7C00}
	case element.BF16:
		return refRuleSpec{f: rrBF16, maxCode: 0x7F7F, infCode: 0x7F80}
	}
	panic("refSpec " + to.String())
}

// refRuleNarrow encodes the exact value x (or a NaN with sign bit neg) by spec s.
func refRuleNarrow(s refRuleSpec, x float64, nan, neg bool) uint64 {
	if nan {
		if neg {
			return s.nanNeg
		}
		return s.nanPos
	}
	sign := uint64(0)
	if neg {
		sign = s.f.signBit
	}
	var c uint64
	if math.IsInf(x, 0) {
		c = refOverflow
	} else {
		c = s.f.round(math.Abs(x))
	}
	if c >= refOverflow {
		switch {
		case s.sat:
			c = s.maxCode
		case s.infCode != 0:
			c = s.infCode
		default:
			return refRuleNarrow(s, 0, true, neg)
		}
	}
	if c == 0 && s.noNegZero {
		return 0
	}
	return sign | c
}

// refPow2Floor returns the k with 2^k ≤ a < 2^(k+1), by bisection over the float64 exponents.
func refPow2Floor(a float64) int {
	lo, hi := -1100, 1100 // 2^lo ≤ a < 2^hi
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if math.Ldexp(1, mid) <= a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// refE8M0ONNX: ONNX's table read on x itself: x < 2^-127 (zero and negative values included)
// saturates to 0x00 or, without saturate, is NaN; x > 2^127 (+Inf included) saturates to 0xFE
// or is NaN; in between, x goes to a power of two by the round mode (up: the smallest 2^k ≥ x;
// down: the largest 2^k ≤ x; nearest: the nearer, ties to the larger).
//
// above says that the source is an integer a little larger in magnitude than x (x is its
// truncation to float64's precision).
func refE8M0ONNX(r Rules, x float64, nan, above bool) uint64 {
	if nan {
		return 0xFF
	}
	sat := !r.NoSaturate
	lo, hi := math.Ldexp(1, -127), math.Ldexp(1, 127)
	switch {
	case x < lo: // negative, zero, or below the smallest power
		if sat {
			return 0x00
		}
		return 0xFF
	case x > hi || x == hi && above:
		if sat {
			return 0xFE
		}
		return 0xFF
	}
	k := refPow2Floor(x)
	p := math.Ldexp(1, k)
	if x != p || above {
		switch r.E8M0Round {
		case RoundUp:
			k++
		case RoundNearest:
			if x >= p+p/2 { // 1.5·p is exact, so the truncation cannot cross it
				k++
			}
		}
	}
	return uint64(k + 127)
}

// refE8M0ML: NaN, ±Inf, zero and negative values are NaN; otherwise the nearest point of the
// grid {0 (coded 0x00), 2^-126 … 2^127, 2^128 (NaN)}, a tie going to the point that is an even
// multiple of the lower point's spacing (2^-126 below 2^-126, the lower point itself above).
//
// above is as for refE8M0ONNX.
func refE8M0ML(x float64, nan, above bool) uint64 {
	if nan || !(x > 0) || math.IsInf(x, 0) {
		return 0xFF
	}
	var lo, hi, q float64 // neighbours on the grid and the spacing at lo
	if x < 0x1p-126 {
		lo, hi, q = 0, 0x1p-126, 0x1p-126
	} else {
		lo = math.Ldexp(1, refPow2Floor(x))
		hi, q = 2*lo, lo
	}
	pick := lo
	switch mid := (lo + hi) / 2; {
	case x > mid:
		pick = hi
	case x == mid && (above || math.Mod(hi/q, 2) == 0):
		pick = hi
	}
	switch {
	case pick == 0:
		return 0x00
	case pick > 0x1p127:
		return 0xFF
	}
	return uint64(refPow2Floor(pick) + 127)
}

// refRulesTarget reports whether refRulesEncode models target to.
func refRulesTarget(to element.Type) bool {
	switch to {
	case element.F8E4M3, element.F8E5M2, element.F8E4M3FNUZ, element.F8E5M2FNUZ, element.F4E2M1, element.F8E8M0:
		return true
	}
	return false
}

// refRulesEncode encodes decoded source v into narrow float type to under r (ONNX or ml_dtypes;
// the FNUZ targets also under OpenVINO, with ml_dtypes' rules).
func refRulesEncode(r Rules, to element.Type, v refVal) uint64 {
	x, nan, neg := refExact(v)
	if to == element.F8E8M0 {
		above := false
		if v.isInt { // f8e8m0 reaches 2^127: an integer's rounding to float64 would matter
			a := new(big.Int).Abs(v.i)
			if sh := a.BitLen() - 53; sh > 0 { // truncate to 53 bits, remember the rest
				t := new(big.Int).Rsh(a, uint(sh))
				above = new(big.Int).Lsh(t, uint(sh)).Cmp(a) != 0
				x = math.Ldexp(float64(t.Uint64()), sh)
				if neg {
					x = -x
				}
			}
		}
		if r.Set == ONNX {
			return refE8M0ONNX(r, x, nan, above)
		}
		return refE8M0ML(x, nan, above)
	}
	if r.Set == OpenVINO {
		r = Rules{Set: MLDtypes}
	}
	return refRuleNarrow(refSpec(r, to), x, nan, neg)
}

// refExact returns the source value as float64 for a narrow target: exact for float sources,
// and for integers the nearest float64, which rounds to the same narrow value for the targets
// with a mantissa, since every integer that float64 rounds overflows them (|x| ≥ 2^53 > their
// maxima). f8e8m0 takes integers another way (refRulesEncode).
func refExact(v refVal) (x float64, nan, neg bool) {
	switch {
	case v.isInt:
		f, _ := new(big.Float).SetInt(v.i).Float64()
		return f, false, v.i.Sign() < 0
	case v.nan && v.wide:
		return 0, true, v.nan64>>63 != 0
	case v.nan:
		return 0, true, v.nan32>>31 != 0
	}
	return v.f, false, math.Signbit(v.f)
}

// refRulesIEEE16 encodes v as f16 or bf16 with one rounding from the exact value (integers
// through big.Float at the target's precision) and overflow to ±Inf; a NaN as OpenVINO's
// f32 stage does.
func refRulesIEEE16(to element.Type, v refVal) uint64 {
	if v.isInt && to == element.BF16 {
		f, _ := new(big.Float).SetPrec(8).SetMode(big.ToNearestEven).SetInt(v.i).Float32()
		return uint64(math.Float32bits(f) >> 16)
	}
	x, nan, neg := refExact(v)
	if nan {
		return refEncodeFloat(to, v)
	}
	return refRuleNarrow(refSpec(Rules{Set: ONNX}, to), x, false, neg)
}

// refRulesInt is ml_dtypes' float → integer: truncate toward zero, keep the low bits (NaN, ±Inf
// → 0).
func refRulesInt(to element.Type, v refVal) uint64 {
	x, nan, _ := refExact(v)
	if nan || math.IsInf(x, 0) {
		return 0
	}
	i, _ := new(big.Float).SetFloat64(x).Int(nil)
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(to.Bits())), big.NewInt(1))
	return new(big.Int).And(i, mask).Uint64()
}

// refConvertRules is refConvert under rules r.
func refConvertRules(r Rules, from, to element.Type, re, im uint64) (uint64, uint64) {
	if r.Set == OpenVINO || from == to || !refRulesDiffer(r, from, to) {
		return refConvert(from, to, re, im)
	}
	v := refDecode(from, re, im)
	switch {
	case refRulesTarget(to):
		return refRulesEncode(r, to, v), 0
	case to == element.F16 || to == element.BF16:
		return refRulesIEEE16(to, v), 0
	}
	return refRulesInt(to, v), 0
}

// refRulesDiffer lists, from the rule set documentation, the pairs whose rules are not
// OpenVINO's.
func refRulesDiffer(r Rules, from, to element.Type) bool {
	if from.IsComplex() || to.IsComplex() || from == element.NF4 || to == element.NF4 {
		return false
	}
	if refRulesTarget(to) {
		return true
	}
	if to == element.F16 || to == element.BF16 {
		return from == element.F64 || from == element.I32 ||
			to == element.BF16 && (from == element.U32 || from == element.I64 || from == element.U64)
	}
	return r.Set == MLDtypes && from.IsReal() && to.IsInteger() && to.Bits() >= 8
}
