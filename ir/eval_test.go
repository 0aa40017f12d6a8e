package ir

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
	"github.com/x448/float16"
)

func readTestdata(t *testing.T, name string) *Model {
	t.Helper()
	m, err := Read(filepath.Join(repoRoot(t), "testdata", "ir", name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Expected outputs, written from docs/SEMANTICS.md §3 and the input values of testdata_gen_test.go,
// without package kernels: exact widenings are computed with Go conversions and float16, the
// rest are spelled out as bit patterns.

func f32Bytes(vs ...float32) []byte { return le(vs...) }

func f16Exact(src []byte) []float32 { // f16 bits → f32 values, exactly
	out := make([]float32, len(src)/2)
	for i := range out {
		out[i] = float16.Frombits(binary.LittleEndian.Uint16(src[2*i:])).Float32()
	}
	return out
}

func i16To[T int64 | float32](src []byte) []T {
	out := make([]T, len(src)/2)
	for i := range out {
		out[i] = T(int16(binary.LittleEndian.Uint16(src[2*i:])))
	}
	return out
}

// f16FromF32NaN is f32 → f16 of the NaN in lhs_f16: F16C keeps the quiet NaN 0x7E00.
func wantRun(t *testing.T) map[string]map[string][]byte {
	ex1 := f16Exact(specConsts["lhs_f16"])
	return map[string]map[string][]byte{
		"example1_promote_floats.xml": {
			"example1:0": f32Bytes(ex1...),
			"example1:1": specConsts["rhs_f32"],
		},
		"example2_integers_unsafe.xml": {
			"example2:0": le(i16To[int64](specConsts["lhs_i16"])...),
			"example2:1": le[int64](0, math.MaxUint32, 123456789),
		},
		"example3_u64_unsafe.xml": {
			"example3:0": le(i16To[float32](specConsts["lhs_i16"])...),
			// u64 → f32 rounds to nearest even: 2^64-1 → 2^64, 2^53+1 → 2^53.
			"example3:1": le[float32](0, 0x1p64, 0x1p53),
		},
		"pytorch_scalar.xml": {
			"scalar_i64_tensor_u8:0": {44}, // 300 wraps to 44
			"scalar_i64_tensor_u8:1": {0, 1, 128, 255},
			"scalar_i8_tensor_i32:0": le[int32](-7),
			"scalar_i8_tensor_i32:1": le[int32](1, -2, math.MaxInt32),
			"scalar_f16_tensor_i8:0": f16s(1.5),
			"scalar_f16_tensor_i8:1": f16s(-128, 127),
		},
		"u64_custom_target.xml": {
			"promote:0": le[int64](0, 1, math.MinInt64, -1), // two's-complement wrap
			"promote:1": le[int64](-1, 0, math.MaxInt32, math.MinInt32),
		},
		"subbyte_consts.xml": {
			"u1_f32:0":             le[float32](1, 0, 1, 1, 0, 0, 1, 0, 1, 1),
			"u1_f32:1":             le[float32](0.25, -1),
			"u4_i8:0":              le[int8](0, 1, 7, 8, 15),
			"u4_i8:1":              le[int8](-128, 0, 100),
			"i4_f16:0":             f16s(-8, -1, 0, 1, 7, 3),
			"i4_f16:1":             f16s(0.1, -3),
			"codes_nf4/decompress": nf4f32(0, 2, 4, 6, 8, 10, 12, 15),
			"nf4_bf16:0":           nf4f32(0, 2, 4, 6, 8, 10, 12, 15),
			"nf4_bf16:1":           le[float32](1, -0.5),
		},
		"f8_consts.xml": {
			// f8e4m3 → f16: 0, 1, -1, 448, NaN (0x7E00), 2^-9, -0, 2.
			"e4m3_e5m2:0": le[uint16](0x0000, 0x3C00, 0xBC00, 0x5F00, 0x7E00, 0x1800, 0x8000, 0x4000),
			// f8e5m2 → f16 is the byte shifted left by 8.
			"e4m3_e5m2:1": le[uint16](0x3C00, 0x7B00, 0x7C00, 0xFC00, 0x7E00, 0x0100, 0x8000, 0x4000),
			// f8e4m3 → bf16: 1, 3, -2, 0.
			"e4m3_bf16:0": le[uint16](0x3F80, 0x4040, 0xC000, 0x0000),
			"e4m3_bf16:1": le[uint16](0x3FC0, 0xC120),
		},
	}
}

func nf4f32(codes ...int) []byte {
	vs := make([]float32, len(codes))
	for i, c := range codes {
		vs[i] = element.NF4Codes[c]
	}
	return le(vs...)
}

func TestRun(t *testing.T) {
	for file, want := range wantRun(t) {
		m := readTestdata(t, file)
		res, err := m.Run(nil)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if len(res.Skipped) != 0 {
			t.Errorf("%s: skipped %d layers", file, len(res.Skipped))
		}
		got := map[string]op.Tensor{}
		for _, o := range res.Outputs {
			got[o.Name] = o.Tensor
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d outputs, want %d", file, len(got), len(want))
		}
		for name, w := range want {
			g, ok := got[name]
			if !ok {
				t.Errorf("%s: no output %q", file, name)
				continue
			}
			if !bytes.Equal(g.Bytes(), w) {
				t.Errorf("%s: %s = %x…, want %x…", file, name, head(g.Bytes()), head(w))
			}
		}
	}
}

// tn builds a tensor over data, which must be the exact packed size.
func tn(typ element.Type, shape []int64, data []byte) op.Tensor {
	t, err := op.FromBytes(typ, shape, data)
	if err != nil {
		panic(err)
	}
	return t
}

func head(b []byte) []byte {
	if len(b) > 32 {
		return b[:32]
	}
	return b
}

func TestRunEmbedded(t *testing.T) {
	res, err := Embedded().Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := wantRun(t)
	n := 0
	for _, o := range res.Outputs {
		for _, f := range []string{"example1_promote_floats.xml", "example2_integers_unsafe.xml", "example3_u64_unsafe.xml"} {
			if w, ok := want[f][o.Name]; ok {
				n++
				if !bytes.Equal(o.Tensor.Bytes(), w) {
					t.Errorf("%s differs", o.Name)
				}
			}
		}
	}
	if n != 6 || len(res.Outputs) != 6 {
		t.Errorf("%d outputs, %d matched", len(res.Outputs), n)
	}
}

func TestRunParameter(t *testing.T) {
	m := readTestdata(t, "parameter_input.xml")
	res, err := m.Run(nil)
	if err != nil || len(res.Outputs) != 0 || len(res.Skipped) != 1 {
		t.Fatalf("without input: %+v %v", res, err)
	}
	x := tn(element.I8, []int64{2, 3}, le[int8](-128, -1, 0, 1, 2, 127))
	res, err = m.Run(map[string]op.Tensor{"x": x})
	if err != nil || len(res.Outputs) != 2 {
		t.Fatalf("with input: %+v %v", res, err)
	}
	if w := le[float32](-128, -1, 0, 1, 2, 127); !bytes.Equal(res.Outputs[0].Tensor.Bytes(), w) {
		t.Errorf("promote:0 = %x", res.Outputs[0].Tensor.Bytes())
	}
	if w := le[float32](0.5, -1, 2); !bytes.Equal(res.Outputs[1].Tensor.Bytes(), w) {
		t.Errorf("promote:1 = %x", res.Outputs[1].Tensor.Bytes())
	}
	bad := []struct {
		in   map[string]op.Tensor
		want string
	}{
		{map[string]op.Tensor{"x": tn(element.I16, []int64{2, 3}, make([]byte, 12))}, "input tensor has type i16, the Parameter's element_type is i8"},
		{map[string]op.Tensor{"x": tn(element.I8, []int64{3, 2}, make([]byte, 6))}, "input tensor has shape [3 2]"},
		{map[string]op.Tensor{"x": {}}, "input tensor is not valid"},
		{map[string]op.Tensor{"nope": x}, `input "nope" matches no Parameter`},
	}
	for _, b := range bad {
		if _, err := m.Run(b.in); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("Run: %v, want %q", err, b.want)
		}
	}
	// Fold leaves an operator with a Parameter input in place.
	if n, err := m.Fold(); n != 0 || err != nil || m.CountByType()[OpType] != 1 {
		t.Errorf("Fold = %d, %v", n, err)
	}
}

// copyModel copies a testdata model's .xml (and, with bin, a .bin of the given bytes) to a
// temporary directory.
func copyModel(t *testing.T, name string, bin []byte) string {
	src := filepath.Join(repoRoot(t), "testdata", "ir", name)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(name))
	os.WriteFile(dst, data, 0o644)
	if bin != nil {
		os.WriteFile(BinPath(dst), bin, 0o644)
	}
	return dst
}

func TestRunMissingData(t *testing.T) {
	full, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "ir", "example1_promote_floats.bin"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		bin  []byte
		want string
	}{
		{nil, "layer 0 (lhs_f16): Const data is not available"},
		{full[:100], "layer 0 (lhs_f16): Const data [0, 28672) runs past the end of"},
		{full[:len(full)-1], "layer 1 (rhs_f32): Const data [28672, 28684) runs past the end of"},
	}
	for _, c := range cases {
		path := copyModel(t, "example1_promote_floats.xml", c.bin)
		m, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path+":") {
			t.Errorf("Run: %v, want %q", err, c.want)
		}
		m, _ = Read(path)
		if _, err := m.Fold(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Fold: %v, want %q", err, c.want)
		}
	}
}

