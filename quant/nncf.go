package quant

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// NNCFWeight is one weight compressed as NNCF's data-free weight compression computes it
// (docs/SEMANTICS.md §9.6): the codes, scales, zero points and second-level scale that NNCF
// stores in an OpenVINO IR, so that Dequantize(…, w.Scheme, …) gives what OpenVINO evaluates
// from them.
type NNCFWeight struct {
	// Mode is the NNCF mode, lower case: int8_asym, int8_sym, int4_asym, int4_sym, nf4, fp4,
	// fp8_e4m3, mxfp4, mxfp8_e4m3 or nvfp4.
	Mode string
	// Scheme is NNCF(Mode, Group): Dequantize with it reverses the compression as OpenVINO
	// evaluates NNCF's decompression subgraph.
	Scheme Scheme
	// The weight is [Rows, Cols], row-major; groups of Group consecutive elements along Cols
	// (Group == Cols: one group per row, NNCF's per-channel compression).
	Rows, Cols, Group int
	// Data holds the buffers as the IR's Consts store them: codes (4-bit codes two a byte, low
	// nibble first), one scale per group (f16; f8e8m0 for the MX modes; f8e4m3 for nvfp4), one
	// zero point per group for the asymmetric modes (u8 or packed u4), and for nvfp4 the
	// second-level scale's four little-endian bytes.
	Data Data
	// Scale2 is nvfp4's second-level scale (0 for the other modes).
	Scale2 float32
}

// nncfOptimizedMin is the element count from which NNCF computes a weight with functions
// compiled by OpenVINO rather than with numpy (MIN_INPUT_SIZE_FOR_OPTIMIZED_COMPRESSION); for the
// float modes they apply the lower bound of the scale before dividing by the code type's largest
// value, and they clamp an asymmetric zero point in float32 (see nncfAsym).
const nncfOptimizedMin = 10000

// f32Eps is float32's machine epsilon, 2^-23: NNCF's lower bound on a scale's magnitude.
const f32Eps = 0x1p-23

// nncfFloatMax are the divisors of the float modes' scales: the largest magnitude of the code
// type (nf4's is 1, so nf4 divides by nothing).
var nncfFloatMax = map[string]float32{"nf4": 1, "fp4": 6, "fp8_e4m3": 448, "mxfp4": 6, "mxfp8_e4m3": 448, "nvfp4": 6}

