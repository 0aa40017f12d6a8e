package kernels

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// The float8 encoders of the rule sets on float32 bits: one rounding to nearest even from the
// float32 value, which is also the one rounding from an f16 or bf16 source (both widen to
// float32 exactly). They are the pure-Go loops of the rule sets' registry rows and document
// their SIMD kernels, which compute the same steps a vector at a time (docs/kernels.md).

// f8Enc describes a float8 target and its rule for f8FromF32, packed in one constant so that an
// inlined call folds it: mantissa bits (bits 0–3), exponent bias (4–11), the clamp code (12–19),
// the NaN code (20–27), and bit 28 for the FNUZ types, whose zero is unsigned.
//
// The clamp code is what a magnitude above the largest finite value becomes: the largest finite
// code when the rule saturates, otherwise the next code up, which is the format's infinity
// (f8e5m2) or its NaN (f8e4m3, and the FNUZ types' 0x80 once the sign is added). The NaN code is
// that of a positive NaN; a NaN with the sign bit set gets the sign bit too, which for the FNUZ
// types leaves 0x80.
type f8Enc uint32

// f8EncOf packs the fields of an f8Enc.
func f8EncOf(mant, bias, clamp, nan uint32, fnuz bool) f8Enc {
	return f8Enc(mant | bias<<4 | clamp<<12 | nan<<20 | uint32(b2u(fnuz))<<28)
}

// The encoders of the rule sets' float8 targets, by format, rule set and saturation: ONNX's
// saturate=1 (Sat), saturate=0 (NoSat), and ml_dtypes' rules (ML), which never saturate and
// differ from ONNX's saturate=0 only in the NaN of f8e5m2 (0x7E rather than 0x7F).
const (
	encE4M3Sat       f8Enc = 3 | 7<<4 | 0x7E<<12 | 0x7F<<20
	encE4M3NoSat     f8Enc = 3 | 7<<4 | 0x7F<<12 | 0x7F<<20
	encE5M2Sat       f8Enc = 2 | 15<<4 | 0x7B<<12 | 0x7F<<20
	encE5M2NoSat     f8Enc = 2 | 15<<4 | 0x7C<<12 | 0x7F<<20
	encE5M2ML        f8Enc = 2 | 15<<4 | 0x7C<<12 | 0x7E<<20
	encE4M3FNUZSat   f8Enc = 3 | 8<<4 | 0x7F<<12 | 0x80<<20 | 1<<28
	encE4M3FNUZNoSat f8Enc = 3 | 8<<4 | 0x80<<12 | 0x80<<20 | 1<<28
	encE5M2FNUZSat   f8Enc = 2 | 16<<4 | 0x7F<<12 | 0x80<<20 | 1<<28
	encE5M2FNUZNoSat f8Enc = 2 | 16<<4 | 0x80<<12 | 0x80<<20 | 1<<28
)

func (e f8Enc) mant() uint32  { return uint32(e) & 0xF }
func (e f8Enc) bias() uint32  { return uint32(e) >> 4 & 0xFF }
func (e f8Enc) clamp() uint32 { return uint32(e) >> 12 & 0xFF }
func (e f8Enc) nan() uint32   { return uint32(e) >> 20 & 0xFF }
func (e f8Enc) fnuz() bool    { return e>>28&1 != 0 }

// shift is how far a float32 magnitude's bits move right to leave the target's mantissa bits.
func (e f8Enc) shift() uint32 { return 23 - e.mant() }

// minNormal is the float32 bits of the target's smallest normal magnitude, 2^(1-bias).
func (e f8Enc) minNormal() uint32 { return (128 - e.bias()) << 23 }

// magic is the float32 bits of 2^(23+1-bias-mant): added to a magnitude below the smallest
// normal, it leaves the target's subnormal code, rounded to nearest even by the addition, in
// the low bits of the sum (the sum's unit in the last place is the target's smallest subnormal).
func (e f8Enc) magic() uint32 { return (151 - e.bias() - e.mant()) << 23 }

// offset is what the exponent field of a normal magnitude's code loses: the float32 exponent
// bias less the target's, in the code's exponent position.
func (e f8Enc) offset() uint32 { return (127 - e.bias()) << e.mant() }

