package ir

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"github.com/x448/float16"
)

// refF16 is the f16 (bits) that compress-to-f16 gives for the f32 value v, written from the
// rules of OpenVINO's x86 convert_from_f32_to_f16_with_clamp: NaN → 65504 (vminps returns its
// second operand for a NaN), beyond ±65504 → ±65504, otherwise IEEE 754 round to nearest even
// (x448/float16, an independent implementation).
func refF16(v float32) uint16 {
	switch {
	case v != v || v > 65504:
		return 0x7BFF
	case v < -65504:
		return 0xFBFF
	}
	return float16.Fromfloat32(v).Bits()
}

// refF16From64 is the same for an f64 value, after OpenVINO's f64 element loop: NaN stays NaN,
// beyond ±65504 → ±65504, otherwise f64 → f32 → f16, each to nearest even.
func refF16From64(v float64) uint16 {
	switch {
	case v != v:
		return 0x7E00
	case v > 65504:
		return 0x7BFF
	case v < -65504:
		return 0xFBFF
	}
	return float16.Fromfloat32(float32(v)).Bits()
}

func isF16NaN(b uint16) bool { return b&0x7C00 == 0x7C00 && b&0x3FF != 0 }

// f16Probes are f32 values around every f16 boundary: each finite f16 value, the midpoints
// between neighbours and the f32 values next to them, the overflow threshold, the subnormal
// range below 2^-24, infinities and NaN.
func f16Probes() []float32 {
	var vs []float32
	for b := 0; b < 0x7C00; b++ {
		v := float16.Frombits(uint16(b)).Float32()
		next := float16.Frombits(uint16(b + 1)).Float32()
		mid := v + (next-v)/2 // exact: f16 neighbours are 11 significant bits
		if b == 0x7BFF {
			mid = 65520 // where RNE would overflow to Inf
		}
		for _, x := range []float32{v, mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, 1e9)} {
			vs = append(vs, x, -x)
		}
	}
	vs = append(vs, 0x1p-25, 0x1p-26, math.Nextafter32(0x1p-25, 1), 1e-45, math.MaxFloat32, 65504.01, 70000,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Copysign(math.NaN(), -1)))
	return vs
}

// compressF16 is what CompressToF16 does with the n values of type t (f32 or f64) in raw: nil
// and false when they stay as they are, else their f16 bytes.
func compressF16(raw []byte, t element.Type, n int64) ([]byte, bool, error) {
	if keepF32(clampF16(raw, t, false), n) {
		return nil, false, nil
	}
	dst := make([]byte, 2*n)
	err := toF16(dst, raw, make([]byte, 4*n), t, int(n))
	return dst, err == nil, err
}

// padded appends three zeros per value, so that at most 25% of the values are out of f16's
// range and the Const is compressed whatever the values.
func padded[T float32 | float64](vs []T) []T {
	return append(slices.Clone(vs), make([]T, 3*len(vs))...)
}

// TestCompressF16Values: every value near an f16 boundary, as f32 and as f64, converts as
// refF16 and refF16From64 say.
func TestCompressF16Values(t *testing.T) {
	vs := padded(f16Probes())
	got, ok, err := compressF16(le(vs...), element.F32, int64(len(vs)))
	if err != nil || !ok {
		t.Fatalf("f32: ok %v, err %v", ok, err)
	}
	for i, v := range vs {
		if g, w := binary.LittleEndian.Uint16(got[2*i:]), refF16(v); g != w {
			t.Errorf("f32 %g (%#08x): got f16 %#04x, want %#04x", v, math.Float32bits(v), g, w)
		}
	}
	v64 := make([]float64, len(vs))
	for i, v := range vs {
		v64[i] = float64(v)
	}
	// Values that f64 → f32 rounds: ties of f16 only after that rounding (double rounding),
	// beyond f32's range, and below f32's subnormals.
	v64 = append(v64, 1+0x1p-11+0x1p-40, 1+0x1p-11-0x1p-40, 1e300, -1e300, 65519.999, 0x1p-30, 1e-320,
		math.Inf(1), math.Inf(-1), math.NaN(), 1.0/3)
	v64 = padded(v64)
	got, ok, err = compressF16(le(v64...), element.F64, int64(len(v64)))
	if err != nil || !ok {
		t.Fatalf("f64: ok %v, err %v", ok, err)
	}
	for i, v := range v64 {
		g, w := binary.LittleEndian.Uint16(got[2*i:]), refF16From64(v)
		if g != w && !(isF16NaN(g) && isF16NaN(w)) {
			t.Errorf("f64 %g: got f16 %#04x, want %#04x", v, g, w)
		}
	}
	// The double rounding is OpenVINO's: 1 + 2^-11 + 2^-40 rounds to 1 + 2^-11 in f32, a tie
	// that f16 rounds to even, 1.0; a single rounding would give 1 + 2^-10.
	if w := refF16From64(1 + 0x1p-11 + 0x1p-40); w != 0x3C00 {
		t.Errorf("reference: 1+2^-11+2^-40 → %#04x, want 0x3c00", w)
	}
}

