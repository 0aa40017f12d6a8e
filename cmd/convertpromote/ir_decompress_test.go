package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/ir"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/npy"
)

// TestIRDecompressExamples: every example of ir decompress -h runs (outputs in a temporary
// directory) and writes a model that ir check accepts.
func TestIRDecompressExamples(t *testing.T) {
	_, section, ok := strings.Cut(irDecompressUsage, "\nExamples:\n")
	if !ok {
		t.Fatal("ir decompress -h has no examples")
	}
	section, _, _ = strings.Cut(section, "\n\n")
	dir := t.TempDir()
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(section), "\n") {
		words := strings.Fields(line)
		if len(words) < 3 || words[0] != "convertpromote" || words[1] != "ir" || words[2] != "decompress" {
			t.Errorf("example %q is not an ir decompress command line", line)
			continue
		}
		var out string
		for i, w := range words {
			switch {
			case strings.HasPrefix(w, "testdata/"):
				words[i] = filepath.Join("..", "..", w)
			case strings.HasPrefix(w, "/tmp/"):
				words[i] = filepath.Join(dir, strings.TrimPrefix(w, "/tmp/"))
				out = words[i]
			}
		}
		code, stdout, errs := cli(t, "", words[1:]...)
		if code != 0 || !strings.Contains(stdout, "replaced") {
			t.Errorf("example %q: exit %d\n%s%s", line, code, stdout, errs)
			continue
		}
		if code, stdout, errs := cli(t, "", "ir", "check", out); code != 0 {
			t.Errorf("example %q: ir check of the output: exit %d\n%s%s", line, code, stdout, errs)
		}
		n++
	}
	if n == 0 {
		t.Error("no example ran")
	}
}

