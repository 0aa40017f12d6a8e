package element

// Format describes the bit layout of a binary floating-point type.
type Format struct {
	// ExpBits and MantBits are the widths of the exponent and explicit mantissa fields.
	// SignBit is false only for f8e8m0, which has no sign.
	ExpBits, MantBits int
	SignBit           bool
	// Bias is the exponent bias: a normal value is 2^(E-Bias) · 1.M.
	Bias int
	// HasInf reports whether the format encodes ±infinity (all-ones exponent, zero mantissa).
	HasInf bool
	// HasNaN reports whether the format encodes NaN. NaNPositive is the canonical positive quiet
	// NaN pattern; NaNNegative the negative one (equal to NaNPositive when there is no sign bit,
	// and for the FNUZ types, whose only NaN is 0x80).
	HasNaN                   bool
	NaNPositive, NaNNegative uint64
	// HasSubnormals reports whether a zero exponent field encodes subnormal values (f8e8m0: no,
	// 0x00 is 2^-127 exactly).
	HasSubnormals bool
	// NoNegativeZero is set for the FNUZ types: the pattern of -0 (0x80) is their NaN, so a
	// negative result that rounds to zero is +0.
	NoNegativeZero bool
	// MaxFinite is the largest finite value; MinNormal the smallest positive normal value (for
	// f8e8m0, the smallest value 2^-127); MinSubnormal the smallest positive subnormal (0 when the
	// format has none).
	MaxFinite, MinNormal, MinSubnormal float64
}

var formats = map[Type]Format{
	F16: {ExpBits: 5, MantBits: 10, SignBit: true, Bias: 15, HasInf: true, HasNaN: true,
		NaNPositive: 0x7E00, NaNNegative: 0xFE00, HasSubnormals: true,
		MaxFinite: 65504, MinNormal: 0x1p-14, MinSubnormal: 0x1p-24},
	BF16: {ExpBits: 8, MantBits: 7, SignBit: true, Bias: 127, HasInf: true, HasNaN: true,
		NaNPositive: 0x7FC0, NaNNegative: 0xFFC0, HasSubnormals: true,
		MaxFinite: 0x1.FEp127, MinNormal: 0x1p-126, MinSubnormal: 0x1p-133},
	F32: {ExpBits: 8, MantBits: 23, SignBit: true, Bias: 127, HasInf: true, HasNaN: true,
		NaNPositive: 0x7FC00000, NaNNegative: 0xFFC00000, HasSubnormals: true,
		MaxFinite: 0x1.FFFFFEp127, MinNormal: 0x1p-126, MinSubnormal: 0x1p-149},
	F64: {ExpBits: 11, MantBits: 52, SignBit: true, Bias: 1023, HasInf: true, HasNaN: true,
		NaNPositive: 0x7FF8000000000000, NaNNegative: 0xFFF8000000000000, HasSubnormals: true,
		MaxFinite: 0x1.FFFFFFFFFFFFFp1023, MinNormal: 0x1p-1022, MinSubnormal: 0x1p-1074},
	F8E4M3: {ExpBits: 4, MantBits: 3, SignBit: true, Bias: 7, HasInf: false, HasNaN: true,
		NaNPositive: 0x7F, NaNNegative: 0xFF, HasSubnormals: true,
		MaxFinite: 448, MinNormal: 0x1p-6, MinSubnormal: 0x1p-9},
	F8E5M2: {ExpBits: 5, MantBits: 2, SignBit: true, Bias: 15, HasInf: true, HasNaN: true,
		NaNPositive: 0x7E, NaNNegative: 0xFE, HasSubnormals: true,
		MaxFinite: 57344, MinNormal: 0x1p-14, MinSubnormal: 0x1p-16},
	F8E8M0: {ExpBits: 8, MantBits: 0, SignBit: false, Bias: 127, HasInf: false, HasNaN: true,
		NaNPositive: 0xFF, NaNNegative: 0xFF, HasSubnormals: false,
		MaxFinite: 0x1p127, MinNormal: 0x1p-127, MinSubnormal: 0},
	F8E4M3FNUZ: {ExpBits: 4, MantBits: 3, SignBit: true, Bias: 8, HasInf: false, HasNaN: true,
		NaNPositive: 0x80, NaNNegative: 0x80, HasSubnormals: true, NoNegativeZero: true,
		MaxFinite: 240, MinNormal: 0x1p-7, MinSubnormal: 0x1p-10},
	F8E5M2FNUZ: {ExpBits: 5, MantBits: 2, SignBit: true, Bias: 16, HasInf: false, HasNaN: true,
		NaNPositive: 0x80, NaNNegative: 0x80, HasSubnormals: true, NoNegativeZero: true,
		MaxFinite: 57344, MinNormal: 0x1p-15, MinSubnormal: 0x1p-17},
	F4E2M1: {ExpBits: 2, MantBits: 1, SignBit: true, Bias: 1, HasInf: false, HasNaN: false,
		HasSubnormals: true, MaxFinite: 6, MinNormal: 1, MinSubnormal: 0.5},
}

// FloatFormat returns the bit layout of a binary floating-point type (f16, bf16, f32, f64,
// f8e4m3, f8e5m2, f8e4m3fnuz, f8e5m2fnuz, f8e8m0, f4e2m1) and true. nf4 is a lookup table, not a binary format, and the
// complex types are pairs of floats (see ComplexPart): both return false, as do all other types.
func (t Type) FloatFormat() (Format, bool) {
	f, ok := formats[t]
	return f, ok
}

// NF4Codes are the 16 values of the nf4 codes 0..15 (the float32 constants OpenVINO decodes to).
var NF4Codes = [16]float32{
	-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453,
	-0.28444138169288635, -0.18477343022823334, -0.09105003625154495, 0.0,
	0.07958029955625534, 0.16093020141124725, 0.24611230194568634, 0.33791524171829224,
	0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0,
}

// NF4Midpoints are the 15 thresholds (float64) that OpenVINO's nf4 quantizer compares a value
// with: a value strictly greater than NF4Midpoints[i] gets a code above i; a value exactly on a
// midpoint takes the lower code.
var NF4Midpoints = [15]float64{
	-0.8480964004993439, -0.6106329262256622, -0.4599952697753906, -0.33967943489551544,
	-0.23460740596055984, -0.13791173323988914, -0.045525018125772476, 0.03979014977812767,
	0.1202552504837513, 0.2035212516784668, 0.2920137718319893, 0.3893125355243683,
	0.5016634166240692, 0.6427869200706482, 0.8614784181118011,
}
