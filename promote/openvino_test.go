package promote

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

func op(s string) Operand {
	o, err := ParseOperand(s)
	if err != nil {
		panic(err)
	}
	return o
}

// ovCase is one hand-written expectation: want is a type name, or one of the error sentinels.
type ovCase struct {
	a, b          string
	unsafe, torch bool
	want          string // type name, or "E_FI", "E_PT", "E_UI", "E_UN", "E_TYPE"
	why           string
}

var sentinels = map[string]error{
	"E_FI": ErrIntToFloat, "E_PT": ErrPyTorchScalar, "E_UI": ErrUnsigned, "E_UN": ErrUnsupported,
	"E_TYPE": ErrType,
}

func checkOV(t *testing.T, p OpenVINO, c ovCase) {
	t.Helper()
	for _, order := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
		res, err := p.Promote(op(order[0]), op(order[1]))
		name := fmt.Sprintf("%s + %s (unsafe=%t torch=%t target=%s)", order[0], order[1],
			p.PromoteUnsafe, p.PyTorchScalarPromotion, p.U64IntegerPromotionTarget)
		if want, isErr := sentinels[c.want]; isErr {
			if !errors.Is(err, want) {
				t.Errorf("%s = %v, %v; want %s (%s)", name, res.Type, err, c.want, c.why)
			}
			continue
		}
		if err != nil || res.Type.String() != c.want || res.Weak {
			t.Errorf("%s = %v, %v; want %s (%s)", name, res.Type, err, c.want, c.why)
		}
	}
}

func runOV(t *testing.T, cases []ovCase) {
	t.Helper()
	for _, c := range cases {
		p := OpenVINO{PromoteUnsafe: c.unsafe, PyTorchScalarPromotion: c.torch, U64IntegerPromotionTarget: element.F32}
		checkOV(t, p, c)
	}
}

// TestSpecExamples runs every example of the ConvertPromoteTypes-14 specification
// (seed 001_34173b5ff53a4d2d.txt) with the attribute values the spec states.
func TestSpecExamples(t *testing.T) {
	runOV(t, []ovCase{
		// "Regular promotions with attributes set to default values"
		{"i8", "f32", false, false, "f32", "spec: floating has higher priority, 32 >= 2*8"},
		{"i32", "u8", false, false, "i32", "spec: signed integer holds all u8 values"},
		// "Promotions that will cause exceptions when promote_unsafe will be set to false":
		// the spec states the unsafe result; each also fails in safe mode.
		{"f16", "i64", true, false, "f16", "spec"},
		{"f16", "i64", false, false, "E_FI", "spec: safe mode raises"},
		{"f64", "u64", true, false, "f64", "spec"},
		{"f64", "u64", false, false, "E_FI", "spec: safe mode raises"},
		{"i8", "u8", true, false, "i16", "spec"},
		{"i8", "u8", false, false, "E_UI", "spec: safe mode raises"},
		{"f16", "bf16", true, false, "f32", "spec"},
		{"f16", "bf16", false, false, "E_UN", "spec: safe mode raises"},
		// The spec writes (f8m4e3, f8m5e3), a typo for f8e4m3 and f8e5m2.
		{"f8e4m3", "f8e5m2", true, false, "f16", "spec (f8m4e3, f8m5e3 typo)"},
		{"f8e4m3", "f8e5m2", false, false, "E_UN", "spec: safe mode raises"},
		{"u64", "i8", true, false, "f32", "spec: u64_integer_promotion_target default f32"},
		{"u64", "i8", false, false, "E_UI", "spec: safe mode raises"},
		// PyTorch-like mode. The spec lists S(i64), D(u8) -> u8 and says safe promotion rules
		// apply; docs/SEMANTICS.md §2.2 rule 6.1 makes that an E_PT error in safe mode, so the spec's result
		// holds with promote_unsafe=true.
		{"i64[]", "u8[2]", true, true, "u8", "spec: promote to the dimensioned input's type"},
		{"i64[]", "u8[2]", false, true, "E_PT", "§2.2 rule 6.1: u8 cannot safely hold i64"},
		// S(f16), D(i8): mixed kinds follow the general rules; 16 >= 2*8 so even safe mode passes.
		{"f16[]", "i8[2]", false, true, "f16", "spec: dimensions do not matter across kinds"},
		{"f16[]", "i8[2]", true, true, "f16", "spec"},
		// Examples 1-3 (IR layers).
		{"f16[256,56]", "f32[3]", false, false, "f32", "spec Example 1"},
		{"i16[256,56]", "u32[3]", true, false, "i64", "spec Example 2"},
		{"i16[256,56]", "u64[3]", true, false, "f32", "spec Example 3: u64_integer_promotion_target"},
	})
}

