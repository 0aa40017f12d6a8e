package ir

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// compressedFixtures are the repository's models with compressed weights: every fixture in
// testdata/ir/compressed and eval_ops.xml.
func compressedFixtures(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "ir", "compressed", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/ir/compressed: %v", err)
	}
	return append(files, filepath.Join("..", "testdata", "ir", "eval_ops.xml"))
}

// runOutputs evaluates m and returns the bytes of every output Run computes by output name,
// and those of output port 0 of every computed layer by layer name.
func runOutputs(t *testing.T, m *Model) (byName, byLayer map[string][]byte) {
	t.Helper()
	res, err := m.Run(nil)
	if err != nil {
		t.Fatalf("%s: run: %v", m.File, err)
	}
	byName, byLayer = map[string][]byte{}, map[string][]byte{}
	for _, o := range res.Outputs {
		byName[o.Name] = o.Tensor.Bytes()
		if _, seen := byLayer[o.Layer.Name]; !seen {
			byLayer[o.Layer.Name] = o.Tensor.Bytes()
		}
	}
	return byName, byLayer
}

// runByLayer is the second result of runOutputs.
func runByLayer(t *testing.T, m *Model) map[string][]byte {
	t.Helper()
	_, l := runOutputs(t, m)
	return l
}

// constBytes returns the data of the Const named name in m, and its type.
func constDataByName(t *testing.T, m *Model, name string) ([]byte, element.Type) {
	t.Helper()
	l := m.LayerByName(name)
	if l == nil || l.Type != "Const" {
		t.Fatalf("%s: no Const named %q (got %v)", m.File, name, l)
	}
	ci, b, err := m.ConstData(l)
	if err != nil {
		t.Fatal(err)
	}
	return b, ci.Type
}

// TestDecompressEqualsRun: for every fixture, each weight's DecompressedData is what Run
// computes for the subgraph's last layer; Decompress writes it into one Const of that name; the
// written model checks, holds no layer of any subgraph that fed only the weight, and runs to
// the same values for every output both models compute.
func TestDecompressEqualsRun(t *testing.T) {
	compared := 0 // outputs computed by both models: the consumers run computes (Gather, ...)
	for _, file := range compressedFixtures(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			m, ws := readWeights(t, file)
			before, ran := runOutputs(t, m)
			want := map[string][]byte{}
			for i := range ws {
				w := &ws[i]
				got, err := m.DecompressedData(w)
				if err != nil {
					t.Fatalf("%s: %v", w.Output.Name, err)
				}
				r, ok := ran[w.Output.Name]
				if !ok {
					t.Fatalf("run did not compute %s", w.Output.Label())
				}
				if !bytes.Equal(got, r) {
					t.Errorf("%s (%s): DecompressedData differs from run", w.Output.Name, w.Mode)
				}
				want[w.Output.Name] = r
			}
			d, out := decompressChecked(t, m, DecompressOptions{}, len(ws))
			if left, err := d.CompressedWeights(); err != nil || len(left) != 0 {
				t.Errorf("the decompressed model still has %d compressed weights (%v)", len(left), err)
			}
			for name, w := range want {
				got, _ := constDataByName(t, d, name)
				if !bytes.Equal(got, w) {
					t.Errorf("Const %s differs from run of the original", name)
				}
			}
			after, _ := runOutputs(t, d)
			for name, b := range after {
				if a, ok := before[name]; ok {
					compared++
					if !bytes.Equal(a, b) {
						t.Errorf("output %s differs after decompress", name)
					}
				}
			}
			// The new .bin holds only what the Consts use.
			fi, err := os.Stat(BinPath(out))
			if err != nil {
				t.Fatal(err)
			}
			var used int64
			seen := map[[2]int64]bool{}
			for _, l := range d.Layers {
				if l.Type != "Const" {
					continue
				}
				ci, err := d.ConstInfo(l)
				if err != nil {
					t.Fatal(err)
				}
				if !seen[[2]int64{ci.Offset, ci.Size}] {
					seen[[2]int64{ci.Offset, ci.Size}] = true
					used += ci.Size
				}
			}
			if fi.Size() != used {
				t.Errorf("the new .bin has %d bytes, the Consts use %d", fi.Size(), used)
			}
			// Decompress left m as the written model.
			if len(m.Layers) != len(d.Layers) || m.String() != d.String() {
				t.Error("m is not the written model after Decompress")
			}
		})
	}
	if compared == 0 {
		t.Error("no fixture has a consumer that run computes in both models")
	}
}

