//go:build !purego

package kernels

import (
	"encoding/binary"
	"math"

	"github.com/convertpromote/convertpromote/element"
)

// This file is the NEON tests' own reference: each conversion written again from docs/SEMANTICS.md
// §3 with float64 arithmetic, independent of the pure-Go path and of the kernels.

// refRound rounds the finite a ≥ 0 to nearest even in a binary format with mbits mantissa
// bits, exponent bias bias and ebits exponent bits (subnormals kept, overflow to infinity) and
// returns the magnitude bits.
func refRound(a float64, mbits, ebits, bias int) uint64 {
	if a == 0 {
		return 0
	}
	_, e := math.Frexp(a) // a = f·2^e, f in [0.5, 1)
	E := max(e-1, 1-bias)
	q := math.RoundToEven(math.Ldexp(a, mbits-E))
	if q >= float64(uint64(2)<<mbits) {
		q /= 2
		E++
	}
	inf := uint64(1<<ebits-1) << mbits
	if q < float64(uint64(1)<<mbits) {
		return uint64(q) // subnormal (exponent field 0)
	}
	if E+bias >= 1<<ebits-1 {
		return inf
	}
	return uint64(E+bias)<<mbits | (uint64(q) - 1<<mbits)
}

func refF32ToF16(x uint32) uint16 {
	s := uint16(x>>16) & 0x8000
	f := math.Float32frombits(x)
	switch {
	case f != f:
		return s | 0x7E00 | uint16(x>>13&0x3FF) // quiet bit set, top 9 payload bits kept
	case math.IsInf(float64(f), 0):
		return s | 0x7C00
	}
	return s | uint16(refRound(math.Abs(float64(f)), 10, 5, 15))
}

func refF16ToF32(h uint16) uint32 {
	s := uint32(h&0x8000) << 16
	e, m := int(h>>10&0x1F), uint32(h&0x3FF)
	switch {
	case e == 31 && m != 0:
		return s | 0x7FC00000 | m<<13
	case e == 31:
		return s | 0x7F800000
	case e == 0:
		return s | math.Float32bits(float32(math.Ldexp(float64(m), -24)))
	}
	return s | math.Float32bits(float32(math.Ldexp(float64(m|0x400), e-25)))
}

func refF32ToBF16(x uint32) uint16 {
	s := uint16(x>>16) & 0x8000
	f := math.Float32frombits(x)
	switch {
	case f != f:
		return uint16(x>>16) | 0x0040
	case math.IsInf(float64(f), 0):
		return s | 0x7F80
	}
	return s | uint16(refRound(math.Abs(float64(f)), 7, 8, 127))
}

func refF64ToF32(x uint64) uint32 {
	s := uint32(x>>32) & 0x80000000
	f := math.Float64frombits(x)
	switch {
	case f != f:
		return s | 0x7FC00000 | uint32(x>>29&0x7FFFFF)
	case math.IsInf(f, 0):
		return s | 0x7F800000
	}
	return s | uint32(refRound(math.Abs(f), 23, 8, 127))
}

func refF32ToF64(x uint32) uint64 {
	f := math.Float32frombits(x)
	if f != f {
		return uint64(x&0x80000000)<<32 | 0x7FF8000000000000 | uint64(x&0x7FFFFF)<<29
	}
	return math.Float64bits(float64(f))
}

func refE4M3ToF32(b uint8) uint32 {
	s := uint32(b&0x80) << 24
	e, m := int(b>>3&15), float64(b&7)
	switch {
	case b&0x7F == 0x7F:
		return s | 0x7FC00000
	case e == 0:
		return s | math.Float32bits(float32(math.Ldexp(m, -9)))
	}
	return s | math.Float32bits(float32(math.Ldexp(8+m, e-10)))
}

// refF16ToE4M3 is the second step of the f8e4m3 rule: round the f16 to nearest even in e4m3;
// above 464, ±inf and NaN give 0x7F/0xFF by sign, 464 itself gives 448.
func refF16ToE4M3(h uint16) uint8 {
	s := uint8(h>>8) & 0x80
	v := math.Abs(float64(math.Float32frombits(refF16ToF32(h))))
	switch {
	case v != v || v > 464:
		return s | 0x7F
	case v >= 448:
		return s | 0x7E
	}
	return s | uint8(refRound(v, 3, 8, 7)) // ebits 8: no overflow below 448
}

