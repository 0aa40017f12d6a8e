package kernels

import (
	"fmt"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

//go:generate go -C _asm run .

// The kernel registry: one row for every pair that has a SIMD kernel on some path. Dispatch,
// the tests' pair lists and the pair table of docs/kernels.md are derived from it or tested
// against it, and the generator (kernels/_asm, run by go generate) reads it to write what follows
// from the rows: the pure-Go loops (direct_generic.go), the typed helpers (typed.go) and their
// test list, and the amd64 kernels' stubs. Adding a pair is a row here plus its kernel bodies:
// the generator's for amd64, kernels_arm64.s for arm64.
//
// The pure-Go loop of a row is its loop as code, the pair's entry in the generic table; every
// SIMD kernel of the row computes the same bits.

// pathSet is a set of SIMD paths.
type pathSet uint8

// The SIMD paths as sets, for the rows' paths column.
const (
	onAVX2   pathSet = 1 << AVX2
	onAVX512 pathSet = 1 << AVX512
	onNEON   pathSet = 1 << NEON
	onAll            = onAVX2 | onAVX512 | onNEON
)

// has reports whether p is in the set.
func (s pathSet) has(p Path) bool { return p < numPaths && s&(1<<p) != 0 }

// pairRow describes one pair: its SIMD kernels, its pure-Go loop and its typed helper.
type pairRow struct {
	from, to element.Type
	// paths are the SIMD paths with a kernel for the pair.
	paths pathSet
	// nt is the block, in elements, of the AVX-512 kernel with non-temporal stores, 0 when the
	// pair has none. That kernel runs instead of the ordinary one when the conversion streams
	// (its traffic exceeds the threshold of streams in kernels.go) and converts the whole blocks
	// that start on a 64-byte aligned destination.
	nt int
	// loop is the body of the scalar loop, for i := range n { loop }, that every kernel of the
	// pair computes: one assignment dst[i] = …, which the generator writes as the pair's pure-Go
	// loop, optionally after one declaration t := v that uses none of i, src and dst (written
	// before the loop, so that it runs once a call). src and dst are the buffers viewed as slices of the pair's Go types (uint16 for f16
	// and bf16, uint8 for the 8-bit floats and boolean); nibble(src, i) is the i-th 4-bit code,
	// the low nibble of a byte first, a uint8.
	loop string
	// doc documents the pair's typed helper (typed.go, generated): the text after the helper's
	// name, which says how the conversion rounds and, after "Special cases are:", what becomes
	// of the values it does not convert exactly (NaN, ±Inf, the values out of range).
	doc string
}

// registry lists the pairs with SIMD kernels, in the order of docs/kernels.md.
var registry = []pairRow{
	{from: element.F32, to: element.F16, paths: onAll, nt: 32, loop: "dst[i] = F16FromF32(src[i])",
		doc: "converts float32 to binary16 bits, rounding to nearest even as F16FromF32 does. Special " +
			"cases are: a magnitude of 65520 or more → ±Inf; NaN → quiet NaN with its sign and top " +
			"payload bits kept; subnormal results are kept."},
	{from: element.F16, to: element.F32, paths: onAll, nt: 16, loop: "dst[i] = F32FromF16(src[i])",
		doc: "converts binary16 bits to float32, exactly, as F32FromF16 does. Special cases are: NaN → " +
			"quiet NaN with its sign and payload kept."},
	{from: element.F32, to: element.BF16, paths: onAll, nt: 32, loop: "dst[i] = BF16FromF32(src[i])",
		doc: "converts float32 to bfloat16 bits, rounding to nearest even as BF16FromF32 does. Special " +
			"cases are: NaN → quiet NaN with its sign and top payload bits kept; subnormals are kept, " +
			"not flushed."},
	{from: element.BF16, to: element.F32, paths: onAll, nt: 16, loop: "dst[i] = F32FromBF16(src[i])",
		doc: "converts bfloat16 bits to float32, exactly, by a 16-bit shift (F32FromBF16). Special " +
			"cases are: NaN bits are kept unchanged."},
	{from: element.F16, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(F32FromF16(src[i]))",
		doc: "converts binary16 bits to bfloat16 bits, exactly to float32, then rounding to nearest " +
			"even as BF16FromF32 does. Special cases are: ±Inf → ±Inf; NaN → quiet NaN with its sign " +
			"and top payload bits kept."},
	{from: element.BF16, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(F32FromBF16(src[i]))",
		doc: "converts bfloat16 bits to binary16 bits, exactly to float32, then rounding to nearest " +
			"even as F16FromF32 does. Special cases are: a magnitude of 65520 or more → ±Inf; NaN → " +
			"quiet NaN with its sign and payload kept; subnormal results are kept."},

	{from: element.F8E4M3, to: element.F16, paths: onAll, nt: 64, loop: "dst[i] = F16FromF8E4M3(src[i])",
		doc: "converts f8e4m3 codes to binary16 bits, exactly, as F16FromF8E4M3 does. Special cases " +
			"are: codes 0x7F and 0xFF are NaN (f8e4m3 has no infinities)."},
	{from: element.F8E4M3, to: element.F32, paths: onAll, loop: "dst[i] = F32FromF8E4M3(src[i])",
		doc: "converts f8e4m3 codes to float32, exactly, as F32FromF8E4M3 does. Special cases are: " +
			"codes 0x7F and 0xFF are NaN (f8e4m3 has no infinities)."},
	{from: element.F8E4M3, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(F32FromF8E4M3(src[i]))",
		doc: "converts f8e4m3 codes to bfloat16 bits, exactly: BF16FromF32(F32FromF8E4M3(c)), which is " +
			"the high half of the float32 bits (every f8e4m3 value is a bfloat16). Special cases are: " +
			"codes 0x7F and 0xFF are the quiet NaNs 0x7FC0 and 0xFFC0 (f8e4m3 has no infinities)."},
	{from: element.F8E5M2, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF8E5M2(src[i])",
		doc: "converts f8e5m2 codes to binary16 bits, exactly, as F16FromF8E5M2 does: the code is the " +
			"top byte of the binary16 bits. Special cases are: NaN codes keep their bits (a " +
			"signalling NaN stays signalling)."},
	{from: element.F8E5M2, to: element.F32, paths: onAll, loop: "dst[i] = F32FromF8E5M2(src[i])",
		doc: "converts f8e5m2 codes to float32, exactly, as F32FromF8E5M2 does. Special cases are: the " +
			"±Inf codes decode to ±Inf, the NaN codes to NaN."},
	{from: element.F32, to: element.F8E4M3, paths: onAll, loop: "dst[i] = F8E4M3FromF16(F16FromF32(src[i]))",
		doc: "converts float32 to f8e4m3 codes as F8E4M3FromF32 does: rounding to nearest even to f16, " +
			"then to f8e4m3. Special cases are: a magnitude above 464 after the f16 step, and ±Inf, → " +
			"NaN with the sign kept; NaN → NaN."},
	{from: element.F16, to: element.F8E4M3, paths: onAll, loop: "dst[i] = F8E4M3FromF16(src[i])",
		doc: "converts binary16 bits to f8e4m3 codes as F8E4M3FromF16 does, rounding to nearest even. " +
			"Special cases are: a magnitude above 464, and ±Inf, → NaN with the sign kept; NaN → NaN."},
	{from: element.F32, to: element.F8E5M2, paths: onAll, loop: "dst[i] = F8E5M2FromF16(F16FromF32(src[i]))",
		doc: "converts float32 to f8e5m2 codes as F8E5M2FromF32 does: rounding to nearest even to f16, " +
			"then to f8e5m2. Special cases are: a magnitude of 61440 or more after the f16 step → " +
			"±Inf; NaN → quiet NaN with its sign kept."},
	{from: element.F16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = F8E5M2FromF16(src[i])",
		doc: "converts binary16 bits to f8e5m2 codes as F8E5M2FromF16 does, rounding to nearest even. " +
			"Special cases are: a magnitude of 61440 or more → ±Inf; NaN → quiet NaN with its sign " +
			"kept."},

	{from: element.F8E4M3FNUZ, to: element.F32, paths: onAll, loop: "dst[i] = F32FromF8E4M3FNUZ(src[i])",
		doc: "converts f8e4m3fnuz codes to float32, exactly, as F32FromF8E4M3FNUZ does (magnitudes from 2^-10 to 240). Special " +
			"cases are: code 0x80 is NaN (0x7FC00000); the type has no negative zero and no infinities."},
	{from: element.F8E4M3FNUZ, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(F32FromF8E4M3FNUZ(src[i]))",
		doc: "converts f8e4m3fnuz codes to binary16 bits, exactly (every f8e4m3fnuz value is a binary16). Special " +
			"cases are: code 0x80 is NaN (0x7E00)."},
	{from: element.F8E4M3FNUZ, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(F32FromF8E4M3FNUZ(src[i]))",
		doc: "converts f8e4m3fnuz codes to bfloat16 bits, exactly (every f8e4m3fnuz value is a bfloat16). Special " +
			"cases are: code 0x80 is NaN (0x7FC0)."},
	{from: element.F8E5M2FNUZ, to: element.F32, paths: onAll, loop: "dst[i] = F32FromF8E5M2FNUZ(src[i])",
		doc: "converts f8e5m2fnuz codes to float32, exactly, as F32FromF8E5M2FNUZ does (magnitudes from 2^-17 to 57344). Special " +
			"cases are: code 0x80 is NaN (0x7FC00000); the type has no negative zero and no infinities."},
	{from: element.F8E5M2FNUZ, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(F32FromF8E5M2FNUZ(src[i]))",
		doc: "converts f8e5m2fnuz codes to binary16 bits, exactly (every f8e5m2fnuz value is a binary16). Special " +
			"cases are: code 0x80 is NaN (0x7E00)."},
	{from: element.F8E5M2FNUZ, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(F32FromF8E5M2FNUZ(src[i]))",
		doc: "converts f8e5m2fnuz codes to bfloat16 bits, exactly (every f8e5m2fnuz value is a bfloat16). Special " +
			"cases are: code 0x80 is NaN (0x7FC0)."},

	{from: element.U4, to: element.F32, paths: onAll, loop: "dst[i] = float32(nibble(src, i))",
		doc: "decodes packed u4 codes (two a byte, low nibble first) to float32, exactly (values 0 to " +
			"15)."},
	{from: element.I4, to: element.F32, paths: onAll, loop: "dst[i] = float32(int8(nibble(src, i)<<4) >> 4)",
		doc: "decodes packed i4 codes (two a byte, low nibble first) to float32, exactly (values -8 to " +
			"7)."},
	{from: element.NF4, to: element.F32, paths: onAll, loop: "dst[i] = F32FromNF4(nibble(src, i))",
		doc: "decodes packed nf4 codes (two a byte, low nibble first) to float32, exactly, to the 16 " +
			"values of element.NF4Codes (code 0 is -1.0, code 7 is 0)."},
	{from: element.F4E2M1, to: element.F32, paths: onAll, loop: "dst[i] = F32FromF4E2M1(nibble(src, i))",
		doc: "decodes packed f4e2m1 codes (two a byte, low nibble first) to float32, exactly (±0, " +
			"±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6), as F32FromF4E2M1 does."},
	{from: element.U4, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(nibble(src, i)))",
		doc: "decodes packed u4 codes (two a byte, low nibble first) to binary16 bits, exactly (values " +
			"0 to 15)."},
	{from: element.I4, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(int8(nibble(src, i)<<4) >> 4))",
		doc: "decodes packed i4 codes (two a byte, low nibble first) to binary16 bits, exactly (values " +
			"-8 to 7)."},
	{from: element.NF4, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(F32FromNF4(nibble(src, i)))",
		doc: "decodes packed nf4 codes (two a byte, low nibble first) to binary16 bits, to the 16 " +
			"values of element.NF4Codes rounded to nearest even f16 (code 0 is -1.0, code 7 is 0)."},
	{from: element.F4E2M1, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(F32FromF4E2M1(nibble(src, i)))",
		doc: "decodes packed f4e2m1 codes (two a byte, low nibble first) to binary16 bits, exactly " +
			"(±0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6)."},

	{from: element.I8, to: element.F32, paths: onAll, nt: 16, loop: "dst[i] = float32(src[i])",
		doc: "converts int8 to float32, exactly."},
	{from: element.U8, to: element.F32, paths: onAll, loop: "dst[i] = float32(src[i])",
		doc: "converts uint8 to float32, exactly."},
	{from: element.I16, to: element.F32, paths: onAll, loop: "dst[i] = float32(src[i])",
		doc: "converts int16 to float32, exactly."},
	{from: element.U16, to: element.F32, paths: onAll, loop: "dst[i] = float32(src[i])",
		doc: "converts uint16 to float32, exactly."},
	{from: element.I32, to: element.F32, paths: onAll, nt: 16, loop: "dst[i] = float32(src[i]) // to nearest even",
		doc: "converts int32 to float32, rounding to nearest even."},
	{from: element.I8, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts int8 to binary16 bits, exactly."},
	{from: element.U8, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts uint8 to binary16 bits, exactly."},
	{from: element.I16, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts int16 to binary16 bits, rounding to nearest even."},
	{from: element.U16, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts uint16 to binary16 bits, rounding to nearest even. Special cases are: values of " +
			"65520 and more → +Inf."},
	{from: element.I32, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(max(min(src[i], 65504), -65504)))",
		doc: "converts int32 to binary16 bits, through float32, rounding to nearest even. Special " +
			"cases are: values beyond ±65504 saturate to ±65504 (the largest finite f16), not ±Inf."},
	{from: element.I8, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(float32(src[i]))",
		doc: "converts int8 to bfloat16 bits, exactly: an int8 has at most 8 significant bits, so " +
			"its float32 is a bfloat16."},

	{from: element.I8, to: element.I32, paths: onAll, loop: "dst[i] = int32(src[i])",
		doc: "converts int8 to int32, by sign extension, exactly."},
	{from: element.U8, to: element.I32, paths: onAll, loop: "dst[i] = int32(src[i])",
		doc: "converts uint8 to int32, by zero extension, exactly."},
	{from: element.I16, to: element.I32, paths: onAll, loop: "dst[i] = int32(src[i])",
		doc: "converts int16 to int32, by sign extension, exactly."},
	{from: element.I32, to: element.I64, paths: onAll, loop: "dst[i] = int64(src[i])",
		doc: "converts int32 to int64, by sign extension, exactly."},
	{from: element.I64, to: element.I32, paths: onAll, loop: "dst[i] = int32(src[i]) // the low 32 bits",
		doc: "converts int64 to int32, by wrapping: the low 32 bits are kept."},
	{from: element.I32, to: element.I16, paths: onAll, loop: "dst[i] = int16(src[i]) // the low 16 bits",
		doc: "converts int32 to int16, by wrapping: the low 16 bits are kept."},
	{from: element.I32, to: element.I8, paths: onAll, loop: "dst[i] = int8(src[i]) // the low 8 bits",
		doc: "converts int32 to int8, by wrapping: the low 8 bits are kept."},

	{from: element.F32, to: element.I32, paths: onAll, nt: 16, loop: "dst[i] = int32(sat(src[i], math.MinInt32, math.MaxInt32)) // sat: truncate, clamp, NaN → 0",
		doc: "converts float32 to int32, truncating toward zero. Special cases are: values beyond the " +
			"int32 range saturate to it; NaN → 0."},
	{from: element.F32, to: element.I16, paths: onAll, loop: "dst[i] = int16(sat(src[i], math.MinInt16, math.MaxInt16)) // sat: truncate, clamp, NaN → 0",
		doc: "converts float32 to int16, truncating toward zero. Special cases are: values beyond " +
			"[-32768, 32767] saturate to it; NaN → 0."},
	{from: element.F32, to: element.I8, paths: onAll, loop: "dst[i] = int8(sat(src[i], math.MinInt8, math.MaxInt8)) // sat: truncate, clamp, NaN → 0",
		doc: "converts float32 to int8, truncating toward zero. Special cases are: values beyond " +
			"[-128, 127] saturate to it; NaN → 0."},
	{from: element.F32, to: element.U8, paths: onAll, loop: "dst[i] = uint8(sat(src[i], 0, math.MaxUint8)) // sat: truncate, clamp, NaN → 0",
		doc: "converts float32 to uint8, truncating toward zero. Special cases are: values beyond [0, " +
			"255] saturate to it; NaN → 0."},
	{from: element.F64, to: element.F32, paths: onAll, nt: 16, loop: "dst[i] = float32(src[i]) // to nearest even",
		doc: "converts float64 to float32, as Go's float32(x) does: rounding to nearest even. Special " +
			"cases are: overflow → ±Inf; NaN → quiet NaN with its sign and top payload bits kept."},
	{from: element.F32, to: element.F64, paths: onAll, nt: 8, loop: "dst[i] = float64(src[i])",
		doc: "converts float32 to float64, exactly, as Go's float64(x) does. Special cases are: NaN → " +
			"quiet NaN."},

	{from: element.F16, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(F32FromF16(src[i]))",
		doc: "converts binary16 bits to float64, exactly. Special cases are: NaN → quiet NaN with its sign and payload kept."},
	{from: element.BF16, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(F32FromBF16(src[i]))",
		doc: "converts bfloat16 bits to float64, exactly. Special cases are: NaN → quiet NaN with its sign and payload kept."},
	{from: element.I8, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(src[i])",
		doc: "converts int8 to float64, exactly."},
	{from: element.U8, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(src[i])",
		doc: "converts uint8 to float64, exactly."},
	{from: element.I16, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(src[i])",
		doc: "converts int16 to float64, exactly."},
	{from: element.U16, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(src[i])",
		doc: "converts uint16 to float64, exactly."},
	{from: element.I32, to: element.F64, paths: onAll, nt: 32, loop: "dst[i] = float64(src[i])",
		doc: "converts int32 to float64, exactly."},
	{from: element.U32, to: element.F64, paths: onAVX512 | onNEON, nt: 32, loop: "dst[i] = float64(src[i])",
		doc: "converts uint32 to float64, exactly."},
	{from: element.I64, to: element.F64, paths: onAVX512 | onNEON, nt: 32, loop: "dst[i] = float64(src[i]) // to nearest even",
		doc: "converts int64 to float64, rounding to nearest even."},
	{from: element.U64, to: element.F64, paths: onAVX512 | onNEON, nt: 32, loop: "dst[i] = float64(src[i]) // to nearest even",
		doc: "converts uint64 to float64, rounding to nearest even."},
	{from: element.U32, to: element.F32, paths: onAVX512 | onNEON, nt: 64, loop: "dst[i] = float32(src[i]) // to nearest even",
		doc: "converts uint32 to float32, rounding to nearest even."},
	{from: element.I64, to: element.F32, paths: onAVX512 | onNEON, nt: 32, loop: "dst[i] = float32(src[i]) // to nearest even",
		doc: "converts int64 to float32, rounding to nearest even."},
	{from: element.U64, to: element.F32, paths: onAVX512 | onNEON, nt: 32, loop: "dst[i] = float32(src[i]) // to nearest even",
		doc: "converts uint64 to float32, rounding to nearest even."},

	{from: element.U32, to: element.F16, paths: onAVX512 | onNEON, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts uint32 to binary16 bits, through float32, rounding to nearest even (the float32 rounding matters only beyond 2^24, where binary16 has overflowed). Special cases are: magnitudes of 65520 and more → ±Inf."},
	{from: element.I64, to: element.F16, paths: onAVX512 | onNEON, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts int64 to binary16 bits, through float32, rounding to nearest even (the float32 rounding matters only beyond 2^24, where binary16 has overflowed). Special cases are: magnitudes of 65520 and more → ±Inf."},
	{from: element.U64, to: element.F16, paths: onAVX512 | onNEON, loop: "dst[i] = F16FromF32(float32(src[i]))",
		doc: "converts uint64 to binary16 bits, through float32, rounding to nearest even (the float32 rounding matters only beyond 2^24, where binary16 has overflowed). Special cases are: magnitudes of 65520 and more → ±Inf."},

	{from: element.U8, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(float32(src[i]))",
		doc: "converts uint8 to bfloat16 bits, exactly: a uint8 has at most 8 significant bits."},
	{from: element.I16, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(float32(src[i]))",
		doc: "converts int16 to bfloat16 bits, exactly to float32, then rounding to nearest even."},
	{from: element.U16, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(float32(src[i]))",
		doc: "converts uint16 to bfloat16 bits, exactly to float32, then rounding to nearest even."},
	{from: element.F8E8M0, to: element.F32, paths: onAll, loop: "dst[i] = F32FromF8E8M0(src[i])",
		doc: "converts f8e8m0 codes to float32, exactly, as F32FromF8E8M0 does: 2^(c-127). Special cases are: code 0x00 is 2^-127 (a float32 subnormal); code 0xFF is NaN (0x7FC00000)."},
	{from: element.F8E8M0, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(F32FromF8E8M0(src[i]))",
		doc: "converts f8e8m0 codes to binary16 bits, 2^(c-127) rounded to nearest even. Special cases are: codes of 2^-25 and below → +0; codes of 2^16 and above → +Inf; code 0xFF is NaN (0x7E00)."},
	{from: element.F8E8M0, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(F32FromF8E8M0(src[i]))",
		doc: "converts f8e8m0 codes to bfloat16 bits, exactly (2^(c-127), code 0x00 a bfloat16 subnormal). Special cases are: code 0xFF is NaN (0x7FC0)."},
	{from: element.F8E8M0, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromF8E8M0(src[i]))",
		doc: "converts f8e8m0 codes to float64, exactly: 2^(c-127). Special cases are: code 0xFF is NaN (quiet, from 0x7FC00000)."},
	{from: element.F8E4M3, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromF8E4M3(src[i]))",
		doc: "converts f8e4m3 codes to float64, exactly. Special cases are: codes 0x7F and 0xFF are NaN (quiet, sign kept)."},
	{from: element.F8E5M2, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromF8E5M2(src[i]))",
		doc: "converts f8e5m2 codes to float64, exactly. Special cases are: 0x7C and 0xFC are ±Inf; the NaN codes become quiet NaNs with their sign and payload kept."},
	{from: element.F8E5M2, to: element.BF16, paths: onAVX512 | onNEON, loop: "dst[i] = BF16FromF32(F32FromF8E5M2(src[i]))",
		doc: "converts f8e5m2 codes to bfloat16 bits, exactly. Special cases are: 0x7C and 0xFC are ±Inf; the NaN codes become quiet NaNs with their sign and payload kept."},
	{from: element.F8E4M3FNUZ, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromF8E4M3FNUZ(src[i]))",
		doc: "converts f8e4m3fnuz codes to float64, exactly. Special cases are: code 0x80 is NaN (quiet, from 0x7FC00000)."},
	{from: element.F8E5M2FNUZ, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromF8E5M2FNUZ(src[i]))",
		doc: "converts f8e5m2fnuz codes to float64, exactly. Special cases are: code 0x80 is NaN (quiet, from 0x7FC00000)."},
	{from: element.U4, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(nibble(src, i))",
		doc: "decodes packed u4 codes (two a byte, low nibble first) to float64, exactly (values 0 to 15)."},
	{from: element.I4, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(int8(nibble(src, i)<<4) >> 4)",
		doc: "decodes packed i4 codes (two a byte, low nibble first) to float64, exactly (values -8 to 7)."},
	{from: element.NF4, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromNF4(nibble(src, i)))",
		doc: "decodes packed nf4 codes (two a byte, low nibble first) to float64: the float32 values of F32FromNF4, exactly."},
	{from: element.F4E2M1, to: element.F64, paths: onAVX512 | onNEON, loop: "dst[i] = float64(F32FromF4E2M1(nibble(src, i)))",
		doc: "decodes packed f4e2m1 codes (two a byte, low nibble first) to float64, exactly (±0, ±0.5 to ±6)."},
	{from: element.U4, to: element.BF16, paths: onAVX512 | onNEON, loop: "dst[i] = BF16FromF32(float32(nibble(src, i)))",
		doc: "decodes packed u4 codes (two a byte, low nibble first) to bfloat16 bits, exactly (values 0 to 15)."},
	{from: element.I4, to: element.BF16, paths: onAVX512 | onNEON, loop: "dst[i] = BF16FromF32(float32(int8(nibble(src, i)<<4) >> 4))",
		doc: "decodes packed i4 codes (two a byte, low nibble first) to bfloat16 bits, exactly (values -8 to 7)."},
	{from: element.NF4, to: element.BF16, paths: onAVX512 | onNEON, loop: "dst[i] = BF16FromF32(F32FromNF4(nibble(src, i)))",
		doc: "decodes packed nf4 codes (two a byte, low nibble first) to bfloat16 bits: F32FromNF4's values rounded to nearest even."},
	{from: element.F4E2M1, to: element.BF16, paths: onAVX512 | onNEON, loop: "dst[i] = BF16FromF32(F32FromF4E2M1(nibble(src, i)))",
		doc: "decodes packed f4e2m1 codes (two a byte, low nibble first) to bfloat16 bits, exactly (±0, ±0.5 to ±6)."},

	{from: element.Boolean, to: element.U8, paths: onAll, loop: "dst[i] = uint8(b2u(src[i] != 0))",
		doc: "converts booleans to uint8, as 0 for false and 1 for true; a source byte other than 0 " +
			"counts as true."},
	{from: element.U8, to: element.Boolean, paths: onAll, loop: "dst[i] = uint8(b2u(src[i] != 0))",
		doc: "converts uint8 to booleans, as false for 0 and true for any other value (written as the " +
			"byte 1)."},
	{from: element.Boolean, to: element.F32, paths: onAll, loop: "dst[i] = float32(b2u(src[i] != 0))",
		doc: "converts booleans to float32, as 0 for false and 1 for true; a source byte other than 0 " +
			"counts as true."},
	{from: element.F32, to: element.Boolean, paths: onAll, loop: "dst[i] = uint8(b2u(src[i] != 0)) // NaN → 1",
		doc: "converts float32 to booleans, as false for ±0 and true for anything else. Special cases " +
			"are: NaN and ±Inf → true."},
}

