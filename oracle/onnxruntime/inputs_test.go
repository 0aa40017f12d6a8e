package onnxruntime

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// Source patterns. Every 8- and 16-bit pattern; for 32- and 64-bit types the special values, a
// stride over every pattern and random patterns from a fixed seed.

func all8() ([]byte, int) {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b, 256
}

func all16() ([]byte, int) {
	b := make([]byte, 2<<16)
	for i := range 1 << 16 {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(i))
	}
	return b, 1 << 16
}

// all4 is every 4-bit pattern, packed two per byte, low nibble first.
func all4() ([]byte, int) { return []byte{0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe}, 16 }

const (
	f32Stride = 4099   // prime: 1 047 811 patterns spread over all 2^32
	f32Random = 400000 // more patterns, uniformly random
)

// f32Special are values at the edges of the float8 formats and of f32: zeros, infinities, NaNs
// with payloads, extremes, every f8 value, every midpoint between neighbouring f8 values of
// each format (the ties) and the f32 neighbours of both.
func f32Special() []uint32 {
	v := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
		0x7fbfffff, 0x7fffffff, 0xffffffff, 0x7f7fffff, 0xff7fffff, 1, 0x80000001, 0x007fffff, 0x00800000,
		0x00400000, 0x00c00000, 0x00200000, 0x7f000000, 0x7f400000, 0x7f400001, 0x7f3fffff, 0x7effffff}
	for _, f := range []f8format{fmtE4M3FN, fmtE5M2, fmtE4M3FNUZ, fmtE5M2FNUZ} {
		var vals []float64
		for c := range 0x80 {
			if x, nan := f.decode(uint8(c)); !nan && !math.IsInf(x, 0) {
				vals = append(vals, x)
			}
		}
		// The values just past the largest: where overflow begins.
		top := vals[len(vals)-1]
		vals = append(vals, top+(top-vals[len(vals)-2]), 2*top)
		for i, x := range vals {
			pts := []float64{x}
			if i > 0 {
				pts = append(pts, (x+vals[i-1])/2)
			}
			for _, p := range pts {
				b := math.Float32bits(float32(p))
				for _, d := range []uint32{b, b + 1, b - 1} {
					v = append(v, d, d|0x80000000)
				}
			}
		}
	}
	// Powers of two and their midpoints, for f8e8m0.
	for e := -149; e <= 127; e++ {
		b := math.Float32bits(float32(math.Ldexp(1, e)))
		m := math.Float32bits(float32(math.Ldexp(1.5, e)))
		v = append(v, b, b+1, b-1, m, m-1, m+1)
	}
	return v
}

// f32Patterns returns the special values, the stride and the random patterns.
func f32Patterns() ([]byte, int) {
	v := f32Special()
	for x := uint64(0); x < 1<<32; x += f32Stride {
		v = append(v, uint32(x))
	}
	r := rand.New(rand.NewPCG(19, 4))
	for range f32Random {
		v = append(v, r.Uint32())
	}
	return pack32(v)
}

// f64Patterns: specials; every f32 pattern of the stride widened exactly, as a tie (half an f32
// ulp added) and with random low bits (so that f64 → f32, f16, bf16 round); random patterns.
func f64Patterns() ([]byte, int) {
	v := []uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001,
		0xfff8000000000001, 0x7fefffffffffffff, 0x0000000000000001, 0x000fffffffffffff, 0x0010000000000000}
	r := rand.New(rand.NewPCG(19, 8))
	for x := uint64(0); x < 1<<32; x += f32Stride {
		f := math.Float64bits(float64(math.Float32frombits(uint32(x))))
		v = append(v, f, f|1<<28, f^r.Uint64()&(1<<29-1))
	}
	for range f32Random {
		v = append(v, r.Uint64())
	}
	return pack64(v)
}

// int32Patterns and int64Patterns: edges, a stride over all 2^32 (32-bit) and random values of
// every bit length (so that small, float-exact and rounding magnitudes all occur).
func int32Patterns() ([]byte, int) {
	v := []uint32{0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 1 << 24, 1<<24 + 1, 1<<24 + 3, 65504, 65505, 65519, 65520, 65536}
	for x := uint64(0); x < 1<<32; x += f32Stride {
		v = append(v, uint32(x))
	}
	r := rand.New(rand.NewPCG(19, 32))
	for range f32Random {
		v = append(v, r.Uint32()>>r.IntN(32))
	}
	return pack32(v)
}

func int64Patterns() ([]byte, int) {
	v := []uint64{0, 1, ^uint64(0), 1<<63 - 1, 1 << 63, 1 << 53, 1<<53 + 1, 1<<24 + 1, 1<<63 + 1, 1<<64 - 1<<39}
	r := rand.New(rand.NewPCG(19, 64))
	for range 2 * f32Random {
		v = append(v, r.Uint64()>>r.IntN(64))
	}
	for range f32Random {
		x := r.Uint64() >> r.IntN(64)
		v = append(v, -x)
	}
	return pack64(v)
}

// pack32 and pack64 lay patterns out as little-endian bytes.
func pack32(v []uint32) ([]byte, int) {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b, len(v)
}

func pack64(v []uint64) ([]byte, int) {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return b, len(v)
}