// TestFold checks the acceptance rule: the folded Consts hold what op.Evaluate gives on the
// same inputs, and the folded model checks and no longer has the operators.
func TestFold(t *testing.T) {
	for file := range wantRun(t) {
		orig := readTestdata(t, file)
		// What op.Evaluate gives for each operator, from the original Const inputs.
		type pair struct{ a, b op.Tensor }
		evaluated := map[string]pair{}
		res, err := orig.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range orig.Layers {
			if l.Type != OpType {
				continue
			}
			var in [2]op.Tensor
			for i := 0; i < 2; i++ {
				src := orig.Layer(orig.Producer(l.ID, int64(i)).FromLayer)
				if src.Type == "Const" {
					ci, data, err := orig.ConstData(src)
					if err != nil {
						t.Fatal(err)
					}
					in[i] = tn(ci.Type, ci.Shape, data)
				} else { // the nf4 Convert: take its computed output
					for _, o := range res.Outputs {
						if o.Layer == src {
							in[i] = o.Tensor
						}
					}
				}
			}
			o, _ := parsePromoteAttrs(l)
			a, b, err := o.Evaluate(in[0], in[1])
			if err != nil {
				t.Fatal(err)
			}
			evaluated[l.Name] = pair{a, b}
		}
		m := readTestdata(t, file)
		n, err := m.Fold()
		if err != nil || n != len(evaluated) {
			t.Errorf("%s: Fold = %d, %v", file, n, err)
			continue
		}
		// Before Save, the folded data is read from memory.
		if _, err := m.Check(); err != nil {
			t.Errorf("%s: folded, unsaved: %v", file, err)
		}
		for name, p := range evaluated {
			if _, data, err := m.ConstData(m.LayerByName(name + ".1")); err != nil || !bytes.Equal(data, p.b.Bytes()) {
				t.Errorf("%s: unsaved %s.1: %x %v", file, name, head(data), err)
			}
		}
		out := filepath.Join(t.TempDir(), "folded.xml")
		if err := m.Save(out); err != nil {
			t.Fatal(err)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := back.Check(); err != nil {
			t.Errorf("%s: folded model: %v", file, err)
		}
		if c := back.CountByType(); c[OpType] != 0 || c["Convert"] != 0 {
			t.Errorf("%s: folded model has %v", file, c)
		}
		for name, p := range evaluated {
			for i, want := range []op.Tensor{p.a, p.b} {
				cname := name + "." + string(rune('0'+i))
				c := back.LayerByName(cname)
				if c == nil {
					t.Errorf("%s: no Const %s", file, cname)
					continue
				}
				ci, data, err := back.ConstData(c)
				if err != nil {
					t.Errorf("%s: %v", file, err)
					continue
				}
				if ci.Type != want.Type() || !slices.Equal(ci.Shape, want.Shape()) || !bytes.Equal(data, want.Bytes()) {
					t.Errorf("%s: %s = %s%v %x, op.Evaluate gives %s%v %x", file, cname, ci.Type, ci.Shape, head(data), want.Type(), want.Shape(), head(want.Bytes()))
				}
				if c.Outputs[0].Names != name+":"+string(rune('0'+i)) {
					t.Errorf("%s: %s names %q", file, cname, c.Outputs[0].Names)
				}
			}
		}
		// Each Result is fed by a folded Const; the Consts that fed only the operators are gone.
		for _, l := range back.Layers {
			if l.Type == "Const" && !strings.Contains(l.Name, ".") {
				t.Errorf("%s: input Const %s not removed", file, l.Name)
			}
		}
	}
}