// f8FromF32 encodes the float32 with bits u as e's float8 code, rounding once to nearest even.
// A magnitude below the target's smallest normal rounds by the addition of e.magic(); above it,
// by integer arithmetic on the bits (add half a unit less one, plus the bit that makes ties go to
// the even code, then shift). A code above the clamp code (an overflow, ±Inf) is clamped to it,
// NaN gets e's NaN code, and the sign bit goes on top, except onto the FNUZ types' zero.
//
// Special cases are (with e's clamp and NaN codes):
//
//	|x| rounding above the largest finite value, ±Inf → clamp code with x's sign
//	NaN → NaN code with x's sign (the FNUZ types: 0x80)
//	±0, and values rounding to zero → 0x00 or 0x80 by sign (the FNUZ types: 0x00)
func f8FromF32(u uint32, e f8Enc) uint8 {
	a := u & 0x7FFFFFFF
	var c uint32
	if a < e.minNormal() {
		c = math.Float32bits(math.Float32frombits(a)+math.Float32frombits(e.magic())) - e.magic()
	} else {
		sh := e.shift()
		c = (a+(1<<(sh-1)-1)+a>>sh&1)>>sh - e.offset()
	}
	c = min(c, e.clamp())
	if a > 0x7F800000 {
		c = e.nan()
	}
	if c == 0 && e.fnuz() {
		return 0
	}
	return uint8(c | u>>24&0x80)
}

// f8FromF16E5M2 returns f8FromF32 of the binary16 h for the f8e5m2 encoders (bias 15), on the binary16 bits
// alone: f8e5m2 has binary16's exponent range, so rounding off the 8 low bits to nearest even is
// the one rounding, subnormals included; then the clamp, NaN's code and the sign as f8FromF32
// puts them.
func f8FromF16E5M2(h uint16, e f8Enc) uint8 {
	a := uint32(h) & 0x7FFF
	c := min((a+0x7F+a>>8&1)>>8, e.clamp())
	if a > 0x7C00 {
		c = e.nan()
	}
	return uint8(c | uint32(h)>>8&0x80)
}

// f16EncTables holds f16EncTable's tables by f8Enc.slot, nil until first used.
var f16EncTables [36]atomic.Pointer[[1 << 16]uint8]

// slot numbers the encoders of the rule sets (f16EncTables) from the fields that tell them apart:
// the clamp code (0x7B to 0x80), the mantissa bits (2 or 3) and the NaN code (0x7E to 0x80).
func (e f8Enc) slot() uint32 {
	return (uint32(e)>>12&0xFF-0x7B)*2 + uint32(e)&0xF - 2 + (uint32(e)>>20&0xFF-0x7E)*12 // clamp, mant, nan
}

// f16EncTable returns e's table of the codes of every binary16 input h, f8FromF32 of its float32
// (exact), building it if no call has (64 KiB an encoder): the arithmetic of f8FromF32 and the
// widening cost several times OpenVINO's encoders, which work on the binary16 bits alone. The
// pure-Go loops from f16 look their codes up in it, fetched once a call.
func f16EncTable(e f8Enc) *[1 << 16]uint8 {
	if t := f16EncTables[e.slot()].Load(); t != nil {
		return t
	}
	return newF16EncTable(e)
}

// newF16EncTable builds e's table of f16EncTable and returns the one f16EncTables keeps (another
// goroutine's, if it stored one first).
func newF16EncTable(e f8Enc) *[1 << 16]uint8 {
	t := new([1 << 16]uint8)
	for h := range t {
		t[h] = f8FromF32(math.Float32bits(F32FromF16(uint16(h))), e)
	}
	f16EncTables[e.slot()].CompareAndSwap(nil, t)
	return f16EncTables[e.slot()].Load()
}

// The one rounding of a wide source to f16 or bf16, as the rule sets round: through float32
// rounded to odd, which keeps at least two bits more than either target and records in its last
// bit whether anything was dropped, so that rounding it to nearest even gives the source's own
// rounding (a rounding to nearest float32 first would round twice, as OpenVINO does).

// f32RoundOdd returns x rounded to float32 to odd: x itself when it is a float32, otherwise the
// float32 just below x in magnitude with its last bit set.
//
// Special cases are:
//
//	f32RoundOdd(x) = 0x7F7FFFFF with x's sign for |x| above the largest float32 (finite)
//	f32RoundOdd(x) = ±2^-149 (0x00000001 with x's sign) for 0 < |x| < 2^-149
//	f32RoundOdd(±Inf) = ±Inf
//	f32RoundOdd(NaN) = float32(x) (quiet, sign and top payload kept)
func f32RoundOdd(x float64) float32 {
	// Without branches (whether a float64 is a float32 is a coin toss on real data), and small
	// enough to inline. d is exact, and NaN for ±Inf and NaN, which are exact: d·x > 0 where r
	// went away from zero (where the product underflows, r is 0, which never does), and d is
	// neither 0 nor NaN where r is inexact.
	r := float32(x)
	d := float64(r) - x
	b := math.Float32bits(r) - uint32(b2u(d*x > 0))
	return math.Float32frombits(b | uint32(b2u(d != 0 && d == d)))
}

