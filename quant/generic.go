package quant

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// groupNaN is the value of every element of a group whose scale or zero point is NaN, and of
// an element whose arithmetic makes a NaN of numbers (∞ × 0, ∞ − ∞).
var groupNaN = math.Float32frombits(0x7FC00000)

// decodeGeneric decodes n elements of scheme s (the last group possibly partial) from codes and
// scales, for a scheme without zero points or a second-level scale: the call the kernels of the
// registry compute.
func decodeGeneric(dst []byte, to element.Type, codes, scales []byte, s Scheme, n int) {
	decodeGroups(dst, to, Data{Codes: codes, Scales: scales}, s, n)
}

// decodeGroups decodes n elements of scheme s (the last group possibly partial) from q into dst
// as type to. It is the specification of Dequantize in code: each group's scale and zero point
// are decoded once, and where a group has at least as many elements as its code type has codes,
// the group's value of every code is computed once and looked up.
func decodeGroups(dst []byte, to element.Type, q Data, s Scheme, n int) {
	decodeGroupsAt(dst, to, q, s, n, 0)
}

// decodeGroupsAt is decodeGroups from group g0 on: the codes and dst start at the group's first
// element, q's scales and zero points at the tensor's first group (g0 indexes them, so that u4
// zero points need not start on a byte).
func decodeGroupsAt(dst []byte, to element.Type, q Data, s Scheme, n, g0 int) {
	f16 := s.Compute == element.F16
	scale2 := float32(1)
	if s.Scale2 != element.Dynamic {
		scale2 = math.Float32frombits(binary.LittleEndian.Uint32(q.Scale2))
	}
	vals := codeValues(s.Code, f16)
	nibbles := s.Code.Bits() == 4
	codes := 1 << s.Code.Bits()
	var ys [256]float32   // the group's value of each code, when looked up
	var tbits [256]uint32 // the same as dst's bits
	for g, i := g0, 0; i < n; g++ {
		m := min(s.Group, n-i)
		sv := valueAt(q.Scales, s.Scale, g)
		if s.E8M0Inf && q.Scales[g] == 0xFF {
			sv = float32(math.Inf(1))
		}
		switch {
		case s.Scale2 == element.Dynamic:
		case s.Scale2Divides:
			sv /= scale2
		default:
			sv *= scale2
		}
		var zv float32
		if s.Zero != element.Dynamic {
			k := g
			if s.ScalarZero {
				k = 0
			}
			zv = zeroValue(q.Zeros, s.Zero, k)
		}
		if f16 {
			sv, zv = round16(sv), round16(zv)
		}
		switch {
		case m < codes:
			putGroup(dst, to, q.Codes, nibbles, i, m, vals, zv, sv, f16)
		default:
			if f16 {
				for c := range codes {
					ys[c] = groupValue(vals[c], zv, sv, true)
				}
			} else {
				for c, cv := range vals[:codes] { // groupValue in float32, written out
					y := (cv - zv) * sv
					if y != y {
						y = nanValue(cv, zv, sv)
					}
					ys[c] = y
				}
			}
			tableBits(&tbits, ys[:codes], to)
			if nibbles && i%2 == 0 {
				putNibbleGroup(dst, to, q.Codes[i/2:(i+m+1)/2], i, m, &tbits)
				break
			}
			for j := range m {
				putBits(dst, to, i+j, tbits[codeAt(q.Codes, nibbles, i+j)])
			}
		}
		i += m
	}
}