// TestStep1UnsupportedTypes: types outside the operator's list are errors, even with dynamic,
// and the error names the type.
func TestStep1UnsupportedTypes(t *testing.T) {
	for _, bad := range []string{"u2", "u3", "u6", "nf4", "f4e2m1", "f8e8m0", "string", "c32", "c64", "c128"} {
		for _, other := range []string{"f32", "dynamic", "boolean", bad} {
			for _, unsafe := range []bool{false, true} {
				p := OpenVINO{PromoteUnsafe: unsafe, U64IntegerPromotionTarget: element.F32}
				_, err := p.Promote(op(bad), op(other))
				if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), bad) {
					t.Errorf("%s + %s (unsafe=%t): %v; want ErrType naming %s", bad, other, unsafe, err, bad)
				}
			}
		}
	}
}

func TestStep2Dynamic(t *testing.T) {
	for _, ty := range append(DefaultOpenVINO().Types(), element.Dynamic) {
		for _, unsafe := range []bool{false, true} {
			runOV(t, []ovCase{{"dynamic", ty.String(), unsafe, false, "dynamic", "step 2"},
				{"dynamic", ty.String(), unsafe, true, "dynamic", "step 2"}})
		}
	}
}

func TestStep3SameType(t *testing.T) {
	for _, ty := range DefaultOpenVINO().Types() {
		for _, unsafe := range []bool{false, true} {
			n := ty.String()
			runOV(t, []ovCase{{n, n, unsafe, false, n, "step 3"}, {n + "[]", n + "[4]", unsafe, true, n, "step 3"}})
		}
	}
}

func TestStep4Boolean(t *testing.T) {
	for _, ty := range DefaultOpenVINO().Types() {
		for _, unsafe := range []bool{false, true} {
			n := ty.String()
			runOV(t, []ovCase{{"boolean", n, unsafe, false, n, "step 4"}, {"boolean[]", n + "[3]", unsafe, true, n, "step 4"},
				{"boolean[3]", n + "[]", unsafe, true, n, "step 4: boolean gives way even to a scalar"}})
		}
	}
}

func TestStep5IntegerAndReal(t *testing.T) {
	runOV(t, []ovCase{
		{"f32", "i16", false, false, "f32", "32 >= 2*16"},
		{"f32", "u16", false, false, "f32", "32 >= 2*16"},
		{"f32", "i32", false, false, "E_FI", "32 < 64"},
		{"f32", "i32", true, false, "f32", "unsafe"},
		{"f16", "u8", false, false, "f16", "16 >= 16"},
		{"f16", "i16", false, false, "E_FI", "16 < 32"},
		{"bf16", "i8", false, false, "bf16", "16 >= 16"},
		{"bf16", "u16", false, false, "E_FI", "16 < 32"},
		{"f8e4m3", "i4", false, false, "f8e4m3", "8 >= 8"},
		{"f8e5m2", "u4", false, false, "f8e5m2", "8 >= 8"},
		{"f8e4m3", "u1", false, false, "f8e4m3", "8 >= 2"},
		{"f8e4m3", "i8", false, false, "E_FI", "8 < 16"},
		{"f8e5m2", "u8", true, false, "f8e5m2", "unsafe"},
		{"f64", "i32", false, false, "f64", "64 >= 64"},
		{"f64", "i64", false, false, "E_FI", "64 < 128"},
		{"f64", "i64", true, false, "f64", "unsafe"},
		{"f16", "u64", true, false, "f16", "unsafe: any integer"},
		// Shapes and pytorch_scalar_promotion play no part in step 5.
		{"f16[]", "i64[4]", false, true, "E_FI", "step 5 precedes the scalar rule"},
		{"f16[]", "i64[4]", true, true, "f16", "the real type even when it is the scalar"},
		{"i8[]", "f32[...]", false, true, "f32", "dynamic rank does not matter across kinds"},
	})
}

