package quant_test

import (
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/nncfref"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// codeValues decodes the packed codes of n elements of type t to float32 through f16, as the
// reference files hold them.
func codeValues(t *testing.T, codes []byte, ct element.Type, n int) []float32 {
	t.Helper()
	h := make([]byte, 2*n)
	if err := kernels.Convert(h, element.F16, codes, ct, n); err != nil {
		t.Fatal(err)
	}
	f := make([]byte, 4*n)
	if err := kernels.Convert(f, element.F32, h, element.F16, n); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(f[4*i:]))
	}
	return out
}

// TestCompressNNCFReference compresses NNCF's IntegerModel weights as NNCF's
// test_compare_compressed_weights does and compares codes, scales, zero points and the
// second-level scale exactly with NNCF's reference files (testdata/nncf/SOURCE.md).
func TestCompressNNCFReference(t *testing.T) {
	for _, c := range nncfref.Cases {
		t.Run(c.Mode, func(t *testing.T) {
			ref, err := nncfref.Reference(filepath.Join("testdata", "nncf"), c.Mode)
			if err != nil {
				t.Fatal(err)
			}
			ws := nncfref.IntegerModelWeights(c.Dim2, c.Dim3)
			layers := map[string][2]any{"matmul_2_data": {c.Mode, c.Group}, "matmul_1_data": {c.Backup, c.BGroup}, "gather_2_data": {c.Backup, c.BGroup}}
			if len(ref) != len(layers) {
				t.Fatalf("reference has %d weights", len(ref))
			}
			for name, l := range layers {
				w := ws[name]
				mode, group := l[0].(string), l[1].(int)
				r, err := quant.CompressNNCF(w.V, w.Rows, w.Cols, mode, group)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want := ref[name]
				n := len(w.V)
				eq := func(field string, got []float32) {
					t.Helper()
					exp := want[field].Values
					if len(exp) != len(got) {
						t.Errorf("%s %s: %d values, reference %d", name, field, len(got), len(exp))
						return
					}
					for i := range exp {
						if float64(got[i]) != exp[i] {
							t.Errorf("%s %s[%d] = %v, reference %v", name, field, i, got[i], exp[i])
						}
					}
				}
				eq("compressed_weight", codeValues(t, r.Data.Codes, r.Scheme.Code, n))
				groups := r.Scheme.Groups(n)
				var scales []float32
				if r.Scheme.Scale == element.F16 {
					scales = codeValues(t, r.Data.Scales, element.F16, groups)
				} else { // f8e8m0 and f8e4m3 scales: the raw bytes
					for _, b := range r.Data.Scales {
						scales = append(scales, float32(b))
					}
				}
				eq("scale", scales)
				if r.Scheme.Zero != element.Dynamic {
					eq("zero_point", codeValues(t, r.Data.Zeros, r.Scheme.Zero, groups))
				} else if _, ok := want["zero_point"]; ok {
					t.Errorf("%s: reference has zero points, %s none", name, mode)
				}
				if mode == "nvfp4" {
					eq("sec_order_scale", []float32{r.Scale2})
				}
			}
		})
	}
}