// putGroup writes elements i..i+m-1 of dst, of type to, computing each from its code's value in
// vals, the zero point zv and the scale sv: the route of groups smaller than their code type's
// number of codes.
func putGroup(dst []byte, to element.Type, codes []byte, nibbles bool, i, m int, vals *[256]float32, zv, sv float32, f16 bool) {
	var buf [64]float32
	for j0 := 0; j0 < m; j0 += len(buf) {
		ys := buf[:min(len(buf), m-j0)]
		k := i + j0
		if f16 {
			for j := range ys {
				ys[j] = groupValue(vals[codeAt(codes, nibbles, k+j)], zv, sv, true)
			}
		} else {
			for j := range ys { // groupValue in float32, written out
				cv := vals[codeAt(codes, nibbles, k+j)]
				y := (cv - zv) * sv
				if y != y {
					y = nanValue(cv, zv, sv)
				}
				ys[j] = y
			}
		}
		putValues(dst, to, k, ys)
	}
}

// putValues stores ys as elements i, i+1, … of dst, of type to (f32, f16 or bf16), rounding to
// nearest even for f16 and bf16.
func putValues(dst []byte, to element.Type, i int, ys []float32) {
	switch to {
	case element.F32:
		d := dst[4*i : 4*(i+len(ys))]
		for j, y := range ys {
			binary.LittleEndian.PutUint32(d[4*j:], math.Float32bits(y))
		}
	case element.F16:
		d := dst[2*i : 2*(i+len(ys))]
		for j, y := range ys {
			binary.LittleEndian.PutUint16(d[2*j:], kernels.F16FromF32(y))
		}
	default:
		d := dst[2*i : 2*(i+len(ys))]
		for j, y := range ys {
			binary.LittleEndian.PutUint16(d[2*j:], kernels.BF16FromF32(y))
		}
	}
}

// codeTables holds every code's value of each code type, in f32 (index 0) and rounded to f16
// (index 1), built at start-up from codeValue.
var codeTables = func() (t [32][2]*[256]float32) {
	for _, c := range []element.Type{element.U8, element.I8, element.U4, element.I4, element.NF4, element.F4E2M1, element.F8E4M3, element.F8E5M2} {
		for k, f16 := range []bool{false, true} {
			t[c][k] = new([256]float32)
			for v := range 1 << c.Bits() {
				t[c][k][v] = codeValue(c, uint8(v), f16)
			}
		}
	}
	return t
}()

// codeValues returns the table of code type t's values in the compute type.
func codeValues(t element.Type, f16 bool) *[256]float32 {
	if f16 {
		return codeTables[t][1]
	}
	return codeTables[t][0]
}

// groupValue is an element's value from its code's value cv, its group's zero point zv and
// scale sv, each already in the compute type: round(round(cv − zv) × sv), rounding to f16 when
// f16 is set (float32 arithmetic rounds to float32 itself). A NaN result is nanValue's.
func groupValue(cv, zv, sv float32, f16 bool) float32 {
	var y float32
	if f16 {
		y = round16(round16(cv-zv) * sv)
	} else {
		y = (cv - zv) * sv
	}
	if y != y {
		return nanValue(cv, zv, sv)
	}
	return y
}

// nanValue is the NaN an element whose arithmetic gives a NaN takes: groupNaN for a NaN scale
// or zero point, a NaN code's own NaN, and groupNaN for ∞ × 0 and ∞ − ∞, whose NaN the hardware
// chooses differently on different architectures.
func nanValue(cv, zv, sv float32) float32 {
	if cv != cv && sv == sv && zv == zv {
		return cv
	}
	return groupNaN
}

// round16 rounds f to binary16, to nearest even, and returns its value as float32.
func round16(f float32) float32 { return kernels.F32FromF16(kernels.F16FromF32(f)) }

// codeAt returns element i's code: a nibble (low nibble first) or a byte.
func codeAt(codes []byte, nibbles bool, i int) uint8 {
	if nibbles {
		return codes[i/2] >> (4 * (i % 2)) & 0xF
	}
	return codes[i]
}