// refF16ToE5M2 rounds the f16 to nearest even in e5m2 (overflow to ±inf); a NaN is quieted and
// keeps its high byte.
func refF16ToE5M2(h uint16) uint8 {
	s := uint8(h>>8) & 0x80
	v := math.Abs(float64(math.Float32frombits(refF16ToF32(h))))
	switch {
	case v != v:
		return uint8((h | 0x0200) >> 8)
	case math.IsInf(v, 0):
		return s | 0x7C
	}
	return s | uint8(refRound(v, 2, 5, 15))
}

// refI32ToF16 goes through f32 (round to nearest even), saturates to ±65504, then rounds to f16.
func refI32ToF16(x int32) uint16 {
	f := float32(x)
	f = max(min(f, 65504), -65504)
	return refF32ToF16(math.Float32bits(f))
}

// refSatInt truncates f toward zero and saturates to [lo, hi]; NaN gives 0.
func refSatInt(f float32, lo, hi int64) int64 {
	if f != f {
		return 0
	}
	t := math.Trunc(float64(f))
	if t <= float64(lo) {
		return lo
	}
	if t >= float64(hi) {
		return hi
	}
	return int64(t)
}

// refNibble returns the f32 value of 4-bit code c of type t.
func refNibble(t element.Type, c uint8) float32 {
	switch t {
	case element.U4:
		return float32(c)
	case element.I4:
		if c >= 8 {
			return float32(int(c) - 16)
		}
		return float32(c)
	case element.NF4:
		return element.NF4Codes[c]
	case element.F4E2M1:
		v := float32(math.Ldexp(float64(2|c&1), int(c>>1&3)-2)) // 1.m · 2^(e-1)
		if c>>1&3 == 0 {
			v = float32(c&1) / 2
		}
		if c&8 != 0 {
			v = -v
		}
		return v
	}
	panic("not a 4-bit type")
}

