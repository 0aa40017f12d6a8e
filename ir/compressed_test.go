package ir

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/quant"
	"github.com/x448/float16"
)

// operand is a Const of a fixture as the reference reads it: its name, element type and shape.
type operand struct {
	name string
	t    element.Type
	dims []int64
}

// cwCase is one compressed weight of the fixtures in testdata/ir/compressed, described
// independently of the recognizer.
type cwCase struct {
	file     string
	codes    operand
	zero     operand // name "" when absent
	scale    operand
	scale2   string
	codebook operand
	compute  element.Type
	mode     string
	scheme   string // quant.Scheme's String
	group    int
	out      element.Type
	shape    []int64
	perm     []int64
	output   string
	consumer string
	layers   int
}

func operandOf(name string, t element.Type, dims ...int64) operand { return operand{name, t, dims} }

var (
	f16, f32, u8, u4 = element.F16, element.F32, element.U8, element.U4
	w48              = []int64{4, 8}
	w264             = []int64{2, 64}
)

var cwCases = []cwCase{
	{file: "int_modes.xml", codes: operandOf("a", u8, 4, 8), zero: operandOf("a/zero_point", u8, 4, 1), scale: operandOf("a/scale", f16, 4, 1), compute: f16,
		mode: "int8_asym", scheme: "int8_asym/8", group: 8, out: f32, shape: w48, output: "a/fq_weights_1/convert", consumer: "mm_a", layers: 8},
	{file: "int_modes.xml", codes: operandOf("b", element.I8, 4, 8), scale: operandOf("b/scale", f16, 4, 1), compute: f16,
		mode: "int8_sym", scheme: "int8_sym/8", group: 8, out: f32, shape: w48, output: "b/fq_weights_1/convert", consumer: "mm_b", layers: 5},
	{file: "int_modes.xml", codes: operandOf("c", u4, 4, 2, 4), zero: operandOf("c/zero_point", u4, 4, 2, 1), scale: operandOf("c/scale", f16, 4, 2, 1), compute: f16,
		mode: "int4_asym", scheme: "int4_asym/4", group: 4, out: f32, shape: w48, output: "c/fq_weights_1/convert", consumer: "mm_c", layers: 10},
	{file: "int_modes.xml", codes: operandOf("d", element.I4, 4, 2, 4), scale: operandOf("d/scale", f16, 4, 2, 1), compute: f16,
		mode: "int4_sym", scheme: "int4_sym/4", group: 4, out: f32, shape: w48, output: "d/fq_weights_1/convert", consumer: "mm_d", layers: 7},
	{file: "float_modes.xml", codes: operandOf("e", element.NF4, 4, 2, 4), scale: operandOf("e/scale", f16, 4, 2, 1), compute: f16,
		mode: "nf4", scheme: "nf4/4", group: 4, out: f32, shape: w48, output: "e/fq_weights_1/convert", consumer: "mm_e", layers: 7},
	{file: "float_modes.xml", codes: operandOf("f", element.F4E2M1, 4, 2, 4), scale: operandOf("f/scale", f16, 4, 2, 1), compute: f16,
		mode: "fp4", scheme: "fp4/4", group: 4, out: f32, shape: w48, output: "f/fq_weights_1/convert", consumer: "mm_f", layers: 7},
	{file: "float_modes.xml", codes: operandOf("h", element.F8E4M3, 4, 2, 4), scale: operandOf("h/scale", f16, 4, 2, 1), compute: f16,
		mode: "fp8_e4m3", scheme: "fp8_e4m3/4", group: 4, out: f16, shape: w48, output: "h/reshape", consumer: "w_h", layers: 6},
	{file: "block_modes.xml", codes: operandOf("m", element.F4E2M1, 2, 2, 32), scale: operandOf("m/scale", element.F8E8M0, 2, 2, 1), compute: f16,
		mode: "mxfp4", scheme: "mxfp4/32", group: 32, out: f32, shape: w264, output: "m/fq_weights_1/convert", consumer: "mm_m", layers: 8},
	{file: "block_modes.xml", codes: operandOf("p", element.F8E4M3, 2, 2, 32), scale: operandOf("p/scale", element.F8E8M0, 2, 2, 1), compute: f16,
		mode: "mxfp8_e4m3", scheme: "mxfp8_e4m3/32", group: 32, out: f32, shape: w264, output: "p/fq_weights_1/convert", consumer: "mm_p", layers: 8},
	{file: "block_modes.xml", codes: operandOf("q", element.F4E2M1, 2, 4, 16), scale: operandOf("q/scale", element.F8E4M3, 2, 4, 1), scale2: "q/second_order_scale", compute: f16,
		mode: "nvfp4", scheme: "nvfp4/16", group: 16, out: f32, shape: w264, output: "q/fq_weights_1/convert", consumer: "mm_q", layers: 11},
	{file: "codebook.xml", codes: operandOf("k_nncf_codebook_idxs", u4, 4, 2, 4), codebook: operandOf("k", element.F8E4M3, 16), scale: operandOf("k/scale", f16, 4, 2, 1), compute: f16,
		mode: "codebook", scheme: "fp8_e4m3/4", group: 4, out: f32, shape: w48, output: "k/fq_weights_1/convert", consumer: "mm_k", layers: 11},
	{file: "codebook.xml", codes: operandOf("j_nncf_codebook_idxs", u8, 4, 8), codebook: operandOf("j", f16, 8), scale: operandOf("j/scale", f16, 4, 1), compute: f16,
		mode: "codebook", scheme: "f8e4m3/f16/1/zero=f16/compute=f16", group: 8, out: f32, shape: w48, output: "j/fq_weights_1/convert", consumer: "mm_j", layers: 7},
	{file: "codebook.xml", codes: operandOf("u_nncf_codebook_idxs", element.U16, 4, 8), codebook: operandOf("u", f16, 4), scale: operandOf("u/scale", f16, 4, 1), compute: f16,
		mode: "codebook", scheme: "fp8_e4m3/8", group: 8, out: f32, shape: w48, output: "u/fq_weights_1/convert", consumer: "mm_u", layers: 7},
	{file: "fp16.xml", codes: operandOf("w_compressed", f16, 4, 8), mode: "fp16", out: f32, shape: w48, output: "w", consumer: "mm_w", layers: 2},
	{file: "fp16.xml", codes: operandOf("v_compressed", f16, 8), mode: "fp16", out: f32, shape: []int64{8}, output: "v", consumer: "add_v", layers: 2},
	{file: "older.xml", codes: operandOf("o1", u8, 4, 8), zero: operandOf("o1/zero_point", f32, 4, 1), scale: operandOf("o1/scale", f32, 4, 1), compute: f32,
		mode: "int8_asym", scheme: "u8/f32/8/zero=f32", group: 8, out: f32, shape: w48, output: "mm_o1/fq_weights_1", consumer: "mm_o1", layers: 6},
	{file: "older.xml", codes: operandOf("o2", u4, 4, 2, 4), zero: operandOf("o2/zero_point", u4, 4, 2, 1), scale: operandOf("o2/scale", f32, 4, 2, 1), compute: f32,
		mode: "int4_asym", scheme: "u4/f32/4/zero=u4", group: 4, out: f32, shape: w48, output: "o2/reshape", consumer: "mm_o2", layers: 9},
	{file: "older.xml", codes: operandOf("o3", u8, 4, 8), zero: operandOf("o3/zero_point", u8, 4, 1), scale: operandOf("o3/scale", f16, 4, 1), compute: f32,
		mode: "int8_asym", scheme: "u8/f16/8/zero=u8", group: 8, out: f32, shape: w48, output: "o3/fq_weights_1", consumer: "mm_o3", layers: 8},
	{file: "older.xml", codes: operandOf("o4", u8, 4, 8), zero: operandOf("o4/zero_point", u8, 4, 1), scale: operandOf("o4/scale", f32, 4, 1), compute: f32,
		mode: "int8_sym", scheme: "u8/f32/8/scalarzero=u8", group: 8, out: f32, shape: w48, output: "o4/fq_weights_1", consumer: "mm_o4", layers: 7},
	{file: "older.xml", codes: operandOf("o5", u4, 4, 2, 4), zero: operandOf("o5/zero_point", u4), scale: operandOf("o5/scale", f16, 4, 2, 1), compute: f16,
		mode: "int4_sym", scheme: "u4/f16/4/scalarzero=u4/compute=f16", group: 4, out: f32, shape: w48, output: "o5/fq_weights_1/convert", consumer: "mm_o5", layers: 10},
	{file: "layouts.xml", codes: operandOf("l1", u4, 4, 2, 4), zero: operandOf("l1/zero_point", u4, 4, 2, 1), scale: operandOf("l1/scale", f16, 4, 2, 1), compute: f16,
		mode: "int4_asym", scheme: "int4_asym/4", group: 4, out: f32, shape: w48, output: "l1/fq_weights_1/convert", consumer: "mm_l1", layers: 14},
	{file: "layouts.xml", codes: operandOf("l2", element.I8, 8, 4), scale: operandOf("l2/scale", f16, 8, 1), compute: f16, perm: []int64{1, 0},
		mode: "int8_sym", scheme: "int8_sym/4", group: 4, out: f32, shape: w48, output: "l2/transpose", consumer: "mm_l2", layers: 7},
	{file: "layouts.xml", codes: operandOf("l3", u8, 4, 8), zero: operandOf("l3/zero_point", u8, 4, 1), scale: operandOf("l3/scale", f16, 1, 1), compute: f16,
		mode: "int8_asym", scheme: "int8_asym/8", group: 8, out: f32, shape: w48, output: "l3/fq_weights_1/convert", consumer: "mm_l3", layers: 8},
}