// codeValue returns the value of code c of type t, in the compute type (rounded to binary16
// when f16 is set: only nf4's values change).
func codeValue(t element.Type, c uint8, f16 bool) float32 {
	var v float32
	switch t {
	case element.U8, element.U4:
		v = float32(c)
	case element.I8:
		v = float32(int8(c))
	case element.I4:
		v = float32(int8(c<<4) >> 4)
	case element.NF4:
		v = kernels.F32FromNF4(c)
	case element.F4E2M1:
		v = kernels.F32FromF4E2M1(c)
	case element.F8E4M3:
		v = kernels.F32FromF8E4M3(c)
	default: // element.F8E5M2
		v = kernels.F32FromF8E5M2(c)
	}
	if f16 {
		return round16(v)
	}
	return v
}

// valueAt returns element i of b, of type t (f32, f16, bf16, f8e8m0 or f8e4m3: the value types,
// and the scales' types), as float32 (exactly).
func valueAt(b []byte, t element.Type, i int) float32 {
	switch t {
	case element.F32:
		return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	case element.F16:
		return kernels.F32FromF16(binary.LittleEndian.Uint16(b[2*i:]))
	case element.BF16:
		return kernels.F32FromBF16(binary.LittleEndian.Uint16(b[2*i:]))
	case element.F8E8M0:
		return kernels.F32FromF8E8M0(b[i])
	}
	return kernels.F32FromF8E4M3(b[i])
}

// zeroValue returns zero point k of type t in zeros, as float32 (exactly).
func zeroValue(zeros []byte, t element.Type, k int) float32 {
	switch t {
	case element.U8:
		return float32(zeros[k])
	case element.I8:
		return float32(int8(zeros[k]))
	case element.U4:
		return float32(codeAt(zeros, true, k))
	case element.F16:
		return kernels.F32FromF16(binary.LittleEndian.Uint16(zeros[2*k:]))
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(zeros[4*k:]))
}

// putNibbleGroup writes elements i..i+m-1 (i even) of dst, of type to, from their packed codes
// cb and the bits of the group's value of each code.
func putNibbleGroup(dst []byte, to element.Type, cb []byte, i, m int, t *[256]uint32) {
	if to == element.F32 {
		d := dst[4*i : 4*(i+m)]
		for k := 0; k+1 < m; k += 2 {
			b := cb[k/2]
			binary.LittleEndian.PutUint32(d[4*k:], t[b&0xF])
			binary.LittleEndian.PutUint32(d[4*k+4:], t[b>>4])
		}
		if m%2 == 1 {
			binary.LittleEndian.PutUint32(d[4*(m-1):], t[cb[m/2]&0xF])
		}
		return
	}
	d := dst[2*i : 2*(i+m)]
	for k := 0; k+1 < m; k += 2 {
		b := cb[k/2]
		binary.LittleEndian.PutUint16(d[2*k:], uint16(t[b&0xF]))
		binary.LittleEndian.PutUint16(d[2*k+2:], uint16(t[b>>4]))
	}
	if m%2 == 1 {
		binary.LittleEndian.PutUint16(d[2*(m-1):], uint16(t[cb[m/2]&0xF]))
	}
}

// valueBits returns v as the bits of type to (f32, f16 or bf16), rounding to nearest even for
// f16 and bf16.
func valueBits(to element.Type, v float32) uint32 {
	switch to {
	case element.F32:
		return math.Float32bits(v)
	case element.F16:
		return uint32(kernels.F16FromF32(v))
	}
	return uint32(kernels.BF16FromF32(v))
}

// tableBits stores ys as the bits of type to (f32, f16 or bf16) in t, rounding to nearest even
// for f16 and bf16.
func tableBits(t *[256]uint32, ys []float32, to element.Type) {
	switch to {
	case element.F32:
		for c, y := range ys {
			t[c] = math.Float32bits(y)
		}
	case element.F16:
		for c, y := range ys {
			t[c] = uint32(kernels.F16FromF32(y))
		}
	default:
		for c, y := range ys {
			t[c] = uint32(kernels.BF16FromF32(y))
		}
	}
}

// putBits stores element i of dst, of type to, from its bits.
func putBits(dst []byte, to element.Type, i int, b uint32) {
	if to == element.F32 {
		binary.LittleEndian.PutUint32(dst[4*i:], b)
		return
	}
	binary.LittleEndian.PutUint16(dst[2*i:], uint16(b))
}

