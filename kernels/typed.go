package kernels

import (
	"fmt"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

// Typed helpers for the hot pairs. Naming: a scalar codec is DstFromSrc (F16FromF32), a slice
// helper is SrcToDst (F32ToF16). The helpers are generic over the underlying type, so a caller's
// []float16.Float16 (github.com/x448/float16) or other named types work without a copy. They run
// through Convert, so they use the same SIMD paths and goroutine split; the rules are those of
// Convert and of the scalar codecs. dst and src must have the same length and must not share
// memory (not even F16ToBF16(x, x)): either is an error and nothing is written.

// bytesOf views a slice's memory as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

func convertSlices[D, S any](dst []D, to element.Type, src []S, from element.Type) error {
	if len(dst) != len(src) {
		return fmt.Errorf("kernels: %s → %s: destination has %d elements, source %d", from, to, len(dst), len(src))
	}
	return Convert(bytesOf(dst), to, bytesOf(src), from, len(src))
}

// F32ToF16 converts float32 values to binary16 bits with F16FromF32's rule (round to nearest
// even, overflow to ±Inf, NaN quieted with sign and top payload kept).
func F32ToF16[D ~uint16, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.F32)
}

// F16ToF32 converts binary16 bits to float32, exactly (F32FromF16; NaN quieted).
func F16ToF32[D ~float32, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F16)
}

// F32ToBF16 converts float32 values to bfloat16 bits with BF16FromF32's rule (round to nearest
// even, subnormals kept, NaN quieted).
func F32ToBF16[D ~uint16, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.BF16, src, element.F32)
}

// BF16ToF32 converts bfloat16 bits to float32 by a 16-bit shift, exactly (NaN bits unchanged).
func BF16ToF32[D ~float32, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.BF16)
}

// F16ToBF16 converts binary16 bits to bfloat16 bits: exact to f32, then BF16FromF32.
func F16ToBF16[D, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.BF16, src, element.F16)
}

// BF16ToF16 converts bfloat16 bits to binary16 bits: exact to f32, then F16FromF32.
func BF16ToF16[D, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F16, src, element.BF16)
}

// F64ToF32 converts float64 to float32 as Go's float32(x) does (round to nearest even).
func F64ToF32[D ~float32, S ~float64](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F64)
}

// F32ToF64 converts float32 to float64, exactly.
func F32ToF64[D ~float64, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F64, src, element.F32)
}

// F8E4M3ToF32 decodes f8e4m3 codes to float32, exactly (F32FromF8E4M3).
func F8E4M3ToF32[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F8E4M3)
}

// F32ToF8E4M3 encodes float32 values as f8e4m3 codes (F8E4M3FromF32: via f16, NaN above 464).
func F32ToF8E4M3[D ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F8E4M3, src, element.F32)
}

// F8E5M2ToF32 decodes f8e5m2 codes to float32, exactly (F32FromF8E5M2).
func F8E5M2ToF32[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.F8E5M2)
}

// F32ToF8E5M2 encodes float32 values as f8e5m2 codes (F8E5M2FromF32: via f16, overflow to ±Inf).
func F32ToF8E5M2[D ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.F8E5M2, src, element.F32)
}

// I8ToF32 converts int8 to float32, exactly.
func I8ToF32[D ~float32, S ~int8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.I8)
}

// U8ToF32 converts uint8 to float32, exactly.
func U8ToF32[D ~float32, S ~uint8](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.U8)
}

// I16ToF32 converts int16 to float32, exactly.
func I16ToF32[D ~float32, S ~int16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.I16)
}

// U16ToF32 converts uint16 to float32, exactly.
func U16ToF32[D ~float32, S ~uint16](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.U16)
}

// I32ToF32 converts int32 to float32, rounding to nearest even.
func I32ToF32[D ~float32, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.F32, src, element.I32)
}

// F32ToI32 converts float32 to int32: truncate toward zero, saturate, NaN → 0.
func F32ToI32[D ~int32, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.F32)
}

// F32ToI8 converts float32 to int8: truncate toward zero, saturate, NaN → 0.
func F32ToI8[D ~int8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.I8, src, element.F32)
}

// F32ToU8 converts float32 to uint8: truncate toward zero, saturate to [0, 255], NaN → 0.
func F32ToU8[D ~uint8, S ~float32](dst []D, src []S) error {
	return convertSlices(dst, element.U8, src, element.F32)
}

// I32ToI64 converts int32 to int64 (sign-extend).
func I32ToI64[D ~int64, S ~int32](dst []D, src []S) error {
	return convertSlices(dst, element.I64, src, element.I32)
}

// I64ToI32 converts int64 to int32, wrapping (the low 32 bits).
func I64ToI32[D ~int32, S ~int64](dst []D, src []S) error {
	return convertSlices(dst, element.I32, src, element.I64)
}