// The reference decoders, from the formats' definitions (docs/SEMANTICS.md §1.3, §1.4, §3.7).
var (
	nf4Table = [16]float32{-1, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
		-0.18477343022823334, -0.09105003625154495, 0, 0.07958029955625534, 0.16093020141124725, 0.24611230194568634,
		0.33791524171829224, 0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1}
	e2m1Table = [8]float32{0, 0.5, 1, 1.5, 2, 3, 4, 6}
)

// refValue decodes element i of a tensor of type t held in b.
func refValue(t element.Type, b []byte, i int) float32 {
	nib := func() byte { return b[i/2] >> (4 * (i % 2)) & 0xF }
	switch t {
	case element.U8:
		return float32(b[i])
	case element.U16:
		return float32(binary.LittleEndian.Uint16(b[2*i:]))
	case element.I8:
		return float32(int8(b[i]))
	case element.U4:
		return float32(nib())
	case element.I4:
		return float32(int8(nib()<<4) >> 4)
	case element.NF4:
		return nf4Table[nib()]
	case element.F4E2M1:
		v := e2m1Table[nib()&7]
		if nib()&8 != 0 {
			return -v
		}
		return v
	case element.F8E4M3:
		c := b[i]
		e, m := int(c>>3&0xF), float64(c&7)
		var v float64
		switch {
		case c&0x7F == 0x7F:
			return float32(math.NaN())
		case e == 0:
			v = m / 8 * math.Pow(2, -6)
		default:
			v = (1 + m/8) * math.Pow(2, float64(e-7))
		}
		if c&0x80 != 0 {
			v = -v
		}
		return float32(v)
	case element.F8E8M0:
		if b[i] == 0xFF {
			return float32(math.NaN())
		}
		return float32(math.Pow(2, float64(int(b[i])-127)))
	case element.F16:
		return float16.Frombits(binary.LittleEndian.Uint16(b[2*i:])).Float32()
	case element.F32:
		return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	panic("refValue: " + t.String())
}

// toC rounds v to the compute type: f16 to nearest, ties to even (float16.Fromfloat32), f32 as
// it is.
func toC(c element.Type, v float32) float32 {
	if c == element.F16 {
		return float16.Fromfloat32(v).Float32()
	}
	return v
}

// bcast returns the row-major offset, in a tensor of shape d right-aligned to shape s with
// numpy broadcasting, of the element at row-major offset i of s.
func bcast(i int, s, d []int64) int {
	off, stride := 0, 1
	for a := len(s) - 1; a >= 0; a-- {
		k := i % int(s[a])
		i /= int(s[a])
		if b := len(d) - len(s) + a; b >= 0 {
			if d[b] != 1 {
				off += k * stride
			}
			stride *= int(d[b])
		}
	}
	return off
}

// reference computes a case node by node from its Consts' bytes: the codes (or the codebook
// entry they index) converted to C, minus the zero point converted to C, rounded to C, times
// the scale converted to C (nvfp4: f32(scale) × scale2 in f32, then to C), rounded to C; then
// the final type and the Transpose.
func (c cwCase) reference(consts map[string][]byte) []float32 {
	codes := consts[c.codes.name]
	n := 1
	for _, d := range c.codes.dims {
		n *= int(d)
	}
	out := make([]float32, n)
	for i := range out {
		var y float32
		switch {
		case c.mode == "fp16":
			y = refValue(f16, codes, i)
		default:
			var v float32
			if c.codebook.name != "" {
				j := int(refValue(c.codes.t, codes, i))
				v = toC(c.compute, refValue(c.codebook.t, consts[c.codebook.name], j))
			} else {
				v = toC(c.compute, refValue(c.codes.t, codes, i))
			}
			if c.zero.name != "" {
				z := toC(c.compute, refValue(c.zero.t, consts[c.zero.name], bcast(i, c.codes.dims, c.zero.dims)))
				v = toC(c.compute, v-z)
			}
			s := refValue(c.scale.t, consts[c.scale.name], bcast(i, c.codes.dims, c.scale.dims))
			if c.scale2 != "" {
				s *= refValue(f32, consts[c.scale2], 0)
			}
			s = toC(c.compute, s)
			y = toC(c.compute, v*s)
		}
		out[i] = toC(c.out, y)
	}
	if c.perm != nil {
		// A 2-D transpose.
		r, k := int(c.codes.dims[0]), int(c.codes.dims[1])
		t := make([]float32, n)
		for a := 0; a < r; a++ {
			for b := 0; b < k; b++ {
				t[b*r+a] = out[a*k+b]
			}
		}
		out = t
	}
	return out
}

// valuesOf decodes n values of type t (f32 or f16).
func valuesOf(t element.Type, b []byte, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = refValue(t, b, i)
	}
	return out
}

