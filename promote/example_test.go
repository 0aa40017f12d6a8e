package promote_test

import (
	"errors"
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

func ExampleOpenVINO_Promote() {
	p := promote.DefaultOpenVINO() // promote_unsafe=false, pytorch_scalar_promotion=false, target f32
	r, err := p.Promote(promote.Tensor(element.I8), promote.Tensor(element.F32))
	fmt.Println(r.Type, err)

	_, err = p.Promote(promote.Tensor(element.F16), promote.Tensor(element.I64))
	fmt.Println(errors.Is(err, promote.ErrIntToFloat))

	p.PromoteUnsafe = true
	p.PyTorchScalarPromotion = true
	r, _ = p.Promote(promote.Scalar(element.I64), promote.Operand{Type: element.U8, Shape: promote.StaticShape(2)})
	fmt.Println(r.Type)
	// Output:
	// f32 <nil>
	// true
	// u8
}

func ExampleParseOperand() {
	for _, s := range []string{"f32", "FP16[256,56]", "i64[]", "u8[?,1..5]", "bf16[...]", "py:float"} {
		o, _ := promote.ParseOperand(s)
		fmt.Println(o)
	}
	// Output:
	// f32[?]
	// f16[256,56]
	// i64[]
	// u8[?,1..5]
	// bf16[...]
	// weak:f64[]
}