// TestCompressF16Threshold: a Const stays when at least 75% of its values are out of f16's
// range, counted as OpenVINO counts them.
func TestCompressF16Threshold(t *testing.T) {
	out := []float32{70000, -70000, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-8, -1e-8, 0x1p-25, math.MaxFloat32}
	in := []float32{0, float32(math.Copysign(0, -1)), 1, 65504, -65504, 0x1p-24, -0x1p-24, float32(math.NaN())}
	for _, c := range []struct {
		out, in int
		keep    bool
	}{
		{3, 1, true}, {2, 2, false}, {4, 0, true}, {0, 4, false}, {6, 2, true}, {5, 3, false},
		{75, 25, true}, {74, 26, false}, {76, 24, true}, {1, 0, true}, {0, 1, false}, {2, 1, false},
	} {
		var vs []float32
		for i := range c.out {
			vs = append(vs, out[i%len(out)])
		}
		for i := range c.in {
			vs = append(vs, in[i%len(in)])
		}
		_, ok, err := compressF16(le(vs...), element.F32, int64(len(vs)))
		if err != nil || ok == c.keep {
			t.Errorf("f32: %d out of range, %d in range: compressed %v, want %v (err %v)", c.out, c.in, ok, !c.keep, err)
		}
		v64 := make([]float64, len(vs))
		for i, v := range vs {
			v64[i] = float64(v)
		}
		if _, ok, err := compressF16(le(v64...), element.F64, int64(len(v64))); err != nil || ok == c.keep {
			t.Errorf("f64: %d out of range, %d in range: compressed %v, want %v (err %v)", c.out, c.in, ok, !c.keep, err)
		}
	}
	// f64 values are counted as f64: 65504 + 2^-20 is out of range though f32 rounds it to 65504,
	// and 2^-24·(1-2^-30) is below 2^-24 though f32 rounds it to 2^-24.
	for _, v := range []float64{65504 + 0x1p-20, 0x1p-24 * (1 - 0x1p-30)} {
		if _, ok, _ := compressF16(le[float64](v, v, v, 1), element.F64, 4); ok {
			t.Errorf("f64 %v ×3 + 1: compressed, want kept", v)
		}
	}
	// The share is a float32 division: above 2^24 elements the counts round first.
	for _, c := range []struct {
		out, n int64
		keep   bool
	}{
		{3, 4, true}, {2, 4, false}, {74, 100, false}, {75, 100, true},
		{3 << 22, 1<<24 + 1, true}, // 12582912/16777217 < 0.75, but float32(16777217) = 2^24
		{3<<22 - 1, 1 << 24, false},
		{3 << 23, 1<<25 + 2, true}, // float32(2^25+2) = 2^25 (a tie, to even)
		{3<<23 - 2, 1 << 25, false},
	} {
		if got := keepF32(c.out, c.n); got != c.keep {
			t.Errorf("keepF32(%d, %d) = %v, want %v", c.out, c.n, got, c.keep)
		}
	}
}

// builderPort is one port of a test layer; builderOut an output port that feeds an input.
type builderPort struct {
	id    int64
	t     element.Type
	dims  []int64
	names string
}

type builderOut struct {
	layer, port int64
	t           element.Type
	dims        []int64
}

type builderLayer struct {
	id             int64
	name, typ, ver string
	data           [][2]string
	rt             []string
	in, out        []builderPort
}

// irBuilder builds a test model: layers, edges and the .bin.
type irBuilder struct {
	layers []builderLayer
	edges  [][4]int64
	bin    []byte
}

func (g *irBuilder) add(l builderLayer) int64 {
	l.id = int64(len(g.layers))
	g.layers = append(g.layers, l)
	return l.id
}

