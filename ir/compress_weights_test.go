package ir

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// nncfModelPath is the model CompressWeights' tests compress.
const nncfModelPath = "testdata/ir/nncf_weights.xml"

// nncfWeightValues are deterministic values in (−1, 1) with a different range in every row, so
// that scales, zero points and the sign of symmetric scales vary: row r holds
// sin(0.37·i + r)·(0.25 + (r mod 5)/4) + 0.1·(r mod 3 − 1).
func nncfWeightValues(rows, cols int) []float32 {
	v := make([]float32, rows*cols)
	for r := 0; r < rows; r++ {
		amp := 0.25 + float64(r%5)/4
		off := 0.1 * float64(r%3-1)
		for c := 0; c < cols; c++ {
			v[r*cols+c] = float32(math.Sin(0.37*float64(r*cols+c)+float64(r))*amp + off)
		}
	}
	return v
}

func init() {
	f16 := nncfWeightValues(16, 32)
	testdataBins[nncfModelPath] = map[string][]byte{
		"embed.weight":          le(nncfWeightValues(8, 128)...),
		"embed.axis":            le[int64](0),
		"fc1.weight":            le(nncfWeightValues(32, 128)...),
		"fc2.weight_compressed": f16s(f16...),
	}
}

// nncfSite is one weight of the test model, as the tests expect it compressed.
type nncfSite struct {
	name     string // the weight Const
	consumer string
	port     int
	orig     element.Type
	mode     string
	group    int // −1: per row
}

// expectedSites gives each weight of the test model its mode and group under o, as NNCF chooses
// them: embed.weight is the embedding and fc2 the last MatMul.
func expectedSites(o WeightCompression) []nncfSite {
	mode := strings.ToLower(o.Mode)
	g := o.GroupSize
	if g == 0 {
		g = nncfDefaultGroup(mode)
	}
	s := []nncfSite{
		{"embed.weight", "embed", 0, element.F32, mode, g},
		{"fc1.weight", "fc1", 1, element.F32, mode, g},
		{"fc2.weight_compressed", "fc2", 1, element.F16, mode, g},
	}
	if !o.AllLayers && mode != "int8_asym" && mode != "int8_sym" {
		bm, bg := nncfBackup(mode)
		if bg == 0 {
			bg = g
		}
		for _, i := range []int{0, 2} {
			s[i].mode, s[i].group = bm, bg
		}
	}
	return s
}

// readOriginal returns a weight of the test model as float32 values and its shape.
func readOriginal(t *testing.T, m *Model, name string) ([]float32, []int64) {
	t.Helper()
	ci, data, err := m.ConstData(m.LayerByName(name))
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float32, ci.Elements)
	if err := kernels.Convert(f32View(w), element.F32, data, ci.Type, len(w)); err != nil {
		t.Fatal(err)
	}
	return w, ci.Shape
}

// producerOf returns the layer feeding input port idx (by position) of l.
func producerOf(t *testing.T, m *Model, l *Layer, idx int) *Layer {
	t.Helper()
	if l == nil || idx >= len(l.Inputs) {
		t.Fatalf("no input %d", idx)
	}
	e := m.Producer(l.ID, l.Inputs[idx].ID)
	if e == nil {
		t.Fatalf("%s input %d is not connected", l.Label(), idx)
	}
	return m.Layer(e.FromLayer)
}

// wantLayer checks a layer's type and a <data> attribute, and returns it.
func wantLayer(t *testing.T, l *Layer, typ string, attr, val string) *Layer {
	t.Helper()
	if l == nil || l.Type != typ {
		t.Fatalf("layer %v: want type %s", l, typ)
	}
	if attr != "" {
		if v, _ := l.DataAttr(attr); v != val {
			t.Fatalf("%s: %s=%q, want %q", l.Label(), attr, v, val)
		}
	}
	return l
}

