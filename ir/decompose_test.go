package ir

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDecompose(t *testing.T) {
	for _, f := range validModels(t) {
		switch filepath.Base(f) {
		case "chain_parameters.xml":
			continue // operators feeding operators: TestDecomposeChain
		case "loop_body.xml":
			continue // an operator in a Loop body: TestDecomposeBody
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

// TestDecomposeBody decomposes a model with one operator at the top level and one in a Loop body
// whose layer ids repeat the top level's: each is replaced within its own graph, the top-level
// edges into the Loop stay as they were, and the result reads back and checks with no
// ConvertPromoteTypes left anywhere. (Before the fix, the body's operator 2 was rewired as if it
// were the top level's layer 2, and the output lost the Loop's inputs.)
func TestDecomposeBody(t *testing.T) {
	f := filepath.Join(repoRoot(t), "testdata", "ir", "loop_body.xml")
	m, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := m.Check()
	if err != nil {
		t.Fatal(err)
	}
	loop := m.LayerByName("loop")
	for _, p := range rep.Promotes {
		if want := map[string]*Layer{"inner": loop, "outer": nil}[p.Layer.Name]; p.Body != want {
			t.Errorf("%s: Body %v, want %v", p.Layer.Name, p.Body, want)
		}
	}
	loopEdges := func(m *Model) (es []Edge) {
		for _, e := range m.Edges {
			if e.ToLayer == loop.ID {
				es = append(es, *e)
			}
		}
		return es
	}
	before := loopEdges(m)
	n, err := m.Decompose()
	if err != nil || n != 2 {
		t.Fatalf("Decompose: %d, %v; want 2 (one at the top level, one in the body)", n, err)
	}
	if got := loopEdges(m); !reflect.DeepEqual(got, before) {
		t.Errorf("edges into the Loop changed:\n%v\nwant\n%v", got, before)
	}
	// The Loop's output fed the top-level operator's input 1; it now feeds that input's Convert.
	for _, e := range m.Edges {
		if e.FromLayer == loop.ID {
			if to := m.Layer(e.ToLayer); e.FromPort != 3 || to.Name != "loop/outer.1" || e.ToPort != 0 {
				t.Errorf("Loop output edge %+v goes to %s", *e, to.Name)
			}
		}
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(bytes.NewReader(buf.Bytes()), "decomposed.xml")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	rep, err = back.Check()
	if err != nil || len(rep.Promotes) != 0 {
		t.Fatalf("decomposed model: %d operators left, %v\n%s", len(rep.Promotes), err, buf.String())
	}
	if c := back.CountByType(); c["Convert"] != 2 || c["Loop"] != 1 {
		t.Errorf("top level after decomposition: %v", c)
	}
	body, err := back.Body(back.LayerByName("loop"))
	if err != nil || body == nil {
		t.Fatalf("body: %v", err)
	}
	if c := body.CountByType(); c["Convert"] != 2 || c[OpType] != 0 || c["Parameter"] != 2 || c["Result"] != 2 {
		t.Errorf("body after decomposition: %v", c)
	}
	for i, src := range []string{"x", "y"} {
		name := src + "/inner." + string(rune('0'+i))
		cv := body.LayerByName(name)
		if cv == nil {
			t.Errorf("body has no Convert %q", name)
			continue
		}
		if d, _ := cv.DataAttr("destination_type"); d != "f16" || cv.ID <= 4 {
			t.Errorf("%s: destination_type %q, id %d (want f16, an id above the body's 0..4)", name, d, cv.ID)
		}
		p := body.Producer(cv.ID, 0)
		if p == nil || body.Layer(p.FromLayer).Name != src {
			t.Errorf("%s is not fed by %s", name, src)
		}
		res := map[int]string{0: "r0", 1: "r1"}[i]
		fed := false
		for _, e := range body.Edges {
			if e.FromLayer == cv.ID && e.FromPort == 1 && body.Layer(e.ToLayer).Name == res {
				fed = true
			}
		}
		if !fed {
			t.Errorf("%s does not feed %s", name, res)
		}
	}
	if cv := body.LayerByName("x/inner.0"); cv != nil && cv.Outputs[0].Names != "inner_x" {
		t.Errorf("x/inner.0 output names %q, want the operator's output names", cv.Outputs[0].Names)
	}
}

// chainXML is a model of n ConvertPromoteTypes layers in a chain, each fed by both outputs of
// the one before it (the first by Parameters a and b), with Results on the last one's outputs.
func chainXML(n int) []byte {
	var b bytes.Buffer
	port := func(id int, prec string) string {
		return fmt.Sprintf(`<port id="%d" precision="%s"><dim>2</dim><dim>3</dim></port>`, id, prec)
	}
	b.WriteString("<?xml version=\"1.0\"?>\n<net name=\"chain\" version=\"11\">\n<layers>\n")
	for i, name := range []string{"a", "b"} {
		fmt.Fprintf(&b, "<layer id=\"%d\" name=\"%s\" type=\"Parameter\" version=\"opset1\"><data shape=\"2,3\" element_type=\"f32\"/><output>%s</output></layer>\n", i, name, port(0, "FP32"))
	}
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "<layer id=\"%d\" name=\"p%d\" type=\"ConvertPromoteTypes\" version=\"opset14\"><data promote_unsafe=\"false\" pytorch_scalar_promotion=\"false\" u64_integer_promotion_target=\"f32\"/><input>%s%s</input><output>%s%s</output></layer>\n",
			k+2, k, port(0, "FP32"), port(1, "FP32"), port(2, "FP32"), port(3, "FP32"))
	}
	for i := 0; i < 2; i++ {
		fmt.Fprintf(&b, "<layer id=\"%d\" name=\"out%d\" type=\"Result\" version=\"opset1\"><input>%s</input></layer>\n", n+2+i, i, port(0, "FP32"))
	}
	b.WriteString("</layers>\n<edges>\n")
	edge := func(fl, fp, tl, tp int) {
		fmt.Fprintf(&b, "<edge from-layer=\"%d\" from-port=\"%d\" to-layer=\"%d\" to-port=\"%d\"/>\n", fl, fp, tl, tp)
	}
	edge(0, 0, 2, 0)
	edge(1, 0, 2, 1)
	for k := 1; k < n; k++ {
		edge(k+1, 2, k+2, 0)
		edge(k+1, 3, k+2, 1)
	}
	edge(n+1, 2, n+2, 0)
	edge(n+1, 3, n+3, 0)
	b.WriteString("</edges>\n</net>\n")
	return b.Bytes()
}

// TestDecomposeLongChain decomposes a chain of 2,000 operators. OpenVINO's naming nests along
// the chain ("a/p0.0/p1.0/..."), which made the output grow with the square of the chain's
// length (about 20 times this input); the names are bounded, so the output stays within twice
// the input.
func TestDecomposeLongChain(t *testing.T) {
	src := chainXML(2000)
	m, err := ParseBytes(src, nil, "chain.xml")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := m.Decompose(); n != 2000 || err != nil {
		t.Fatalf("Decompose = %d, %v", n, err)
	}
	out := m.String()
	if len(out) > 2*len(src) {
		t.Errorf("decomposing %d bytes wrote %d bytes, more than twice the input", len(src), len(out))
	}
	for _, l := range m.Layers {
		if l.Type == "Convert" && len(l.Name) > MaxDecomposeName {
			t.Errorf("Convert name of %d bytes: %.60s...", len(l.Name), l.Name)
		}
	}
	// Short names keep OpenVINO's form; a name that would pass the bound starts again from the
	// operator's own name.
	for _, name := range []string{"a/p0.0", "a/p0.0/p1.0", "p44.0", "p44.1/p45.1"} {
		if m.LayerByName(name) == nil {
			t.Errorf("no Convert named %q", name)
		}
	}
	if _, err := ParseBytes([]byte(out), nil, "out.xml"); err != nil {
		t.Errorf("the output does not read back: %v", err)
	}
}

func TestConvertName(t *testing.T) {
	long := strings.Repeat("x", 300)
	cases := []struct {
		src, op string
		i       int
		want    string
	}{
		{"a", "op", 0, "a/op.0"},
		{"a", "op", 1, "a/op.1"},
		{strings.Repeat("s", 251), "op", 1, strings.Repeat("s", 251) + "/op.1"},     // 256 bytes
		{strings.Repeat("s", 252), "op", 1, "op.1"},                                 // 257 bytes
		{"a", long, 0, long + ".0"},                                                 // the operator's own name is kept whole
		{strings.Repeat("s", 200) + "/" + strings.Repeat("t", 60), "op", 0, "op.0"}, // a nested name restarts
	}
	for _, c := range cases {
		if got := convertName(c.src, c.op, c.i); got != c.want {
			t.Errorf("convertName(%.10q..., %.10q..., %d) = %.20q... (%d bytes), want %d bytes", c.src, c.op, c.i, got, len(got), len(c.want))
		}
	}
}