func builderDims(d []int64) string {
	s := make([]string, len(d))
	for i, x := range d {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func (g *irBuilder) konst(name string, t element.Type, dims []int64, data []byte, rt ...string) builderOut {
	off := len(g.bin)
	g.bin = append(g.bin, data...)
	id := g.add(builderLayer{name: name, typ: "Const", ver: "opset1", rt: rt,
		data: [][2]string{{"element_type", t.String()}, {"shape", builderDims(dims)}, {"offset", fmt.Sprint(off)}, {"size", fmt.Sprint(len(data))}},
		out:  []builderPort{{0, t, dims, name}}})
	return builderOut{id, 0, t, dims}
}

func (g *irBuilder) param(name string, t element.Type, dims []int64) builderOut {
	id := g.add(builderLayer{name: name, typ: "Parameter", ver: "opset1",
		data: [][2]string{{"shape", builderDims(dims)}, {"element_type", t.String()}},
		out:  []builderPort{{0, t, dims, name}}})
	return builderOut{id, 0, t, dims}
}

// op adds a layer of type typ with inputs ins (ports 0..n-1) and one output (port n).
func (g *irBuilder) op(typ, ver, name string, data [][2]string, t element.Type, dims []int64, ins ...builderOut) builderOut {
	l := builderLayer{name: name, typ: typ, ver: ver, data: data}
	for i, in := range ins {
		l.in = append(l.in, builderPort{int64(i), in.t, in.dims, ""})
	}
	n := int64(len(ins))
	l.out = []builderPort{{n, t, dims, name}}
	id := g.add(l)
	for i, in := range ins {
		g.edges = append(g.edges, [4]int64{in.layer, in.port, id, int64(i)})
	}
	return builderOut{id, n, t, dims}
}

func (g *irBuilder) result(in builderOut) {
	id := g.add(builderLayer{name: fmt.Sprintf("result%d", len(g.layers)), typ: "Result", ver: "opset1", in: []builderPort{{0, in.t, in.dims, ""}}})
	g.edges = append(g.edges, [4]int64{in.layer, in.port, id, 0})
}

func (g *irBuilder) xml() []byte {
	var b bytes.Buffer
	port := func(p builderPort) {
		fmt.Fprintf(&b, `<port id="%d" precision="%s"`, p.id, p.t.IRPrecision())
		if p.names != "" {
			fmt.Fprintf(&b, ` names="%s"`, p.names)
		}
		b.WriteString(">")
		for _, d := range p.dims {
			fmt.Fprintf(&b, "<dim>%d</dim>", d)
		}
		b.WriteString("</port>\n")
	}
	b.WriteString("<?xml version=\"1.0\"?>\n<net name=\"test\" version=\"11\">\n<layers>\n")
	for _, l := range g.layers {
		fmt.Fprintf(&b, `<layer id="%d" name="%s" type="%s" version="%s">`+"\n", l.id, l.name, l.typ, l.ver)
		if l.data != nil {
			b.WriteString("<data")
			for _, a := range l.data {
				fmt.Fprintf(&b, ` %s="%s"`, a[0], a[1])
			}
			b.WriteString(" />\n")
		}
		if len(l.rt) > 0 {
			b.WriteString("<rt_info>\n")
			for _, a := range l.rt {
				if name, value, ok := strings.Cut(a, "="); ok {
					fmt.Fprintf(&b, `<attribute name="%s" version="0" value="%s" />`+"\n", name, value)
				} else {
					fmt.Fprintf(&b, `<attribute name="%s" version="0" />`+"\n", a)
				}
			}
			b.WriteString("</rt_info>\n")
		}
		if len(l.in) > 0 {
			b.WriteString("<input>\n")
			for _, p := range l.in {
				port(p)
			}
			b.WriteString("</input>\n")
		}
		if len(l.out) > 0 {
			b.WriteString("<output>\n")
			for _, p := range l.out {
				port(p)
			}
			b.WriteString("</output>\n")
		}
		b.WriteString("</layer>\n")
	}
	b.WriteString("</layers>\n<edges>\n")
	for _, e := range g.edges {
		fmt.Fprintf(&b, `<edge from-layer="%d" from-port="%d" to-layer="%d" to-port="%d" />`+"\n", e[0], e[1], e[2], e[3])
	}
	b.WriteString("</edges>\n</net>\n")
	return b.Bytes()
}

func (g *irBuilder) model(t *testing.T) *Model {
	t.Helper()
	m, err := ParseBytes(g.xml(), g.bin, "test.xml")
	if err != nil {
		t.Fatalf("%v\n%s", err, g.xml())
	}
	if _, err := m.Check(); err != nil {
		t.Fatalf("%v\n%s", err, g.xml())
	}
	return m
}

var (
	f32s4 = le[float32](1, 2, 3, 4)
	dims4 = []int64{4}
)

// TestCompressF16Excluded: what stays as it is, one kind at a time, beside an f32 Const that is
// compressed.
func TestCompressF16Excluded(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(g *irBuilder) // adds the Const "keep" (if any) and what it feeds
		field func(r F16Report) []string
	}{
		{"i64", func(g *irBuilder) { g.result(g.konst("keep", element.I64, []int64{2}, make([]byte, 16))) }, nil},
		{"f16", func(g *irBuilder) { g.result(g.konst("keep", element.F16, []int64{2}, make([]byte, 4))) }, nil},
		{"bf16", func(g *irBuilder) { g.result(g.konst("keep", element.BF16, []int64{2}, make([]byte, 4))) }, nil},
		{"precise", func(g *irBuilder) { g.result(g.konst("keep", element.F32, dims4, f32s4, "precise")) }, func(r F16Report) []string { return r.Precise }},
		{"precise f64", func(g *irBuilder) {
			g.result(g.konst("keep", element.F64, []int64{1}, le[float64](1), "fused_names=a", "precise"))
		}, func(r F16Report) []string { return r.Precise }},
		{"empty", func(g *irBuilder) { g.result(g.konst("keep", element.F32, []int64{0, 3}, nil)) }, func(r F16Report) []string { return r.Empty }},
		{"out of range", func(g *irBuilder) {
			g.result(g.konst("keep", element.F32, dims4, le[float32](1e5, 1e-9, float32(math.Inf(-1)), 0)))
		}, func(r F16Report) []string { return r.OutOfRange }},
		{"out of range f64", func(g *irBuilder) {
			g.result(g.konst("keep", element.F64, dims4, le[float64](1e5, 1e-9, math.Inf(-1), 0)))
		}, func(r F16Report) []string { return r.OutOfRange }},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &irBuilder{}
			g.result(g.konst("w", element.F32, dims4, f32s4))
			c.build(g)
			m := g.model(t)
			before := m.LayerByName("keep")
			var beforeXML []byte
			if before != nil {
				beforeXML = layerXML(t, m, before)
			}
			rep, err := CompressToF16Report(m)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rep.Compressed, []string{"w"}) {
				t.Errorf("compressed %q, want [w]", rep.Compressed)
			}
			if c.field != nil && !slices.Equal(c.field(rep), []string{"keep"}) {
				t.Errorf("report %+v does not list keep where expected", rep)
			}
			if after := m.LayerByName("keep"); after == nil || !bytes.Equal(layerXML(t, m, after), beforeXML) {
				t.Errorf("keep changed:\n%s\nwas\n%s", layerXML(t, m, after), beforeXML)
			}
		})
	}
}

