package onnxruntime

// An independent reference for the ONNX Cast-25 specification's float8 tables (docs/Operators.md,
// Cast): values are exact float64 numbers, rounding is to nearest even at the target's precision
// with an unbounded exponent ("[x]"), and the special rows of the tables are written out. It
// shares no code with package kernels.

import (
	"math"
	"math/bits"

	"github.com/convertpromote/convertpromote/element"
)

// f8format describes a float8 layout by its parameters.
type f8format struct {
	name  string
	ebits uint
	mbits uint
	bias  int
	fnuz  bool // no infinity, no negative zero, the single NaN 0x80
	ieee  bool // infinities at exponent all ones, mantissa zero; other all-ones codes are NaN
	// Otherwise (e4m3fn): no infinity, NaN is S.1111.111 only.
}

var (
	fmtE4M3FN   = f8format{name: "f8e4m3", ebits: 4, mbits: 3, bias: 7}
	fmtE5M2     = f8format{name: "f8e5m2", ebits: 5, mbits: 2, bias: 15, ieee: true}
	fmtE4M3FNUZ = f8format{name: "f8e4m3fnuz", ebits: 4, mbits: 3, bias: 8, fnuz: true}
	fmtE5M2FNUZ = f8format{name: "f8e5m2fnuz", ebits: 5, mbits: 2, bias: 16, fnuz: true}
)

// decode returns the value of code c; nan reports a NaN code (value is then 0).
func (f f8format) decode(c uint8) (v float64, nan bool) {
	sign := c>>7 != 0
	e := int(c>>f.mbits) & (1<<f.ebits - 1)
	m := int(c) & (1<<f.mbits - 1)
	emax := 1<<f.ebits - 1
	switch {
	case f.fnuz && c == 0x80:
		return 0, true
	case f.ieee && e == emax && m != 0:
		return 0, true
	case f.ieee && e == emax:
		v = math.Inf(1)
	case !f.fnuz && !f.ieee && e == emax && m == 1<<f.mbits-1:
		return 0, true
	case e == 0:
		v = math.Ldexp(float64(m), 1-f.bias-int(f.mbits))
	default:
		v = math.Ldexp(float64(m|1<<f.mbits), e-f.bias-int(f.mbits))
	}
	if sign {
		v = -v
	}
	return v, false
}

// f8max caches max, which specF8 needs for every input.
var f8max = map[string]float64{}

func init() {
	for _, f := range []f8format{fmtE4M3FN, fmtE5M2, fmtE4M3FNUZ, fmtE5M2FNUZ} {
		f8max[f.name] = f.max()
	}
}

// max is the largest finite value.
func (f f8format) max() float64 {
	m := 0.0
	for c := 0; c < 0x80; c++ {
		if v, nan := f.decode(uint8(c)); !nan && !math.IsInf(v, 0) && v > m {
			m = v
		}
	}
	return m
}

// round is [x] for x ≥ 0: x rounded to nearest even at the target's precision, subnormals
// included, with no upper bound on the exponent.
func (f f8format) round(x float64) float64 {
	if x == 0 {
		return 0
	}
	_, e := math.Frexp(x) // x = frac · 2^e, frac in [0.5, 1)
	e--                   // x in [2^e, 2^(e+1))
	if emin := 1 - f.bias; e < emin {
		e = emin
	}
	q := math.Ldexp(1, e-int(f.mbits))
	return math.RoundToEven(x/q) * q
}

// encode returns the code of the finite value r ≥ 0 that round produced and that is at most max.
func (f f8format) encode(r float64) uint8 {
	if r == 0 {
		return 0
	}
	_, e := math.Frexp(r)
	e--
	emin := 1 - f.bias
	if e < emin {
		return uint8(r / math.Ldexp(1, emin-int(f.mbits)))
	}
	m := uint8(r/math.Ldexp(1, e-int(f.mbits))) &^ (1 << f.mbits)
	return uint8(e+f.bias)<<f.mbits | m
}

