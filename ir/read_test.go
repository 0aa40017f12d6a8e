package ir

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// sharedDir returns ../shared beside the repository, else $CONVERTPROMOTE_SHARED, else "".
func sharedDir(t testing.TB) string {
	if d := filepath.Join(repoRoot(t), "..", "shared"); isDir(d) {
		return d
	}
	if d := os.Getenv("CONVERTPROMOTE_SHARED"); d != "" && isDir(d) {
		return d
	}
	return ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func corpusFiles(t *testing.T) []string {
	d := sharedDir(t)
	if d == "" {
		t.Skip("../shared/ir-corpus not found (set CONVERTPROMOTE_SHARED)")
	}
	files, _ := filepath.Glob(filepath.Join(d, "ir-corpus", "*.xml"))
	if len(files) == 0 {
		t.Skip("no files in ir-corpus")
	}
	return files
}

// validModels are the models of testdata/ir and ir/embedded that must pass Check.
func validModels(t *testing.T) []string {
	root := repoRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "testdata", "ir", "*.xml"))
	files = append(files, filepath.Join(root, "ir", "embedded", "spec_examples.xml"), filepath.Join(root, "testdata", "ir", "bad", "valid.xml"))
	var out []string
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "safe_fail_") {
			out = append(out, f)
		}
	}
	return out
}

// strip returns a copy of the model's structure without source lines and file names, for
// comparing two readings.
func strip(m *Model) Model {
	var nodes func(ns []*Node) []*Node
	nodes = func(ns []*Node) []*Node {
		if len(ns) == 0 {
			return nil
		}
		out := make([]*Node, len(ns))
		for i, n := range ns {
			c := *n
			c.Line = 0
			if len(c.Attrs) == 0 {
				c.Attrs = nil
			}
			c.Children = nodes(n.Children)
			out[i] = &c
		}
		return out
	}
	s := Model{Name: m.Name, Version: m.Version, NetAttrs: m.NetAttrs, Extra: nodes(m.Extra),
		Prolog: nodes(m.Prolog), Epilog: nodes(m.Epilog)}
	for _, l := range m.Layers {
		c := *l
		c.Line = 0
		if l.Data != nil {
			c.Data = nodes([]*Node{l.Data})[0]
		}
		c.Head, c.Tail = nodes(l.Head), nodes(l.Tail)
		ports := func(ps []*Port) []*Port {
			var out []*Port
			for _, p := range ps {
				q := *p
				q.Line = 0
				q.Extra = nodes(p.Extra)
				out = append(out, &q)
			}
			return out
		}
		c.Inputs, c.Outputs = ports(l.Inputs), ports(l.Outputs)
		s.Layers = append(s.Layers, &c)
	}
	for _, e := range m.Edges {
		c := *e
		c.Line = 0
		s.Edges = append(s.Edges, &c)
	}
	return s
}