// writtenXML is the model as Write writes it.
func writtenXML(t *testing.T, m *Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// layerXML writes the model and returns the text of layer l.
func layerXML(t *testing.T, m *Model, l *Layer) []byte {
	t.Helper()
	s := string(writtenXML(t, m))
	i := strings.Index(s, fmt.Sprintf(`<layer id="%d" `, l.ID))
	if i < 0 {
		t.Fatalf("layer %d not writtenXML", l.ID)
	}
	j := strings.Index(s[i:], "</layer>")
	return []byte(s[i : i+j])
}

// TestCompressF16ShapePaths: a Const that reaches a precision-sensitive input, directly or
// through other layers, stays f32 and is marked precise, and so are integer Consts on that
// path; ShapeOf ends the path, and inputs that are not precision-sensitive do not start one.
func TestCompressF16ShapePaths(t *testing.T) {
	type sens struct {
		typ, ver string
		n        int   // inputs
		marked   []int // precision-sensitive inputs
	}
	for _, s := range []sens{
		{"Reshape", "opset1", 2, []int{1}},
		{"Broadcast", "opset3", 3, []int{1}},
		{"Tile", "opset1", 2, []int{1}},
		{"TopK", "opset11", 2, []int{1}},
		{"OneHot", "opset1", 4, []int{1}},
		{"Pad", "opset12", 4, []int{1, 2}},
		{"StridedSlice", "opset1", 4, []int{1, 2, 3}},
		{"BatchToSpace", "opset2", 4, []int{1, 2, 3}},
		{"SpaceToBatch", "opset2", 4, []int{1, 2, 3}},
		{"ConvolutionBackpropData", "opset1", 3, []int{2}},
		{"GroupConvolutionBackpropData", "opset1", 3, []int{2}},
		{"Interpolate", "opset1", 2, []int{1}},
		{"Interpolate", "opset4", 4, []int{1, 2}},
		{"Interpolate", "opset11", 3, []int{1}},
		{"Unsqueeze", "opset1", 2, nil},
		{"Squeeze", "opset1", 2, nil},
		{"Transpose", "opset1", 2, nil},
		{"Gather", "opset8", 3, nil},
		{"ReduceMean", "opset1", 2, nil},
		{"Slice", "opset8", 4, nil},
	} {
		t.Run(s.typ+"-"+s.ver, func(t *testing.T) {
			g := &irBuilder{}
			var ins []builderOut
			for i := range s.n {
				// Input i: f32 Const "cI" → Convert to i64 → the operator.
				c := g.konst(fmt.Sprintf("c%d", i), element.F32, dims4, f32s4)
				ins = append(ins, g.op("Convert", "opset1", fmt.Sprintf("c%d/i64", i), [][2]string{{"destination_type", "i64"}}, element.I64, dims4, c))
			}
			g.result(g.op(s.typ, s.ver, "op", nil, element.F32, dims4, ins...))
			m := g.model(t)
			rep, err := CompressToF16Report(m)
			if err != nil {
				t.Fatal(err)
			}
			var wantKept, wantComp []string
			for i := range s.n {
				if slices.Contains(s.marked, i) {
					wantKept = append(wantKept, fmt.Sprintf("c%d", i))
				} else {
					wantComp = append(wantComp, fmt.Sprintf("c%d", i))
				}
			}
			if !slices.Equal(rep.ShapePath, wantKept) || !slices.Equal(rep.Compressed, wantComp) {
				t.Errorf("shape path %q, compressed %q; want %q, %q", rep.ShapePath, rep.Compressed, wantKept, wantComp)
			}
			for _, name := range wantKept {
				if l := m.LayerByName(name); l.Type != "Const" || !hasRTAttr(l, "precise") {
					t.Errorf("%s: %s, precise %v; want a Const marked precise", name, l.Type, hasRTAttr(l, "precise"))
				}
			}
		})
	}

	// ShapeOf ends the walk: Reshape(x, Concat(Gather(ShapeOf(Multiply(x, w)), idx), k)):
	// k (i64) and idx (i64) are marked, w (f32, behind ShapeOf) is compressed.
	g := &irBuilder{}
	x := g.param("x", element.F32, dims4)
	w := g.konst("w", element.F32, dims4, f32s4)
	mul := g.op("Multiply", "opset1", "mul", nil, element.F32, dims4, x, w)
	shp := g.op("ShapeOf", "opset3", "shape", nil, element.I64, []int64{1}, mul)
	idx := g.konst("idx", element.I64, []int64{1}, make([]byte, 8))
	gat := g.op("Gather", "opset8", "dim", nil, element.I64, []int64{1}, shp, idx, g.konst("axis", element.I64, nil, make([]byte, 8)))
	k := g.konst("k", element.I64, []int64{1}, le[int64](1))
	cat := g.op("Concat", "opset1", "target", [][2]string{{"axis", "0"}}, element.I64, []int64{2}, gat, k)
	g.result(g.op("Reshape", "opset1", "r", [][2]string{{"special_zero", "false"}}, element.F32, []int64{4, 1}, x, cat))
	m := g.model(t)
	rep, err := CompressToF16Report(m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Compressed, []string{"w"}) || len(rep.ShapePath) != 0 {
		t.Errorf("compressed %q, shape path %q; want [w], []", rep.Compressed, rep.ShapePath)
	}
	for name, want := range map[string]bool{"idx": true, "axis": true, "k": true, "w_compressed": false} {
		if got := hasRTAttr(m.LayerByName(name), "precise"); got != want {
			t.Errorf("%s: precise %v, want %v", name, got, want)
		}
	}
}

// TestCompressF16Graph: the rewritten graph on testdata/ir/f32_weights.xml, written, read back
// and evaluated: each compressed weight evaluates to f32(f16(clamp(v))), and the Consts left as
// they are keep their values.
func TestCompressF16Graph(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "ir", "f32_weights.xml")
	m, err := Read(src)
	if err != nil {
		t.Fatal(err)
	}
	before := len(m.Layers)
	rep, err := CompressToF16Report(m)
	if err != nil {
		t.Fatal(err)
	}
	want := F16Report{Compressed: []string{"matmul_weight", "embedding"}, Precise: []string{"precise_bias"},
		ShapePath: []string{"reshape_shape"}, OutOfRange: []string{"big_scale"}}
	if fmt.Sprint(rep) != fmt.Sprint(want) {
		t.Errorf("report %+v, want %+v", rep, want)
	}
	if len(m.Layers) != before+2 {
		t.Errorf("%d layers, want %d", len(m.Layers), before+2)
	}
	for _, name := range want.Compressed {
		conv, c := m.LayerByName(name), m.LayerByName(name+"_compressed")
		if conv == nil || c == nil {
			t.Fatalf("%s: Convert %v, Const %v", name, conv, c)
		}
		if conv.Type != "Convert" || c.Type != "Const" {
			t.Errorf("%s is a %s and %s_compressed a %s", name, conv.Type, name, c.Type)
		}
		if v, _ := conv.DataAttr("destination_type"); v != "f32" || !hasRTAttr(conv, "decompression") {
			t.Errorf("%s: destination_type %q, decompression %v", name, v, hasRTAttr(conv, "decompression"))
		}
		if v, _ := c.DataAttr("element_type"); v != "f16" || hasRTAttr(c, "decompression") {
			t.Errorf("%s_compressed: element_type %q", name, v)
		}
		if out := conv.Outputs[0]; out.ID != 1 || out.Names != name || out.Precision != "FP32" {
			t.Errorf("%s: output port %d %q %q, want 1 %q FP32", name, out.ID, out.Names, out.Precision, name)
		}
		if i := slices.Index(m.Layers, c); i < 0 || m.Layers[i+1] != conv {
			t.Errorf("%s_compressed is not just before %s", name, name)
		}
		if e := m.Producer(conv.ID, 0); e == nil || e.FromLayer != c.ID || e.FromPort != 0 {
			t.Errorf("%s is not fed by %s_compressed", name, name)
		}
	}
	if e := m.Producer(m.LayerByName("matmul").ID, 1); e == nil || e.FromLayer != m.LayerByName("matmul_weight").ID || e.FromPort != 1 {
		t.Errorf("matmul input 1 comes from %+v", e)
	}
	if !hasRTAttr(m.LayerByName("reshape_shape"), "precise") {
		t.Error("reshape_shape is not marked precise")
	}

	if err := m.CompactWeights(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "f16.xml")
	if err := m.Save(out); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(BinPath(out))
	if err != nil {
		t.Fatal(err)
	}
	// f16 matmul_weight and embedding, then the kept bias, ids, axis, shape and big_scale.
	if wantSize := 2*12 + 12 + 2*20 + 16 + 8 + 8 + 16; len(bin) != wantSize {
		t.Errorf("OUT.bin holds %d bytes, want %d", len(bin), wantSize)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := back.Check(); err != nil {
		t.Fatal(err)
	}
	res, err := back.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string][]byte{}
	for _, o := range res.Outputs {
		vals[o.Name] = o.Tensor.Bytes()
	}
	for name, raw := range map[string][]byte{"matmul_weight": f32WeightsConsts["matmul_weight"], "embedding": f32WeightsConsts["embedding"]} {
		got := vals[name]
		if len(got) != len(raw) {
			t.Fatalf("%s: %d bytes evaluated, want %d", name, len(got), len(raw))
		}
		for i := 0; i < len(raw); i += 4 {
			v := math.Float32frombits(binary.LittleEndian.Uint32(raw[i:]))
			w := float16.Frombits(refF16(v)).Float32()
			if g := math.Float32frombits(binary.LittleEndian.Uint32(got[i:])); g != w {
				t.Errorf("%s[%d] = %g evaluates to %g, want f32(f16(clamp)) = %g", name, i/4, v, g, w)
			}
		}
	}
	for _, name := range []string{"precise_bias", "reshape_shape", "big_scale", "ids", "gather_axis"} {
		_, data, err := back.ConstData(back.LayerByName(name))
		if err != nil || !bytes.Equal(data, f32WeightsConsts[name]) {
			t.Errorf("%s: data %x, want %x (%v)", name, data, f32WeightsConsts[name], err)
		}
	}

	// Compressing again changes nothing: the f16 Consts are not f32, the rest is kept.
	rep2, err := CompressToF16Report(back)
	if err != nil || len(rep2.Compressed) != 0 {
		t.Errorf("second compression: %+v, %v", rep2, err)
	}
}