// CompressNNCF compresses the weight w, rows×cols float32 values in row-major order, with NNCF's
// data-free weight compression in mode (see NNCF) and groups of group consecutive elements of a
// row; group -1 or cols compresses each row as one group (NNCF's per-channel compression).
// Everything is computed in float32, as NNCF's reference implementation computes it, one
// rounding per operation (docs/SEMANTICS.md §9.6):
//
//   - int8_asym, int4_asym (b = 8, 4): per group scale = (max − min) / (2^b − 1), raised to
//     2^-23 when its magnitude is below; zero point = clip(−round(min / scale), 0, 2^b − 1);
//     code = clip(round(w / scale + zero point), 0, 2^b − 1). The range is the group's own, 0
//     not included: a group without negative values gets zero point 0 and its largest values
//     clipped, as NNCF computes it.
//   - int8_sym, int4_sym: scale = |min| / 2^(b−1) when |min| ≥ max, else −max / 2^(b−1) (a
//     negative scale), with the same lower bound; code = clip(round(w / scale), −2^(b−1),
//     2^(b−1) − 1).
//   - nf4, fp4, fp8_e4m3: scale = max|w| / {1, 6, 448}, with the same lower bound; code = the
//     code type's value of w / scale.
//   - mxfp4, mxfp8_e4m3: as fp4 and fp8_e4m3, the scale then raised to the power of two
//     2^clip(ceil(log2 scale), −127, 127).
//   - nvfp4: as fp4 with groups of 16; the scales are then compressed as fp8_e4m3 with one
//     second-level scale for the whole tensor: max|scale| / 448, with the same lower bound.
//
// For a weight of 10 000 elements or more (and nvfp4's second level over 10 000 scales or more)
// NNCF computes with functions compiled by OpenVINO, which for the float modes raise max|w| to
// 2^-23 before dividing by {6, 448}: the scale of a group whose largest magnitude is below
// 2^-23·{6, 448} is then smaller, and which clamp the asymmetric zero point in float32, so that a
// quotient −round(min / scale) beyond int32's range gives 2^b − 1 rather than 0 when positive.
// CompressNNCF does the same.
//
// round is to nearest, ties to even. Codes are computed from the float32 scale; the scale is
// then stored in its type: f16 rounded to nearest, ties to even (kernels.Convert); f8e8m0,
// exact for a power of two; nvfp4's f8e4m3 as kernels.Convert converts float32 to f8e4m3. Code
// values are converted as OpenVINO converts float32 (NNCF has OpenVINO convert them): f4e2m1
// and f8e4m3 by kernels.Convert, nf4 by NF4FromF32OV. log2 is float64's, rounded to float32. A
// zero point whose −round(min / scale) lies outside int32 is 0 below 10 000 elements, as numpy's
// conversion gives on x86.
//
// Errors wrap kernels.ErrUnsupported for an unknown mode and kernels.ErrInvalid for a weight
// that is not rows×cols values, a NaN or infinite weight, a group that does not divide cols,
// and nvfp4, mxfp4 or mxfp8_e4m3 with a group other than 16, 32, 32; their messages name the
// problem.
func CompressNNCF(w []float32, rows, cols int, mode string, group int) (NNCFWeight, error) {
	mode = strings.ToLower(mode)
	if rows < 0 || cols < 1 || int64(rows)*int64(cols) != int64(len(w)) {
		return NNCFWeight{}, errorf(kernels.ErrInvalid, "quant: NNCF %s: a weight of %d values is not %d×%d", mode, len(w), rows, cols)
	}
	if group == -1 {
		group = cols
	}
	if group < 1 || cols%group != 0 {
		return NNCFWeight{}, errorf(kernels.ErrInvalid, "quant: NNCF %s: group size %d does not divide the row of %d elements", mode, group, cols)
	}
	if need := map[string]int{"mxfp4": 32, "mxfp8_e4m3": 32, "nvfp4": 16}[mode]; need != 0 && group != need {
		return NNCFWeight{}, errorf(kernels.ErrInvalid, "quant: NNCF %s: group size %d, the mode takes only %d", mode, group, need)
	}
	s, err := NNCF(mode, group)
	if err != nil {
		return NNCFWeight{}, err
	}
	for i, v := range w {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return NNCFWeight{}, errorf(kernels.ErrInvalid, "quant: NNCF %s: weight [%d, %d] is %v", mode, i/cols, i%cols, v)
		}
	}
	n := len(w)
	r := NNCFWeight{Mode: mode, Scheme: s, Rows: rows, Cols: cols, Group: group, Data: s.Alloc(n)}
	groups := s.Groups(n)
	scales := make([]float32, groups)
	var codes []byte // integer codes, one a byte, before packing
	switch mode {
	case "int8_asym", "int4_asym":
		codes, r.Data.Zeros, err = nncfAsym(w, scales, group, s.Code.Bits(), s.Zero, n >= nncfOptimizedMin)
	case "int8_sym", "int4_sym":
		codes = nncfSym(w, scales, group, s.Code.Bits())
	default:
		// Float codes: w / scale converted to the code type as OpenVINO converts float32.
		norm := nncfFloat(w, scales, group, mode, s, n >= nncfOptimizedMin)
		if s.Code == element.NF4 {
			codes = make([]byte, n)
			for i, v := range norm {
				codes[i] = NF4FromF32OV(v)
			}
			packNibbles(r.Data.Codes, codes)
			codes = nil
		} else {
			err = kernels.Convert(r.Data.Codes, s.Code, f32Bytes(norm), element.F32, n)
		}
	}
	if err != nil {
		return NNCFWeight{}, err
	}
	// Store the integer codes: 4-bit ones packed by converting their byte form.
	switch {
	case codes == nil:
	case s.Code == element.U4 || s.Code == element.I4:
		from := element.U8
		if s.Code == element.I4 {
			from = element.I8
		}
		if err := kernels.Convert(r.Data.Codes, s.Code, codes, from, n); err != nil {
			return NNCFWeight{}, err
		}
	default:
		copy(r.Data.Codes, codes)
	}
	if mode == "nvfp4" {
		// The second level: the first-level scales compressed as fp8_e4m3 over the whole tensor.
		g := float32(0)
		for _, v := range scales {
			g = max(g, float32(math.Abs(float64(v))))
		}
		if groups >= nncfOptimizedMin {
			g = epsFloor(g) / 448
		} else {
			g = epsFloor(g / 448)
		}
		norm := make([]float32, groups)
		for i, v := range scales {
			norm[i] = v / g
		}
		if err := kernels.Convert(r.Data.Scales, element.F8E4M3, f32Bytes(norm), element.F32, groups); err != nil {
			return NNCFWeight{}, err
		}
		r.Scale2 = g
		binary.LittleEndian.PutUint32(r.Data.Scale2, math.Float32bits(g))
		return r, nil
	}
	if err := kernels.Convert(r.Data.Scales, s.Scale, f32Bytes(scales), element.F32, groups); err != nil {
		return NNCFWeight{}, err
	}
	return r, nil
}

