package bench

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	"github.com/convertpromote/convertpromote/element"
	"github.com/x448/float16"
)

// Fill writes n realistic random source values of type from, meant to be converted to type to,
// into buf (which holds at least from.ByteSize(n) bytes), drawn from rng.
//
// For f16, bf16, f32 and f64 sources (and the parts of c32, c64 and c128) the values are normal
// with standard deviation min(1000, L/4), where L is the smaller of the source's and the
// destination's largest finite value (integers: the largest magnitude; boolean: 1), so almost all
// values are in range for the destination and span many exponents; for an unsigned destination
// the magnitude is used. Every other source (integers, boolean, the 8-bit and 4-bit floats, nf4,
// packed types) gets random bytes: every bit pattern is a valid value of those types.
func Fill(buf []byte, from, to element.Type, n int, rng *rand.Rand) {
	part := from
	if p, ok := from.ComplexPart(); ok {
		part = p
	}
	switch part {
	case element.F16, element.BF16, element.F32, element.F64:
	default:
		sz, err := from.ByteSize(int64(n))
		if err != nil {
			return
		}
		fillBytes(buf[:sz], rng)
		return
	}
	count := n
	if part != from {
		count = 2 * n // complex: two parts per element
	}
	sigma := math.Min(1000, limit(part, to)/4)
	unsigned := isUnsigned(to)
	w := part.Bits() / 8
	for i := range count {
		v := rng.NormFloat64() * sigma
		if unsigned {
			v = math.Abs(v)
		}
		b := buf[i*w:]
		switch part {
		case element.F16:
			binary.LittleEndian.PutUint16(b, float16.Fromfloat32(float32(v)).Bits())
		case element.BF16:
			binary.LittleEndian.PutUint16(b, uint16(math.Float32bits(float32(v))>>16))
		case element.F32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
		case element.F64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(v))
		}
	}
}

func fillBytes(b []byte, rng *rand.Rand) {
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, rng.Uint64())
		b = b[8:]
	}
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// limit is the smaller of the largest finite magnitudes of from and to.
func limit(from, to element.Type) float64 {
	return math.Min(largest(from), largest(to))
}

// largest is the largest finite magnitude of t (+Inf when t has no such bound).
func largest(t element.Type) float64 {
	if p, ok := t.ComplexPart(); ok {
		t = p
	}
	if f, ok := t.FloatFormat(); ok {
		return f.MaxFinite
	}
	if t == element.NF4 {
		return 1
	}
	if lo, hi, ok := t.IntRange(); ok {
		return math.Max(-float64(lo), float64(hi))
	}
	return math.Inf(1)
}

func isUnsigned(t element.Type) bool {
	switch t {
	case element.U1, element.U2, element.U3, element.U4, element.U6, element.U8, element.U16,
		element.U32, element.U64, element.F8E8M0, element.Boolean:
		return true
	}
	return false
}