func constBytes(t *testing.T, m *Model, l *Layer, typ element.Type, shape []int64) []byte {
	t.Helper()
	ci, data, err := m.ConstData(l)
	if err != nil {
		t.Fatal(err)
	}
	if ci.Type != typ || shapeAttr(ci.Shape) != shapeAttr(shape) {
		t.Fatalf("%s: %s [%s], want %s [%s]", l.Label(), ci.Type, shapeAttr(ci.Shape), typ, shapeAttr(shape))
	}
	return data
}

func TestCompressWeights(t *testing.T) {
	root := repoRoot(t)
	for _, o := range []WeightCompression{
		{Mode: "int8_asym"}, {Mode: "int8_sym"}, {Mode: "int4_asym"}, {Mode: "INT4_SYM"}, {Mode: "nf4"},
		{Mode: "fp4", GroupSize: 32}, {Mode: "fp8_e4m3", GroupSize: 32}, {Mode: "mxfp4"}, {Mode: "mxfp8_e4m3"},
		{Mode: "nvfp4"}, {Mode: "int4_asym", GroupSize: 32, AllLayers: true}, {Mode: "nvfp4", AllLayers: true},
		{Mode: "int4_sym", GroupSize: -1}, {Mode: "fp4", GroupSize: 16, AllLayers: true},
		// A group as long as fc1's rows: still NNCF's grouped layout, [32, 1, 128] and a Reshape.
		{Mode: "int4_asym", GroupSize: 128}, {Mode: "nf4", GroupSize: 32, AllLayers: true},
	} {
		t.Run(o.Mode+"/"+strconv.Itoa(o.GroupSize)+"/"+pyBool(o.AllLayers), func(t *testing.T) {
			orig, err := Read(filepath.Join(root, nncfModelPath))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Read(filepath.Join(root, nncfModelPath))
			if err != nil {
				t.Fatal(err)
			}
			n, err := CompressWeights(m, o)
			if err != nil {
				t.Fatal(err)
			}
			if n != 3 {
				t.Fatalf("compressed %d weights, want 3", n)
			}
			back := saveAndRead(t, m)
			// The .bin holds exactly the remaining Consts' bytes, none of the replaced weights.
			var sum int64
			for _, l := range back.Layers {
				if l.Type == "Const" {
					ci, err := back.ConstInfo(l)
					if err != nil {
						t.Fatal(err)
					}
					sum += ci.Size
				}
			}
			if size, _, _ := back.weightsSize(); size != sum {
				t.Errorf("the .bin holds %d bytes, its Consts %d", size, sum)
			}
			for _, s := range expectedSites(o) {
				checkSite(t, orig, back, s)
			}
			checkRTInfo(t, back, o)
			// Layers that fed only the old weights are gone: the f32 Consts and the bypassed
			// nothing else (fc2.weight, the decompression Convert, stays: it is f16 → f32).
			if back.LayerByName("fc2.weight") == nil {
				t.Errorf("the decompression Convert fc2.weight was removed")
			}
		})
	}
}

