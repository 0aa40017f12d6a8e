package promote

import (
	"testing"
)

// The binary promotion table of JAX's documentation (docs/type_promotion.rst), typed from it:
// rows and columns in JAX's short names (u1 is uint8, i8 is int64, bf is bfloat16, c8 is
// complex64; i*, f*, c* are the weak types, here Python scalars). It is the jax_enable_x64
// table: a weak result (i*, f*, c*) prints as weak:i64, weak:f64, weak:c128.
const jaxDocTable = `
     b1  u1  u2  u4  u8  i1  i2  i4  i8  bf  f2  f4  f8  c8  c16 i*  f*  c*
b1   b1  u1  u2  u4  u8  i1  i2  i4  i8  bf  f2  f4  f8  c8  c16 i*  f*  c*
u1   u1  u1  u2  u4  u8  i2  i2  i4  i8  bf  f2  f4  f8  c8  c16 u1  f*  c*
u2   u2  u2  u2  u4  u8  i4  i4  i4  i8  bf  f2  f4  f8  c8  c16 u2  f*  c*
u4   u4  u4  u4  u4  u8  i8  i8  i8  i8  bf  f2  f4  f8  c8  c16 u4  f*  c*
u8   u8  u8  u8  u8  u8  f*  f*  f*  f*  bf  f2  f4  f8  c8  c16 u8  f*  c*
i1   i1  i2  i4  i8  f*  i1  i2  i4  i8  bf  f2  f4  f8  c8  c16 i1  f*  c*
i2   i2  i2  i4  i8  f*  i2  i2  i4  i8  bf  f2  f4  f8  c8  c16 i2  f*  c*
i4   i4  i4  i4  i8  f*  i4  i4  i4  i8  bf  f2  f4  f8  c8  c16 i4  f*  c*
i8   i8  i8  i8  i8  f*  i8  i8  i8  i8  bf  f2  f4  f8  c8  c16 i8  f*  c*
bf   bf  bf  bf  bf  bf  bf  bf  bf  bf  bf  f4  f4  f8  c8  c16 bf  bf  c8
f2   f2  f2  f2  f2  f2  f2  f2  f2  f2  f4  f2  f4  f8  c8  c16 f2  f2  c8
f4   f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f8  c8  c16 f4  f4  c8
f8   f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  c16 c16 f8  f8  c16
c8   c8  c8  c8  c8  c8  c8  c8  c8  c8  c8  c8  c8  c16 c8  c16 c8  c8  c8
c16  c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16
i*   i*  u1  u2  u4  u8  i1  i2  i4  i8  bf  f2  f4  f8  c8  c16 i*  f*  c*
f*   f*  f*  f*  f*  f*  f*  f*  f*  f*  bf  f2  f4  f8  c8  c16 f*  f*  c*
c*   c*  c*  c*  c*  c*  c*  c*  c*  c*  c8  c8  c8  c16 c8  c16 c*  c*  c*
`

var jaxShort = map[string]string{
	"b1": "boolean", "u1": "u8", "u2": "u16", "u4": "u32", "u8": "u64", "i1": "i8", "i2": "i16",
	"i4": "i32", "i8": "i64", "bf": "bf16", "f2": "f16", "f4": "f32", "f8": "f64", "c8": "c64",
	"c16": "c128", "i*": "py:int", "f*": "py:float", "c*": "py:complex",
}

var jaxWeakResult = map[string]string{"i*": "weak:i64", "f*": "weak:f64", "c*": "weak:c128"}

func TestJAXDocTable(t *testing.T) {
	p := mustPolicy(t, "jax", Config{X64: true})
	g := parseGrid(t, jaxDocTable)
	var cases []pcase
	for _, rn := range g.keys {
		for j, cn := range g.cols {
			cell := g.rows[rn][j]
			want, ok := jaxWeakResult[cell]
			if !ok {
				want = jaxShort[cell]
			}
			cases = append(cases, pcase{jaxShort[rn], jaxShort[cn], want})
		}
	}
	if len(cases) != 18*18 {
		t.Fatalf("%d cells, want 324", len(cases))
	}
	runCases(t, p, "docs/type_promotion.rst", cases)
}

