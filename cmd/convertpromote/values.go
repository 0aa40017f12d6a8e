package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
)

// Every command prints values with formatValue (one value) or formatValues (a tensor's values),
// by one rule, stated in docs/SEMANTICS.md §3.11:
//
//   - a float value (f16, bf16, f32, the 8-bit and 4-bit floats, nf4, each part of a complex
//     value) as the shortest decimal that reads back to the same float32, as Go's
//     strconv.FormatFloat(v, 'g', -1, 32) writes it: every value of these types is a float32, so
//     the decimal names it exactly (f16 65504 prints as 65504, f8e4m3 448 as 448) and reads
//     back to the same code; an f64 value likewise at float64 precision. NaN, +Inf, -Inf and
//     -0 are spelled that way;
//   - an integer in decimal; a boolean as true or false;
//   - a complex value as (RE+IMi), each part by the float rule.

// formatValue formats one value of type t (a real type, not complex) given by its bits: the
// element's raw bits, little-endian as a number (for the packed types, the element's code).
func formatValue(t element.Type, bits uint64) string {
	switch {
	case t == element.F32:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(bits))), 'g', -1, 32)
	case t == element.F64:
		return strconv.FormatFloat(math.Float64frombits(bits), 'g', -1, 64)
	case t.IsFloat():
		if decode, ok := narrowDecoders[t]; ok {
			return strconv.FormatFloat(float64(decode(bits)), 'g', -1, 32)
		}
		return fmt.Sprintf("0x%x", bits) // not reached: every float type has a decoder
	case t == element.Boolean:
		return strconv.FormatBool(bits != 0)
	case t.IsSigned(): // the signed integers
		shift := 64 - t.Bits()
		return strconv.FormatInt(int64(bits<<shift)>>shift, 10)
	}
	return strconv.FormatUint(bits, 10)
}

// formatValues formats the first n values of x (all of them when n < 0) with formatValue; a
// complex value is formatted as (RE+IMi).
func formatValues(x op.Tensor, n int) ([]string, error) {
	if !x.Valid() {
		return nil, fmt.Errorf("the tensor is not valid (the zero op.Tensor)")
	}
	t := x.Type()
	if n < 0 || n > x.Len() {
		n = x.Len()
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]string, n)
	if t.IsPacked() {
		// The first n elements start at byte 0 and end within ByteSize(n).
		size, _ := t.ByteSize(int64(n))
		head, err := op.FromBytes(t, []int64{int64(n)}, x.Bytes()[:size])
		if err != nil {
			return nil, err
		}
		codes, err := head.Codes()
		if err != nil {
			return nil, err
		}
		for i, c := range codes {
			out[i] = formatValue(t, uint64(c))
		}
		return out, nil
	}
	part, complex := t.ComplexPart()
	if !complex {
		part = t
	}
	w := part.Bits() / 8
	data := x.Bytes()
	word := func(k int) uint64 {
		var b [8]byte
		copy(b[:], data[k*w:(k+1)*w])
		return binary.LittleEndian.Uint64(b[:])
	}
	for i := range out {
		if complex {
			re, im := formatValue(part, word(2*i)), formatValue(part, word(2*i+1))
			if !strings.HasPrefix(im, "-") && !strings.HasPrefix(im, "+") {
				im = "+" + im
			}
			out[i] = "(" + re + im + "i)"
		} else {
			out[i] = formatValue(t, word(i))
		}
	}
	return out, nil
}

// narrowFloat holds the values of one float type narrower than f32 (f16, bf16, the 8-bit and
// 4-bit floats, nf4), each code decoded once, for the reading of decimals (decimal.go): which
// decimals round to a code in the type's own precision.
type narrowFloat struct {
	t      element.Type
	f      element.Format // the zero Format for nf4
	values []float64      // every code's value, exactly
	sign   uint64         // the sign bit's mask; 0 for f8e8m0 and nf4
	top    uint64         // the code of the largest finite value
}

var (
	narrowMu  sync.Mutex
	narrowFor = map[element.Type]*narrowFloat{}
)