func readCompressed(t *testing.T, file string) (*Model, []CompressedWeight) {
	t.Helper()
	m, err := Read(filepath.Join(repoRoot(t), "testdata", "ir", "compressed", file))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Check(); err != nil {
		t.Fatal(err)
	}
	ws, err := m.CompressedWeights()
	if err != nil {
		t.Fatal(err)
	}
	return m, ws
}

func TestCompressedWeightsFixtures(t *testing.T) {
	byFile := map[string][]cwCase{}
	for _, c := range cwCases {
		byFile[c.file] = append(byFile[c.file], c)
	}
	modes := map[string]bool{}
	for file, cases := range byFile {
		m, ws := readCompressed(t, file)
		if len(ws) != len(cases) {
			t.Errorf("%s: %d weights found, want %d", file, len(ws), len(cases))
		}
		consts := compressedBins["testdata/ir/compressed/"+file]
		for _, c := range cases {
			i := slices.IndexFunc(ws, func(w CompressedWeight) bool { return w.Codes.Name == c.codes.name })
			if i < 0 {
				t.Errorf("%s: no weight with codes %s", file, c.codes.name)
				continue
			}
			w := &ws[i]
			modes[w.Mode] = true
			name := func(l *Layer) string {
				if l == nil {
					return ""
				}
				return l.Name
			}
			consumer := name(w.Consumer)
			if w.Mode != c.mode || w.CodeType != c.codes.t || w.Group != c.group || w.Type != c.out || !slices.Equal(w.Shape, c.shape) ||
				name(w.Output) != c.output || consumer != c.consumer || name(w.Zero) != c.zero.name || name(w.Scale) != c.scale.name ||
				name(w.Scale2) != c.scale2 || name(w.Codebook) != c.codebook.name || !slices.Equal(w.Transpose, c.perm) || len(w.Layers) != c.layers {
				t.Errorf("%s %s: got mode %s codes %s group %d type %s shape %v output %s consumer %s zero %q scale %q scale2 %q codebook %q transpose %v, %d layers; want %+v",
					file, c.codes.name, w.Mode, w.CodeType, w.Group, w.Type, w.Shape, name(w.Output), consumer, name(w.Zero), name(w.Scale), name(w.Scale2), name(w.Codebook), w.Transpose, len(w.Layers), c)
			}
			if c.mode != "fp16" && w.Scheme.String() != c.scheme {
				t.Errorf("%s %s: scheme %s, want %s", file, c.codes.name, w.Scheme, c.scheme)
			}
			if w.Layers[0] != w.Codes || w.Layers[len(w.Layers)-1] != w.Output && c.perm == nil {
				t.Errorf("%s %s: Layers start with %s and end with %s", file, c.codes.name, w.Layers[0].Name, w.Layers[len(w.Layers)-1].Name)
			}
			// Today's chain is NNCF's scheme as quant names it.
			if c.compute == f16 && c.codebook.name == "" && c.zero.t != f16 && !strings.Contains(c.scheme, "scalarzero") {
				want, err := quant.NNCF(c.mode, c.group)
				if err != nil || w.Scheme != want {
					t.Errorf("%s %s: scheme %v, quant.NNCF gives %v (%v)", file, c.codes.name, w.Scheme, want, err)
				}
			}
			got, err := m.DecompressedData(w)
			if err != nil {
				t.Errorf("%s %s: %v", file, c.codes.name, err)
				continue
			}
			want := c.reference(consts)
			if len(got) != len(want)*c.out.Bits()/8 {
				t.Errorf("%s %s: %d bytes, want %d values of %s", file, c.codes.name, len(got), len(want), c.out)
				continue
			}
			for k, v := range valuesOf(c.out, got, len(want)) {
				if math.Float32bits(v) != math.Float32bits(want[k]) && !(v != v && want[k] != want[k]) {
					t.Errorf("%s %s: element %d = %g, want %g", file, c.codes.name, k, v, want[k])
					break
				}
			}
		}
	}
	for _, mode := range []string{"int8_asym", "int8_sym", "int4_asym", "int4_sym", "nf4", "fp4", "fp8_e4m3", "mxfp4", "mxfp8_e4m3", "nvfp4", "codebook", "fp16"} {
		if !modes[mode] {
			t.Errorf("no fixture of mode %s", mode)
		}
	}
}