// putValue stores v as element i of dst, of type to (f32, f16 or bf16), rounding to nearest
// even for f16 and bf16.
func putValue(dst []byte, to element.Type, i int, v float32) { putBits(dst, to, i, valueBits(to, v)) }

// getValues loads len(dst) values of type from, from element i of src on, as float32.
func getValues(dst []float32, src []byte, from element.Type, i int) []float32 {
	switch from {
	case element.F32:
		s := src[4*i : 4*(i+len(dst))]
		for j := range dst {
			dst[j] = math.Float32frombits(binary.LittleEndian.Uint32(s[4*j:]))
		}
	case element.F16:
		s := src[2*i : 2*(i+len(dst))]
		for j := range dst {
			dst[j] = kernels.F32FromF16(binary.LittleEndian.Uint16(s[2*j:]))
		}
	default:
		s := src[2*i : 2*(i+len(dst))]
		for j := range dst {
			dst[j] = kernels.F32FromBF16(binary.LittleEndian.Uint16(s[2*j:]))
		}
	}
	return dst
}

// f4e2m1Midpoints are the magnitudes halfway between consecutive f4e2m1 values: a magnitude
// rounds to code c (0..7) when it lies between midpoint c-1 and midpoint c, a tie going to the
// even code.
var f4e2m1Midpoints = [7]float32{0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5}

// encodeGeneric encodes n values of type from in src (the last group possibly partial)
// into codes and scales of scheme s. It is the specification of Quantize in code.
func encodeGeneric(codes, scales []byte, s Scheme, src []byte, from element.Type, n int) {
	e5m2 := s.Code == element.F8E5M2
	var buf [64]float32 // a group's values, read once, when the group fits
	for b, i := 0, 0; i < n; b++ {
		m := min(s.Group, n-i)
		var vals []float32
		if m <= len(buf) {
			vals = getValues(buf[:m], src, from, i)
		}
		val := func(j int) float32 {
			if vals != nil {
				return vals[j]
			}
			return valueAt(src, from, i+j)
		}
		// The largest finite magnitude by its bits (which order like the magnitudes), and
		// whether the group holds a NaN or an infinity.
		var amax uint32
		var nan, inf bool
		for j := range m {
			var a uint32
			if vals != nil {
				a = math.Float32bits(vals[j]) & 0x7FFFFFFF
			} else {
				a = math.Float32bits(valueAt(src, from, i+j)) & 0x7FFFFFFF
			}
			switch {
			case a > 0x7F800000:
				nan = true
			case a == 0x7F800000:
				inf = true
			default:
				amax = max(amax, a)
			}
		}
		if nan || inf && !e5m2 {
			// The group cannot be represented: a NaN scale makes all of it decode as NaN.
			if s.Scale == element.F8E8M0 {
				scales[b] = 0xFF
			} else {
				scales[b] = 0x7F
			}
			putCodes(codes, s.Code, i, m, func(int) uint8 { return 0 })
			i += m
			continue
		}
		if s.Scale == element.F8E8M0 {
			k := mxScaleExp(amax, s.Code)
			scales[b] = uint8(k + 127)
			inv := math.Float32frombits(powerOfTwoBits(-k)) // 1/scale, exact
			switch s.Code {
			case element.F4E2M1:
				if vals == nil {
					putCodes(codes, s.Code, i, m, func(j int) uint8 { return f4e2m1Below8(val(j) * inv) })
					break
				}
				// The common case written out: two codes a byte, no call per element.
				cb := codes[i/2 : (i+m+1)/2]
				for j := 0; j+1 < m; j += 2 {
					cb[j/2] = f4e2m1Below8(vals[j]*inv) | f4e2m1Below8(vals[j+1]*inv)<<4
				}
				if m%2 == 1 {
					cb[m/2] = f4e2m1Below8(vals[m-1] * inv)
				}
			default:
				putCodes(codes, s.Code, i, m, func(j int) uint8 { return f8FromF32Sat(val(j)*inv, e5m2) })
			}
		} else {
			// amax/6 rounded once in float32 is never a tie of f8e4m3 unless it is exact (a
			// 24-bit amax over 6 is either exact or more than half a float32 ulp away from every
			// number of 5 significant bits), so rounding it again to f8e4m3 is the single
			// rounding of amax/6.
			sc := f8FromF32Sat(math.Float32frombits(amax)/6, false)
			scales[b] = sc
			// A code's magnitude is the value's over the scale rounded to nearest even: compare
			// the magnitude with the midpoints times the scale, which are exact.
			thr := f4e2m1Thresholds(kernels.F32FromF8E4M3(sc))
			code := func(x float32) uint8 {
				v := math.Float32bits(x)
				return uint8(v>>28)&8 | f4e2m1Count(v&0x7FFFFFFF, &thr)
			}
			if vals == nil {
				putCodes(codes, s.Code, i, m, func(j int) uint8 { return code(val(j)) })
			} else { // the common case written out, as for MX above
				cb := codes[i/2 : (i+m+1)/2]
				for j := 0; j+1 < m; j += 2 {
					cb[j/2] = code(vals[j]) | code(vals[j+1])<<4
				}
				if m%2 == 1 {
					cb[m/2] = code(vals[m-1])
				}
			}
		}
		i += m
	}
}

