// Package op implements OpenVINO's ConvertPromoteTypes-14 operator: type inference from its
// attributes (through package promote) and evaluation of both inputs (through package kernels).
package op

import (
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

// ConvertPromoteTypes is the opset14 operator that converts two inputs to their common element
// type. Build it with New for the operator's default attributes.
type ConvertPromoteTypes struct {
	// PromoteUnsafe is the promote_unsafe attribute (default false).
	PromoteUnsafe bool
	// PyTorchScalarPromotion is the pytorch_scalar_promotion attribute (default false).
	PyTorchScalarPromotion bool
	// U64IntegerPromotionTarget is the u64_integer_promotion_target attribute (default f32),
	// returned verbatim when u64 meets a signed integer under PromoteUnsafe.
	U64IntegerPromotionTarget element.Type
}

// New returns the operator with its default attributes: promote_unsafe=false,
// pytorch_scalar_promotion=false, u64_integer_promotion_target=f32.
func New() ConvertPromoteTypes {
	return ConvertPromoteTypes{U64IntegerPromotionTarget: element.F32}
}

// Policy returns the promotion rules this operator's attributes select.
func (c ConvertPromoteTypes) Policy() promote.OpenVINO {
	return promote.OpenVINO{
		PromoteUnsafe:             c.PromoteUnsafe,
		PyTorchScalarPromotion:    c.PyTorchScalarPromotion,
		U64IntegerPromotionTarget: c.U64IntegerPromotionTarget,
	}
}

// Port is the element type and partial shape of one input or output.
type Port struct {
	Type  element.Type
	Shape promote.Shape
}

// CommonType returns the element type both inputs are converted to, or OpenVINO's error.
func (c ConvertPromoteTypes) CommonType(a, b Port) (element.Type, error) {
	r, err := c.Policy().Promote(
		promote.Operand{Type: a.Type, Shape: a.Shape},
		promote.Operand{Type: b.Type, Shape: b.Shape})
	return r.Type, err
}

// Infer returns the two outputs: output i keeps input i's shape (dynamic dimensions included)
// and both have the common type.
func (c ConvertPromoteTypes) Infer(a, b Port) (outA, outB Port, err error) {
	t, err := c.CommonType(a, b)
	if err != nil {
		return Port{}, Port{}, err
	}
	return Port{Type: t, Shape: a.Shape}, Port{Type: t, Shape: b.Shape}, nil
}
