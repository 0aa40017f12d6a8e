package kernels

import (
	"math"

	"github.com/convertpromote/convertpromote/element"
)

// Integer rules (docs/SEMANTICS.md §3.2, §3.3):
//   - integer → integer of 8 bits or more: two's-complement wrap (sign- or zero-extend by the
//     source's signedness, keep the destination's low bits);
//   - float → integer of 8 bits or more: truncate toward zero, saturate to the destination's
//     range, NaN → 0;
//   - any → sub-byte integer (u1 u2 u3 u4 u6 i4): truncate, keep the low N bits (a float NaN,
//     ±Inf or a magnitude of 2^63 or more gives 0: its low bits are zero);
//   - any → boolean: non-zero (NaN and ±Inf included) → 1, ±0 → 0; a complex value is non-zero
//     when either part is (other integer destinations take the real part);
//   - integer → float: round to nearest even; integer → f16 (and the other narrow floats) goes
//     through f32, and i32 → f16 saturates to ±65504 instead of overflowing to ±Inf.

// i32F16Limit is the largest finite f16, the bound i32 → f16 saturates to.
const i32F16Limit = 65504

// satF64ToInt truncates x toward zero and saturates it to [lo, -lo-1], the range of a signed
// integer of 8 to 64 bits (lo = -2^(b-1)); NaN gives 0.
func satF64ToInt(x float64, lo int64) int64 {
	switch {
	case x != x:
		return 0
	case x <= float64(lo):
		return lo
	case x >= -float64(lo):
		return -lo - 1
	}
	return int64(x)
}

// satF64ToUint truncates x toward zero and saturates it to [0, max], the range of an unsigned
// integer of 8 to 64 bits (max = 2^b - 1); NaN gives 0.
func satF64ToUint(x float64, max uint64) uint64 {
	switch {
	case !(x >= 0): // negative or NaN (x in (-1, 0) truncates to 0 anyway)
		return 0
	case x >= float64(max)+1: // 2^b: exact for b ≤ 32, and float64(2^64-1) is already 2^64
		return max
	}
	return uint64(x)
}

// truncLowBits truncates x toward zero and returns the integer's two's-complement bits; NaN,
// ±Inf and magnitudes of 2^63 or more (integers whose low 11 bits are zero) give 0. Callers keep
// the low N ≤ 8 bits.
func truncLowBits(x float64) uint64 {
	if !(math.Abs(x) < 0x1p63) {
		return 0
	}
	return uint64(int64(x))
}

// floatToBits converts floats to the two's-complement bits of integer type to (boolean, any
// integer width), with the float → integer rules above.
func floatToBits(dst []uint64, src []float64, to element.Type) {
	dst = dst[:len(src)]
	switch to {
	case element.Boolean:
		for i, x := range src {
			dst[i] = b2u(x != 0)
		}
	case element.U1, element.U2, element.U3, element.U4, element.U6, element.I4:
		for i, x := range src {
			dst[i] = truncLowBits(x)
		}
	case element.I8, element.I16, element.I32, element.I64:
		lo, _, _ := to.IntRange()
		for i, x := range src {
			dst[i] = uint64(satF64ToInt(x, lo))
		}
	case element.U8, element.U16, element.U32, element.U64:
		_, hi, _ := to.IntRange()
		for i, x := range src {
			dst[i] = satF64ToUint(x, hi)
		}
	default:
		panic("kernels: floatToBits to non-integer type " + to.String())
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// clampF32ToInt applies the float → integer rule to float32 in float32 arithmetic (the bounds are
// powers of two, exact in float32) for destinations of 8 to 32 bits.
func clampF32ToInt(x float32, lo int32) int32 {
	switch {
	case x != x:
		return 0
	case x <= float32(lo):
		return lo
	case x >= -float32(lo):
		return -lo - 1
	}
	return int32(x)
}

// The direct loops below convert len(dst) elements; src must be at least as long.

func i8ToF32Generic(dst []float32, src []int8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func u8ToF32Generic(dst []float32, src []uint8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func i16ToF32Generic(dst []float32, src []int16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func u16ToF32Generic(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func i32ToF32Generic(dst []float32, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func i8ToF16Generic(dst []uint16, src []int8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = F16FromF32(float32(v))
	}
}

func u8ToF16Generic(dst []uint16, src []uint8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = F16FromF32(float32(v))
	}
}

func i16ToF16Generic(dst []uint16, src []int16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = F16FromF32(float32(v))
	}
}

// u16ToF16Generic: values of 65520 and more overflow to +Inf (only i32 saturates).
func u16ToF16Generic(dst []uint16, src []uint16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = F16FromF32(float32(v))
	}
}

// i32ToF16Generic saturates to ±65504 (OpenVINO's pinned exception), then rounds through f32.
func i32ToF16Generic(dst []uint16, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		v = max(min(v, i32F16Limit), -i32F16Limit)
		dst[i] = F16FromF32(float32(v))
	}
}

func i8ToI32Generic(dst []int32, src []int8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int32(v)
	}
}

func u8ToI32Generic(dst []int32, src []uint8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int32(v)
	}
}