// f4e2m1Below8 is F4E2M1FromF32 for |q| < 8 (every MX quotient), without its branches: the
// magnitude's code depends only on its exponent field (from 2^-3 up, lower magnitudes giving
// code 0), its first two mantissa bits and whether any lower bit is set, since every f4e2m1
// midpoint is 1.01 or 1.11 (binary) times a power of two; f4e2m1Below8Codes holds the codes by
// those bits.
func f4e2m1Below8(q float32) uint8 {
	b := math.Float32bits(q)
	a := max(b&0x7FFFFFFF, 0x3E000000)
	var sticky uint32
	if a&0x1FFFFF != 0 {
		sticky = 1
	}
	return uint8(b>>28)&8 | f4e2m1Below8Codes[a>>20&0x3E|sticky]
}

// f4e2m1Below8Codes is indexed by (E mod 8)<<3 | m1<<2 | m0<<1 | sticky for the exponent fields
// E = 124..129 of magnitudes below 8 (2^-3 and up), and holds F4E2M1FromF32 of a magnitude with
// those bits.
var f4e2m1Below8Codes = func() (t [64]uint8) {
	for e := 124; e <= 129; e++ {
		for low := range uint32(8) {
			bits := uint32(e)<<23 | low>>1<<21 | low&1 // the sticky bit as the lowest bit
			t[uint32(e%8)<<3|low] = kernels.F4E2M1FromF32(math.Float32frombits(bits))
		}
	}
	return t
}()

// f4e2m1Thresholds returns the float32 bits that f4e2m1Count compares magnitudes with for the
// (non-negative) scale s: the midpoints between f4e2m1 values times s, exact, where a magnitude
// above midpoint k rounds to code k+1 or more; at the midpoints below the even codes 2, 4, 6
// (k = 1, 3, 5) a tie rounds up too, so their thresholds are one less. With a zero scale every
// threshold is the largest magnitude, and every magnitude gives code 0.
func f4e2m1Thresholds(s float32) (thr [7]uint32) {
	for k, m := range f4e2m1Midpoints {
		b := math.Float32bits(m * s)
		switch {
		case s == 0:
			b = 0x7FFFFFFF
		case k&1 == 1:
			b--
		}
		thr[k] = b
	}
	return thr
}