// TestDecompressTo: with To set, each weight is kernels.Convert of the decompressed weight into
// a Const NAME_compressed of that type, followed by a Convert NAME back to the weight's type
// (with the decompression rt_info from f16 or bf16 to f32), or one Const NAME when To is the
// weight's type; run of the Convert gives kernels.Convert of the Const back.
func TestDecompressTo(t *testing.T) {
	for _, file := range compressedFixtures(t) {
		for _, to := range []element.Type{element.F32, element.F16, element.BF16} {
			t.Run(filepath.Base(file)+"/"+to.String(), func(t *testing.T) {
				m, ws := readWeights(t, file)
				want := map[string][]byte{}
				for i := range ws {
					w := &ws[i]
					data, err := m.DecompressedData(w)
					if err != nil {
						t.Fatal(err)
					}
					conv := make([]byte, int(w.Elements)*to.Bits()/8)
					if err := kernels.Convert(conv, to, data, w.Type, int(w.Elements)); err != nil {
						t.Fatal(err)
					}
					want[w.Output.Name] = conv
				}
				d, _ := decompressChecked(t, m, DecompressOptions{To: to}, len(ws))
				ran := runByLayer(t, d)
				for i := range ws {
					w := &ws[i]
					name := w.Output.Name
					if to == w.Type {
						got, ct := constDataByName(t, d, name)
						if ct != to || !bytes.Equal(got, want[name]) {
							t.Errorf("%s: Const %s holds other values", name, ct)
						}
						continue
					}
					got, ct := constDataByName(t, d, name+"_compressed")
					if ct != to || !bytes.Equal(got, want[name]) {
						t.Errorf("%s_compressed: Const %s holds other values than kernels.Convert to %s", name, ct, to)
					}
					cv := d.LayerByName(name)
					if cv == nil || cv.Type != "Convert" {
						t.Fatalf("no Convert %s after the Const", name)
					}
					if dt, _ := cv.DataAttr("destination_type"); dt != w.Type.String() {
						t.Errorf("Convert %s: destination_type %s, want %s", name, dt, w.Type)
					}
					marked := hasDecompressionInfo(cv)
					if wantMark := w.Type == element.F32 && to != element.F32; marked != wantMark {
						t.Errorf("Convert %s: decompression rt_info %t, want %t", name, marked, wantMark)
					}
					back := make([]byte, int(w.Elements)*w.Type.Bits()/8)
					if err := kernels.Convert(back, w.Type, got, to, int(w.Elements)); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(ran[name], back) {
						t.Errorf("run of Convert %s differs from kernels.Convert of its Const", name)
					}
				}
			})
		}
	}
}

func hasDecompressionInfo(l *Layer) bool {
	for _, h := range l.Head {
		if h.Name != "rt_info" {
			continue
		}
		for _, a := range h.Children {
			if v, _ := a.Attr("name"); v == "decompression" {
				return true
			}
		}
	}
	return false
}

// TestDecompressNone: a model without compressed weights is written as it is and Decompress
// returns 0.
func TestDecompressNone(t *testing.T) {
	file := filepath.Join("..", "testdata", "ir", "example1_promote_floats.xml")
	m, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.xml")
	n, err := m.Decompress(out, DecompressOptions{})
	if err != nil || n != 0 {
		t.Fatalf("Decompress = %d, %v; want 0, nil", n, err)
	}
	for _, p := range [][2]string{{BinPath(file), BinPath(out)}} {
		a, _ := os.ReadFile(p[0])
		b, err := os.ReadFile(p[1])
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from %s (%v)", p[1], p[0], err)
		}
	}
}