// epsFloor raises a scale whose magnitude is below float32's epsilon to the epsilon, as NNCF
// does against a division by zero.
func epsFloor(s float32) float32 {
	if float32(math.Abs(float64(s))) < f32Eps {
		return f32Eps
	}
	return s
}

// groupRange returns the least and the largest value of g.
func groupRange(g []float32) (mn, mx float32) {
	mn, mx = g[0], g[0]
	for _, v := range g[1:] {
		mn, mx = min(mn, v), max(mx, v)
	}
	return mn, mx
}

// roundClip rounds x to nearest, ties to even (numpy's round), and clips it to [lo, hi].
func roundClip(x float32, lo, hi float64) float64 {
	return min(max(math.RoundToEven(float64(x)), lo), hi)
}

// nncfAsym computes the asymmetric modes' scales (into scales), codes (one a byte) and zero
// points (stored as zt: u8, or u4 two a byte). optimized clamps the zero point as NNCF's
// OpenVINO-compiled path does, in float32, rather than through numpy's int32 conversion.
func nncfAsym(w, scales []float32, group, bits int, zt element.Type, optimized bool) ([]byte, []byte, error) {
	hi := float64(int(1)<<bits - 1)
	codes := make([]byte, len(w))
	zps := make([]byte, len(scales))
	for gi := range scales {
		g := w[gi*group : (gi+1)*group]
		mn, mx := groupRange(g)
		d := mx - mn
		scale := epsFloor(d / float32(hi))
		// zero point = clip(int32(0 − round(min / scale))): numpy's float → int32 conversion
		// gives INT32_MIN (x86's CVTTSS2SI) outside int32's range, which the clip makes 0.
		z := -math.RoundToEven(float64(mn / scale))
		zp := 0.0
		if optimized || z >= math.MinInt32 && z <= math.MaxInt32 {
			zp = min(max(z, 0), hi)
		}
		zf := float32(zp)
		for i, v := range g {
			q := v / scale
			codes[gi*group+i] = byte(roundClip(q+zf, 0, hi))
		}
		scales[gi] = scale
		zps[gi] = byte(zp)
	}
	if zt == element.U4 {
		packed := make([]byte, (len(zps)+1)/2)
		if err := kernels.Convert(packed, element.U4, zps, element.U8, len(zps)); err != nil {
			return nil, nil, err
		}
		return codes, packed, nil
	}
	return codes, zps, nil
}