func TestStep6aPyTorchScalar(t *testing.T) {
	runOV(t, []ovCase{
		{"i32[]", "i8[2]", true, true, "i8", "scalar takes the tensor's type"},
		{"i32[]", "i8[2]", false, true, "E_PT", "same sign, tensor narrower"},
		{"i8[]", "i32[2]", false, true, "i32", "same sign, tensor wider"},
		{"u8[]", "i8[2]", false, true, "i8", "signed tensor, unsigned scalar: 2*8 >= 8"},
		{"u16[]", "i8[2]", false, true, "i8", "2*8 >= 16"},
		{"u32[]", "i8[2]", false, true, "E_PT", "2*8 < 32"},
		{"i8[]", "u8[2]", false, true, "E_PT", "unsigned tensor, signed scalar"},
		{"u64[]", "i64[2]", false, true, "i64", "2*64 >= 64"},
		{"u64[]", "i8[2]", true, true, "i8", "unsafe: never reaches the u64 target"},
		{"f32[]", "f16[2]", false, true, "E_PT", "f16 narrower than f32"},
		{"f32[]", "f16[2]", true, true, "f16", "unsafe"},
		{"f16[]", "f32[2]", false, true, "f32", "tensor wider"},
		{"bf16[]", "f16[2]", false, true, "f16", "same width and sign: safe"},
		{"f16[]", "bf16[2]", false, true, "bf16", "same width and sign: safe"},
		{"f8e4m3[]", "f8e5m2[2]", false, true, "f8e5m2", "same width and sign"},
		{"f64[]", "f8e4m3[?]", true, true, "f8e4m3", "a dynamic dimension still has a rank"},
		// What is not a scalar.
		{"i64[1]", "u8[2]", true, true, "i64", "[1] is not a scalar: step 6b, 2*8 <= 64"},
		{"i64[-1]", "u8[2]", true, true, "i64", "[-1] is not a scalar"},
		{"i64[]", "u8[]", true, true, "i64", "both scalars: general rules"},
		{"i8[2]", "i32[3]", false, true, "i32", "neither scalar: general rules"},
		// Dynamic rank makes the result dynamic for same-kind operands.
		{"i8[...]", "i32[]", false, true, "dynamic", "dynamic rank"},
		{"i8[...]", "i32[2]", false, true, "dynamic", "dynamic rank, even without a scalar"},
		{"f16[...]", "bf16[...]", false, true, "dynamic", "dynamic rank beats E_UN"},
		{"u64[...]", "i8[]", false, true, "dynamic", "dynamic rank beats E_UI"},
		// Without the attribute the scalar is ordinary.
		{"i64[]", "u8[2]", false, false, "i64", "pytorch_scalar_promotion=false: 2*8 <= 64"},
		{"i8[...]", "i32[2]", false, false, "i32", "dynamic rank plays no part"},
	})
}

func TestStep6bSignedness(t *testing.T) {
	runOV(t, []ovCase{
		{"u8", "i16", false, false, "i16", "2*8 <= 16"},
		{"u8", "i32", false, false, "i32", "the wider signed"},
		{"u8", "i8", false, false, "E_UI", "2*8 > 8"},
		{"u8", "i8", true, false, "i16", "max(2*8, 8)"},
		{"u1", "i4", false, false, "i4", "§2.2: u1+i4 = i4"},
		{"u1", "i8", false, false, "i8", "2 <= 8"},
		{"u4", "i4", false, false, "E_UI", "8 > 4"},
		{"u4", "i4", true, false, "i8", "§2.2: u4+i4 = i8 unsafe"},
		{"u4", "i8", false, false, "i8", "8 <= 8"},
		{"u8", "i4", true, false, "i16", "max(16, 4)"},
		{"u16", "i8", true, false, "i32", "max(32, 8)"},
		{"u16", "i32", false, false, "i32", "32 <= 32"},
		{"u32", "i32", false, false, "E_UI", "64 > 32"},
		{"u32", "i32", true, false, "i64", "§2.2: u32+i32 = i64 unsafe"},
		{"u32", "i64", false, false, "i64", "64 <= 64"},
		{"u64", "i64", false, false, "E_UI", "u64 never fits"},
		{"u64", "i64", true, false, "f32", "the u64 target"},
		{"u64", "i4", true, false, "f32", "the u64 target"},
	})
	for _, target := range []element.Type{element.I64, element.F64, element.U2, element.Dynamic, element.NF4} {
		p := OpenVINO{PromoteUnsafe: true, U64IntegerPromotionTarget: target}
		checkOV(t, p, ovCase{"u64", "i16", true, false, target.String(), "target returned verbatim, never validated"})
		// The target plays no part elsewhere.
		checkOV(t, p, ovCase{"u32", "i16", true, false, "i64", "not u64"})
	}
}

