package kernels

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/convertpromote/convertpromote/element"
)

// The rules of ONNX and ml_dtypes in pure Go, written once as decode to wide, encode from wide:
// a block is decoded as under OpenVINO (decodeBlock), widened to float64 without a rounding
// that could change the final result (wide64), and encoded by the target's rule.

// narrowFormat describes a small binary float for encodeNarrow.
type narrowFormat struct {
	mant      uint   // explicit mantissa bits
	bias      int    // exponent bias
	maxCode   uint64 // magnitude bits of the largest finite value
	sign      uint64 // the sign bit
	inf       uint64 // magnitude bits of infinity, 0 when the format has none
	nanPos    uint64 // the code a NaN becomes; nanNeg for a NaN with the sign bit set
	nanNeg    uint64
	noNegZero bool // FNUZ: a zero result is +0 whatever the sign
}

// The formats, with the NaN codes ml_dtypes gives (ONNX's are the same except for f8e5m2 and
// f4e2m1, see fmtE5M2ONNX and fmtE2M1ONNX).
var (
	fmtE4M3 = narrowFormat{mant: 3, bias: 7, maxCode: 0x7E, sign: 0x80, nanPos: 0x7F, nanNeg: 0xFF}
	fmtE5M2 = narrowFormat{mant: 2, bias: 15, maxCode: 0x7B, sign: 0x80, inf: 0x7C, nanPos: 0x7E, nanNeg: 0xFE}
	// ONNX's f8e5m2 NaN is S.11111.11 (onnx.helper's float32_to_float8e5m2 and ONNX Runtime),
	// where ml_dtypes gives S.11111.10.
	fmtE5M2ONNX = narrowFormat{mant: 2, bias: 15, maxCode: 0x7B, sign: 0x80, inf: 0x7C, nanPos: 0x7F, nanNeg: 0xFF}
	fmtE4M3FNUZ = narrowFormat{mant: 3, bias: 8, maxCode: 0x7F, sign: 0x80, nanPos: 0x80, nanNeg: 0x80, noNegZero: true}
	fmtE5M2FNUZ = narrowFormat{mant: 2, bias: 16, maxCode: 0x7F, sign: 0x80, nanPos: 0x80, nanNeg: 0x80, noNegZero: true}
	// ml_dtypes' float4_e2m1fn: its "NaN" is the pattern of -0, negated (to +0) for a NaN with
	// the sign bit set; its "infinity" is ±6, so overflow saturates.
	fmtE2M1ML = narrowFormat{mant: 1, bias: 1, maxCode: 0x7, sign: 0x8, nanPos: 0x8, nanNeg: 0x0}
	// ONNX's FLOAT4E2M1 table: NaN → 6, ±Inf and overflow → ±6.
	fmtE2M1ONNX = narrowFormat{mant: 1, bias: 1, maxCode: 0x7, sign: 0x8, nanPos: 0x7, nanNeg: 0x7}
	fmtF16      = narrowFormat{mant: 10, bias: 15, maxCode: 0x7BFF, sign: 0x8000, inf: 0x7C00}
	fmtBF16     = narrowFormat{mant: 7, bias: 127, maxCode: 0x7F7F, sign: 0x8000, inf: 0x7F80}
)

// rneCode returns the magnitude bits of a ≥ 0 (finite) rounded once to nearest, ties to even,
// in a format with mant mantissa bits and exponent bias bias, with the exponent range unbounded
// above: a result above the format's largest code is an overflow for the caller to handle.
// It works on a's bits: the 53-bit significand is shifted right to the target's precision (more
// for a target subnormal) with rounding to nearest even.
func rneCode(a float64, mant uint, bias int) uint64 {
	b := math.Float64bits(a)
	if b>>52 == 0 {
		return 0 // zero or an f64 subnormal, far below half the smallest target subnormal
	}
	e := int(b>>52) - 1023 // a = 1.f · 2^e
	m := b&(1<<52-1) | 1<<52
	emin := 1 - bias // exponent of the smallest normal
	sh := 52 - int(mant)
	if e < emin {
		sh += emin - e // a target subnormal: a multiple of 2^(emin-mant)
	}
	if sh > 54 {
		return 0 // below half the smallest subnormal
	}
	q := (m + 1<<(sh-1) - 1 + m>>sh&1) >> sh
	if e < emin {
		return q // a result of 2^mant is the smallest normal's code
	}
	// The implicit bit of q adds one to the biased exponent field, and a carry out of the
	// mantissa (q = 2^(mant+1)) adds one more: the next binade, as it should.
	return uint64(e-emin)<<mant + q
}

