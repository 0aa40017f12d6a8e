package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
	"github.com/convertpromote/convertpromote/npy"
	"github.com/convertpromote/convertpromote/op"
)

// copyIR copies a testdata model (and its .bin when it has one) into dir.
func copyIR(t *testing.T, name, dir string) string {
	t.Helper()
	dst := filepath.Join(dir, filepath.Base(name))
	for _, pair := range [][2]string{{irTestdata(name), dst}, {ir.BinPath(irTestdata(name)), ir.BinPath(dst)}} {
		data, err := os.ReadFile(pair[0])
		if os.IsNotExist(err) && pair[1] != dst {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(pair[1], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// snapshot returns every file below dir with its contents (symlinks as "-> target").
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			files[p] = "-> " + target
			return nil
		}
		data, _ := os.ReadFile(p)
		files[p] = string(data)
		return nil
	})
	return files
}

func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%s: %d files before, %d after", what, len(before), len(after))
	}
	for p, data := range before {
		if after[p] != data {
			t.Errorf("%s: %s changed", what, p)
		}
	}
}

func writeNPYTest(t *testing.T, path string, x op.Tensor) {
	t.Helper()
	var b bytes.Buffer
	if err := npy.Write(&b, x); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIRNeverOverwritesInput: an output that is one of the command's inputs (by name or by file
// identity) is refused with exit 2, naming both, and nothing is written.
func TestIRNeverOverwritesInput(t *testing.T) {
	dir := t.TempDir()
	m := copyIR(t, "example1_promote_floats.xml", dir)
	bin := ir.BinPath(m)
	if err := os.Link(m, filepath.Join(dir, "hard.xml")); err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(t.TempDir(), "alias")
	haveSymlinks := os.Symlink(dir, alias) == nil
	x, _ := op.FromInt8([]int64{2, 3}, []int8{1, 2, 3, 4, 5, 6})
	pm := copyIR(t, "parameter_input.xml", dir)
	npy := filepath.Join(dir, "promote_0.npy") // the name of output promote:0
	writeNPYTest(t, npy, x)
	cases := []struct {
		args []string
		out  string // the output path the message names
		in   string // and the input
	}{
		{[]string{"fold", m, "-o", bin}, bin, bin},
		{[]string{"fold", m, "-o", m}, m, m},
		{[]string{"decompose", m, "-o", m}, m, m},
		{[]string{"decompose", m, "-o", filepath.Join(dir, ".", "sub", "..", "example1_promote_floats.bin")}, "example1_promote_floats.bin", bin},
		{[]string{"fold", m, "-o", filepath.Join(dir, "hard.xml")}, "hard.xml", m},
		{[]string{"fold", m, "-o", filepath.Join(dir, "example1_promote_floats")}, "example1_promote_floats.bin", bin},
		{[]string{"run", pm, "--input", "x=" + npy, "--out", dir}, npy, npy},
		{[]string{"run", pm, "--out", dir, "--input", "x=" + npy, "--values", "1"}, npy, npy},
	}
	if haveSymlinks {
		cases = append(cases,
			struct {
				args    []string
				out, in string
			}{[]string{"fold", m, "-o", filepath.Join(alias, "example1_promote_floats.bin")}, alias, bin},
			struct {
				args    []string
				out, in string
			}{[]string{"run", pm, "--input", "x=" + npy, "--out", alias}, alias, npy})
	}
	before := snapshot(t, dir)
	for _, c := range cases {
		code, _, errs := cli(t, "", append([]string{"ir"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, "would overwrite") || !strings.Contains(errs, c.out) || !strings.Contains(errs, c.in) {
			t.Errorf("%q: exit %d: %s", c.args, code, errs)
		}
		sameSnapshot(t, strings.Join(c.args, " "), before, snapshot(t, dir))
	}
	// A different output name in the same directory is fine.
	if code, _, errs := cli(t, "", "ir", "fold", m, "-o", filepath.Join(dir, "folded.xml")); code != 0 {
		t.Errorf("fold to another name: exit %d: %s", code, errs)
	}
}

// TestIRRunNPYReplacesSymlink: an .npy output whose name is a symlink replaces the link and
// leaves its target alone.
func TestIRRunNPYReplacesSymlink(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(t.TempDir(), "keep")
	os.WriteFile(keep, []byte("keep"), 0o644)
	link := filepath.Join(dir, "e4m3_e5m2_0.npy")
	if err := os.Symlink(keep, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if code, _, errs := cli(t, "", "ir", "run", "--out", dir, irTestdata("f8_consts.xml")); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(keep); string(b) != "keep" {
		t.Errorf("the symlink's target was written (%d bytes)", len(b))
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s: %v %v", link, fi, err)
	}
}

// TestIRDecomposeRemovesStaleBin: a model without Const data written where an older .bin lies
// does not leave that .bin to be read with it.
func TestIRDecomposeRemovesStaleBin(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.xml")
	os.WriteFile(ir.BinPath(out), []byte("unrelated"), 0o644)
	if code, _, errs := cli(t, "", "ir", "decompose", irTestdata("chain_parameters.xml"), "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Lstat(ir.BinPath(out)); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", ir.BinPath(out), err)
	}
	code, stdout, errs := cli(t, "", "ir", "check", out)
	if code != 0 || !strings.Contains(stdout, "constant data: no Const layers") {
		t.Errorf("check: exit %d\n%s%s", code, stdout, errs)
	}
}

// TestIRRunNamesMissingInputs: run says which --input to pass for each Parameter it lacks.
func TestIRRunNamesMissingInputs(t *testing.T) {
	code, out, errs := cli(t, "", "ir", "run", irTestdata("chain_parameters.xml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"not evaluated: layer 2 (first)",
		"  --input a=FILE.npy  (layer 0 (a): i8[2])\n",
		"  --input b=FILE.npy  (layer 1 (b): i16[2])\n",
		"  --input c=FILE.npy  (layer 4 (c): f32[2])\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Fed Parameters are not listed.
	dir := t.TempDir()
	a, _ := op.FromInt8([]int64{2}, []int8{1, 2})
	writeNPYTest(t, filepath.Join(dir, "a.npy"), a)
	_, out, _ = cli(t, "", "ir", "run", irTestdata("chain_parameters.xml"), "--input", "a="+filepath.Join(dir, "a.npy"))
	if strings.Contains(out, "--input a=") || !strings.Contains(out, "--input b=FILE.npy") {
		t.Errorf("with a fed:\n%s", out)
	}
}

// hugeConstCLI puts testdata/ir/large/huge_const.xml (a u8[1 Gi] Const) beside a sparse .bin.
func hugeConstCLI(t *testing.T) string {
	t.Helper()
	p := copyIR(t, filepath.Join("large", "huge_const.xml"), t.TempDir())
	f, err := os.Create(ir.BinPath(p))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(1<<30 + 1); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIRMaxMemory: run and fold refuse, before allocating, a model whose tensor data exceeds the
// budget, and say how to raise it.
func TestIRMaxMemory(t *testing.T) {
	p := hugeConstCLI(t)
	out := filepath.Join(t.TempDir(), "f.xml")
	for _, args := range [][]string{
		{"ir", "run", p},
		{"ir", "fold", p, "-o", out},
		{"ir", "run", p, "--max-memory", "2GiB"},
	} {
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		code, _, errs := cli(t, "", args...)
		runtime.ReadMemStats(&ms1)
		if code != 1 || !strings.Contains(errs, "more than the memory budget of 2 GiB") || !strings.Contains(errs, "; give a larger budget with --max-memory (e.g. --max-memory ") {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
		if n := ms1.TotalAlloc - ms0.TotalAlloc; n > 16<<20 {
			t.Errorf("%q: allocated %d bytes", args, n)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("fold wrote %s: %v", out, err)
	}
	// A small budget applies to small models too.
	code, _, errs := cli(t, "", "ir", "run", irTestdata("example1_promote_floats.xml"), "--max-memory", "1KiB")
	if code != 1 || !strings.Contains(errs, "more than the memory budget of 1 KiB") {
		t.Errorf("1KiB: exit %d: %s", code, errs)
	}
	if code, _, errs := cli(t, "", "ir", "run", irTestdata("example1_promote_floats.xml"), "--max-memory", "1MB"); code != 0 {
		t.Errorf("1MB: exit %d: %s", code, errs)
	}
	// --input files count too, and are not read when they alone exceed the budget.
	x, _ := op.FromInt8([]int64{2, 3}, []int8{1, 2, 3, 4, 5, 6})
	npy := filepath.Join(t.TempDir(), "x.npy")
	writeNPYTest(t, npy, x)
	code, _, errs = cli(t, "", "ir", "run", irTestdata("parameter_input.xml"), "--input", "x="+npy, "--max-memory", "100B")
	if code != 1 || !strings.Contains(errs, "inputs 134 B") || !strings.Contains(errs, "more than the memory budget of 100 B") {
		t.Errorf("--input over the budget: exit %d: %s", code, errs)
	}
	for _, args := range [][]string{
		{"ir", "run", "--embedded", "--max-memory", "lots"},
		{"ir", "run", "--embedded", "--max-memory", "0"},
		{"ir", "check", "--embedded", "--max-memory", "1GiB"},
		{"ir", "decompose", "--embedded", "-o", out, "--max-memory", "1GiB"},
	} {
		if code, _, errs := cli(t, "", args...); code != 2 || !strings.Contains(errs, "max-memory") {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
	}
}