// roundTrip checks read → write → read: the same model, and a second write identical to the first.
func roundTrip(t *testing.T, path string) {
	m, err := Read(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var w1 bytes.Buffer
	if err := m.Write(&w1); err != nil {
		t.Fatal(err)
	}
	m2, err := Parse(bytes.NewReader(w1.Bytes()), path+"(written)")
	if err != nil {
		t.Fatalf("%s: reading the written model: %v\n%s", path, err, w1.String())
	}
	if a, b := strip(m), strip(m2); !reflect.DeepEqual(a, b) {
		t.Errorf("%s: read → write → read gives a different model", path)
	}
	var w2 bytes.Buffer
	if err := m2.Write(&w2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
		t.Errorf("%s: write(read(f)) != write(read(write(read(f))))", path)
	}
}

func TestCorpusChecks(t *testing.T) {
	for _, f := range corpusFiles(t) {
		m, err := Read(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if _, err := m.Check(); err != nil {
			t.Errorf("%s: Check: %v", f, err)
		}
		if m.Version != 10 && m.Version != 11 {
			t.Errorf("%s: version %d", f, m.Version)
		}
	}
}

func TestCorpusRoundTrip(t *testing.T) {
	for _, f := range corpusFiles(t) {
		roundTrip(t, f)
	}
}

func TestTestdataRoundTrip(t *testing.T) {
	for _, f := range validModels(t) {
		roundTrip(t, f)
	}
}

// TestCorpusDetails pins facts of particular corpus files that the reader must get right.
func TestCorpusDetails(t *testing.T) {
	d := sharedDir(t)
	if d == "" {
		t.Skip("no ../shared")
	}
	read := func(name string) *Model {
		m, err := Read(filepath.Join(d, "ir-corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := read("ovms-scalar.xml")
	c := m.LayerByName("const")
	if got := c.Outputs[0].NameList(); !reflect.DeepEqual(got, []string{"const", "const:0"}) {
		t.Errorf("names = %q", got)
	}
	if len(c.Outputs[0].Dims) != 0 || !c.Outputs[0].Shape().IsScalar() {
		t.Errorf("scalar port dims = %v", c.Outputs[0].Dims)
	}
	if v, _ := c.DataAttr("shape"); v != "" {
		t.Errorf("shape attr = %q", v)
	}
	if rep, err := m.Check(); err != nil || !rep.BinChecked {
		t.Errorf("scalar: checked against .bin = %v, %v", rep.BinChecked, err)
	}
	if _, data, err := m.ConstData(c); err != nil || len(data) != 4 {
		t.Errorf("ConstData = %v, %v", data, err)
	}

	m = read("npu-IE_softmax.xml")
	if p := m.LayerByName("prob").Inputs[0]; p.Precision != "" {
		t.Errorf("port without precision read as %q", p.Precision)
	}
	if len(m.Prolog) != 1 || m.Prolog[0].Kind != CommentNode || len(m.Epilog) != 1 {
		t.Errorf("comments around <net>: prolog %d, epilog %d", len(m.Prolog), len(m.Epilog))
	}

	m = read("ovms-dummy_fp64.xml")
	if p := m.LayerByName("input").Outputs[0]; !reflect.DeepEqual(p.Dims, []int64{-1, 10}) || p.Precision != "FP64" {
		t.Errorf("dims %v precision %q", p.Dims, p.Precision)
	}
	if len(m.Extra) != 1 || m.Extra[0].Name != "meta_data" {
		t.Errorf("meta_data not kept: %v", m.Extra)
	}
	if l := m.LayerByName("input"); len(l.Head) != 1 || l.Head[0].Name != "rt_info" {
		t.Errorf("layer rt_info not kept")
	}

	m = read("ovms-no_name_output.xml")
	if m.Layers[0].ID != 1 || m.Layers[1].ID != 0 {
		t.Errorf("layer order not kept")
	}
	if _, data, err := m.ConstData(m.Layers[0]); err == nil {
		t.Errorf("ConstData of a Parameter = %v", data)
	}

	m = read("openvino-add_abc_initializers_u1_const.xml")
	if rep, err := m.Check(); err != nil || rep.BinChecked {
		t.Errorf("u1 model without .bin: BinChecked=%v err=%v", rep.BinChecked, err)
	}
	if _, _, err := m.ConstData(m.Layers[0]); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("ConstData without .bin: %v", err)
	}
	ci, err := m.ConstInfo(m.Layers[0])
	if err != nil || ci.Need != 1 || ci.Elements != 4 {
		t.Errorf("u1 ConstInfo = %+v, %v", ci, err)
	}

	m = read("npu-shape_of.xml")
	if p := m.Layers[0].Outputs[0]; len(p.Extra) != 1 || p.Extra[0].Name != "rt_info" {
		t.Errorf("port rt_info not kept")
	}
}

// hostile lists the committed bad models: whether Read itself fails, and what the error says.
var hostile = []struct {
	file     string
	readFail bool
	want     string
}{
	{"malformed.xml", true, "malformed.xml:11: malformed XML: element <port> (line 8) closed by </output>"},
	{"unknown_type.xml", false, `unknown_type.xml:6: layer 0 (a): element_type: unknown element type "f17"`},
	{"unknown_precision.xml", true, `unknown_precision.xml:8: layer 0 (a): port 0: precision: unknown element type "FP17"`},
	{"dim_minus2.xml", true, "dim_minus2.xml:9: layer 0 (a): port 0: <dim>-2</dim> is negative"},
	{"count_overflow.xml", false, "count_overflow.xml:6: layer 0 (a): shape \"4294967296, 4294967296\": element count of shape [4294967296 4294967296] overflows int64"},
	{"offset_past_end.xml", false, "offset_past_end.xml:5: layer 0 (a): Const data [4, 12) runs past the end of"},
	{"size_short.xml", false, "size_short.xml:6: layer 0 (a): size=8 but 4611686018427387904 u8 elements (shape \"4611686018427387904\") need 4611686018427387904 bytes"},
	{"size_short_small.xml", false, "size_short_small.xml:6: layer 0 (a): size=6 but 4 f16 elements (shape \"2, 2\") need 8 bytes"},
	{"missing_port.xml", false, "missing_port.xml:63: layer 4 (out1): edge 2:3 -> 4:7: the layer has no input port 7"},
	{"cycle.xml", false, "cycle.xml:22: layer 2 (promote): the graph has a cycle through layers 2 (promote)"},
	{"bad_attribute.xml", false, `bad_attribute.xml:23: layer 2 (promote): attribute promote_unsafe="yes" is not a boolean`},
	{"unknown_attribute.xml", false, `unknown_attribute.xml:23: layer 2 (promote): unknown attribute strict="true"`},
	{"wrong_output_type.xml", false, "wrong_output_type.xml:34: layer 2 (promote): output port 2 has precision FP16 but the inputs (f16, f32) promote to f32"},
	{"wrong_output_dims.xml", false, "wrong_output_dims.xml:38: layer 2 (promote): output port 3 has dims [4] but input 1 has dims [3]"},
	{"three_inputs.xml", false, "three_inputs.xml:22: layer 2 (promote): ConvertPromoteTypes needs two input ports with ids 0 and 1 (found 0, 5)"},
}

func TestHostileFiles(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "ir", "bad")
	for _, h := range hostile {
		path := filepath.Join(dir, h.file)
		m, err := Read(path)
		if h.readFail {
			if err == nil {
				t.Errorf("%s: Read succeeded", h.file)
			} else if !strings.Contains(err.Error(), h.want) {
				t.Errorf("%s: Read error\n%v\nwant it to contain\n%s", h.file, err, h.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Read: %v", h.file, err)
			continue
		}
		_, err = m.Check()
		var es Errors
		if !errors.As(err, &es) {
			t.Errorf("%s: Check = %v, want Errors", h.file, err)
			continue
		}
		if !strings.Contains(err.Error(), h.want) {
			t.Errorf("%s: Check error\n%v\nwant it to contain\n%s", h.file, err, h.want)
		}
		for _, e := range es {
			if e.File != path || e.Line <= 0 {
				t.Errorf("%s: error without file and line: %v", h.file, e)
			}
		}
	}
	if m, err := Read(filepath.Join(dir, "valid.xml")); err != nil {
		t.Fatal(err)
	} else if _, err := m.Check(); err != nil {
		t.Errorf("valid.xml: %v", err)
	}
}

// parseStream parses what gen writes into a pipe, and reports the error, the time taken and the
// bytes allocated meanwhile.
func parseStream(t *testing.T, gen func(w io.Writer) error) (error, time.Duration, uint64) {
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(gen(pw))
	}()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Parse(pr, "stream.xml")
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	pr.CloseWithError(errors.New("reader done"))
	return err, el, after.TotalAlloc - before.TotalAlloc
}

func TestHostileNesting(t *testing.T) {
	// 100 MB of nested elements: fails at depth 257, long before the end.
	const total = 100 << 20
	err, el, alloc := parseStream(t, func(w io.Writer) error {
		if _, err := io.WriteString(w, `<?xml version="1.0"?><net name="n" version="11"><layers>`); err != nil {
			return err
		}
		chunk := []byte(strings.Repeat("<a>", 1<<12))
		for n := 0; n < total; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "stream.xml:1: elements nested deeper than 256 levels") {
		t.Fatalf("err = %v", err)
	}
	// A hang is caught by the test timeout; the bound here is memory, which -race inflates.
	if !raceEnabled && alloc > 16<<20 {
		t.Errorf("allocated %d bytes (in %v)", alloc, el)
	}
}

func TestHostileAttribute(t *testing.T) {
	// A 50 MB attribute: refused once it passes the token limit, without buffering all of it.
	const total = 50 << 20
	lim := DefaultLimits
	err, el, alloc := parseStream(t, func(w io.Writer) error {
		if _, err := io.WriteString(w, "<?xml version=\"1.0\"?>\n<net version=\"11\" name=\""); err != nil {
			return err
		}
		chunk := []byte(strings.Repeat("x", 1<<16))
		for n := 0; n < total; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, "\"><layers/></net>")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "stream.xml:2: an XML token (tag, attribute or text) is longer than the 16777216-byte limit") {
		t.Fatalf("err = %v", err)
	}
	// The decoder grows its buffer by doubling up to the limit; a few times the limit is the
	// bound, far below the 50 MB input.
	if !raceEnabled && alloc > uint64(4*lim.MaxTokenBytes) {
		t.Errorf("allocated %d bytes (in %v)", alloc, el)
	}
}

func TestLimits(t *testing.T) {
	src := `<net name="x" version="11"><layers><layer id="0" name="a" type="Parameter"/><layer id="1" name="b" type="Parameter"/></layers></net>`
	small := Limits{MaxXMLBytes: 50, MaxTokenBytes: 1 << 10, MaxDepth: 8, MaxNodes: 100}
	if _, err := small.Parse(strings.NewReader(src), "f.xml"); err == nil || !strings.Contains(err.Error(), "larger than the 50-byte limit") {
		t.Errorf("size limit: %v", err)
	}
	// src has 12 nodes: 4 elements and 8 attributes.
	few := Limits{MaxXMLBytes: 1 << 20, MaxTokenBytes: 1 << 10, MaxDepth: 8, MaxNodes: 11}
	if _, err := few.Parse(strings.NewReader(src), "f.xml"); err == nil || !strings.Contains(err.Error(), "more than 11 nodes") {
		t.Errorf("node limit: %v", err)
	}
	few.MaxNodes = 12
	if _, err := few.Parse(strings.NewReader(src), "f.xml"); err != nil {
		t.Errorf("node limit of 12: %v", err)
	}
	if _, err := DefaultLimits.Parse(strings.NewReader(src), "f.xml"); err != nil {
		t.Errorf("default limits: %v", err)
	}
}

func TestMalformed(t *testing.T) {
	cases := []struct{ src, want string }{
		{``, "no root element"},
		{`<net version="11"><layers></net>`, "closed by </net>"},
		{`<net version="11"><layers/>`, "unexpected end of file inside <net>"},
		{`<net version="11"><layers/></net><net/>`, "a second root element"},
		{`<net version="11"><layers/></net>junk`, "text outside the root element"},
		{`<model version="11"/>`, "the root element is <model>, not <net>"},
		{`<net version="7"><layers/></net>`, `IR version "7" is not supported`},
		{`<net><layers/></net>`, "no version attribute"},
		{`<net version="11"></net>`, "<net> has no <layers>"},
		{`<net version="11"><layers><layer name="a" type="X"/></layers></net>`, "<layer> has no id attribute"},
		{`<net version="11"><layers><layer id="-1" type="X"/></layers></net>`, `id="-1" is not a non-negative integer`},
		{`<net version="11"><layers><layer id="1" name="a"/></layers></net>`, "layer 1 (a): <layer> has no type attribute"},
		{`<net version="11"><layers><layer id="1" type="X"><output><port id="0"><dim>x</dim></port></output></layer></layers></net>`, "<dim>x</dim> is not an integer"},
		{`<net version="11"><layers/><edges><edge from-layer="0" from-port="0" to-layer="1"/></edges></net>`, "<edge> has no to-port attribute"},
		{`<net version="11" name="a &bogus; b"><layers/></net>`, "malformed XML"},
		{"<?xml version=\"1.0\" encoding=\"latin1\"?><net version=\"11\"><layers/></net>", "malformed XML"},
		{`<net version="11" name="a" name="b"><layers/></net>`, "m.xml:1: malformed XML: attribute name appears twice in <net>"},
		{"<net version=\"11\">\n<layers><layer id=\"1\" type=\"X\" id=\"2\"/></layers></net>", "m.xml:2: malformed XML: attribute id appears twice in <layer>"},
		{`<net version="11"><layers><layer id="1" type="X"><data a="1" b="2" c="3" d="4" e="5" f="6" g="7" h="8" i="9" e="10"/></layer></layers></net>`, "attribute e appears twice in <data>"},
		{`<net version="11" x:a="1" x:a="2"><layers/></net>`, "attribute x:a appears twice in <net>"},
		{"\ufeff\ufeff<net version=\"11\"><layers/></net>", "text outside the root element"}, // one byte-order mark only
		// <layers> and <edges> are interpreted as they are read; their errors are the same.
		{`<net version="11"><layers><layer id="0" type="X"/></layers><layers><layer id="1" type="X"/></layers></net>`, "m.xml:1: a second <layers> element"},
		{`<net version="11"><layers/><layers/></net>`, "m.xml:1: a second <layers> element"},
		{`<net version="11"><layers/><edges><!--c--></edges><edges><edge/></edges></net>`, "m.xml:1: a second <edges> element"},
		{"<net version=\"11\"><layers>\n<layer id=\"0\" type=\"X\"/>\ntext</layers></net>", "m.xml:2: unexpected text in <layers>"},
		{"<net version=\"11\"><layers/><edges>\n<?pi?></edges></net>", "m.xml:2: unexpected processing instruction in <edges>"},
		{`<net version="11"><layers/><edges><layer/></edges></net>`, "unexpected <layer> in <edges>"},
		{`<net version="9"><layers><layer id="x" type="X"/></layers></net>`, `IR version "9" is not supported`},
		{`<model version="11"><layers><layer id="x" type="X"/></layers></model>`, "the root element is <model>, not <net>"},
	}
	for _, c := range cases {
		_, err := Parse(strings.NewReader(c.src), "m.xml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "m.xml:") {
			t.Errorf("Parse(%q) = %v, want an error containing %q", c.src, err, c.want)
		}
	}
}

// TestByteOrderMark reads a model that starts with a UTF-8 byte-order mark, with and without an
// XML declaration after it, as the same model without the mark; attributes that differ only in
// their prefix are distinct.
func TestByteOrderMark(t *testing.T) {
	for _, src := range []string{
		`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<net name="n" version="11" a:v="1" b:v="2"><layers/></net>`,
		`<net name="n" version="11" a:v="1" b:v="2"><layers/></net>`,
	} {
		want, err := Parse(strings.NewReader(src), "m.xml")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(strings.NewReader("\ufeff"+src), "m.xml")
		if err != nil {
			t.Errorf("with a byte-order mark: %v", err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("with a byte-order mark: %+v, want %+v", got, want)
		}
	}
}

func TestSplitJoinNames(t *testing.T) {
	cases := []struct {
		raw   string
		names []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"const,const:0", []string{"const", "const:0"}},
		{`a\,b,c`, []string{"a,b", "c"}},
		{"x, y", []string{"x", "y"}},
	}
	for _, c := range cases {
		if got := splitNames(c.raw); !reflect.DeepEqual(got, c.names) {
			t.Errorf("splitNames(%q) = %q, want %q", c.raw, got, c.names)
		}
		if c.names != nil {
			if got := splitNames(joinNames(c.names)); !reflect.DeepEqual(got, c.names) {
				t.Errorf("splitNames(joinNames(%q)) = %q", c.names, got)
			}
		}
	}
	if got := joinNames([]string{"a,b", "c"}); got != `a\,b,c` {
		t.Errorf("joinNames = %q", got)
	}
}

// TestWriteEscaping checks that values needing escapes survive a round trip.
func TestWriteEscaping(t *testing.T) {
	src := "<net name=\"a&amp;b &lt;&quot;&gt;&#x9;&#xA;\" version=\"11\"><layers>" +
		"<layer id=\"0\" name=\"p\" type=\"Parameter\" version=\"opset1\"><data shape=\"1\" element_type=\"f32\"/>" +
		"<output><port id=\"0\" precision=\"f32\" names=\"x\\,y,z\"><dim>1</dim></port></output></layer>" +
		"</layers><edges/><rt_info><v>text &amp; <b>bold</b> more</v><![CDATA[<raw>]]></rt_info></net>"
	m, err := Parse(strings.NewReader(src), "e.xml")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "a&b <\">\t\n" {
		t.Errorf("name = %q", m.Name)
	}
	out := m.String()
	m2, err := Parse(strings.NewReader(out), "e2.xml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(strip(m), strip(m2)) {
		t.Errorf("escaped model changed:\n%s", out)
	}
	if p := m2.Layers[0].Outputs[0]; p.Precision != "f32" || !reflect.DeepEqual(p.NameList(), []string{"x,y", "z"}) {
		t.Errorf("port %q %q", p.Precision, p.NameList())
	}
	if v := m2.Extra[0].Child("v"); v == nil || len(v.Children) != 3 || v.Children[0].Text != "text & " {
		t.Errorf("mixed content: %+v", v)
	}
}