// ruleRow is a row of ruleRegistry: a pair that a rule set converts differently from OpenVINO
// (Rules.OwnLoop), its SIMD kernels and its loop. The loop is the rule set's pure-Go loop of the
// pair (generated into direct_generic.go as for registry's rows) and the scalar loop that every
// kernel of the row computes; the tests compare both with the rule set's reference
// (rules_reference_test.go).
type ruleRow struct {
	// rules are the rules of the row, with only the fields that matter for the pair's target
	// (see Rules.forPair): the row serves every Rules value that reduces to them.
	rules    Rules
	from, to element.Type
	paths    pathSet
	loop     string
	// openvino marks a row whose loop gives OpenVINO's codes of the pair for every input
	// (TestOpenVINORows checks it). The pair then has one set of kernels under both rules: on
	// each path the registry's kernel for the pair where it has one (a row need not name those
	// paths), else the first such row's; and the first such row's loop is OpenVINO's pure-Go
	// loop of the pair (shareKernels, newGenericKernel).
	openvino bool
	// doc documents OpenVINO's typed helper of the pair (as pairRow.doc), on the first openvino
	// row of a pair that has no registry row, and on no other row.
	doc string
	// nt is the block, in elements, of the row's AVX-512 kernel with non-temporal stores, 0 when
	// it has none (as pairRow.nt): conversions past the cache take it (streams).
	nt int
}

