package ir

import (
	"bytes"
	"encoding/binary"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/nncfref"
	"github.com/convertpromote/convertpromote/kernels"
)

// integerModel builds NNCF's IntegerModel test model (tests/openvino/native/models.py) with the
// weights NNCF draws for it: Input [1, dim2, 1] → Convert i64 → Gather_1 (index 0, axis 0) →
// Gather_2 on gather_2_data [3, dim3] → Gather_3 (index 2) → MatMul_1 with matmul_1_data
// [dim3, dim3]; Input → Gather_4 (index 0, axis 2) → MatMul_2 with matmul_2_data [dim3, dim2];
// Add_1 → Result. Both MatMuls have transpose_b true.
func integerModel(t *testing.T, dim2, dim3 int) *Model {
	t.Helper()
	ws := nncfref.IntegerModelWeights(dim2, dim3)
	m := &Model{File: "IntegerModel.xml", Name: "IntegerModel", Version: 11}
	var bin bytes.Buffer
	var id int64
	port := func(i int64, t element.Type, dims ...int64) *Port {
		return &Port{ID: i, Precision: t.IRPrecision(), Dims: dims}
	}
	add := func(name, typ, version string, data []Attr, in []*Layer, out *Port) *Layer {
		l := &Layer{ID: id, Name: name, Type: typ, Version: version, HasOutput: out != nil, HasInput: len(in) > 0}
		id++
		if data != nil {
			l.Data = &Node{Kind: ElementNode, Name: "data", Attrs: data}
		}
		for i, p := range in {
			o := p.Outputs[0]
			l.Inputs = append(l.Inputs, &Port{ID: int64(i), Precision: o.Precision, Dims: o.Dims})
			m.Edges = append(m.Edges, &Edge{FromLayer: p.ID, FromPort: o.ID, ToLayer: l.ID, ToPort: int64(i)})
		}
		if out != nil {
			out.ID = int64(len(in))
			l.Outputs = []*Port{out}
		}
		m.Layers = append(m.Layers, l)
		return l
	}
	konst := func(name string, t element.Type, data []byte, dims ...int64) *Layer {
		off := bin.Len()
		bin.Write(data)
		return add(name, "Const", "opset1", []Attr{{"element_type", t.String()}, {"shape", shapeAttr(dims)},
			{"offset", itoa64(int64(off))}, {"size", itoa64(int64(len(data)))}}, nil, port(0, t, dims...))
	}
	i64 := func(name string, v int64) *Layer {
		return konst(name, element.I64, binary.LittleEndian.AppendUint64(nil, uint64(v)))
	}
	weight := func(name string) *Layer {
		w := ws[name]
		return konst(name, element.F32, f32View(w.V), int64(w.Rows), int64(w.Cols))
	}
	d2, d3 := int64(dim2), int64(dim3)
	gather := []Attr{{"batch_dims", "0"}}
	mm := []Attr{{"transpose_a", "false"}, {"transpose_b", "true"}}
	input := add("Input", "Parameter", "opset1", []Attr{{"shape", "1, " + itoa64(d2) + ", 1"}, {"element_type", "f32"}}, nil, port(0, element.F32, 1, d2, 1))
	conv := add("Convert_1", "Convert", "opset1", []Attr{{"destination_type", "i64"}}, []*Layer{input}, port(0, element.I64, 1, d2, 1))
	g1 := add("Gather_1", "Gather", "opset8", gather, []*Layer{conv, i64("Constant_1", 0), i64("Constant_2", 0)}, port(0, element.I64, d2, 1))
	g2 := add("Gather_2", "Gather", "opset8", gather, []*Layer{weight("gather_2_data"), g1, i64("Constant_3", 0)}, port(0, element.F32, d2, 1, d3))
	g3 := add("Gather_3", "Gather", "opset8", gather, []*Layer{g2, i64("Constant_4", 2), i64("Constant_5", 0)}, port(0, element.F32, 1, d3))
	m1 := add("MatMul_1", "MatMul", "opset1", mm, []*Layer{g3, weight("matmul_1_data")}, port(0, element.F32, 1, d3))
	g4 := add("Gather_4", "Gather", "opset8", gather, []*Layer{input, i64("Constant_6", 0), i64("Constant_7", 2)}, port(0, element.F32, 1, d2))
	m2 := add("MatMul_2", "MatMul", "opset1", mm, []*Layer{g4, weight("matmul_2_data")}, port(0, element.F32, 1, d3))
	sum := add("Add_1", "Add", "opset1", []Attr{{"auto_broadcast", "numpy"}}, []*Layer{m1, m2}, port(0, element.F32, 1, d3))
	add("Result", "Result", "opset1", nil, []*Layer{sum}, nil)
	m.SetWeights(bytes.NewReader(bin.Bytes()), int64(bin.Len()), "IntegerModel.bin")
	return m
}

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

