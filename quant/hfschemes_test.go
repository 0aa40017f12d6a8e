package quant_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/quant"
)

// checkAll dequantizes one group of 16 (every f4e2m1 code) for each of the 256 scale bytes with
// scheme s and the second-level scale g, to f32, f16 and bf16, and compares every element with
// want(code, scale byte), a float32 value (NaN: the canonical quiet NaN expected).
func checkAll(t *testing.T, s quant.Scheme, g float32, want func(code, scale uint32) float32) {
	t.Helper()
	n := 256 * s.Group
	q := s.Alloc(n)
	for i := range n {
		pack(q.Codes, element.F4E2M1, i, uint32(i%16))
	}
	for k := range 256 {
		q.Scales[k] = byte(k)
	}
	if s.Scale2 != element.Dynamic {
		binary.LittleEndian.PutUint32(q.Scale2, math.Float32bits(g))
	}
	for _, to := range []element.Type{element.F32, element.F16, element.BF16} {
		for _, p := range allPaths() {
			dst := make([]byte, n*to.Bits()/8)
			if err := (quant.Codec{Path: p}).Dequantize(dst, to, q, s, n); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i := range n {
				code, scale := uint32(i%16), uint32(i/s.Group)
				w := want(code, scale)
				var got uint32
				if to == element.F32 {
					got = binary.LittleEndian.Uint32(dst[4*i:])
				} else {
					got = uint32(binary.LittleEndian.Uint16(dst[2*i:]))
				}
				exp := refBits(to, w)
				if math.IsNaN(float64(w)) {
					exp = refNaN(to)
				}
				if got != exp && bad < 5 {
					t.Errorf("%s, scale2 %g → %s on %s: code %#x scale %#x: %#x, want %#x (%g)", s, g, to, p, code, scale, got, exp, w)
					bad++
				}
			}
		}
	}
}

var scale2s = []float32{1, 0.5, 1.0 / 3, 2688, 1.0 / 2688, 1e-40, 1e30, 0x1p-149, 7.3e-5}

// TestNVFP4ModelOpt checks ModelOpt's NVFP4 formula for every code, every f8e4m3 block scale and
// a set of second-level scales: f32(f32(scale) × scale2) × f32(code), then the destination.
func TestNVFP4ModelOpt(t *testing.T) {
	for _, g := range scale2s {
		checkAll(t, quant.NVFP4ModelOpt, g, func(code, scale uint32) float32 {
			sv := refDecode(element.F8E4M3, scale)
			if math.IsNaN(float64(sv)) {
				return float32(math.NaN())
			}
			return float32(float64(refDecode(element.F4E2M1, code)) * float64(float32(float64(sv)*float64(g))))
		})
	}
}

// TestNVFP4CompressedTensors checks compressed-tensors' NVFP4 formula: the block scale divided by
// the global scale in float32, times the code's value in float32, then the destination.
func TestNVFP4CompressedTensors(t *testing.T) {
	for _, g := range scale2s {
		g := 1 / g
		checkAll(t, quant.NVFP4CompressedTensors, g, func(code, scale uint32) float32 {
			sv := refDecode(element.F8E4M3, scale)
			if math.IsNaN(float64(sv)) {
				return float32(math.NaN())
			}
			y := float64(refDecode(element.F4E2M1, code)) * float64(float32(float64(sv)/float64(g)))
			if math.IsNaN(y) {
				return float32(math.NaN())
			}
			return float32(y)
		})
	}
	if s, err := quant.Parse(quant.NVFP4CompressedTensors.String()); err != nil || s != quant.NVFP4CompressedTensors {
		t.Fatalf("Parse(%q) = %v, %v", quant.NVFP4CompressedTensors, s, err)
	}
	if quant.NVFP4CompressedTensors.String() != "f4e2m1/f8e4m3/16/scale2div=f32" {
		t.Fatalf("String() = %q", quant.NVFP4CompressedTensors)
	}
}

// TestMXFP4Transformers checks gpt-oss's MXFP4 against transformers' formula
// (convert_moe_packed_tensors): ldexp(table[code], scale − 127), computed as the bf16 table
// value times 2^(scale−127) in float32 and stored as bf16, for every code and scale byte. The
// one difference is scale 0xFF, where transformers' 2^128 overflows to ±Inf (NaN for ±0) and the
// library, following the OCP specification, gives NaN for every code (docs/SEMANTICS.md §9.7).
func TestMXFP4Transformers(t *testing.T) {
	table := []float32{0, .5, 1, 1.5, 2, 3, 4, 6, -0.0, -.5, -1, -1.5, -2, -3, -4, -6}
	table[8] = float32(math.Copysign(0, -1))
	checkAll(t, quant.MXFP4, 0, func(code, scale uint32) float32 {
		if scale == 0xFF {
			return float32(math.NaN())
		}
		return float32(float64(table[code]) * math.Exp2(float64(int(scale)-127)))
	})
	// MXFP4Transformers is transformers' formula for every scale byte, 0xFF included: 2^128 is
	// +Inf in float32, so ±Inf for nonzero codes and NaN for ±0.
	checkAll(t, quant.MXFP4Transformers, 0, func(code, scale uint32) float32 {
		return float32(float64(table[code]) * float64(float32(math.Exp2(float64(int(scale)-127)))))
	})
	if s, err := quant.Parse(quant.MXFP4Transformers.String()); err != nil || s != quant.MXFP4Transformers || s.String() != "f4e2m1/f8e8m0/32/e8m0inf" {
		t.Fatalf("Parse(%q) = %v, %v", quant.MXFP4Transformers, s, err)
	}
}