// TestCompressNNCFDequantize checks the contract between CompressNNCF and Dequantize: the
// values decompressed with the weight's Scheme lie within the mode's quantization error of the
// original, and an independent decoding of the stored codes, scales and zero points (each
// converted to f16 and combined in float32 with f16 rounding, as OpenVINO evaluates NNCF's
// subgraph) gives the same bits.
func TestCompressNNCFDequantize(t *testing.T) {
	w := nncfref.IntegerModelWeights(64, 64)["matmul_2_data"]
	for _, c := range []struct {
		mode  string
		group int
		tol   float64 // relative to the group's largest magnitude
	}{
		{"int8_asym", -1, 1.0 / 255}, {"int8_sym", -1, 1.0 / 127}, {"int4_asym", 16, 1.0 / 15}, {"int4_sym", 16, 1.0 / 7},
		{"nf4", 16, 0.2}, {"fp4", 16, 0.25}, {"fp8_e4m3", 16, 1.0 / 16}, {"mxfp4", 32, 0.5},
		{"mxfp8_e4m3", 32, 1.0 / 8}, {"nvfp4", 16, 0.25},
	} {
		r, err := quant.CompressNNCF(w.V, w.Rows, w.Cols, c.mode, c.group)
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		n := len(w.V)
		out := make([]byte, 4*n)
		if err := quant.Dequantize(out, element.F32, r.Data, r.Scheme, n); err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		codes := codeValues(t, r.Data.Codes, r.Scheme.Code, n)
		g := r.Group
		for gi := 0; gi < n/g; gi++ {
			var scale float32
			switch r.Scheme.Scale {
			case element.F16:
				scale = codeValues(t, r.Data.Scales[2*gi:], element.F16, 1)[0]
			case element.F8E8M0:
				scale = kernels.F32FromF8E8M0(r.Data.Scales[gi])
			case element.F8E4M3:
				scale = kernels.F32FromF8E4M3(r.Data.Scales[gi]) * r.Scale2
			}
			scale = f16Round(scale)
			var zp float32
			if r.Scheme.Zero == element.U8 {
				zp = float32(r.Data.Zeros[gi])
			} else if r.Scheme.Zero == element.U4 {
				zp = float32(r.Data.Zeros[gi/2] >> (4 * (gi % 2)) & 0xF)
			}
			amax := 0.0
			for i := gi * g; i < (gi+1)*g; i++ {
				amax = math.Max(amax, math.Abs(float64(w.V[i])))
			}
			for i := gi * g; i < (gi+1)*g; i++ {
				want := f16Round(f16Round(codes[i]-zp) * scale)
				got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Errorf("%s [%d] = %v, independent decoding %v", c.mode, i, got, want)
				}
				if d := math.Abs(float64(got) - float64(w.V[i])); d > c.tol*amax+1e-3*amax {
					t.Errorf("%s [%d]: %v decompresses to %v, error %v > %v", c.mode, i, w.V[i], got, d, c.tol*amax)
				}
			}
		}
	}
}

// f16Round rounds x to binary16, to nearest, ties to even, and back.
func f16Round(x float32) float32 {
	var h [2]byte
	var f [4]byte
	binary.LittleEndian.PutUint32(f[:], math.Float32bits(x))
	_ = kernels.Convert(h[:], element.F16, f[:], element.F32, 1)
	_ = kernels.Convert(f[:], element.F32, h[:], element.F16, 1)
	return math.Float32frombits(binary.LittleEndian.Uint32(f[:]))
}

func TestCompressNNCFErrors(t *testing.T) {
	w := make([]float32, 12)
	for _, c := range []struct {
		w          []float32
		rows, cols int
		mode       string
		group      int
		kind       error
	}{
		{w, 3, 4, "int4_asym", 3, kernels.ErrInvalid},
		{w, 3, 4, "int4_asym", 0, kernels.ErrInvalid},
		{w, 3, 5, "int4_asym", 5, kernels.ErrInvalid},
		{w, 3, 4, "int2", 4, kernels.ErrUnsupported},
		{w, 3, 4, "mxfp4", 4, kernels.ErrInvalid},
		{[]float32{0, float32(math.NaN()), 0, 0}, 1, 4, "int8_sym", -1, kernels.ErrInvalid},
		{[]float32{0, float32(math.Inf(-1)), 0, 0}, 1, 4, "nf4", -1, kernels.ErrInvalid},
	} {
		if _, err := quant.CompressNNCF(c.w, c.rows, c.cols, c.mode, c.group); !errors.Is(err, c.kind) {
			t.Errorf("%s %dx%d group %d: error %v, want %v", c.mode, c.rows, c.cols, c.group, err, c.kind)
		}
	}
}

