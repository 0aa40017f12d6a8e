package promote

import (
	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("numpy", func(c Config) (Policy, error) {
		op, err := normalizeOp("numpy", c.Op, OpDiv, OpCompare)
		if err != nil {
			return nil, err
		}
		return NumPy{Op: op}, nil
	})
}

// NumPy is NumPy 2's promotion (NEP 50): np.promote_types for typed operands, whatever their
// rank (NumPy 2 has no value-based casting), and weak Python scalars.
//
// A weak operand stands for a Python scalar of its kind (whatever its shape): a Python int takes
// the other operand's integer, float or complex type and becomes the default integer i64 with a
// boolean; a Python float takes the other operand's float or complex type and becomes f64 with a
// boolean or integer; a Python complex takes the other operand's complex type, the complex type
// of its float type (f16 and f32 → c64, f64 → c128; bf16 and f8 → c64) and c128 with a boolean
// or integer. A Python bool is np.bool_, which every type absorbs. Two Python scalars give a
// Python scalar of the higher kind (weak, as i64, f64 or c128).
//
// bf16, f8e4m3 (float8_e4m3fn) and f8e5m2 promote as ml_dtypes registers them with NumPy
// (ml_dtypes/tests/result_type_test.py): bool and the integers an 8-bit significand holds (i8,
// u8) give bf16, other integers f64; every f8 with any integer gives f64; bf16 with f16 gives
// f32; an f8 gives way to f16, bf16, f32 and f64; f8e4m3 with f8e5m2 gives f32.
//
// Op: OpAdd (default), OpDiv (np.true_divide: a boolean or integer common type becomes f64) or
// OpCompare (the common type must exist; the result is boolean).
type NumPy struct {
	Op string
}

// Name returns "numpy".
func (NumPy) Name() string { return "numpy" }

var numpyTypes = []element.Type{
	element.Boolean, element.I8, element.I16, element.I32, element.I64, element.U8, element.U16,
	element.U32, element.U64, element.F16, element.F32, element.F64, element.C64, element.C128,
	element.BF16, element.F8E4M3, element.F8E5M2,
}

// Types returns NumPy's builtin numeric types (without longdouble) followed by the ml_dtypes
// types bf16, f8e4m3 and f8e5m2.
func (NumPy) Types() []element.Type { return append([]element.Type(nil), numpyTypes...) }

// numpyMinFloat is the smallest builtin float that NumPy casts an integer type to safely: 8-bit
// integers fit f16, 16-bit ones f32, wider ones f64 (i64 and u64 → f64 counts as safe).
func numpyMinFloat(t element.Type) element.Type {
	switch t.Bits() {
	case 8:
		return element.F16
	case 16:
		return element.F32
	}
	return element.F64
}

func isMLFloat(t element.Type) bool {
	return t == element.BF16 || t == element.F8E4M3 || t == element.F8E5M2
}

// numpyFloatRank orders the builtin floats and complexes by the float precision they carry.
func numpyFloatRank(t element.Type) int {
	switch t {
	case element.F16:
		return 1
	case element.F32, element.C64:
		return 2
	case element.F64, element.C128:
		return 3
	}
	return 0
}

func maxByRank(a, b element.Type) element.Type {
	if numpyFloatRank(a) >= numpyFloatRank(b) {
		return a
	}
	return b
}

// numpyComplexOf returns the complex type holding float type t (f16, f32 and the ml_dtypes
// floats → c64, f64 → c128).
func numpyComplexOf(t element.Type) element.Type {
	if t == element.F64 || t == element.C128 {
		return element.C128
	}
	return element.C64
}

func signedOfBits(bits int) element.Type {
	switch bits {
	case 8:
		return element.I8
	case 16:
		return element.I16
	case 32:
		return element.I32
	}
	return element.I64
}

