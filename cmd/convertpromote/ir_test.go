package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
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