// answer is the set of codes the specification allows, and the table row it comes from.
type answer struct {
	set   [4]uint64
	class class
}

func (a *answer) add(c uint8)         { a.set[c>>6] |= 1 << (c & 63) }
func (a answer) has(c uint8) bool     { return a.set[c>>6]>>(c&63)&1 != 0 }
func one(c uint8, k class) (a answer) { a.class = k; a.add(c); return a }
func anyCode(k class) (a answer) {
	a.class = k
	a.set = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	return a
}
func (a answer) union(c uint8) answer { a.add(c); return a }

// nans returns the set of NaN codes with the sign bit set (neg) or clear (pos), from a cache.
func (f f8format) nans(neg, pos bool, k class) answer {
	a := nanSets[nanKey{f.name, neg, pos}]
	a.class = k
	return a
}

type nanKey struct {
	name     string
	neg, pos bool
}

var nanSets = map[nanKey]answer{}

func init() {
	for _, f := range []f8format{fmtE4M3FN, fmtE5M2, fmtE4M3FNUZ, fmtE5M2FNUZ} {
		for _, k := range []nanKey{{f.name, true, false}, {f.name, false, true}, {f.name, true, true}} {
			nanSets[k] = f.nanSet(k.neg, k.pos)
		}
	}
}

func (f f8format) nanSet(neg, pos bool) (a answer) {
	for c := 0; c < 256; c++ {
		if _, nan := f.decode(uint8(c)); nan && (c>>7 != 0 && neg || c>>7 == 0 && pos) {
			a.add(uint8(c))
		}
	}
	return a
}

// class names a row of the specification's tables (the input's kind).
type class uint8

const (
	clRNE      class = iota // a finite value whose [x] is in range: round to nearest even
	clZero                  // ±0
	clNaN                   // NaN
	clInf                   // ±infinity
	clOverflow              // finite, [x] beyond ±FLT_MAX
	clE8Under               // e8m0: x below 2^-127
	clNegative              // e8m0: x ≤ 0, below E8M0_MIN
	clExact                 // a decode or widening: the exact value
	clIEEE                  // a narrowing to f16 or bf16: rounded once, to nearest even
	numClasses
)

var classNames = [numClasses]string{"RNE", "±0", "NaN", "±Inf", "[x] beyond FLT_MAX", "x below E8M0_MIN", "x ≤ 0", "exact", "IEEE rounding"}

func (k class) String() string { return classNames[k] }

// specF8 is the Cast-25 answer for the value x (NaN and infinities allowed) into format f.
func specF8(f f8format, x float64, saturate bool) answer {
	neg := math.Signbit(x)
	switch {
	case math.IsNaN(x):
		switch {
		case f.fnuz:
			return one(0x80, clNaN)
		case saturate: // one row, "NaN"
			return f.nans(true, true, clNaN)
		default: // rows "NaN → NaN" and "-NaN → -NaN"
			return f.nans(neg, !neg, clNaN)
		}
	case math.IsInf(x, 0):
		// e4m3fn without saturation: "Inf → NaN", "-Inf → -NaN".
		return f.outOfRange(neg, saturate, f.nans(neg, !neg, clInf), clInf)
	case x == 0:
		if f.fnuz {
			return one(0, clZero)
		}
		return one(boolBit(neg), clZero)
	}
	r := f.round(math.Abs(x))
	if r > f8max[f.name] {
		// e4m3fn without saturation: "[x] > FLT_MAX → NaN", "[x] < -FLT_MAX → NaN", sign not given.
		return f.outOfRange(neg, saturate, f.nans(true, true, clOverflow), clOverflow)
	}
	c := f.encode(r)
	if neg && !(f.fnuz && c == 0) { // FNUZ has no -0: a negative value rounding to zero gives 0
		c |= 0x80
	}
	return one(c, clRNE)
}

