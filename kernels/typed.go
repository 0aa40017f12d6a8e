package kernels

import "github.com/convertpromote/convertpromote/element"

// Typed helpers: one for every pair that has a SIMD kernel. Naming: a slice helper reads like a
// scalar codec, destination first, with plural type names (F16sFromF32s(dst, src) converts as
// F16FromF32 does, element by element), and takes its arguments in that order. The helpers are
// generic over the underlying type, so a caller's []float16.Float16 (github.com/x448/float16) or
// another named type works without a copy. They run through Convert, so they use the same SIMD
// paths and goroutine split. dst and src must hold the same number of elements and must not
// share memory (not even F16sFromBF16s(x, x)); otherwise the error wraps ErrLengthMismatch or
// ErrOverlap and nothing is written. A helper with a packed 4-bit source (u4, i4, nf4, f4e2m1)
// takes its element count from dst: src holds two codes a byte, low nibble first, and must be
// (len(dst)+1)/2 bytes long. Pairs without a typed helper convert through Convert and AsBytes.

// F16sFromF32s converts float32 to binary16 bits, rounding to nearest even as F16FromF32 does.
// Special cases are: a magnitude of 65520 or more → ±Inf; NaN → quiet NaN with its sign and top
// payload bits kept; subnormal results are kept.
func F16sFromF32s[D ~uint16, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.F32)
}

// F32sFromF16s converts binary16 bits to float32, exactly, as F32FromF16 does. Special cases are:
// NaN → quiet NaN with its sign and payload kept.
func F32sFromF16s[D ~float32, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F16)
}

// BF16sFromF32s converts float32 to bfloat16 bits, rounding to nearest even as BF16FromF32 does.
// Special cases are: NaN → quiet NaN with its sign and top payload bits kept; subnormals are kept,
// not flushed.
func BF16sFromF32s[D ~uint16, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.BF16, src, element.F32)
}

// F32sFromBF16s converts bfloat16 bits to float32, exactly, by a 16-bit shift (F32FromBF16).
// Special cases are: NaN bits are kept unchanged.
func F32sFromBF16s[D ~float32, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.BF16)
}

// BF16sFromF16s converts binary16 bits to bfloat16 bits, exactly to float32, then rounding to
// nearest even as BF16FromF32 does (NaN quieted).
func BF16sFromF16s[D ~uint16, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.BF16, src, element.F16)
}

// F16sFromBF16s converts bfloat16 bits to binary16 bits, exactly to float32, then rounding to
// nearest even as F16FromF32 does. Special cases are: a magnitude of 65520 or more → ±Inf; NaN
// quieted.
func F16sFromBF16s[D ~uint16, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.BF16)
}

// F32sFromF64s converts float64 to float32, as Go's float32(x) does: rounding to nearest even.
// Special cases are: overflow → ±Inf; NaN → quiet NaN with its sign and top payload bits kept.
func F32sFromF64s[D ~float32, S ~float64](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F64)
}

// F64sFromF32s converts float32 to float64, exactly, as Go's float64(x) does. Special cases are:
// NaN → quiet NaN.
func F64sFromF32s[D ~float64, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F64, src, element.F32)
}

// F32sFromF8E4M3s converts f8e4m3 codes to float32, exactly, as F32FromF8E4M3 does. Special cases
// are: codes 0x7F and 0xFF are NaN (f8e4m3 has no infinities).
func F32sFromF8E4M3s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F8E4M3)
}

// F8E4M3sFromF32s converts float32 to f8e4m3 codes, as F8E4M3FromF32 does: through f16, then
// rounding to nearest even. Special cases are: a magnitude above 464 and ±Inf → NaN; NaN → NaN.
func F8E4M3sFromF32s[D ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F8E4M3, src, element.F32)
}

// F32sFromF8E5M2s converts f8e5m2 codes to float32, exactly, as F32FromF8E5M2 does. Special cases
// are: the ±Inf codes decode to ±Inf, the NaN codes to NaN.
func F32sFromF8E5M2s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F8E5M2)
}