// TestCompressNNCFEdges pins the special cases: an all-zero group (scale 2^-23, or its
// power-of-two neighbour for the MX modes), a constant group, and per-row compression.
func TestCompressNNCFEdges(t *testing.T) {
	zero := make([]float32, 4)
	r, err := quant.CompressNNCF(zero, 1, 4, "int8_asym", -1)
	if err != nil {
		t.Fatal(err)
	}
	// scale = 2^-23, stored as the f16 subnormal 2·2^-24 (0x0002).
	if got := binary.LittleEndian.Uint16(r.Data.Scales); got != 0x0002 || r.Data.Zeros[0] != 0 || r.Data.Codes[0] != 0 {
		t.Errorf("zero int8_asym: scale %#x zp %d code %d", got, r.Data.Zeros[0], r.Data.Codes[0])
	}
	r, err = quant.CompressNNCF(zero, 1, 4, "mxfp4", 4)
	if err == nil {
		t.Errorf("mxfp4 group 4 accepted")
	}
	z32 := make([]float32, 32)
	r, err = quant.CompressNNCF(z32, 1, 32, "mxfp4", 32)
	if err != nil {
		t.Fatal(err)
	}
	if r.Data.Scales[0] != 127-23 {
		t.Errorf("zero mxfp4 scale byte %d, want %d (2^-23)", r.Data.Scales[0], 127-23)
	}
	// A constant positive group, int4_asym: max = min = 0.5, scale eps, zp = clip(−round(0.5/eps)) = 0,
	// every code clip(round(0.5/eps)) = 15.
	c := []float32{0.5, 0.5, 0.5, 0.5}
	r, err = quant.CompressNNCF(c, 1, 4, "int4_asym", 4)
	if err != nil {
		t.Fatal(err)
	}
	if r.Data.Codes[0] != 0xFF || r.Data.Codes[1] != 0xFF || r.Data.Zeros[0] != 0 {
		t.Errorf("constant int4_asym: codes % x zp % x", r.Data.Codes, r.Data.Zeros)
	}
	// int8_sym: the largest magnitude positive gives a negative scale and code −128.
	r, err = quant.CompressNNCF([]float32{1, -0.5, 0, 0.25}, 1, 4, "int8_sym", -1)
	if err != nil {
		t.Fatal(err)
	}
	if s := binary.LittleEndian.Uint16(r.Data.Scales); s != 0xA000 || int8(r.Data.Codes[0]) != -128 || int8(r.Data.Codes[1]) != 64 {
		t.Errorf("int8_sym: scale %#x codes %v", s, r.Data.Codes)
	}
}

// TestNF4FromF32OV pins OpenVINO's float32 comparisons: a value equal to a float32 threshold
// takes the lower code, where kernels.NF4FromF32 (float64 thresholds) may give the upper one.
func TestNF4FromF32OV(t *testing.T) {
	for i, m := range element.NF4Midpoints {
		th := float32(m)
		if got := quant.NF4FromF32OV(th); got != uint8(i) {
			t.Errorf("threshold %d (%v): code %d, want %d", i, th, got, i)
		}
		if got := quant.NF4FromF32OV(math.Nextafter32(th, 2)); got != uint8(i+1) {
			t.Errorf("above threshold %d: code %d, want %d", i, got, i+1)
		}
		if float64(th) > m && kernels.NF4FromF32(th) != uint8(i+1) {
			t.Errorf("threshold %d: kernels.NF4FromF32 expected to differ", i)
		}
	}
	// Against the definition, counting the float32 thresholds below x, for every 256th float32
	// of [−2, 2], and against kernels.NF4FromF32 away from the thresholds.
	count := func(x float32) (c uint8) {
		for _, m := range element.NF4Midpoints {
			if x > float32(m) {
				c++
			}
		}
		return c
	}
	onThreshold := func(x float32) bool {
		for _, m := range element.NF4Midpoints {
			if x == float32(m) {
				return true
			}
		}
		return false
	}
	for _, sign := range []uint32{0, 0x80000000} {
		for b := uint32(0); b <= math.Float32bits(2); b += 256 {
			x := math.Float32frombits(b | sign)
			if got, want := quant.NF4FromF32OV(x), count(x); got != want {
				t.Fatalf("NF4FromF32OV(%v) = %d, counting gives %d", x, got, want)
			}
			if !onThreshold(x) && quant.NF4FromF32OV(x) != kernels.NF4FromF32(x) {
				t.Fatalf("NF4FromF32OV(%v) = %d, kernels.NF4FromF32 %d", x, quant.NF4FromF32OV(x), kernels.NF4FromF32(x))
			}
		}
	}
	for _, c := range []struct {
		x    float32
		want uint8
	}{{0, 7}, {float32(math.Copysign(0, -1)), 7}, {float32(math.Inf(1)), 15}, {float32(math.Inf(-1)), 0}, {float32(math.NaN()), 0}, {1, 15}, {-1, 0}} {
		if got := quant.NF4FromF32OV(c.x); got != c.want {
			t.Errorf("NF4FromF32OV(%v) = %d, want %d", c.x, got, c.want)
		}
	}
}