// ruleRegistry lists the rule sets' pairs with SIMD kernels, their own or (openvino) OpenVINO's.
// Pairs of rule sets without a row run the rule set's generic loop (blockLoop) on every path;
// docs/kernels.md says which and why.
var ruleRegistry = []ruleRow{
	{rules: Rules{Set: ONNX}, from: element.F32, to: element.F8E4M3, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE4M3Sat)", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.F32, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE5M2Sat)", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.F32, to: element.F8E4M3FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE4M3FNUZSat)", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.F32, to: element.F8E5M2FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE5M2FNUZSat)", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.F16, to: element.F8E4M3, paths: onAll, loop: "t := f16EncTable(encE4M3Sat); dst[i] = t[src[i]]"},
	{rules: Rules{Set: ONNX}, from: element.F16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF16E5M2(src[i], encE5M2Sat)"},
	{rules: Rules{Set: ONNX}, from: element.F16, to: element.F8E4M3FNUZ, paths: onAll, loop: "t := f16EncTable(encE4M3FNUZSat); dst[i] = t[src[i]]"},
	{rules: Rules{Set: ONNX}, from: element.F16, to: element.F8E5M2FNUZ, paths: onAll, loop: "t := f16EncTable(encE5M2FNUZSat); dst[i] = t[src[i]]"},
	{rules: Rules{Set: ONNX}, from: element.BF16, to: element.F8E4M3, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE4M3Sat)"},
	{rules: Rules{Set: ONNX}, from: element.BF16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE5M2Sat)"},
	{rules: Rules{Set: ONNX}, from: element.BF16, to: element.F8E4M3FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE4M3FNUZSat)"},
	{rules: Rules{Set: ONNX}, from: element.BF16, to: element.F8E5M2FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE5M2FNUZSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F32, to: element.F8E4M3, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE4M3NoSat)", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F32, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE5M2NoSat)", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F32, to: element.F8E4M3FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE4M3FNUZNoSat)", openvino: true,
		doc: "converts float32 to f8e4m3fnuz codes, rounding to nearest even once (ml_dtypes' rule, which OpenVINO's conversion follows here). Special cases are: ±0 and the negative values that round to zero → 0x00 (there is no negative zero); |x| ≥ 248, ±Inf and NaN → 0x80 (NaN).", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F32, to: element.F8E5M2FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE5M2FNUZNoSat)", openvino: true,
		doc: "converts float32 to f8e5m2fnuz codes, rounding to nearest even once (ml_dtypes' rule, which OpenVINO's conversion follows here). Special cases are: ±0 and the negative values that round to zero → 0x00 (there is no negative zero); |x| ≥ 61440, ±Inf and NaN → 0x80 (NaN).", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F16, to: element.F8E4M3, loop: "t := f16EncTable(encE4M3NoSat); dst[i] = t[src[i]]", openvino: true},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF16E5M2(src[i], encE5M2NoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F16, to: element.F8E4M3FNUZ, paths: onAll, loop: "t := f16EncTable(encE4M3FNUZNoSat); dst[i] = t[src[i]]", openvino: true,
		doc: "converts binary16 bits to f8e4m3fnuz codes, rounding to nearest even once (ml_dtypes' rule, which OpenVINO's conversion follows here). Special cases are: ±0 and the negative values that round to zero → 0x00 (there is no negative zero); |x| ≥ 248, ±Inf and NaN → 0x80 (NaN)."},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F16, to: element.F8E5M2FNUZ, paths: onAll, loop: "t := f16EncTable(encE5M2FNUZNoSat); dst[i] = t[src[i]]", openvino: true,
		doc: "converts binary16 bits to f8e5m2fnuz codes, rounding to nearest even once (ml_dtypes' rule, which OpenVINO's conversion follows here). Special cases are: ±0 and the negative values that round to zero → 0x00 (there is no negative zero); |x| ≥ 61440, ±Inf and NaN → 0x80 (NaN)."},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.BF16, to: element.F8E4M3, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE4M3NoSat)", openvino: true,
		doc: "converts bfloat16 bits to f8e4m3 codes as F8E4M3FromF32 does, which for a bfloat16 is one rounding to nearest even (its binary16 step is exact wherever f8e4m3 does not round to zero). Special cases are: ±0 → 0x00, 0x80; |x| > 464, ±Inf and NaN → NaN with the sign of x (0x7F, 0xFF)."},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.BF16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE5M2NoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.BF16, to: element.F8E4M3FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE4M3FNUZNoSat)", openvino: true,
		doc: "converts bfloat16 bits to f8e4m3fnuz codes, rounding to nearest even once (ml_dtypes' rule, which OpenVINO's conversion follows here). Special cases are: ±0 and the negative values that round to zero → 0x00 (there is no negative zero); |x| ≥ 248, ±Inf and NaN → 0x80 (NaN)."},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.BF16, to: element.F8E5M2FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE5M2FNUZNoSat)", openvino: true,
		doc: "converts bfloat16 bits to f8e5m2fnuz codes, rounding to nearest even once (ml_dtypes' rule, which OpenVINO's conversion follows here). Special cases are: ±0 and the negative values that round to zero → 0x00 (there is no negative zero); |x| ≥ 61440, ±Inf and NaN → 0x80 (NaN)."},
	{rules: Rules{Set: MLDtypes}, from: element.F32, to: element.F8E4M3, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE4M3NoSat)", nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.F32, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE5M2ML)", nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.F32, to: element.F8E4M3FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE4M3FNUZNoSat)", openvino: true, nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.F32, to: element.F8E5M2FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(math.Float32bits(src[i]), encE5M2FNUZNoSat)", openvino: true, nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.F16, to: element.F8E4M3, loop: "t := f16EncTable(encE4M3NoSat); dst[i] = t[src[i]]", openvino: true},
	{rules: Rules{Set: MLDtypes}, from: element.F16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF16E5M2(src[i], encE5M2ML)"},
	{rules: Rules{Set: MLDtypes}, from: element.F16, to: element.F8E4M3FNUZ, paths: onAll, loop: "t := f16EncTable(encE4M3FNUZNoSat); dst[i] = t[src[i]]", openvino: true},
	{rules: Rules{Set: MLDtypes}, from: element.F16, to: element.F8E5M2FNUZ, paths: onAll, loop: "t := f16EncTable(encE5M2FNUZNoSat); dst[i] = t[src[i]]", openvino: true},
	{rules: Rules{Set: MLDtypes}, from: element.BF16, to: element.F8E4M3, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE4M3NoSat)", openvino: true},
	{rules: Rules{Set: MLDtypes}, from: element.BF16, to: element.F8E5M2, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE5M2ML)"},
	{rules: Rules{Set: MLDtypes}, from: element.BF16, to: element.F8E4M3FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE4M3FNUZNoSat)", openvino: true},
	{rules: Rules{Set: MLDtypes}, from: element.BF16, to: element.F8E5M2FNUZ, paths: onAll, loop: "dst[i] = f8FromF32(uint32(src[i])<<16, encE5M2FNUZNoSat)", openvino: true},
	{rules: Rules{Set: ONNX}, from: element.F64, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(f32RoundOdd(src[i]))", nt: 32},
	{rules: Rules{Set: ONNX}, from: element.F64, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOdd(src[i]))", nt: 32},
	{rules: Rules{Set: ONNX}, from: element.I32, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(src[i])) // |x| ≥ 2^24 overflows either way", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.I32, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOdd(float64(src[i])))", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.U32, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOdd(float64(src[i])))", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.I64, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOddI64(src[i]))", nt: 32},
	{rules: Rules{Set: ONNX}, from: element.U64, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOddU64(src[i]))", nt: 32},
	{rules: Rules{Set: MLDtypes}, from: element.F64, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(f32RoundOdd(src[i]))", nt: 32},
	{rules: Rules{Set: MLDtypes}, from: element.F64, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOdd(src[i]))", nt: 32},
	{rules: Rules{Set: MLDtypes}, from: element.I32, to: element.F16, paths: onAll, loop: "dst[i] = F16FromF32(float32(src[i])) // |x| ≥ 2^24 overflows either way", nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.I32, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOdd(float64(src[i])))", nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.U32, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOdd(float64(src[i])))", nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.I64, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOddI64(src[i]))", nt: 32},
	{rules: Rules{Set: MLDtypes}, from: element.U64, to: element.BF16, paths: onAll, loop: "dst[i] = BF16FromF32(f32RoundOddU64(src[i]))", nt: 32},
	{rules: Rules{Set: ONNX}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0Up)", nt: 64},
	{rules: Rules{Set: ONNX}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0Up)"},
	{rules: Rules{Set: ONNX}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0Up)"},
	{rules: Rules{Set: ONNX, E8M0Round: RoundDown}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0Down)", nt: 64},
	{rules: Rules{Set: ONNX, E8M0Round: RoundDown}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0Down)"},
	{rules: Rules{Set: ONNX, E8M0Round: RoundDown}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0Down)"},
	{rules: Rules{Set: ONNX, E8M0Round: RoundNearest}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0Nearest)", nt: 64},
	{rules: Rules{Set: ONNX, E8M0Round: RoundNearest}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0Nearest)"},
	{rules: Rules{Set: ONNX, E8M0Round: RoundNearest}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0Nearest)"},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0UpNoSat)", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0UpNoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0UpNoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundDown}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0DownNoSat)", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundDown}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0DownNoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundDown}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0DownNoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundNearest}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0NearestNoSat)", nt: 64},
	{rules: Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundNearest}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0NearestNoSat)"},
	{rules: Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundNearest}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0NearestNoSat)"},
	{rules: Rules{Set: MLDtypes}, from: element.F32, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(src[i]), encE8M0ML)", nt: 64},
	{rules: Rules{Set: MLDtypes}, from: element.F16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(math.Float32bits(F32FromF16(src[i])), encE8M0ML)"},
	{rules: Rules{Set: MLDtypes}, from: element.BF16, to: element.F8E8M0, paths: onAll, loop: "dst[i] = e8m0FromF32(uint32(src[i])<<16, encE8M0ML)"},
}

