package promote

import (
	"strings"
	"testing"
)

// anvil's two tables as the seed 002_4c90b0f5a2052027.txt prints them (anvil's names: i1 is
// bool, ui8 is u8).
const anvilKnownTable = `
      i1   i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i1    i1   i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i8    i8   i8   i16  i32  i64  i16  i32  i64  i64  f32  f64
i16   i16  i16  i16  i32  i64  i16  i32  i64  i64  f32  f64
i32   i32  i32  i32  i32  i64  i32  i32  i64  i64  f32  f64
i64   i64  i64  i64  i64  i64  i64  i64  i64  i64  f32  f64
ui8   ui8  i16  i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
ui16  ui16 i32  i32  i32  i64  ui16 ui16 ui32 ui64 f32  f64
ui32  ui32 i64  i64  i64  i64  ui32 ui32 ui32 ui64 f32  f64
ui64  ui64 i64  i64  i64  i64  ui64 ui64 ui64 ui64 f32  f64
f32   f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64
f64   f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64
`

// Rows ambiguous, columns known.
const anvilAmbiguousTable = `
      i1   i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i1    i1   i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i8    i8   i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i16   i16  i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i32   i32  i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
i64   i64  i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
ui8   ui8  i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
ui16  ui16 i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
ui32  ui32 i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
ui64  ui64 i8   i16  i32  i64  ui8  ui16 ui32 ui64 f32  f64
f32   f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64
f64   f64  f64  f64  f64  f64  f64  f64  f64  f64  f32  f64
`

func anvilName(s string) string {
	if s == "i1" {
		return "boolean"
	}
	return strings.Replace(s, "ui", "u", 1)
}

// Every cell of both tables. Known with known is never ambiguous; two ambiguous operands give
// the known table's type, ambiguous (the seed: "If both types are ambiguous, the result is
// generally the same as if both were known"); an ambiguous row with a known column is ambiguous
// exactly when the ambiguous type won (the seed's "z is i32?" example), i.e. the cell is the row's
// type and not the column's.
func TestAnvilSeedTables(t *testing.T) {
	p := mustPolicy(t, "anvil", Config{})
	known := parseGrid(t, anvilKnownTable)
	amb := parseGrid(t, anvilAmbiguousTable)
	var cases []pcase
	for _, rn := range known.keys {
		for j, cn := range known.cols {
			r, c, cell := anvilName(rn), anvilName(cn), anvilName(known.rows[rn][j])
			cases = append(cases, pcase{r, c, cell}, pcase{"weak:" + r, "weak:" + c, "weak:" + cell})
		}
	}
	for _, rn := range amb.keys {
		for j, cn := range amb.cols {
			r, c, cell := anvilName(rn), anvilName(cn), anvilName(amb.rows[rn][j])
			want := cell
			if cell == r && r != c {
				want = "weak:" + cell
			}
			cases = append(cases, pcase{"weak:" + r, c, want}, pcase{c, "weak:" + r, want})
		}
	}
	if len(cases) != 4*121 {
		t.Fatalf("%d cases", len(cases))
	}
	runCases(t, p, "seed 002 tables", cases)
}

func TestAnvilTablesMatchSeed(t *testing.T) {
	text := readSeed(t, "002_")
	var tables []grid
	var cur *grid
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		f := strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == ' ' })
		if len(f) > 0 && strings.HasPrefix(f[0], ":") {
			continue // the alignment row
		}
		if cur == nil {
			tables = append(tables, grid{cols: f, rows: map[string][]string{}})
			cur = &tables[len(tables)-1]
			continue
		}
		cur.rows[f[0]] = f[1:]
		cur.keys = append(cur.keys, f[0])
	}
	if len(tables) != 2 {
		t.Fatalf("found %d tables in seed 002, want 2", len(tables))
	}
	same := func(s string) string { return s }
	equalGrids(t, "seed 002 known table", parseGrid(t, anvilKnownTable), tables[0], same)
	equalGrids(t, "seed 002 ambiguous table", parseGrid(t, anvilAmbiguousTable), tables[1], same)
}

func TestAnvilExamples(t *testing.T) {
	p := mustPolicy(t, "anvil", Config{})
	// The seed's common_dtype() examples and its "Propagating Ambiguity" walk-through.
	runCases(t, p, "seed 002 examples", []pcase{
		{"f64", "f32", "f64"},
		{"i64", "f32", "f32"},
		{"f32", "weak:f64", "f32"},              // common_dtype("f32", "f64", FALSE, TRUE)
		{"weak:f32", "weak:f64", "weak:f64"},    // common_dtype("f32", "f64", TRUE, TRUE)
		{"f32", "f64", "f64"},                   // common_dtype("f32", "f64", FALSE, FALSE)
		{"boolean[]", "weak:i32[]", "weak:i32"}, // z <- x + 1L is i32?
		{"weak:i32[]", "i16[]", "i16"},          // z * y is i16
		{"f16", "f32", "error"},
	})
}