// outOfRange is the answer for ±Inf and for [x] beyond ±FLT_MAX: ±FLT_MAX when saturating,
// otherwise NaN (FNUZ), ±Inf (e5m2) or e4m3fnNaN.
func (f f8format) outOfRange(neg, saturate bool, e4m3fnNaN answer, k class) answer {
	switch {
	case saturate:
		return one(f.encode(f8max[f.name])|boolBit(neg), k)
	case f.fnuz:
		return one(0x80, k)
	case f.ieee:
		return one(f.encodeInf()|boolBit(neg), k)
	}
	return e4m3fnNaN
}

func boolBit(b bool) uint8 {
	if b {
		return 0x80
	}
	return 0
}

func (f f8format) encodeInf() uint8 { return uint8(1<<f.ebits-1) << f.mbits }

// e8m0 round modes as the Cast attribute spells them.
var roundModes = []string{"up", "down", "nearest"}

// specE8M0 is the Cast-25 answer for x into float8e8m0 (values 2^(c-127), c = 0…254; 0xFF NaN).
// The table's rows "x > E8M0_MAX" and "x < E8M0_MIN" are read on x itself, so a value beyond
// the range is out of range even when its rounding would not be, and a negative value or a zero
// is below E8M0_MIN: with saturate they give 0xFE and 0x00, without it NaN. In the range, round_mode
// up rounds a value between two powers of two to the larger, down to the smaller, nearest to the
// closer one with the midpoint 1.5·2^k going up.
func specE8M0(x float64, mode string, saturate bool) answer {
	const maxCode, nan = 0xFE, 0xFF
	switch {
	case math.IsNaN(x):
		return one(nan, clNaN)
	case x > math.Ldexp(1, 127):
		if saturate {
			return one(maxCode, clOverflow)
		}
		return one(nan, clOverflow)
	case x < math.Ldexp(1, -127):
		c := clE8Under
		if x <= 0 {
			c = clNegative
		}
		if saturate {
			return one(0, c)
		}
		return one(nan, c)
	}
	frac, e := math.Frexp(x)
	k := e - 1 // x = 2·frac · 2^k, 2·frac in [1, 2)
	m := 2 * frac
	switch mode {
	case "up":
		if m > 1 {
			k++
		}
	case "nearest":
		if m >= 1.5 {
			k++
		}
	}
	return one(uint8(k+127), clRNE)
}

// srcValue decodes one source element of a float type to float64 (exact for every source here).
func srcValue(t element.Type, b []byte, i int) float64 {
	switch t {
	case element.F32:
		return float64(math.Float32frombits(le32(b[4*i:])))
	case element.F64:
		return math.Float64frombits(le64(b[8*i:]))
	case element.F16:
		return ieee16(uint16(b[2*i])|uint16(b[2*i+1])<<8, 5, 10)
	case element.BF16:
		return float64(math.Float32frombits(uint32(b[2*i])<<16 | uint32(b[2*i+1])<<24))
	}
	panic("srcValue: " + t.String())
}

