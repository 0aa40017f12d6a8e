package ir

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

// wantCommon is the common type of each ConvertPromoteTypes layer of the valid models, worked
// out by hand from docs/SEMANTICS.md §2.2 (file → layer name → type).
var wantCommon = map[string]map[string]element.Type{
	"example1_promote_floats.xml":  {"example1": element.F32}, // step 6c: wider float
	"example2_integers_unsafe.xml": {"example2": element.I64}, // 6b: u32 + i16, unsafe → i64
	"example3_u64_unsafe.xml":      {"example3": element.F32}, // 6b: u64, unsafe → target f32
	"spec_examples.xml":            {"example1": element.F32, "example2": element.I64, "example3": element.F32},
	"u64_custom_target.xml":        {"promote": element.I64}, // 6b: target i64
	"pytorch_scalar.xml": {
		"scalar_i64_tensor_u8": element.U8,  // 6a: the dimensioned input's type (unsafe)
		"scalar_i8_tensor_i32": element.I32, // 6a: safe, i32 ≥ i8
		"scalar_f16_tensor_i8": element.F16, // 5: float and integer, scalars play no part
	},
	"subbyte_consts.xml": {
		"u1_f32":   element.F32, // 5: 32 ≥ 2·1
		"u4_i8":    element.I8,  // 6b: 2·4 ≤ 8 → i8
		"i4_f16":   element.F16, // 5: 16 ≥ 2·4
		"nf4_bf16": element.F32, // 6c: f32 (the nf4 Convert's output) wider than bf16
	},
	"f8_consts.xml": {
		"e4m3_e5m2": element.F16,  // 6d unsafe
		"e4m3_bf16": element.BF16, // 6c
	},
	"parameter_input.xml":  {"promote": element.F32},                      // 5: 32 ≥ 2·8
	"valid.xml":            {"promote": element.F32},                      // 6c
	"chain_parameters.xml": {"first": element.I16, "second": element.F32}, // 6c twice
	"loop_body.xml":        {"inner": element.F16, "outer": element.F32},  // 5: 16 ≥ 2·8; 6c
}

func TestCheckValidModels(t *testing.T) {
	for _, f := range validModels(t) {
		m, err := Read(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := m.Check()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if rep.Consts > 0 && !rep.BinChecked {
			t.Errorf("%s: .bin not checked", f)
		}
		want := wantCommon[filepath.Base(f)]
		if len(rep.Promotes) != len(want) {
			t.Errorf("%s: %d ConvertPromoteTypes layers, want %d", f, len(rep.Promotes), len(want))
		}
		for _, p := range rep.Promotes {
			if w, ok := want[p.Layer.Name]; !ok || p.Common != w || p.Err != nil {
				t.Errorf("%s: %s: common %s (err %v), want %s", f, p.Layer.Name, p.Common, p.Err, w)
			}
		}
	}
}

func TestCheckSafeFailures(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "ir")
	cases := []struct {
		file string
		want error
	}{
		{"safe_fail_f16_i64.xml", promote.ErrIntToFloat},
		{"safe_fail_u64_i8.xml", promote.ErrUnsigned},
		{"safe_fail_pytorch_scalar.xml", promote.ErrPyTorchScalar},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		m, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Check()
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.file, err, c.want)
			continue
		}
		prefix := path + ":"
		if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), ": layer 2 (promote): "+c.want.Error()) {
			t.Errorf("%s: message %q", c.file, err)
		}
	}
}

func TestCheckWithoutBin(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "ir", "example1_promote_floats.xml")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "m.xml")
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Read(dst)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := m.Check()
	if err != nil || rep.BinChecked || rep.Consts != 2 {
		t.Errorf("without .bin: %+v, %v", rep, err)
	}
	if _, _, err := m.ConstData(m.Layers[0]); err == nil || !strings.Contains(err.Error(), "m.xml:5: layer 0 (lhs_f16): Const data is not available") {
		t.Errorf("ConstData = %v", err)
	}
	// A short .bin is reported by Check.
	if err := os.WriteFile(BinPath(dst), make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ = Read(dst)
	if _, err := m.Check(); err == nil || !strings.Contains(err.Error(), "runs past the end of") {
		t.Errorf("short .bin: %v", err)
	}
}

