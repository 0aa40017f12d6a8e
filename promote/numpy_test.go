package promote

import (
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// np.promote_types for NumPy's builtin numeric types (NumPy 2), typed from NumPy's promotion
// rules as its user guide states them (doc/source/reference/arrays.promotion.rst: the smallest
// type both can be cast to safely; an unsigned and a signed integer of the same or larger width
// go to the next wider signed integer, u64 with any signed integer to f64; integers reach f16 at
// 8 bits, f32 at 16 bits and f64 above).
const numpyPromoteTable = `
        boolean i8   i16  i32  i64  u8   u16  u32  u64  f16  f32  f64  c64  c128
boolean boolean i8   i16  i32  i64  u8   u16  u32  u64  f16  f32  f64  c64  c128
i8      i8      i8   i16  i32  i64  i16  i32  i64  f64  f16  f32  f64  c64  c128
i16     i16     i16  i16  i32  i64  i16  i32  i64  f64  f32  f32  f64  c64  c128
i32     i32     i32  i32  i32  i64  i32  i32  i64  f64  f64  f64  f64  c128 c128
i64     i64     i64  i64  i64  i64  i64  i64  i64  f64  f64  f64  f64  c128 c128
u8      u8      i16  i16  i32  i64  u8   u16  u32  u64  f16  f32  f64  c64  c128
u16     u16     i32  i32  i32  i64  u16  u16  u32  u64  f32  f32  f64  c64  c128
u32     u32     i64  i64  i64  i64  u32  u32  u32  u64  f64  f64  f64  c128 c128
u64     u64     f64  f64  f64  f64  u64  u64  u64  u64  f64  f64  f64  c128 c128
f16     f16     f16  f32  f64  f64  f16  f32  f64  f64  f16  f32  f64  c64  c128
f32     f32     f32  f32  f64  f64  f32  f32  f64  f64  f32  f32  f64  c64  c128
f64     f64     f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  c128 c128
c64     c64     c64  c64  c128 c128 c64  c64  c128 c128 c64  c64  c128 c64  c128
c128    c128    c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
`

func TestNumPyPromoteTypesTable(t *testing.T) {
	p := NumPy{}
	g := parseGrid(t, numpyPromoteTable)
	for _, rn := range g.keys {
		for j, cn := range g.cols {
			a, b := element.MustParse(rn), element.MustParse(cn)
			want := element.MustParse(g.rows[rn][j])
			got, err := p.PromoteTypes(a, b)
			if err != nil || got != want {
				t.Errorf("np.promote_types(%s, %s) = %s, %v; want %s", a, b, got, err, want)
			}
			// NumPy 2 has no value-based casting: rank 0 arrays promote like any other.
			r, err := p.Promote(Scalar(a), Tensor(b))
			if err != nil || r != (Result{Type: want}) {
				t.Errorf("%s[] + %s = %v, %v; want %s", a, b, r, err, want)
			}
		}
	}
}

func TestNumPyDocs(t *testing.T) {
	p := mustPolicy(t, "numpy", Config{})
	// The examples of np.promote_types's docstring (numpy/_core/multiarray.py).
	runCases(t, p, "np.promote_types docstring", []pcase{
		{"f32", "f64", "f64"},
		{"i64", "f32", "f64"},
		{"i64", "c64", "c128"},
	})
	// NEP 50 (doc/neps/nep-0050-scalar-promotion.rst), the table of "old result / new result":
	// typed NumPy scalars and arrays are strong at any rank, Python scalars are weak.
	runCases(t, p, "NEP 50", []pcase{
		{"u8[]", "py:int", "u8"},      // uint8(1) + 2
		{"u8[1]", "i64[]", "i64"},     // array([1], uint8) + int64(1)
		{"u8[1]", "i64[]", "i64"},     // array([1], uint8) + array(1, int64)
		{"f32[1]", "f64[]", "f64"},    // array([1.], float32) + float64(1.)
		{"u8[1]", "py:int", "u8"},     // array([1], uint8) + 1
		{"f32[]", "py:float", "f32"},  // float32(1) + 3e100
		{"f32[1]", "py:float", "f32"}, // array([1.0], float32) + 1e-14
		{"i64[]", "py:int", "i64"},    // int64(2) + 2
	})
	// ml_dtypes/tests/result_type_test.py (np.result_type with ml_dtypes' types).
	runCases(t, p, "ml_dtypes result_type_test.py", []pcase{
		{"bf16", "boolean", "bf16"},
		{"f8e4m3", "boolean", "f8e4m3"},
		{"f8e4m3", "f16", "f16"},
		{"f8e5m2", "f16", "f16"},
		{"bf16", "f16", "f32"},
		{"f8e4m3", "f32", "f32"},
		{"bf16", "f32", "f32"},
		{"bf16", "f64", "f64"},
		{"f8e4m3", "f64", "f64"},
		{"bf16", "i8", "bf16"},
		{"bf16", "i16", "f64"},
		{"f8e4m3", "i8", "f64"},
		{"f8e4m3", "i32", "f64"},
		{"bf16", "c64", "c64"},
		{"f8e4m3", "c64", "c64"},
		{"bf16", "c128", "c128"},
		{"f8e4m3", "c128", "c128"},
		{"f8e4m3", "bf16", "bf16"},
		{"f8e5m2", "bf16", "bf16"},
		{"f8e4m3", "f8e5m2", "f32"},
		{"bf16", "py:int", "bf16"},
		{"bf16", "py:float", "bf16"},
		{"f8e4m3", "py:int", "f8e4m3"},
		{"f8e4m3", "py:float", "f8e4m3"},
		{"bf16", "py:complex", "c64"},
		{"f8e4m3", "py:complex", "c64"},
		// test_weak_scalar_stays_weak: a Python float or complex with a concrete float.
		{"py:float", "f16", "f16"},
		{"py:complex", "f16", "c64"},
		{"py:complex", "f32", "c64"},
		{"py:complex", "f64", "c128"},
		{"py:float", "c64", "c64"},
	})
	// Worked from the rules above (no source case): u8 fits bf16's 8-bit significand like i8;
	// every other integer with bf16 goes to f64, as i16 does.
	runCases(t, p, "ml_dtypes rule", []pcase{
		{"bf16", "u8", "bf16"},
		{"bf16", "u64", "f64"},
		{"f8e5m2", "u8", "f64"},
	})
	// NEP 50's weak Python scalars of a higher kind than the array give the default type.
	runCases(t, p, "NEP 50 kinds", []pcase{
		{"boolean", "py:int", "i64"},
		{"i8", "py:float", "f64"},
		{"boolean", "py:float", "f64"},
		{"i16", "py:complex", "c128"},
		{"i16", "py:bool", "i16"},
		{"py:int", "py:float", "weak:f64"},
		{"py:bool", "py:int", "weak:i64"},
		{"py:bool", "py:bool", "boolean"},
		{"u64", "i64", "f64"},
		{"string", "f32", "error"},
	})
}

func TestNumPyOps(t *testing.T) {
	div := mustPolicy(t, "numpy", Config{Op: "div"})
	runCases(t, div, "np.true_divide", []pcase{
		{"i8", "i8", "f64"},
		{"boolean", "boolean", "f64"},
		{"f16", "py:int", "f16"},
		{"i32", "f32", "f64"},
		{"py:int", "py:int", "weak:f64"},
	})
	cmp := mustPolicy(t, "numpy", Config{Op: "compare"})
	runCases(t, cmp, "np.equal", []pcase{
		{"f32", "py:float", "boolean"},
		{"u64", "i64", "boolean"},
	})
}
