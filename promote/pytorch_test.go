package promote

import (
	"regexp"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// torch.promote_types for the 13 types of _promoteTypesLookup, typed from the seed
// 004_2da3b1e1793b6f18.txt (the same table as c10/core/ScalarType.cpp), with this project's
// names: c32 is complex32, boolean is bool.
const torchPromoteTable = `
        u8   i8   i16  i32  i64  f16  f32  f64  c32  c64  c128 boolean bf16
u8      u8   i16  i16  i32  i64  f16  f32  f64  c32  c64  c128 u8      bf16
i8      i16  i8   i16  i32  i64  f16  f32  f64  c32  c64  c128 i8      bf16
i16     i16  i16  i16  i32  i64  f16  f32  f64  c32  c64  c128 i16     bf16
i32     i32  i32  i32  i32  i64  f16  f32  f64  c32  c64  c128 i32     bf16
i64     i64  i64  i64  i64  i64  f16  f32  f64  c32  c64  c128 i64     bf16
f16     f16  f16  f16  f16  f16  f16  f32  f64  c32  c64  c128 f16     f32
f32     f32  f32  f32  f32  f32  f32  f32  f64  c64  c64  c128 f32     f32
f64     f64  f64  f64  f64  f64  f64  f64  f64  c128 c128 c128 f64     f64
c32     c32  c32  c32  c32  c32  c32  c64  c128 c32  c64  c128 c32     c64
c64     c64  c64  c64  c64  c64  c64  c64  c128 c64  c64  c128 c64     c64
c128    c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128    c128
boolean u8   i8   i16  i32  i64  f16  f32  f64  c32  c64  c128 boolean bf16
bf16    bf16 bf16 bf16 bf16 bf16 f32  f32  f64  c64  c64  c128 bf16    bf16
`

// Every cell of the seed's table, as promote_types and as result_type of two dimensioned tensors,
// two zero-dim tensors and two Python-free operands of equal category.
func TestPyTorchPromoteTypesTable(t *testing.T) {
	p := PyTorch{}
	g := parseGrid(t, torchPromoteTable)
	cells := 0
	for _, rn := range g.keys {
		for j, cn := range g.cols {
			a, b := element.MustParse(rn), element.MustParse(cn)
			want := element.MustParse(g.rows[rn][j])
			got, err := p.PromoteTypes(a, b)
			if err != nil || got != want {
				t.Errorf("promote_types(%s, %s) = %s, %v; want %s", a, b, got, err, want)
			}
			for _, s := range []Shape{StaticShape(2), StaticShape()} {
				r, err := p.Promote(Operand{Type: a, Shape: s}, Operand{Type: b, Shape: s})
				if err != nil || r != (Result{Type: want}) {
					t.Errorf("result_type(%s%s, %s%s) = %v, %v; want %s", a, s, b, s, r, err, want)
				}
			}
			cells++
		}
	}
	if cells != 169 {
		t.Fatalf("table has %d cells, want 169", cells)
	}
}

// The typed table above equals the one in the seed file (when the seeds are present).
func TestPyTorchTableMatchesSeed(t *testing.T) {
	text := readSeed(t, "004_")
	row := regexp.MustCompile(`/\*\s*(\w+)\s*\*/\s*\{([^}]*)\}`)
	header := regexp.MustCompile(`/\*((?:\s+\w+){13})\s*\*/`)
	var seed grid
	seed.rows = map[string][]string{}
	if m := header.FindStringSubmatch(text); m != nil {
		seed.cols = strings.Fields(m[1])
	}
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		var cells []string
		for _, c := range strings.Split(m[2], ",") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		seed.rows[m[1]] = cells
		seed.keys = append(seed.keys, m[1])
	}
	short := map[string]string{"u1": "u8", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64", "f2": "f16",
		"f4": "f32", "f8": "f64", "c2": "c32", "c4": "c64", "c8": "c128", "b1": "boolean", "bf": "bf16"}
	equalGrids(t, "seed 004 promoteTypes", parseGrid(t, torchPromoteTable), seed, func(s string) string { return short[s] })
}

// PyTorch 2.x rules outside the table (c10/core/ScalarType.cpp promoteTypes): u16/u32/u64 only
// with floating types, float8 types only with themselves.
func TestPyTorchBarebonesAndFloat8(t *testing.T) {
	p := PyTorch{}
	for _, u := range []element.Type{element.U16, element.U32, element.U64} {
		for _, o := range pytorchTypes {
			got, err := p.PromoteTypes(u, o)
			switch {
			case o == u:
				if err != nil || got != u {
					t.Errorf("promote_types(%s, %s) = %s, %v", u, o, got, err)
				}
			case o == element.F64 || o == element.F32 || o == element.F16 || o == element.BF16:
				if err != nil || got != o {
					t.Errorf("promote_types(%s, %s) = %s, %v; want %s", u, o, got, err, o)
				}
			default: // other integers, bool, complex, float8
				if err == nil {
					t.Errorf("promote_types(%s, %s) = %s, want an error", u, o, got)
				}
			}
		}
	}
	for _, f := range []element.Type{element.F8E4M3, element.F8E5M2, element.F8E8M0} {
		for _, o := range pytorchTypes {
			got, err := p.PromoteTypes(f, o)
			if o == f {
				if err != nil || got != f {
					t.Errorf("promote_types(%s, %s) = %s, %v", f, o, got, err)
				}
			} else if err == nil {
				t.Errorf("promote_types(%s, %s) = %s, want an error", f, o, got)
			}
		}
	}
}

