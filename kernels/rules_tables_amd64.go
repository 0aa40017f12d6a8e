//go:build gc && !purego

package kernels

import "math"

// The tables of the rule sets' AVX-512 float8 encoders (rules_amd64.s), one for each encoder
// constant of rules_codec.go that an AVX-512 kernel uses, named lut and the constant's name:
// the binary16 lookups of the OpenVINO encoders (f8EncTable, toF8 in the generator), built from
// f8FromF32, and the one correction the lookups cannot express. A float32 or bfloat16 source
// reaches binary16 rounded to odd (exactly where it is representable, otherwise the value just
// below in magnitude with its last bit set), from which one rounding to a float8 format, whose
// precision is at least 7 bits coarser, gives what one rounding from the source gives.
var (
	lutEncE4M3Sat, lutEncE4M3NoSat               = ruleEncTable(encE4M3Sat), ruleEncTable(encE4M3NoSat)
	lutEncE5M2Sat, lutEncE5M2NoSat, lutEncE5M2ML = ruleEncTable(encE5M2Sat), ruleEncTable(encE5M2NoSat), ruleEncTable(encE5M2ML)
	lutEncE4M3FNUZSat, lutEncE4M3FNUZNoSat       = ruleEncTable(encE4M3FNUZSat), ruleEncTable(encE4M3FNUZNoSat)
	lutEncE5M2FNUZSat, lutEncE5M2FNUZNoSat       = ruleEncTable(encE5M2FNUZSat), ruleEncTable(encE5M2FNUZNoSat)
)

// The tables of the AVX-512 f16 → f8e8m0 encoders, named as those above: the code of each
// binary16 magnitude by its high byte and one threshold on its low byte (f8EncTable, no second
// step), from e8m0FromF32. A high byte of 0 stands for zero: the kernels send a block holding a
// positive binary16 below 2^-16 through float32 instead.
var (
	lutEncE8M0Up, lutEncE8M0Down, lutEncE8M0Nearest                = e8m0F16Table(encE8M0Up), e8m0F16Table(encE8M0Down), e8m0F16Table(encE8M0Nearest)
	lutEncE8M0UpNoSat, lutEncE8M0DownNoSat, lutEncE8M0NearestNoSat = e8m0F16Table(encE8M0UpNoSat), e8m0F16Table(encE8M0DownNoSat), e8m0F16Table(encE8M0NearestNoSat)
	lutEncE8M0ML                                                   = e8m0F16Table(encE8M0ML)
)

// e8m0F16Table builds the table of the f8e8m0 encoder e for binary16 sources.
func e8m0F16Table(e e8m0Enc) [256]byte {
	return f8EncTable(func(h uint16) uint8 {
		if h < 0x100 {
			h = 0
		}
		return e8m0FromF32(math.Float32bits(F32FromF16(h)), e)
	}, 0x100)
}

// ruleEncTab is the table of one encoder, laid out for the kernels: lut at offset 0, fixFrom at
// 256, fixCode at 258.
type ruleEncTab struct {
	// lut holds, as f8EncTable builds it, the codes of the magnitudes by the route without the
	// correction: a NaN with high byte 0x7C encoded as infinity (unless its code is infinity's
	// plus one), and for the FNUZ types the saturating encoder (their NaN, 0x80, does not fit the
	// table's seven bits).
	lut [256]byte
	// fixFrom is the smallest binary16 magnitude whose code the lookup gets wrong; fixCode is
	// that code. Other types: NaN's code where it is neither infinity's nor the one above it
	// (fixFrom 0x7C01; 0xFFFF, which no magnitude reaches, elsewhere), set before the sign goes
	// on; only the kernels from f16, whose input may be a signalling NaN, use it. FNUZ: 0x80 from NaN's
	// magnitude, or from the first that overflows when the encoder does not saturate, set after
	// the sign.
	fixFrom uint16
	fixCode uint8
}

