package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ir check lists the compressed weights of each fixture by mode, and reports a hostile
// subgraph as a located problem with exit 1.
func TestIRCheckCompressedCLI(t *testing.T) {
	code, out, errs := cli(t, "", "ir", "check", irTestdata("compressed/older.xml"))
	want := `compressed weights: 5 weights, 245 B stored, 640 B decompressed
  int8_asym: 2 weights, group 8, 108 B stored, 256 B decompressed
  int8_sym: 1 weight, group 8, 52 B stored, 128 B decompressed
  int4_asym: 1 weight, group 4, 52 B stored, 128 B decompressed
  int4_sym: 1 weight, group 4, 33 B stored, 128 B decompressed
ok
`
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	for file, line := range map[string]string{
		"int_modes.xml":   "  int4_asym: 1 weight, group 4, 36 B stored, 128 B decompressed\n",
		"float_modes.xml": "  nf4: 1 weight, group 4, 32 B stored, 128 B decompressed\n",
		"block_modes.xml": "  nvfp4: 1 weight, group 16, 76 B stored, 512 B decompressed\n",
		"codebook.xml":    "  codebook: 3 weights, group 4, 8, 184 B stored, 384 B decompressed\n",
		"fp16.xml":        "  fp16: 2 weights, 80 B stored, 160 B decompressed\n",
		"layouts.xml":     "  int8_sym: 1 weight, group 4, 48 B stored, 128 B decompressed\n",
	} {
		if code, out, errs := cli(t, "", "ir", "check", irTestdata("compressed/"+file)); code != 0 || !strings.Contains(out, line) {
			t.Errorf("%s: exit %d\n%s%s", file, code, out, errs)
		}
	}
	if code, out, _ := cli(t, "", "ir", "check", irTestdata("example1_promote_floats.xml")); code != 0 || !strings.Contains(out, "compressed weights: none\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	files, _ := filepath.Glob(irTestdata("compressed/bad/*.xml"))
	if len(files) < 6 {
		t.Fatalf("only %d bad models", len(files))
	}
	for _, f := range files {
		code, out, errs := cli(t, "", "ir", "check", f)
		if code != 1 || !strings.HasPrefix(errs, f+":") || !strings.Contains(errs, ": layer ") || strings.HasSuffix(out, "ok\n") {
			t.Errorf("%s: exit %d\n%s%s", f, code, out, errs)
		}
	}
	// Without the .bin the weights are not examined, and the model still checks.
	dir := t.TempDir()
	data, err := os.ReadFile(irTestdata("compressed/int_modes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "m.xml")
	os.WriteFile(p, data, 0o644)
	if code, out, errs := cli(t, "", "ir", "check", p); code != 0 || !strings.Contains(out, "compressed weights: not examined (they need the .bin)\n") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}