// The fixtures reach the special cases of §9.5 they were written for.
func TestCompressedFixtureEdges(t *testing.T) {
	m, ws := readCompressed(t, "block_modes.xml")
	got, err := m.DecompressedData(&ws[0]) // mxfp4: scales 2^17 (+Inf in f16) and 2^-31 (0)
	if err != nil {
		t.Fatal(err)
	}
	vs := valuesOf(f32, got, 128)
	inf, zero := 0, 0
	for _, v := range vs[64:96] {
		if math.IsInf(float64(v), 0) || v != v {
			inf++
		}
	}
	for _, v := range vs[96:] {
		if v == 0 {
			zero++
		}
	}
	if inf != 32 || zero != 32 {
		t.Errorf("mxfp4 groups 2 and 3: %d of 32 infinite or NaN, %d of 32 zero", inf, zero)
	}
	// The f16 codebook holds −0: its products keep the sign.
	m, ws = readCompressed(t, "codebook.xml")
	j := ws[slices.IndexFunc(ws, func(w CompressedWeight) bool { return w.Codebook.Name == "j" })]
	got, err = m.DecompressedData(&j)
	if err != nil {
		t.Fatal(err)
	}
	negZero := 0
	for _, v := range valuesOf(f32, got, 32) {
		if v == 0 && math.Signbit(float64(v)) {
			negZero++
		}
	}
	if negZero == 0 {
		t.Error("codebook j: no −0 among the products of its −0 entry")
	}
}

