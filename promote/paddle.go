package promote

import (
	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("paddle", func(c Config) (Policy, error) {
		op, err := normalizeOp("paddle", c.Op, OpDiv, OpCompare)
		if err != nil {
			return nil, err
		}
		return Paddle{Op: op}, nil
	})
}

// Paddle is PaddlePaddle's automatic type promotion (Paddle 2.6 and later), as
// paddle/phi/common/type_promotion.h implements it (NeedTypePromotion, GetPromoteDtype,
// promoteTypes).
//
// Tensor with tensor: equal types need no promotion (the result is that type, integers and bool
// included); different types promote only when both are floating (bf16, f16, f32, f64) or
// either is complex, and are an error otherwise (i64 with f32, i32 with i64, bool with f16).
//
// Tensor with scalar: a weak operand is a Python scalar, which Paddle turns into a 0-d tensor
// of its default dtype (bool → bool, int → i64, float → f32, complex → c64); a strong rank-0
// operand is a 0-d tensor. With a 0-d operand any pair promotes: when both are integers, both
// floating or both complex, the dimensioned tensor's type wins; otherwise, or when both are 0-d,
// the promoteTypes table decides (i64 with a Python float gives f32). A dynamic rank counts as
// dimensioned.
//
// Where the tables of Paddle's guide "Introduction to Data Type Promotion" (English and Chinese)
// disagree with that source, this policy follows the source (docs/SEMANTICS.md §6.3):
//   - the diagonal: the guide marks bool+bool, u8+u8, …, i64+i64 as unsupported ("-"), but
//     NeedTypePromotion returns "no promotion" for equal types and the operation runs in that
//     type;
//   - the c64 row: the guide gives c64 with f64 as c64 and c64 with i64 as c128, but promoteTypes
//     gives c128 and c64 (its c64 column agrees with the source, and so does the guide's own
//     example "complex64 + float64 → complex128").
//
// Op: OpAdd (default; add, subtract, multiply and the other "common rule" operations), OpDiv
// (the divide rule: two integer types, bool excluded, give f32; otherwise the common rule) or
// OpCompare (the logic rule: the common rule's checks, then a boolean result). The guide says
// complex operands are outside the logic rule, and the policy follows it: under OpCompare a
// complex operand (a complex tensor or a Python complex) is an error, although type_promotion.h
// lists the comparison ops among the promoting ones without excluding complex types.
type Paddle struct {
	Op string
}

// Name returns "paddle".
func (Paddle) Name() string { return "paddle" }

// paddleTable is the axis order of _promoteTypesLookup in type_promotion.h.
var paddleTable = []element.Type{
	element.U8, element.I8, element.I16, element.I32, element.I64, element.F16, element.F32,
	element.F64, element.C64, element.C128, element.Boolean, element.BF16,
}

