//go:build gc && !purego && (amd64 || arm64)

package quant

import (
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// The tables the SIMD kernels (quant_amd64.s, quant_arm64.s) read, derived from the scalar
// codecs of package kernels. Every NaN scale's value is groupNaN, the quiet NaN a NaN-scaled
// group decodes to.
var (
	// e8m0Scales maps an f8e8m0 scale byte to its float32 value: 2^(c−127), 0xFF NaN.
	e8m0Scales = scaleValues(kernels.F32FromF8E8M0)
	// e4m3Scales maps an f8e4m3 scale byte to its float32 value, both NaN codes groupNaN.
	e4m3Scales = scaleValues(kernels.F32FromF8E4M3)
	// f4Values are the 16 f4e2m1 values by code.
	f4Values = func() (t [16]float32) {
		for c := range t {
			t[c] = kernels.F32FromF4E2M1(uint8(c))
		}
		return t
	}()
)

// scaleValues returns the float32 values of the 256 scale bytes, every NaN as groupNaN.
func scaleValues(scale func(uint8) float32) (t [256]float32) {
	for c := range t {
		t[c] = scale(uint8(c))
		if t[c] != t[c] {
			t[c] = groupNaN
		}
	}
	return t
}

// The rows the SIMD decoders of MXFP4 and NVFP4 to f16 and bf16 look elements up in. Row s of
// a table holds the 16 f4e2m1 codes' values times the scale whose byte is s, by code, rounded
// to the target type as decodeGeneric rounds them (every element of a NaN scale's row is the
// group NaN). A kernel loads the row of a group's scale and looks the group's codes up in it,
// so a decoded element is the pure-Go loop's by construction; the 16 products need no
// multiplication or conversion in the loop. A tensor's groups use few distinct scales, so the
// rows in use stay in the first-level cache.
var (
	mxfp4F16Rows  = f4ProductRows(&e8m0Scales, kernels.F16FromF32)
	mxfp4BF16Rows = f4ProductRows(&e8m0Scales, kernels.BF16FromF32)
	nvfp4F16Rows  = f4ProductRows(&e4m3Scales, kernels.F16FromF32)
	nvfp4BF16Rows = f4ProductRows(&e4m3Scales, kernels.BF16FromF32)
)

// mxfp4GroupRows are the rows of the group kernels of NNCF's mxfp4 (f4e2m1 codes with an
// f8e8m0 scale, computed in f16: quant.NNCF("mxfp4", group)): row s holds the f16 bits of the
// 16 codes' values under scale byte s, as decodeGroups computes them (the scale rounded to f16
// first, so that scales below 2^-24 give zeros and above 2^15 infinities). mxfp4GroupSplit are
// the same rows split for AVX2's VPSHUFB.
var (
	mxfp4GroupRows = func() (t [256][16]uint16) {
		vals := codeValues(element.F4E2M1, true)
		for s := range t {
			sv := round16(valueAt([]byte{byte(s)}, element.F8E8M0, 0))
			for c := range t[s] {
				t[s][c] = kernels.F16FromF32(groupValue(vals[c], 0, sv, true))
			}
		}
		return t
	}()
	mxfp4GroupSplit = splitRows(&mxfp4GroupRows)
)

// The 16 values of the 4-bit codes of NNCF's nf4 and fp4 (f16 arithmetic), as decodeGroups
// takes them: nf4's rounded to f16, f4e2m1's exact. The group kernels multiply them by a group's
// scale.
var (
	nf4GroupValues = first16(codeValues(element.NF4, true))
	f4GroupValues  = first16(codeValues(element.F4E2M1, true))
)

// first16 returns the first 16 values of t.
func first16(t *[256]float32) (v [16]float32) {
	copy(v[:], t[:16])
	return v
}

// The same rows split for byte lookups (AVX2's VPSHUFB, NEON's TBL): the 16 low bytes of a row,
// then its 16 high bytes.
var (
	mxfp4F16Split  = splitRows(&mxfp4F16Rows)
	mxfp4BF16Split = splitRows(&mxfp4BF16Rows)
	nvfp4F16Split  = splitRows(&nvfp4F16Rows)
	nvfp4BF16Split = splitRows(&nvfp4BF16Rows)
)

// f4ProductRows returns the 256 rows of products of the f4e2m1 values with the scales, each
// converted by round.
func f4ProductRows(scales *[256]float32, round func(float32) uint16) (t [256][16]uint16) {
	for s := range t {
		v := scales[s]
		for c := range t[s] {
			p := groupNaN
			if v == v {
				p = f4Values[c] * v
			}
			t[s][c] = round(p)
		}
	}
	return t
}

// splitRows returns rows with each row's low bytes first and its high bytes after them.
func splitRows(rows *[256][16]uint16) (t [256][32]byte) {
	for s, r := range rows {
		for c, w := range r {
			t[s][c], t[s][16+c] = byte(w), byte(w>>8)
		}
	}
	return t
}
