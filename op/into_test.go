package op

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/promote"
)

// TestViewAliases: a View shares the caller's memory in both directions.
func TestViewAliases(t *testing.T) {
	v := []float32{1, 2, 3, 4, 5, 6}
	x, err := View(element.F32, []int64{2, 3}, kernels.AsBytes(v))
	if err != nil {
		t.Fatal(err)
	}
	v[4] = -7
	if got, _ := x.Float32s(); got[4] != -7 {
		t.Errorf("write to the caller's slice not seen: %v", got)
	}
	copy(x.Bytes()[:4], []byte{0, 0, 0, 0})
	if v[0] != 0 {
		t.Errorf("write through the tensor not seen by the caller: %v", v[0])
	}
	shape := []int64{6}
	y, _ := View(element.F32, shape, kernels.AsBytes(v))
	shape[0] = 1
	if y.Shape()[0] != 6 {
		t.Error("View kept the caller's shape slice")
	}
	for _, c := range []struct {
		typ   element.Type
		shape []int64
		data  []byte
		want  string
	}{
		{element.F32, []int64{2}, make([]byte, 7), "needs 8 bytes, got 7"},
		{element.U4, []int64{3}, make([]byte, 1), "needs 2 bytes, got 1"},
		{element.F32, []int64{-1}, nil, "negative"},
		{element.String, []int64{1}, make([]byte, 8), "cannot have element type string"},
	} {
		if _, err := View(c.typ, c.shape, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("View(%s, %v, %d bytes) error = %v, want %q", c.typ, c.shape, len(c.data), err, c.want)
		}
	}
}

// viewOf returns a view of type t and shape over fresh memory filled with bytes from r.
func viewOf(t *testing.T, r *rand.Rand, typ element.Type, shape []int64) Tensor {
	t.Helper()
	x, err := NewTensor(typ, shape)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.data {
		x.data[i] = byte(r.Uint32())
	}
	if typ == element.Boolean {
		for i := range x.data {
			x.data[i] &= 1
		}
	}
	return x
}