// TestCompressWeightsNNCFReference compresses NNCF's IntegerModel as NNCF's
// test_compare_compressed_weights does and compares the written Consts, shapes and values, with
// NNCF's reference files (quant/testdata/nncf): the layout of the subgraph as well as its data.
func TestCompressWeightsNNCFReference(t *testing.T) {
	for _, c := range nncfref.Cases {
		t.Run(c.Mode, func(t *testing.T) {
			ref, err := nncfref.Reference(filepath.Join(repoRoot(t), "quant", "testdata", "nncf"), c.Mode)
			if err != nil {
				t.Fatal(err)
			}
			m := integerModel(t, c.Dim2, c.Dim3)
			if _, err := m.Check(); err != nil {
				t.Fatal(err)
			}
			n, err := CompressWeights(m, WeightCompression{Mode: c.Mode, GroupSize: c.Group})
			if err != nil || n != 3 {
				t.Fatalf("%d, %v", n, err)
			}
			back := saveAndRead(t, m)
			for name, fields := range ref {
				for field, want := range fields {
					lname := map[string]string{"compressed_weight": name, "scale": name + "/scale",
						"zero_point": name + "/zero_point", "sec_order_scale": name + "/second_order_scale"}[field]
					l := back.LayerByName(lname)
					if l == nil {
						t.Errorf("%s: no Const %s", field, lname)
						continue
					}
					ci, data, err := back.ConstData(l)
					if err != nil {
						t.Fatal(err)
					}
					if shapeAttr(ci.Shape) != shapeAttr(intsTo64(want.Shape)) {
						t.Errorf("%s: shape [%s], reference [%s]", lname, shapeAttr(ci.Shape), shapeAttr(intsTo64(want.Shape)))
						continue
					}
					got := make([]float64, ci.Elements)
					switch {
					case field == "scale" && (ci.Type == element.F8E8M0 || ci.Type == element.F8E4M3):
						for i, b := range data { // the reference holds these scales' raw bytes
							got[i] = float64(b)
						}
					default: // through f16, as the reference holds codes
						h := make([]byte, 2*ci.Elements)
						f := make([]float32, ci.Elements)
						if ci.Type == element.F32 {
							copy(f32View(f), data)
						} else if err := kernels.Convert(h, element.F16, data, ci.Type, int(ci.Elements)); err != nil {
							t.Fatal(err)
						} else if err := kernels.Convert(f32View(f), element.F32, h, element.F16, len(f)); err != nil {
							t.Fatal(err)
						}
						for i, v := range f {
							got[i] = float64(v)
						}
					}
					for i := range got {
						if got[i] != want.Values[i] && !(math.IsNaN(got[i]) && math.IsNaN(want.Values[i])) {
							t.Errorf("%s[%d] = %v, reference %v", lname, i, got[i], want.Values[i])
							break
						}
					}
				}
				if _, ok := fields["zero_point"]; !ok && back.LayerByName(name+"/zero_point") != nil {
					t.Errorf("%s has a zero point, the reference none", name)
				}
			}
		})
	}
}

func intsTo64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}
