package promote

import (
	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("pytorch", func(c Config) (Policy, error) {
		op, err := normalizeOp("pytorch", c.Op, OpDiv, OpCompare)
		if err != nil {
			return nil, err
		}
		return PyTorch{Op: op}, nil
	})
}

// PyTorch is torch.result_type for a binary operation, as TensorIterator computes it
// (aten/src/ATen/native/TypeProperties.cpp), on top of torch.promote_types
// (c10/core/ScalarType.cpp).
//
// Operands fall in three categories:
//   - a weak operand is a wrapped Python number (whatever its shape): a float one counts as the
//     default dtype f32, a complex one as c64, an integer one as i64, a boolean one as bool;
//   - a strong rank-0 operand is a zero-dim tensor;
//   - any other operand (rank ≥ 1, or a dynamic rank) is a dimensioned tensor.
//
// Within each category the types combine by promote_types; then the categories combine from the
// dimensioned one down: a lower category only matters when it is of a higher kind (bool < integer
// < float < complex), and a complex lower category over a float higher one gives the complex
// type of the higher one's precision (f16 → c32, bf16 and f32 → c64, f64 → c128).
//
// promote_types is the 13×13 table of c10/core/ScalarType.cpp (with c32 for complex32) plus PyTorch 2.x's rules:
// u16, u32 and u64 promote only with a floating type (giving that type) and raise with anything
// else; float8 types raise with any other type. Results are never weak.
//
// Op selects the operation: OpAdd (default), OpDiv (true division: an integral or boolean common
// type becomes the default dtype f32) or OpCompare (the common type must exist; the result is
// boolean).
type PyTorch struct {
	Op string
}

// Name returns "pytorch".
func (PyTorch) Name() string { return "pytorch" }

// pytorchTable is the order of _promoteTypesLookup's axes in c10/core/ScalarType.cpp.
var pytorchTable = []element.Type{
	element.U8, element.I8, element.I16, element.I32, element.I64, element.F16, element.F32,
	element.F64, element.C32, element.C64, element.C128, element.Boolean, element.BF16,
}

// pytorchTypes is the table's types followed by the types PyTorch 2.x added outside the table.
var pytorchTypes = append(append([]element.Type(nil), pytorchTable...),
	element.U16, element.U32, element.U64, element.F8E4M3, element.F8E5M2, element.F8E8M0)

// Types returns PyTorch's dtypes in this project's names: the 13 of the promote_types table in
// its order (u8 i8 i16 i32 i64 f16 f32 f64 c32 c64 c128 boolean bf16), then u16, u32, u64 and the
// float8 types f8e4m3 (float8_e4m3fn), f8e5m2 and f8e8m0 (float8_e8m0fnu). The shell dtypes
// uint1–uint7 and int1–int7, which have no arithmetic kernels, are left out.
func (PyTorch) Types() []element.Type { return append([]element.Type(nil), pytorchTypes...) }

