package kernels

import "math"

// The FNUZ float8 types (ONNX FLOAT8E4M3FNUZ and FLOAT8E5M2FNUZ, ml_dtypes float8_e4m3fnuz and
// float8_e5m2fnuz): the exponent bias is one more than IEEE's (8 and 16), every exponent field
// encodes finite values, there is no infinity and no negative zero, and the pattern of -0, 0x80,
// is the only NaN.

// F32FromF8E4M3FNUZ decodes f8e4m3fnuz bits to float32, exactly.
//
// Special cases are:
//
//	F32FromF8E4M3FNUZ(0x00) = +0
//	F32FromF8E4M3FNUZ(0x80) = NaN (0x7FC00000)
//	F32FromF8E4M3FNUZ(0x7F, 0xFF) = ±240
func F32FromF8E4M3FNUZ(c uint8) float32 { return f8e4m3fnuzToF32Table[c] }

// F32FromF8E5M2FNUZ decodes f8e5m2fnuz bits to float32, exactly.
//
// Special cases are:
//
//	F32FromF8E5M2FNUZ(0x00) = +0
//	F32FromF8E5M2FNUZ(0x80) = NaN (0x7FC00000)
//	F32FromF8E5M2FNUZ(0x7F, 0xFF) = ±57344
func F32FromF8E5M2FNUZ(c uint8) float32 { return f8e5m2fnuzToF32Table[c] }

// F8E4M3FNUZFromF32 converts f to f8e4m3fnuz with ml_dtypes' rules (also OpenVINO's here, which
// lacks the type): one rounding to nearest, ties to even.
//
// Special cases are:
//
//	F8E4M3FNUZFromF32(±0) = 0x00 (no negative zero; so is a negative value that rounds to 0)
//	F8E4M3FNUZFromF32(x) = 0x80 (NaN) for |x| ≥ 248, ±Inf and NaN
func F8E4M3FNUZFromF32(f float32) uint8 {
	return uint8(encodeNarrow(float64(f), &fmtE4M3FNUZ, false))
}

// F8E5M2FNUZFromF32 converts f to f8e5m2fnuz with ml_dtypes' rules (also OpenVINO's here, which
// lacks the type): one rounding to nearest, ties to even.
//
// Special cases are:
//
//	F8E5M2FNUZFromF32(±0) = 0x00 (no negative zero; so is a negative value that rounds to 0)
//	F8E5M2FNUZFromF32(x) = 0x80 (NaN) for |x| ≥ 61440, ±Inf and NaN
func F8E5M2FNUZFromF32(f float32) uint8 {
	return uint8(encodeNarrow(float64(f), &fmtE5M2FNUZ, false))
}

// fnuzValue decodes an FNUZ code with mant mantissa bits and exponent bias bias.
func fnuzValue(c uint8, mant uint, bias int) float32 {
	if c == 0x80 {
		return math.Float32frombits(0x7FC00000)
	}
	e := int(c&0x7F) >> mant
	m := float64(c & (1<<mant - 1))
	var v float64
	if e == 0 {
		v = math.Ldexp(m, 1-bias-int(mant))
	} else {
		v = math.Ldexp(m+float64(uint(1)<<mant), e-bias-int(mant))
	}
	if c&0x80 != 0 {
		v = -v
	}
	return float32(v)
}

var f8e4m3fnuzToF32Table, f8e5m2fnuzToF32Table [256]float32

func init() {
	for i := range 256 {
		f8e4m3fnuzToF32Table[i] = fnuzValue(uint8(i), 3, 8)
		f8e5m2fnuzToF32Table[i] = fnuzValue(uint8(i), 2, 16)
	}
}