// BenchmarkCompressNNCF compresses a 1024×1024 weight; SetBytes counts the float32 input.
func BenchmarkCompressNNCF(b *testing.B) {
	w := nncfref.IntegerModelWeights(1024, 1024)["matmul_2_data"].V
	for _, c := range []struct {
		mode  string
		group int
	}{{"int8_asym", -1}, {"int4_asym", 128}, {"int4_sym", 128}, {"nf4", 128}, {"fp4", 128}, {"fp8_e4m3", 128}, {"mxfp4", 32}, {"nvfp4", 16}} {
		b.Run(c.mode, func(b *testing.B) {
			b.SetBytes(int64(4 * len(w)))
			for i := 0; i < b.N; i++ {
				if _, err := quant.CompressNNCF(w, 1024, 1024, c.mode, c.group); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCompressNNCFOptimizedPath: from 10 000 elements NNCF's compiled functions apply the lower
// bound of a float mode's scale before the division by the code type's largest value, so an
// all-zero fp4 group gets the scale 2^-23 / 6 (f16 0) rather than 2^-23 (f16 0x0002).
func TestCompressNNCFOptimizedPath(t *testing.T) {
	for _, c := range []struct {
		rows int
		want uint16
	}{{4, 0x0002}, {10000 / 16, 0x0000}} {
		w := make([]float32, c.rows*16)
		for i := 16; i < len(w); i++ {
			w[i] = float32(i%7) - 3
		}
		r, err := quant.CompressNNCF(w, c.rows, 16, "fp4", 16)
		if err != nil {
			t.Fatal(err)
		}
		if got := binary.LittleEndian.Uint16(r.Data.Scales); got != c.want {
			t.Errorf("%d rows: the zero group's scale %#04x, want %#04x", c.rows, got, c.want)
		}
		// The other groups are alike on both paths: max 3 / 6 = 0.5.
		if got := binary.LittleEndian.Uint16(r.Data.Scales[2:]); got != 0x3800 {
			t.Errorf("%d rows: scale %#04x, want 0x3800", c.rows, got)
		}
	}
}

// TestCompressNNCFZeroPointRange: a constant group of −300 has the scale 2^-23 and
// −round(min / scale) = 300·2^23, beyond int32: numpy's conversion (NNCF below 10 000 elements)
// makes it 0, the compiled path (from 10 000) clamps it to 255.
func TestCompressNNCFZeroPointRange(t *testing.T) {
	for _, c := range []struct {
		rows int
		want byte
	}{{4, 0}, {10000 / 4, 255}} {
		w := make([]float32, c.rows*4)
		for i := range w {
			w[i] = float32(i%4) - 1.5
		}
		for i := 0; i < 4; i++ {
			w[i] = -300
		}
		r, err := quant.CompressNNCF(w, c.rows, 4, "int8_asym", -1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Data.Zeros[0] != c.want || r.Data.Zeros[1] != 128 {
			t.Errorf("%d rows: zero points %d, %d, want %d, 128", c.rows, r.Data.Zeros[0], r.Data.Zeros[1], c.want)
		}
	}
}