// F8E5M2sFromF32s converts float32 to f8e5m2 codes, as F8E5M2FromF32 does: through f16, then
// rounding to nearest even. Special cases are: overflow → ±Inf; NaN → quiet NaN.
func F8E5M2sFromF32s[D ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F8E5M2, src, element.F32)
}

// F32sFromI8s converts int8 to float32, exactly.
func F32sFromI8s[D ~float32, S ~int8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.I8)
}

// F32sFromU8s converts uint8 to float32, exactly.
func F32sFromU8s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.U8)
}

// F32sFromI16s converts int16 to float32, exactly.
func F32sFromI16s[D ~float32, S ~int16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.I16)
}

// F32sFromU16s converts uint16 to float32, exactly.
func F32sFromU16s[D ~float32, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.U16)
}

// F32sFromI32s converts int32 to float32, rounding to nearest even.
func F32sFromI32s[D ~float32, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.I32)
}

// I32sFromF32s converts float32 to int32, truncating toward zero. Special cases are: values beyond
// the int32 range saturate to it; NaN → 0.
func I32sFromF32s[D ~int32, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.F32)
}

// I8sFromF32s converts float32 to int8, truncating toward zero. Special cases are: values beyond
// [-128, 127] saturate to it; NaN → 0.
func I8sFromF32s[D ~int8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.I8, src, element.F32)
}

// U8sFromF32s converts float32 to uint8, truncating toward zero. Special cases are: values beyond
// [0, 255] saturate to it; NaN → 0.
func U8sFromF32s[D ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.U8, src, element.F32)
}

// I64sFromI32s converts int32 to int64, by sign extension, exactly.
func I64sFromI32s[D ~int64, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.I64, src, element.I32)
}

// I32sFromI64s converts int64 to int32, by wrapping: the low 32 bits are kept.
func I32sFromI64s[D ~int32, S ~int64](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.I64)
}

// F16sFromF8E4M3s converts f8e4m3 codes to binary16 bits, exactly, as F16FromF8E4M3 does. Special
// cases are: codes 0x7F and 0xFF are NaN (f8e4m3 has no infinities).
func F16sFromF8E4M3s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.F8E4M3)
}

// BF16sFromF8E4M3s converts f8e4m3 codes to bfloat16 bits, exactly: BF16FromF32(F32FromF8E4M3(c)),
// which is the high half of the float32 bits (every f8e4m3 value is a bfloat16). Special cases
// are: codes 0x7F and 0xFF are the quiet NaNs 0x7FC0 and 0xFFC0 (f8e4m3 has no infinities).
func BF16sFromF8E4M3s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.BF16, src, element.F8E4M3)
}

// F16sFromF8E5M2s converts f8e5m2 codes to binary16 bits, exactly, as F16FromF8E5M2 does (the code
// is the top byte of the binary16 bits).
func F16sFromF8E5M2s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.F8E5M2)
}

// F8E4M3sFromF16s converts binary16 bits to f8e4m3 codes, as F8E4M3FromF16 does: rounding to
// nearest even. Special cases are: a magnitude above 464 and ±Inf → NaN; NaN → NaN.
func F8E4M3sFromF16s[D ~uint8, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F8E4M3, src, element.F16)
}

// F8E5M2sFromF16s converts binary16 bits to f8e5m2 codes, as F8E5M2FromF16 does: rounding to
// nearest even. Special cases are: overflow → ±Inf; NaN → quiet NaN.
func F8E5M2sFromF16s[D ~uint8, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F8E5M2, src, element.F16)
}

// F16sFromI8s converts int8 to binary16 bits, exactly.
func F16sFromI8s[D ~uint16, S ~int8](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.I8)
}

// F16sFromU8s converts uint8 to binary16 bits, exactly.
func F16sFromU8s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.U8)
}

// F16sFromI16s converts int16 to binary16 bits, rounding to nearest even.
func F16sFromI16s[D ~uint16, S ~int16](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.I16)
}

// F16sFromU16s converts uint16 to binary16 bits, rounding to nearest even. Special cases are:
// values of 65520 and more → +Inf.
func F16sFromU16s[D ~uint16, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.U16)
}

