package kernels

// Independent reference model of docs/SEMANTICS.md §3, used as the oracle of the tests. It is written
// from the rules, not from the code under test: values are decoded from their bit fields with
// math.Ldexp, rounding picks the nearest representable value from a table of every value of the
// format (ties to the even code), integers are handled with math/big. Nothing here calls the
// package's conversion code.

import (
	"math"
	"math/big"
	"sort"

	"github.com/convertpromote/convertpromote/element"
)

// fieldValue decodes sign/exponent/mantissa fields of an IEEE-style format (no specials).
func fieldValue(bits uint64, expBits, mantBits, bias int) float64 {
	e := int(bits>>uint(mantBits)) & (1<<expBits - 1)
	m := float64(bits & (1<<uint(mantBits) - 1))
	var v float64
	if e == 0 {
		v = math.Ldexp(m, 1-bias-mantBits)
	} else {
		v = math.Ldexp(m+math.Ldexp(1, mantBits), e-bias-mantBits)
	}
	if bits>>uint(expBits+mantBits)&1 != 0 {
		v = -v
	}
	return v
}

// refFormat is a narrow float format as a sorted table of its non-negative finite values,
// index = code, with an optional overflow code (Inf, or e4m3's NaN) at value over.
type refFormat struct {
	vals     []float64
	over     float64 // the value the overflow code stands for in rounding; 0: saturate at max
	overCode uint64
	signBit  uint64
}

// round returns the code nearest to x, ties to the even code; -0 and negatives get the sign bit.
func (f *refFormat) round(x float64) uint64 {
	var sign uint64
	if math.Signbit(x) {
		sign, x = f.signBit, -x
	}
	if f.over != 0 && x >= f.over {
		return sign | f.overCode
	}
	vals := f.vals
	code := func(i int) uint64 {
		if i == len(vals) {
			return f.overCode
		}
		return uint64(i)
	}
	i := sort.SearchFloat64s(vals, x) // first value ≥ x
	if i < len(vals) && vals[i] == x {
		return sign | code(i)
	}
	if i == len(vals) && f.over == 0 {
		return sign | code(i-1) // saturate at the largest value
	}
	lo, hi := i-1, i
	hiVal := f.over
	if i < len(vals) {
		hiVal = vals[i]
	}
	mid := (vals[lo] + hiVal) / 2
	switch {
	case x < mid:
		return sign | code(lo)
	case x > mid:
		return sign | code(hi)
	}
	if code(lo)&1 == 0 {
		return sign | code(lo)
	}
	return sign | code(hi)
}

func ieeeTable(expBits, mantBits, bias int, maxCode uint64) []float64 {
	v := make([]float64, maxCode+1)
	for c := range v {
		v[c] = fieldValue(uint64(c), expBits, mantBits, bias)
	}
	return v
}

var (
	refF16    = &refFormat{vals: ieeeTable(5, 10, 15, 0x7BFF), over: 65536, overCode: 0x7C00, signBit: 0x8000}
	refBF16   = &refFormat{vals: ieeeTable(8, 7, 127, 0x7F7F), over: 0x1p128, overCode: 0x7F80, signBit: 0x8000}
	refE4M3   = &refFormat{vals: ieeeTable(4, 3, 7, 0x7E), over: 480, overCode: 0x7F, signBit: 0x80}
	refE5M2   = &refFormat{vals: ieeeTable(5, 2, 15, 0x7B), over: 65536, overCode: 0x7C, signBit: 0x80}
	refF4E2M1 = &refFormat{vals: ieeeTable(2, 1, 1, 7), signBit: 0x8}
)

// Reference decoders: the exact value, and for NaN the float32 bits docs/SEMANTICS.md §3.8 gives.

func refF16Value(h uint64) (v float64, nan32 uint32, isNaN bool) {
	s := uint32(h>>15&1) << 31
	e, m := h>>10&0x1F, h&0x3FF
	switch {
	case e == 0x1F && m == 0:
		return math.Inf(1 - 2*int(h>>15&1)), 0, false
	case e == 0x1F:
		return 0, s | 0x7FC00000 | uint32(m)<<13, true
	}
	return fieldValue(h, 5, 10, 15), 0, false
}

func refBF16Value(h uint64) (float64, uint32, bool) {
	e, m := h>>7&0xFF, h&0x7F
	switch {
	case e == 0xFF && m == 0:
		return math.Inf(1 - 2*int(h>>15&1)), 0, false
	case e == 0xFF:
		return 0, uint32(h) << 16, true
	}
	return fieldValue(h, 8, 7, 127), 0, false
}