// ruleRegistryRow returns the row of ruleRegistry of the pair under r (reduced by forPair), or nil.
func ruleRegistryRow(r Rules, from, to element.Type) *ruleRow {
	r = r.forPair(to)
	for i := range ruleRegistry {
		if w := &ruleRegistry[i]; w.rules == r && w.from == from && w.to == to {
			return w
		}
	}
	return nil
}

// ruleKernelSpec binds an architecture's kernel to its row of ruleRegistry: the ordinary kernel
// of path on the pair, or with nt its non-temporal variant (AVX-512 only, n a multiple of the
// row's nt block, dst 64-byte aligned).
type ruleKernelSpec struct {
	path     Path
	rules    Rules
	from, to element.Type
	f        loopFunc
	nt       bool
}

// ruleSIMD holds the SIMD kernels of the rule sets on the paths the CPU runs, by path, rule
// variant (ruleVariants) and pair.
var ruleSIMD = func() (t [numPaths][][numTypes][numTypes]loopFunc) {
	for p := range t {
		t[p] = make([][numTypes][numTypes]loopFunc, len(ruleVariants))
	}
	return t
}()

// ruleNT holds the rule sets' non-temporal AVX-512 kernels when the CPU runs AVX-512, by rule
// variant and pair, each combined with the ordinary kernel by ntKernel (as ntTable for OpenVINO's).
var ruleNT = make([][numTypes][numTypes]loopFunc, len(ruleVariants))

