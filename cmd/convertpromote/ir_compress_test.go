package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
)

// TestIRCompressHelpExamples: each example of ir compress -h runs (outputs under /tmp/ go to a
// temporary directory) and exits 0.
func TestIRCompressHelpExamples(t *testing.T) {
	code, out, _ := cli(t, "", "ir", "compress", "-h")
	_, section, ok := strings.Cut(out, "\nExamples:\n")
	if code != 0 || !ok {
		t.Fatalf("ir compress -h: exit %d, no Examples:\n%s", code, out)
	}
	section, _, _ = strings.Cut(section, "\n\n")
	dir := t.TempDir()
	n := 0
	for _, line := range strings.Split(section, "\n") {
		words := strings.Fields(line)
		if len(words) < 3 || words[0] != "convertpromote" {
			t.Errorf("example %q is not a convertpromote command line", line)
			continue
		}
		for i, w := range words {
			if strings.HasPrefix(w, "testdata/") {
				words[i] = filepath.Join("..", "..", w)
			}
			if strings.HasPrefix(w, "/tmp/") {
				words[i] = filepath.Join(dir, strings.TrimPrefix(w, "/tmp/"))
			}
		}
		if code, out, errs := cli(t, "", words[1:]...); code != 0 || errs != "" || out == "" {
			t.Errorf("example %q: exit %d, stdout %q, stderr %q", line, code, out, errs)
		}
		n++
	}
	if n < 2 {
		t.Errorf("%d examples, want at least 2", n)
	}
}

// TestIRCompressF16CLI: what ir compress --to f16 prints and writes, read back by ir check and
// ir run.
func TestIRCompressF16CLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sub", "f16.xml") // the directory is created
	code, stdout, errs := cli(t, "", "ir", "compress", irTestdata("f32_weights.xml"), "-o", out, "--to", "f16")
	want := out + `: compressed 2 f32/f64 Consts to f16 (NAME_compressed -> Convert NAME); kept 1 marked precise: "precise_bias"; ` +
		`kept 1 on a shape path (now marked precise): "reshape_shape"; kept 1 with >= 75% of values out of f16's range: "big_scale"` + "\n"
	if code != 0 || stdout != want || errs != "" {
		t.Fatalf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, errs)
	}
	fi, err := os.Stat(ir.BinPath(out))
	if err != nil || fi.Size() != 124 {
		t.Errorf("OUT.bin: %v, %v; want 124 bytes (the f16 weights and the Consts kept, nothing else)", fi, err)
	}
	if code, stdout, errs := cli(t, "", "ir", "check", out); code != 0 || !strings.Contains(stdout, "3 Convert") {
		t.Errorf("ir check OUT: exit %d\n%s%s", code, stdout, errs)
	}
	code, stdout, errs = cli(t, "", "ir", "run", out, "--values", "12")
	for _, w := range []string{
		"matmul_weight  f32[3,4]  0.099975586, -0.19995117, 0.30004883, 0.33325195, 65504, 0, -2.5, 4, 0.0625, -0.75, 1000, -0.0010004044\n",
		"embedding  f32[5,4]  0, 0.5, -0.5, 1, 1.5, -1.5, 2, -2, 3.140625, 2.71875, 1.4140625, 1.7324219, ... (20 values)\n",
	} {
		if code != 0 || !strings.Contains(stdout, w) {
			t.Errorf("ir run OUT: exit %d, stdout lacks %q:\n%s%s", code, w, stdout, errs)
		}
	}
}

