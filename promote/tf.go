package promote

import (
	"fmt"
	"strings"

	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("tf", func(c Config) (Policy, error) {
		if _, err := normalizeOp("tf", c.Op); err != nil {
			return nil, err
		}
		return TensorFlow{}, nil
	})
	register("tf-safe", func(c Config) (Policy, error) {
		if _, err := normalizeOp("tf-safe", c.Op); err != nil {
			return nil, err
		}
		return TensorFlow{Safe: true}, nil
	})
}

// TensorFlow is TensorFlow's new type promotion (tf.experimental.numpy and
// tf.experimental.enable_auto_dtype_conversion), the table of
// tensorflow/python/framework/flexible_dtypes.py: every pair of the 15 dtypes and the 5 weak
// types i32*, i64*, f32*, f64*, c128* has a result, weak or not, and the mode it needs.
//
// Safe is dtype_conversion_mode "safe": the pairs the table marks ALL (those that may lose
// precision, such as i32 with f32 or u64 with i64) are errors. Otherwise the mode is "all".
//
// Operands: a weak operand of rank 0 is a Python scalar: a Python int is i32*, a float f32*, a
// complex c128*, a bool the strong boolean (flexible_dtypes.py _get_dtype_and_weakness). A weak
// operand of any other rank is a WeakTensor of its own type, which must be i32, i64, f32, f64 or
// c128. TensorFlow has no operation kinds; Config.Op must be empty.
type TensorFlow struct {
	Safe bool
}

// Name returns "tf" or "tf-safe".
func (p TensorFlow) Name() string {
	if p.Safe {
		return "tf-safe"
	}
	return "tf"
}

var tfTypes = []element.Type{
	element.Boolean, element.U8, element.U16, element.U32, element.U64, element.I8, element.I16,
	element.I32, element.I64, element.BF16, element.F16, element.F32, element.F64, element.C64,
	element.C128,
}

// Types returns the 15 dtypes of flexible_dtypes.py in its order.
func (TensorFlow) Types() []element.Type { return append([]element.Type(nil), tfTypes...) }

// tfDtype is one of the 20 entries of the table: a dtype and whether it is weak.
type tfDtype struct {
	t    element.Type
	weak bool
}

type tfEntry struct {
	res  tfDtype
	safe bool // allowed in SAFE mode (PromoMode.SAFE); else only in ALL mode
}

// tfHalfTable is _BINARY_DTYPE_RES_HALF of flexible_dtypes.py, typed from it: for each row, the
// columns from the row's own dtype on, as "column result mode" (S = SAFE, A = ALL; a trailing w
// marks a weak type).
const tfHalfTable = `
boolean: boolean boolean S, u8 u8 S, u16 u16 S, u32 u32 S, u64 u64 S, i8 i8 S, i16 i16 S, i32 i32 S, i64 i64 S, bf16 bf16 S, f16 f16 S, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w i32w S, i64w i64w S, f32w f32w S, f64w f64w S, c128w c128w S
u8: u8 u8 S, u16 u16 S, u32 u32 S, u64 u64 S, i8 i16 A, i16 i16 S, i32 i32 S, i64 i64 S, bf16 bf16 S, f16 f16 S, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w u8 S, i64w u8 S, f32w f64w A, f64w f64w S, c128w c128w S
u16: u16 u16 S, u32 u32 S, u64 u64 S, i8 i32 A, i16 i32 A, i32 i32 S, i64 i64 S, bf16 bf16 A, f16 f16 A, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w u16 S, i64w u16 S, f32w f64w A, f64w f64w S, c128w c128w S
u32: u32 u32 S, u64 u64 S, i8 i64 A, i16 i64 A, i32 i64 A, i64 i64 S, bf16 bf16 A, f16 f16 A, f32 f32 A, f64 f64 S, c64 c64 A, c128 c128 S, i32w u32 S, i64w u32 S, f32w f64w A, f64w f64w S, c128w c128w S
u64: u64 u64 S, i8 f64w A, i16 f64w A, i32 f64w A, i64 f64w A, bf16 bf16 A, f16 f16 A, f32 f32 A, f64 f64 A, c64 c64 A, c128 c128 A, i32w u64 S, i64w u64 S, f32w f64w A, f64w f64w A, c128w c128w A
i8: i8 i8 S, i16 i16 S, i32 i32 S, i64 i64 S, bf16 bf16 S, f16 f16 S, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w i8 S, i64w i8 S, f32w f64w A, f64w f64w S, c128w c128w S
i16: i16 i16 S, i32 i32 S, i64 i64 S, bf16 bf16 A, f16 f16 A, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w i16 S, i64w i16 S, f32w f64w A, f64w f64w S, c128w c128w S
i32: i32 i32 S, i64 i64 S, bf16 bf16 A, f16 f16 A, f32 f32 A, f64 f64 S, c64 c64 A, c128 c128 S, i32w i32 S, i64w i32 S, f32w f64w A, f64w f64w S, c128w c128w S
i64: i64 i64 S, bf16 bf16 A, f16 f16 A, f32 f32 A, f64 f64 A, c64 c64 A, c128 c128 A, i32w i64 S, i64w i64 S, f32w f64w A, f64w f64w A, c128w c128w A
bf16: bf16 bf16 S, f16 f32 A, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w bf16 S, i64w bf16 S, f32w bf16 S, f64w bf16 S, c128w c64 A
f16: f16 f16 S, f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w f16 S, i64w f16 S, f32w f16 S, f64w f16 S, c128w c64 A
f32: f32 f32 S, f64 f64 S, c64 c64 S, c128 c128 S, i32w f32 S, i64w f32 S, f32w f32 S, f64w f32 S, c128w c64 A
f64: f64 f64 S, c64 c128 A, c128 c128 S, i32w f64 S, i64w f64 S, f32w f64 S, f64w f64 S, c128w c128 S
c64: c64 c64 S, c128 c128 S, i32w c64 S, i64w c64 S, f32w c64 S, f64w c64 S, c128w c64 S
c128: c128 c128 S, i32w c128 S, i64w c128 S, f32w c128 S, f64w c128 S, c128w c128 S
i32w: i32w i32w S, i64w i64w S, f32w f32w S, f64w f64w S, c128w c128w S
i64w: i64w i64w S, f32w f32w S, f64w f64w S, c128w c128w S
f32w: f32w f32w S, f64w f64w S, c128w c128w S
f64w: f64w f64w S, c128w c128w S
c128w: c128w c128w S
`