func refE4M3Value(c uint64) (float64, uint32, bool) {
	if c&0x7F == 0x7F {
		return 0, uint32(c>>7)<<31 | 0x7FC00000, true
	}
	return fieldValue(c, 4, 3, 7), 0, false
}

func refE5M2Value(c uint64) (float64, uint32, bool) { return refF16Value(c << 8) }

func refE8M0Value(c uint64) (float64, uint32, bool) {
	if c == 0xFF {
		return 0, 0x7FC00000, true
	}
	return math.Ldexp(1, int(c)-127), 0, false
}

// refFNUZValue decodes an FNUZ code: 0x80 is the only NaN (decoded to the positive quiet NaN),
// every other code a finite value with bias 8 (e4m3) or 16 (e5m2).
func refFNUZValue(e4m3 bool, c uint64) (float64, uint32, bool) {
	if c == 0x80 {
		return 0, 0x7FC00000, true
	}
	if e4m3 {
		return fieldValue(c, 4, 3, 8), 0, false
	}
	return fieldValue(c, 5, 2, 16), 0, false
}

func to8(t element.Type) bool { return t == element.F8E4M3FNUZ }

func refF4E2M1Value(c uint64) float64 { return fieldValue(c&0xF, 2, 1, 1) }

// refNF4Values are the §3.5 code values, typed in again from the spec (not element.NF4Codes).
var refNF4Values = [16]float64{
	-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453,
	-0.28444138169288635, -0.18477343022823334, -0.09105003625154495, 0.0,
	0.07958029955625534, 0.16093020141124725, 0.24611230194568634, 0.33791524171829224,
	0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0,
}

// refNF4Midpoints are the §3.5 thresholds, typed in again from the spec.
var refNF4Midpoints = [15]float64{
	-0.8480964004993439, -0.6106329262256622, -0.4599952697753906, -0.33967943489551544,
	-0.23460740596055984, -0.13791173323988914, -0.045525018125772476, 0.03979014977812767,
	0.1202552504837513, 0.2035212516784668, 0.2920137718319893, 0.3893125355243683,
	0.5016634166240692, 0.6427869200706482, 0.8614784181118011,
}

func refNF4Value(c uint64) float64 { return float64(float32(refNF4Values[c&0xF])) }

// Reference encoders from float32 (docs/SEMANTICS.md §3.2–§3.8).

func refF16FromF32(x float32) uint64 {
	b := math.Float32bits(x)
	if x != x {
		return uint64(b>>16&0x8000 | 0x7E00 | b>>13&0x3FF)
	}
	return refF16.round(float64(x))
}

func refBF16FromF32(x float32) uint64 {
	b := math.Float32bits(x)
	if x != x {
		return uint64(b>>16 | 0x40)
	}
	return refBF16.round(float64(x))
}

func refE4M3FromF32(x float32) uint64 {
	h := refF16FromF32(x)
	v, _, nan := refF16Value(h)
	if nan || math.IsInf(v, 0) {
		return h>>8&0x80 | 0x7F
	}
	return refE4M3.round(v)
}

func refE5M2FromF32(x float32) uint64 {
	h := refF16FromF32(x)
	v, _, nan := refF16Value(h)
	if nan {
		return (h | 0x200) >> 8
	}
	return refE5M2.round(v)
}

// refE8M0FromF32 follows the §3.1 rule stated on values: for a positive normal x = f·2^k with
// 1 ≤ f < 2, the code is k+127, plus one when f > 1.5, or f == 1.5 and k+127 is odd. For a
// subnormal the exponent field is 0 and the mantissa test compares x with 2^-127.
func refE8M0FromF32(x float32) uint64 {
	switch {
	case math.Signbit(float64(x)):
		return 0
	case x != x:
		return 0xFF
	case float64(x) >= 0x1p127:
		return 0xFE
	case float64(x) < 0x1p-126: // exponent field 0
		if float64(x) > 0x1p-127 {
			return 1
		}
		return 0
	}
	fr, exp := math.Frexp(float64(x)) // x = fr·2^exp, 0.5 ≤ fr < 1
	f, k := 2*fr, exp-1
	c := uint64(k + 127)
	if f > 1.5 || f == 1.5 && c%2 == 1 {
		c++
	}
	return c
}

func refF4E2M1FromF32(x float32) uint64 {
	if x != x {
		return uint64(math.Float32bits(x)>>28&8) | 7
	}
	return refF4E2M1.round(float64(x))
}

func refNF4FromF32(x float32) uint64 {
	var c uint64
	for _, m := range refNF4Midpoints {
		if float64(x) > m {
			c++
		}
	}
	return c
}

