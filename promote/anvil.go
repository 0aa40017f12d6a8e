package promote

import (
	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("anvil", func(c Config) (Policy, error) {
		if _, err := normalizeOp("anvil", c.Op); err != nil {
			return nil, err
		}
		return Anvil{}, nil
	})
}

// Anvil is the promotion of the R package anvil (R/promotion.R, common_dtype), as its "Type
// Promotion" article documents it. Its types are i1 (boolean), i8–i64, ui8–ui64, f32 and f64.
//
// Two known (strong) types: equal types stay; bool gives way to anything; floats take the
// wider float; a float beats any integer; integers of one signedness take the wider; a signed
// integer wider than the unsigned one wins, else the signed integer twice the unsigned one's
// width (capped at i64: u64 with any signed integer is i64).
//
// An ambiguous (weak) operand is an R literal whose type is a guess. Two ambiguous operands
// promote like known ones and the result is ambiguous. An ambiguous operand with a known one
// takes the known type, unless the ambiguous one is a float and the known one is not, or the
// known one is bool and the ambiguous one is not: then the result is the ambiguous type. The
// result is ambiguous when it is the ambiguous operand's type and not the known one's.
type Anvil struct{}

// Name returns "anvil".
func (Anvil) Name() string { return "anvil" }

var anvilTypes = []element.Type{
	element.Boolean, element.I8, element.I16, element.I32, element.I64, element.U8, element.U16,
	element.U32, element.U64, element.F32, element.F64,
}

// Types returns anvil's types in the order of its documentation's tables: boolean (anvil's i1), i8, i16, i32, i64,
// u8 (ui8), u16, u32, u64, f32, f64.
func (Anvil) Types() []element.Type { return append([]element.Type(nil), anvilTypes...) }

// anvilKnown is promote_dt_known.
func anvilKnown(a, b element.Type) element.Type {
	switch {
	case a == b:
		return a
	case a == element.Boolean:
		return b
	case b == element.Boolean:
		return a
	case kindOf(a) == kindFloat && kindOf(b) == kindFloat:
		if a.Bits() >= b.Bits() {
			return a
		}
		return b
	case kindOf(a) == kindFloat:
		return a
	case kindOf(b) == kindFloat:
		return b
	case a.IsSigned() == b.IsSigned():
		if a.Bits() >= b.Bits() {
			return a
		}
		return b
	}
	s, u := a, b
	if !a.IsSigned() {
		s, u = b, a
	}
	if s.Bits() > u.Bits() {
		return s
	}
	return signedOfBits(min(64, 2*u.Bits()))
}

// anvilAmbiguousToKnown is promote_dt_ambiguous_to_known.
func anvilAmbiguousToKnown(amb, known element.Type) element.Type {
	if kindOf(amb) == kindFloat && kindOf(known) != kindFloat {
		return amb
	}
	if amb != element.Boolean && known == element.Boolean {
		return amb
	}
	return known
}

// Promote returns common_dtype(a, b, a.Weak, b.Weak): the type and whether it is ambiguous.
func (Anvil) Promote(a, b Operand) (Result, error) {
	if err := checkTypes("anvil", anvilTypes, a, b); err != nil {
		return Result{}, err
	}
	switch {
	case a.Weak && b.Weak:
		return Result{Type: anvilKnown(a.Type, b.Type), Weak: true}, nil
	case a.Weak:
		t := anvilAmbiguousToKnown(a.Type, b.Type)
		return Result{Type: t, Weak: t == a.Type && t != b.Type}, nil
	case b.Weak:
		t := anvilAmbiguousToKnown(b.Type, a.Type)
		return Result{Type: t, Weak: t == b.Type && t != a.Type}, nil
	}
	return Result{Type: anvilKnown(a.Type, b.Type)}, nil
}
