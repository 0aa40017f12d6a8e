package op

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/x448/float16"
)

// TestEvaluateExample1: the specification's Example 1 (f16[256,56], f32[3] → f32), with every
// f16 value decoded independently by x448/float16.
func TestEvaluateExample1(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	bits := make([]uint16, 256*56)
	for i := range bits {
		bits[i] = uint16(r.Uint32())
	}
	bits[0], bits[1], bits[2], bits[3] = 0x7C00, 0xFE00, 0x0001, 0x8000
	a, err := FromBits(element.F16, []int64{256, 56}, bits)
	if err != nil {
		t.Fatal(err)
	}
	bv := []float32{1.5, float32(math.NaN()), -3e38}
	b, _ := FromFloat32([]int64{3}, bv)
	oa, ob, err := New().Evaluate(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if oa.Type() != element.F32 || ob.Type() != element.F32 || !slices.Equal(oa.Shape(), []int64{256, 56}) || !slices.Equal(ob.Shape(), []int64{3}) {
		t.Fatalf("outputs %s%v, %s%v", oa.Type(), oa.Shape(), ob.Type(), ob.Shape())
	}
	got, _ := oa.Float32s()
	for i, h := range bits {
		if w := float16.Frombits(h).Float32(); math.Float32bits(got[i]) != math.Float32bits(w) {
			t.Fatalf("element %d: f16 %#04x → %#08x, want %#08x", i, h, math.Float32bits(got[i]), math.Float32bits(w))
		}
	}
	gb, _ := ob.Float32s()
	for i := range bv {
		if math.Float32bits(gb[i]) != math.Float32bits(bv[i]) {
			t.Errorf("input 1 element %d changed: %v → %v", i, bv[i], gb[i])
		}
	}
}

func TestEvaluateOther(t *testing.T) {
	u8, _ := FromUint8([]int64{3}, []uint8{0, 200, 255})
	i16, _ := FromInt16([]int64{2}, []int16{-32768, 5})
	oa, ob, err := New().Evaluate(u8, i16) // u8 + i16 → i16 (docs/SEMANTICS.md §2.2 rule 6.2: 2·8 ≤ 16)
	if err != nil {
		t.Fatal(err)
	}
	if oa.Type() != element.I16 || ob.Type() != element.I16 {
		t.Fatalf("u8+i8 → %s, %s", oa.Type(), ob.Type())
	}
	if got, _ := oa.Int64s(); !slices.Equal(got, []int64{0, 200, 255}) {
		t.Errorf("u8 → i16 = %v", got)
	}
	if got, _ := ob.Int64s(); !slices.Equal(got, []int64{-32768, 5}) {
		t.Errorf("i16 → i16 = %v", got)
	}
	i8, _ := FromInt8([]int64{2}, []int8{-128, 5})
	if _, _, err := New().Evaluate(u8, i8); err == nil || !strings.Contains(err.Error(), "Unsigned integer input") {
		t.Errorf("u8 + i8 (safe) error = %v", err)
	}

	// boolean + i32 → i32; true → 1.
	bl, _ := FromBool([]int64{2}, []bool{true, false})
	i32, _ := FromInt32([]int64{}, []int32{-7})
	oa, ob, err = New().Evaluate(bl, i32)
	if err != nil || oa.Type() != element.I32 {
		t.Fatalf("bool+i32: %v %v", oa, err)
	}
	if got, _ := oa.Int64s(); !slices.Equal(got, []int64{1, 0}) {
		t.Errorf("bool → i32 = %v", got)
	}
	if len(ob.Shape()) != 0 {
		t.Errorf("scalar shape not kept: %v", ob.Shape())
	}

	// pytorch_scalar_promotion: f32[2] with an f64 scalar is E_PT when safe, and f32 with
	// promote_unsafe; the scalar rounds to f32.
	c := New()
	c.PyTorchScalarPromotion = true
	f32, _ := FromFloat32([]int64{2}, []float32{1, 2})
	f64, _ := FromFloat64([]int64{}, []float64{0.1})
	if _, _, err := c.Evaluate(f32, f64); err == nil || !strings.Contains(err.Error(), "Scalar input cannot be PyTorch-like promoted") {
		t.Errorf("safe pytorch scalar error = %v", err)
	}
	c.PromoteUnsafe = true
	oa, ob, err = c.Evaluate(f32, f64)
	if err != nil || oa.Type() != element.F32 || ob.Type() != element.F32 {
		t.Fatalf("pytorch scalar: %v %v %v", oa, ob, err)
	}
	if got, _ := ob.Float32s(); got[0] != float32(0.1) {
		t.Errorf("f64 0.1 → f32 = %v", got[0])
	}
	// Without the attribute the same pair promotes to f64 (wider wins).
	oa, _, err = New().Evaluate(f32, f64)
	if err != nil || oa.Type() != element.F64 {
		t.Errorf("f32+f64 → %v, %v", oa.Type(), err)
	}
	// [1] is not a scalar: f32[2] with f64[1] → f64 even with the attribute.
	f64v, _ := FromFloat64([]int64{1}, []float64{0.1})
	if oa, _, err = c.Evaluate(f32, f64v); err != nil || oa.Type() != element.F64 {
		t.Errorf("f32 + f64[1] with pytorch_scalar_promotion → %v, %v", oa.Type(), err)
	}

	// Promotion errors come back as is: i32 + f16 is unsafe.
	h, _ := FromBits(element.F16, []int64{1}, []uint16{0x3C00})
	i32v, _ := FromInt32([]int64{1}, []int32{70000})
	if _, _, err := New().Evaluate(i32v, h); err == nil || !strings.Contains(err.Error(), "Integer input cannot be safely promoted to floating-point.") {
		t.Errorf("i32 + f16 error = %v", err)
	}
	// promote_unsafe: i32 + f16 → f16, and i32 → f16 saturates to 65504.
	c = New()
	c.PromoteUnsafe = true
	oa, _, err = c.Evaluate(i32v, h)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := oa.Bits16(); got[0] != 0x7BFF {
		t.Errorf("i32 70000 → f16 = %#04x, want 0x7bff (65504)", got[0])
	}
	// u64 + i8 under promote_unsafe → u64_integer_promotion_target.
	u64, _ := FromUint64([]int64{1}, []uint64{math.MaxUint64})
	c.U64IntegerPromotionTarget = element.F64
	oa, ob, err = c.Evaluate(u64, i8)
	if err != nil || oa.Type() != element.F64 {
		t.Fatalf("u64+i8 → %v, %v", oa, err)
	}
	if got, _ := oa.Float64s(); got[0] != 0x1p64 {
		t.Errorf("u64 max → f64 = %v", got[0])
	}
	c.U64IntegerPromotionTarget = element.String
	if _, _, err := c.Evaluate(u64, i8); err == nil || !strings.Contains(err.Error(), "string") {
		t.Errorf("target string: error = %v", err)
	}
	// Types the operator rejects, and the zero Tensor.
	nf4, _ := FromCodes(element.NF4, []int64{1}, []uint8{3})
	if _, _, err := New().Evaluate(nf4, f32); err == nil || !strings.Contains(err.Error(), "nf4") {
		t.Errorf("nf4 input: error = %v", err)
	}
	if _, _, err := New().Evaluate(Tensor{}, f32); err == nil {
		t.Error("zero Tensor accepted")
	}
}
