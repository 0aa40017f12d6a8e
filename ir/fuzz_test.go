package ir

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
)

// fuzzLimits keep each fuzz input cheap.
var fuzzLimits = Limits{MaxXMLBytes: 1 << 20, MaxTokenBytes: 64 << 10, MaxDepth: 64, MaxNodes: 20000}

// fuzzRun is the memory budget of Run and Fold under the fuzzer.
var fuzzRun = RunOptions{MaxMemory: 64 << 20}

// evalSeeds are small models with the layers of decompression subgraphs, as seeds.
func evalSeeds() []string {
	x, _ := buildXML([]gl{
		cst("codes", element.U4, []int64{2, 2, 2}, []byte{0x21, 0x43}),
		lay("Convert", "c", element.F16, []int64{2, 2, 2}, "codes").with("destination_type", "f16"),
		cst("zp", element.U8, nil, []byte{8}),
		lay("Convert", "z", element.F16, nil, "zp").with("destination_type", "f16"),
		lay("Subtract", "s", element.F16, []int64{2, 2, 2}, "c", "z"),
		cst("scale", element.F16, []int64{2, 2}, f16s(1, 2, 3, 4)),
		cst("axes", element.I64, []int64{1}, le[int64](-1)),
		lay("Unsqueeze", "u", element.F16, []int64{2, 2, 1}, "scale", "axes"),
		lay("Multiply", "m", element.F16, []int64{2, 2, 2}, "s", "u"),
		cst("shape", element.I64, []int64{2}, le[int64](2, 4)),
		lay("Reshape", "r", element.F16, []int64{2, 4}, "m", "shape").with("special_zero", "false"),
		cst("perm", element.I64, []int64{0}, nil),
		lay("Transpose", "t", element.F16, []int64{4, 2}, "r", "perm"),
		cst("idx", element.I32, []int64{2}, le[int32](-1, 5)),
		cst("axis", element.I32, nil, le[int32](0)),
		lay("Gather", "g", element.F16, []int64{2, 2}, "t", "idx", "axis").ver("opset8"),
	}, "g")
	return []string{x}
}

// FuzzRead feeds arbitrary bytes to the reader. Whatever parses must also check, load its Const
// data (from the input itself, standing in for a .bin), survive read → write → read unchanged,
// run, fold into a model that checks, and decompose into a model that writes, reads back and
// checks. Nothing may panic or hang.
func FuzzRead(f *testing.F) {
	for _, dir := range []string{"../testdata/ir", "../testdata/ir/bad"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil && len(data) < 8<<10 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(markupRunsDoc))
	f.Add([]byte(markupRunsSource))
	for _, seed := range evalSeeds() {
		f.Add([]byte(seed))
	}
	// Decompression subgraphs, whose codes and scales the fuzzer reads from the XML's bytes.
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range chainCases(f) {
		m, _, _ := chainModel(f, r, c)
		f.Add([]byte(m.String()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := fuzzLimits.Parse(bytes.NewReader(data), "f.xml")
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		m.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		m.Check()
		for _, l := range m.Layers {
			if l.Type == "Const" {
				if ci, b, err := m.ConstData(l); err == nil && int64(len(b)) > ci.Size {
					t.Fatalf("ConstData returned %d bytes for size %d", len(b), ci.Size)
				}
			}
		}
		w1 := m.String()
		m2, err := Parse(bytes.NewReader([]byte(w1)), "w.xml")
		if err != nil {
			t.Fatalf("written model does not read: %v\n%s", err, w1)
		}
		if !reflect.DeepEqual(strip(m), strip(m2)) {
			t.Fatalf("read → write → read changed the model\n%s", w1)
		}
		if w2 := m2.String(); w2 != w1 {
			t.Fatalf("second write differs:\n%s\n----\n%s", w1, w2)
		}
		m2.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		// A small budget: broadcasting makes outputs far larger than the input.
		if res, err := m2.RunWith(nil, fuzzRun); err == nil {
			for _, o := range res.Outputs {
				_ = o.Tensor.String()
			}
			// Compressed weights computed as one unit equal the layer-by-layer evaluation.
			slow, err := m2.RunWith(nil, RunOptions{MaxMemory: fuzzRun.MaxMemory, layerByLayer: true})
			if err == nil {
				byPort := map[portKey]op.Tensor{}
				for _, o := range slow.Outputs {
					byPort[portKey{o.Layer.ID, o.Port}] = o.Tensor
				}
				for _, o := range res.Outputs {
					if s, ok := byPort[portKey{o.Layer.ID, o.Port}]; !ok || !bytes.Equal(s.Bytes(), o.Tensor.Bytes()) {
						t.Fatalf("output %s (weight %v) differs from the layer-by-layer evaluation: %v, %v", o.Name, o.Weight != nil, o.Tensor, s)
					}
				}
			}
		}
		m4, _ := Parse(bytes.NewReader([]byte(w1)), "w.xml")
		m4.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
		if n, err := m4.FoldWith(fuzzRun); err == nil && n > 0 {
			if _, err := m4.Check(); err != nil {
				t.Fatalf("folded model does not check: %v\n%s", err, m4.String())
			}
		}
		if n, err := m2.Decompose(); err == nil && n > 0 {
			w3 := m2.String()
			m3, err := Parse(bytes.NewReader([]byte(w3)), "d.xml")
			if err != nil {
				t.Fatalf("decomposed model does not read: %v\n%s", err, w3)
			}
			m3.SetWeights(bytes.NewReader(data), int64(len(data)), "f.bin")
			if _, err := m3.Check(); err != nil {
				t.Fatalf("decomposed model does not check: %v\n%s", err, w3)
			}
		}
	})
}

// FuzzParseSnippet feeds arbitrary text to the tolerant reader of pasted <layer> elements: it
// must return a model or an error, and a model it returns must check, decompose and write
// without panicking, and the written model must read back with the strict reader.
func FuzzParseSnippet(f *testing.F) {
	f.Add([]byte(`<layer id="1" type="ConvertPromoteTypes" version="opset14"><data promote_unsafe="true"/><input><port id="0" precision="FP16"><dim>2</dim></port><port id="1" precision="I64" names="b"/></input><output><port id="2" precision="FP16,"/><port id="3"/></output></layer>`))
	f.Add([]byte("< !-- comment --><layer ... type=\"ConvertPromoteTypes\"><input><port id=\"0\" precision=\"U64\"/><port id=\"1\" precision=\"I8\"/></input></layer>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		m, err := ParseSnippet(data, "snippet.txt")
		if err != nil {
			return
		}
		m.Check()
		m.Decompose()
		w := m.String()
		if _, err := Parse(bytes.NewReader([]byte(w)), "w.xml"); err != nil {
			t.Fatalf("written snippet model does not read: %v\n%s", err, w)
		}
	})
}
