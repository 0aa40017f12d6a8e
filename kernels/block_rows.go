package kernels

// The rows the SIMD decoders of MXFP4 and NVFP4 to f16 and bf16 look elements up in. Row s of
// a table holds the 16 f4e2m1 codes' values times the scale whose byte is s, by code, rounded
// to the target type as decodeBlocksGeneric rounds them (every element of a NaN scale's row is
// the block NaN). A kernel loads the row of a block's scale and looks the block's codes up in
// it, so a decoded element is the pure-Go loop's by construction; the 16 products need no
// multiplication or conversion in the loop. A tensor's blocks use few distinct scales, so the
// rows in use stay in the first-level cache.
var (
	blockMXFP4F16Rows  = f4ProductRows(F32FromF8E8M0, F16FromF32)
	blockMXFP4BF16Rows = f4ProductRows(F32FromF8E8M0, BF16FromF32)
	blockNVFP4F16Rows  = f4ProductRows(blockE4M3Scale, F16FromF32)
	blockNVFP4BF16Rows = f4ProductRows(blockE4M3Scale, BF16FromF32)
)

// The same rows split for byte lookups (AVX2's VPSHUFB, NEON's TBL): the 16 low bytes of a row,
// then its 16 high bytes.
var (
	blockMXFP4F16Split  = splitRows(&blockMXFP4F16Rows)
	blockMXFP4BF16Split = splitRows(&blockMXFP4BF16Rows)
	blockNVFP4F16Split  = splitRows(&blockNVFP4F16Rows)
	blockNVFP4BF16Split = splitRows(&blockNVFP4BF16Rows)
)

// blockE4M3Scale is the float32 value of an NVFP4 scale byte, NaN codes as the block NaN.
func blockE4M3Scale(c uint8) float32 { return blockE4M3Scales[c] }

// f4ProductRows returns the 256 rows of products of the f4e2m1 values with scale(s), each
// converted by round.
func f4ProductRows(scale func(uint8) float32, round func(float32) uint16) (t [256][16]uint16) {
	for s := range t {
		v := scale(uint8(s))
		for c := range t[s] {
			p := blockNaN
			if v == v {
				p = F32FromF4E2M1(uint8(c)) * v
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