// bindRuleKernels fills ruleSIMD and ruleNT with the kernels of the paths for which runs is true,
// for every variant that reduces to their rows' rules. It panics when the kernels and
// ruleRegistry disagree, as bindKernels does: a kernel without its row, a row that names one of
// the architecture's paths (own) without a kernel on it, a non-temporal kernel without a block in
// its row or a row with a block (and AVX-512 among own) without one, or a row whose rules are not
// reduced.
func bindRuleKernels(specs []ruleKernelSpec, own pathSet, runs func(Path) bool) {
	type slot struct {
		path     Path
		rules    Rules
		from, to element.Type
		nt       bool
	}
	have := map[slot]bool{}
	for _, s := range specs {
		r := ruleRegistryRow(s.rules, s.from, s.to)
		if r == nil || r.rules != s.rules || !r.paths.has(s.path) || !own.has(s.path) {
			panic(fmt.Sprintf("kernels: %s kernel for %s→%s under %+v has no ruleRegistry row naming its path", s.path, s.from, s.to, s.rules))
		}
		if s.nt && (r.nt == 0 || s.path != AVX512) {
			panic(fmt.Sprintf("kernels: non-temporal %s kernel for %s→%s under %+v without a block in its row", s.path, s.from, s.to, s.rules))
		}
		have[slot{s.path, s.rules, s.from, s.to, s.nt}] = true
		if !runs(s.path) || s.nt {
			continue
		}
		for v, rv := range ruleVariants {
			if rv.forPair(s.to) == s.rules {
				ruleSIMD[s.path][v][s.from][s.to] = s.f
			}
		}
	}
	for _, r := range ruleRegistry {
		if r.rules != r.rules.forPair(r.to) {
			panic(fmt.Sprintf("kernels: ruleRegistry row %s→%s has rules %+v, which the pair reduces to %+v", r.from, r.to, r.rules, r.rules.forPair(r.to)))
		}
		for p := range numPaths {
			if own.has(p) && r.paths.has(p) && !have[slot{p, r.rules, r.from, r.to, false}] {
				panic(fmt.Sprintf("kernels: ruleRegistry row %s→%s under %+v names %s, which has no kernel for it", r.from, r.to, r.rules, p))
			}
		}
		if own.has(AVX512) && r.nt != 0 && !have[slot{AVX512, r.rules, r.from, r.to, true}] {
			panic(fmt.Sprintf("kernels: ruleRegistry row %s→%s under %+v gives a non-temporal block, but no such kernel exists", r.from, r.to, r.rules))
		}
	}
	for _, s := range specs {
		if !s.nt || !runs(s.path) {
			continue
		}
		r := ruleRegistryRow(s.rules, s.from, s.to)
		for v, rv := range ruleVariants {
			if rv.forPair(s.to) == s.rules {
				ruleNT[v][s.from][s.to] = ntKernel(ruleSIMD[s.path][v][s.from][s.to], s.f, s.from.Bits()/8, s.to.Bits()/8, r.nt)
			}
		}
	}
}

