package op_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
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
