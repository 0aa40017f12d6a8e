package ir

import (
	"encoding/binary"
	"math"
)

// The Consts of the compressed-weight fixtures in testdata/ir/compressed, generated from the
// patterns below (TestTestdataBins writes and checks their .bin files). Codes run through
// every code value; scales and zero points vary by group.

// bytesBy returns n bytes f(0) … f(n−1).
func bytesBy(n int, f func(i int) byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = f(i)
	}
	return b
}

// nibbles packs n 4-bit values f(i), low nibble first.
func nibbles(n int, f func(i int) byte) []byte {
	b := make([]byte, (n+1)/2)
	for i := 0; i < n; i++ {
		b[i/2] |= (f(i) & 0xF) << (4 * (i % 2))
	}
	return b
}

// f16By returns n f16 values f(i) (rounded to f16).
func f16By(n int, f func(i int) float32) []byte {
	vs := make([]float32, n)
	for i := range vs {
		vs[i] = f(i)
	}
	return f16s(vs...)
}

// f32By returns n f32 values f(i).
func f32By(n int, f func(i int) float32) []byte {
	out := make([]byte, 0, 4*n)
	for i := 0; i < n; i++ {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f(i)))
	}
	return out
}

// Patterns of codes, zero points and scales.
var (
	u8Codes  = func(i int) byte { return byte(i*37 + 11) }
	i8Codes  = func(i int) byte { return byte(i*53 + 7) }
	u4Codes  = func(i int) byte { return byte(i*7 + 3) }
	i4Codes  = func(i int) byte { return byte(i*5 + 1) }
	nf4Codes = func(i int) byte { return byte(i * 3) }
	f4Codes  = func(i int) byte { return byte(i*11 + 2) }
	// f8e4m3 codes skip the NaNs 0x7F and 0xFF.
	f8Codes = func(i int) byte {
		c := byte(i*29 + 5)
		if c&0x7F == 0x7F {
			c--
		}
		return c
	}
	u8Zeros  = func(i int) byte { return byte(100 + 17*i) }
	u4Zeros  = func(i int) byte { return byte(3*i + 5) }
	f16Scale = func(i int) float32 { return float32(i+1)*0.0137 - 0.02 }
	e8m0     = func(i int) byte { return byte(121 + i) } // 2^-6, 2^-5, …
	e4m3     = func(i int) byte { return byte(0x30 + 5*i) }
)

var compressedBins = map[string]map[string][]byte{
	"testdata/ir/compressed/int_modes.xml": {
		"a":            bytesBy(32, u8Codes),
		"a/zero_point": bytesBy(4, u8Zeros),
		"a/scale":      f16By(4, f16Scale),
		"b":            bytesBy(32, i8Codes),
		"b/scale":      f16By(4, f16Scale),
		"c":            nibbles(32, u4Codes),
		"c/zero_point": nibbles(8, u4Zeros),
		"c/scale":      f16By(8, f16Scale),
		"c/shape":      le[int64](4, 8),
		"d":            nibbles(32, i4Codes),
		"d/scale":      f16By(8, f16Scale),
		"d/shape":      le[int64](4, 8),
	},
}

func init() {
	for k, v := range compressedBins {
		testdataBins[k] = v
	}
}