// tfTable is the full two-way table built from tfHalfTable, as flexible_dtypes.py's _initialize
// does.
var tfTable = func() map[[2]tfDtype]tfEntry {
	m, err := parseTFTable(tfHalfTable)
	if err != nil {
		panic("promote: " + err.Error())
	}
	return m
}()

func parseTFDtype(s string) (tfDtype, error) {
	weak := strings.HasSuffix(s, "w")
	t, err := element.Parse(strings.TrimSuffix(s, "w"))
	return tfDtype{t, weak}, err
}

func parseTFTable(text string) (map[[2]tfDtype]tfEntry, error) {
	m := map[[2]tfDtype]tfEntry{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		rowName, cells, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("tf table line %q has no ':'", line)
		}
		row, err := parseTFDtype(rowName)
		if err != nil {
			return nil, err
		}
		for _, cell := range strings.Split(cells, ",") {
			f := strings.Fields(cell)
			if len(f) != 3 || (f[2] != "S" && f[2] != "A") {
				return nil, fmt.Errorf("tf table cell %q", cell)
			}
			col, err1 := parseTFDtype(f[0])
			res, err2 := parseTFDtype(f[1])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("tf table cell %q", cell)
			}
			e := tfEntry{res, f[2] == "S"}
			m[[2]tfDtype{row, col}] = e
			m[[2]tfDtype{col, row}] = e
		}
	}
	return m, nil
}

// tfOperand maps an operand to its table entry.
func (p TensorFlow) tfOperand(a, b, o Operand) (tfDtype, error) {
	if !o.Weak || o.Type == element.Boolean {
		return tfDtype{o.Type, false}, nil
	}
	if isRank0(o) { // a Python scalar
		switch kindOf(o.Type) {
		case kindInt:
			return tfDtype{element.I32, true}, nil
		case kindFloat:
			return tfDtype{element.F32, true}, nil
		}
		return tfDtype{element.C128, true}, nil
	}
	switch o.Type {
	case element.I32, element.I64, element.F32, element.F64, element.C128:
		return tfDtype{o.Type, true}, nil
	}
	return tfDtype{}, promoteErr(p.Name(), a, b, "TensorFlow has no weak %s (WeakTensors are i32, i64, f32, f64 or c128)", o.Type)
}

// Promote returns flexible_dtypes.result_type(a, b) in the policy's mode.
func (p TensorFlow) Promote(a, b Operand) (Result, error) {
	if err := checkTypes(p.Name(), tfTypes, a, b); err != nil {
		return Result{}, err
	}
	da, err := p.tfOperand(a, b, a)
	if err != nil {
		return Result{}, err
	}
	db, err := p.tfOperand(a, b, b)
	if err != nil {
		return Result{}, err
	}
	e, ok := tfTable[[2]tfDtype{da, db}]
	if !ok { // cannot happen for the types checked above
		return Result{}, promoteErr(p.Name(), a, b, "implicit conversion is not allowed")
	}
	if p.Safe && !e.safe {
		return Result{}, promoteErr(p.Name(), a, b,
			"in promotion mode SAFE, implicit promotion between %s and %s is disallowed (it needs mode ALL)", tfName(da), tfName(db))
	}
	return Result{Type: e.res.t, Weak: e.res.weak}, nil
}

func tfName(d tfDtype) string {
	if d.weak {
		return "weak " + d.t.String()
	}
	return d.t.String()
}