func TestStep6cWidths(t *testing.T) {
	runOV(t, []ovCase{
		{"u1", "u4", false, false, "u4", "§2.2: u1+u4 = u4"},
		{"u8", "u64", false, false, "u64", "wider"},
		{"i4", "i64", false, false, "i64", "wider"},
		{"f16", "f32", false, false, "f32", "wider"},
		{"bf16", "f64", false, false, "f64", "wider"},
		{"f8e4m3", "bf16", false, false, "bf16", "§2.2: f8e4m3+bf16 = bf16"},
		{"f8e5m2", "f16", false, false, "f16", "wider"},
		{"f8e5m2", "f64", true, false, "f64", "wider"},
	})
}

func TestStep6dAnd7SameWidth(t *testing.T) {
	runOV(t, []ovCase{
		{"f8e4m3", "f8e5m2", true, false, "f16", "the special case"},
		{"bf16", "f16", true, false, "f32", "the special case"},
		{"f8e4m3", "f8e5m2", false, false, "E_UN", "safe"},
		{"bf16", "f16", false, false, "E_UN", "safe"},
	})
}

func TestErrorTexts(t *testing.T) {
	p := DefaultOpenVINO()
	for _, c := range []struct{ a, b, sentence string }{
		{"f16", "i64", "Integer input cannot be safely promoted to floating-point."},
		{"u8", "i8", "Unsigned integer input cannot be safely promoted into any supported signed integer."},
		{"bf16", "f16", "Unsupported input element types for ConvertPromoteTypes with given attributes."},
	} {
		_, err := p.Promote(op(c.a), op(c.b))
		if err == nil {
			t.Fatalf("%s + %s succeeded", c.a, c.b)
		}
		for _, want := range []string{c.sentence, c.a, c.b, "promote_unsafe=false"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s + %s: %q lacks %q", c.a, c.b, err, want)
			}
		}
	}
	p.PyTorchScalarPromotion = true
	_, err := p.Promote(op("i32[]"), op("i8[2]"))
	if err == nil || !strings.Contains(err.Error(), "Scalar input cannot be PyTorch-like promoted using safe promotion rules.") {
		t.Errorf("E_PT text: %v", err)
	}
}