// f32RoundOddU64 returns u rounded to float32 to odd: u's top 24 significant bits, the last one
// set when any bit below them is.
func f32RoundOddU64(u uint64) float32 { return roundOdd24(u, 0) }

// f32RoundOddI64 returns x rounded to float32 to odd (as f32RoundOddU64, with x's sign).
func f32RoundOddI64(x int64) float32 {
	s := uint64(x >> 63) // all ones for a negative x
	return roundOdd24((uint64(x)^s)-s, uint32(s)<<31)
}

// roundOdd24 returns the magnitude u rounded to float32 to odd, with the sign bit sign.
//
// Without branches: the magnitudes of real data vary. m < 2^24, so both steps are exact (and
// int64's conversion is one instruction where uint64's is not). Not inlined: inlined into a
// loop, the compiler gives BSR (LeadingZeros64 without LZCNT) the register of the previous
// element's result, and BSR's dependence on its destination then chains each element to the one
// before it.
//
//go:noinline
func roundOdd24(u uint64, sign uint32) float32 {
	sh := max(40-bits.LeadingZeros64(u), 0) // significant bits beyond 24
	m := u>>sh | uint64(b2u(u&(1<<sh-1) != 0))
	return float32(int64(m)) * math.Float32frombits(uint32(127+sh)<<23|sign)
}

// e8m0Enc describes an f8e8m0 rule for e8m0FromF32, packed in one constant: the ONNX round mode
// (an E8M0Rounding, bits 0–1), ONNX's saturate=1 (bit 2), and ml_dtypes' rule (bit 3), which has
// neither.
type e8m0Enc uint8

// The f8e8m0 encoders: ONNX's three round modes (RoundUp 0, RoundDown 1, RoundNearest 2) with
// saturate=1 and 0, and ml_dtypes'. Written as numbers, which the generator reads.
const (
	encE8M0Up           e8m0Enc = 0 | 4
	encE8M0Down         e8m0Enc = 1 | 4
	encE8M0Nearest      e8m0Enc = 2 | 4
	encE8M0UpNoSat      e8m0Enc = 0
	encE8M0DownNoSat    e8m0Enc = 1
	encE8M0NearestNoSat e8m0Enc = 2
	encE8M0ML           e8m0Enc = 8
)

// The round modes' values in the encoders are E8M0Rounding's (an index out of range otherwise).
var (
	_ = [1]struct{}{}[RoundUp]
	_ = [1]struct{}{}[RoundDown-1]
	_ = [1]struct{}{}[RoundNearest-2]
)

// e8m0FromF32 encodes the float32 with bits u as f8e8m0 under e, on the bits: the biased exponent
// E of a normal magnitude is the code of the power of two at or below it, and adding 0x7FFFFF
// (up) or 0x400000 (nearest, ties up) to the bits before taking E picks the one above where the
// rule says so. A float32 subnormal of at least 2^-127 (ONNX) or above it (ml_dtypes) is doubled
// first and its code taken one lower, which places 2^-127 at code 0.
//
// Special cases are (ONNX, with saturate=1 / saturate=0; ml_dtypes):
//
//	NaN → 0xFF; 0xFF
//	x < 2^-127 (±0 and negative values too) → 0x00 / 0xFF; ±0, x < 0 → 0xFF, 0 < x ≤ 2^-127 → 0x00
//	x > 2^127 (+Inf too) → 0xFE / 0xFF; x ≥ 1.5·2^127 (+Inf too) → 0xFF
func e8m0FromF32(u uint32, e e8m0Enc) uint8 {
	a := u & 0x7FFFFFFF
	if e&8 != 0 { // ml_dtypes
		switch {
		case u>>31 != 0 || a == 0 || a >= 0x7F400000:
			return 0xFF
		case a <= 0x00400000:
			return 0x00
		case a < 0x00800000:
			return 0x01
		}
		return uint8((a + 0x400000) >> 23)
	}
	sat := e&4 != 0
	switch {
	case a > 0x7F800000:
		return 0xFF
	case int32(u) < 0x00400000: // below 2^-127: zeros and negative values included
		if sat {
			return 0x00
		}
		return 0xFF
	case u > 0x7F000000: // above 2^127
		if sat {
			return 0xFE
		}
		return 0xFF
	}
	add := [3]uint32{RoundUp: 0x7FFFFF, RoundDown: 0, RoundNearest: 0x400000}[e&3]
	if a < 0x00800000 {
		return uint8((a<<1+add)>>23 - 1)
	}
	return uint8((a + add) >> 23)
}
