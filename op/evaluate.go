package op

import (
	"fmt"

	"github.com/convertpromote/convertpromote/kernels"
)

// Evaluate runs the operator on two tensors: it infers the common element type from the
// tensors' types and static shapes (a rank-0 tensor is a scalar for pytorch_scalar_promotion),
// then converts each tensor to it with kernels.Convert (docs/SEMANTICS.md §3), keeping the shapes.
// A promotion error is returned as is; a common type that values cannot be converted to (a
// u64_integer_promotion_target of string or dynamic) is an error naming it.
func (c ConvertPromoteTypes) Evaluate(a, b Tensor) (Tensor, Tensor, error) {
	if err := a.check(); err != nil {
		return Tensor{}, Tensor{}, fmt.Errorf("input 0: %w", err)
	}
	if err := b.check(); err != nil {
		return Tensor{}, Tensor{}, fmt.Errorf("input 1: %w", err)
	}
	t, err := c.CommonType(Port{Type: a.typ, Shape: a.PartialShape()}, Port{Type: b.typ, Shape: b.PartialShape()})
	if err != nil {
		return Tensor{}, Tensor{}, err
	}
	if !kernels.Supported(a.typ, t) || !kernels.Supported(b.typ, t) {
		return Tensor{}, Tensor{}, fmt.Errorf("op: common type %s of %s and %s cannot hold values", t, a.typ, b.typ)
	}
	oa, err := a.Convert(t)
	if err != nil {
		return Tensor{}, Tensor{}, fmt.Errorf("input 0: %w", err)
	}
	ob, err := b.Convert(t)
	if err != nil {
		return Tensor{}, Tensor{}, fmt.Errorf("input 1: %w", err)
	}
	return oa, ob, nil
}
