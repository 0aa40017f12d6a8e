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
	"github.com/convertpromote/convertpromote/op"
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

// TestIRDecompressMalformed: a malformed subgraph (the models in testdata/ir/compressed/bad,
// and int_modes.xml with a scale that does not broadcast onto its codes) is an error located at
// its file and line, exit 1, nothing written.
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
	edited := filepath.Join(dir, "bad.xml")
	if err := os.WriteFile(edited, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ir.BinPath(edited), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	models, _ := filepath.Glob(irTestdata("compressed/bad/*.xml"))
	for _, model := range append(models, edited) {
		out := filepath.Join(dir, "out", "out.xml")
		code, stdout, errs := cli(t, "", "ir", "decompress", model, "-o", out)
		if code != 1 || stdout != "" || !strings.HasPrefix(errs, model+":") || !strings.Contains(errs, ": layer ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %s:LINE: layer ...", model, code, stdout, errs, model)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: an output was written: %v", model, err)
		}
	}
}

// TestIRDecompressRoundTrip: for every model with compressed weights in testdata and each
// --to (and none), the written model reads back, ir check accepts it, and ir run of it agrees
// with ir run of the original: each weight's Const holds the values ir run writes for the
// subgraph's last layer (converted with kernels.Convert for --to), the Convert after it runs to
// those values converted back (for NNCF's f16 subgraphs, --to f16 thus gives the original
// values), and without --to or with --to f32 every other output is unchanged.
func TestIRDecompressRoundTrip(t *testing.T) {
	models, err := filepath.Glob(irTestdata("compressed/*.xml"))
	if err != nil || len(models) == 0 {
		t.Fatalf("no models in testdata/ir/compressed: %v", err)
	}
	lossless := 0 // weights that --to f16 stores without a change
	for _, model := range append(models, irTestdata("eval_ops.xml")) {
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
			weights := map[string]bool{}
			for i := range ws {
				w := &ws[i]
				file := npyFileName(outputName(w.Output), map[string]int{})
				weights[file] = true
				want := npyAs(t, orig, file, w.Type, int(w.Elements))
				name, tt := w.Output.Name, w.Type
				if to != "" {
					tt, _ = element.Parse(to)
				}
				if tt != w.Type {
					want = convertBytes(t, want, w.Type, tt, int(w.Elements))
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
				if tt == w.Type {
					continue
				}
				back := convertBytes(t, got, tt, w.Type, int(w.Elements))
				cv := d.LayerByName(w.Output.Name)
				if cv == nil || cv.Type != "Convert" {
					t.Fatalf("%v: no Convert %s", args, w.Output.Name)
				}
				if outputName(cv) != outputName(w.Output) {
					t.Errorf("%v: ir run names the Convert's output %s, the original %s", args, outputName(cv), outputName(w.Output))
				}
				if ran := npyAs(t, after, file, w.Type, int(w.Elements)); !bytes.Equal(ran, back) {
					t.Errorf("%v: ir run of the Convert %s differs from its Const converted back", args, w.Output.Name)
				}
				if to == "f16" && bytes.Equal(back, npyAs(t, orig, file, w.Type, int(w.Elements))) {
					lossless++
				}
			}
			if to != "" && to != "f32" {
				continue
			}
			for file, b := range after {
				if o, ok := orig[file]; ok && !weights[file] && !bytes.Equal(o.Bytes(), b.Bytes()) {
					t.Errorf("%v: ir run's %s differs from the original's", args, file)
				}
			}
		}
	}
	if lossless == 0 {
		t.Error("no weight went through --to f16 unchanged")
	}
}

// npyAs returns the values of the tensor ir run wrote to file as n values of type t (ir run
// writes bf16 and the narrow floats as f32, which holds them exactly).
func npyAs(t *testing.T, ts map[string]op.Tensor, file string, to element.Type, n int) []byte {
	t.Helper()
	tn, ok := ts[file]
	if !ok {
		t.Fatalf("ir run wrote no %s", file)
	}
	if tn.Type() == to {
		return tn.Bytes()
	}
	return convertBytes(t, tn.Bytes(), tn.Type(), to, n)
}

// convertBytes is kernels.Convert of n values into a new buffer.
func convertBytes(t *testing.T, src []byte, from, to element.Type, n int) []byte {
	t.Helper()
	dst := make([]byte, n*to.Bits()/8)
	if err := kernels.Convert(dst, to, src, from, n); err != nil {
		t.Fatal(err)
	}
	return dst
}

// outputName is the name ir run gives output port 0 of l: its first tensor name, else
// "LAYER:PORT".
func outputName(l *ir.Layer) string {
	if names := l.Outputs[0].NameList(); len(names) > 0 {
		return names[0]
	}
	return l.Name + ":" + strconv.FormatInt(l.Outputs[0].ID, 10)
}

// readNPYDir reads every .npy in dir, by file name.
func readNPYDir(t *testing.T, dir string) map[string]op.Tensor {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.npy"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]op.Tensor{}
	for _, f := range files {
		tn, err := npy.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = tn
	}
	return out
}