// narrowDecoders decode one code (raw bits for f16 and bf16) of each narrow float type exactly.
var narrowDecoders = map[element.Type]func(uint64) float32{
	element.F16:        func(b uint64) float32 { return kernels.F32FromF16(uint16(b)) },
	element.BF16:       func(b uint64) float32 { return kernels.F32FromBF16(uint16(b)) },
	element.F8E4M3:     func(b uint64) float32 { return kernels.F32FromF8E4M3(uint8(b)) },
	element.F8E5M2:     func(b uint64) float32 { return kernels.F32FromF8E5M2(uint8(b)) },
	element.F8E4M3FNUZ: func(b uint64) float32 { return kernels.F32FromF8E4M3FNUZ(uint8(b)) },
	element.F8E5M2FNUZ: func(b uint64) float32 { return kernels.F32FromF8E5M2FNUZ(uint8(b)) },
	element.F8E8M0:     func(b uint64) float32 { return kernels.F32FromF8E8M0(uint8(b)) },
	element.F4E2M1:     func(b uint64) float32 { return kernels.F32FromF4E2M1(uint8(b)) },
	element.NF4:        func(b uint64) float32 { return kernels.F32FromNF4(uint8(b)) },
}

// narrowFloats returns the values of t, built on first use, or nil when t is not a float
// type narrower than f32.
func narrowFloats(t element.Type) *narrowFloat {
	narrowMu.Lock()
	defer narrowMu.Unlock()
	if nf, ok := narrowFor[t]; ok {
		return nf
	}
	decode, ok := narrowDecoders[t]
	if !ok {
		return nil
	}
	n := 1 << t.Bits()
	nf := &narrowFloat{t: t, values: make([]float64, n)}
	for c := range nf.values {
		nf.values[c] = float64(decode(uint64(c)))
		if isFinite(nf.values[c]) && nf.values[c] > nf.values[nf.top] {
			nf.top = uint64(c)
		}
	}
	if f, ok := t.FloatFormat(); ok {
		nf.f = f
		if f.SignBit {
			nf.sign = 1 << (t.Bits() - 1)
		}
	}
	narrowFor[t] = nf
	return nf
}

// interval returns the values that read back to code: from lo to hi, each end included when
// its flag says so. The ends are exact float64 values (midpoints of values of at most 12
// significant bits, or nf4's thresholds).
func (nf *narrowFloat) interval(code uint64) (lo, hi float64, loIn, hiIn bool) {
	v := nf.values[code]
	if nf.t == element.NF4 {
		// Codes are ordered by value; a value on a threshold takes the lower code.
		lo, hi = math.Inf(-1), math.Inf(1)
		if code > 0 {
			lo = element.NF4Midpoints[code-1]
		}
		if code < 15 {
			hi = element.NF4Midpoints[code]
		}
		return lo, hi, false, true
	}
	a := math.Abs(v)
	m := code &^ nf.sign // the magnitude's code: codes grow with the magnitude
	even := code&1 == 0  // ties go to the even code (f8e8m0: the even exponent field)
	lo = 0               // f8e8m0's smallest value owns everything below it
	if m > 0 {
		lo = (a + math.Abs(nf.values[m-1])) / 2
	}
	var above float64
	if next := m + 1; next < uint64(len(nf.values)) && next&nf.sign == 0 && isFinite(nf.values[next]) {
		above = math.Abs(nf.values[next])
	} else {
		// The largest finite value: the next value the type would have, one step of its binade
		// up (a power of two up for f8e8m0).
		_, e := math.Frexp(a) // a = 0.5·2^e … 2^e
		above = a + math.Ldexp(1, e-1-nf.f.MantBits)
	}
	hi = (a + above) / 2
	loIn, hiIn = even, even
	if m == 0 {
		loIn = false
	}
	if v < 0 {
		return -hi, -lo, hiIn, loIn
	}
	return lo, hi, loIn, hiIn
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// exactCmp compares the decimal s with x exactly: -1, 0 or +1 as s is below, equal to or above.
// A number big.Rat does not read (a hex float) counts as equal: the callers ask only when the
// nearest float64 or float32 to s is x.
func exactCmp(s string, x float64) int {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0
	}
	return r.Cmp(new(big.Rat).SetFloat64(x))
}