// shareKernels gives the pair of each openvino row of ruleRegistry one set of kernels under both
// rules, after bindKernels and bindRuleKernels: on a path where the registry has the pair's
// kernel, every rule variant of the row runs it; on another, OpenVINO runs the first such row's
// kernel, and on AVX-512 its non-temporal kernel too.
func shareKernels() {
	for _, r := range ruleRegistry {
		if !r.openvino {
			continue
		}
		reg := registryRow(r.from, r.to)
		for p := range numPaths {
			k := simdTable[p][r.from][r.to]
			switch {
			case reg != nil && reg.paths.has(p):
				if k == nil {
					continue // the CPU does not run p
				}
				for v, rv := range ruleVariants {
					if rv.forPair(r.to) == r.rules {
						ruleSIMD[p][v][r.from][r.to] = k
					}
				}
			case k == nil:
				simdTable[p][r.from][r.to] = ruleSIMD[p][r.rules.variant()][r.from][r.to]
				if p == AVX512 {
					ntTable[r.from][r.to] = ruleNT[r.rules.variant()][r.from][r.to]
				}
			}
		}
	}
}

// openvinoPaths returns the paths with a kernel for the pair under OpenVINO's rules: its registry
// row's and those of the openvino rows of ruleRegistry for it.
func openvinoPaths(from, to element.Type) pathSet {
	var s pathSet
	if r := registryRow(from, to); r != nil {
		s = r.paths
	}
	for _, r := range ruleRegistry {
		if r.openvino && r.from == from && r.to == to {
			s |= r.paths
		}
	}
	return s
}