// TestEvaluateIntoMatchesEvaluate: for several pairs, attributes and shapes (scalars and sizes
// that split across goroutines included), EvaluateInto writes Evaluate's bytes into views of the
// caller's memory.
func TestEvaluateIntoMatchesEvaluate(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	unsafeOp := New()
	unsafeOp.PromoteUnsafe = true
	scalarOp := unsafeOp
	scalarOp.PyTorchScalarPromotion = true
	cases := []struct {
		c          ConvertPromoteTypes
		ta, tb     element.Type
		sa, sb     []int64
		wantCommon element.Type
	}{
		{New(), element.F16, element.F32, []int64{1024}, []int64{1024}, element.F32},
		{New(), element.BF16, element.F32, []int64{4, 5}, []int64{}, element.F32},
		{New(), element.U8, element.I16, []int64{3}, []int64{2, 2}, element.I16},
		{New(), element.Boolean, element.F16, []int64{9}, []int64{9}, element.F16},
		{New(), element.I4, element.I8, []int64{7}, []int64{1}, element.I8},
		{unsafeOp, element.I32, element.F16, []int64{5}, []int64{3}, element.F16},
		{scalarOp, element.F32, element.F64, []int64{6}, []int64{}, element.F32},
		{unsafeOp, element.U64, element.I8, []int64{3}, []int64{3}, element.F32}, // u64_integer_promotion_target
		{New(), element.F32, element.F16, []int64{1 << 19}, []int64{0}, element.F32},
	}
	for _, c := range cases {
		a, b := viewOf(t, r, c.ta, c.sa), viewOf(t, r, c.tb, c.sb)
		wa, wb, err := c.c.Evaluate(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if wa.Type() != c.wantCommon {
			t.Fatalf("%s + %s: common type %s, want %s", c.ta, c.tb, wa.Type(), c.wantCommon)
		}
		bufA := make([]byte, len(wa.Bytes()))
		bufB := make([]byte, len(wb.Bytes()))
		da, err := View(c.wantCommon, c.sa, bufA)
		if err != nil {
			t.Fatal(err)
		}
		db, _ := View(c.wantCommon, c.sb, bufB)
		if err := c.c.EvaluateInto(da, db, a, b); err != nil {
			t.Fatalf("%s%v + %s%v: %v", c.ta, c.sa, c.tb, c.sb, err)
		}
		if !bytes.Equal(bufA, wa.Bytes()) || !bytes.Equal(bufB, wb.Bytes()) {
			t.Errorf("%s%v + %s%v: EvaluateInto differs from Evaluate", c.ta, c.sa, c.tb, c.sb)
		}
	}
}

// TestEvaluateIntoErrors: a destination of the wrong type or shape (View refuses a wrong size), a destination that
// shares memory with an input or the other destination, and the input errors are refused with
// a message naming the problem, and nothing is written.
func TestEvaluateIntoErrors(t *testing.T) {
	in := make([]byte, 64)
	out := make([]byte, 64)
	a, _ := View(element.F16, []int64{4}, in[:8])
	b, _ := View(element.F32, []int64{2, 2}, in[16:32])
	good := func() (Tensor, Tensor) {
		x, _ := View(element.F32, []int64{4}, out[:16])
		y, _ := View(element.F32, []int64{2, 2}, out[32:48])
		return x, y
	}
	ga, gb := good()
	wrongType, _ := View(element.F16, []int64{4}, out[:8])
	wrongShape, _ := View(element.F32, []int64{2, 2}, out[:16])
	overA, _ := View(element.F32, []int64{4}, in[4:20]) // over the end of a and the start of b
	overB, _ := View(element.F32, []int64{2, 2}, in[20:36])
	overDst, _ := View(element.F32, []int64{2, 2}, out[8:24])
	i64, _ := View(element.I64, []int64{1}, in[40:48])
	short, _ := View(element.F32, []int64{3}, out[:12])
	cases := []struct {
		name           string
		da, db, ia, ib Tensor
		want           string
		kind           error // the kernels error kind the error wraps, or nil
	}{
		{"type", wrongType, gb, a, b, "output 0 has type f16; the common type of the inputs is f32", nil},
		{"shape", ga, wrongShape.reshaped([]int64{4}), a, b, "output 1 has shape [4]; input 1 has shape [2 2]", nil},
		{"short", short, gb, a, b, "output 0 has shape [3], 3 elements; input 0 has shape [4], 4 elements", kernels.ErrShortBuffer},
		{"output 0 over input 0", overA, gb, a, b, "output 0 shares memory with input 0", kernels.ErrOverlap},
		{"output 0 over input 1", Tensor{typ: element.F32, shape: []int64{4}, data: in[24:40]}, gb, a, b, "output 0 shares memory with input 1", kernels.ErrOverlap},
		{"output 1 over input 0", ga, Tensor{typ: element.F32, shape: []int64{2, 2}, data: in[0:16]}, a, b, "output 1 shares memory with input 0", kernels.ErrOverlap},
		{"output 1 over input 1", ga, overB, a, b, "output 1 shares memory with input 1", kernels.ErrOverlap},
		{"outputs overlap", ga, overDst, a, b, "outputs 0 and 1 share memory", kernels.ErrOverlap},
		{"output is input", b.reshaped([]int64{4}), gb, a, b, "output 0 shares memory with input 1", kernels.ErrOverlap},
		{"zero input", ga, gb, Tensor{}, b, "input 0: op: tensor has no element type", nil},
		{"zero output", ga, Tensor{}, a, b, "output 1: op: tensor has no element type", nil},
		{"promotion", ga, gb, a, i64, "Integer input cannot be safely promoted to floating-point.", nil},
	}
	for _, c := range cases {
		for i := range out {
			out[i] = 0xEE
		}
		before := bytes.Clone(in)
		err := New().EvaluateInto(c.da, c.db, c.ia, c.ib)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.name, err, c.want)
		}
		for _, kind := range []error{kernels.ErrOverlap, kernels.ErrShortBuffer} {
			if got := errors.Is(err, kind); got != (kind == c.kind) {
				t.Errorf("%s: errors.Is(%v, %v) = %v", c.name, err, kind, got)
			}
		}
		if !bytes.Equal(in, before) || !bytes.Equal(out, bytes.Repeat([]byte{0xEE}, len(out))) {
			t.Errorf("%s: a buffer was written", c.name)
		}
	}
	// The same tensors without the mistakes convert.
	if err := New().EvaluateInto(ga, gb, a, b); err != nil {
		t.Fatal(err)
	}
}