// TestCompressF16RTInfo: the Convert keeps the Const's layer rt_info and port rt_info and
// names, and the f16 Const has none.
func TestCompressF16RTInfo(t *testing.T) {
	g := &irBuilder{}
	c := g.konst("w", element.F64, dims4, le[float64](1, 2, 3, 4), "fused_names=w,x", "old_api_map_order=0")
	g.result(c)
	g.result(c)
	xml := bytes.Replace(g.xml(), []byte(`names="w"><dim>4</dim></port>`),
		[]byte(`names="w,w:0"><dim>4</dim><rt_info><attribute name="layout" version="0" layout="[N]" /></rt_info></port>`), 1)
	m, err := ParseBytes(xml, g.bin, "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CompressToF16(m); err != nil {
		t.Fatal(err)
	}
	conv, f16c := m.LayerByName("w"), m.LayerByName("w_compressed")
	got := string(layerXML(t, m, conv))
	for _, want := range []string{`type="Convert" version="opset1"`, `destination_type="f64"`,
		`name="fused_names" version="0" value="w,x"`, `name="old_api_map_order"`, `name="decompression" version="0"`,
		`precision="FP64" names="w,w:0"`, `layout="[N]"`} {
		if !strings.Contains(got, want) {
			t.Errorf("Convert lacks %s:\n%s", want, got)
		}
	}
	if s := string(layerXML(t, m, f16c)); strings.Contains(s, "rt_info") || strings.Contains(s, "names=") {
		t.Errorf("f16 Const has rt_info or names:\n%s", s)
	}
	n := 0
	for _, e := range m.Edges {
		if e.FromLayer == conv.ID && e.FromPort == 1 {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d edges leave the Convert, want 2 (both Results)", n)
	}
}

// optimizedGraph is a model with an f32 Const beside the weight pattern built by weights; the
// Const is compressed unless the pattern makes the model "optimized".
func optimizedGraph(t *testing.T, weights func(g *irBuilder) builderOut) *Model {
	g := &irBuilder{}
	g.result(g.konst("f", element.F32, dims4, f32s4))
	g.result(weights(g))
	return g.model(t)
}

// TestCompressF16Optimized: a model that holds compressed weights is left unchanged, as
// OpenVINO's is_model_optimized decides.
func TestCompressF16Optimized(t *testing.T) {
	cvt := func(g *irBuilder, in builderOut, to element.Type) builderOut {
		return g.op("Convert", "opset1", fmt.Sprintf("cvt%d", len(g.layers)), [][2]string{{"destination_type", to.String()}}, to, in.dims, in)
	}
	codes := func(g *irBuilder, t element.Type) builderOut {
		n, _ := t.ByteSize(4)
		return g.konst("codes", t, dims4, make([]byte, n))
	}
	scale := func(g *irBuilder, t element.Type) builderOut {
		n, _ := t.ByteSize(1)
		return g.konst("scale", t, []int64{1}, make([]byte, n))
	}
	mul := func(g *irBuilder, a, b builderOut) builderOut {
		return g.op("Multiply", "opset1", "mul", nil, element.F16, dims4, a, b)
	}
	// plain is Const codes → Convert to → Multiply by a Const scale of type to.
	plain := func(codeType, to element.Type) func(g *irBuilder) builderOut {
		return func(g *irBuilder) builderOut { return mul(g, cvt(g, codes(g, codeType), to), scale(g, to)) }
	}
	for _, c := range []struct {
		name      string
		weights   func(g *irBuilder) builderOut
		optimized bool
	}{
		{"u8 zp Convert", func(g *irBuilder) builderOut {
			w := cvt(g, codes(g, element.U8), element.F16)
			zp := cvt(g, g.konst("zp", element.U8, []int64{1}, []byte{8}), element.F16)
			return mul(g, g.op("Subtract", "opset1", "sub", nil, element.F16, dims4, w, zp), scale(g, element.F16))
		}, true},
		{"u4 zp Const, scale first", func(g *irBuilder) builderOut {
			w := cvt(g, codes(g, element.U4), element.F16)
			zp := g.konst("zp", element.F16, []int64{1}, make([]byte, 2))
			return mul(g, scale(g, element.F16), g.op("Subtract", "opset1", "sub", nil, element.F16, dims4, w, zp))
		}, true},
		{"i4 no zp", plain(element.I4, element.F16), true},
		{"i8 f32", plain(element.I8, element.F32), true},
		{"nf4", plain(element.NF4, element.F16), true},
		{"f8e4m3", plain(element.F8E4M3, element.F16), true},
		{"f8e5m2", plain(element.F8E5M2, element.F16), true},
		{"FakeQuantize", func(g *irBuilder) builderOut {
			x := g.param("x", element.F32, dims4)
			lo, hi := g.konst("lo", element.F32, nil, le[float32](0)), g.konst("hi", element.F32, nil, le[float32](1))
			return g.op("FakeQuantize", "opset1", "fq", [][2]string{{"levels", "256"}}, element.F32, dims4, x, lo, hi, lo, hi)
		}, true},
		{"FakeConvert", func(g *irBuilder) builderOut {
			x := g.param("x", element.F32, dims4)
			return g.op("FakeConvert", "opset13", "fc", nil, element.F32, dims4, x, g.konst("s", element.F32, nil, le[float32](1)))
		}, true},
		// Not matched: f4e2m1 codes; an f8e8m0 scale behind a Convert (MX); a u8 weight
		// multiplied by a Parameter; Subtract with the zero point first; f16 codes.
		{"f4e2m1", plain(element.F4E2M1, element.F16), false},
		{"MX scale", func(g *irBuilder) builderOut {
			return mul(g, cvt(g, codes(g, element.U8), element.F16), cvt(g, scale(g, element.F8E8M0), element.F16))
		}, false},
		{"Parameter scale", func(g *irBuilder) builderOut {
			return mul(g, cvt(g, codes(g, element.U8), element.F16), g.param("s", element.F16, []int64{1}))
		}, false},
		{"zp first", func(g *irBuilder) builderOut {
			w := cvt(g, codes(g, element.U8), element.F16)
			zp := g.konst("zp", element.F16, []int64{1}, make([]byte, 2))
			return mul(g, g.op("Subtract", "opset1", "sub", nil, element.F16, dims4, zp, w), scale(g, element.F16))
		}, false},
		{"f16 codes", plain(element.F16, element.F16), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := optimizedGraph(t, c.weights)
			before := writtenXML(t, m)
			rep, err := CompressToF16Report(m)
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Optimized != ""; got != c.optimized {
				t.Errorf("optimized %q, want %v", rep.Optimized, c.optimized)
			}
			if c.optimized && (len(rep.Compressed) != 0 || !bytes.Equal(before, writtenXML(t, m))) {
				t.Errorf("an optimized model changed: %+v", rep)
			}
			if !c.optimized && !slices.Equal(rep.Compressed, []string{"f"}) {
				t.Errorf("compressed %q, want [f]", rep.Compressed)
			}
		})
	}
}