// TestIRDecompressUsage: exit codes and messages of bad command lines, and -o naming the model
// or its .bin; nothing is written.
func TestIRDecompressUsage(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.xml")
	for _, f := range []string{"int_modes.xml", "int_modes.bin"} {
		data, err := os.ReadFile(irTestdata(filepath.Join("compressed", f)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "m"+filepath.Ext(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	orig, _ := os.ReadFile(model)
	origBin, _ := os.ReadFile(ir.BinPath(model))
	out := filepath.Join(dir, "out.xml")
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{model}, "-o OUT.xml is required"},
		{[]string{model, "-o", out, "--to", "i8"}, `--to "i8": give f32, f16 or bf16`},
		{[]string{model, "-o", out, "--to", "f64"}, `--to "f64": give f32, f16 or bf16`},
		{[]string{model, "-o", model}, "would overwrite the model " + model},
		{[]string{model, "-o", ir.BinPath(model)}, "would overwrite the model's .bin"},
		{[]string{model, "-o", filepath.Join(dir, "m.XML")}, "the output's .bin " + ir.BinPath(model) + " would overwrite the model's .bin"},
		{[]string{model, "-o", out, "--max-memory", "1G"}, "--max-memory is a flag of ir run and ir fold"},
		{[]string{"-o", out}, "give one MODEL.xml"},
	}
	for _, c := range cases {
		code, stdout, errs := cli(t, "", append([]string{"ir", "decompress"}, c.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(errs, c.err) {
			t.Errorf("ir decompress %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, errs, c.err)
		}
	}
	for _, sub := range []string{"fold", "decompose", "run", "check"} {
		args := []string{"ir", sub, model, "--to", "f16"}
		if sub == "fold" || sub == "decompose" {
			args = append(args, "-o", out)
		}
		if code, _, errs := cli(t, "", args...); code != 2 || !strings.Contains(errs, "--to is a flag of ir decompress") {
			t.Errorf("ir %s --to f16: exit %d, stderr %q", sub, code, errs)
		}
	}
	if now, _ := os.ReadFile(model); !bytes.Equal(now, orig) {
		t.Error("the model changed")
	}
	if now, _ := os.ReadFile(ir.BinPath(model)); !bytes.Equal(now, origBin) {
		t.Error("the model's .bin changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d files, want the model's 2", len(entries))
	}
}

// TestIRDecompressNone: a model without compressed weights says so, exits 0 and is written
// unchanged.
func TestIRDecompressNone(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sub", "out.xml")
	model := irTestdata("example1_promote_floats.xml")
	code, stdout, errs := cli(t, "", "ir", "decompress", model, "-o", out)
	if code != 0 || errs != "" || stdout != model+": no compressed weights; wrote "+out+" unchanged\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	want, _ := os.ReadFile(ir.BinPath(model))
	if got, err := os.ReadFile(ir.BinPath(out)); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the .bin was not copied unchanged: %v", err)
	}
	if code, _, errs := cli(t, "", "ir", "check", out); code != 0 {
		t.Errorf("ir check of the output: exit %d: %s", code, errs)
	}
}

// TestIRDecompressMalformed: a subgraph whose scale does not broadcast onto its codes is an
// error located at its file and line, exit 1, nothing written.
func TestIRDecompressMalformed(t *testing.T) {
	src, err := os.ReadFile(irTestdata("compressed/int_modes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(irTestdata("compressed/int_modes.bin"))
	if err != nil {
		t.Fatal(err)
	}
	const from = `<data element_type="f16" shape="4, 1" offset="36" size="8" />
			<output><port id="0" precision="FP16"><dim>4</dim><dim>1</dim></port></output>`
	const to = `<data element_type="f16" shape="3, 1" offset="36" size="8" />
			<output><port id="0" precision="FP16"><dim>3</dim><dim>1</dim></port></output>`
	bad := strings.Replace(string(src), from, to, 1)
	if bad == string(src) {
		t.Fatal("int_modes.xml has changed; update this test")
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "bad.xml")
	if err := os.WriteFile(model, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ir.BinPath(model), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xml")
	code, stdout, errs := cli(t, "", "ir", "decompress", model, "-o", out)
	if code != 1 || stdout != "" || !strings.HasPrefix(errs, model+":") || !strings.Contains(errs, "layer") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %s:LINE: ... layer ...", code, stdout, errs, model)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output was written: %v", err)
	}
}

// TestIRDecompressRoundTrip: for each --to (and none), the written model reads back, ir check
// accepts it, and what ir run computes from it equals ir run of the original: the Consts hold
// the .npy values ir run writes for each subgraph's last layer (converted with kernels.Convert
// for --to); with --to f16 the Convert back to f32 runs to the original values, since the
// NNCF subgraphs compute in f16.
func TestIRDecompressRoundTrip(t *testing.T) {
	for _, model := range []string{irTestdata("compressed/int_modes.xml"), irTestdata("eval_ops.xml")} {
		m, err := ir.Read(model)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := m.CompressedWeights()
		if err != nil || len(ws) == 0 {
			t.Fatalf("%s: %d weights, %v", model, len(ws), err)
		}
		dir := t.TempDir()
		origDir := filepath.Join(dir, "orig")
		if code, _, errs := cli(t, "", "ir", "run", model, "--out", origDir); code != 0 {
			t.Fatalf("ir run %s: %s", model, errs)
		}
		orig := readNPYDir(t, origDir)
		for _, to := range []string{"", "f32", "f16", "bf16"} {
			out := filepath.Join(dir, "out"+to+".xml")
			args := []string{"ir", "decompress", model, "-o", out}
			if to != "" {
				args = append(args, "--to", to)
			}
			code, stdout, errs := cli(t, "", args...)
			if code != 0 || errs != "" || !strings.Contains(stdout, "replaced") {
				t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, errs)
			}
			if code, stdout, errs := cli(t, "", "ir", "check", out); code != 0 {
				t.Errorf("%v: ir check: exit %d\n%s%s", args, code, stdout, errs)
			}
			d, err := ir.Read(out)
			if err != nil {
				t.Fatal(err)
			}
			runDir := filepath.Join(dir, "run"+to)
			if code, _, errs := cli(t, "", "ir", "run", out, "--out", runDir); code != 0 {
				t.Fatalf("%v: ir run: %s", args, errs)
			}
			after := readNPYDir(t, runDir)
			for name, b := range after {
				if o, ok := orig[name]; ok && !bytes.Equal(o, b) && (to == "" || to == "f32" || to == "f16") {
					t.Errorf("%v: ir run's %s differs from the original's", args, name)
				}
			}
			for i := range ws {
				w := &ws[i]
				name := w.Output.Name
				want, ok := orig[npyFileName(outputName(w.Output), map[string]int{})]
				if !ok {
					t.Fatalf("ir run of %s wrote no .npy for %s", model, name)
				}
				tt := w.Type
				if to != "" {
					tt, _ = element.Parse(to)
				}
				if tt != w.Type {
					conv := make([]byte, int(w.Elements)*tt.Bits()/8)
					if err := kernels.Convert(conv, tt, want, w.Type, int(w.Elements)); err != nil {
						t.Fatal(err)
					}
					want = conv
					name += "_compressed"
				}
				l := d.LayerByName(name)
				if l == nil || l.Type != "Const" {
					t.Fatalf("%v: no Const %s", args, name)
				}
				ci, got, err := d.ConstData(l)
				if err != nil {
					t.Fatal(err)
				}
				if ci.Type != tt || !bytes.Equal(got, want) {
					t.Errorf("%v: Const %s (%s) differs from ir run of the original", args, name, ci.Type)
				}
				if to == "f16" && w.Type == element.F32 {
					if _, ok := after[npyFileName(outputName(w.Output), map[string]int{})]; !ok {
						t.Errorf("%v: ir run did not compute the Convert %s", args, w.Output.Name)
					}
				}
			}
		}
	}
}

// outputName is the name ir run gives output port 0 of l: its first tensor name, else
// "LAYER:PORT".
func outputName(l *ir.Layer) string {
	if names := l.Outputs[0].NameList(); len(names) > 0 {
		return names[0]
	}
	return l.Name + ":" + strconv.FormatInt(l.Outputs[0].ID, 10)
}

// readNPYDir reads every .npy in dir: the tensors' bytes by file name (f32 as written; ir run
// writes f16 as f16).
func readNPYDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.npy"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		tn, err := npy.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = tn.Bytes()
	}
	return out
}