// F16sFromI32s converts int32 to binary16 bits, through float32, rounding to nearest even. Special
// cases are: values beyond ±65504 saturate to ±65504 (the largest finite f16), not ±Inf.
func F16sFromI32s[D ~uint16, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.I32)
}

// I32sFromI8s converts int8 to int32, by sign extension, exactly.
func I32sFromI8s[D ~int32, S ~int8](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.I8)
}

// I32sFromU8s converts uint8 to int32, by zero extension, exactly.
func I32sFromU8s[D ~int32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.U8)
}

// I32sFromI16s converts int16 to int32, by sign extension, exactly.
func I32sFromI16s[D ~int32, S ~int16](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.I16)
}

// I16sFromI32s converts int32 to int16, by wrapping: the low 16 bits are kept.
func I16sFromI32s[D ~int16, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.I16, src, element.I32)
}

// I8sFromI32s converts int32 to int8, by wrapping: the low 8 bits are kept.
func I8sFromI32s[D ~int8, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.I8, src, element.I32)
}

// I16sFromF32s converts float32 to int16, truncating toward zero. Special cases are: values beyond
// [-32768, 32767] saturate to it; NaN → 0.
func I16sFromF32s[D ~int16, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.I16, src, element.F32)
}

// U8sFromBools converts booleans to uint8, as 0 for false and 1 for true; a source byte other than
// 0 counts as true.
func U8sFromBools[D ~uint8, S ~bool | ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.U8, src, element.Boolean)
}

// BoolsFromU8s converts uint8 to booleans, as false for 0 and true for any other value (written as
// the byte 1).
func BoolsFromU8s[D ~bool | ~uint8, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.Boolean, src, element.U8)
}

// F32sFromBools converts booleans to float32, as 0 for false and 1 for true; a source byte other
// than 0 counts as true.
func F32sFromBools[D ~float32, S ~bool | ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.Boolean)
}

// BoolsFromF32s converts float32 to booleans, as false for ±0 and true for anything else. Special
// cases are: NaN and ±Inf → true.
func BoolsFromF32s[D ~bool | ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.Boolean, src, element.F32)
}

// F32sFromU4s decodes packed u4 codes (two a byte, low nibble first) to float32, exactly (values 0
// to 15).
func F32sFromU4s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F32, src, element.U4)
}

// F16sFromU4s decodes packed u4 codes (two a byte, low nibble first) to binary16 bits, exactly
// (values 0 to 15).
func F16sFromU4s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F16, src, element.U4)
}

// F32sFromI4s decodes packed i4 codes (two a byte, low nibble first) to float32, exactly (values
// -8 to 7).
func F32sFromI4s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F32, src, element.I4)
}

// F16sFromI4s decodes packed i4 codes (two a byte, low nibble first) to binary16 bits, exactly
// (values -8 to 7).
func F16sFromI4s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F16, src, element.I4)
}

// F32sFromNF4s decodes packed nf4 codes (two a byte, low nibble first) to float32, exactly, to the
// 16 values of element.NF4Codes (code 0 is -1.0, code 7 is 0).
func F32sFromNF4s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F32, src, element.NF4)
}

// F16sFromNF4s decodes packed nf4 codes (two a byte, low nibble first) to binary16 bits, to the 16
// values of element.NF4Codes rounded to nearest even f16 (code 0 is -1.0, code 7 is 0).
func F16sFromNF4s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F16, src, element.NF4)
}

// F32sFromF4E2M1s decodes packed f4e2m1 codes (two a byte, low nibble first) to float32, exactly
// (±0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6), as F32FromF4E2M1 does.
func F32sFromF4E2M1s[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F32, src, element.F4E2M1)
}

// F16sFromF4E2M1s decodes packed f4e2m1 codes (two a byte, low nibble first) to binary16 bits,
// exactly (±0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6).
func F16sFromF4E2M1s[D ~uint16, S ~uint8](dst []D, src []S) error {
	return convertPacked(dst, element.F16, src, element.F4E2M1)
}