// TestCompressF16Errors: a Const whose data is missing is an error naming it, and the model is
// left unchanged.
func TestCompressF16Errors(t *testing.T) {
	g := &irBuilder{}
	g.result(g.konst("a", element.F32, dims4, f32s4))
	g.result(g.konst("b", element.F32, dims4, f32s4))
	m, err := ParseBytes(g.xml(), g.bin[:20], "test.xml") // b's data runs past the end
	if err != nil {
		t.Fatal(err)
	}
	before := writtenXML(t, m)
	_, err = CompressToF16(m)
	if err == nil || !strings.Contains(err.Error(), "(b)") {
		t.Fatalf("err %v, want one naming b", err)
	}
	if !bytes.Equal(before, writtenXML(t, m)) || len(m.appended) != 0 {
		t.Error("the model changed on error")
	}
}

// TestCompressF16F64Run: an f64 Const becomes f16 → Convert f64, which Run evaluates to
// f64(f16(clamp(v))).
func TestCompressF16F64Run(t *testing.T) {
	vs := []float64{0.1, -1e300, 1 + 0x1p-11 + 0x1p-40, math.NaN(), 1e-30, 2, 3, 4}
	g := &irBuilder{}
	g.result(g.konst("w", element.F64, []int64{8}, le(vs...)))
	m := g.model(t)
	if n, err := CompressToF16(m); n != 1 || err != nil {
		t.Fatalf("compressed %d, %v", n, err)
	}
	res, err := m.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outputs) != 1 || res.Outputs[0].Name != "w" {
		t.Fatalf("outputs %+v", res.Outputs)
	}
	got := res.Outputs[0].Tensor.Bytes()
	for i, v := range vs {
		g := math.Float64frombits(binary.LittleEndian.Uint64(got[8*i:]))
		w := float64(float16.Frombits(refF16From64(v)).Float32())
		if g != w && !(g != g && w != w) {
			t.Errorf("w[%d] = %g evaluates to %g, want %g", i, v, g, w)
		}
	}
}

