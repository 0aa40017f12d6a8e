package quant_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// seedSequence0 returns the first n 32-bit words that numpy's SeedSequence(0).generate_state
// gives: the entropy [0] is mixed into a pool of four words, which is then hashed out (numpy's
// bit_generator.pyx, the "Improving seed_seq" algorithm by M. E. O'Neill).
func seedSequence0(n int) []uint32 {
	const (
		initA, multA = 0x43b0d7e5, 0x931e8875
		initB, multB = 0x8b51f9dd, 0x58f38ded
		mixL, mixR   = 0xca01f9dd, 0x4973f715
		xshift       = 16
	)
	hashConst := uint32(initA)
	hashmix := func(v uint32) uint32 {
		v ^= hashConst
		hashConst *= multA
		v *= hashConst
		return v ^ v>>xshift
	}
	mix := func(x, y uint32) uint32 {
		r := mixL*x - mixR*y
		return r ^ r>>xshift
	}
	entropy := []uint32{0}
	var pool [4]uint32
	for i := range pool {
		if i < len(entropy) {
			pool[i] = hashmix(entropy[i])
		} else {
			pool[i] = hashmix(0)
		}
	}
	for src := range pool {
		for dst := range pool {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}
	out := make([]uint32, n)
	hashConst = initB
	for i := range out {
		v := pool[i%len(pool)]
		v ^= hashConst
		hashConst *= multB
		v *= hashConst
		out[i] = v ^ v>>xshift
	}
	return out
}

// pcg64 is numpy's PCG64: a 128-bit LCG with the XSL-RR output function.
type pcg64 struct{ hi, lo, incHi, incLo uint64 }

// pcg multiplier 0x2360ED051FC65DA44385DF649FCCF645 (PCG_DEFAULT_MULTIPLIER_128).
const pcgMulHi, pcgMulLo = 0x2360ED051FC65DA4, 0x4385DF649FCCF645

func (p *pcg64) step() {
	h, l := bits.Mul64(p.lo, pcgMulLo)
	h += p.hi*pcgMulLo + p.lo*pcgMulHi
	var c uint64
	p.lo, c = bits.Add64(l, p.incLo, 0)
	p.hi, _ = bits.Add64(h, p.incHi, c)
}

func (p *pcg64) next() uint64 {
	p.step()
	return bits.RotateLeft64(p.hi^p.lo, -int(p.hi>>58))
}

// newDefaultRNG0 is numpy's default_rng(seed=0): PCG64 seeded by four 64-bit words of
// SeedSequence(0) (initstate = words 0,1; initseq = words 2,3, high word first), through
// pcg_setseq_128_srandom_r.
func newDefaultRNG0() *pcg64 {
	w := seedSequence0(8)
	u := func(i int) uint64 { return uint64(w[2*i]) | uint64(w[2*i+1])<<32 }
	initHi, initLo, seqHi, seqLo := u(0), u(1), u(2), u(3)
	p := &pcg64{incHi: seqHi<<1 | seqLo>>63, incLo: seqLo<<1 | 1}
	p.step()
	var c uint64
	p.lo, c = bits.Add64(p.lo, initLo, 0)
	p.hi, _ = bits.Add64(p.hi, initHi, c)
	p.step()
	return p
}

// random is numpy's Generator.random(): 53 random bits as a float64 in [0, 1).
func (p *pcg64) random() float64 { return float64(p.next()>>11) * 0x1p-53 }

// integerModelWeights regenerates NNCF's IntegerModel weights: rng.random(shape)*2 − 1 rounded to
// float32, drawn in the order gather_2_data [3, dim3], matmul_1_data [dim3, dim3],
// matmul_2_data [dim3, dim2].
func integerModelWeights(dim2, dim3 int) map[string]nncfTensor {
	rng := newDefaultRNG0()
	draw := func(r, c int) nncfTensor {
		v := make([]float32, r*c)
		for i := range v {
			v[i] = float32(rng.random()*2 - 1)
		}
		return nncfTensor{v, r, c}
	}
	g := draw(3, dim3)
	m1 := draw(dim3, dim3)
	m2 := draw(dim3, dim2)
	return map[string]nncfTensor{"gather_2_data": g, "matmul_1_data": m1, "matmul_2_data": m2}
}

type nncfTensor struct {
	v          []float32
	rows, cols int
}

// TestPCG64 checks the numpy port against the state and outputs that numpy 1.24 printed for
// default_rng(seed=0) (kept beside the test data's source notes).
func TestPCG64(t *testing.T) {
	p := newDefaultRNG0()
	if p.hi != 0x1aa1b5345996452d || p.lo != 0x09585eb7a69561e3 || p.incHi != 0x418ddadb3af71a82 || p.incLo != 0x588133bc447873a9 {
		t.Fatalf("state after seeding %#x%016x inc %#x%016x", p.hi, p.lo, p.incHi, p.incLo)
	}
	for i, want := range []uint64{0xa30febcfd9c2825f, 0x4510bdf882d9d721, 0xa7d3da94ecde8b8, 0x43b27b61342f01d} {
		if got := p.next(); got != want {
			t.Errorf("output %d = %#x, want %#x", i, got, want)
		}
	}
	// numpy: default_rng(0).random() = 0.6369616873214543; the first gather_2_data weight is
	// f32 0x3e8c3faf.
	if got := newDefaultRNG0().random(); got != 0.6369616873214543 {
		t.Errorf("random() = %v", got)
	}
	if got := math.Float32bits(integerModelWeights(3, 6)["gather_2_data"].v[0]); got != 0x3e8c3faf {
		t.Errorf("first weight bits %#x", got)
	}
}

// flatten reads a nested JSON array of numbers.
func flatten(x any) []float64 {
	switch v := x.(type) {
	case float64:
		return []float64{v}
	case []any:
		var out []float64
		for _, e := range v {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return nil
}

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
	type layer struct {
		mode  string
		group int
	}
	cases := []struct {
		mode, backup string
		dim2, dim3   int
		group, bg    int
	}{
		{"int8_asym", "int8_asym", 3, 6, -1, -1},
		{"int8_sym", "int8_sym", 3, 6, -1, -1},
		{"int4_asym", "int8_asym", 3, 6, 3, -1},
		{"int4_sym", "int8_asym", 3, 6, 3, -1},
		{"nf4", "int8_asym", 3, 6, 3, -1},
		{"fp4", "fp8_e4m3", 3, 6, 3, 3},
		{"fp8_e4m3", "fp8_e4m3", 3, 6, 3, 3},
		{"mxfp4", "mxfp8_e4m3", 32, 32, 32, 32},
		{"mxfp8_e4m3", "mxfp8_e4m3", 32, 32, 32, 32},
		{"nvfp4", "int8_asym", 16, 16, 16, -1},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "nncf", "IntegerModel_compressed_weights_"+c.mode+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var ref map[string]map[string]any
			if err := json.Unmarshal(raw, &ref); err != nil {
				t.Fatal(err)
			}
			ws := integerModelWeights(c.dim2, c.dim3)
			layers := map[string]layer{"matmul_2_data": {c.mode, c.group}, "matmul_1_data": {c.backup, c.bg}, "gather_2_data": {c.backup, c.bg}}
			if len(ref) != len(layers) {
				t.Fatalf("reference has %d weights", len(ref))
			}
			for name, l := range layers {
				w := ws[name]
				r, err := quant.CompressNNCF(w.v, w.rows, w.cols, l.mode, l.group)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want := ref[name]
				n := len(w.v)
				eq := func(field string, got []float32) {
					t.Helper()
					exp := flatten(want[field])
					if len(exp) != len(got) {
						t.Errorf("%s %s: %d values, reference %d", name, field, len(got), len(exp))
						return
					}
					for i := range exp {
						if float64(got[i]) != exp[i] && !(math.IsNaN(exp[i]) && got[i] != got[i]) {
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
					t.Errorf("%s: reference has zero points, %s none", name, l.mode)
				}
				if l.mode == "nvfp4" {
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
	ws := integerModelWeights(64, 64)
	w := ws["matmul_2_data"]
	for _, c := range []struct {
		mode  string
		group int
		tol   float64 // relative to the group's largest magnitude
	}{
		{"int8_asym", -1, 1.0 / 255}, {"int8_sym", -1, 1.0 / 127}, {"int4_asym", 16, 1.0 / 15}, {"int4_sym", 16, 1.0 / 7},
		{"nf4", 16, 0.2}, {"fp4", 16, 0.25}, {"fp8_e4m3", 16, 1.0 / 16}, {"mxfp4", 32, 0.5},
		{"mxfp8_e4m3", 32, 1.0 / 8}, {"nvfp4", 16, 0.25},
	} {
		r, err := quant.CompressNNCF(w.v, w.rows, w.cols, c.mode, c.group)
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		n := len(w.v)
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
				amax = math.Max(amax, math.Abs(float64(w.v[i])))
			}
			for i := gi * g; i < (gi+1)*g; i++ {
				want := f16Round(f16Round(codes[i]-zp) * scale)
				got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Errorf("%s [%d] = %v, independent decoding %v", c.mode, i, got, want)
				}
				if d := math.Abs(float64(got) - float64(w.v[i])); d > c.tol*amax+1e-3*amax {
					t.Errorf("%s [%d]: %v decompresses to %v, error %v > %v", c.mode, i, w.v[i], got, d, c.tol*amax)
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
	w := integerModelWeights(1024, 1024)["matmul_2_data"].v
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
