package main

import (
	"math"
	"strconv"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
)

// readFloat reads w, a decimal or one of the words inf, -inf and nan (any case), as a value of
// the real float type t, rounding once: at float64 precision for f64 and at float32 precision
// for every other float type, which the library computes from a float32 (docs/SEMANTICS.md
// §3.1). A decimal beyond t's finite range, one that rounds past t's largest finite value in t's
// own precision (§3.12), is a usage error saying "out of range" that names the value and the
// type. nf4 takes every decimal: each has a nearest code.
func readFloat(t element.Type, w string) (float64, error) {
	size := 32
	if t == element.F64 {
		size = 64
	}
	v, err := strconv.ParseFloat(w, size)
	switch {
	case isRangeErr(err) && t == element.NF4:
		return v, nil // ±Inf, whose nearest codes are 0 and 15
	case isRangeErr(err): // beyond float32's (float64's) range: ParseFloat gives ±Inf
		return 0, outOfFloatRange(t, w)
	case err != nil:
		return 0, usageErrorf("value %q is not a number", w)
	case !fitsFloat(t, w, v):
		return 0, outOfFloatRange(t, w)
	}
	return v, nil
}

// fitsFloat reports whether the decimal w, whose nearest float32 (float64 for f64) is v, is within
// the finite range of t: it rounds to a finite value of t in t's own precision. The words inf,
// -inf and nan fit every type.
func fitsFloat(t element.Type, w string, v float64) bool {
	if math.IsInf(v, 0) || math.IsNaN(v) || t == element.F64 || t == element.NF4 {
		return true // f64: ParseFloat reports a decimal beyond it
	}
	// bound is the magnitude from which a decimal rounds past the largest finite value; it is
	// itself a float32 value, so a magnitude a of v above or below it settles the question, and
	// on it w's exact value does.
	var bound float64
	onIn := false
	if t == element.F32 {
		bound = 0x1.FFFFFFp127 // the tie between the largest f32 and 2^128: it rounds to 2^128
	} else if nf := narrowFloats(t); nf != nil {
		_, bound, _, onIn = nf.interval(nf.top)
	} else {
		return true
	}
	switch a := math.Abs(v); {
	case a < bound:
		return true
	case a > bound:
		return false
	}
	if len(w) > 0 && (w[0] == '-' || w[0] == '+') {
		w = w[1:]
	}
	c := exactCmp(w, bound)
	return c < 0 || c == 0 && onIn
}

// outOfFloatRange is the usage error for the decimal w beyond the finite range of the float
// type t.
func outOfFloatRange(t element.Type, w string) error {
	max, size := math.MaxFloat64, 64
	if f, ok := t.FloatFormat(); ok && t != element.F64 {
		max, size = f.MaxFinite, 32
	}
	return usageErrorf("value %q is out of range: %s holds magnitudes up to %s", w, t, strconv.FormatFloat(max, 'g', -1, size))
}

// parseComplex reads a value of the complex type t: a real decimal, read as readFloat reads
// one of the part type, or (RE+IMi), each part within the part type's finite range.
func parseComplex(t element.Type, w string) (op.Tensor, error) {
	one := []int64{1}
	part, _ := t.ComplexPart()
	if _, err := strconv.ParseFloat(w, 64); err == nil || isRangeErr(err) {
		f, err := readFloat(part, w)
		if err != nil {
			return op.Tensor{}, err
		}
		return op.FromFloat64(one, []float64{f})
	}
	c, err := strconv.ParseComplex(w, 128)
	switch {
	case isRangeErr(err):
		return op.Tensor{}, outOfFloatRange(part, w)
	case err != nil:
		return op.Tensor{}, usageErrorf("value %q is not a number", w)
	}
	for _, v := range []float64{real(c), imag(c)} {
		// The parts were read at float64 precision: compare them as their own decimals.
		if !fitsFloat(part, strconv.FormatFloat(v, 'g', -1, 64), v) {
			return op.Tensor{}, outOfFloatRange(part, w)
		}
	}
	return op.FromComplex128(one, []complex128{c})
}

// overflowed reports whether reading the values of x into the float or complex type of y made a
// finite value infinite or NaN: the library reads some decimals within a type's range that way
// (f8e5m2 from f32 rounds to f16 first, §3.5), and such a decimal is out of range too.
func overflowed(x, y op.Tensor) bool {
	if !y.Type().IsFloat() && !y.Type().IsComplex() || y.Type() == element.NF4 {
		return false
	}
	xs, err1 := x.Complex128s()
	ys, err2 := y.Complex128s()
	if err1 != nil || err2 != nil {
		return false
	}
	finite := func(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
	for i := range xs {
		for _, p := range [][2]float64{{real(xs[i]), real(ys[i])}, {imag(xs[i]), imag(ys[i])}} {
			if finite(p[0]) && !finite(p[1]) {
				return true
			}
		}
	}
	return false
}