// ruleEncTable builds the table of the encoder e.
func ruleEncTable(e f8Enc) (t ruleEncTab) {
	route := e
	if e.fnuz() {
		route = f8EncOf(e.mant(), e.bias(), 0x7F, e.nan(), true)
	}
	code := func(h uint16, e f8Enc) uint8 { return f8FromF32(math.Float32bits(F32FromF16(h)), e) }
	// A NaN whose high byte is above 0x7C gets its own code in the table (no step within those
	// high bytes); the kernels from float32 and bfloat16, whose NaNs reach binary16 quiet (bit 9
	// set: high byte 0x7E or 0x7F), need no correction for it. In the high byte 0x7C, where
	// infinity and the NaNs meet, NaN is encoded as infinity, unless its code is infinity's plus
	// one (f8e4m3 with saturation: 0x7E and 0x7F), which the table's step can express. The FNUZ
	// types encode every NaN as infinity: a code of zero would be taken for a negative zero.
	nanInTable := !e.fnuz() && e.nan() == uint32(code(0x7C00, e))+1
	// A second step within one high byte comes at L = 0xC0 wherever one does (the binades where a
	// high byte spans two codes: f8e4m3's normal range, f8e5m2fnuz's subnormals), so 0xBF is
	// every table's s2; the kernels use it.
	t.lut = f8EncTable(func(h uint16) uint8 {
		if h&0x7FFF > 0x7C00 && (h&0x7F00 == 0x7C00 || e.fnuz()) && !nanInTable {
			h = h&0x8000 | 0x7C00 // NaN as infinity: the codes rise with the magnitude
		}
		return code(h, route) & 0x7F
	}, 0xBF)
	t.fixFrom, t.fixCode = 0xFFFF, uint8(e.nan())
	if e.fnuz() {
		for h := uint16(0); h <= 0x7FFF; h++ {
			if code(h, e) == 0x80 {
				t.fixFrom = h
				break
			}
		}
	} else if e.nan() != uint32(code(0x7C00, e)) && !nanInTable {
		t.fixFrom = 0x7C01
	}
	return t
}

// The tables of the AVX-512 bf16 → float8 encoders' fast route (bf16Fast in the generator), one
// for each encoder constant that an AVX-512 kernel from bf16 uses, named bf16Fast and the
// constant's name.
var (
	bf16FastEncE4M3Sat, bf16FastEncE4M3NoSat                    = bf16FastTable(encE4M3Sat), bf16FastTable(encE4M3NoSat)
	bf16FastEncE5M2Sat, bf16FastEncE5M2NoSat, bf16FastEncE5M2ML = bf16FastTable(encE5M2Sat), bf16FastTable(encE5M2NoSat), bf16FastTable(encE5M2ML)
	bf16FastEncE4M3FNUZSat, bf16FastEncE4M3FNUZNoSat            = bf16FastTable(encE4M3FNUZSat), bf16FastTable(encE4M3FNUZNoSat)
	bf16FastEncE5M2FNUZSat, bf16FastEncE5M2FNUZNoSat            = bf16FastTable(encE5M2FNUZSat), bf16FastTable(encE5M2FNUZNoSat)
)

// bf16FastTab is the table of one encoder's bf16 fast route, laid out for the kernels. Within
// its range of high bytes M = H&0x7F, from low to low+span, a bfloat16 magnitude M<<8 | L has
// the code min(t[M&63] + step·(L>>7) + r[L&0x7F], clamp) (bytes): t is the code with L = 0,
// step the one of L's top bit (the exponent's last bit), r the rounded mantissa, clamp the
// largest code the range reaches (overflow's); the code of the negative value is that code with
// bit 7 set (an FNUZ NaN, 0x80, keeps it), and no code in the range is 0.
type bf16FastTab struct {
	t                      [64]byte
	r                      [128]byte
	step, clamp, low, span byte
}

// bf16FastTable builds the table of the encoder e: r and step from the binade of 1.0, then the
// range grown from there in both directions while every input of a high byte, of either sign,
// gets its code from the formula, at most 64 high bytes (t is indexed by M&63).
func bf16FastTable(e f8Enc) (t bf16FastTab) {
	code := func(w uint16) uint8 { return f8FromF32(uint32(w)<<16, e) }
	const one = 0x3F // the high byte of 1.0
	base := code(one << 8)
	for l := range 128 {
		t.r[l] = code(one<<8|uint16(l)) - base
	}
	t.step = code(one<<8|0x80) - base
	t.clamp = uint8(e.clamp())
	fits := func(m int) bool {
		b := code(uint16(m) << 8)
		if int(b)+int(t.step)+int(t.r[127]) > 0xFF { // the byte sum would wrap
			return false
		}
		for l := range 256 {
			c := min(b+t.step*uint8(l>>7)+t.r[l&0x7F], t.clamp)
			if c == 0 || code(uint16(m)<<8|uint16(l)) != c || code(0x8000|uint16(m)<<8|uint16(l)) != c|0x80 {
				return false
			}
		}
		return true
	}
	if !fits(one) {
		panic("kernels: bf16 fast route without the binade of 1.0")
	}
	lo, hi := one, one
	for lo > 0 && hi-lo < 63 && fits(lo-1) {
		lo--
	}
	for hi < 0x7F && hi-lo < 63 && fits(hi+1) {
		hi++
	}
	for m := lo; m <= hi; m++ {
		t.t[m&63] = code(uint16(m) << 8)
	}
	t.low, t.span = uint8(lo), uint8(hi-lo)
	return t
}