// TestIRCompressCLIUsage: exit status and messages for bad flags and for models with nothing
// to compress.
func TestIRCompressCLIUsage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.xml")
	m := irTestdata("f32_weights.xml")
	cases := []struct {
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{[]string{"compress", m, "-o", out}, 2, "", "give --to f16 or --mode MODE"},
		{[]string{"compress", m, "--to", "f16"}, 2, "", "-o OUT.xml is required"},
		{[]string{"compress", m, "-o", out, "--to", "f16", "--mode", "int8_asym"}, 2, "", "not both"},
		{[]string{"compress", m, "-o", out, "--to", "bf16"}, 2, "", `--to "bf16": the only target is f16`},
		{[]string{"compress", m, "-o", out, "--to", "f16", "--group-size", "64"}, 2, "", "go with --mode"},
		{[]string{"compress", m, "-o", out, "--to", "f16", "--all-layers"}, 2, "", "go with --mode"},
		{[]string{"compress", m, "-o", out, "--mode", "int3"}, 2, "", `--mode "int3": unknown mode (valid: int8_asym, int8_sym, int4_asym, int4_sym, nf4, fp4, fp8_e4m3, mxfp4, mxfp8_e4m3, nvfp4)`},
		{[]string{"compress", m, "-o", out, "--mode", "codebook"}, 2, "", "unknown mode"},
		{[]string{"compress", m, "-o", out, "--mode", "int4_asym", "--group-size", "0"}, 2, "", "--group-size 0: want a positive group size, or -1"},
		{[]string{"compress", m, "-o", out, "--mode", "int4_asym", "--group-size", "-2"}, 2, "", "--group-size -2"},
		{[]string{"compress", m, "-o", out, "--mode", "int4_asym", "--group-size", "x"}, 2, "", "group-size"},
		{[]string{"fold", m, "-o", out, "--to", "f16"}, 2, "", "--to is a flag of ir decompress and ir compress"},
		{[]string{"check", m, "--all-layers"}, 2, "", "--all-layers is a flag of ir compress"},
		{[]string{"compress", m, m, "-o", out, "--to", "f16"}, 2, "", "give one MODEL.xml"},
		{[]string{"compress", filepath.Join(dir, "missing.xml"), "-o", out, "--to", "f16"}, 1, "", "missing.xml"},
	}
	for _, c := range cases {
		code, stdout, errs := cli(t, "", append([]string{"ir"}, c.args...)...)
		if code != c.code || !strings.Contains(stdout, c.stdout) || !strings.Contains(errs, c.stderr) {
			t.Errorf("%q: exit %d (want %d)\nstdout %q\nstderr %q", c.args, code, c.code, stdout, errs)
		}
	}
}

// TestIRCompressModeRoundTrip: ir compress --mode writes NNCF's subgraphs, which ir check
// counts by mode, ir run computes, and ir decompress turns into Consts holding what run
// computed.
func TestIRCompressModeRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args    []string
		summary []string // lines ir check prints
	}{
		{[]string{"--mode", "int4_asym"}, []string{"int4_asym: 1 weight, group 128", "int8_asym: 2 weights"}},
		{[]string{"--mode", "nvfp4", "--all-layers"}, []string{"nvfp4: 3 weights, group 16"}},
		{[]string{"--mode", "fp4", "--group-size", "32"}, []string{"fp4: 1 weight, group 32", "fp8_e4m3: 2 weights, group 32"}},
		{[]string{"--mode", "int8_sym", "--group-size", "-1"}, []string{"int8_sym: 3 weights"}},
	} {
		name := strings.Join(c.args, " ")
		out := filepath.Join(dir, c.args[1]+".xml")
		code, stdout, errs := cli(t, "", append([]string{"ir", "compress", irTestdata("nncf_weights.xml"), "-o", out}, c.args...)...)
		if code != 0 || !strings.Contains(stdout, "compressed 3 weights") {
			t.Fatalf("%s: exit %d\n%s%s", name, code, stdout, errs)
		}
		code, stdout, errs = cli(t, "", "ir", "check", out)
		for _, w := range c.summary {
			if code != 0 || !strings.Contains(stdout, w) {
				t.Errorf("%s: ir check: exit %d, stdout lacks %q:\n%s%s", name, code, w, stdout, errs)
			}
		}
		code, ran, errs := cli(t, "", "ir", "run", out, "--values", "3")
		if code != 0 || strings.Count(ran, "decompressed as one unit") != 3 {
			t.Errorf("%s: ir run: exit %d, want 3 weights computed as one unit:\n%s%s", name, code, ran, errs)
		}
		dec := filepath.Join(dir, c.args[1]+"_dec.xml")
		code, stdout, errs = cli(t, "", "ir", "decompress", out, "-o", dec)
		if code != 0 || !strings.Contains(stdout, "replaced 3 compressed weights") {
			t.Errorf("%s: ir decompress: exit %d\n%s%s", name, code, stdout, errs)
		}
		// What is left is one Const a weight (TestCompressRoundTrip in package ir compares
		// their values with run's), fc2's final f16 → f32 Convert included.
		code, stdout, errs = cli(t, "", "ir", "check", dec)
		if code != 0 || !strings.Contains(stdout, "compressed weights: none") || !strings.Contains(stdout, "layers: 4 Const, 1 Gather, 2 MatMul, 1 Parameter, 1 Result") {
			t.Errorf("%s: ir check of the decompressed model: exit %d\n%s%s", name, code, stdout, errs)
		}
	}
}