// refVal is a decoded source element.
type refVal struct {
	isInt   bool
	i       *big.Int // isInt: the integer (boolean: 0 or 1)
	f       float64  // !isInt, !nan: the exact value (a float64 source's own value)
	nan     bool
	nan32   uint32 // the NaN's float32 bits after the source → f32 step (narrow sources, f32)
	nan64   uint64 // the NaN's float64 bits (f64 sources)
	wide    bool   // the source is f64 (or a c128 part): its value is a float64
	im      *refVal
	fromI32 bool
}

func refPartType(t element.Type) element.Type { p, _ := t.ComplexPart(); return p }

// refDecode decodes source element bits (re, im for complex) of type t.
func refDecode(t element.Type, re, im uint64) refVal {
	switch {
	case t == element.Boolean:
		return refVal{isInt: true, i: big.NewInt(int64(b2i(re&0xFF != 0)))}
	case t.IsInteger():
		bits := uint(t.Bits())
		v := new(big.Int).SetUint64(re & (1<<bits - 1))
		if bits == 64 {
			v.SetUint64(re)
		}
		if t.IsSigned() && v.Bit(int(bits-1)) == 1 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), bits))
		}
		return refVal{isInt: true, i: v, fromI32: t == element.I32}
	case t.IsComplex():
		p := refPartType(t)
		r := refDecode(p, re, 0)
		m := refDecode(p, im, 0)
		r.im = &m
		return r
	}
	var v float64
	var n32 uint32
	var nan bool
	switch t {
	case element.F16:
		v, n32, nan = refF16Value(re)
	case element.BF16:
		v, n32, nan = refBF16Value(re)
	case element.F8E4M3:
		v, n32, nan = refE4M3Value(re)
	case element.F8E5M2:
		v, n32, nan = refE5M2Value(re)
	case element.F8E8M0:
		v, n32, nan = refE8M0Value(re)
	case element.F4E2M1:
		v = refF4E2M1Value(re)
	case element.F8E4M3FNUZ, element.F8E5M2FNUZ:
		v, n32, nan = refFNUZValue(to8(t), re)
	case element.NF4:
		v = refNF4Value(re)
	case element.F32:
		v = float64(math.Float32frombits(uint32(re)))
		if v != v {
			v, n32, nan = 0, uint32(re), true
		}
	case element.F64:
		v = math.Float64frombits(re)
		if v != v {
			return refVal{nan: true, nan64: re, wide: true}
		}
		return refVal{f: v, wide: true}
	default:
		panic("refDecode " + t.String())
	}
	return refVal{f: v, nan: nan, nan32: n32}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// f32Stage returns the value as float32 on the way to a narrow float (f64 → f32 by Go's
// conversion, as §3.3 pins; integers round to nearest even in big.Float; i32 → f16 saturates).
func (v refVal) f32Stage(satF16 bool) float32 {
	switch {
	case v.isInt:
		i := v.i
		if satF16 && v.fromI32 {
			lim := big.NewInt(65504)
			if i.Cmp(lim) > 0 {
				i = lim
			} else if i.Cmp(new(big.Int).Neg(lim)) < 0 {
				i = new(big.Int).Neg(lim)
			}
		}
		f, _ := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).SetInt(i).Float32()
		return f
	case v.nan && v.wide:
		return float32(math.Float64frombits(v.nan64))
	case v.nan:
		return math.Float32frombits(v.nan32)
	}
	return float32(v.f)
}

// f64Stage returns the value as float64 for an f64 destination.
func (v refVal) f64Stage() float64 {
	switch {
	case v.isInt:
		f, _ := new(big.Float).SetPrec(53).SetMode(big.ToNearestEven).SetInt(v.i).Float64()
		return f
	case v.nan && v.wide:
		return math.Float64frombits(v.nan64)
	case v.nan:
		// Go's float64(float32) on amd64: sign and payload kept, quiet bit set.
		b := v.nan32
		return math.Float64frombits(uint64(b>>31)<<63 | 0x7FF8000000000000 | uint64(b&0x7FFFFF)<<29)
	}
	return v.f
}

