package promote

import (
	"errors"
	"fmt"

	"github.com/convertpromote/convertpromote/element"
)

// The sentences OpenVINO's ConvertPromoteTypes-14 throws, verbatim. Errors returned by
// OpenVINO.Promote wrap one of these (test with errors.Is) and add the operand types and the
// attributes.
var (
	ErrIntToFloat    = errors.New("Integer input cannot be safely promoted to floating-point.")
	ErrPyTorchScalar = errors.New("Scalar input cannot be PyTorch-like promoted using safe promotion rules.")
	ErrUnsigned      = errors.New("Unsigned integer input cannot be safely promoted into any supported signed integer.")
	ErrUnsupported   = errors.New("Unsupported input element types for ConvertPromoteTypes with given attributes.")
	// ErrType is returned for an input type ConvertPromoteTypes does not accept (u2, u3, u6, nf4,
	// f4e2m1, f8e8m0, string, complex, and the FNUZ float8 types, which are not OpenVINO types at
	// all). OpenVINO gives no text here.
	ErrType = errors.New("input element type is not supported by ConvertPromoteTypes")
)

// OpenVINO is the ConvertPromoteTypes-14 rule set, configured by the operator's three attributes.
// The zero value is not the operator's default: U64IntegerPromotionTarget must be F32 for that;
// use DefaultOpenVINO.
type OpenVINO struct {
	// PromoteUnsafe allows promotions that can lose precision or range.
	PromoteUnsafe bool
	// PyTorchScalarPromotion lets a rank-0 operand take the other operand's type when both are
	// real or both are integer, as torch.result_type does for zero-dim tensors.
	PyTorchScalarPromotion bool
	// U64IntegerPromotionTarget is the result of u64 with a signed integer under PromoteUnsafe.
	// Any type is accepted and returned verbatim.
	U64IntegerPromotionTarget element.Type
}

// DefaultOpenVINO returns the operator's default attributes: false, false, f32.
func DefaultOpenVINO() OpenVINO { return OpenVINO{U64IntegerPromotionTarget: element.F32} }

// Name returns "openvino".
func (OpenVINO) Name() string { return "openvino" }

// openvinoTypes are the input types ConvertPromoteTypes-14 accepts, dynamic first.
var openvinoTypes = []element.Type{
	element.Dynamic, element.Boolean, element.F16, element.F32, element.F64, element.BF16,
	element.F8E4M3, element.F8E5M2, element.I4, element.I8, element.I16, element.I32,
	element.I64, element.U1, element.U4, element.U8, element.U16, element.U32, element.U64,
}

// SupportedInput reports whether ConvertPromoteTypes-14 accepts t as an input type.
func SupportedInput(t element.Type) bool {
	for _, s := range openvinoTypes {
		if s == t {
			return true
		}
	}
	return false
}

// Types returns the 18 static input types the operator accepts (dynamic left out), in the order
// of the specification.
func (OpenVINO) Types() []element.Type { return append([]element.Type(nil), openvinoTypes[1:]...) }

func (p OpenVINO) fail(sentence error, a, b element.Type) error {
	return fmt.Errorf("%w (inputs %s and %s; promote_unsafe=%t, pytorch_scalar_promotion=%t, u64_integer_promotion_target=%s)",
		sentence, a, b, p.PromoteUnsafe, p.PyTorchScalarPromotion, p.U64IntegerPromotionTarget)
}

// Promote applies the rules of ConvertPromoteTypes-14 (docs/SEMANTICS.md §2.2) in order. Weak flags are
// ignored: OpenVINO has no weak types. The result is never weak and never depends on operand
// order.
func (p OpenVINO) Promote(a, b Operand) (Result, error) {
	t, err := p.promote(a, b)
	return Result{Type: t}, err
}

func (p OpenVINO) promote(a, b Operand) (element.Type, error) {
	ta, tb := a.Type, b.Type
	// 1. Both types must be accepted, even when paired with dynamic.
	for _, t := range []element.Type{ta, tb} {
		if t.IsFNUZ() {
			return element.Dynamic, fmt.Errorf("%w: %s is not an OpenVINO element type (inputs %s and %s)", ErrType, t, ta, tb)
		}
		if !SupportedInput(t) {
			return element.Dynamic, fmt.Errorf("%w: %s (inputs %s and %s)", ErrType, t, ta, tb)
		}
	}
	// 2. Dynamic wins.
	if ta == element.Dynamic || tb == element.Dynamic {
		return element.Dynamic, nil
	}
	// 3. Equal types.
	if ta == tb {
		return ta, nil
	}
	// 4. Boolean gives way.
	if ta == element.Boolean {
		return tb, nil
	}
	if tb == element.Boolean {
		return ta, nil
	}
	// 5. Exactly one is real.
	if ta.IsReal() != tb.IsReal() {
		real, integer := ta, tb
		if tb.IsReal() {
			real, integer = tb, ta
		}
		if !p.PromoteUnsafe && real.Bits() < 2*integer.Bits() {
			return element.Dynamic, p.fail(ErrIntToFloat, ta, tb)
		}
		return real, nil
	}
	// 6a. PyTorch-like scalar promotion.
	if p.PyTorchScalarPromotion {
		_, aRanked := a.Shape.Rank()
		_, bRanked := b.Shape.Rank()
		if !aRanked || !bRanked {
			return element.Dynamic, nil
		}
		if as, bs := a.Shape.IsScalar(), b.Shape.IsScalar(); as != bs {
			t, s := ta, tb // t: the dimensioned operand's type, s: the scalar's
			if as {
				t, s = tb, ta
			}
			if !p.PromoteUnsafe {
				ok := (t.IsSigned() == s.IsSigned() && t.Bits() >= s.Bits()) ||
					(t.IsSigned() && !s.IsSigned() && 2*t.Bits() >= s.Bits())
				if !ok {
					return element.Dynamic, p.fail(ErrPyTorchScalar, ta, tb)
				}
			}
			return t, nil
		}
	}
	// 6b. Signedness differs.
	if ta.IsSigned() != tb.IsSigned() {
		u, s := ta, tb
		if ta.IsSigned() {
			u, s = tb, ta
		}
		ub, ib := u.Bits(), s.Bits()
		if ub <= 32 && (p.PromoteUnsafe || 2*ub <= ib) {
			return signedOfWidth(max(2*ub, ib)), nil
		}
		if !p.PromoteUnsafe {
			return element.Dynamic, p.fail(ErrUnsigned, ta, tb)
		}
		return p.U64IntegerPromotionTarget, nil
	}
	// 6c. Widths differ: the wider type.
	if ta.Bits() != tb.Bits() {
		if ta.Bits() > tb.Bits() {
			return ta, nil
		}
		return tb, nil
	}
	// 6d. Same width, different types.
	if p.PromoteUnsafe {
		pair := func(x, y element.Type) bool { return (ta == x && tb == y) || (ta == y && tb == x) }
		switch {
		case pair(element.F8E4M3, element.F8E5M2):
			return element.F16, nil
		case pair(element.BF16, element.F16):
			return element.F32, nil
		}
	}
	// 7.
	return element.Dynamic, p.fail(ErrUnsupported, ta, tb)
}

func signedOfWidth(bits int) element.Type {
	switch {
	case bits <= 4:
		return element.I4
	case bits <= 8:
		return element.I8
	case bits <= 16:
		return element.I16
	case bits <= 32:
		return element.I32
	}
	return element.I64
}