func TestJAXCases(t *testing.T) {
	x32 := mustPolicy(t, "jax", Config{})
	x64 := mustPolicy(t, "jax", Config{X64: true})
	// u64 and i64 have no common integer type: they meet at f*, a weak float (f64 under x64).
	runCases(t, x64, "u64 with i64: no common integer", []pcase{{"u64", "i64", "weak:f64"}})
	// jnp.promote_types docstring (jax/_src/dtypes.py): Python types are weak.
	runCases(t, x64, "jnp.promote_types docstring", []pcase{
		{"i32", "f32", "f32"},
		{"u8", "py:int", "u8"},
		{"f16", "py:float", "f16"},
	})
	// docs/type_promotion.rst, weak types: 2 * int8 array stays int8; weak values with weak.
	runCases(t, x64, "docs/type_promotion.rst weak types", []pcase{
		{"py:int", "i8[5]", "i8"},
		{"i32[]", "i8[5]", "i32"},
		{"weak:i32[]", "i8[5]", "i8"},
		{"weak:i16", "weak:f16", "weak:f64"}, // bound of the strong types, then weak
	})
	// jax_enable_x64 off (the default): 64-bit types canonicalize to 32 bits (dtypes.py
	// canonicalize_dtype), and the x32 lattice sends u32 with i32 to i32.
	runCases(t, x32, "dtypes.py, x64 off", []pcase{
		{"u64", "i64", "i32"},
		{"f64", "f64", "f32"},
		{"u32", "i32", "i32"},
		{"i64", "f16", "f16"},
		{"py:int", "py:float", "weak:f32"},
		{"py:int", "py:int", "weak:i32"},
		{"py:complex", "f64", "c64"},
		{"i32", "py:int", "i32"},
		{"bf16", "f16", "f32"},
	})
	// dtypes.py: float8 and 4-bit types hang below f* only.
	runCases(t, x32, "dtypes.py small floats and ints", []pcase{
		{"i32", "f8e4m3", "f8e4m3"},
		{"boolean", "f8e5m2", "f8e5m2"},
		{"py:float", "f8e4m3", "f8e4m3"},
		{"f8e4m3", "f8e5m2", "error"},
		{"f8e4m3", "f32", "error"},
		{"f8e4m3", "bf16", "error"},
		{"f4e2m1", "f8e8m0", "error"},
		{"py:int", "u4", "u4"},
		{"py:int", "u1", "u1"},
		{"u1", "u8", "error"},
		{"u4", "i8", "error"},
		{"i4", "u4", "error"},
		{"u2", "py:float", "error"},
		{"string", "f32", "error"},
	})
}

func TestJAXStrict(t *testing.T) {
	p := mustPolicy(t, "jax-strict", Config{})
	// The strict lattice of dtypes.py: only weak types have edges.
	runCases(t, p, "dtypes.py strict lattice", []pcase{
		{"i16", "i32", "error"},
		{"i32", "i64", "i32"}, // without x64, i64 is i32 before promotion
		{"f16", "f32", "error"},
		{"boolean", "i8", "error"},
		{"i32", "i32", "i32"},
		{"i32", "py:int", "i32"},
		{"f32", "py:int", "f32"},
		{"c64", "py:float", "c64"},
		{"i32", "py:float", "error"},
		{"boolean", "py:int", "error"},
		{"py:int", "py:float", "weak:f32"},
		{"py:int", "py:int", "weak:i32"},
		{"f8e4m3", "py:float", "f8e4m3"},
	})
	x64 := mustPolicy(t, "jax-strict", Config{X64: true})
	runCases(t, x64, "dtypes.py strict lattice, x64", []pcase{
		{"u64", "i64", "error"},
		{"py:float", "py:complex", "weak:c128"},
	})
}
