package promote_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

// Each framework policy is built by name and answers with its own rules: here an int32 tensor
// plus a Python float.
func ExampleNew_frameworks() {
	pyFloat, _ := promote.ParseOperand("py:float")
	for _, name := range []string{"pytorch", "numpy", "jax", "tf", "tf-safe", "paddle", "anvil"} {
		p, _ := promote.New(name, promote.Config{})
		r, err := p.Promote(promote.Tensor(element.I32), pyFloat)
		if err != nil {
			fmt.Printf("%-8s error\n", name)
			continue
		}
		fmt.Printf("%-8s %s\n", name, r)
	}
	// Output:
	// pytorch  f32
	// numpy    f64
	// jax      weak:f32
	// tf       weak:f64
	// tf-safe  error
	// paddle   f32
	// anvil    weak:f64
}

// PyTorch's three categories: a zero-dim tensor of the same kind does not promote a dimensioned
// tensor, a Python float gives the default dtype.
func ExamplePyTorch_Promote() {
	p := promote.PyTorch{}
	r, _ := p.Promote(promote.Tensor(element.I32), promote.Scalar(element.I64))
	fmt.Println(r)
	r, _ = p.Promote(promote.Tensor(element.I32), promote.Scalar(element.F64))
	fmt.Println(r)
	_, err := p.Promote(promote.Tensor(element.U16), promote.Tensor(element.I32))
	fmt.Println(err)
	// Output:
	// i32
	// f64
	// pytorch: cannot promote u16[?] and i32[?]: promotion for uint16, uint32, uint64 types is not supported (u16 and i32)
}

// JAX with jax_enable_x64: u64 and i64 meet at the weak float f*.
func ExampleJAX_Promote() {
	r, _ := promote.JAX{X64: true}.Promote(promote.Tensor(element.U64), promote.Tensor(element.I64))
	fmt.Println(r, r.Weak)
	r, _ = promote.JAX{}.Promote(promote.Tensor(element.F64), promote.Tensor(element.F64))
	fmt.Println(r)
	// Output:
	// weak:f64 true
	// f32
}

// Paddle refuses integer with float tensors but promotes a tensor with a Python scalar.
func ExamplePaddle_Promote() {
	p := promote.Paddle{}
	_, err := p.Promote(promote.Tensor(element.I64), promote.Tensor(element.F32))
	fmt.Println(err != nil)
	s, _ := promote.ParseOperand("py:float")
	r, _ := p.Promote(promote.Tensor(element.I64), s)
	fmt.Println(r)
	// Output:
	// true
	// f32
}

// anvil: an ambiguous literal gives way to a known type unless it is a float and the known type
// is not; the result then stays ambiguous.
func ExampleAnvil_Promote() {
	lit := promote.Operand{Type: element.F32, Shape: promote.StaticShape(), Weak: true}
	r, _ := promote.Anvil{}.Promote(lit, promote.Tensor(element.I32))
	fmt.Println(r)
	r, _ = promote.Anvil{}.Promote(lit, promote.Tensor(element.F64))
	fmt.Println(r)
	// Output:
	// weak:f32
	// f64
}