// openvinoLoop returns the loop of the first openvino row of ruleRegistry for the pair, OpenVINO's
// pure-Go loop of it, or nil.
func openvinoLoop(from, to element.Type) loopFunc {
	for i, r := range ruleRegistry {
		if r.openvino && r.from == from && r.to == to {
			return ruleLoops[i].f
		}
	}
	return nil
}

// kernelSpec binds an architecture's kernel to its registry row: the ordinary kernel of path
// on the pair, or with nt its non-temporal variant (AVX-512 only, n a multiple of the row's nt
// block, dst 64-byte aligned).
type kernelSpec struct {
	path     Path
	from, to element.Type
	f        loopFunc
	nt       bool
}

// registryRow returns the registry's row of the pair, or nil.
func registryRow(from, to element.Type) *pairRow {
	for i := range registry {
		if r := &registry[i]; r.from == from && r.to == to {
			return r
		}
	}
	return nil
}

// simdTable holds the SIMD kernels of the paths the CPU runs, by path and pair; ntTable the
// non-temporal ones, already combined with the ordinary kernel by ntKernel.
var (
	simdTable [numPaths][numTypes][numTypes]loopFunc
	ntTable   [numTypes][numTypes]loopFunc
)

// simdKernel returns the SIMD kernel for the pair on path p, or nil.
func simdKernel(p Path, from, to element.Type) loopFunc {
	if p >= numPaths || from >= numTypes || to >= numTypes {
		return nil
	}
	return simdTable[p][from][to]
}

