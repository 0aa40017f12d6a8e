package promote

import (
	"strings"
	"testing"
)

// The table has 210 one-way entries covering all 20×20 ordered pairs.
func TestTFTableShape(t *testing.T) {
	half := 0
	for _, line := range strings.Split(strings.TrimSpace(tfHalfTable), "\n") {
		_, cells, _ := strings.Cut(line, ":")
		half += len(strings.Split(cells, ","))
	}
	if half != 210 || len(tfTable) != 400 {
		t.Fatalf("half table %d entries (want 210), full table %d (want 400)", half, len(tfTable))
	}
}

// triples reads "a b want" lines into cases.
func triples(text string) []pcase {
	var cs []pcase
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		cs = append(cs, pcase{f[0], f[1], f[2]})
	}
	return cs
}

// tensorflow/python/framework/flexible_dtypes_test.py, testResultTypeTFAndTF (mode "all"),
// typed from it in this project's names.
const tfAndTF = `
boolean boolean boolean
boolean u8 u8
boolean u16 u16
boolean u32 u32
boolean u64 u64
boolean i8 i8
boolean i16 i16
boolean i32 i32
boolean i64 i64
boolean bf16 bf16
boolean f16 f16
boolean f32 f32
boolean f64 f64
boolean c64 c64
boolean c128 c128
u8 u8 u8
u8 u16 u16
u8 u32 u32
u8 u64 u64
u8 i8 i16
u8 i16 i16
u8 i32 i32
u8 i64 i64
u8 bf16 bf16
u8 f16 f16
u8 f32 f32
u8 f64 f64
u8 c64 c64
u8 c128 c128
u16 u16 u16
u16 u32 u32
u16 u64 u64
u16 i8 i32
u16 i16 i32
u16 i32 i32
u16 i64 i64
u16 bf16 bf16
u16 f16 f16
u16 f32 f32
u16 f64 f64
u16 c64 c64
u16 c128 c128
u32 u32 u32
u32 u64 u64
u32 i8 i64
u32 i16 i64
u32 i32 i64
u32 i64 i64
u32 bf16 bf16
u32 f16 f16
u32 f32 f32
u32 f64 f64
u32 c64 c64
u32 c128 c128
u64 u64 u64
u64 i16 weak:f64
u64 i32 weak:f64
u64 i64 weak:f64
u64 bf16 bf16
u64 f16 f16
u64 f32 f32
u64 f64 f64
u64 c64 c64
u64 c128 c128
i8 i8 i8
i8 i16 i16
i8 i32 i32
i8 i64 i64
i8 bf16 bf16
i8 f16 f16
i8 f32 f32
i8 f64 f64
i8 c64 c64
i8 c128 c128
i16 i16 i16
i16 i32 i32
i16 i64 i64
i16 bf16 bf16
i16 f16 f16
i16 f32 f32
i16 f64 f64
i16 c64 c64
i16 c128 c128
i32 i32 i32
i32 i64 i64
i32 bf16 bf16
i32 f16 f16
i32 f32 f32
i32 f64 f64
i32 c64 c64
i32 c128 c128
i64 i64 i64
i64 bf16 bf16
i64 f16 f16
i64 f32 f32
i64 f64 f64
i64 c64 c64
i64 c128 c128
bf16 bf16 bf16
bf16 f16 f32
bf16 f32 f32
bf16 f64 f64
bf16 c64 c64
bf16 c128 c128
f16 f16 f16
f16 f32 f32
f16 f64 f64
f16 c64 c64
f16 c128 c128
f32 f32 f32
f32 f64 f64
f32 c64 c64
f32 c128 c128
f64 f64 f64
f64 c64 c128
f64 c128 c128
c64 c64 c64
c64 c128 c128
c128 c128 c128
`

// testResultTypePythonInt / PythonFloat / PythonComplex: Python literals are weak i32, f32, c128.
const tfPython = `
py:int boolean weak:i32
py:int u8 u8
py:int u16 u16
py:int u32 u32
py:int u64 u64
py:int i8 i8
py:int i16 i16
py:int i32 i32
py:int i64 i64
py:int bf16 bf16
py:int f16 f16
py:int f32 f32
py:int f64 f64
py:int c64 c64
py:int c128 c128
py:float boolean weak:f32
py:float u8 weak:f64
py:float u16 weak:f64
py:float u32 weak:f64
py:float u64 weak:f64
py:float i8 weak:f64
py:float i16 weak:f64
py:float i32 weak:f64
py:float i64 weak:f64
py:float bf16 bf16
py:float f16 f16
py:float f32 f32
py:float f64 f64
py:float c64 c64
py:float c128 c128
py:complex boolean weak:c128
py:complex u8 weak:c128
py:complex u16 weak:c128
py:complex u32 weak:c128
py:complex u64 weak:c128
py:complex i8 weak:c128
py:complex i16 weak:c128
py:complex i32 weak:c128
py:complex i64 weak:c128
py:complex bf16 c64
py:complex f16 c64
py:complex f32 c64
py:complex f64 c128
py:complex c64 c64
py:complex c128 c128
`