// paddleLookup is promoteTypes' table, typed from paddle/phi/common/type_promotion.h (the same
// as python/paddle/base/type_promotion.py). Rows and columns follow paddleTable.
var paddleLookup = func() [12][12]element.Type {
	const (
		u1 = element.U8
		i1 = element.I8
		i2 = element.I16
		i4 = element.I32
		i8 = element.I64
		f2 = element.F16
		f4 = element.F32
		f8 = element.F64
		c4 = element.C64
		c8 = element.C128
		b1 = element.Boolean
		bf = element.BF16
	)
	return [12][12]element.Type{
		/*        u1  i1  i2  i4  i8  f2  f4  f8  c4  c8  b1  bf */
		/* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c4, c8, u1, bf},
		/* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c4, c8, i1, bf},
		/* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c4, c8, i2, bf},
		/* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c4, c8, i4, bf},
		/* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c4, c8, i8, bf},
		/* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c4, c8, f2, f4},
		/* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c8, f4, f4},
		/* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, f8, f8},
		/* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c8, c4, c4},
		/* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
		/* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c4, c8, b1, bf},
		/* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c8, bf, bf},
	}
}()

// Types returns Paddle's 12 promotable dtypes in the order of the guide's table: bf16 f16 f32 f64
// boolean u8 i8 i16 i32 i64 c64 c128.
func (Paddle) Types() []element.Type {
	return []element.Type{element.BF16, element.F16, element.F32, element.F64, element.Boolean,
		element.U8, element.I8, element.I16, element.I32, element.I64, element.C64, element.C128}
}

// PromoteTypes is Paddle's promoteTypes table lookup (no tensor/scalar rules, no errors for the
// 12 types).
func (p Paddle) PromoteTypes(a, b element.Type) (element.Type, error) {
	if err := checkTypes("paddle", p.Types(), Tensor(a), Tensor(b)); err != nil {
		return element.Dynamic, err
	}
	return paddleLookup[indexOfType(paddleTable, a)][indexOfType(paddleTable, b)], nil
}

func paddleIsInt(t element.Type) bool { // is_support_int: not bool
	switch t {
	case element.U8, element.I8, element.I16, element.I32, element.I64:
		return true
	}
	return false
}

func paddleIsFloat(t element.Type) bool { // is_support_float
	switch t {
	case element.F16, element.F32, element.F64, element.BF16:
		return true
	}
	return false
}

// paddleScalarType is the dtype Paddle gives a Python scalar of t's kind.
func paddleScalarType(t element.Type) element.Type {
	switch kindOf(t) {
	case kindBool:
		return element.Boolean
	case kindFloat:
		return element.F32
	case kindComplex:
		return element.C64
	}
	return element.I64
}

// Promote returns the dtype Paddle computes a binary operation of the policy's kind in (for
// OpCompare, the boolean result).
func (p Paddle) Promote(a, b Operand) (Result, error) {
	if err := checkTypes("paddle", p.Types(), a, b); err != nil {
		return Result{}, err
	}
	x, y := a.Type, b.Type
	if a.Weak {
		x = paddleScalarType(x)
	}
	if b.Weak {
		y = paddleScalarType(y)
	}
	if p.Op == OpCompare && (x.IsComplex() || y.IsComplex()) {
		return Result{}, promoteErr("paddle", a, b,
			"the logic rule (comparison and logical operations) does not promote complex types (got %s and %s)", x, y)
	}
	x0, y0 := a.Weak || isRank0(a), b.Weak || isRank0(b)
	t, err := p.common(a, b, x, y, x0, y0)
	if err != nil {
		return Result{}, err
	}
	if p.Op == OpCompare {
		t = element.Boolean
	}
	return Result{Type: t}, nil
}

// common follows NeedTypePromotion then GetPromoteDtype.
func (p Paddle) common(a, b Operand, x, y element.Type, x0, y0 bool) (element.Type, error) {
	lookup := func() element.Type { return paddleLookup[indexOfType(paddleTable, x)][indexOfType(paddleTable, y)] }
	if x == y {
		if p.Op == OpDiv && paddleIsInt(x) {
			return element.F32, nil
		}
		return x, nil
	}
	if !x0 && !y0 && !(paddleIsFloat(x) && paddleIsFloat(y)) && !x.IsComplex() && !y.IsComplex() {
		return element.Dynamic, promoteErr("paddle", a, b,
			"type promotion only supports calculations between floating-point numbers and between complex and real numbers (got %s and %s)", x, y)
	}
	if p.Op == OpDiv && paddleIsInt(x) && paddleIsInt(y) {
		return element.F32, nil
	}
	if x0 || y0 {
		sameKind := (paddleIsInt(x) && paddleIsInt(y)) || (paddleIsFloat(x) && paddleIsFloat(y)) ||
			(x.IsComplex() && y.IsComplex())
		if !sameKind || (x0 && y0) {
			return lookup(), nil
		}
		if x0 {
			return y, nil
		}
		return x, nil
	}
	return lookup(), nil
}