// bindKernels fills simdTable and ntTable with the kernels of the paths for which runs is true;
// of two ordinary kernels for one path and pair, the later one in specs is kept (a variant for a
// CPU feature follows the kernel it replaces).
// It panics when the kernels and the registry disagree: a kernel whose pair has no row or whose
// row does not name its path, a row that names one of the architecture's paths (own) without a
// kernel on it, or a non-temporal kernel that its row does not give a block. Every test binary
// runs it, so a disagreement fails every test on the architecture whatever the CPU runs.
func bindKernels(specs []kernelSpec, own pathSet, runs func(Path) bool) {
	var have [numPaths][numTypes][numTypes]bool
	var haveNT [numTypes][numTypes]bool
	for _, s := range specs {
		r := registryRow(s.from, s.to)
		switch {
		case r == nil:
			panic(fmt.Sprintf("kernels: %s kernel for %s→%s has no registry row", s.path, s.from, s.to))
		case !r.paths.has(s.path) || !own.has(s.path):
			panic(fmt.Sprintf("kernels: registry row %s→%s does not name %s", s.from, s.to, s.path))
		case s.nt && (r.nt == 0 || s.path != AVX512):
			panic(fmt.Sprintf("kernels: non-temporal %s kernel for %s→%s without a block in its row", s.path, s.from, s.to))
		case s.nt:
			haveNT[s.from][s.to] = true
		default:
			have[s.path][s.from][s.to] = true
			if runs(s.path) {
				simdTable[s.path][s.from][s.to] = s.f
			}
		}
	}
	for _, r := range registry {
		for p := range numPaths {
			if own.has(p) && r.paths.has(p) && !have[p][r.from][r.to] {
				panic(fmt.Sprintf("kernels: registry row %s→%s names %s, which has no kernel for it", r.from, r.to, p))
			}
		}
		if own.has(AVX512) && r.nt != 0 && !haveNT[r.from][r.to] {
			panic(fmt.Sprintf("kernels: registry row %s→%s gives a non-temporal block, but no such kernel exists", r.from, r.to))
		}
	}
	for _, s := range specs {
		if s.nt && runs(s.path) {
			r := registryRow(s.from, s.to)
			ntTable[s.from][s.to] = ntKernel(simdTable[s.path][s.from][s.to], s.f, s.from.Bits()/8, s.to.Bits()/8, r.nt)
		}
	}
}

// ntKernel combines a non-temporal kernel nt (n a multiple of block, dst 64-byte aligned) with
// the ordinary kernel f for the elements before the first aligned destination byte and after
// the last whole block. A destination that cannot be aligned (an odd address for 2-byte elements)
// runs f alone.
func ntKernel(f, nt loopFunc, ssize, dsize, block int) loopFunc {
	return func(dst, src []byte, n int) {
		head := 0
		if a := int(uintptr(unsafe.Pointer(unsafe.SliceData(dst))) & 63); a != 0 {
			if (64-a)%dsize != 0 {
				f(dst, src, n)
				return
			}
			head = min((64-a)/dsize, n)
			f(dst[:head*dsize], src[:head*ssize], head)
		}
		mid := (n - head) &^ (block - 1)
		if mid > 0 {
			nt(dst[head*dsize:(head+mid)*dsize], src[head*ssize:(head+mid)*ssize], mid)
		}
		if rest := n - head - mid; rest > 0 {
			f(dst[(head+mid)*dsize:], src[(head+mid)*ssize:], rest)
		}
	}
}
