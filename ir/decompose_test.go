package ir

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDecompose(t *testing.T) {
	for _, f := range validModels(t) {
		if filepath.Base(f) == "chain_parameters.xml" {
			continue // operators feeding operators: TestDecomposeChain
		}
		want := wantCommon[filepath.Base(f)]
		m, err := Read(f)
		if err != nil {
			t.Fatal(err)
		}
		before := strip(m)
		converts := m.CountByType()["Convert"]
		// Where each operator's inputs come from, and the names of its outputs.
		type info struct {
			src      [2]string
			outNames [2]string
			consumer [2][]int64
		}
		ops := map[string]info{}
		for _, l := range m.Layers {
			if l.Type != OpType {
				continue
			}
			var in info
			for i := 0; i < 2; i++ {
				in.src[i] = m.Layer(m.Producer(l.ID, int64(i)).FromLayer).Name
				in.outNames[i] = l.Outputs[i].Names
				for _, e := range m.Edges {
					if e.FromLayer == l.ID && e.FromPort == int64(2+i) {
						in.consumer[i] = append(in.consumer[i], e.ToLayer)
					}
				}
			}
			ops[l.Name] = in
		}
		n, err := m.Decompose()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if n != len(want) {
			t.Errorf("%s: replaced %d, want %d", f, n, len(want))
		}
		// Write and read back: valid IR without ConvertPromoteTypes.
		var buf bytes.Buffer
		if err := m.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(bytes.NewReader(buf.Bytes()), f+"(decomposed)")
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, buf.String())
		}
		if _, err := back.Check(); err != nil {
			t.Errorf("%s: decomposed model does not check: %v", f, err)
		}
		counts := back.CountByType()
		if counts[OpType] != 0 || counts["Convert"] != converts+2*len(want) {
			t.Errorf("%s: after decomposition %v", f, counts)
		}
		for name, typ := range want {
			in := ops[name]
			for i := 0; i < 2; i++ {
				cname := in.src[i] + "/" + name + "." + string(rune('0'+i))
				cv := back.LayerByName(cname)
				if cv == nil {
					t.Errorf("%s: no Convert %q", f, cname)
					continue
				}
				if d, _ := cv.DataAttr("destination_type"); cv.Type != "Convert" || cv.Version != "opset1" || d != typ.String() {
					t.Errorf("%s: %s is %s %s destination_type=%q, want Convert opset1 %s", f, cname, cv.Type, cv.Version, d, typ)
				}
				if len(cv.Inputs) != 1 || cv.Inputs[0].ID != 0 || len(cv.Outputs) != 1 || cv.Outputs[0].ID != 1 {
					t.Errorf("%s: %s ports", f, cname)
					continue
				}
				if pt, _ := cv.Outputs[0].Type(); pt != typ || cv.Outputs[0].Names != in.outNames[i] {
					t.Errorf("%s: %s output %s names %q", f, cname, cv.Outputs[0].Precision, cv.Outputs[0].Names)
				}
				if e := back.Producer(cv.ID, 0); e == nil || back.Layer(e.FromLayer).Name != in.src[i] {
					t.Errorf("%s: %s is not fed by %s", f, cname, in.src[i])
				}
				var consumers []int64
				for _, e := range back.Edges {
					if e.FromLayer == cv.ID {
						if e.FromPort != 1 {
							t.Errorf("%s: edge from %s port %d", f, cname, e.FromPort)
						}
						consumers = append(consumers, e.ToLayer)
					}
				}
				if !reflect.DeepEqual(consumers, in.consumer[i]) {
					t.Errorf("%s: %s feeds %v, the operator fed %v", f, cname, consumers, in.consumer[i])
				}
			}
		}
		// Layers other than the operators are untouched.
		kept := 0
		for _, l := range before.Layers {
			if l.Type != OpType {
				if back.Layer(l.ID) == nil || back.Layer(l.ID).Name != l.Name {
					t.Errorf("%s: layer %d (%s) lost", f, l.ID, l.Name)
				}
				kept++
			}
		}
		if len(back.Layers) != kept+2*len(want) {
			t.Errorf("%s: %d layers, want %d", f, len(back.Layers), kept+2*len(want))
		}
		ids := map[int64]bool{}
		for _, l := range back.Layers {
			if ids[l.ID] {
				t.Errorf("%s: duplicate id %d", f, l.ID)
			}
			ids[l.ID] = true
		}
	}
}

func TestDecomposeRefusesBadModels(t *testing.T) {
	m, err := Read(filepath.Join(repoRoot(t), "testdata", "ir", "safe_fail_f16_i64.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := m.Decompose(); err == nil || n != 0 || m.CountByType()[OpType] != 1 {
		t.Errorf("Decompose of a failing model: %d, %v", n, err)
	}
	// A dynamic common type cannot become a Convert: the operator stays, as in OpenVINO.
	src := bytes.NewBufferString(replaceAll(dynRankModel, "PT", "true", "OUT", "UNSPECIFIED"))
	m, err = Parse(src, "d.xml")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := m.Decompose(); n != 0 || err != nil || m.CountByType()[OpType] != 1 {
		t.Errorf("Decompose with a dynamic common type: %d, %v", n, err)
	}
}

func replaceAll(s string, oldnew ...string) string {
	for i := 0; i+1 < len(oldnew); i += 2 {
		s = string(bytes.ReplaceAll([]byte(s), []byte(oldnew[i]), []byte(oldnew[i+1])))
	}
	return s
}

func TestDecomposeChain(t *testing.T) {
	m, err := Read(filepath.Join(repoRoot(t), "testdata", "ir", "chain_parameters.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := m.Decompose(); n != 2 || err != nil {
		t.Fatalf("Decompose = %d, %v", n, err)
	}
	for name, typ := range map[string]string{
		"a/first.0": "i16", "b/first.1": "i16", "a/first.0/second.0": "f32", "c/second.1": "f32",
	} {
		l := m.LayerByName(name)
		if l == nil {
			t.Errorf("no layer %q", name)
			continue
		}
		if d, _ := l.DataAttr("destination_type"); d != typ {
			t.Errorf("%s: destination_type %q, want %s", name, d, typ)
		}
	}
	// second.0 is fed by first.0's Convert.
	cv := m.LayerByName("a/first.0/second.0")
	if e := m.Producer(cv.ID, 0); e == nil || m.Layer(e.FromLayer).Name != "a/first.0" || e.FromPort != 1 {
		t.Errorf("chain not rewired: %+v", e)
	}
}