// ieee16 decodes a 16-bit IEEE-style pattern with ebits exponent and mbits mantissa bits.
func ieee16(h uint16, ebits, mbits uint) float64 {
	e := int(h>>mbits) & (1<<ebits - 1)
	m := int(h) & (1<<mbits - 1)
	bias := 1<<(ebits-1) - 1
	var v float64
	switch {
	case e == 1<<ebits-1 && m != 0:
		v = math.NaN()
	case e == 1<<ebits-1:
		v = math.Inf(1)
	case e == 0:
		v = math.Ldexp(float64(m), 1-bias-int(mbits))
	default:
		v = math.Ldexp(float64(m|1<<mbits), e-bias-int(mbits))
	}
	if h>>15 != 0 {
		v = math.Copysign(v, -1)
	}
	return v
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func le64(b []byte) uint64 { return uint64(le32(b)) | uint64(le32(b[4:]))<<32 }

// f8Format returns the layout of a float8 type other than f8e8m0.
func f8Format(t element.Type) (f8format, bool) {
	switch t {
	case element.F8E4M3:
		return fmtE4M3FN, true
	case element.F8E5M2:
		return fmtE5M2, true
	case element.F8E4M3FNUZ:
		return fmtE4M3FNUZ, true
	case element.F8E5M2FNUZ:
		return fmtE5M2FNUZ, true
	}
	return f8format{}, false
}

// ieeeFormat is a 16-bit IEEE-style format (f16, bf16) for the reference of the casts that ONNX
// rounds as IEEE 754 does: once, to nearest even, from the exact source value, overflowing to ±Inf.
type ieeeFormat struct{ ebits, mbits uint }

var (
	fmtF16  = ieeeFormat{5, 10}
	fmtBF16 = ieeeFormat{8, 7}
)

func (f ieeeFormat) bias() int { return 1<<(f.ebits-1) - 1 }

// encode returns the pattern of x rounded once to nearest even: x is exact (a float64 that holds
// the source value exactly, or an integer source rounded to mbits+1 significant bits first, which
// leaves the rounding here exact).
func (f ieeeFormat) encode(x float64) uint16 {
	sign := uint16(0)
	if math.Signbit(x) {
		sign = 0x8000
	}
	inf := uint16(1<<f.ebits-1) << f.mbits
	switch {
	case math.IsNaN(x):
		return inf | 1<<(f.mbits-1) // a quiet NaN; the caller accepts any NaN
	case math.IsInf(x, 0):
		return sign | inf
	case x == 0:
		return sign
	}
	x = math.Abs(x)
	_, e := math.Frexp(x)
	e--
	emin := 1 - f.bias()
	if e < emin {
		e = emin
	}
	q := math.Ldexp(1, e-int(f.mbits))
	r := math.RoundToEven(x/q) * q
	_, e = math.Frexp(r)
	e--
	switch {
	case r == 0:
		return sign
	case math.IsInf(r, 0) || e > f.bias(): // r overflows float64 only for sources far beyond range
		return sign | inf
	case e < emin:
		return sign | uint16(r/math.Ldexp(1, emin-int(f.mbits)))
	}
	m := uint16(r/math.Ldexp(1, e-int(f.mbits))) &^ (1 << f.mbits)
	return sign | uint16(e+f.bias())<<f.mbits | m
}

// intValue returns integer source element i rounded to nearest even at p significant bits, as a
// float64 (exact). Rounding an integer once here and again in ieeeFormat.encode is still one
// rounding: the value is an integer with at most p significant bits, which encode keeps.
func intValue(t element.Type, b []byte, i int, p uint) float64 {
	var v uint64
	neg := false
	switch t {
	case element.I16:
		s := int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
		neg, v = s < 0, uint64(absInt(int64(s)))
	case element.I32:
		s := int32(le32(b[4*i:]))
		neg, v = s < 0, uint64(absInt(int64(s)))
	case element.U32:
		v = uint64(le32(b[4*i:]))
	case element.I64:
		s := int64(le64(b[8*i:]))
		neg, v = s < 0, uint64(absInt(s))
	case element.U64:
		v = le64(b[8*i:])
	default:
		panic("intValue: " + t.String())
	}
	if n := uint(bits.Len64(v)); n > p {
		shift := n - p
		q, rem, half := v>>shift, v&(1<<shift-1), uint64(1)<<(shift-1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
		v = q << shift // may be 2^64 when q overflows into bit 64: handled below
		if v == 0 {
			return sign(neg, math.Ldexp(1, 64))
		}
	}
	return sign(neg, float64(v))
}

// absInt is |s| as a uint64 (also for the most negative value).
func absInt(s int64) uint64 {
	if s < 0 {
		return uint64(-s)
	}
	return uint64(s)
}

func sign(neg bool, x float64) float64 {
	if neg {
		return -x
	}
	return x
}
