//go:build linux

package main

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
)

// int4Model writes DIR/w.xml and w.bin: an int4_asym weight [oc, g·128] as NNCF writes it (u4
// codes [oc, g, 128], u4 zero points and f16 scales [oc, g, 1], Subtract, Multiply, Reshape,
// Convert f32) feeding a MatMul with a Parameter, and returns the model's path and the bytes of
// its codes, zero points and scales.
func int4Model(t *testing.T, dir string, oc, g int64) (string, int64) {
	const gs = 128
	r := rand.New(rand.NewPCG(11, 12))
	codes := make([]byte, oc*g*gs/2)
	zeros := make([]byte, oc*g/2)
	scales := make([]byte, 2*oc*g)
	for _, b := range [][]byte{codes, zeros} {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	for i := 0; i < len(scales); i += 2 {
		binary.LittleEndian.PutUint16(scales[i:], 0x2000+uint16(r.IntN(0x400))) // 2^-7 .. 2^-6
	}
	shape := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, uint64(oc)), uint64(g*gs))
	var bin []byte
	var xml strings.Builder
	port := func(id int, prec string, dims ...int64) string {
		var b strings.Builder
		fmt.Fprintf(&b, "<port id=\"%d\" precision=\"%s\">", id, prec)
		for _, d := range dims {
			fmt.Fprintf(&b, "<dim>%d</dim>", d)
		}
		return b.String() + "</port>"
	}
	layer := func(id int, name, typ, data string, ins []string, out string) {
		fmt.Fprintf(&xml, "<layer id=\"%d\" name=\"%s\" type=\"%s\" version=\"opset1\">", id, name, typ)
		if data != "" {
			fmt.Fprintf(&xml, "<data %s/>", data)
		}
		if len(ins) > 0 {
			xml.WriteString("<input>" + strings.Join(ins, "") + "</input>")
		}
		if out != "" {
			xml.WriteString("<output>" + out + "</output>")
		}
		xml.WriteString("</layer>\n")
	}
	cst := func(id int, name, typ, prec string, data []byte, dims ...int64) {
		ds := make([]string, len(dims))
		for i, d := range dims {
			ds[i] = fmt.Sprint(d)
		}
		layer(id, name, "Const", fmt.Sprintf("element_type=%q shape=%q offset=\"%d\" size=\"%d\"", typ, strings.Join(ds, ", "), len(bin), len(data)), nil, port(0, prec, dims...))
		bin = append(bin, data...)
	}
	xml.WriteString("<?xml version=\"1.0\"?>\n<net name=\"int4\" version=\"11\">\n<layers>\n")
	cst(0, "codes", "u4", "U4", codes, oc, g, gs)
	layer(1, "codes/convert", "Convert", `destination_type="f16"`, []string{port(0, "U4", oc, g, gs)}, port(1, "FP16", oc, g, gs))
	cst(2, "w/zero_point", "u4", "U4", zeros, oc, g, 1)
	layer(3, "w/zero_point/convert", "Convert", `destination_type="f16"`, []string{port(0, "U4", oc, g, 1)}, port(1, "FP16", oc, g, 1))
	layer(4, "w/zero_point/subtract", "Subtract", `auto_broadcast="numpy"`, []string{port(0, "FP16", oc, g, gs), port(1, "FP16", oc, g, 1)}, port(2, "FP16", oc, g, gs))
	cst(5, "w/scale", "f16", "FP16", scales, oc, g, 1)
	layer(6, "w/fq_weights_1", "Multiply", `auto_broadcast="numpy"`, []string{port(0, "FP16", oc, g, gs), port(1, "FP16", oc, g, 1)}, port(2, "FP16", oc, g, gs))
	cst(7, "w/shape", "i64", "I64", shape, 2)
	layer(8, "w/reshape", "Reshape", `special_zero="false"`, []string{port(0, "FP16", oc, g, gs), port(1, "I64", 2)}, port(2, "FP16", oc, g*gs))
	layer(9, "w/fq_weights_1/convert", "Convert", `destination_type="f32"`, []string{port(0, "FP16", oc, g*gs)}, port(1, "FP32", oc, g*gs))
	layer(10, "x", "Parameter", fmt.Sprintf(`shape="1, %d" element_type="f32"`, g*gs), nil, port(0, "FP32", 1, g*gs))
	layer(11, "matmul", "MatMul", `transpose_a="false" transpose_b="true"`, []string{port(0, "FP32", 1, g*gs), port(1, "FP32", oc, g*gs)}, port(2, "FP32", 1, oc))
	layer(12, "y", "Result", "", []string{port(0, "FP32", 1, oc)}, "")
	xml.WriteString("</layers>\n<edges>\n")
	for _, e := range [][4]int{{0, 0, 1, 0}, {2, 0, 3, 0}, {1, 1, 4, 0}, {3, 1, 4, 1}, {4, 2, 6, 0}, {5, 0, 6, 1},
		{6, 2, 8, 0}, {7, 0, 8, 1}, {8, 2, 9, 0}, {10, 0, 11, 0}, {9, 1, 11, 1}, {11, 2, 12, 0}} {
		fmt.Fprintf(&xml, "<edge from-layer=\"%d\" from-port=\"%d\" to-layer=\"%d\" to-port=\"%d\"/>\n", e[0], e[1], e[2], e[3])
	}
	xml.WriteString("</edges>\n</net>\n")
	path := filepath.Join(dir, "w.xml")
	if err := os.WriteFile(path, []byte(xml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ir.BinPath(path), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, int64(len(codes) + len(zeros) + len(scales))
}

// TestIRRunCompressedBudget: ir run decompresses an int4_asym weight of 4096×4096 (groups of
// 128) within a --max-memory budget just above its codes, zero points and scales plus the f32
// weight, and its peak RSS stays near that budget; the layer-by-layer evaluation would hold the
// f16 codes, difference and product besides (3·32 MiB more).
func TestIRRunCompressedBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an 8 MiB model and decompresses 64 MiB in a child process")
	}
	if raceEnabled {
		t.Skip("-race inflates memory use")
	}
	const oc, g = 4096, 32
	model, stored := int4Model(t, t.TempDir(), oc, g)
	weight := int64(4 * oc * g * 128)
	budget := stored + weight + 1<<20
	code, out, errs, rss := childPeakRSS(t, "ir", "run", "--max-memory", fmt.Sprintf("%dB", budget), model)
	t.Logf("budget %d MiB: peak RSS %d MiB", budget>>20, rss>>20)
	if code != 0 || !strings.Contains(out, "compressed weight (int4_asym: 1 weight, group 128, 8.31 MiB stored, 64 MiB decompressed), decompressed as one unit") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if limit := budget + 48<<20; rss > limit {
		t.Errorf("peak RSS %d MiB, more than the budget + 48 MiB (%d MiB)", rss>>20, limit>>20)
	}
	// docs/ir.md's example.
	if code, _, errs := cli(t, "", "ir", "run", "--max-memory", "74MiB", model); code != 0 {
		t.Errorf("--max-memory 74MiB: exit %d: %s", code, errs)
	}
	// Below the Consts and the weight it is refused, before anything is loaded.
	code, _, errs = cli(t, "", "ir", "run", "--max-memory", fmt.Sprintf("%dB", stored+weight-1), model)
	if code != 1 || !strings.Contains(errs, "more than the memory budget") {
		t.Errorf("budget %d: exit %d: %s", stored+weight-1, code, errs)
	}
}