// TestIRCompressOptimized: a model that already holds compressed weights is written unchanged,
// with a line saying why, exit 0.
func TestIRCompressOptimized(t *testing.T) {
	dir := t.TempDir()
	src := copyIR(t, "f32_weights.xml", dir)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// The Multiply of x by big_scale becomes a FakeQuantize: is_model_optimized looks at the
	// layer type only.
	s := strings.Replace(string(data), `type="Multiply"`, `type="FakeQuantize"`, 1)
	if s == string(data) {
		t.Fatal("f32_weights.xml has no Multiply")
	}
	if err := os.WriteFile(src, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xml")
	code, stdout, errs := cli(t, "", "ir", "compress", src, "-o", out, "--to", "f16")
	if code != 0 || !strings.Contains(stdout, "already holds compressed weights (layer 16 (scaled) is a FakeQuantize)") || errs != "" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, errs)
	}
	got, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(got), `name="matmul_weight" type="Const"`) || strings.Contains(string(got), "_compressed") {
		t.Errorf("OUT.xml changed or missing (%v)", err)
	}
	sameBin(t, src, out)
}

// sameBin checks that the .bin beside out is a copy of the one beside src.
func sameBin(t *testing.T, src, out string) {
	t.Helper()
	a, err1 := os.ReadFile(ir.BinPath(src))
	b, err2 := os.ReadFile(ir.BinPath(out))
	if err1 != nil || err2 != nil || string(a) != string(b) {
		t.Errorf("%s is not a copy of %s (%v, %v)", ir.BinPath(out), ir.BinPath(src), err1, err2)
	}
}

// TestIRCompressNothing: a model without f32 or f64 Consts is written unchanged, its .bin
// copied, exit 0.
func TestIRCompressNothing(t *testing.T) {
	src := irTestdata("example2_integers_unsafe.xml")
	out := filepath.Join(t.TempDir(), "out.xml")
	code, stdout, errs := cli(t, "", "ir", "compress", src, "-o", out, "--to", "f16")
	if want := out + ": no f32 or f64 Const to compress to f16; written unchanged\n"; code != 0 || stdout != want || errs != "" {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, errs)
	}
	sameBin(t, src, out)
}

// TestIRCompressNeverOverwritesInput: -o naming the model or its .bin is refused with exit 2
// before anything is read or written.
func TestIRCompressNeverOverwritesInput(t *testing.T) {
	dir := t.TempDir()
	m := copyIR(t, "f32_weights.xml", dir)
	before := snapshot(t, dir)
	for _, o := range []string{m, ir.BinPath(m), filepath.Join(dir, "f32_weights"), filepath.Join(dir, "sub", "..", "f32_weights.xml")} {
		code, _, errs := cli(t, "", "ir", "compress", m, "-o", o, "--to", "f16")
		if code != 2 || !strings.Contains(errs, "would overwrite") {
			t.Errorf("-o %s: exit %d: %s", o, code, errs)
		}
		sameSnapshot(t, o, before, snapshot(t, dir))
	}
}