func TestParsePromoteAttrs(t *testing.T) {
	mk := func(attrs ...Attr) *Layer {
		return &Layer{Type: OpType, Data: &Node{Kind: ElementNode, Name: "data", Attrs: attrs}}
	}
	o, err := parsePromoteAttrs(&Layer{Type: OpType})
	if err != nil || o.PromoteUnsafe || o.PyTorchScalarPromotion || o.U64IntegerPromotionTarget != element.F32 {
		t.Errorf("defaults: %+v %v", o, err)
	}
	for _, v := range []struct {
		s    string
		want bool
		ok   bool
	}{{"true", true, true}, {"1", true, true}, {"false", false, true}, {"0", false, true},
		{"True", false, false}, {"yes", false, false}, {"", false, false}, {" true", false, false}} {
		o, err := parsePromoteAttrs(mk(Attr{"promote_unsafe", v.s}, Attr{"pytorch_scalar_promotion", v.s}))
		if (err == nil) != v.ok || (v.ok && (o.PromoteUnsafe != v.want || o.PyTorchScalarPromotion != v.want)) {
			t.Errorf("%q: %+v %v", v.s, o, err)
		}
		if !v.ok && (err == nil || !strings.Contains(err.Error(), "promote_unsafe")) {
			t.Errorf("%q: error does not name the attribute: %v", v.s, err)
		}
	}
	for _, ty := range element.All() {
		if ty.IsFNUZ() {
			continue // not an OpenVINO type: TestFNUZRejected
		}
		o, err := parsePromoteAttrs(mk(Attr{"u64_integer_promotion_target", ty.String()}))
		if err != nil || o.U64IntegerPromotionTarget != ty {
			t.Errorf("target %s: %v %v", ty, o.U64IntegerPromotionTarget, err)
		}
		if up := ty.IRPrecision(); up != ty.String() {
			if _, err := parsePromoteAttrs(mk(Attr{"u64_integer_promotion_target", up})); err == nil {
				t.Errorf("target %q (IR spelling) accepted", up)
			}
		}
	}
	if _, err := parsePromoteAttrs(mk(Attr{"u64_integer_promotion_target", "f33"})); err == nil || !strings.Contains(err.Error(), "u64_integer_promotion_target") {
		t.Errorf("bad target: %v", err)
	}
	if _, err := parsePromoteAttrs(mk(Attr{"auto_broadcast", "numpy"})); err == nil || !strings.Contains(err.Error(), "unknown attribute auto_broadcast") {
		t.Errorf("unknown attribute: %v", err)
	}
}

// checkSrc parses an IR text and checks it.
func checkSrc(t *testing.T, src string) (*Report, error) {
	t.Helper()
	m, err := Parse(strings.NewReader(src), "t.xml")
	if err != nil {
		t.Fatal(err)
	}
	return m.Check()
}

const dynRankModel = `<net name="d" version="11"><layers>
<layer id="0" name="p" type="Parameter" version="opset1"><data shape="..." element_type="i32"/><output><port id="0" precision="I32"/></output></layer>
<layer id="1" name="s" type="Parameter" version="opset1"><data shape="" element_type="i8"/><output><port id="0" precision="I8"/></output></layer>
<layer id="2" name="c" type="ConvertPromoteTypes" version="opset14"><data pytorch_scalar_promotion="PT"/>
<input><port id="0" precision="I32"/><port id="1" precision="I8"/></input>
<output><port id="2" precision="OUT"/><port id="3" precision="OUT"/></output></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="2" to-port="0"/><edge from-layer="1" from-port="0" to-layer="2" to-port="1"/></edges></net>`

func TestCheckDynamicRank(t *testing.T) {
	// pytorch_scalar_promotion with an input of dynamic rank gives a dynamic type (docs/SEMANTICS.md §2.2, rule 6.1);
	// without it, i32 + i8 → i32.
	r := strings.NewReplacer("PT", "true", "OUT", "UNSPECIFIED")
	if rep, err := checkSrc(t, r.Replace(dynRankModel)); err != nil || rep.Promotes[0].Common != element.Dynamic {
		t.Errorf("dynamic rank, pytorch: %v %v", rep.Promotes[0].Common, err)
	}
	r = strings.NewReplacer("PT", "false", "OUT", "I32")
	if rep, err := checkSrc(t, r.Replace(dynRankModel)); err != nil || rep.Promotes[0].Common != element.I32 {
		t.Errorf("dynamic rank: %v %v", rep.Promotes[0].Common, err)
	}
	r = strings.NewReplacer("PT", "true", "OUT", "I32")
	if _, err := checkSrc(t, r.Replace(dynRankModel)); err == nil || !strings.Contains(err.Error(), "output port 2 has precision I32 but the inputs (i32, i8) promote to dynamic") {
		t.Errorf("dynamic rank, declared I32: %v", err)
	}
}

