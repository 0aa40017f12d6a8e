package main

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// roundHalf rounds the rational r to nearest, ties to even, into t (f16 or bf16) and returns
// the bits, with the format's exponent range: below the smallest normal the step is the
// subnormal step, and a result above the largest finite value is infinity.
func roundHalf(t element.Type, r *big.Rat) uint16 {
	f, _ := t.FloatFormat()
	neg := r.Sign() < 0
	a := new(big.Rat).Abs(r)
	minExp := 1 - f.Bias // the exponent of the smallest normal
	e := minExp
	if a.Sign() > 0 {
		fl, _ := a.Float64()
		if _, x := math.Frexp(fl); x-1 > e {
			e = x - 1 // a ≈ 2^e·1.x (a power-of-two boundary that Float64 rounds up is settled below)
		}
	}
	var q *big.Int
	var step *big.Rat
	for {
		step = new(big.Rat).SetFloat64(math.Ldexp(1, e-f.MantBits))
		q = roundEven(new(big.Rat).Quo(a, step))
		if e > minExp && q.Cmp(big.NewInt(1<<f.MantBits)) < 0 { // a was just below 2^e
			e--
			continue
		}
		break
	}
	v, _ := new(big.Rat).Mul(new(big.Rat).SetInt(q), step).Float64() // exact: few bits
	if v > f.MaxFinite {
		v = math.Inf(1)
	}
	if neg {
		v = -v
	}
	if t == element.BF16 {
		return kernels.BF16FromF32(float32(v)) // exact: v is a bf16 value
	}
	return kernels.F16FromF32(float32(v))
}

// roundEven rounds a non-negative rational to the nearest integer, ties to even.
func roundEven(x *big.Rat) *big.Int {
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	twice := new(big.Int).Lsh(m, 1)
	switch c := twice.Cmp(x.Denom()); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return q
}

// significantDigits counts the digits of a decimal from its first to its last non-zero digit.
func significantDigits(s string) int {
	s, _, _ = strings.Cut(strings.TrimLeft(s, "+-"), "e")
	s = strings.Trim(strings.Replace(s, ".", "", 1), "0")
	return len(s)
}

// decimalNear returns the decimals with n significant digits just below and just above |v|.
func decimalsNear(v float64, n int) [2]*big.Rat {
	a := new(big.Rat).Abs(new(big.Rat).SetFloat64(v))
	// Find the scale 10^k with 10^(n-1) ≤ a/10^k < 10^n.
	k := int(math.Floor(math.Log10(math.Abs(v)))) - (n - 1)
	lo := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n-1)), nil)
	for {
		m := new(big.Rat).Quo(a, scale(k))
		if m.Cmp(new(big.Rat).SetInt(lo)) < 0 {
			k--
			continue
		}
		if m.Cmp(new(big.Rat).SetInt(new(big.Int).Mul(lo, big.NewInt(10)))) >= 0 {
			k++
			continue
		}
		fl := new(big.Int).Quo(m.Num(), m.Denom())
		down := new(big.Rat).Mul(new(big.Rat).SetInt(fl), scale(k))
		up := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Add(fl, big.NewInt(1))), scale(k))
		return [2]*big.Rat{down, up}
	}
}

var pow10s = map[int]*big.Rat{}

// scale returns 10^k (the values are cached: the test asks for the same few hundred often).
func scale(k int) *big.Rat {
	if p, ok := pow10s[k]; ok {
		return p
	}
	n := k
	if n < 0 {
		n = -n
	}
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil))
	if k < 0 {
		p.Inv(p)
	}
	pow10s[k] = p
	return p
}

// TestFormatHalfShortest checks every f16 and bf16 pattern: the printed value rounds (to
// nearest, ties to even) back to the same bits, and no decimal with fewer significant digits
// does. At a power of two the gap below is half the gap above, so the nearest short decimal can
// miss while the next one up fits: f16 0x2400 (0.015625) prints 0.01563.
func TestFormatHalfShortest(t *testing.T) {
	for _, ty := range []element.Type{element.F16, element.BF16} {
		dec := kernels.F32FromF16
		if ty == element.BF16 {
			dec = kernels.F32FromBF16
		}
		bad := 0
		for b := 0; b < 1<<16 && bad < 10; b++ {
			h := uint16(b)
			v := float64(dec(h))
			s := formatHalf(ty, h)
			if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
				if want := formatFloat(v, 32); s != want {
					t.Errorf("%s 0x%04x: printed %q, want %q", ty, h, s, want)
					bad++
				}
				continue
			}
			r, ok := new(big.Rat).SetString(s)
			if !ok {
				t.Errorf("%s 0x%04x: printed %q, not a decimal", ty, h, s)
				bad++
				continue
			}
			if back := roundHalf(ty, r); back != h {
				t.Errorf("%s 0x%04x (%g): printed %q, which rounds to 0x%04x", ty, h, v, s, back)
				bad++
				continue
			}
			n := significantDigits(s)
			if n <= 1 {
				continue
			}
			for _, d := range decimalsNear(v, n-1) {
				if v < 0 {
					d.Neg(d)
				}
				if roundHalf(ty, d) == h {
					shorter, _ := d.Float64()
					t.Errorf("%s 0x%04x (%g): printed %q, but the shorter %g rounds to it too", ty, h, v, s, shorter)
					bad++
				}
			}
		}
	}
	// The cases named in the issue, through the command.
	for _, c := range []struct{ from, bits, want string }{
		{"f16", "0x2400", "0.01563\t0x2400\n"},
		{"bf16", "0x3c00", "0.0078\t0x3c00\n"},
	} {
		if code, out, errs := cli(t, "", "convert", "--from", c.from, "--to", c.from, "--bits", c.bits); code != 0 || out != c.want {
			t.Errorf("convert --from %s --bits %s: exit %d, %q %q; want %q", c.from, c.bits, code, out, errs, c.want)
		}
	}
}

// TestRoundHalfReference pins the test's reference rounding on known cases, so that a fault in
// it cannot hide one in formatHalf.
func TestRoundHalfReference(t *testing.T) {
	cases := []struct {
		ty   element.Type
		dec  string
		want uint16
	}{
		{element.F16, "1", 0x3c00},
		{element.F16, "0.015625", 0x2400},
		{element.F16, "0.01562", 0x23ff},
		{element.F16, "0.01563", 0x2400},
		{element.F16, "65504", 0x7bff},
		{element.F16, "65519.99", 0x7bff},
		{element.F16, "65520", 0x7c00},                  // the tie above the largest finite value rounds to even: Inf
		{element.F16, "2.98023223876953125e-8", 0x0000}, // 2^-25: the tie between 0 and 2^-24
		{element.F16, "2.99e-8", 0x0001},
		{element.F16, "-0.1", 0xae66},
		{element.F16, "0.00006103515625", 0x0400}, // 2^-14, the smallest normal
		{element.BF16, "1.04", 0x3f85},
		{element.BF16, "1.00390625", 0x3f80}, // 1 + 2^-8: a tie, to the even 0x3f80
		{element.BF16, "1.01171875", 0x3f82}, // 1 + 3·2^-8: a tie, to the even 0x3f82
		{element.BF16, "3.39e38", 0x7f7f},
	}
	for _, c := range cases {
		r, _ := new(big.Rat).SetString(c.dec)
		if got := roundHalf(c.ty, r); got != c.want {
			t.Errorf("roundHalf(%s, %s) = 0x%04x, want 0x%04x", c.ty, c.dec, got, c.want)
		}
	}
}