// The lookup table of promoteTypes, typed from c10/core/ScalarType.cpp. Rows and columns follow
// pytorchTable.
var pytorchLookup = func() [13][13]element.Type {
	const (
		u1 = element.U8
		i1 = element.I8
		i2 = element.I16
		i4 = element.I32
		i8 = element.I64
		f2 = element.F16
		f4 = element.F32
		f8 = element.F64
		c2 = element.C32
		c4 = element.C64
		c8 = element.C128
		b1 = element.Boolean
		bf = element.BF16
	)
	return [13][13]element.Type{
		/*        u1  i1  i2  i4  i8  f2  f4  f8  c2  c4  c8  b1  bf */
		/* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf},
		/* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf},
		/* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf},
		/* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf},
		/* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf},
		/* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4},
		/* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4},
		/* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8},
		/* c2 */ {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4},
		/* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4},
		/* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
		/* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf},
		/* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf},
	}
}()

func torchIsFloat8(t element.Type) bool {
	return t == element.F8E4M3 || t == element.F8E5M2 || t == element.F8E8M0
}

// torchIsFloating is c10's isFloatingType: f64, f32 and the reduced types f16, bf16, float8.
func torchIsFloating(t element.Type) bool {
	switch t {
	case element.F64, element.F32, element.F16, element.BF16:
		return true
	}
	return torchIsFloat8(t)
}

func torchIsBarebonesUnsigned(t element.Type) bool {
	return t == element.U16 || t == element.U32 || t == element.U64
}

// PromoteTypes is torch.promote_types(a, b). It returns an error for a type PyTorch lacks, for a
// float8 type with any other type, and for u16/u32/u64 with a non-floating type.
func (p PyTorch) PromoteTypes(a, b element.Type) (element.Type, error) {
	return p.promoteTypes(Tensor(a), Tensor(b), a, b)
}

// promoteTypes promotes ta and tb (the operands' types after the wrapped-number defaults);
// oa and ob are the operands, for the error message.
func (PyTorch) promoteTypes(oa, ob Operand, ta, tb element.Type) (element.Type, error) {
	if err := checkTypes("pytorch", pytorchTypes, Tensor(ta), Tensor(tb)); err != nil {
		return element.Dynamic, err
	}
	if ta == tb {
		return ta, nil
	}
	if torchIsFloat8(ta) || torchIsFloat8(tb) {
		return element.Dynamic, promoteErr("pytorch", oa, ob,
			"promotion for Float8 types is not supported (%s and %s)", ta, tb)
	}
	if torchIsBarebonesUnsigned(ta) || torchIsBarebonesUnsigned(tb) {
		if torchIsFloating(ta) {
			return ta, nil
		}
		if torchIsFloating(tb) {
			return tb, nil
		}
		return element.Dynamic, promoteErr("pytorch", oa, ob,
			"promotion for uint16, uint32, uint64 types is not supported (%s and %s)", ta, tb)
	}
	ia, ib := indexOfType(pytorchTable, ta), indexOfType(pytorchTable, tb)
	return pytorchLookup[ia][ib], nil
}

func indexOfType(ts []element.Type, t element.Type) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}

// torchToComplex is c10's toComplexType for the floating types.
func torchToComplex(t element.Type) (element.Type, bool) {
	switch t {
	case element.F16:
		return element.C32, true
	case element.BF16, element.F32:
		return element.C64, true
	case element.F64:
		return element.C128, true
	}
	if t.IsComplex() {
		return t, true
	}
	return element.Dynamic, false
}

// wrappedType is the type a Python number takes in result_type: the default dtype for a float
// (f32), the default complex dtype for a complex (c64), Long (i64) for an integer, bool for a
// boolean.
func torchWrappedType(t element.Type) element.Type {
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

// Promote returns torch.result_type(a, b) for the policy's operation kind.
func (p PyTorch) Promote(a, b Operand) (Result, error) {
	if err := checkTypes("pytorch", pytorchTypes, a, b); err != nil {
		return Result{}, err
	}
	// The three categories of ResultTypeState; Dynamic stands for Undefined.
	var dim, zero, wrapped element.Type
	for _, o := range []Operand{a, b} {
		var slot *element.Type
		t := o.Type
		switch {
		case o.Weak:
			slot, t = &wrapped, torchWrappedType(t)
		case isRank0(o):
			slot = &zero
		default:
			slot = &dim
		}
		if *slot == element.Dynamic {
			*slot = t
			continue
		}
		r, err := p.promoteTypes(a, b, *slot, t)
		if err != nil {
			return Result{}, err
		}
		*slot = r
	}
	lower, err := p.combine(a, b, zero, wrapped)
	if err != nil {
		return Result{}, err
	}
	t, err := p.combine(a, b, dim, lower)
	if err != nil {
		return Result{}, err
	}
	switch p.Op {
	case OpDiv:
		if k := kindOf(t); k == kindBool || k == kindInt {
			t = element.F32 // promote_integer_inputs_to_float: the default dtype
		}
	case OpCompare:
		t = element.Boolean
	}
	return Result{Type: t}, nil
}

// combine is combine_categories(higher, lower) of TypeProperties.cpp; Dynamic is Undefined.
func (p PyTorch) combine(a, b Operand, higher, lower element.Type) (element.Type, error) {
	und := element.Dynamic
	switch {
	case higher == und:
		return lower, nil
	case lower == und:
		return higher, nil
	case higher.IsComplex():
		return higher, nil
	case lower.IsComplex():
		if torchIsFloating(higher) {
			c, ok := torchToComplex(higher)
			if !ok {
				return und, promoteErr("pytorch", a, b, "unknown complex ScalarType for %s", higher)
			}
			return c, nil
		}
		return lower, nil
	case torchIsFloating(higher):
		return higher, nil
	case higher == element.Boolean || torchIsFloating(lower):
		return p.promoteTypes(a, b, higher, lower)
	}
	return higher, nil
}