func TestCheckGraphErrors(t *testing.T) {
	base := strings.NewReplacer("PT", "false", "OUT", "I32").Replace(dynRankModel)
	cases := []struct {
		old, new, want string
	}{
		{`<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`, `<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/><edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>`,
			"layer 2 (c): input port 1 has two producers"},
		{`<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`, `<edge from-layer="2" from-port="0" to-layer="2" to-port="1"/>`,
			"layer 2 (c): edge 2:0 -> 2:1: port 0 is an input port; an edge must start at an output port"},
		{`<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`, `<edge from-layer="1" from-port="0" to-layer="2" to-port="3"/>`,
			"layer 2 (c): edge 1:0 -> 2:3: port 3 is an output port; an edge must end at an input port"},
		{`<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`, `<edge from-layer="9" from-port="0" to-layer="2" to-port="1"/>`,
			"layer 2 (c): edge 9:0 -> 2:1: no layer with id 9"},
		{`<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`, ``,
			"layer 2 (c): input 1 is not connected"},
		{`<layer id="1" name="s"`, `<layer id="0" name="s"`, "duplicate layer id 0"},
		{`<input><port id="0" precision="I32"/><port id="1" precision="I8"/>`, `<input><port id="0" precision="I32"/><port id="1" precision="I16"/>`,
			"edge 1:0 -> 2:1: input port 1 has precision I16 but layer 1 (s) port 0 produces I8"},
		{`<port id="3" precision="I32"/>`, `<port id="2" precision="I32"/>`, "duplicate port id 2"},
		{`element_type="i32"`, `element_type="int"`, `element_type: unknown element type "int"`},
		{`<data shape="" element_type="i8"/>`, `<data shape="" element_type="i16"/>`, "output port 0 has precision I8 but element_type is i16"},
	}
	for _, c := range cases {
		src := strings.Replace(base, c.old, c.new, 1)
		if src == base {
			t.Fatalf("replacement %q not applied", c.old)
		}
		if _, err := checkSrc(t, src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q → %q: %v, want %q", c.old, c.new, err, c.want)
		}
	}
}

const loopModel = `<net name="loop" version="11"><layers>
<layer id="0" name="n" type="Parameter" version="opset1"><data shape="" element_type="i64"/><output><port id="0" precision="I64"/></output></layer>
<layer id="1" name="loop" type="Loop" version="opset5"><input><port id="0" precision="I64"/></input><output><port id="1" precision="FP32"><dim>2</dim></port></output>
<port_map><input external_port_id="0" internal_layer_id="0"/><output external_port_id="1" internal_layer_id="3"/></port_map>
<back_edges/>
<body><layers>
<layer id="0" name="a" type="Parameter" version="opset1"><data shape="2" element_type="i8"/><output><port id="0" precision="I8"><dim>2</dim></port></output></layer>
<layer id="1" name="b" type="Parameter" version="opset1"><data shape="2" element_type="f32"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="2" name="inner" type="ConvertPromoteTypes" version="opset14">
<input><port id="0" precision="I8"><dim>2</dim></port><port id="1" precision="FP32"><dim>2</dim></port></input>
<output><port id="2" precision="OUT"><dim>2</dim></port><port id="3" precision="OUT"><dim>2</dim></port></output></layer>
<layer id="3" name="r" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/><edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="3" to-layer="3" to-port="0"/>
</edges></body></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>`

func TestCheckLoopBody(t *testing.T) {
	rep, err := checkSrc(t, strings.ReplaceAll(loopModel, "OUT", "FP32"))
	if err != nil || len(rep.Promotes) != 1 || rep.Promotes[0].Common != element.F32 || rep.Promotes[0].Layer.Name != "inner" {
		t.Errorf("good body: %+v %v", rep.Promotes, err)
	}
	_, err = checkSrc(t, strings.ReplaceAll(loopModel, "OUT", "FP16"))
	if err == nil || !strings.Contains(err.Error(), "t.xml:11: layer 2 (inner): output port 2 has precision FP16 but the inputs (i8, f32) promote to f32 [in the body of layer 1 (loop)]") {
		t.Errorf("bad body: %v", err)
	}
	_, err = checkSrc(t, strings.Replace(strings.ReplaceAll(loopModel, "OUT", "FP32"), "<body><layers>", "<body><layers><junk/>", 1))
	if err == nil || !strings.Contains(err.Error(), "[in the body of layer 1 (loop)]") {
		t.Errorf("malformed body: %v", err)
	}
	// The body survives a round trip untouched.
	m, _ := Parse(strings.NewReader(strings.ReplaceAll(loopModel, "OUT", "FP32")), "t.xml")
	m2, err := Parse(strings.NewReader(m.String()), "t2.xml")
	if err != nil || !reflect.DeepEqual(strip(m), strip(m2)) {
		t.Errorf("loop round trip: %v", err)
	}
}