// Summaries total the fixtures by mode.
func TestSummarizeCompressed(t *testing.T) {
	_, ws := readCompressed(t, "older.xml")
	var lines []string
	for _, s := range SummarizeCompressed(ws) {
		lines = append(lines, s.String())
	}
	want := []string{
		"int8_asym: 2 weights, group 8, 108 B stored, 256 B decompressed",
		"int8_sym: 1 weight, group 8, 52 B stored, 128 B decompressed",
		"int4_asym: 1 weight, group 4, 52 B stored, 128 B decompressed",
		"int4_sym: 1 weight, group 4, 33 B stored, 128 B decompressed",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("summary\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	_, ws = readCompressed(t, "fp16.xml")
	if s := SummarizeCompressed(ws); len(s) != 1 || s[0].String() != "fp16: 2 weights, 80 B stored, 160 B decompressed" {
		t.Errorf("fp16 summary %v", s)
	}
}

// Each hostile subgraph of testdata/ir/compressed/bad is a located error, and the model still
// checks: the graph is well formed, only the weight cannot be one.
func TestCompressedWeightsHostile(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "ir", "compressed", "bad")
	for _, h := range []struct{ file, want string }{
		{"scale_shape.xml", "scale_shape.xml:32: layer 6 (w/fq_weights_1): the scale's shape [4,3,1] does not broadcast onto the codes' shape [4,2,4]"},
		{"group_row.xml", "group_row.xml:27: layer 5 (w/reshape): the group size 4 does not divide the row of 6 elements (shape [4,6])"},
		{"reshape_count.xml", "reshape_count.xml:27: layer 5 (w/reshape): Reshape: target shape [4,9] holds 36 elements, the input [3,2,4] holds 24"},
		{"zero_range.xml", "zero_range.xml:14: layer 2 (w/zero_point): zero point 300 (element 2) is outside the range 0..255 of the u8 codes"},
		{"zero_negative.xml", "zero_negative.xml:14: layer 2 (w/zero_point): zero point -2 (element 1) is outside the range 0..15 of the u4 codes"},
		{"codes_type.xml", "codes_type.xml:5: layer 0 (w): codes of type u2 are not supported (u8, i8, u4, i4, nf4, f4e2m1, f8e4m3 or f8e5m2)"},
	} {
		path := filepath.Join(dir, h.file)
		m, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Check(); err != nil {
			t.Errorf("%s: Check: %v", h.file, err)
		}
		ws, err := m.CompressedWeights()
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || len(ws) != 0 {
			t.Errorf("%s: %d weights, error %v; want one located error", h.file, len(ws), err)
			continue
		}
		if e := es[0]; e.File != path || e.Line <= 0 || e.Layer == nil || !strings.HasSuffix(e.Error(), h.want) {
			t.Errorf("%s: error\n%v\nwant it to end with\n%s", h.file, e, h.want)
		}
	}
}

// A model without its .bin cannot show its small Consts: the recognizer says which.
func TestCompressedWeightsNoBin(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "ir", "compressed", "int_modes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(bytes.NewReader(data), "int_modes.xml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.CompressedWeights()
	if err == nil || !strings.Contains(err.Error(), "int_modes.xml:") || !strings.Contains(err.Error(), "the model has no .bin") {
		t.Errorf("error %v", err)
	}
}

// FuzzCompressedWeights feeds arbitrary models and constant data to the recognizer. Whatever
// it finds must be consistent (codes Const first, Output among the layers, the element count of
// Shape) and decompress to Decompressed() bytes or fail with an error; its errors must be
// located. Nothing may panic or hang.
func FuzzCompressedWeights(f *testing.F) {
	for _, dir := range []string{"../testdata/ir/compressed", "../testdata/ir/compressed/bad"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
		for _, p := range files {
			x, err1 := os.ReadFile(p)
			b, err2 := os.ReadFile(BinPath(p))
			if err1 == nil && err2 == nil {
				f.Add(x, b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, x, bin []byte) {
		if len(bin) > 1<<16 {
			return
		}
		m, err := fuzzLimits.Parse(bytes.NewReader(x), "f.xml")
		if err != nil {
			return
		}
		m.SetWeights(bytes.NewReader(bin), int64(len(bin)), "f.bin")
		ws, err := m.CompressedWeights()
		if err != nil {
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			for _, e := range es {
				if e.File != "f.xml" {
					t.Fatalf("error without the file: %v", e)
				}
			}
		}
		for i := range ws {
			w := &ws[i]
			if w.Layers[0] != w.Codes || !slices.Contains(w.Layers, w.Output) {
				t.Fatalf("%s: Layers start with %s, Output %s", w.Mode, w.Layers[0].Name, w.Output.Name)
			}
			n := int64(1)
			for _, d := range w.Shape {
				n *= d
			}
			if n != w.Elements {
				t.Fatalf("%s: shape %v holds %d elements, Elements %d", w.Mode, w.Shape, n, w.Elements)
			}
			if d, err := m.DecompressedData(w); err == nil && int64(len(d)) != w.Decompressed() {
				t.Fatalf("%s: %d bytes decompressed, want %d", w.Mode, len(d), w.Decompressed())
			}
		}
		SummarizeCompressed(ws)
	})
}

// chain builds a model Const codes → Convert C → [Subtract (Const zero → Convert C)] →
// Multiply (Const scale, converted to C when of another type; or a Parameter with scale.name
// "param") → Result, with its .bin from consts.
func chain(t testing.TB, codes, zero, scale operand, c element.Type, consts map[string][]byte) *Model {
	t.Helper()
	var b strings.Builder
	bin := []byte{}
	dims := func(d []int64) string {
		var s strings.Builder
		for _, x := range d {
			s.WriteString("<dim>" + strconv.FormatInt(x, 10) + "</dim>")
		}
		return s.String()
	}
	port := func(id int, t element.Type, d []int64) string {
		return `<port id="` + strconv.Itoa(id) + `" precision="` + t.IRPrecision() + `">` + dims(d) + `</port>`
	}
	shape := func(d []int64) string {
		s := make([]string, len(d))
		for i, x := range d {
			s[i] = strconv.FormatInt(x, 10)
		}
		return strings.Join(s, ",")
	}
	id := 0
	layer := func(name, typ, data, in, out string) int {
		b.WriteString(`<layer id="` + strconv.Itoa(id) + `" name="` + name + `" type="` + typ + `" version="opset1">` + data)
		if in != "" {
			b.WriteString("<input>" + in + "</input>")
		}
		b.WriteString("<output>" + out + "</output></layer>\n")
		id++
		return id - 1
	}
	var edges strings.Builder
	edge := func(from, fromPort, to, toPort int) {
		fmt.Fprintf(&edges, `<edge from-layer="%d" from-port="%d" to-layer="%d" to-port="%d"/>`+"\n", from, fromPort, to, toPort)
	}
	konst := func(o operand) int {
		v := consts[o.name]
		data := fmt.Sprintf(`<data element_type="%s" shape="%s" offset="%d" size="%d"/>`, o.t, shape(o.dims), len(bin), len(v))
		bin = append(bin, v...)
		return layer(o.name, "Const", data, "", port(0, o.t, o.dims))
	}
	convert := func(from int, o operand) int {
		l := layer(o.name+"/convert", "Convert", `<data destination_type="`+c.String()+`"/>`, port(0, o.t, o.dims), port(1, c, o.dims))
		edge(from, 0, l, 0)
		return l
	}
	b.WriteString(`<?xml version="1.0"?><net name="chain" version="11"><layers>` + "\n")
	x := convert(konst(codes), codes)
	if zero.name != "" {
		z := konst(zero)
		zp := 0
		if zero.t != c {
			z, zp = convert(z, zero), 1
		}
		s := layer("sub", "Subtract", "", port(0, c, codes.dims)+port(1, c, zero.dims), port(2, c, codes.dims))
		edge(x, 1, s, 0)
		edge(z, zp, s, 1)
		x = s + 1000 // output port 2
	}
	var sc, sp int
	if scale.name == "param" {
		sc = layer("param", "Parameter", `<data shape="`+shape(scale.dims)+`" element_type="`+c.String()+`"/>`, "", port(0, c, scale.dims))
	} else if sc = konst(scale); scale.t != c {
		sc, sp = convert(sc, scale), 1
	}
	mul := layer("mul", "Multiply", "", port(0, c, codes.dims)+port(1, c, scale.dims), port(2, c, codes.dims))
	if x >= 1000 {
		edge(x-1000, 2, mul, 0)
	} else {
		edge(x, 1, mul, 0)
	}
	edge(sc, sp, mul, 1)
	b.WriteString(`<layer id="` + strconv.Itoa(id) + `" name="out" type="Result" version="opset1"><input>` + port(0, c, codes.dims) + "</input></layer>\n")
	edge(mul, 2, id, 0)
	b.WriteString("</layers><edges>\n" + edges.String() + "</edges></net>\n")
	m, err := ParseBytes([]byte(b.String()), bin, "chain.xml")
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if _, err := m.Check(); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return m
}

// Scales and zero points that broadcast along other axes than the group's, and a group
// larger than quant's limit, decompress as the subgraph computes them.
func TestCompressedWeightsBroadcast(t *testing.T) {
	for _, c := range []struct {
		cwCase
		qgroup int
	}{
		// The zero point per row, the scale per group of 4 but shared by every row.
		{cwCase{codes: operandOf("w", u8, 3, 2, 4), zero: operandOf("z", u8, 3, 1, 1), scale: operandOf("s", f16, 1, 2, 1), compute: f16, mode: "int8_asym", group: 4, out: f16}, 4},
		// One f32 scale for 2^21 codes in f32 arithmetic: a group of 2^21 split in two.
		{cwCase{codes: operandOf("w", element.I8, 2048, 1024), scale: operandOf("s", f32), compute: f32, mode: "int8_sym", group: 1 << 21, out: f32}, 1 << 20},
		// A scale per column (a group of 1), a scalar f32 zero point, u4 codes in f32.
		{cwCase{codes: operandOf("w", u4, 2, 6), zero: operandOf("z", f32), scale: operandOf("s", f16, 6), compute: f32, mode: "int4_asym", group: 1, out: f32}, 1},
	} {
		n := 1
		for _, d := range c.codes.dims {
			n *= int(d)
		}
		consts := map[string][]byte{"s": nil}
		switch c.codes.t {
		case u4:
			consts["w"] = nibbles(n, u4Codes)
		default:
			consts["w"] = bytesBy(n, u8Codes)
		}
		ns := 1
		for _, d := range c.scale.dims {
			ns *= int(d)
		}
		if c.scale.t == f16 {
			consts["s"] = f16By(ns, f16Scale)
		} else {
			consts["s"] = f32By(ns, func(int) float32 { return 1.0 / 3 })
		}
		switch c.zero.t {
		case u8:
			consts["z"] = bytesBy(3, u8Zeros)
		case f32:
			consts["z"] = f32By(1, func(int) float32 { return 9 })
		}
		m := chain(t, c.codes, c.zero, c.scale, c.compute, consts)
		ws, err := m.CompressedWeights()
		if err != nil || len(ws) != 1 {
			t.Fatalf("%v: %d weights, %v", c.codes, len(ws), err)
		}
		w := &ws[0]
		if w.Mode != c.mode || w.Group != c.group || w.Scheme.Group != c.qgroup || w.Type != c.out {
			t.Errorf("%v: mode %s group %d scheme %s type %s", c.codes, w.Mode, w.Group, w.Scheme, w.Type)
		}
		got, err := m.DecompressedData(w)
		if err != nil {
			t.Fatal(err)
		}
		want := c.reference(consts)
		for k, v := range valuesOf(c.out, got, n) {
			if math.Float32bits(v) != math.Float32bits(want[k]) {
				t.Errorf("%v: element %d = %g, want %g", c.codes, k, v, want[k])
				break
			}
		}
	}
}

// A Multiply by an activation is not a weight, and no error.
func TestCompressedWeightsActivation(t *testing.T) {
	m := chain(t, operandOf("mask", u8, 2, 3), operand{}, operandOf("param", f32, 2, 3), f32, map[string][]byte{"mask": {0, 1, 1, 0, 1, 0}})
	if ws, err := m.CompressedWeights(); len(ws) != 0 || err != nil {
		t.Errorf("%d weights, %v", len(ws), err)
	}
}

// FuzzCompressedChain builds a Const → Convert → [Subtract] → Multiply chain from the fuzzer's
// bytes (code, zero-point, scale and compute types, shapes that may or may not broadcast, and
// the Consts' bytes) and compares what DecompressedData gives with the reference computed node
// by node from the formulas; a chain that is not recognised must give a located error or none.
func FuzzCompressedChain(f *testing.F) {
	f.Add([]byte{0, 2, 4, 8, 0, 1, 0, 3, 0, 1, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 3, 2, 2, 4, 2, 3, 0, 0, 3, 0, 0, 200, 100, 50, 25})
	f.Add([]byte{6, 2, 3, 5, 0, 0, 1, 0, 2, 1, 0, 1, 0x7F, 0x80, 0x38})
	f.Fuzz(func(t *testing.T, spec []byte) {
		if len(spec) < 12 {
			return
		}
		codeTypes := []element.Type{u8, element.I8, u4, element.I4, element.NF4, element.F4E2M1, element.F8E4M3, element.U2}
		zeroTypes := []element.Type{u8, u4, f16, f32}
		scaleTypes := []element.Type{f16, f32, element.F8E8M0, element.F8E4M3}
		rank := 1 + int(spec[1]%3)
		codes := operandOf("w", codeTypes[int(spec[0])%len(codeTypes)])
		for i := 0; i < rank; i++ {
			codes.dims = append(codes.dims, int64(spec[2+i]%6))
		}
		// A broadcast shape: per axis 1 or the codes' dim (bit set), or a wrong dim (bit 3 of
		// the mode byte), with the leading axes dropped.
		shaped := func(name string, t element.Type, mask, drop byte) operand {
			o := operandOf(name, t)
			for i, d := range codes.dims {
				switch {
				case i < int(drop)%(rank+1):
				case mask>>i&1 == 1:
					o.dims = append(o.dims, d)
				case mask>>(i+4)&1 == 1:
					o.dims = append(o.dims, d+1)
				default:
					o.dims = append(o.dims, 1)
				}
			}
			return o
		}
		var zero operand
		if spec[5]%5 != 0 {
			zero = shaped("z", zeroTypes[int(spec[5]%5)-1], spec[6], spec[7])
		}
		scale := shaped("s", scaleTypes[int(spec[8])%len(scaleTypes)], spec[9], spec[10])
		c := f16
		if spec[11]&1 == 1 {
			c = f32
		}
		data := spec[12:]
		if len(data) == 0 {
			data = []byte{0}
		}
		k := 0
		fill := func(o operand) []byte {
			n := int64(1)
			for _, d := range o.dims {
				n *= d
			}
			size, _ := o.t.ByteSize(n)
			b := make([]byte, size)
			for i := range b {
				b[i] = data[k%len(data)]
				k++
			}
			return b
		}
		consts := map[string][]byte{"w": fill(codes), "s": fill(scale)}
		if zero.name != "" {
			consts["z"] = fill(zero)
		}
		m := chain(t, codes, zero, scale, c, consts)
		ws, err := m.CompressedWeights()
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || es[0].File != "chain.xml" || es[0].Layer == nil || es[0].Line <= 0 {
				t.Fatalf("error not located: %v", err)
			}
		}
		for i := range ws {
			w := &ws[i]
			got, err := m.DecompressedData(w)
			if err != nil {
				t.Fatalf("%s %s: %v", w.Mode, w.Scheme, err)
			}
			cc := cwCase{codes: codes, zero: zero, scale: scale, compute: c, out: c, mode: w.Mode}
			if w.Mode == "fp16" {
				// An f16 zero point or scale converted to f32 in a chain that is not a weight.
				o := map[string]operand{"z": zero, "s": scale}[w.Codes.Name]
				cc = cwCase{codes: o, mode: "fp16", out: f32}
			}
			want := cc.reference(consts)
			for j, v := range valuesOf(cc.out, got, len(want)) {
				if math.Float32bits(v) != math.Float32bits(want[j]) && !(v != v && want[j] != want[j]) {
					t.Fatalf("%s %s codes %v zero %v scale %v: element %d = %g, want %g", w.Mode, w.Scheme, codes, zero, scale, j, v, want[j])
				}
			}
		}
	})
}