// TestProperties checks, over all 19×19 supported types × 8 attribute settings × ranks {0, 1,
// dynamic}²: the result does not depend on operand order; boolean never changes the other type;
// a promotion that succeeds in safe mode gives the same type in unsafe mode.
func TestProperties(t *testing.T) {
	types := append([]element.Type{element.Dynamic}, DefaultOpenVINO().Types()...)
	if len(types) != 19 {
		t.Fatalf("%d supported types, want 19", len(types))
	}
	shapes := []Shape{{Dims: []Dim{}}, {Dims: []Dim{StaticDim(3)}}, DynamicRankShape()}
	count := 0
	for _, unsafe := range []bool{false, true} {
		for _, torch := range []bool{false, true} {
			for _, target := range []element.Type{element.F32, element.I64} {
				p := OpenVINO{PromoteUnsafe: unsafe, PyTorchScalarPromotion: torch, U64IntegerPromotionTarget: target}
				u := p
				u.PromoteUnsafe = true
				for _, ta := range types {
					for _, tb := range types {
						for _, sa := range shapes {
							for _, sb := range shapes {
								a, b := Operand{Type: ta, Shape: sa}, Operand{Type: tb, Shape: sb}
								r1, e1 := p.Promote(a, b)
								r2, e2 := p.Promote(b, a)
								count++
								if r1 != r2 || (e1 == nil) != (e2 == nil) {
									t.Fatalf("%v+%v = %v,%v but %v+%v = %v,%v", a, b, r1, e1, b, a, r2, e2)
								}
								if e1 != nil && e2 != nil && errors.Unwrap(e1).Error() != errors.Unwrap(e2).Error() {
									t.Fatalf("%v+%v: different errors %v / %v", a, b, e1, e2)
								}
								if ta == element.Boolean && tb != element.Dynamic && (e1 != nil || r1.Type != tb) {
									t.Fatalf("boolean + %v = %v, %v", b, r1, e1)
								}
								if !unsafe && e1 == nil {
									if ru, eu := u.Promote(a, b); eu != nil || ru != r1 {
										t.Fatalf("%v+%v: safe gives %v, unsafe %v, %v", a, b, r1, ru, eu)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if count != 19*19*8*9 {
		t.Fatalf("checked %d cases", count)
	}
}

func TestParseOperand(t *testing.T) {
	cases := map[string]string{
		"f32": "f32[?]", "FP16[]": "f16[]", "i8[2,3]": "i8[2,3]", "u8[?,-1]": "u8[?,?]",
		"i4[1..5, 2.., ..7]": "i4[1..5,2..,..7]", "f32[...]": "f32[...]", "weak:f32": "weak:f32[?]",
		"py:int": "weak:i64[]", "py:float": "weak:f64[]", "py:bool": "weak:boolean[]", "py:complex": "weak:c128[]",
	}
	for in, want := range cases {
		o, err := ParseOperand(in)
		if err != nil || o.String() != want {
			t.Errorf("ParseOperand(%q) = %v, %v; want %s", in, o, err, want)
		}
	}
	for _, bad := range []string{"f33", "f32[2", "f32[-2]", "f32[a]", "f32[5..2]", "py:str", "f32[2,,3]", "weak:"} {
		if o, err := ParseOperand(bad); err == nil {
			t.Errorf("ParseOperand(%q) = %v, want an error", bad, o)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseOperand(%q): error %q does not quote the operand", bad, err)
		}
	}
}

func TestShapes(t *testing.T) {
	s, err := ParseShape("2, 3")
	if err != nil || !s.Equal(StaticShape(2, 3)) || !s.IsStatic() {
		t.Errorf("ParseShape(\"2, 3\") = %v, %v", s, err)
	}
	if s, _ := ParseShape(""); !s.IsScalar() {
		t.Error(`shape="" is rank 0`)
	}
	if s, _ := ParseShape("[1]"); s.IsScalar() {
		t.Error("[1] is not a scalar")
	}
	if _, err := NumElements([]int64{1 << 62, 4}); err == nil {
		t.Error("2^64 elements must overflow")
	}
	if n, err := NumElements([]int64{0, 1 << 62, 1 << 62}); err != nil || n != 0 {
		t.Errorf("a zero dimension gives 0 elements: %d, %v", n, err)
	}
	if n, err := NumElements(nil); err != nil || n != 1 {
		t.Errorf("rank 0 has one element: %d, %v", n, err)
	}
}

func TestRegistry(t *testing.T) {
	p, err := New("openvino", Config{PromoteUnsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := p.Promote(op("u64"), op("i8")); err != nil || r.Type != element.F32 {
		t.Errorf("default u64 target through New: %v, %v", r, err)
	}
	if _, err := New("nope", Config{}); err == nil || !strings.Contains(err.Error(), "openvino") {
		t.Errorf("unknown policy: %v", err)
	}
}

// TestOpenVINOFNUZ: the FNUZ float8 types are rejected as outside OpenVINO's type set, also
// beside dynamic, with an error naming the type.
func TestOpenVINOFNUZ(t *testing.T) {
	for _, ty := range []element.Type{element.F8E4M3FNUZ, element.F8E5M2FNUZ} {
		for _, other := range []element.Type{element.F32, element.Dynamic, ty} {
			_, err := DefaultOpenVINO().Promote(Tensor(ty), Tensor(other))
			if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), ty.String()+" is not an OpenVINO element type") {
				t.Errorf("%s + %s: %v", ty, other, err)
			}
		}
	}
}