// TestDecompressErrors: a malformed subgraph gives the located Errors of CompressedWeights, an
// unsupported To a plain error; neither writes anything nor changes the model.
func TestDecompressErrors(t *testing.T) {
	// a's scale [4,1] becomes [3,1]: it does not broadcast onto the codes [4,8].
	in, _ := editedIntModes(t, "bad.xml", func(s string) string {
		return strings.Replace(s, `<data element_type="f16" shape="4, 1" offset="36" size="8" />
			<output><port id="0" precision="FP16"><dim>4</dim><dim>1</dim></port></output>`, `<data element_type="f16" shape="3, 1" offset="36" size="8" />
			<output><port id="0" precision="FP16"><dim>3</dim><dim>1</dim></port></output>`, 1)
	})
	dir := filepath.Dir(in)
	m, err := Read(in)
	if err != nil {
		t.Fatal(err)
	}
	before := m.String()
	out := filepath.Join(dir, "out.xml")
	_, err = m.Decompress(out, DecompressOptions{})
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("Decompress error %v, want Errors", err)
	}
	if es[0].File != in || es[0].Line == 0 || es[0].Layer == nil {
		t.Errorf("error not located: %+v", es[0])
	}
	if _, err := m.Decompress(out, DecompressOptions{To: element.I8}); err == nil {
		t.Error("To i8 accepted")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output was written: %v", err)
	}
	if _, err := os.Stat(BinPath(out)); !os.IsNotExist(err) {
		t.Errorf("an output .bin was written: %v", err)
	}
	if m.String() != before {
		t.Error("the model changed")
	}
}

