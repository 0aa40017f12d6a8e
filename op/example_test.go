package op_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

func ExampleConvertPromoteTypes_Infer() {
	c := op.New()
	c.PromoteUnsafe = true
	a := op.Port{Type: element.I16, Shape: promote.StaticShape(256, 56)}
	b := op.Port{Type: element.U32, Shape: promote.StaticShape(3)}
	oa, ob, err := c.Infer(a, b)
	fmt.Println(oa.Type, oa.Shape, ob.Type, ob.Shape, err)
	// Output: i64 [256,56] i64 [3] <nil>
}

func ExampleConvertPromoteTypes_EvaluateInto() {
	// A runtime's own buffers: f16 bits and f32 values in, f32 out, no copies.
	aBits := []uint16{0x3C00, 0xC000, 0x7C00} // 1, -2, +Inf
	bVals := []float32{0.5, 0.25}
	outA, outB := make([]float32, 3), make([]float32, 2)

	a, _ := op.View(element.F16, []int64{3}, kernels.AsBytes(aBits))
	b, _ := op.View(element.F32, []int64{2}, kernels.AsBytes(bVals))
	da, _ := op.View(element.F32, []int64{3}, kernels.AsBytes(outA))
	db, _ := op.View(element.F32, []int64{2}, kernels.AsBytes(outB))
	if err := op.New().EvaluateInto(da, db, a, b); err != nil {
		panic(err)
	}
	fmt.Println(outA, outB)

	wrong, _ := op.View(element.F16, []int64{3}, kernels.AsBytes(make([]uint16, 3)))
	fmt.Println(op.New().EvaluateInto(wrong, db, a, b))
	// Output:
	// [1 -2 +Inf] [0.5 0.25]
	// op: output 0 has type f16; the common type of the inputs is f32
}
