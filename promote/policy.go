// Package promote answers "what element type do two operands promote to?" the way OpenVINO's
// ConvertPromoteTypes-14 does, and (one Policy each) the way other frameworks do.
//
// It imports only package element.
package promote

import (
	"github.com/convertpromote/convertpromote/element"
)

// Operand is one input of a promotion: its element type, its (partial) shape, and whether it is
// weakly typed (a Python scalar or an anvil-style ambiguous literal, whose type gives way to the
// other operand's where the policy says so).
type Operand struct {
	Type  element.Type
	Shape Shape
	Weak  bool
}

// Tensor returns a strongly typed rank-1 operand of type t with one dynamic dimension, the
// default operand of the CLI.
func Tensor(t element.Type) Operand {
	return Operand{Type: t, Shape: Shape{Dims: []Dim{DynamicDim()}}}
}

// Scalar returns a strongly typed rank-0 operand of type t.
func Scalar(t element.Type) Operand { return Operand{Type: t, Shape: Shape{Dims: []Dim{}}} }

// Result is the outcome of a promotion: the common type and whether it is weakly typed.
type Result struct {
	Type element.Type
	Weak bool
}

// Policy is one system's promotion rules.
type Policy interface {
	// Name is the policy's CLI name ("openvino", "pytorch", ...).
	Name() string
	// Promote returns the common type of a and b, or an error that names both types.
	Promote(a, b Operand) (Result, error)
	// Types lists the element types the policy knows, in the order its tables use.
	Types() []element.Type
}