// encodeNarrow encodes x in format f, rounding once to nearest even. An overflow (a rounded
// magnitude above the largest finite value, or ±Inf) gives ±max when sat is set, else ±Inf
// when the format has it, else the format's NaN. A NaN gives f.nanPos or f.nanNeg by its sign.
func encodeNarrow(x float64, f *narrowFormat, sat bool) uint64 {
	neg := math.Signbit(x)
	if x != x {
		if neg {
			return f.nanNeg
		}
		return f.nanPos
	}
	code := f.maxCode + 1 // ±Inf overflows
	if a := math.Abs(x); a <= math.MaxFloat64 {
		code = rneCode(a, f.mant, f.bias)
	}
	if code > f.maxCode {
		switch {
		case sat:
			code = f.maxCode
		case f.inf != 0:
			code = f.inf
		case neg:
			return f.nanNeg
		default:
			return f.nanPos
		}
	}
	if !neg || code == 0 && f.noNegZero {
		return code
	}
	return f.sign | code
}

// encodeIEEE16 encodes x as f16 or bf16 (f is fmtF16 or fmtBF16), rounding once to nearest even
// with overflow to ±Inf. A NaN converts as float32(x) does under OpenVINO.
func encodeIEEE16(x float64, f *narrowFormat) uint16 {
	if x != x {
		if f == &fmtF16 {
			return F16FromF32(float32(x))
		}
		return BF16FromF32(float32(x))
	}
	return uint16(encodeNarrow(x, f, false))
}

// e8m0ONNX encodes x as f8e8m0 with ONNX Cast's rules, whose table reads its range rows on x
// itself (as ONNX Runtime does): x < 2^-127 (zero and negative values included) gives 0x00 when
// sat is set and NaN (0xFF) otherwise; x > 2^127 (+Inf included) gives 0xFE or NaN; NaN gives
// 0xFF; a value in [2^-127, 2^127] goes to one of the two powers of two around it by mode m.
func e8m0ONNX(x float64, m E8M0Rounding, sat bool) uint8 {
	switch {
	case x != x:
		return 0xFF
	case !(x >= 0x1p-127):
		if sat {
			return 0x00
		}
		return 0xFF
	case x > 0x1p127:
		if sat {
			return 0xFE
		}
		return 0xFF
	}
	fr, k := math.Frexp(x) // x = fr · 2^k, 0.5 ≤ fr < 1
	e := k - 1             // 2^e ≤ x < 2^(e+1)
	if fr != 0.5 && (m == RoundUp || m == RoundNearest && fr >= 0.75) {
		e++
	}
	return uint8(e + 127)
}

// e8m0ML encodes x as f8e8m0 with ml_dtypes' rules: NaN, ±Inf, ±0 and negative values give NaN
// (0xFF); a value of at least 2^-126 rounds to the nearer power of two, ties to the larger (the
// format has no mantissa, and ml_dtypes' ties-to-even applies to the significand with its
// implicit bit, which is odd below a tie and even above it); above 2^127 it gives NaN. Below
// 2^-126 ml_dtypes rounds as if the code 0x00 were zero: to 0x00 up to 2^-127, to 0x01 (2^-126)
// above it.
func e8m0ML(x float64) uint8 {
	if !(x > 0) || x > math.MaxFloat64 {
		return 0xFF
	}
	if x < 0x1p-126 {
		if x <= 0x1p-127 {
			return 0x00
		}
		return 0x01
	}
	fr, k := math.Frexp(x)
	e := k - 1
	if fr >= 0.75 {
		e++
	}
	if e > 127 {
		return 0xFF
	}
	return uint8(e + 127)
}

