//go:build gc && !purego

package kernels

// The parameters of the NEON float8 encoders of the rule sets (ruleF8Blocks<> in
// kernels_arm64.s), one variable for each encoder constant of rules_codec.go that a NEON kernel
// uses, named neon and the constant's name. A kernel passes the address of its source's row.
var (
	neonEncE4M3Sat, neonEncE4M3NoSat                = neonEncOf(encE4M3Sat), neonEncOf(encE4M3NoSat)
	neonEncE5M2Sat, neonEncE5M2NoSat, neonEncE5M2ML = neonEncOf(encE5M2Sat), neonEncOf(encE5M2NoSat), neonEncOf(encE5M2ML)
	neonEncE4M3FNUZSat, neonEncE4M3FNUZNoSat        = neonEncOf(encE4M3FNUZSat), neonEncOf(encE4M3FNUZNoSat)
	neonEncE5M2FNUZSat, neonEncE5M2FNUZNoSat        = neonEncOf(encE5M2FNUZSat), neonEncOf(encE5M2FNUZNoSat)
)

// neonEnc holds an encoder's parameters for each source, f32 (row 0, at byte 0), f16 (row 1, at
// byte 36) and bf16 (row 2, at byte 72): the source (0, 1, 2), then f8FromF32's constants,
// minNormal, magic, offset, clamp, half a unit less one (1<<(shift-1) - 1), the NaN code, the
// negated shift (USHL shifts right by it) and all ones for the FNUZ types (0 otherwise).
type neonEnc [3][9]uint32

// neonEncOf lays out e's parameters.
func neonEncOf(e f8Enc) (p neonEnc) {
	fnuz := uint32(0)
	if e.fnuz() {
		fnuz = 0xFFFFFFFF
	}
	for k := range p {
		p[k] = [9]uint32{uint32(k), e.minNormal(), e.magic(), e.offset(), e.clamp(), 1<<(e.shift()-1) - 1,
			e.nan(), -e.shift(), fnuz}
	}
	return p
}

// neonFNUZ holds the parameters of fnuzBlocks<> (kernels_arm64.s) for f8e4m3fnuz (rows 0 to 3)
// and f8e5m2fnuz (rows 4 to 7), each type's rows for f32, f16, bf16 and f64 output: the output
// (0 to 3), the shift that moves a magnitude code to float32's mantissa position, the magnitude
// mask once shifted, and the float32 bits of 2^(127-bias).
var neonFNUZ = func() (t [8][4]uint32) {
	for i, f := range []struct{ mant, bias uint32 }{{3, 8}, {2, 16}} {
		for out := range uint32(4) {
			t[4*i+int(out)] = [4]uint32{out, 23 - f.mant, 0x7F << (23 - f.mant), (254 - f.bias) << 23}
		}
	}
	return t
}()

// neonWide holds the parameters of wideBlocks<> (kernels_arm64.s): for each source (f64, i32,
// u32, i64, u64) and output (f16, bf16), the source (0 to 4) and the output (0, 1).
var neonWide = [5][2][2]uint32{{{0, 0}, {0, 1}}, {{1, 0}, {1, 1}}, {{2, 0}, {2, 1}}, {{3, 0}, {3, 1}}, {{4, 0}, {4, 1}}}

// neonWideNearest holds the parameters of wideBlocks<> for the registry's i64 and u64 → f32 and
// f16 (float32 to nearest even, then binary16): for each source (i64, u64) and output (f32,
// f16), the source (3, 4) and the output (2, 3).
var neonWideNearest = [2][2][2]uint32{{{3, 2}, {3, 3}}, {{4, 2}, {4, 3}}}

// The parameters of the NEON f8e8m0 encoders (e8m0Blocks<> in kernels_arm64.s), one variable for
// each encoder constant of rules_codec.go, named neon and the constant's name.
var (
	neonEncE8M0Up, neonEncE8M0Down, neonEncE8M0Nearest                = neonE8M0Of(encE8M0Up), neonE8M0Of(encE8M0Down), neonE8M0Of(encE8M0Nearest)
	neonEncE8M0UpNoSat, neonEncE8M0DownNoSat, neonEncE8M0NearestNoSat = neonE8M0Of(encE8M0UpNoSat), neonE8M0Of(encE8M0DownNoSat), neonE8M0Of(encE8M0NearestNoSat)
	neonEncE8M0ML                                                     = neonE8M0Of(encE8M0ML)
)

// neonE8M0 holds an f8e8m0 encoder's parameters for each source, f32 (row 0), f16 (row 1, at byte
// 20) and bf16 (row 2, at byte 40): the source (0, 1, 2), the round mode's addition to the bits
// (0x7FFFFF up, 0 down, 0x400000 nearest and ml_dtypes), 1 for ml_dtypes, and ONNX's codes for
// values below 2^-127 and above 2^127 (saturate=1: 0x00 and 0xFE; otherwise 0xFF).
type neonE8M0 [3][5]uint32

// neonE8M0Of lays out e's parameters.
func neonE8M0Of(e e8m0Enc) (p neonE8M0) {
	add := [3]uint32{RoundUp: 0x7FFFFF, RoundDown: 0, RoundNearest: 0x400000}[e&3]
	ml, low, high := uint32(0), uint32(0xFF), uint32(0xFF)
	if e&8 != 0 {
		ml, add = 1, 0x400000
	}
	if e&4 != 0 {
		low, high = 0, 0xFE
	}
	for k := range p {
		p[k] = [5]uint32{uint32(k), add, ml, low, high}
	}
	return p
}
