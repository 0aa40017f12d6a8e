package promote

import (
	"strings"
	"testing"
)

// Paddle's tensor-with-tensor table exactly as the seed prints it (000_bd43db8b57102108.txt,
// the same in 003_7d8bc8e3598206ee.txt): row a, column b of paddle.add(a, b); "-" is a
// TypeError.
const paddleSeedTensorTable = `
      bf16 f16  f32  f64  bool u8   i8   i16  i32  i64  c64  c128
bf16  bf16 f32  f32  f64  -    -    -    -    -    -    c64  c128
f16   f32  f16  f32  f64  -    -    -    -    -    -    c64  c128
f32   f32  f32  f32  f64  -    -    -    -    -    -    c64  c128
f64   f64  f64  f64  f64  -    -    -    -    -    -    c128 c128
bool  -    -    -    -    -    -    -    -    -    -    c64  c128
u8    -    -    -    -    -    -    -    -    -    -    c64  c128
i8    -    -    -    -    -    -    -    -    -    -    c64  c128
i16   -    -    -    -    -    -    -    -    -    -    c64  c128
i32   -    -    -    -    -    -    -    -    -    -    c64  c128
i64   -    -    -    -    -    -    -    -    -    -    c64  c128
c64   c64  c64  c64  c64  c64  c64  c64  c64  c64  c128 c64  c128
c128  c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
`

// paddleSourceFixes are the seed's cells that paddle/phi/common/type_promotion.h contradicts,
// with the source's value. The diagonal: equal types need no promotion (NeedTypePromotion
// returns false), so the op runs in that type. The c64 row: promoteTypes(c64, f64) is c128
// (as the seed's own example "complex64 + float64 → complex128" says) and
// promoteTypes(c64, i64) is c64 (the seed's c64 column agrees).
var paddleSourceFixes = map[[2]string]string{
	{"bool", "bool"}: "boolean", {"u8", "u8"}: "u8", {"i8", "i8"}: "i8", {"i16", "i16"}: "i16",
	{"i32", "i32"}: "i32", {"i64", "i64"}: "i64",
	{"c64", "f64"}: "c128", {"c64", "i64"}: "c64",
}

// The tensor-with-scalar table of the seed: row the tensor's dtype, column the Python scalar.
const paddleSeedScalarTable = `
      bool int  float complex
bool  bool i64  f32   c64
u8    u8   u8   f32   c64
i8    i8   i8   f32   c64
i16   i16  i16  f32   c64
i32   i32  i32  f32   c64
i64   i64  i64  f32   c64
bf16  bf16 bf16 bf16  c64
f16   f16  f16  f16   c64
f32   f32  f32  f32   c64
f64   f64  f64  f64   c128
c64   c64  c64  c64   c64
c128  c128 c128 c128  c128
`

func paddleName(s string) string {
	if s == "bool" {
		return "boolean"
	}
	return s
}

func TestPaddleTensorTable(t *testing.T) {
	p := mustPolicy(t, "paddle", Config{})
	g := parseGrid(t, paddleSeedTensorTable)
	var cases []pcase
	fixed := 0
	for _, rn := range g.keys {
		for j, cn := range g.cols {
			want := g.rows[rn][j]
			if fix, ok := paddleSourceFixes[[2]string{rn, cn}]; ok {
				want = fix
				fixed++
			}
			if want == "-" {
				want = "error"
			}
			cases = append(cases, pcase{paddleName(rn) + "[3]", paddleName(cn) + "[3]", paddleName(want)})
		}
	}
	if len(cases) != 144 || fixed != len(paddleSourceFixes) {
		t.Fatalf("%d cells, %d fixed", len(cases), fixed)
	}
	runCases(t, p, "seed 000/003 tensor table, with type_promotion.h's fixes", cases)
}

func TestPaddleScalarTable(t *testing.T) {
	p := mustPolicy(t, "paddle", Config{})
	g := parseGrid(t, paddleSeedScalarTable)
	var cases []pcase
	for _, rn := range g.keys {
		for j, cn := range g.cols {
			cases = append(cases, pcase{paddleName(rn) + "[3,3]", "py:" + cn, paddleName(g.rows[rn][j])})
		}
	}
	if len(cases) != 48 {
		t.Fatalf("%d cells", len(cases))
	}
	runCases(t, p, "seed 000/003 scalar table", cases)
}

