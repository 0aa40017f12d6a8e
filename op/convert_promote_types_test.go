package op

import (
	"errors"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

func port(t *testing.T, s string) Port {
	t.Helper()
	o, err := promote.ParseOperand(s)
	if err != nil {
		t.Fatal(err)
	}
	return Port{Type: o.Type, Shape: o.Shape}
}

func TestDefaults(t *testing.T) {
	c := New()
	if c.PromoteUnsafe || c.PyTorchScalarPromotion || c.U64IntegerPromotionTarget != element.F32 {
		t.Errorf("New() = %+v, want false, false, f32", c)
	}
}

// TestInferKeepsShapes: output i has input i's shape, dynamic dimensions and rank included, and
// both outputs get the common type.
func TestInferKeepsShapes(t *testing.T) {
	cases := []struct {
		c    ConvertPromoteTypes
		a, b string
		want element.Type
	}{
		{New(), "f16[256,56]", "f32[3]", element.F32}, // spec Example 1
		{ConvertPromoteTypes{PromoteUnsafe: true, U64IntegerPromotionTarget: element.F32}, "i16[256,56]", "u32[3]", element.I64}, // Example 2
		{ConvertPromoteTypes{PromoteUnsafe: true, U64IntegerPromotionTarget: element.F32}, "i16[256,56]", "u64[3]", element.F32}, // Example 3
		{ConvertPromoteTypes{PromoteUnsafe: true, U64IntegerPromotionTarget: element.I64}, "u64[?,1..4]", "i8[...]", element.I64},
		{New(), "dynamic[2..]", "u8[]", element.Dynamic},
	}
	for _, c := range cases {
		a, b := port(t, c.a), port(t, c.b)
		oa, ob, err := c.c.Infer(a, b)
		if err != nil {
			t.Fatalf("%s, %s: %v", c.a, c.b, err)
		}
		if oa.Type != c.want || ob.Type != c.want || !oa.Shape.Equal(a.Shape) || !ob.Shape.Equal(b.Shape) {
			t.Errorf("Infer(%s, %s) = %v%v, %v%v; want %v with input shapes", c.a, c.b, oa.Type, oa.Shape, ob.Type, ob.Shape, c.want)
		}
	}
}

func TestInferErrors(t *testing.T) {
	_, _, err := New().Infer(port(t, "f16[2]"), port(t, "i64[2]"))
	if !errors.Is(err, promote.ErrIntToFloat) {
		t.Errorf("f16+i64 safe: %v", err)
	}
	c := New()
	c.PyTorchScalarPromotion = true
	if _, _, err := c.Infer(port(t, "i64[]"), port(t, "u8[2]")); !errors.Is(err, promote.ErrPyTorchScalar) {
		t.Errorf("S(i64)+D(u8) safe: %v", err)
	}
}