// refKernel returns this file's reference loop for a NEON pair.
func refKernel(from, to element.Type) loopFunc {
	le := binary.LittleEndian
	u16 := func(b []byte, i int) uint16 { return le.Uint16(b[2*i:]) }
	u32 := func(b []byte, i int) uint32 { return le.Uint32(b[4*i:]) }
	u64 := func(b []byte, i int) uint64 { return le.Uint64(b[8*i:]) }
	f32 := func(b []byte, i int) float32 { return math.Float32frombits(u32(b, i)) }
	p16 := func(b []byte, i int, v uint16) { le.PutUint16(b[2*i:], v) }
	p32 := func(b []byte, i int, v uint32) { le.PutUint32(b[4*i:], v) }
	p64 := func(b []byte, i int, v uint64) { le.PutUint64(b[8*i:], v) }
	pf32 := func(b []byte, i int, v float32) { p32(b, i, math.Float32bits(v)) }
	each := func(f func(dst, src []byte, i int)) loopFunc {
		return func(dst, src []byte, n int) {
			for i := range n {
				f(dst, src, i)
			}
		}
	}
	type p = [2]element.Type
	switch (p{from, to}) {
	case p{element.F32, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(u32(s, i))) })
	case p{element.F16, element.F32}:
		return each(func(d, s []byte, i int) { p32(d, i, refF16ToF32(u16(s, i))) })
	case p{element.F32, element.BF16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToBF16(u32(s, i))) })
	case p{element.BF16, element.F32}:
		return each(func(d, s []byte, i int) { p32(d, i, uint32(u16(s, i))<<16) })
	case p{element.F16, element.BF16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToBF16(refF16ToF32(u16(s, i)))) })
	case p{element.BF16, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(uint32(u16(s, i))<<16)) })
	case p{element.F64, element.F32}:
		return each(func(d, s []byte, i int) { p32(d, i, refF64ToF32(u64(s, i))) })
	case p{element.F32, element.F64}:
		return each(func(d, s []byte, i int) { p64(d, i, refF32ToF64(u32(s, i))) })
	case p{element.F8E4M3, element.F32}:
		return each(func(d, s []byte, i int) { p32(d, i, refE4M3ToF32(s[i])) })
	case p{element.F8E4M3, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(refE4M3ToF32(s[i]))) })
	case p{element.F8E5M2, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, uint16(s[i])<<8) })
	case p{element.F8E5M2, element.F32}:
		return each(func(d, s []byte, i int) { p32(d, i, refF16ToF32(uint16(s[i])<<8)) })
	case p{element.I8, element.F32}:
		return each(func(d, s []byte, i int) { pf32(d, i, float32(int8(s[i]))) })
	case p{element.U8, element.F32}:
		return each(func(d, s []byte, i int) { pf32(d, i, float32(s[i])) })
	case p{element.I16, element.F32}:
		return each(func(d, s []byte, i int) { pf32(d, i, float32(int16(u16(s, i)))) })
	case p{element.U16, element.F32}:
		return each(func(d, s []byte, i int) { pf32(d, i, float32(u16(s, i))) })
	case p{element.I32, element.F32}:
		// Round to nearest even through float64, which holds every int32 exactly.
		return each(func(d, s []byte, i int) {
			v := float64(int32(u32(s, i)))
			p32(d, i, uint32(u32(s, i))&0x80000000|uint32(refRound(math.Abs(v), 23, 8, 127)))
		})
	case p{element.F16, element.F8E4M3}:
		return each(func(d, s []byte, i int) { d[i] = refF16ToE4M3(u16(s, i)) })
	case p{element.F32, element.F8E4M3}:
		return each(func(d, s []byte, i int) { d[i] = refF16ToE4M3(refF32ToF16(u32(s, i))) })
	case p{element.F16, element.F8E5M2}:
		return each(func(d, s []byte, i int) { d[i] = refF16ToE5M2(u16(s, i)) })
	case p{element.F32, element.F8E5M2}:
		return each(func(d, s []byte, i int) { d[i] = refF16ToE5M2(refF32ToF16(u32(s, i))) })
	case p{element.I8, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(math.Float32bits(float32(int8(s[i]))))) })
	case p{element.U8, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(math.Float32bits(float32(s[i])))) })
	case p{element.I16, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(math.Float32bits(float32(int16(u16(s, i)))))) })
	case p{element.U16, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refF32ToF16(math.Float32bits(float32(u16(s, i))))) })
	case p{element.I32, element.F16}:
		return each(func(d, s []byte, i int) { p16(d, i, refI32ToF16(int32(u32(s, i)))) })
	case p{element.I8, element.I32}:
		return each(func(d, s []byte, i int) { p32(d, i, uint32(int32(int8(s[i])))) })
	case p{element.U8, element.I32}:
		return each(func(d, s []byte, i int) { p32(d, i, uint32(s[i])) })
	case p{element.I16, element.I32}:
		return each(func(d, s []byte, i int) { p32(d, i, uint32(int32(int16(u16(s, i))))) })
	case p{element.I32, element.I64}:
		return each(func(d, s []byte, i int) { p64(d, i, uint64(int64(int32(u32(s, i))))) })
	case p{element.I64, element.I32}:
		return each(func(d, s []byte, i int) { p32(d, i, uint32(u64(s, i))) })
	case p{element.I32, element.I16}:
		return each(func(d, s []byte, i int) { p16(d, i, uint16(u32(s, i))) })
	case p{element.I32, element.I8}:
		return each(func(d, s []byte, i int) { d[i] = byte(u32(s, i)) })
	case p{element.F32, element.I32}:
		return each(func(d, s []byte, i int) { p32(d, i, uint32(refSatInt(f32(s, i), math.MinInt32, math.MaxInt32))) })
	case p{element.F32, element.I16}:
		return each(func(d, s []byte, i int) { p16(d, i, uint16(refSatInt(f32(s, i), math.MinInt16, math.MaxInt16))) })
	case p{element.F32, element.I8}:
		return each(func(d, s []byte, i int) { d[i] = byte(refSatInt(f32(s, i), math.MinInt8, math.MaxInt8)) })
	case p{element.F32, element.U8}:
		return each(func(d, s []byte, i int) { d[i] = byte(refSatInt(f32(s, i), 0, 255)) })
	case p{element.Boolean, element.U8}, p{element.U8, element.Boolean}:
		return each(func(d, s []byte, i int) {
			d[i] = 0
			if s[i] != 0 {
				d[i] = 1
			}
		})
	case p{element.Boolean, element.F32}:
		return each(func(d, s []byte, i int) {
			pf32(d, i, 0)
			if s[i] != 0 {
				pf32(d, i, 1)
			}
		})
	case p{element.F32, element.Boolean}:
		return each(func(d, s []byte, i int) {
			d[i] = 0
			if u32(s, i)&0x7FFFFFFF != 0 {
				d[i] = 1
			}
		})
	}
	if from.Bits() == 4 && (to == element.F32 || to == element.F16) {
		return func(d, s []byte, n int) {
			for i := range n {
				c := s[i/2] >> (4 * (i & 1)) & 15
				v := math.Float32bits(refNibble(from, c))
				if to == element.F32 {
					p32(d, i, v)
				} else {
					p16(d, i, refF32ToF16(v))
				}
			}
		}
	}
	panic("no reference for " + from.String() + " → " + to.String())
}
