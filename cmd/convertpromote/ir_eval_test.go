package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/ir"
	"github.com/convertpromote/convertpromote/npy"
	"github.com/convertpromote/convertpromote/quant"
)

// evalOpsWeight is the weight of testdata/ir/eval_ops.xml as quant.Dequantize computes it from
// the model's codes, zero points and scales (int4_asym, groups of 4), in f32.
func evalOpsWeight(t *testing.T) []byte {
	m, err := ir.Read(irTestdata("eval_ops.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var q quant.Data
	for name, dst := range map[string]*[]byte{"codes": &q.Codes, "w/zero_point": &q.Zeros, "w/scale": &q.Scales} {
		if _, *dst, err = m.ConstData(m.LayerByName(name)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := quant.NNCF("int4_asym", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 32*4)
	if err := quant.Dequantize(want, element.F32, q, s, 32); err != nil {
		t.Fatal(err)
	}
	return want
}

// TestIREvalOpsCLI: ir run and ir fold on a model with a decompression subgraph and a Gather:
// the weight equals quant.Dequantize's, the folded model holds it in one Const and runs alike.
func TestIREvalOpsCLI(t *testing.T) {
	want := evalOpsWeight(t)
	dir := t.TempDir()
	code, stdout, errs := cli(t, "", "ir", "run", irTestdata("eval_ops.xml"), "--out", dir)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, errs)
	}
	// Gather-8 of rows -1 (the last), 1 and 7 (out of range: zeros), transposed.
	for _, line := range []string{
		"emb/transpose  f16[3,3]  3, -1.5, 0, 3.5, -1, 0, 4, -0.5, ... (9 values)",
		"w/fq_weights_1/convert  f32[4,8]  ",
		"  compressed weight (int4_asym: 1 weight, group 4, 36 B stored, 128 B decompressed), decompressed as one unit from layer 0 (codes); the subgraph's other 6 layers are not listed\n",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("run output lacks %q:\n%s", line, stdout)
		}
	}
	// The intermediate tensors are not computed.
	for _, name := range []string{"w/zero_point/subtract", "w/scale/unsqueeze", "w/reshape", "codes/convert"} {
		if strings.Contains(stdout, name) {
			t.Errorf("run output lists %s:\n%s", name, stdout)
		}
	}
	got, err := npy.ReadFile(filepath.Join(dir, "w_fq_weights_1_convert.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("run: weight %x, quant.Dequantize gives %x", got.Bytes(), want)
	}
	out := filepath.Join(dir, "folded.xml")
	code, stdout, errs = cli(t, "", "ir", "fold", irTestdata("eval_ops.xml"), "-o", out)
	if code != 0 || !strings.Contains(stdout, "folded 2 layers into Consts") {
		t.Fatalf("fold: exit %d\n%s%s", code, stdout, errs)
	}
	code, stdout, errs = cli(t, "", "ir", "check", out)
	if code != 0 || !strings.Contains(stdout, "layers: 2 Const, 1 MatMul, 1 Parameter, 2 Result") {
		t.Errorf("folded check: exit %d\n%s%s", code, stdout, errs)
	}
	code, stdout, _ = cli(t, "", "ir", "run", out)
	if code != 0 || !strings.Contains(stdout, "emb/sink_port_0  f16[3,3]  3, -1.5, 0, 3.5, -1, 0, 4, -0.5, ... (9 values)") {
		t.Errorf("folded run: exit %d\n%s", code, stdout)
	}
	m, err := ir.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, data, err := m.ConstData(m.LayerByName("w/fq_weights_1/convert")); err != nil || !bytes.Equal(data, want) {
		t.Errorf("folded weight %x %v", data, err)
	}
	code, _, errs = cli(t, "", "ir", "run", "--max-memory", "200B", irTestdata("eval_ops.xml"))
	if code != 1 || !strings.Contains(errs, "more than the memory budget of 200 B") {
		t.Errorf("--max-memory 200B: exit %d: %s", code, errs)
	}
}