// testModel reads the test model.
func testModel(t *testing.T) *Model {
	t.Helper()
	m, err := Read(filepath.Join(repoRoot(t), nncfModelPath))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// setConst gives the Const name new data of type typ and shape, appended to the model's data.
func setConst(t *testing.T, m *Model, name string, typ element.Type, shape []int64, data []byte) {
	t.Helper()
	k := m.LayerByName(name)
	off, err := m.appendWeights(append([]byte(nil), data...))
	if err != nil {
		t.Fatal(err)
	}
	k.SetDataAttr("element_type", typ.String())
	k.SetDataAttr("shape", shapeAttr(shape))
	k.SetDataAttr("offset", strconv.FormatInt(off, 10))
	k.SetDataAttr("size", strconv.Itoa(len(data)))
	k.Outputs[0].Precision, k.Outputs[0].Dims = typ.IRPrecision(), shape
}

// saveAndRead saves m into a temporary directory, reads it back and checks it.
func saveAndRead(t *testing.T, m *Model) *Model {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.xml")
	if err := m.Save(out); err != nil {
		t.Fatal(err)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := back.Check(); err != nil {
		t.Fatalf("the written model fails Check: %v", err)
	}
	return back
}

// checkSite checks one compressed weight of the written model: the layers, names, types,
// shapes and edges of NNCF's subgraph, the stored values against quant.CompressNNCF, and the
// decompressed values against the original weight.
func checkSite(t *testing.T, orig, m *Model, s nncfSite) {
	t.Helper()
	w, shape := readOriginal(t, orig, s.name)
	rows, cols := int(shape[0]), int(shape[1])
	ref, err := quant.CompressNNCF(w, rows, cols, s.mode, s.group)
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(s.port)
	consumer := m.LayerByName(s.consumer)
	if consumer == nil {
		t.Fatalf("consumer %s missing", s.consumer)
	}
	top := producerOf(t, m, consumer, s.port)
	// f32 weights end in NNCF's final Convert; the f16 weight keeps its decompression Convert,
	// now fed by the f16 subgraph.
	switch s.orig {
	case element.F32:
		if top.Name != s.name+"/fq_weights_"+port+"/convert" {
			t.Fatalf("%s input %d comes from %s", s.consumer, s.port, top.Label())
		}
		wantLayer(t, top, "Convert", "destination_type", "f32")
	case element.F16:
		if top.Name != "fc2.weight" {
			t.Fatalf("%s input %d comes from %s", s.consumer, s.port, top.Label())
		}
		if rt := top.Head; len(rt) == 0 {
			t.Errorf("fc2.weight lost its rt_info")
		}
	}
	x := producerOf(t, m, top, 0)
	grouped := s.group != -1
	if grouped {
		wantLayer(t, x, "Reshape", "special_zero", "false")
		sh := producerOf(t, m, x, 1)
		want := make([]byte, 16)
		binary.LittleEndian.PutUint64(want, uint64(rows))
		binary.LittleEndian.PutUint64(want[8:], uint64(cols))
		if got := constBytes(t, m, sh, element.I64, []int64{2}); string(got) != string(want) {
			t.Errorf("%s: Reshape target % x", s.name, got)
		}
		if d := x.Outputs[0].Dims; shapeAttr(d) != shapeAttr(shape) {
			t.Errorf("%s: Reshape output %v", s.name, d)
		}
		x = producerOf(t, m, x, 0)
	}
	mul := x
	if mul.Name != s.name+"/fq_weights_"+port {
		t.Fatalf("multiply named %q", mul.Name)
	}
	wantLayer(t, mul, "Multiply", "auto_broadcast", "numpy")
	if p, _ := mul.Outputs[0].Type(); p != element.F16 {
		t.Errorf("%s is %s, want f16", mul.Label(), p)
	}
	codeShape, scaleShape := []int64{int64(rows), int64(cols)}, []int64{int64(rows), 1}
	if grouped {
		g := int64(ref.Group)
		codeShape = []int64{int64(rows), int64(cols) / g, g}
		scaleShape = []int64{int64(rows), int64(cols) / g, 1}
	}
	// The codes branch: Const NAME → Convert f16 [→ Subtract with the zero point].
	cb := producerOf(t, m, mul, 0)
	var got quant.Data
	if ref.Scheme.Zero != element.Dynamic {
		if cb.Name != s.name+"/zero_point/subtract" {
			t.Fatalf("subtract named %q", cb.Name)
		}
		wantLayer(t, cb, "Subtract", "auto_broadcast", "numpy")
		zc := wantLayer(t, producerOf(t, m, cb, 1), "Convert", "destination_type", "f16")
		zk := producerOf(t, m, zc, 0)
		if zk.Name != s.name+"/zero_point" {
			t.Fatalf("zero point named %q", zk.Name)
		}
		got.Zeros = constBytes(t, m, zk, ref.Scheme.Zero, scaleShape)
		cb = producerOf(t, m, cb, 0)
	} else if m.LayerByName(s.name+"/zero_point") != nil {
		t.Errorf("%s: a zero point in mode %s", s.name, s.mode)
	}
	wantLayer(t, cb, "Convert", "destination_type", "f16")
	ck := producerOf(t, m, cb, 0)
	if ck.Name != s.name {
		t.Fatalf("codes named %q", ck.Name)
	}
	got.Codes = constBytes(t, m, ck, ref.Scheme.Code, codeShape)
	// The scale branch.
	sb := producerOf(t, m, mul, 1)
	if ref.Scheme.Scale != element.F16 {
		sb = producerOf(t, m, wantLayer(t, sb, "Convert", "destination_type", "f16"), 0)
	}
	if ref.Scheme.Scale2 != element.Dynamic {
		if sb.Name != s.name+"/dequantized_scale_"+port {
			t.Fatalf("second-level multiply named %q", sb.Name)
		}
		wantLayer(t, sb, "Multiply", "auto_broadcast", "numpy")
		s2 := producerOf(t, m, sb, 1)
		if s2.Name != s.name+"/second_order_scale" {
			t.Fatalf("second-order scale named %q", s2.Name)
		}
		got.Scale2 = constBytes(t, m, s2, element.F32, []int64{1, 1, 1})
		sb = producerOf(t, m, wantLayer(t, producerOf(t, m, sb, 0), "Convert", "destination_type", "f32"), 0)
	}
	if sb.Name != s.name+"/scale" {
		t.Fatalf("scale named %q", sb.Name)
	}
	got.Scales = constBytes(t, m, sb, ref.Scheme.Scale, scaleShape)
	for _, f := range []struct {
		what      string
		got, want []byte
	}{{"codes", got.Codes, ref.Data.Codes}, {"scales", got.Scales, ref.Data.Scales}, {"zero points", got.Zeros, ref.Data.Zeros}, {"second-level scale", got.Scale2, ref.Data.Scale2}} {
		if string(f.got) != string(f.want) {
			t.Errorf("%s (%s/%d): %s differ from quant.CompressNNCF", s.name, s.mode, s.group, f.what)
		}
	}
	// Decompress from the written Consts and compare with the original weight.
	n := rows * cols
	dec := make([]float32, n)
	if err := quant.Dequantize(f32View(dec), element.F32, got, ref.Scheme, n); err != nil {
		t.Fatal(err)
	}
	tol := map[string]float64{"int8_asym": 1.0 / 255, "int8_sym": 1.0 / 127, "int4_asym": 1.0 / 15, "int4_sym": 1.0 / 7,
		"nf4": 0.2, "fp4": 0.25, "fp8_e4m3": 1.0 / 16, "mxfp4": 0.5, "mxfp8_e4m3": 1.0 / 8, "nvfp4": 0.25}[s.mode]
	g := ref.Group
	for gi := 0; gi < n/g; gi++ {
		amax := 0.0
		for _, v := range w[gi*g : (gi+1)*g] {
			amax = math.Max(amax, math.Abs(float64(v)))
		}
		for i := gi * g; i < (gi+1)*g; i++ {
			if d := math.Abs(float64(dec[i] - w[i])); d > (tol+1e-3)*amax {
				t.Fatalf("%s (%s): element %d = %v decompresses to %v", s.name, s.mode, i, w[i], dec[i])
			}
		}
	}
}

// checkRTInfo checks the model-level rt_info entries NNCF writes.
func checkRTInfo(t *testing.T, m *Model, o WeightCompression) {
	t.Helper()
	var wc *Node
	for _, x := range m.Extra {
		if x.Kind == ElementNode && x.Name == "rt_info" {
			if n := x.Child("nncf"); n != nil {
				wc = n.Child("weight_compression")
			}
		}
	}
	if wc == nil {
		t.Fatal("no rt_info nncf/weight_compression")
	}
	mode := strings.ToLower(o.Mode)
	g := o.GroupSize
	if g == 0 {
		g = nncfDefaultGroup(mode)
	}
	backup, _ := nncfBackup(mode)
	want := map[string]string{"mode": mode, "group_size": strconv.Itoa(g), "all_layers": pyBool(o.AllLayers), "ratio": "1",
		"backup_mode": backup, "awq": "False", "gptq": "False", "scale_estimation": "False", "lora_correction": "False",
		"ignored_scope": "[]", "sensitivity_metric": "weight_quantization_error", "compression_format": "dequantize",
		"advanced_parameters": nncfAdvancedDefaults}
	prev := ""
	for _, c := range wc.Children {
		v, _ := c.Attr("value")
		if want[c.Name] != v {
			t.Errorf("rt_info %s = %q, want %q", c.Name, v, want[c.Name])
		}
		if c.Name < prev {
			t.Errorf("rt_info %s after %s", c.Name, prev)
		}
		prev = c.Name
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Errorf("rt_info lacks %v", want)
	}
}

// TestCompressWeightsErrors: a group size that does not divide a row names the layer and leaves
// the model unchanged, as do the group sizes a mode does not take.
func TestCompressWeightsErrors(t *testing.T) {
	root := repoRoot(t)
	for _, c := range []struct {
		o    WeightCompression
		want string
	}{
		{WeightCompression{Mode: "fp4"}, "fc2.weight_compressed"}, // backup fp8_e4m3 with group 128 on rows of 32
		{WeightCompression{Mode: "int4_asym", GroupSize: 48}, "layer 4 (fc1.weight)"},
		{WeightCompression{Mode: "int8_asym", GroupSize: 32}, "per-row"},
		{WeightCompression{Mode: "mxfp4", GroupSize: 64}, "only group size 32"},
		{WeightCompression{Mode: "nvfp4", GroupSize: -1}, "only group size 16"},
		{WeightCompression{Mode: "codebook"}, "unknown NNCF mode"},
		{WeightCompression{Mode: "int4_asym", GroupSize: -5}, "group size -5"},
	} {
		m, err := Read(filepath.Join(root, nncfModelPath))
		if err != nil {
			t.Fatal(err)
		}
		before := m.String()
		n, err := CompressWeights(m, c.o)
		if err == nil || n != 0 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %d, %v; want an error naming %q", c.o, n, err, c.want)
		}
		if m.String() != before {
			t.Errorf("%+v: the model changed on an error", c.o)
		}
	}
}

// TestCompressWeightsTransposeBFalse: a MatMul weight stored [in, out] (transpose_b false) is
// compressed along its input axis, as NNCF does: codes [in/G, G, out] (or [in, out] per row) and
// scales [in/G, 1, out] (or [1, out]), holding the transpose of what the [out, in] weight gives.
func TestCompressWeightsTransposeBFalse(t *testing.T) {
	root := repoRoot(t)
	for _, o := range []WeightCompression{{Mode: "int4_asym", GroupSize: 32}, {Mode: "int8_sym"}, {Mode: "nvfp4", AllLayers: true}, {Mode: "nf4", GroupSize: 64}, {Mode: "int4_sym", GroupSize: 128}} {
		m, err := Read(filepath.Join(root, nncfModelPath))
		if err != nil {
			t.Fatal(err)
		}
		// fc1 takes its weight [128, 32] untransposed.
		w, _ := readOriginal(t, m, "fc1.weight")
		wt := transposeF32(w, 32, 128)
		setConst(t, m, "fc1.weight", element.F32, []int64{128, 32}, f32View(wt))
		fc1 := m.LayerByName("fc1")
		fc1.SetDataAttr("transpose_b", "false")
		fc1.Inputs[1].Dims = []int64{128, 32}
		if _, err := m.Check(); err != nil {
			t.Fatal(err)
		}
		if _, err := CompressWeights(m, o); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		back := saveAndRead(t, m)
		g := o.GroupSize
		if g == 0 {
			g = nncfDefaultGroup(strings.ToLower(o.Mode))
		}
		ref, err := quant.CompressNNCF(w, 32, 128, o.Mode, g)
		if err != nil {
			t.Fatal(err)
		}
		codeShape, scaleShape := []int64{128 / int64(ref.Group), int64(ref.Group), 32}, []int64{128 / int64(ref.Group), 1, 32}
		if g == -1 {
			codeShape, scaleShape = []int64{128, 32}, []int64{1, 32}
		}
		ng := 128 / ref.Group
		got := quant.Data{
			Codes:  transposePacked(constBytes(t, back, back.LayerByName("fc1.weight"), ref.Scheme.Code, codeShape), ref.Scheme.Code.Bits(), 128, 32),
			Scales: transposePacked(constBytes(t, back, back.LayerByName("fc1.weight/scale"), ref.Scheme.Scale, scaleShape), ref.Scheme.Scale.Bits(), ng, 32),
		}
		if ref.Scheme.Zero != element.Dynamic {
			got.Zeros = transposePacked(constBytes(t, back, back.LayerByName("fc1.weight/zero_point"), ref.Scheme.Zero, scaleShape), ref.Scheme.Zero.Bits(), ng, 32)
		}
		if ref.Scheme.Scale2 != element.Dynamic {
			got.Scale2 = constBytes(t, back, back.LayerByName("fc1.weight/second_order_scale"), element.F32, []int64{1, 1, 1})
		}
		if string(got.Codes) != string(ref.Data.Codes) || string(got.Scales) != string(ref.Data.Scales) ||
			string(got.Zeros) != string(ref.Data.Zeros) || string(got.Scale2) != string(ref.Data.Scale2) {
			t.Errorf("%+v: the stored Consts are not the transpose of quant.CompressNNCF's", o)
		}
		if g != -1 {
			rs := back.LayerByName("fc1.weight/fq_weights_1/convert")
			if rs == nil || producerOf(t, back, rs, 0).Type != "Reshape" || shapeAttr(producerOf(t, back, rs, 0).Outputs[0].Dims) != "128, 32" {
				t.Errorf("%+v: no Reshape to [128, 32]", o)
			}
		}
	}
}

func TestTransposePacked(t *testing.T) {
	// 2×3 u4 matrix [[1 2 3] [4 5 6]] → [[1 4] [2 5] [3 6]].
	if got := transposePacked([]byte{0x21, 0x43, 0x65}, 4, 2, 3); string(got) != string([]byte{0x41, 0x52, 0x63}) {
		t.Errorf("u4: % x", got)
	}
	if got := transposePacked([]byte{1, 0, 2, 0, 3, 0, 4, 0}, 16, 2, 2); string(got) != string([]byte{1, 0, 3, 0, 2, 0, 4, 0}) {
		t.Errorf("16-bit: % x", got)
	}
	if got := transposePacked([]byte{1, 2, 3, 4, 5, 6}, 8, 3, 2); string(got) != string([]byte{1, 3, 5, 2, 4, 6}) {
		t.Errorf("8-bit: % x", got)
	}
}

// TestCompressWeightsTwice: the weights of a compressed model reach their consumers through
// Multiply, so a second compression finds none and changes nothing.
func TestCompressWeightsTwice(t *testing.T) {
	m := testModel(t)
	if n, err := CompressWeights(m, WeightCompression{Mode: "int4_sym"}); err != nil || n != 3 {
		t.Fatalf("%d, %v", n, err)
	}
	before := m.String()
	if n, err := CompressWeights(m, WeightCompression{Mode: "fp8_e4m3", GroupSize: 32}); err != nil || n != 0 {
		t.Fatalf("second compression: %d, %v", n, err)
	}
	if m.String() != before {
		t.Error("the second compression changed the model")
	}
}

// TestCompressWeightsNaN: a NaN weight is an error naming its Const, and the model is unchanged.
func TestCompressWeightsNaN(t *testing.T) {
	m := testModel(t)
	w, _ := readOriginal(t, m, "fc1.weight")
	w[77] = float32(math.NaN())
	setConst(t, m, "fc1.weight", element.F32, []int64{32, 128}, f32View(w))
	before := m.String()
	n, err := CompressWeights(m, WeightCompression{Mode: "int4_sym"})
	if err == nil || n != 0 || !strings.Contains(err.Error(), "layer 4 (fc1.weight)") || !strings.Contains(err.Error(), "[0, 77] is NaN") {
		t.Errorf("%d, %v", n, err)
	}
	if m.String() != before {
		t.Error("the model changed")
	}
}

// TestCompressWeightsBF16: a bf16 weight feeding its MatMul directly gets NNCF's final Convert
// to bf16, and the values are those of the bf16 weight widened to float32.
func TestCompressWeightsBF16(t *testing.T) {
	m := testModel(t)
	w, _ := readOriginal(t, m, "fc1.weight")
	bf := make([]byte, 2*len(w))
	if err := kernels.Convert(bf, element.BF16, f32View(w), element.F32, len(w)); err != nil {
		t.Fatal(err)
	}
	setConst(t, m, "fc1.weight", element.BF16, []int64{32, 128}, bf)
	m.LayerByName("fc1").Inputs[1].Precision = "BF16"
	if n, err := CompressWeights(m, WeightCompression{Mode: "int4_asym"}); err != nil || n != 3 {
		t.Fatalf("%d, %v", n, err)
	}
	back := saveAndRead(t, m)
	cv := back.LayerByName("fc1.weight/fq_weights_1/convert")
	if cv == nil || producerOf(t, back, back.LayerByName("fc1"), 1) != cv {
		t.Fatal("fc1 is not fed by fc1.weight/fq_weights_1/convert")
	}
	wantLayer(t, cv, "Convert", "destination_type", "bf16")
	if p, _ := cv.Outputs[0].Type(); p != element.BF16 {
		t.Errorf("the final Convert's output is %s", p)
	}
	wb := make([]float32, len(w))
	if err := kernels.Convert(f32View(wb), element.F32, bf, element.BF16, len(w)); err != nil {
		t.Fatal(err)
	}
	ref, err := quant.CompressNNCF(wb, 32, 128, "int4_asym", 128)
	if err != nil {
		t.Fatal(err)
	}
	if got := constBytes(t, back, back.LayerByName("fc1.weight"), element.U4, []int64{32, 1, 128}); string(got) != string(ref.Data.Codes) {
		t.Error("codes differ from quant.CompressNNCF of the bf16 values")
	}
}

// TestCompressWeightsCorpus runs CompressWeights on every model of testdata/ir, hostile ones
// included: an error or a count, never a panic, and a model that still checks when it did.
func TestCompressWeightsCorpus(t *testing.T) {
	root := repoRoot(t)
	paths, _ := filepath.Glob(filepath.Join(root, "testdata", "ir", "*.xml"))
	more, _ := filepath.Glob(filepath.Join(root, "testdata", "ir", "*", "*.xml"))
	paths = append(paths, more...)
	if len(paths) < 10 {
		t.Fatalf("only %d models", len(paths))
	}
	for _, p := range paths {
		for _, mode := range []string{"int4_asym", "nvfp4"} {
			m, err := Read(p)
			if err != nil {
				continue
			}
			_, checkErr := m.Check()
			n, err := CompressWeights(m, WeightCompression{Mode: mode})
			if err == nil && n > 0 && checkErr == nil {
				if _, err := m.Check(); err != nil {
					t.Errorf("%s (%s): compressed model fails Check: %v", p, mode, err)
				}
			}
		}
	}
}
