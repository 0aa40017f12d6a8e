package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
	"github.com/convertpromote/convertpromote/npy"
	"github.com/convertpromote/convertpromote/op"
)

func irTestdata(name string) string { return filepath.Join("..", "..", "testdata", "ir", name) }

func TestIRCheckCLI(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string // substrings
	}{
		{[]string{"ir", "check", irTestdata("example1_promote_floats.xml")}, 0,
			"layer 2 (example1): f16[256,56] + f32[3] -> f32", ""},
		{[]string{"ir", "check", irTestdata("example3_u64_unsafe.xml")}, 0,
			"i16[256,56] + u64[3] -> f32  [promote_unsafe=true", ""},
		{[]string{"ir", "check", irTestdata("pytorch_scalar.xml")}, 0, "i64[] + u8[4] -> u8", ""},
		{[]string{"ir", "check", "--embedded"}, 0, "ConvertPromoteTypes: 3", ""},
		{[]string{"ir", "check", irTestdata("example1_promote_floats.xml")}, 0, "offset and size of 2 Consts checked against it", ""},
		{[]string{"ir", "check", irTestdata("safe_fail_f16_i64.xml")}, 1, "",
			irTestdata("safe_fail_f16_i64.xml") + ":21: layer 2 (promote): Integer input cannot be safely promoted to floating-point."},
		{[]string{"ir", "check", irTestdata("bad/cycle.xml")}, 1, "", "cycle.xml:22: layer 2 (promote): the graph has a cycle"},
		{[]string{"ir", "check", irTestdata("bad/malformed.xml")}, 1, "", "malformed.xml:11: malformed XML"},
		{[]string{"ir", "check", irTestdata("no_such_model.xml")}, 1, "", "no such file"},
		{[]string{"ir", "check"}, 2, "", "give one MODEL.xml"},
		{[]string{"ir", "check", "a.xml", "b.xml"}, 2, "", "give one MODEL.xml"},
		{[]string{"ir", "check", "--bogus", "a.xml"}, 2, "", "bogus"},
		{[]string{"ir", "frobnicate", "a.xml"}, 2, "", `unknown subcommand "frobnicate"`},
		{[]string{"ir"}, 2, "", "Usage: convertpromote ir"},
		{[]string{"ir", "-h"}, 0, "Examples:", ""},
		{[]string{"ir", "check", "-h"}, 0, "Examples:", ""},
		{[]string{"ir", "decompose", irTestdata("example1_promote_floats.xml")}, 2, "", "-o OUT.xml is required"},
	}
	for _, c := range cases {
		code, out, errs := cli(t, "", c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%q: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, stdout ∋ %q, stderr ∋ %q", c.args, code, out, errs, c.code, c.out, c.err)
		}
	}
}