func i16ToI32Generic(dst []int32, src []int16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int32(v)
	}
}

func i32ToI64Generic(dst []int64, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int64(v)
	}
}

// i64ToI32Generic wraps (keeps the low 32 bits).
func i64ToI32Generic(dst []int32, src []int64) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int32(v)
	}
}

// i32ToI16Generic wraps (keeps the low 16 bits).
func i32ToI16Generic(dst []int16, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int16(v)
	}
}

// i32ToI8Generic wraps (keeps the low 8 bits).
func i32ToI8Generic(dst []int8, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int8(v)
	}
}

// f32ToI32Generic truncates toward zero, saturates, and turns NaN into 0.
func f32ToI32Generic(dst []int32, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = clampF32ToInt(v, math.MinInt32)
	}
}

// f32ToI16Generic truncates toward zero, saturates, and turns NaN into 0.
func f32ToI16Generic(dst []int16, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int16(clampF32ToInt(v, math.MinInt16))
	}
}

// f32ToI8Generic truncates toward zero, saturates, and turns NaN into 0.
func f32ToI8Generic(dst []int8, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int8(clampF32ToInt(v, math.MinInt8))
	}
}

// f32ToU8Generic truncates toward zero, saturates to [0, 255], and turns NaN into 0.
func f32ToU8Generic(dst []uint8, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		switch {
		case !(v >= 0):
			dst[i] = 0
		case v >= 256:
			dst[i] = 255
		default:
			dst[i] = uint8(v)
		}
	}
}

// f64ToF32Generic is Go's float64 → float32 conversion (round to nearest even; NaN keeps its
// sign and top payload bits, quiet bit set).
func f64ToF32Generic(dst []float32, src []float64) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// f32ToF64Generic is Go's float32 → float64 conversion (exact; NaN quieted).
func f32ToF64Generic(dst []float64, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float64(v)
	}
}

// boolToU8Generic maps a zero byte to 0 and any other byte to 1.
func boolToU8Generic(dst []uint8, src []uint8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = uint8(b2u(v != 0))
	}
}

// u8ToBoolGeneric maps 0 to 0 and any other value to 1.
func u8ToBoolGeneric(dst []uint8, src []uint8) { boolToU8Generic(dst, src) }

// boolToF32Generic maps a zero byte to 0 and any other byte to 1.
func boolToF32Generic(dst []float32, src []uint8) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(b2u(v != 0))
	}
}

// f32ToBoolGeneric maps ±0 to 0 and anything else (NaN and ±Inf included) to 1.
func f32ToBoolGeneric(dst []uint8, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = uint8(b2u(v != 0))
	}
}