// f4e2m1Count returns the f4e2m1 magnitude code of the float32 magnitude bits a: how many of
// the thresholds thr lie below a. For bits below 2^31, thr[k] - a wraps to a number with the
// top bit set exactly when a > thr[k], which counts without a branch (a branch per midpoint
// mispredicts on data and cost several times the rest of the loop).
func f4e2m1Count(a uint32, thr *[7]uint32) uint8 {
	return uint8((thr[0]-a)>>31 + (thr[1]-a)>>31 + (thr[2]-a)>>31 + (thr[3]-a)>>31 +
		(thr[4]-a)>>31 + (thr[5]-a)>>31 + (thr[6]-a)>>31)
}

// putCodes writes the codes code(0..m-1) of elements i..i+m-1 (i even for f4e2m1), packing
// f4e2m1 two a byte, low nibble first, with a zero high nibble after an odd last element.
func putCodes(codes []byte, elem element.Type, i, m int, code func(j int) uint8) {
	if elem != element.F4E2M1 {
		for j := range m {
			codes[i+j] = code(j)
		}
		return
	}
	for j := 0; j < m; j += 2 {
		c := code(j) & 0xF
		if j+1 < m {
			c |= code(j+1) << 4
		}
		codes[(i+j)/2] = c
	}
}

// elemEmax is the exponent of the largest power of two of an MX element type.
func elemEmax(elem element.Type) int {
	switch elem {
	case element.F4E2M1:
		return 2
	case element.F8E4M3:
		return 8
	}
	return 15
}

// mxScaleExp returns the exponent k of an MX group's scale 2^k for the largest finite magnitude
// whose float32 bits are amax: floor(log2(amax)) − emax, clamped to -127..127 (and -127 for a
// group of zeros).
func mxScaleExp(amax uint32, elem element.Type) int {
	if amax == 0 {
		return -127
	}
	var e int
	if amax >= 0x00800000 {
		e = int(amax>>23) - 127
	} else { // a float32 subnormal: amax·2^-149
		e = bits.Len32(amax) - 1 - 149
	}
	return min(max(e-elemEmax(elem), -127), 127)
}

// powerOfTwoBits returns the float32 bits of 2^k for -149 ≤ k ≤ 127.
func powerOfTwoBits(k int) uint32 {
	if k >= -126 {
		return uint32(k+127) << 23
	}
	return 1 << (k + 149)
}

// f8FromF32Sat rounds f once to nearest, ties to even, in f8e4m3 (e5m2 false) or f8e5m2,
// clamping a finite magnitude beyond the type's largest finite value (448, 57344) to it. ±Inf
// gives f8e5m2's ±Inf; f8e4m3 and NaN inputs are the caller's to keep away. The sign bit is f's,
// also for a result of zero. (F8E4M3FromF32 and F8E5M2FromF32 round twice, through f16, and
// overflow to NaN or Inf, as OpenVINO does; group scaling follows the OCP rule instead.)
func f8FromF32Sat(f float32, e5m2 bool) uint8 {
	b := math.Float32bits(f)
	sign := uint8(b>>24) & 0x80
	a := b & 0x7FFFFFFF
	mbits, bias, maxCode := uint32(3), uint32(7), uint32(0x7E)
	if e5m2 {
		mbits, bias, maxCode = 2, 15, 0x7B
		if a == 0x7F800000 {
			return sign | 0x7C
		}
	}
	if a >= (128-bias)<<23 { // a normal of the target: 2^(1-bias) or more
		sh := 23 - mbits
		r := a - (127-bias)<<23 // rebias the exponent
		r += 1<<(sh-1) - 1 + (r>>sh)&1
		return sign | uint8(min(r>>sh, maxCode))
	}
	// Below the target's normals: adding 2^(1-bias-mbits+23), whose float32 ulp is the target's
	// subnormal step, rounds to nearest even exactly there; the low bits are then the code (a
	// carry into the exponent is the smallest normal, also encoded right).
	c := math.Float32frombits((127 + 24 - bias - mbits) << 23)
	return sign | uint8(math.Float32bits(math.Float32frombits(a)+c)-math.Float32bits(c))
}
