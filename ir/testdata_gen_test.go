package ir

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/x448/float16"
)

// The .xml files of testdata/ir and ir/embedded are written by hand; their .bin files are
// generated from the values below, placed at each Const's offset. Run
//
//	go test ./ir -run TestTestdataBins -update
//
// after changing a model or a value; without -update the test checks that the committed .bin
// files hold exactly these values.
var update = flag.Bool("update", false, "rewrite the generated .bin files of testdata/ir and ir/embedded")

func le[T any](vs ...T) []byte {
	var b bytes.Buffer
	for _, v := range vs {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

func f16s(vs ...float32) []byte {
	out := make([]byte, 0, 2*len(vs))
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint16(out, float16.Fromfloat32(v).Bits())
	}
	return out
}

// lhsF16 is the f16[256,56] input of Example 1: -0, +inf, NaN, 65504, then (k%200-100)/8.
func lhsF16() []byte {
	vs := make([]float32, 256*56)
	for k := range vs {
		vs[k] = float32(k%200-100) / 8
	}
	vs[0] = float32(math.Copysign(0, -1))
	vs[1] = float32(math.Inf(1))
	vs[2] = float32(math.NaN())
	vs[3] = 65504
	return f16s(vs...)
}

// lhsI16 is the i16[256,56] input of Examples 2 and 3: int16(37k - 30000), wrapping.
func lhsI16() []byte {
	vs := make([]int16, 256*56)
	for k := range vs {
		vs[k] = int16(int32(37*k - 30000))
	}
	return le(vs...)
}

var specConsts = map[string][]byte{
	"lhs_f16":   lhsF16(),
	"rhs_f32":   le[float32](1.5, -2.25, math.MaxFloat32),
	"lhs_i16":   lhsI16(),
	"lhs_i16_b": lhsI16(),
	"rhs_u32":   le[uint32](0, math.MaxUint32, 123456789),
	"rhs_u64":   le[uint64](0, math.MaxUint64, 1<<53+1),
}

// testdataBins maps each model (path from the repository root) to its Consts' bytes by name.
var testdataBins = map[string]map[string][]byte{
	"testdata/ir/example1_promote_floats.xml":  specConsts,
	"testdata/ir/example2_integers_unsafe.xml": specConsts,
	"testdata/ir/example3_u64_unsafe.xml":      specConsts,
	"ir/embedded/spec_examples.xml":            specConsts,
	"testdata/ir/safe_fail_f16_i64.xml": {
		"x_f16": f16s(1, -2, 0.5, 65504),
		"y_i64": le[int64](-5, 1<<40),
	},
	"testdata/ir/safe_fail_u64_i8.xml": {
		"x_u64": le[uint64](1, 1<<63),
		"y_i8":  le[int8](-1, 127),
	},
	"testdata/ir/safe_fail_pytorch_scalar.xml": {
		"s_i64": le[int64](300),
		"d_u8":  le[uint8](0, 1, 128, 255),
	},
	"testdata/ir/pytorch_scalar.xml": {
		"s_i64": le[int64](300),
		"d_u8":  le[uint8](0, 1, 128, 255),
		"s_i8":  le[int8](-7),
		"d_i32": le[int32](1, -2, math.MaxInt32),
		"s_f16": f16s(1.5),
		"d_i8":  le[int8](-128, 127),
	},
	"testdata/ir/u64_custom_target.xml": {
		"x_u64": le[uint64](0, 1, 1<<63, math.MaxUint64),
		"y_i32": le[int32](-1, 0, math.MaxInt32, math.MinInt32),
	},
	"testdata/ir/subbyte_consts.xml": {
		// u1, most significant bit first: 1,0,1,1,0,0,1,0, 1,1.
		"bits_u1": {0xB2, 0xC0},
		"w_f32":   le[float32](0.25, -1),
		// u4, low nibble first: 0, 1, 7, 8, 15.
		"nib_u4": {0x10, 0x87, 0x0F},
		"v_i8":   le[int8](-128, 0, 100),
		// i4, low nibble first: -8, -1, 0, 1, 7, 3.
		"nib_i4": {0xF8, 0x10, 0x37},
		"h_f16":  f16s(0.1, -3),
		// nf4 codes 0, 2, 4, 6, 8, 10, 12, 15.
		"codes_nf4": {0x20, 0x64, 0xA8, 0xFC},
		"s_bf16":    le[uint16](0x3F80, 0xBF00), // 1, -0.5
	},
	"testdata/ir/f8_consts.xml": {
		// f8e4m3: 0, 1, -1, 448, NaN, 2^-9, -0, 2.
		"e4m3": {0x00, 0x38, 0xB8, 0x7E, 0x7F, 0x01, 0x80, 0x40},
		// f8e5m2: 1, 57344, inf, -inf, NaN, 2^-16, -0, 2.
		"e5m2": {0x3C, 0x7B, 0x7C, 0xFC, 0x7E, 0x01, 0x80, 0x40},
		// f8e4m3: 1, 3, -2, 0.
		"e4m3_b": {0x38, 0x44, 0xC0, 0x00},
		"bf":     le[uint16](0x3FC0, 0xC120), // 1.5, -10
	},
	"testdata/ir/parameter_input.xml": {
		"y_f32": le[float32](0.5, -1, 2),
	},
	"testdata/ir/eval_ops.xml": evalOpsConsts,
}

// evalOpsConsts are the values of testdata/ir/eval_ops.xml: an int4_asym weight (group 4) and
// an embedding table.
var evalOpsConsts = map[string][]byte{
	"codes":        evalOpsCodes(),
	"w/zero_point": {0x78, 0x89, 0xA6, 0x88}, // 8, 7, 9, 8, 6, 10, 8, 8
	// 0.1 and 0.003 are not f16 values: their f16 roundings are what the scale holds.
	"w/scale":      f16s(0.1, -0.05, 0.2, 1.5, 0.003, 7, 0.01, 100),
	"w/scale/axes": le[int64](-1),
	"w/shape":      le[int64](4, 8),
	"emb":          f16s(-3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4),
	"ids":          le[int32](-1, 1, 7),
	"emb/axis":     le[int32](0),
	"emb/perm":     le[int64](1, 0),
}

// evalOpsCodes are 32 u4 codes (3k+1) mod 16, low nibble first.
func evalOpsCodes() []byte {
	b := make([]byte, 16)
	for k := range 32 {
		b[k/2] |= byte((3*k+1)%16) << (4 * (k % 2))
	}
	return b
}

// repoRoot is the module root (the parent of this package's directory).
func repoRoot(t testing.TB) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

// genBin lays out the values of consts at the offsets the model's Const layers give.
func genBin(t *testing.T, path string, consts map[string][]byte) []byte {
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var bin []byte
	for _, l := range m.Layers {
		if l.Type != "Const" {
			continue
		}
		ci, err := m.ConstInfo(l)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := consts[l.Name]
		if !ok {
			t.Fatalf("%s: no values for Const %s", path, l.Name)
		}
		if int64(len(v)) != ci.Size {
			t.Fatalf("%s: Const %s: %d bytes of values, size=%d", path, l.Name, len(v), ci.Size)
		}
		if end := ci.Offset + ci.Size; int64(len(bin)) < end {
			bin = append(bin, make([]byte, end-int64(len(bin)))...)
		}
		copy(bin[ci.Offset:], v)
	}
	return bin
}

func TestTestdataBins(t *testing.T) {
	root := repoRoot(t)
	for rel, consts := range testdataBins {
		path := filepath.Join(root, rel)
		want := genBin(t, path, consts)
		binPath := BinPath(path)
		if *update {
			if err := os.WriteFile(binPath, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(binPath)
		if err != nil {
			t.Fatalf("%v (run with -update to generate)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from its generated content (run with -update)", binPath)
		}
	}
}