// testResultTypeWeakTypesWithTF and testResultTypeWeakTypesWithWeakTypes: WeakTensors (weak
// operands of rank 1 here) with dtypes and with each other.
const tfWeak = `
weak:i32 boolean weak:i32
weak:i32 u8 u8
weak:i32 u64 u64
weak:i32 i8 i8
weak:i32 i64 i64
weak:i32 bf16 bf16
weak:i32 c128 c128
weak:i64 boolean weak:i64
weak:i64 u16 u16
weak:i64 i16 i16
weak:i64 f16 f16
weak:i64 c64 c64
weak:f32 boolean weak:f32
weak:f32 u8 weak:f64
weak:f32 i64 weak:f64
weak:f32 bf16 bf16
weak:f32 f64 f64
weak:f64 boolean weak:f64
weak:f64 u32 weak:f64
weak:f64 f16 f16
weak:f64 c64 c64
weak:c128 boolean weak:c128
weak:c128 i8 weak:c128
weak:c128 bf16 c64
weak:c128 f64 c128
weak:c128 c64 c64
weak:i32 weak:i32 weak:i32
weak:i32 weak:i64 weak:i64
weak:i32 weak:f32 weak:f32
weak:i64 weak:f64 weak:f64
weak:i64 weak:c128 weak:c128
weak:f32 weak:i64 weak:f32
weak:f32 weak:f64 weak:f64
weak:f64 weak:c128 weak:c128
weak:c128 weak:c128 weak:c128
`

// testResultTypeSafeModeUnallowedPromo: these raise in mode "safe" (and promote in "all").
const tfSafeDisallowed = `
u8 i8
u8 weak:f32
u16 i8
u16 i16
u16 bf16
u16 f16
u16 weak:f32
u32 i8
u32 i16
u32 i32
u32 bf16
u32 f32
u32 c64
u32 weak:f32
u64 i8
u64 i16
u64 i32
u64 i64
u64 bf16
u64 f16
u64 f32
u64 f64
u64 c64
u64 c128
u64 weak:f32
u64 weak:f64
u64 weak:c128
i8 weak:f32
i16 bf16
i16 f16
i16 weak:f32
i32 bf16
i32 f16
i32 f32
i32 c64
i32 weak:f32
i64 bf16
i64 f16
i64 f32
i64 f64
i64 c64
i64 c128
i64 weak:f32
i64 weak:f64
i64 weak:c128
bf16 f16
bf16 weak:c128
`

func TestTFFlexibleDtypesTests(t *testing.T) {
	all := mustPolicy(t, "tf", Config{})
	safe := mustPolicy(t, "tf-safe", Config{})
	runCases(t, all, "flexible_dtypes_test.py testResultTypeTFAndTF", triples(tfAndTF))
	runCases(t, all, "flexible_dtypes_test.py testResultTypePython*", triples(tfPython))
	runCases(t, all, "flexible_dtypes_test.py testResultTypeWeakTypes*", triples(tfWeak))
	for _, line := range strings.Split(strings.TrimSpace(tfSafeDisallowed), "\n") {
		f := strings.Fields(line)
		a, b := mustOperand(t, f[0]), mustOperand(t, f[1])
		if r, err := safe.Promote(a, b); err == nil {
			t.Errorf("tf-safe: %s + %s = %s, want an error (testResultTypeSafeModeUnallowedPromo)", f[0], f[1], r)
		}
		if _, err := all.Promote(a, b); err != nil {
			t.Errorf("tf: %s + %s: %v, want a result in mode all", f[0], f[1], err)
		}
	}
	// testResultTypeSafeModeAllowedPromo (its first cases): no error in mode safe.
	var allowed []pcase
	for _, b := range []string{"boolean", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "bf16", "f16",
		"f32", "f64", "c64", "c128", "weak:i32", "weak:i64", "weak:f32", "weak:f64", "weak:c128"} {
		want := strings.TrimPrefix(b, "weak:")
		if strings.HasPrefix(b, "weak:") {
			want = b
		}
		allowed = append(allowed, pcase{"boolean", b, want})
	}
	allowed = append(allowed, triples(`
u8 u8 u8
u8 u16 u16
u8 u32 u32
u8 u64 u64
u8 i16 i16
u8 i32 i32
u8 i64 i64
u8 bf16 bf16
u8 f16 f16
u8 f32 f32
u8 f64 f64
u8 c64 c64
u8 c128 c128
u8 weak:i32 u8
u8 weak:i64 u8
u8 weak:f64 weak:f64
u8 weak:c128 weak:c128
u16 u16 u16
u16 u32 u32
u16 u64 u64`)...)
	runCases(t, safe, "flexible_dtypes_test.py testResultTypeSafeModeAllowedPromo", allowed)
	// Safe mode refuses i32 with f32: f32 cannot hold every i32.
	runCases(t, safe, "safe mode: i32 with f32", []pcase{{"i32", "f32", "error"}})
	runCases(t, all, "operand mapping", []pcase{
		{"weak:i16", "f32", "error"}, // TensorFlow has no weak i16
		{"weak:i16[]", "f32", "f32"}, // ... but a rank-0 weak int is a Python int
		{"py:bool", "u8", "u8"},
		{"f8e4m3", "f32", "error"},
	})
}