// TestF16DataReadAt: every read of the lazily computed f16 data, at any offset and length
// (odd ones, across segments and chunks, past the end), equals the f16 bytes computed at once.
func TestF16DataReadAt(t *testing.T) {
	head := []byte("head")
	a := []float32{1, -2, 70000, float32(math.NaN()), 0.1}
	b := []float64{1e300, 0.5, -0.25}
	big := make([]float32, f16Chunk+5)
	for i := range big {
		big[i] = float32(i) / 7
	}
	src := append(append(append(append([]byte(nil), head...), le(a...)...), le(b...)...), le(big...)...)
	d := &f16Data{src: bytes.NewReader(src), base: int64(len(head)), segs: []f16Segment{
		{at: 0, from: 4, n: 5, t: element.F32},
		{at: 10, from: 24, n: 3, t: element.F64},
		{at: 16, from: 48, n: int64(len(big)), t: element.F32},
		{at: 16 + 2*int64(len(big)), from: 4, n: 5, t: element.F32}, // a again
	}}
	d.size = 16 + 2*int64(len(big)) + 10
	var want []byte
	want = append(want, head...)
	for _, part := range [][]byte{le(a...), le(b...), le(big...), le(a...)} {
		t := element.F32
		if len(part) == 24 {
			t = element.F64
		}
		f, _, err := compressForce(part, t)
		if err != nil {
			panic(err)
		}
		want = append(want, f...)
	}
	if int64(len(want)) != d.base+d.size {
		t.Fatalf("reference holds %d bytes, data %d", len(want), d.base+d.size)
	}
	check := func(off, n int) {
		p := make([]byte, n)
		got, err := d.ReadAt(p, int64(off))
		wantN := max(0, min(n, len(want)-off))
		if got != wantN || !bytes.Equal(p[:got], want[off:off+wantN]) || (err == io.EOF) != (wantN < n) || err != nil && err != io.EOF {
			t.Fatalf("ReadAt(%d bytes, %d) = %d, %v; want %d bytes", n, off, got, err, wantN)
		}
	}
	for off := 0; off < 40; off++ {
		for n := 0; n < 40; n++ {
			check(off, n)
		}
	}
	edge := int(d.base) + 16 + 2*f16Chunk // the chunk boundary inside big
	for _, off := range []int{edge - 3, edge - 2, edge - 1, edge, edge + 1, len(want) - 12, len(want) - 11, len(want) - 1, len(want)} {
		for _, n := range []int{1, 2, 3, 7, 64} {
			check(off, n)
		}
	}
	check(0, len(want))
	check(1, len(want)+3)
}

// compressForce converts raw to f16 as CompressToF16 does, whatever the share out of range.
func compressForce(raw []byte, t element.Type) ([]byte, bool, error) {
	n := len(raw) * 8 / t.Bits()
	dst := make([]byte, 2*n)
	return dst, true, toF16(dst, bytes.Clone(raw), make([]byte, 4*n), t, n)
}

