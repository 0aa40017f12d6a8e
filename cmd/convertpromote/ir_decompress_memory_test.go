//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
)

// writeInt8Model writes a model of k int8_asym weights [rows, cols] as NNCF writes them (u8
// codes and per-row u8 zero points and f16 scales, Subtract and Multiply in f16, Convert to
// f32), each feeding a MatMul, and returns its path. Each weight takes rows·cols bytes in the
// .bin and 4·rows·cols decompressed.
func writeInt8Model(t *testing.T, dir string, k, rows, cols int) string {
	t.Helper()
	var x strings.Builder
	x.WriteString("<?xml version=\"1.0\"?>\n<net name=\"int8_weights\" version=\"11\">\n<layers>\n")
	fmt.Fprintf(&x, `<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,%d" element_type="f32"/><output><port id="0" precision="FP32" names="x"><dim>1</dim><dim>%d</dim></port></output></layer>`+"\n", cols, cols)
	var edges strings.Builder
	bin, err := os.Create(filepath.Join(dir, "m.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	codes := make([]byte, rows*cols)
	for i := range codes {
		codes[i] = byte(i*7 + i/cols)
	}
	small := make([]byte, 3*rows) // zero points, then f16 scales (0x2c00 = 1/16)
	for r := 0; r < rows; r++ {
		small[r] = byte(100 + r%50)
		small[rows+2*r], small[rows+2*r+1] = 0x00, 0x2c
	}
	off := 0
	dims := func(r, c int) string { return fmt.Sprintf("<dim>%d</dim><dim>%d</dim>", r, c) }
	for w := 0; w < k; w++ {
		id := 1 + 9*w
		n := fmt.Sprintf("w%d", w)
		if _, err := bin.Write(codes); err != nil {
			t.Fatal(err)
		}
		if _, err := bin.Write(small); err != nil {
			t.Fatal(err)
		}
		full, col := dims(rows, cols), dims(rows, 1)
		fmt.Fprintf(&x, `<layer id="%d" name="%s" type="Const" version="opset1"><data element_type="u8" shape="%d, %d" offset="%d" size="%d"/><output><port id="0" precision="U8">%s</port></output></layer>`+"\n", id, n, rows, cols, off, rows*cols, full)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/convert" type="Convert" version="opset1"><data destination_type="f16"/><input><port id="0" precision="U8">%s</port></input><output><port id="1" precision="FP16">%s</port></output></layer>`+"\n", id+1, n, full, full)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/zero_point" type="Const" version="opset1"><data element_type="u8" shape="%d, 1" offset="%d" size="%d"/><output><port id="0" precision="U8">%s</port></output></layer>`+"\n", id+2, n, rows, off+rows*cols, rows, col)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/zero_point/convert" type="Convert" version="opset1"><data destination_type="f16"/><input><port id="0" precision="U8">%s</port></input><output><port id="1" precision="FP16">%s</port></output></layer>`+"\n", id+3, n, col, col)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/zero_point/subtract" type="Subtract" version="opset1"><data auto_broadcast="numpy"/><input><port id="0" precision="FP16">%s</port><port id="1" precision="FP16">%s</port></input><output><port id="2" precision="FP16">%s</port></output></layer>`+"\n", id+4, n, full, col, full)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/scale" type="Const" version="opset1"><data element_type="f16" shape="%d, 1" offset="%d" size="%d"/><output><port id="0" precision="FP16">%s</port></output></layer>`+"\n", id+5, n, rows, off+rows*cols+rows, 2*rows, col)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/fq_weights_1" type="Multiply" version="opset1"><data auto_broadcast="numpy"/><input><port id="0" precision="FP16">%s</port><port id="1" precision="FP16">%s</port></input><output><port id="2" precision="FP16">%s</port></output></layer>`+"\n", id+6, n, full, col, full)
		fmt.Fprintf(&x, `<layer id="%d" name="%s/fq_weights_1/convert" type="Convert" version="opset1"><data destination_type="f32"/><input><port id="0" precision="FP16">%s</port></input><output><port id="1" precision="FP32">%s</port></output></layer>`+"\n", id+7, n, full, full)
		fmt.Fprintf(&x, `<layer id="%d" name="mm%d" type="MatMul" version="opset1"><data transpose_a="false" transpose_b="true"/><input><port id="0" precision="FP32">%s</port><port id="1" precision="FP32">%s</port></input><output><port id="2" precision="FP32" names="y%d">%s</port></output></layer>`+"\n", id+8, w, dims(1, cols), full, w, dims(1, rows))
		fmt.Fprintf(&x, `<layer id="%d" name="y%d" type="Result" version="opset1"><input><port id="0" precision="FP32">%s</port></input></layer>`+"\n", 1000+w, w, dims(1, rows))
		for _, e := range [][4]int{{id, 0, id + 1, 0}, {id + 2, 0, id + 3, 0}, {id + 1, 1, id + 4, 0}, {id + 3, 1, id + 4, 1},
			{id + 4, 2, id + 6, 0}, {id + 5, 0, id + 6, 1}, {id + 6, 2, id + 7, 0}, {0, 0, id + 8, 0}, {id + 7, 1, id + 8, 1}, {id + 8, 2, 1000 + w, 0}} {
			fmt.Fprintf(&edges, `<edge from-layer="%d" from-port="%d" to-layer="%d" to-port="%d"/>`+"\n", e[0], e[1], e[2], e[3])
		}
		off += len(codes) + len(small)
	}
	x.WriteString("</layers>\n<edges>\n" + edges.String() + "</edges>\n</net>\n")
	model := filepath.Join(dir, "m.xml")
	if err := os.WriteFile(model, []byte(x.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return model
}

// TestIRDecompressPeakRSS: ir decompress of 8 int8 weights of 32 MiB each (decompressed; 8 MiB
// of codes each), with and without --to, peaks within what docs/ir.md states: above the peak
// of ir check on the same model, one weight's decompressed bytes and its codes, scales and
// zero points, plus 16 MiB (the 1 MiB buffer and the Go runtime's own). Holding all the weights would take 256 MiB.
func TestIRDecompressPeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB model and a 256 MiB output")
	}
	if raceEnabled {
		t.Skip("-race inflates memory use")
	}
	const k, rows, cols = 8, 8192, 1024
	dir := t.TempDir()
	model := writeInt8Model(t, dir, k, rows, cols)
	code, out, errs, base := childPeakRSS(t, "ir", "check", model)
	if code != 0 {
		t.Fatalf("ir check: exit %d\n%s%s", code, out, errs)
	}
	outXML := filepath.Join(dir, "out.xml")
	code, out, errs, peak := childPeakRSS(t, "ir", "decompress", model, "-o", outXML)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("replaced %d compressed weights (%d int8_asym)", k, k)) {
		t.Fatalf("ir decompress: exit %d\n%s%s", code, out, errs)
	}
	one := int64(4*rows*cols + rows*cols + 3*rows) // decompressed + stored bytes of one weight
	limit := base + one + 16<<20
	t.Logf("peak RSS: ir check %d MiB, ir decompress %d MiB (limit %d MiB; all weights %d MiB)", base>>20, peak>>20, limit>>20, int64(k)*4*rows*cols>>20)
	if peak > limit {
		t.Errorf("ir decompress peaked at %d bytes, more than ir check's %d + %d + 16 MiB = %d", peak, base, one, limit)
	}
	fi, err := os.Stat(ir.BinPath(outXML))
	if err != nil || fi.Size() != int64(k)*4*rows*cols {
		t.Errorf("out.bin: %v, %v; want %d bytes", fi, err, int64(k)*4*rows*cols)
	}
	// --to f16 converts through the same fixed buffer.
	code, out, errs, peak16 := childPeakRSS(t, "ir", "decompress", model, "-o", outXML, "--to", "f16")
	t.Logf("peak RSS with --to f16: %d MiB", peak16>>20)
	if code != 0 {
		t.Fatalf("ir decompress --to f16: exit %d\n%s%s", code, out, errs)
	}
	if peak16 > limit {
		t.Errorf("ir decompress --to f16 peaked at %d bytes, more than %d", peak16, limit)
	}
}

// TestIRDecompressWriteFailure: when the disk fills while the .bin is written, decompress exits
// 1 and leaves no file.
func TestIRDecompressWriteFailure(t *testing.T) {
	dir := t.TempDir()
	model := writeInt8Model(t, dir, 2, 64, 64)
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	code, errs := cliWithFileSizeLimit(t, 20000, "ir", "decompress", model, "-o", filepath.Join(outDir, "out.xml"))
	if code != 1 || !strings.Contains(errs, "out.bin") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming out.bin", code, errs)
	}
	if entries, _ := os.ReadDir(outDir); len(entries) != 0 {
		t.Errorf("files left: %v", entries)
	}
}
