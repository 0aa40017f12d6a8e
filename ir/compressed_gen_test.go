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
	"testdata/ir/compressed/float_modes.xml": {
		"e":       nibbles(32, nf4Codes),
		"e/scale": f16By(8, f16Scale),
		"e/shape": le[int64](4, 8),
		"f":       nibbles(32, f4Codes),
		"f/scale": f16By(8, f16Scale),
		"f/shape": le[int64](4, 8),
		"h":       bytesBy(32, f8Codes),
		"h/scale": f16By(8, f16Scale),
		"h/shape": le[int64](4, 8),
	},
	"testdata/ir/compressed/block_modes.xml": {
		"m": nibbles(128, f4Codes),
		// 2^-6, 2^-5, 2^17 (+Inf in f16), 2^-31 (0 in f16).
		"m/scale":              {121, 122, 144, 96},
		"m/shape":              le[int64](2, 64),
		"p":                    bytesBy(128, f8Codes),
		"p/scale":              bytesBy(4, e8m0),
		"p/shape":              le[int64](2, 64),
		"q":                    nibbles(128, f4Codes),
		"q/scale":              bytesBy(8, e4m3),
		"q/second_order_scale": f32By(1, func(int) float32 { return 0.0123 }),
		"q/shape":              le[int64](2, 64),
	},
	"testdata/ir/compressed/codebook.xml": {
		"k":                    bytesBy(16, func(i int) byte { return byte(0x20+9*i) ^ byte(i%2)<<7 }),
		"k_nncf_codebook_idxs": nibbles(32, u4Codes),
		"k/axis":               le[int64](0),
		"k/scale":              f16By(8, f16Scale),
		"k/shape":              le[int64](4, 8),
		"j":                    f16s(0.1, -0.3, 0.77, -1.1, 2.3, float32(math.Copysign(0, -1)), -0.05, 3.14159),
		"j_nncf_codebook_idxs": bytesBy(32, func(i int) byte { return byte((5*i + 1) % 8) }),
		"j/axis":               le[int64](0),
		"j/scale":              f16By(4, f16Scale),
		"u":                    f16s(-2, 0, 1, 3),
		"u_nncf_codebook_idxs": le[uint16](0, 1, 2, 3, 3, 2, 1, 0, 1, 3, 0, 2, 2, 0, 3, 1, 3, 3, 0, 0, 1, 1, 2, 2, 0, 2, 1, 3, 3, 1, 2, 0),
		"u/axis":               le[int64](0),
		"u/scale":              f16By(4, f16Scale),
	},
	"testdata/ir/compressed/fp16.xml": {
		"w_compressed": f16By(32, func(i int) float32 { return float32(i)*0.37 - 5 }),
		"v_compressed": f16By(8, func(i int) float32 { return float32(i) / 3 }),
	},
	"testdata/ir/compressed/older.xml": {
		"o1":            bytesBy(32, u8Codes),
		"o1/zero_point": f32By(4, func(i int) float32 { return float32(u8Zeros(i)) }),
		"o1/scale":      f32By(4, f16Scale),
		"o2":            nibbles(32, u4Codes),
		"o2/zero_point": nibbles(8, u4Zeros),
		"o2/scale":      f32By(8, f16Scale),
		"o2/shape":      le[int64](4, 8),
		"o3":            bytesBy(32, u8Codes),
		"o3/zero_point": bytesBy(4, u8Zeros),
		"o3/scale":      f16By(4, f16Scale),
		"o4":            bytesBy(32, u8Codes),
		"o4/zero_point": bytesBy(4, func(int) byte { return 128 }),
		"o4/scale":      f32By(4, f16Scale),
		"o5":            nibbles(32, u4Codes),
		"o5/zero_point": {0x08},
		"o5/scale":      f16By(8, f16Scale),
		"o5/shape":      le[int64](4, 8),
	},
	"testdata/ir/compressed/layouts.xml": {
		"l1":                  nibbles(32, u4Codes),
		"l1/zero_point":       nibbles(8, u4Zeros),
		"l1/zero_point/shape": le[int64](4, 2, 1),
		"l1/scale":            f16By(8, f16Scale),
		"l1/scale/axes":       le[int64](2),
		"l1/shape":            le[int64](4, 8),
		"l2":                  bytesBy(32, i8Codes),
		"l2/scale":            f16By(8, f16Scale),
		"l2/perm":             le[int64](1, 0),
		"l3":                  bytesBy(32, u8Codes),
		"l3/zero_point":       bytesBy(4, u8Zeros),
		"l3/scale":            f16s(0.0213),
	},
	"testdata/ir/compressed/bad/scale_shape.xml": {
		"w":            nibbles(32, u4Codes),
		"w/zero_point": nibbles(8, u4Zeros),
		"w/scale":      f16By(12, f16Scale),
	},
	"testdata/ir/compressed/bad/group_row.xml": {
		"w":       bytesBy(24, i8Codes),
		"w/scale": f16By(6, f16Scale),
		"w/shape": le[int64](4, 6),
	},
	"testdata/ir/compressed/bad/reshape_count.xml": {
		"w":       bytesBy(24, i8Codes),
		"w/scale": f16By(6, f16Scale),
		"w/shape": le[int64](4, 9),
	},
	"testdata/ir/compressed/bad/zero_range.xml": {
		"w":            bytesBy(32, u8Codes),
		"w/zero_point": le[float32](128, 12, 300, 7),
		"w/scale":      f32By(4, f16Scale),
	},
	"testdata/ir/compressed/bad/zero_negative.xml": {
		"w":            nibbles(32, u4Codes),
		"w/zero_point": f16s(8, -2, 3, 15),
		"w/scale":      f16By(4, f16Scale),
	},
	"testdata/ir/compressed/bad/codes_type.xml": {
		"w":       bytesBy(8, u8Codes),
		"w/scale": f16By(4, f16Scale),
	},
}

func init() {
	for k, v := range compressedBins {
		testdataBins[k] = v
	}
}
