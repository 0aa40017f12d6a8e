package quant_test

// An independent reference for the block-scaled formats (docs/SEMANTICS.md §9), written from the
// OCP Microscaling Formats v1.0 and OFP8 definitions with exact rational arithmetic (math/big):
// codes are decoded from their bit fields, products and quotients are exact, and every rounding
// is done here on the exact value. Nothing here calls the scalar codecs of package kernels.

import (
	"math/big"
)

// refFmt is a binary floating-point format: p significand bits (the hidden one included), the
// exponent of its smallest normal, its exponent field's width, its largest finite value, and
// what its all-ones exponent field means.
type refFmt struct {
	p, emin, ebits int
	max            *big.Rat
	special        int // 0: none (f4e2m1), 1: IEEE Inf and NaN, 2: only S.1111.111 is NaN (e4m3)
}

func ratPow2(e int) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-e)))
}

// maxOf is (2 − 2^(1−p))·2^e minus, for e4m3, the NaN's mantissa step.
func maxOf(p, e int, e4m3 bool) *big.Rat {
	m := int64(1)<<p - 1
	if e4m3 {
		m-- // 1.110 · 2^8 = 448
	}
	return new(big.Rat).Mul(big.NewRat(m, 1), ratPow2(e-p+1))
}

var (
	refF32    = refFmt{p: 24, emin: -126, ebits: 8, max: maxOf(24, 127, false), special: 1}
	refF16    = refFmt{p: 11, emin: -14, ebits: 5, max: maxOf(11, 15, false), special: 1}
	refBF16   = refFmt{p: 8, emin: -126, ebits: 8, max: maxOf(8, 127, false), special: 1}
	refE2M1   = refFmt{p: 2, emin: 0, ebits: 2, max: maxOf(2, 2, false)}
	refE4M3   = refFmt{p: 4, emin: -6, ebits: 4, max: maxOf(4, 8, true), special: 2}
	refE5M2   = refFmt{p: 3, emin: -14, ebits: 5, max: maxOf(3, 15, false), special: 1}
	refFields = map[string]refFmt{"f32": refF32, "f16": refF16, "bf16": refBF16, "f4e2m1": refE2M1, "f8e4m3": refE4M3, "f8e5m2": refE5M2}
)

// refVal is a value of the reference: NaN, ±Inf or a signed exact rational (neg kept for ±0).
type refVal struct {
	nan, inf, neg bool
	r             *big.Rat // magnitude
}

func (f refFmt) width() int { return 1 + f.ebits + f.p - 1 }

// decode reads a code of f from its fields: sign, exponent field E, trailing significand M;
// E = 0 is subnormal (M·2^(emin−p+1)), otherwise (2^(p−1)+M)·2^(E−bias−p+1).
func (f refFmt) decode(code uint64) refVal {
	mb := f.p - 1
	m := code & (1<<mb - 1)
	e := int(code>>mb) & (1<<f.ebits - 1)
	v := refVal{neg: code>>(f.ebits+mb)&1 == 1}
	allOnes := e == 1<<f.ebits-1
	switch {
	case f.special == 1 && allOnes && m == 0:
		v.inf = true
		return v
	case f.special == 1 && allOnes, f.special == 2 && allOnes && m == 1<<mb-1:
		v.nan = true
		return v
	}
	bias := 1 - f.emin
	if e == 0 {
		v.r = new(big.Rat).Mul(new(big.Rat).SetInt64(int64(m)), ratPow2(f.emin-mb))
	} else {
		v.r = new(big.Rat).Mul(new(big.Rat).SetInt64(int64(1<<mb|m)), ratPow2(e-bias-mb))
	}
	return v
}

// refE8M0 decodes an OCP E8M0 scale: 2^(code−127), 0xFF NaN.
func refE8M0(code uint8) refVal {
	if code == 0xFF {
		return refVal{nan: true}
	}
	return refVal{r: ratPow2(int(code) - 127)}
}

// floorLog2 returns floor(log2(a)) for a > 0.
func floorLog2(a *big.Rat) int {
	e := a.Num().BitLen() - a.Denom().BitLen()
	if a.Cmp(ratPow2(e)) < 0 {
		e--
	}
	return e
}

// round rounds v to f, to nearest, ties to even: with an unbounded exponent, then beyond f's
// largest finite value to infinity, or to that value when sat (or when f has no infinity).
func (f refFmt) round(v refVal, sat bool) refVal {
	if v.nan || v.inf || v.r.Sign() == 0 {
		return v
	}
	q := max(floorLog2(v.r), f.emin) - (f.p - 1) // the quantum's exponent
	t := new(big.Rat).Mul(v.r, ratPow2(-q))
	n := new(big.Int).Quo(t.Num(), t.Denom())
	frac := new(big.Rat).Sub(t, new(big.Rat).SetInt(n))
	if c := frac.Cmp(big.NewRat(1, 2)); c > 0 || c == 0 && n.Bit(0) == 1 {
		n.Add(n, big.NewInt(1))
	}
	r := new(big.Rat).Mul(new(big.Rat).SetInt(n), ratPow2(q))
	if r.Cmp(f.max) > 0 {
		if sat || f.special != 1 {
			return refVal{neg: v.neg, r: new(big.Rat).Set(f.max)}
		}
		return refVal{neg: v.neg, inf: true}
	}
	return refVal{neg: v.neg, r: r}
}

// encode returns f's code of a value f represents exactly (a NaN gives the quiet NaN of the
// sign, exponent all ones and the top trailing bit set; e4m3's is S.1111.111).
func (f refFmt) encode(v refVal) uint64 {
	mb := f.p - 1
	sign := uint64(0)
	if v.neg {
		sign = 1 << (f.ebits + mb)
	}
	ones := uint64(1)<<f.ebits - 1
	switch {
	case v.nan && f.special == 2:
		return sign | ones<<mb | (1<<mb - 1)
	case v.nan:
		return sign | ones<<mb | 1<<(mb-1)
	case v.inf:
		return sign | ones<<mb
	case v.r.Sign() == 0:
		return sign
	}
	e := floorLog2(v.r)
	if e < f.emin {
		m := new(big.Rat).Mul(v.r, ratPow2(-(f.emin - mb)))
		if !m.IsInt() {
			panic("encode: value not representable")
		}
		return sign | m.Num().Uint64()
	}
	m := new(big.Rat).Mul(v.r, ratPow2(-(e - mb)))
	if !m.IsInt() || e-f.emin+1 >= int(ones) && f.special == 1 {
		panic("encode: value not representable")
	}
	return sign | uint64(e-f.emin+1)<<mb | (m.Num().Uint64() - 1<<mb)
}

// mul is the exact product of two values (NaN and Inf by IEEE's rules; 0·Inf never occurs here).
func refMul(a, b refVal) refVal {
	v := refVal{neg: a.neg != b.neg}
	switch {
	case a.nan || b.nan:
		v.nan = true
	case a.inf || b.inf:
		v.inf = true
	default:
		v.r = new(big.Rat).Mul(a.r, b.r)
	}
	return v
}