// refEncodeFloat encodes v as float type to (not complex).
func refEncodeFloat(to element.Type, v refVal) uint64 {
	if to == element.F64 {
		return math.Float64bits(v.f64Stage())
	}
	if to.IsFNUZ() {
		// Not OpenVINO types: ml_dtypes' rules (rules_reference_test.go).
		return refRulesEncode(Rules{}, to, v)
	}
	x := v.f32Stage(to == element.F16)
	switch to {
	case element.F32:
		return uint64(math.Float32bits(x))
	case element.F16:
		return refF16FromF32(x)
	case element.BF16:
		return refBF16FromF32(x)
	case element.F8E4M3:
		return refE4M3FromF32(x)
	case element.F8E5M2:
		return refE5M2FromF32(x)
	case element.F8E8M0:
		return refE8M0FromF32(x)
	case element.F4E2M1:
		return refF4E2M1FromF32(x)
	case element.NF4:
		if x != x {
			return 0
		}
		return refNF4FromF32(x)
	}
	panic("refEncodeFloat " + to.String())
}

// refEncodeInt encodes v as integer or boolean type to.
func refEncodeInt(to element.Type, v refVal) uint64 {
	bits := uint(to.Bits())
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
	if to == element.Boolean {
		if v.isInt {
			return uint64(b2i(v.i.Sign() != 0))
		}
		if v.im != nil && (v.im.nan || v.im.f != 0) {
			return 1 // complex: either part non-zero
		}
		return uint64(b2i(v.nan || v.f != 0))
	}
	var i *big.Int
	if v.isInt {
		i = v.i
	} else {
		if v.nan || math.IsInf(v.f, 0) {
			return 0 // NaN → 0; ±Inf: saturate below, or low bits 0 for sub-byte
		}
		i, _ = new(big.Float).SetFloat64(v.f).Int(nil) // truncates toward zero
		if bits >= 8 {
			lo, hi := rangeOf(to)
			if i.Cmp(lo) < 0 {
				i = lo
			}
			if i.Cmp(hi) > 0 {
				i = hi
			}
		}
	}
	return new(big.Int).And(i, mask).Uint64() // two's complement low bits (And on negatives works)
}

// refEncodeInt's ±Inf: saturate for ≥ 8 bits.
func refEncodeIntInf(to element.Type, v refVal) (uint64, bool) {
	if v.isInt || v.nan || !math.IsInf(v.f, 0) || to == element.Boolean || to.Bits() < 8 {
		return 0, false
	}
	lo, hi := rangeOf(to)
	i := hi
	if v.f < 0 {
		i = lo
	}
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(to.Bits())), big.NewInt(1))
	return new(big.Int).And(i, mask).Uint64(), true
}

func rangeOf(t element.Type) (lo, hi *big.Int) {
	bits := uint(t.Bits())
	one := big.NewInt(1)
	if t.IsSigned() {
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, bits-1))
		return lo, hi
	}
	return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
}

// refConvert returns the expected destination bits (re, im) of converting one element.
func refConvert(from, to element.Type, re, im uint64) (uint64, uint64) {
	v := refDecode(from, re, im)
	if from == to {
		if from == element.Boolean {
			return re & 0xFF, 0 // a same-type conversion is a byte copy
		}
		return re, im
	}
	if from == element.F8E5M2 && (to == element.F16 || to == element.C32) {
		return re << 8, 0 // §3.3: decoding to f16 is the byte shifted left by 8, NaNs included
	}
	if to.IsComplex() {
		p := refPartType(to)
		var m refVal
		if v.im != nil {
			m = *v.im
		} else {
			m = refVal{f: 0}
		}
		r := v
		r.im = nil
		// refEncodeFloat's f32 stage applies i32 → f16's saturation to a c32 part too.
		return refEncodeFloat(p, r), refEncodeFloat(p, m)
	}
	switch {
	case to.IsFloat():
		return refEncodeFloat(to, v), 0
	default:
		if c, ok := refEncodeIntInf(to, v); ok {
			return c, 0
		}
		return refEncodeInt(to, v), 0
	}
}

// refKernel is refConvert as a loop over packed little-endian buffers, for the pairs of the
// registry (no complex types, destinations of 8 bits or more): the oracle that every
// architecture's path tests compare their kernels with.
func refKernel(from, to element.Type) loopFunc {
	fb, tb := from.Bits(), to.Bits()
	if from.IsComplex() || to.IsComplex() || tb < 8 {
		panic("refKernel " + from.String() + " → " + to.String())
	}
	return func(dst, src []byte, n int) {
		for i := range n {
			var x uint64
			if fb == 4 {
				x = uint64(src[i/2] >> (4 * (i & 1)) & 15)
			} else {
				for k := range fb / 8 {
					x |= uint64(src[i*fb/8+k]) << (8 * k)
				}
			}
			y, _ := refConvert(from, to, x, 0)
			for k := range tb / 8 {
				dst[i*tb/8+k] = byte(y >> (8 * k))
			}
		}
	}
}