func TestIRCheckWithoutBin(t *testing.T) {
	data, err := os.ReadFile(irTestdata("example1_promote_floats.xml"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "m.xml")
	os.WriteFile(p, data, 0o644)
	code, out, errs := cli(t, "", "ir", "check", p)
	if code != 0 || !strings.Contains(out, "m.bin is absent; offset and size of 2 Consts NOT checked") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

func TestIRDecomposeCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.xml")
	// Flags after the model.
	code, stdout, errs := cli(t, "", "ir", "decompose", irTestdata("subbyte_consts.xml"), "-o", out)
	if code != 0 || !strings.Contains(stdout, "replaced 4 ConvertPromoteTypes layers by 8 Convert layers") {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	m, err := ir.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := m.Check(); err != nil || !rep.BinChecked || len(rep.Promotes) != 0 {
		t.Errorf("decomposed model: %+v %v", rep, err)
	}
	cv := m.LayerByName("bits_u1/u1_f32.0")
	if cv == nil {
		t.Fatal("no Convert bits_u1/u1_f32.0")
	}
	if d, _ := cv.DataAttr("destination_type"); d != "f32" {
		t.Errorf("destination_type %q", d)
	}
	// The .bin was carried over: its Consts still read.
	if _, data, err := m.ConstData(m.LayerByName("bits_u1")); err != nil || len(data) != 2 || data[0] != 0xB2 {
		t.Errorf("ConstData after decompose: %x %v", data, err)
	}
	// A model that does not check is not decomposed.
	code, _, errs = cli(t, "", "ir", "decompose", "-o", out, irTestdata("safe_fail_u64_i8.xml"))
	if code != 1 || !strings.Contains(errs, "Unsigned integer input cannot be safely promoted") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestIRRunCLI(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := cli(t, "", "ir", "run", "--out", dir, irTestdata("f8_consts.xml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"e4m3_e5m2:0  f16[8]  0, 1, -1, 448, NaN, 0.001953125, -0, 2\n",
		"e4m3_e5m2:1  f16[8]  1, 57344, +Inf, -Inf, NaN, 1.5258789e-05, -0, 2\n",
		"e4m3_bf16:0  bf16[4]  1, 3, -2, 0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"e4m3_e5m2_0.npy", "e4m3_e5m2_1.npy", "e4m3_bf16_0.npy", "e4m3_bf16_1.npy"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.HasPrefix(string(data), "\x93NUMPY\x01\x00") {
			t.Errorf("%s: %v", f, err)
		}
	}
	// bf16 is written as its f32 values.
	if data, _ := os.ReadFile(filepath.Join(dir, "e4m3_bf16_0.npy")); !strings.Contains(string(data), "'descr': '<f4'") {
		t.Errorf("bf16 .npy header: %q", data)
	}

	code, out, _ = cli(t, "", "ir", "run", "--embedded", "--values", "2")
	if code != 0 || !strings.Contains(out, "example3:1  f32[3]  0, 1.8446744e+19, ... (3 values)") {
		t.Errorf("embedded: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, "", "ir", "run", irTestdata("parameter_input.xml"))
	if code != 0 || !strings.Contains(out, "not evaluated: layer 2 (promote)") {
		t.Errorf("parameter: exit %d\n%s", code, out)
	}

	// Missing .bin: a clear error, exit 1.
	data, _ := os.ReadFile(irTestdata("example1_promote_floats.xml"))
	p := filepath.Join(t.TempDir(), "nobin.xml")
	os.WriteFile(p, data, 0o644)
	code, _, errs = cli(t, "", "ir", "run", p)
	if code != 1 || !strings.Contains(errs, p+":5: layer 0 (lhs_f16): Const data is not available") {
		t.Errorf("no .bin: exit %d: %s", code, errs)
	}
	code, _, errs = cli(t, "", "ir", "fold", p, "-o", filepath.Join(t.TempDir(), "f.xml"))
	if code != 1 || !strings.Contains(errs, "Const data is not available") {
		t.Errorf("fold without .bin: exit %d: %s", code, errs)
	}
	code, _, errs = cli(t, "", "ir", "run", "--values", "-1", "--embedded")
	if code != 2 {
		t.Errorf("--values -1: exit %d: %s", code, errs)
	}
}

func TestIRFoldCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "folded.xml")
	code, stdout, errs := cli(t, "", "ir", "fold", "-o", out, irTestdata("u64_custom_target.xml"))
	if code != 0 || !strings.Contains(stdout, "folded 1 layer into Consts") {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	code, stdout, errs = cli(t, "", "ir", "check", out)
	if code != 0 || !strings.Contains(stdout, "layers: 2 Const, 2 Result") {
		t.Errorf("folded check: exit %d\n%s%s", code, stdout, errs)
	}
	code, stdout, _ = cli(t, "", "ir", "run", out)
	if code != 0 || !strings.Contains(stdout, "promote/sink_port_0  i64[4]  0, 1, -9223372036854775808, -1") {
		t.Errorf("folded run: exit %d\n%s", code, stdout)
	}
	// -o creates missing directories.
	nested := filepath.Join(t.TempDir(), "no", "dir.xml")
	code, _, errs = cli(t, "", "ir", "fold", "-o", nested, irTestdata("u64_custom_target.xml"))
	if code != 0 {
		t.Errorf("fold into a missing directory: exit %d: %s", code, errs)
	}
	for _, f := range []string{nested, ir.BinPath(nested)} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}

func TestIRCheckSnippet(t *testing.T) {
	// As pasted from the specification: a comma between attributes and "< !--".
	snippet := `<layer ... type="ConvertPromoteTypes">
    <data promote_unsafe="true" pytorch_scalar_promotion="false" u64_integer_promotion_target="f32"/>
    <input>
        <port id="0" precision="I16"><dim>4</dim></port>
        <port id="1" precision="U64"><dim>3</dim></port>
    </input>
    <output>
        <port id="2" precision="FP32", names="ConvertPromoteTypes:0">  < !-- the target -->
            <dim>4</dim>
        </port>
        <port id="3" precision="I64", names="ConvertPromoteTypes:1"><dim>3</dim></port>
    </output>
</layer>
`
	p := filepath.Join(t.TempDir(), "pasted.xml")
	os.WriteFile(p, []byte(snippet), 0o644)
	code, out, errs := cli(t, "", "ir", "check", p)
	if code != 1 || !strings.Contains(out, "read tolerantly") ||
		!strings.Contains(errs, p+":11: layer 0 (layer0): output port 3 has precision I64 but the inputs (i16, u64) promote to f32") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	os.WriteFile(p, []byte(strings.Replace(snippet, `"I64", names`, `"FP32", names`, 1)), 0o644)
	if code, out, errs := cli(t, "", "ir", "check", p); code != 0 || !strings.Contains(out, "i16[4] + u64[3] -> f32") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

// TestIRHostileCLI runs ir check on every committed bad model: exit 1 and located errors.
func TestIRHostileCLI(t *testing.T) {
	files, _ := filepath.Glob(irTestdata("bad/*.xml"))
	if len(files) < 10 {
		t.Fatalf("only %d bad models", len(files))
	}
	for _, f := range files {
		code, _, errs := cli(t, "", "ir", "check", f)
		if filepath.Base(f) == "valid.xml" {
			if code != 0 {
				t.Errorf("%s: exit %d: %s", f, code, errs)
			}
			continue
		}
		if code != 1 || !strings.HasPrefix(errs, f+":") {
			t.Errorf("%s: exit %d: %s", f, code, errs)
		}
		// run fails the same way.
		if code, _, errs := cli(t, "", "ir", "run", f); code != 1 || !strings.HasPrefix(errs, f+":") {
			t.Errorf("run %s: exit %d: %s", f, code, errs)
		}
	}
}

func TestIRRunInputCLI(t *testing.T) {
	x, err := op.FromInt8([]int64{2, 3}, []int8{-128, -1, 0, 1, 2, 127})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.npy")
	f, _ := os.Create(p)
	if err := npy.Write(f, x); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, out, errs := cli(t, "", "ir", "run", irTestdata("parameter_input.xml"), "--input", "x="+p)
	if code != 0 || !strings.Contains(out, "promote:0  f32[2,3]  -128, -1, 0, 1, 2, 127\n") || !strings.Contains(out, "promote:1  f32[3]  0.5, -1, 2\n") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = cli(t, "", "ir", "run", irTestdata("parameter_input.xml"), "--input", "y="+p)
	if code != 1 || !strings.Contains(errs, `input "y" matches no Parameter`) {
		t.Errorf("unknown input: exit %d: %s", code, errs)
	}
	code, _, errs = cli(t, "", "ir", "run", irTestdata("parameter_input.xml"), "--input", "x")
	if code != 2 || !strings.Contains(errs, "want NAME=FILE.npy") {
		t.Errorf("bad --input: exit %d: %s", code, errs)
	}
	code, _, errs = cli(t, "", "ir", "run", irTestdata("parameter_input.xml"), "--input", "x="+irTestdata("parameter_input.bin"))
	if code != 1 || !strings.Contains(errs, "bad magic") {
		t.Errorf("not an npy: exit %d: %s", code, errs)
	}
}