// The typed tables above are the seed's, in both the English and the Chinese document.
func TestPaddleTablesMatchSeeds(t *testing.T) {
	for _, prefix := range []string{"000_", "003_"} {
		text := readSeed(t, prefix)
		tensor, scalar := seedMarkdownTables(t, text)
		equalGrids(t, prefix+" tensor table", parseGrid(t, paddleSeedTensorTable), tensor, func(s string) string { return s })
		equalGrids(t, prefix+" scalar table", parseGrid(t, paddleSeedScalarTable), scalar, func(s string) string { return s })
	}
}

// seedMarkdownTables finds the seed's two tables: the one whose header starts "+/-/* | bf16"
// (tensor-tensor) and "+/-/* | bool" (tensor-scalar).
func seedMarkdownTables(t *testing.T, text string) (tensor, scalar grid) {
	t.Helper()
	var cur *grid
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		f := strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == ' ' })
		switch {
		case len(f) > 1 && f[0] == "+/-/*" && f[1] == "bf16":
			tensor = grid{cols: f[1:], rows: map[string][]string{}}
			cur = &tensor
		case len(f) > 1 && f[0] == "+/-/*" && f[1] == "bool":
			scalar = grid{cols: f[1:], rows: map[string][]string{}}
			cur = &scalar
		case cur != nil && len(f) == len(cur.cols)+1 && !strings.HasPrefix(f[0], "-") && !strings.HasPrefix(f[0], ":"):
			cur.rows[f[0]] = f[1:]
			cur.keys = append(cur.keys, f[0])
		case cur != nil && len(f) > 0 && len(cur.keys) > 0 && len(f) != len(cur.cols)+1:
			cur = nil
		}
	}
	return tensor, scalar
}

func TestPaddleDocExamples(t *testing.T) {
	p := mustPolicy(t, "paddle", Config{})
	// The sample code of the seed (Paddle's "Introduction to Data Type Promotion").
	runCases(t, p, "seed 000 samples", []pcase{
		{"f16[3,3]", "f32[3,3]", "f32"},
		{"bf16[3,3]", "f64[3,3]", "f64"},
		{"c64[3,3]", "f64[3,3]", "c128"},
		{"c128[3,3]", "c64[3,3]", "c128"},
		{"f16[3,3]", "py:float", "f16"},
		{"py:float", "i64[3,3]", "f32"},
		{"i64[3,3]", "f32[3,3]", "error"},
	})
	// GetPromoteDtype's 0-d tensor rule (type_promotion.h).
	runCases(t, p, "type_promotion.h 0-d tensors", []pcase{
		{"i32[3]", "i64[]", "i32"}, // same kind: the dimensioned tensor wins
		{"f16[3]", "f64[]", "f16"},
		{"i32[3]", "f64[]", "f64"}, // different kinds: promoteTypes
		{"i32[]", "i64[]", "i64"},  // both 0-d: promoteTypes
		{"i64[]", "f32[]", "f32"},
		{"boolean[3]", "i8[]", "i8"},
		{"i32[...]", "i64[3]", "error"}, // a dynamic rank counts as dimensioned
		{"i32[3]", "i64[3]", "error"},
		{"f8e4m3", "f32", "error"},
	})
	div := mustPolicy(t, "paddle", Config{Op: "div"})
	runCases(t, div, "seed 000 divide rule", []pcase{
		{"i32[3,3]", "py:int", "f32"},
		{"i32[3]", "i32[3]", "f32"},
		{"u8[3]", "i64[]", "f32"},
		{"i32[3]", "i64[3]", "error"}, // tensor-tensor ints of different types still raise
		{"f16[3]", "py:int", "f16"},
		{"boolean[3]", "boolean[3]", "boolean"}, // bool is not an int for the divide rule
	})
	cmp := mustPolicy(t, "paddle", Config{Op: "compare"})
	runCases(t, cmp, "seed 000 logic rule", []pcase{
		{"f32[3,3]", "f16[3,3]", "boolean"},
		{"i32[3]", "py:float", "boolean"},
		{"i32[3]", "f32[3]", "error"},
		// Paddle's documentation: complex types are outside the logic rule's type promotion.
		{"c64[3]", "f32[3]", "error"},
		{"f32[3]", "c64[3]", "error"},
		{"c64[3]", "c64[3]", "error"},
		{"c128[]", "i32[3]", "error"},
		{"f32[3]", "py:complex", "error"},
		{"boolean[3]", "boolean[3]", "boolean"},
	})
}