func TestPyTorchResultType(t *testing.T) {
	p := mustPolicy(t, "pytorch", Config{})
	// The examples of the seed 004_2da3b1e1793b6f18.txt, which are those of PyTorch's
	// docs/source/tensor_attributes.rst ("Type promotion examples").
	runCases(t, p, "seed 004 / tensor_attributes.rst", []pcase{
		{"i32[1]", "py:int", "i32"},     // int_tensor + 5
		{"i32[1]", "py:float", "f32"},   // int_tensor + 5.5
		{"i32[1]", "i64[]", "i32"},      // int_tensor + long_zerodim
		{"i64[1]", "i32[1]", "i64"},     // long_tensor + int_tensor
		{"boolean[1]", "i64[1]", "i64"}, // bool_tensor + long_tensor
		{"boolean[1]", "u8[1]", "u8"},   // bool_tensor + uint_tensor
		{"f32[1]", "f64[1]", "f64"},     // float_tensor + double_tensor
		{"c64[1]", "c128[1]", "c128"},   // complex_float_tensor + complex_double_tensor
		{"boolean[1]", "i32[1]", "i32"}, // bool_tensor + int_tensor
		{"i64[1]", "f32[1]", "f32"},     // torch.add(long_tensor, float_tensor)
		{"py:int", "py:int", "i64"},     // torch.add(5, 5)
	})
	// test/test_type_promotion.py, test_result_type and test_promote_types.
	runCases(t, p, "test_type_promotion.py", []pcase{
		{"i32[]", "py:int", "i32"},
		{"py:int", "i32[]", "i32"},
		{"py:int", "py:float", "f32"},
		{"i64[]", "py:float", "f32"},
		{"i64[]", "i32[2]", "i32"},
		{"f32[2]", "py:float", "f32"},
		{"f32[]", "f64[]", "f64"},
		{"f32", "i32", "f32"},
		{"f32", "f64", "f64"},
		{"i32", "u8", "i32"},
	})
	// combine_categories (aten/src/ATen/native/TypeProperties.cpp), worked by hand.
	runCases(t, p, "TypeProperties.cpp combine_categories", []pcase{
		{"f16[2]", "py:complex", "c32"},  // complex over float keeps the float's precision
		{"bf16[2]", "py:complex", "c64"}, // toComplexType(BFloat16) = ComplexFloat
		{"f64[2]", "py:complex", "c128"},
		{"i32[2]", "py:complex", "c64"}, // the default complex dtype
		{"i32[2]", "c128[]", "c128"},    // a zero-dim complex over an int tensor
		{"f16[2]", "c128[]", "c32"},     // ... over a float16 tensor: complex of f16
		{"f16[2]", "f64[]", "f16"},      // zero-dim of the same kind does not count
		{"i8[2]", "f64[]", "f64"},       // zero-dim of a higher kind decides
		{"boolean[2]", "py:int", "i64"}, // a bool tensor takes the Python int's type
		{"boolean[2]", "py:bool", "boolean"},
		{"u8[2]", "py:bool", "u8"},
		{"u16[2]", "py:int", "u16"}, // no promote_types call: no error
		{"u16[2]", "i32[]", "u16"},
		{"u16[2]", "py:float", "f32"},
		{"u16[2]", "i32[2]", "error"},
		{"f8e4m3[2]", "py:float", "f8e4m3"},  // float8 is a floating type: the tensor wins
		{"f8e4m3[2]", "py:complex", "error"}, // no complex type for float8
		{"f8e4m3[2]", "f8e5m2[]", "f8e4m3"},
		{"f8e4m3[2]", "f8e5m2[2]", "error"},
		{"i32[...]", "i64[]", "i32"},     // a dynamic rank counts as dimensioned
		{"weak:f64[4]", "i32[4]", "f32"}, // a weak operand is a wrapped number whatever its shape
		{"string", "f32", "error"},
	})
}

func TestPyTorchOps(t *testing.T) {
	div := mustPolicy(t, "pytorch", Config{Op: "div"})
	runCases(t, div, "seed 004: int_tensor / 5 is float", []pcase{
		{"i32[1]", "py:int", "f32"},
		{"boolean", "boolean", "f32"},
		{"f16", "py:int", "f16"},
		{"u16", "u16", "f32"},
		{"c64", "i8", "c64"},
		{"u16", "i8", "error"},
	})
	cmp := mustPolicy(t, "pytorch", Config{Op: "compare"})
	runCases(t, cmp, "comparison ops give bool", []pcase{
		{"i32", "f64", "boolean"},
		{"c64", "py:float", "boolean"},
		{"u32", "i32", "error"},
		{"f8e5m2", "f16", "error"},
	})
}