// PromoteTypes is np.promote_types(a, b) (with ml_dtypes loaded for bf16 and f8).
func (NumPy) PromoteTypes(a, b element.Type) (element.Type, error) {
	if err := checkTypes("numpy", numpyTypes, Tensor(a), Tensor(b)); err != nil {
		return element.Dynamic, err
	}
	return numpyPromote(a, b), nil
}

// numpyPromote promotes two NumPy types; both must be in numpyTypes. Every pair has a result.
func numpyPromote(a, b element.Type) element.Type {
	if a == b {
		return a
	}
	if a == element.Boolean {
		return b
	}
	if b == element.Boolean {
		return a
	}
	ka, kb := kindOf(a), kindOf(b)
	if ka > kb || (ka == kb && isMLFloat(b)) {
		a, b, ka, kb = b, a, kb, ka
	}
	// Now ka <= kb, and when both are floats, a is an ml_dtypes float if either is.
	switch {
	case ka == kindInt && kb == kindInt:
		if a.IsSigned() == b.IsSigned() {
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
		if u.Bits() < 64 {
			return signedOfBits(2 * u.Bits())
		}
		return element.F64
	case ka == kindInt && kb == kindFloat:
		if isMLFloat(b) {
			if b == element.BF16 && a.Bits() == 8 {
				return b // i8 and u8 fit bfloat16's 8-bit significand
			}
			return element.F64
		}
		return maxByRank(b, numpyMinFloat(a))
	case ka == kindInt && kb == kindComplex:
		return maxByRank(b, numpyComplexOf(numpyMinFloat(a)))
	case ka == kindFloat && kb == kindFloat:
		if isMLFloat(a) {
			switch {
			case isMLFloat(b): // bf16 with an f8, or the two f8 types
				if a == element.BF16 || b == element.BF16 {
					return element.BF16
				}
				return element.F32
			case b == element.F16:
				if a == element.BF16 {
					return element.F32
				}
				return element.F16
			}
			return b // f32, f64
		}
		return maxByRank(a, b)
	case ka == kindFloat && kb == kindComplex:
		return maxByRank(b, numpyComplexOf(a))
	}
	return maxByRank(a, b) // two complex types
}

// numpyWeak returns the result of a Python scalar of type w's kind with the typed operand t.
func numpyWeak(w, t element.Type) element.Type {
	kw, kt := kindOf(w), kindOf(t)
	if kw == kindBool {
		return numpyPromote(element.Boolean, t)
	}
	if kt > kw || (kt == kw && kt != kindBool) {
		return t
	}
	// The Python scalar is of a higher kind than t.
	switch kw {
	case kindInt: // t is bool
		return element.I64
	case kindFloat: // t is bool or an integer
		return element.F64
	}
	// kw is complex; t is bool, an integer or a float.
	if kt == kindFloat {
		return numpyComplexOf(t)
	}
	return element.C128
}

// Promote returns the NEP 50 result type of a and b for the policy's operation kind.
func (p NumPy) Promote(a, b Operand) (Result, error) {
	if err := checkTypes("numpy", numpyTypes, a, b); err != nil {
		return Result{}, err
	}
	wa := a.Weak && a.Type != element.Boolean
	wb := b.Weak && b.Type != element.Boolean
	var r Result
	switch {
	case a.Weak && b.Weak:
		// Python evaluates two Python scalars itself: the result is a Python scalar of the
		// higher kind, weak unless both are bool.
		k := max(kindOf(a.Type), kindOf(b.Type))
		r = Result{Type: [...]element.Type{element.Boolean, element.I64, element.F64, element.C128}[k], Weak: k != kindBool}
	case wa:
		r.Type = numpyWeak(a.Type, b.Type)
	case wb:
		r.Type = numpyWeak(b.Type, a.Type)
	default:
		r.Type = numpyPromote(a.Type, b.Type)
	}
	switch p.Op {
	case OpDiv:
		if k := kindOf(r.Type); k == kindBool || k == kindInt {
			r.Type = element.F64
		}
	case OpCompare:
		r = Result{Type: element.Boolean}
	}
	return r, nil
}
