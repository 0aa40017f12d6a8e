package ir

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// TestCompactWeights: only the bytes Consts use are kept, in file order, a range shared by two
// Consts once; data added by CompressToF16 is included; every Const reads the same bytes after
// compaction and after Save and Read.
func TestCompactWeights(t *testing.T) {
	g := &irBuilder{}
	g.bin = []byte("unused bytes before ")
	a := g.konst("a", element.F32, dims4, le[float32](1, 2, 3, 4))
	g.bin = append(g.bin, "gap"...)
	b := g.konst("b", element.I32, []int64{2}, le[int32](7, -7))
	g.result(a)
	g.result(b)
	g.result(g.konst("empty", element.F32, []int64{0}, nil))
	g.bin = append(g.bin, "trailing"...)
	xml := g.xml()
	// A second Const on b's range: the range is kept once.
	i := bytes.Index(xml, []byte(`<layer id="1" name="b"`))
	j := bytes.Index(xml[i:], []byte("</layer>")) + i + len("</layer>\n")
	dup := bytes.Replace(bytes.Replace(xml[i:j], []byte(`id="1"`), []byte(`id="99"`), 1), []byte(`"b"`), []byte(`"b2"`), 2)
	xml = append(append(append([]byte(nil), xml[:j]...), dup...), xml[j:]...)
	m, err := ParseBytes(xml, g.bin, "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, l := range m.Layers {
		if l.Type == "Const" {
			_, d, err := m.ConstData(l)
			if err != nil {
				t.Fatal(err)
			}
			want[l.Name] = d
		}
	}
	if _, err := CompressToF16(m); err != nil {
		t.Fatal(err)
	}
	_, f16, _ := m.ConstData(m.LayerByName("a_compressed"))
	want["a_compressed"] = f16
	delete(want, "a")
	if err := m.CompactWeights(); err != nil {
		t.Fatal(err)
	}
	if size, _, _ := m.weightsSize(); size != 8+8 {
		t.Errorf("compacted data holds %d bytes, want 16 (b once, a in f16)", size)
	}
	check := func(m *Model, when string) {
		for name, w := range want {
			_, d, err := m.ConstData(m.LayerByName(name))
			if err != nil || !bytes.Equal(d, w) {
				t.Errorf("%s: %s reads %x, want %x (%v)", when, name, d, w, err)
			}
		}
		if x, y := m.LayerByName("b"), m.LayerByName("b2"); x.Data.Attrs[2] != y.Data.Attrs[2] {
			t.Errorf("%s: b and b2 no longer share their data", when)
		}
	}
	check(m, "compacted")
	out := filepath.Join(t.TempDir(), "c.xml")
	if err := m.Save(out); err != nil {
		t.Fatal(err)
	}
	if bin, _ := os.ReadFile(BinPath(out)); len(bin) != 16 {
		t.Errorf("saved .bin holds %d bytes, want 16", len(bin))
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	check(back, "read back")
}

// TestCompactWeightsBody: a model with a Loop body keeps all its data.
func TestCompactWeightsBody(t *testing.T) {
	g := &irBuilder{}
	g.bin = []byte("body data ")
	g.result(g.konst("a", element.F32, dims4, le[float32](1, 2, 3, 4)))
	xml := bytes.Replace(g.xml(), []byte("</layers>"), []byte(`<layer id="50" name="loop" type="Loop" version="opset5"><output><port id="0" precision="FP32"/></output><body><layers/><edges/></body></layer></layers>`), 1)
	m, err := ParseBytes(xml, g.bin, "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CompactWeights(); err != nil {
		t.Fatal(err)
	}
	if size, _, _ := m.weightsSize(); size != int64(len(g.bin)) {
		t.Errorf("data holds %d bytes, want all %d", size, len(g.bin))
	}
}

// TestCompactWeightsPastEnd: a Const past the end of the data is an error naming it, and the
// model is unchanged.
func TestCompactWeightsPastEnd(t *testing.T) {
	g := &irBuilder{}
	g.result(g.konst("a", element.F32, dims4, le[float32](1, 2, 3, 4)))
	m, err := ParseBytes(g.xml(), g.bin[:8], "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CompactWeights(); err == nil || !strings.Contains(err.Error(), "(a)") {
		t.Errorf("err %v, want one naming a", err)
	}
	if m.weights.size != 8 {
		t.Error("the data changed")
	}
}

// TestSegmentReader: every (offset, length) read of a compacted layout equals the bytes of a
// reference built by concatenation, including reads that cross segments or run past the end.
func TestSegmentReader(t *testing.T) {
	src := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	tail := []byte("TAIL")
	segs := []segment{{0, 30, 6}, {6, 2, 3}, {9, 36, 4}, {13, 11, 1}} // "uvwxyz" "234" "TAIL" "b"
	want := []byte("uvwxyz234TAILb")
	r := &segmentReader{segs: segs, src: concatReader{bin: bytes.NewReader(src), base: int64(len(src)), tail: tail}, size: int64(len(want))}
	for off := 0; off <= len(want)+1; off++ {
		for n := 0; n <= len(want)+2; n++ {
			p := make([]byte, n)
			got, err := r.ReadAt(p, int64(off))
			wantN := max(0, min(n, len(want)-off))
			if got != wantN || !bytes.Equal(p[:got], want[min(off, len(want)):min(off, len(want))+wantN]) {
				t.Fatalf("ReadAt(%d bytes, %d) = %d %q, want %d", n, off, got, p[:got], wantN)
			}
			if (err == io.EOF) != (wantN < n) || err != nil && err != io.EOF {
				t.Fatalf("ReadAt(%d bytes, %d): err %v", n, off, err)
			}
		}
	}
}

// TestCompactWeightsOverlap: Consts whose ranges overlap, so that writing each would take more
// than the data, leave the layout as it is.
func TestCompactWeightsOverlap(t *testing.T) {
	g := &irBuilder{}
	g.result(g.konst("a", element.U8, []int64{8}, []byte("01234567")))
	xml := g.xml()
	for _, r := range []struct{ name, size string }{{"b", "7"}, {"c", "6"}} {
		i := bytes.Index(xml, []byte(`<layer id="0" name="a"`))
		j := bytes.Index(xml[i:], []byte("</layer>")) + i + len("</layer>\n")
		l := strings.NewReplacer(`id="0"`, `id="9`+r.size+`"`, `"a"`, `"`+r.name+`"`, `shape="8"`, `shape="`+r.size+`"`,
			`size="8"`, `size="`+r.size+`"`, "<dim>8</dim>", "<dim>"+r.size+"</dim>").Replace(string(xml[i:j]))
		xml = append(append(append([]byte(nil), xml[:j]...), l...), xml[j:]...)
	}
	m, err := ParseBytes(xml, g.bin, "test.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Check(); err != nil {
		t.Fatal(err)
	}
	if err := m.CompactWeights(); err != nil {
		t.Fatal(err)
	}
	if size, _, _ := m.weightsSize(); size != 8 {
		t.Errorf("data holds %d bytes, want the 8 it had", size)
	}
	if off, _ := m.LayerByName("c").DataAttr("offset"); off != "0" {
		t.Errorf("c moved to offset %s", off)
	}
}