// nncfSym computes the symmetric modes' scales (into scales) and codes (int8 two's complement,
// one a byte).
func nncfSym(w, scales []float32, group, bits int) []byte {
	f := float32(int(1) << (bits - 1))
	codes := make([]byte, len(w))
	for gi := range scales {
		g := w[gi*group : (gi+1)*group]
		mn, mx := groupRange(g)
		a := float32(math.Abs(float64(mn)))
		s := -mx
		if a >= mx {
			s = a
		}
		scale := epsFloor(s / f)
		for i, v := range g {
			codes[gi*group+i] = byte(int8(roundClip(v/scale, -float64(f), float64(f)-1)))
		}
		scales[gi] = scale
	}
	return codes
}

// nncfFloat computes the float modes' scales (into scales, as float32) and returns the
// normalised values w / scale that the codes are converted from. floorFirst applies the lower
// bound before the division by the code type's largest value, as NNCF's OpenVINO-compiled path
// does.
func nncfFloat(w, scales []float32, group int, mode string, s Scheme, floorFirst bool) []float32 {
	div := nncfFloatMax[mode]
	norm := make([]float32, len(w))
	for gi := range scales {
		g := w[gi*group : (gi+1)*group]
		a := float32(0)
		for _, v := range g {
			a = max(a, float32(math.Abs(float64(v))))
		}
		var scale float32
		switch {
		case mode == "nf4":
			scale = epsFloor(a)
		case floorFirst:
			scale = epsFloor(a) / div
		default:
			scale = epsFloor(a / div)
		}
		if s.Scale == element.F8E8M0 {
			e := math.Ceil(float64(float32(math.Log2(float64(scale)))))
			scale = float32(math.Ldexp(1, int(min(max(e, -127), 127))))
		}
		for i, v := range g {
			norm[gi*group+i] = v / scale
		}
		scales[gi] = scale
	}
	return norm
}

// nf4ThresholdsF32 are element.NF4Midpoints rounded to float32: OpenVINO's ConvertNF4::quantize
// writes them as float literals and compares in float32.
var nf4ThresholdsF32 = func() (t [15]float32) {
	for i, m := range element.NF4Midpoints {
		t[i] = float32(m)
	}
	return t
}()

// NF4FromF32OV returns the nf4 code of f as OpenVINO's ConvertNF4::quantize computes it (the
// conversion NNCF's nf4 codes come from): the number of thresholds, element.NF4Midpoints
// rounded to float32, that f is strictly greater than, compared in float32. It differs from
// kernels.NF4FromF32, which compares in float64, only for f equal to one of the six float32
// thresholds that lie above their float64 value: OpenVINO gives the lower code there.
//
// Special cases are:
//
//	NF4FromF32OV(±0) = 7 (0.0)
//	NF4FromF32OV(-Inf) = 0, NF4FromF32OV(+Inf) = 15
//	NF4FromF32OV(NaN) = 0 (a NaN compares false with every threshold)
func NF4FromF32OV(f float32) uint8 {
	// kernels.NF4FromF32 counts the float64 thresholds below f. A float32 threshold rounded
	// down from its float64 value has no float32 between the two, so the counts differ only
	// when f is a float32 threshold rounded up: kernels counts it, OpenVINO does not.
	c := kernels.NF4FromF32(f)
	if c > 0 && f == nf4ThresholdsF32[c-1] {
		c--
	}
	return c
}

// packNibbles packs one 4-bit code a byte, low nibble first, two a byte; an unused high nibble
// of a last byte is zero.
func packNibbles(dst, codes []byte) {
	for i := range dst {
		dst[i] = 0
	}
	for i, c := range codes {
		dst[i/2] |= (c & 0xF) << (4 * (i % 2))
	}
}

// f32Bytes views float32 values as their bytes.
func f32Bytes(v []float32) []byte { return bytesOf(v) }
