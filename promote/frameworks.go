package promote

import (
	"fmt"
	"slices"

	"github.com/convertpromote/convertpromote/element"
)

// This file holds the small helpers the framework policies (pytorch.go, numpy.go, jax.go, tf.go,
// paddle.go, anvil.go) share: type kinds, error wording and operation-kind checks.

// kind is the broad category of a type, the order most frameworks promote along.
type kind int

const (
	kindBool kind = iota
	kindInt
	kindFloat
	kindComplex
)

func (k kind) String() string {
	return [...]string{"bool", "int", "float", "complex"}[k]
}

// kindOf returns the category of t: bool, integer (i*, u*), float (the real types) or complex.
// Types outside those (dynamic, string, nf4) report kindInt and must be rejected beforehand by
// the policy's type check.
func kindOf(t element.Type) kind {
	switch {
	case t == element.Boolean:
		return kindBool
	case t.IsComplex():
		return kindComplex
	case t.IsReal():
		return kindFloat
	}
	return kindInt
}

// PromotionError is the error every framework policy returns: it names the policy, both operands
// and the reason the framework gives.
type PromotionError struct {
	Policy string
	A, B   Operand
	Reason string
}

func (e *PromotionError) Error() string {
	return fmt.Sprintf("%s: cannot promote %s and %s: %s", e.Policy, e.A, e.B, e.Reason)
}

func promoteErr(policy string, a, b Operand, format string, args ...any) error {
	return &PromotionError{Policy: policy, A: a, B: b, Reason: fmt.Sprintf(format, args...)}
}

// checkTypes returns an error unless both operand types are in the policy's type set.
func checkTypes(policy string, types []element.Type, a, b Operand) error {
	for _, o := range []Operand{a, b} {
		if !slices.Contains(types, o.Type) {
			return promoteErr(policy, a, b, "%s is not one of the policy's types", o.Type)
		}
	}
	return nil
}

// Operation kinds a Config.Op may name.
const (
	OpAdd     = "add"     // ordinary arithmetic (also the empty string)
	OpDiv     = "div"     // true division
	OpCompare = "compare" // comparisons and logic ops, whose result is boolean
)

// normalizeOp maps "" to OpAdd and checks that op is one of allowed (OpAdd is always allowed).
func normalizeOp(policy, op string, allowed ...string) (string, error) {
	if op == "" || op == OpAdd {
		return OpAdd, nil
	}
	if slices.Contains(allowed, op) {
		return op, nil
	}
	valid := append([]string{OpAdd}, allowed...)
	return "", fmt.Errorf("policy %s has no operation kind %q (valid: %v)", policy, op, valid)
}

// isRank0 reports whether the operand is known to have rank 0. A dynamic rank is not rank 0.
func isRank0(o Operand) bool { return o.Shape.IsScalar() }