// TestDecompressKeepsShared: a layer of a subgraph that also feeds another layer stays with
// what it reads; the other layers of the subgraph go; a Const inside a Loop body that reads the
// data of a removed Const keeps its values at its new offset; each consumer reads the new
// Const from the port the subgraph's last layer fed.
func TestDecompressKeepsShared(t *testing.T) {
	const extraLayers = `<layer id="100" name="keep" type="Result" version="opset1"><input><port id="0" precision="FP16"><dim>4</dim><dim>8</dim></port></input></layer>
<layer id="101" name="loop" type="Loop" version="opset5"><data/><output><port id="0" precision="FP16"><dim>4</dim><dim>1</dim></port></output>
<port_map><output external_port_id="0" internal_layer_id="1"/></port_map><back_edges/>
<body><layers>
<layer id="0" name="inner_scale" type="Const" version="opset1"><data element_type="f16" shape="4, 1" offset="76" size="8"/><output><port id="0" precision="FP16"><dim>4</dim><dim>1</dim></port></output></layer>
<layer id="1" name="inner_r" type="Result" version="opset1"><input><port id="0" precision="FP16"><dim>4</dim><dim>1</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></body></layer>
<layer id="102" name="loop_out" type="Result" version="opset1"><input><port id="0" precision="FP16"><dim>4</dim><dim>1</dim></port></input></layer>
`
	const extraEdges = `<edge from-layer="2" from-port="1" to-layer="100" to-port="0"/>
<edge from-layer="101" from-port="0" to-layer="102" to-port="0"/>
`
	in, bin := editedIntModes(t, "shared.xml", func(s string) string {
		s = strings.Replace(s, "</layers>", extraLayers+"</layers>", 1)
		k := strings.LastIndex(s, "</edges>")
		return s[:k] + extraEdges + s[k:]
	})
	m, err := Read(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Check(); err != nil {
		t.Fatalf("the test model does not check: %v", err)
	}
	ws, err := m.CompressedWeights()
	if err != nil || len(ws) != 4 {
		t.Fatalf("found %d weights (%v), want 4", len(ws), err)
	}
	// The consumers of each weight: (consumer name, port) of every edge leaving its Output.
	type use struct {
		to   string
		port int64
	}
	uses := map[string][]use{}
	for _, w := range ws {
		for _, e := range m.Edges {
			if e.FromLayer == w.Output.ID {
				uses[w.Output.Name] = append(uses[w.Output.Name], use{m.Layer(e.ToLayer).Name, e.ToPort})
			}
		}
	}
	before := runByLayer(t, m)
	d, _ := decompressChecked(t, m, DecompressOptions{}, len(ws))
	for _, name := range []string{"a", "a/convert", "keep", "loop", "loop_out"} {
		if d.LayerByName(name) == nil {
			t.Errorf("layer %s was removed", name)
		}
	}
	for _, name := range []string{"a/zero_point", "a/zero_point/convert", "a/zero_point/subtract", "a/scale", "a/fq_weights_1", "b", "b/convert", "b/scale", "c/shape", "c/reshape", "d"} {
		if d.LayerByName(name) != nil {
			t.Errorf("layer %s was kept", name)
		}
	}
	if got, ok := runByLayer(t, d)["a/convert"]; !ok || !bytes.Equal(got, before["a/convert"]) {
		t.Error("a/convert, which also feeds a Result, changed")
	}
	for name, us := range uses {
		c := d.LayerByName(name)
		if c == nil || c.Type != "Const" {
			t.Fatalf("no Const %s", name)
		}
		var got []use
		for _, e := range d.Edges {
			if e.FromLayer == c.ID {
				if e.FromPort != c.Outputs[0].ID {
					t.Errorf("edge from %s port %d, which it does not have", name, e.FromPort)
				}
				got = append(got, use{d.Layer(e.ToLayer).Name, e.ToPort})
			}
		}
		if len(got) != len(us) || len(got) == 0 || got[0] != us[0] {
			t.Errorf("%s feeds %v, the subgraph fed %v", name, got, us)
		}
	}
	body, err := d.Body(d.LayerByName("loop"))
	if err != nil || body == nil {
		t.Fatalf("no body: %v", err)
	}
	_, got, err := body.ConstData(body.LayerByName("inner_scale"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, bin[76:84]) {
		t.Errorf("the body's Const reads % x, want % x", got, bin[76:84])
	}
}

// editedIntModes writes testdata/ir/compressed/int_modes.xml changed by edit, with its .bin, to
// a temporary directory and returns the model's path and the .bin's bytes.
func editedIntModes(t *testing.T, name string, edit func(string) string) (string, []byte) {
	t.Helper()
	file := filepath.Join("..", "testdata", "ir", "compressed", "int_modes.xml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(BinPath(file))
	if err != nil {
		t.Fatal(err)
	}
	s := edit(string(src))
	if s == string(src) {
		t.Fatal("int_modes.xml has changed; update this test")
	}
	in := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(in, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(BinPath(in), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return in, bin
}

// decompressChecked decompresses m into a temporary directory, checks that it replaced want
// weights, and returns the model read back, which must pass Check, and its path.
func decompressChecked(t *testing.T, m *Model, o DecompressOptions, want int) (*Model, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.xml")
	n, err := m.Decompress(out, o)
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("Decompress replaced %d weights, CompressedWeights found %d", n, want)
	}
	d, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Check(); err != nil {
		t.Fatalf("the decompressed model does not check: %v", err)
	}
	return d, out
}

// readWeights reads a model and the compressed weights it must have.
func readWeights(t *testing.T, file string) (*Model, []CompressedWeight) {
	t.Helper()
	m, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := m.CompressedWeights()
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) == 0 {
		t.Fatalf("%s: no compressed weights found", file)
	}
	return m, ws
}

// FuzzDecompress: on any model with the data of a compressed-weight fixture, Decompress
// returns an error and writes nothing, or writes a model that reads back and that checks when
// the input checked.
func FuzzDecompress(f *testing.F) {
	var bins [][]byte
	for _, file := range compressedFixtures(f) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		bin, err := os.ReadFile(BinPath(file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, uint8(len(bins)))
		bins = append(bins, bin)
	}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		m, err := fuzzLimits.Parse(bytes.NewReader(src), "f.xml")
		if err != nil {
			return
		}
		bin := bins[int(which)%len(bins)]
		m.SetWeights(bytes.NewReader(bin), int64(len(bin)), "f.bin")
		_, checkErr := m.Check()
		before := m.String()
		out := filepath.Join(t.TempDir(), "out.xml")
		if _, err := m.Decompress(out, DecompressOptions{To: element.F16}); err != nil {
			if m.String() != before {
				t.Fatalf("Decompress failed (%v) and changed the model", err)
			}
			if _, serr := os.Stat(out); !os.IsNotExist(serr) {
				t.Fatalf("Decompress failed (%v) and wrote %s", err, out)
			}
			return
		}
		d, err := Read(out)
		if err != nil {
			t.Fatalf("the written model does not read: %v", err)
		}
		if _, err := d.Check(); err != nil && checkErr == nil {
			t.Fatalf("the model checked, the decompressed one does not: %v\n%s", err, before)
		}
	})
}
