package op_test

import (
	"errors"
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/ir"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

// Example_tour is the Go API tour of the README, line for line: keep the two in step.
func Example_tour() {
	// 1. Typed helpers on your own slices: any ~float32 source, any ~uint16 destination
	// (also []float16.Float16 from github.com/x448/float16).
	weights := []float32{1, 0.1, 65520}
	half := make([]uint16, len(weights))
	if err := kernels.F16sFromF32s(half, weights); err != nil {
		panic(err)
	}
	fmt.Printf("%#04x\n", half) // [0x3c00 0x2e66 0x7c00]

	// Any two element types over raw bytes; AsBytes views a slice's memory without a copy.
	f8 := make([]byte, 3)
	if err := kernels.Convert(f8, element.F8E4M3, kernels.AsBytes(weights), element.F32, 3); err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", f8) // 38 1d 7f
	err := kernels.Convert(f8[:2], element.F8E4M3, kernels.AsBytes(weights), element.F32, 3)
	fmt.Println(errors.Is(err, kernels.ErrShortBuffer)) // true (also ErrOverlap, ErrUnsupported)

	// 2. The operator: infer the output types, then evaluate on tensors.
	c := op.New() // promote_unsafe=false, pytorch_scalar_promotion=false, target f32
	c.PromoteUnsafe = true
	outA, outB, err := c.Infer(
		op.Port{Type: element.I16, Shape: promote.StaticShape(256, 56)},
		op.Port{Type: element.U32, Shape: promote.StaticShape(3)})
	fmt.Println(outA.Type, outA.Shape, outB.Type, outB.Shape, err) // i64 [256,56] i64 [3] <nil>

	a, _ := op.FromBits(element.F16, []int64{2}, []uint16{0x3c00, 0x7bff})
	b, _ := op.FromFloat32([]int64{3}, []float32{1.5, -2.25, 3})
	ra, rb, err := op.New().Evaluate(a, b)
	fmt.Println(ra, rb, err) // f32[2] [1 65504] f32[3] [1.5 -2.25 3] <nil>

	// The same into a runtime's own buffers: no copy, no allocation.
	out := make([]float32, 5)
	da, _ := op.View(element.F32, []int64{2}, kernels.AsBytes(out[:2]))
	db, _ := op.View(element.F32, []int64{3}, kernels.AsBytes(out[2:]))
	err = op.New().EvaluateInto(da, db, a, b)
	fmt.Println(out, err) // [1 65504 1.5 -2.25 3] <nil>

	// 3. The rules alone, for OpenVINO or another framework.
	x, _ := promote.ParseOperand("f16[256,56]")
	y, _ := promote.ParseOperand("i64[3]")
	_, err = promote.DefaultOpenVINO().Promote(x, y)
	fmt.Println(err != nil) // true: f16 cannot hold every i64 safely
	torch, _ := promote.New("pytorch", promote.Config{})
	r, _ := torch.Promote(x, y)
	fmt.Println(r.Type) // f16

	// 4. OpenVINO IR: read, check and run a model.
	m := ir.Embedded() // or ir.Read("model.xml"); m.Check() reports what is wrong with it
	res, err := m.Run(nil)
	fmt.Println(len(res.Outputs), res.Outputs[0].Name, res.Outputs[0].Tensor.Type(), err) // 6 example1:0 f32 <nil>

	// Output:
	// [0x3c00 0x2e66 0x7c00]
	// 38 1d 7f
	// true
	// i64 [256,56] i64 [3] <nil>
	// f32[2] [1 65504] f32[3] [1.5 -2.25 3] <nil>
	// [1 65504 1.5 -2.25 3] <nil>
	// true
	// f16
	// 6 example1:0 f32 <nil>
}