// reshaped returns x with another shape over the same bytes (tests only).
func (x Tensor) reshaped(shape []int64) Tensor { x.shape = shape; return x }

// TestEvaluateIntoAllocs: no allocation for vectors, a matrix and a scalar, on the single-goroutine
// path and at a size Convert splits across goroutines, and for a pair promoted to
// u64_integer_promotion_target, which takes the checked path.
func TestEvaluateIntoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	unsafeOp := New()
	unsafeOp.PromoteUnsafe = true
	for _, c := range []struct {
		op             ConvertPromoteTypes
		ta, tb, common element.Type
		sa, sb         []int64
	}{
		{New(), element.F16, element.F32, element.F32, []int64{1024}, []int64{1024}},
		{New(), element.F16, element.F32, element.F32, []int64{32, 32}, []int64{}},
		{New(), element.F16, element.F32, element.F32, []int64{1 << 20}, []int64{1 << 20}},
		{unsafeOp, element.U64, element.I32, element.F32, []int64{100}, []int64{7}},
	} {
		a, b := viewOf(t, r, c.ta, c.sa), viewOf(t, r, c.tb, c.sb)
		da, db := viewOf(t, r, c.common, c.sa), viewOf(t, r, c.common, c.sb)
		if n := testing.AllocsPerRun(20, func() {
			if err := c.op.EvaluateInto(da, db, a, b); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s%v + %s%v: %v allocations per call", c.ta, c.sa, c.tb, c.sb, n)
		}
	}
}

// TestCommonMemo: where the memo EvaluateInto promotes through holds a type, it is CommonType's
// answer and both inputs convert to it, for every setting, pair of types, rank and u64 target;
// it holds one for ordinary pairs.
func TestCommonMemo(t *testing.T) {
	held := 0
	for _, target := range []element.Type{element.F32, element.I64, element.U64, element.F16, element.String, element.Dynamic} {
		for attrs := range 4 {
			c := ConvertPromoteTypes{PromoteUnsafe: attrs&1 != 0, PyTorchScalarPromotion: attrs&2 != 0, U64IntegerPromotionTarget: target}
			for _, ta := range element.All() {
				for _, tb := range element.All() {
					for _, ranks := range [][2]int{{0, 0}, {0, 1}, {2, 0}, {1, 3}} {
						got := lookupCommon(c, ta, tb, ranks[0] == 0, ranks[1] == 0)
						if got == 0 {
							continue
						}
						held++
						pa := Port{Type: ta, Shape: promote.StaticShape(make([]int64, ranks[0])...)}
						pb := Port{Type: tb, Shape: promote.StaticShape(make([]int64, ranks[1])...)}
						want, err := c.CommonType(pa, pb)
						if err != nil || got-1 != want || !kernels.Supported(ta, want) || !kernels.Supported(tb, want) {
							t.Fatalf("%+v %s (rank %d) + %s (rank %d): memo %s; CommonType %s, %v", c, ta, ranks[0], tb, ranks[1], got-1, want, err)
						}
					}
				}
			}
		}
	}
	if c := New(); lookupCommon(c, element.F16, element.F32, false, false) != element.F32+1 {
		t.Error("the memo does not hold f16 + f32")
	}
	t.Logf("%d cases held", held)
}