// TestCompressF16Memory: compressing a 32 MiB f32 Const and saving the model allocates a few
// chunks, not the data: the f16 data is computed a chunk at a time as the .bin is written.
func TestCompressF16Memory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("writes 48 MiB; allocation counts need a build without -race")
	}
	const n = 8 << 20
	vs := make([]float32, n)
	for i := range vs {
		vs[i] = float32(i%1000) / 3
	}
	g := &irBuilder{}
	g.result(g.konst("w", element.F32, []int64{n}, le(vs...)))
	dir := t.TempDir()
	src := filepath.Join(dir, "big.xml")
	if err := os.WriteFile(src, g.xml(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(BinPath(src), g.bin, 0o644); err != nil {
		t.Fatal(err)
	}
	g, vs = nil, nil
	m, err := Read(src)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "f16.xml")
	alloc := testkit.Allocated(func() {
		if _, err = CompressToF16(m); err == nil {
			if err = m.CompactWeights(); err == nil {
				err = m.Save(out)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 4<<20 {
		t.Errorf("compress and save allocated %d bytes, want at most 4 MiB for 32 MiB of f32", alloc)
	}
	if fi, err := os.Stat(BinPath(out)); err != nil || fi.Size() != 2*n {
		t.Errorf("OUT.bin: %v, %v; want %d bytes", fi, err, 2*n)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	_, data, err := back.ConstData(back.LayerByName("w_compressed"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 4099 {
		v := float32(i%1000) / 3
		if got := binary.LittleEndian.Uint16(data[2*i:]); got != refF16(v) {
			t.Fatalf("w[%d] = %g: f16 %#04x, want %#04x", i, v, got, refF16(v))
		}
	}
}

// TestCompressF16SharedRanges: Consts over the same range share their f16 data; Consts over
// overlapping ranges whose f16 data would exceed the model's data are an error naming the
// first Const beyond, and the model is left unchanged.
func TestCompressF16SharedRanges(t *testing.T) {
	g := &irBuilder{}
	a := g.konst("a", element.F32, dims4, f32s4)
	g.result(a)
	xml := g.xml()
	// b, c and d read a's bytes: b the same range, c its last three values, d its last two.
	i := bytes.Index(xml, []byte(`<layer id="0" name="a"`))
	j := bytes.Index(xml[i:], []byte("</layer>")) + i + len("</layer>\n")
	b := strings.NewReplacer(`id="0"`, `id="7"`, `"a"`, `"b"`).Replace(string(xml[i:j]))
	c := strings.NewReplacer(`id="0"`, `id="8"`, `"a"`, `"c"`, `shape="4"`, `shape="3"`, `offset="0"`, `offset="4"`,
		`size="16"`, `size="12"`, "<dim>4</dim>", "<dim>3</dim>").Replace(string(xml[i:j]))
	shared := append(append(append([]byte(nil), xml[:j]...), b...), xml[j:]...)
	m, err := ParseBytes(shared, g.bin, "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := CompressToF16(m); n != 2 || err != nil {
		t.Fatalf("compressed %d, %v", n, err)
	}
	offA, _ := m.LayerByName("a_compressed").DataAttr("offset")
	offB, _ := m.LayerByName("b_compressed").DataAttr("offset")
	if size, _, _ := m.weightsSize(); offA != offB || size != 16+8 {
		t.Errorf("offsets %s, %s, data %d bytes; want one f16 range after the 16 bytes", offA, offB, size)
	}

	d := strings.NewReplacer(`id="0"`, `id="9"`, `"a"`, `"d"`, `shape="4"`, `shape="2"`, `offset="0"`, `offset="8"`,
		`size="16"`, `size="8"`, "<dim>4</dim>", "<dim>2</dim>").Replace(string(xml[i:j]))
	// a, c and d need 8 + 6 + 4 bytes of f16 data, more than the 16 bytes they come from.
	overlapping := append(append(append(append([]byte(nil), shared[:j]...), c...), d...), shared[j:]...)
	m, err = ParseBytes(overlapping, g.bin, "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	before := writtenXML(t, m)
	if _, err := CompressToF16(m); err == nil || !strings.Contains(err.Error(), "(d)") || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("err %v, want one naming d and the overlap", err)
	}
	if after := writtenXML(t, m); !bytes.Equal(before, after) {
		t.Errorf("the model changed on error:\n%s\n%s", before, after)
	}
}

// loopF32 is a model whose Loop body holds an f32 Const w (data at 0) feeding an Add and a
// Reshape with an f32 shape Const s (data at 16); the top level has an f32 Const top (data at
// 24). inner is the type of the body's Add (FakeQuantize makes the model "optimized").
func loopF32(inner string) string {
	return `<?xml version="1.0"?>
<net name="loop_f32" version="11">
<layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="4" element_type="f32"/><output><port id="0" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="1" name="loop" type="Loop" version="opset5"><data/>
<input><port id="0" precision="FP32"><dim>4</dim></port></input>
<output><port id="1" precision="FP32"><dim>2</dim><dim>2</dim></port></output>
<port_map><input external_port_id="0" internal_layer_id="0"/><output external_port_id="1" internal_layer_id="6"/></port_map>
<back_edges/>
<body><layers>
<layer id="0" name="xb" type="Parameter" version="opset1"><data shape="4" element_type="f32"/><output><port id="0" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="1" name="w" type="Const" version="opset1"><data element_type="f32" shape="4" offset="0" size="16"/><output><port id="0" precision="FP32" names="w"><dim>4</dim></port></output></layer>
<layer id="2" name="add" type="` + inner + `" version="opset1"><input><port id="0" precision="FP32"><dim>4</dim></port><port id="1" precision="FP32"><dim>4</dim></port></input><output><port id="2" precision="FP32"><dim>4</dim></port></output></layer>
<layer id="3" name="s" type="Const" version="opset1"><data element_type="f32" shape="2" offset="16" size="8"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="4" name="s64" type="Convert" version="opset1"><data destination_type="i64"/><input><port id="0" precision="FP32"><dim>2</dim></port></input><output><port id="1" precision="I64"><dim>2</dim></port></output></layer>
<layer id="5" name="r" type="Reshape" version="opset1"><data special_zero="false"/><input><port id="0" precision="FP32"><dim>4</dim></port><port id="1" precision="I64"><dim>2</dim></port></input><output><port id="2" precision="FP32"><dim>2</dim><dim>2</dim></port></output></layer>
<layer id="6" name="rb" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim><dim>2</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="5" to-port="0"/>
<edge from-layer="3" from-port="0" to-layer="4" to-port="0"/>
<edge from-layer="4" from-port="1" to-layer="5" to-port="1"/>
<edge from-layer="5" from-port="2" to-layer="6" to-port="0"/>
</edges></body></layer>
<layer id="2" name="out" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim><dim>2</dim></port></input></layer>
<layer id="3" name="top" type="Const" version="opset1"><data element_type="f32" shape="1" offset="24" size="4"/><output><port id="0" precision="FP32" names="top"><dim>1</dim></port></output></layer>
<layer id="4" name="top_out" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>1</dim></port></input></layer>
</layers>
<edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
<edge from-layer="3" from-port="0" to-layer="4" to-port="0"/>
</edges>
</net>
`
}

// TestCompressF16Body: Consts inside a Loop body are compressed and marked as at the top
// level, as OpenVINO's passes do in subgraphs; a FakeQuantize inside a body makes the model
// "optimized".
func TestCompressF16Body(t *testing.T) {
	bin := le[float32](0.1, 0.2, 70000, 4, 2, 2, 0.5)
	m, err := ParseBytes([]byte(loopF32("Add")), bin, "loop.xml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := CompressToF16Report(m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Compressed, []string{"w", "top"}) || !slices.Equal(rep.ShapePath, []string{"s"}) {
		t.Fatalf("report %+v", rep)
	}
	if _, err := m.Check(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "loop_f16.xml")
	if err := m.CompactWeights(); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(out); err != nil {
		t.Fatal(err)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := back.Check(); err != nil {
		t.Fatal(err)
	}
	body, err := back.Body(back.LayerByName("loop"))
	if err != nil || body == nil {
		t.Fatalf("body: %v", err)
	}
	conv, c := body.LayerByName("w"), body.LayerByName("w_compressed")
	if conv == nil || c == nil || conv.Type != "Convert" || !hasRTAttr(conv, "decompression") || !hasRTAttr(body.LayerByName("s"), "precise") {
		t.Fatalf("body not rewritten:\n%s", body.String())
	}
	_, data, err := body.ConstData(c)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []float32{0.1, 0.2, 70000, 4} {
		if got := binary.LittleEndian.Uint16(data[2*i:]); got != refF16(v) {
			t.Errorf("w[%d] = %g: f16 %#04x, want %#04x", i, v, got, refF16(v))
		}
	}
	_, s, err := body.ConstData(body.LayerByName("s"))
	if err != nil || !bytes.Equal(s, le[float32](2, 2)) {
		t.Errorf("s: %x, %v", s, err)
	}

	m, err = ParseBytes([]byte(loopF32("FakeQuantize")), bin, "loop.xml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err = CompressToF16Report(m)
	if err != nil || !strings.Contains(rep.Optimized, "FakeQuantize in the body of layer 1 (loop)") || len(rep.Compressed) != 0 {
		t.Errorf("FakeQuantize in a body: %+v, %v", rep, err)
	}
}