// wrapBits returns x truncated toward zero, reduced modulo 2^64, as two's-complement bits (the
// caller keeps the destination's low bits); NaN and ±Inf give 0. This is ml_dtypes' (NumPy's
// C cast) float → integer rule where it is defined, and its choice where C leaves it undefined.
func wrapBits(x float64) uint64 {
	if x != x || math.IsInf(x, 0) {
		return 0
	}
	t := math.Trunc(x)
	if math.Abs(t) < 0x1p63 {
		return uint64(int64(t))
	}
	fr, e := math.Frexp(math.Abs(t)) // |t| = m · 2^(e-53), m a 53-bit integer, e-53 ≥ 11
	m := uint64(math.Ldexp(fr, 53))
	var u uint64
	if s := e - 53; s < 64 {
		u = m << uint(s)
	}
	if t < 0 {
		u = -u
	}
	return u
}

// oddF64 converts an integer to float64 rounding to odd: exact below 2^53, otherwise the 53
// leading bits with the last one set when any dropped bit is. A later rounding to 51 bits or
// fewer from it is then the correct single rounding of the integer.
func oddF64(u uint64, neg bool) float64 {
	if neg {
		u = -u
	}
	var f float64
	if u < 1<<53 {
		f = float64(u)
	} else {
		sh := 64 - bits.LeadingZeros64(u) - 53
		m := u >> uint(sh)
		if u&(1<<uint(sh)-1) != 0 {
			m |= 1
		}
		f = math.Ldexp(float64(m), sh)
	}
	if neg {
		f = -f
	}
	return f
}

// wide64 returns the block's (real) values as float64 for the rule encoders: exact for float
// sources, rounded to odd for integers (see oddF64).
func (b *block) wide64(n int) []float64 {
	if b.cls != clsInt {
		return b.real64(n)
	}
	out := b.re64[:n]
	for i, v := range b.ints[:n] {
		out[i] = oddF64(v, b.signed && int64(v) < 0)
	}
	return out
}

// encodeRules encodes n elements (n ≤ blockLen) from b into the start of dst with rules r.
// Destinations whose rules are OpenVINO's take encodeBlock.
func encodeRules(r Rules, to element.Type, dst []byte, b *block, n int) {
	le := binary.LittleEndian
	sat := r.Set == ONNX && !r.NoSaturate
	switch to {
	case element.F8E4M3, element.F8E5M2, element.F8E4M3FNUZ, element.F8E5M2FNUZ:
		f := fnuzOrF8Format(to)
		if to == element.F8E5M2 && r.Set == ONNX {
			f = &fmtE5M2ONNX
		}
		for i, v := range b.wide64(n) {
			dst[i] = uint8(encodeNarrow(v, f, sat))
		}
	case element.F4E2M1:
		f := &fmtE2M1ML
		if r.Set == ONNX {
			f = &fmtE2M1ONNX
		}
		codes := b.codes[:n]
		for i, v := range b.wide64(n) {
			codes[i] = uint8(encodeNarrow(v, f, true))
		}
		packCodes(to, dst, codes, n)
	case element.F8E8M0:
		for i, v := range b.wide64(n) {
			if r.Set == ONNX {
				dst[i] = e8m0ONNX(v, r.E8M0Round, sat)
			} else {
				dst[i] = e8m0ML(v)
			}
		}
	case element.F16, element.BF16:
		f := &fmtF16
		if to == element.BF16 {
			f = &fmtBF16
		}
		for i, v := range b.wide64(n) {
			le.PutUint16(dst[2*i:], encodeIEEE16(v, f))
		}
	case element.I8, element.I16, element.I32, element.I64, element.U8, element.U16, element.U32, element.U64:
		if r.Set != MLDtypes || b.cls == clsInt {
			encodeBlock(to, dst, b, n)
			return
		}
		out := b.ints[:n]
		for i, v := range b.real64(n) {
			out[i] = wrapBits(v)
		}
		w := to.Bits() / 8
		for i, v := range out {
			for k := range w {
				dst[w*i+k] = byte(v >> (8 * k))
			}
		}
	default:
		encodeBlock(to, dst, b, n)
	}
}

// fnuzOrF8Format returns the narrowFormat of a float8 type with a mantissa.
func fnuzOrF8Format(t element.Type) *narrowFormat {
	switch t {
	case element.F8E4M3:
		return &fmtE4M3
	case element.F8E5M2:
		return &fmtE5M2
	case element.F8E4M3FNUZ:
		return &fmtE4M3FNUZ
	}
	return &fmtE5M2FNUZ
}
