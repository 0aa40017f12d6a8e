package ir_test

import (
	"fmt"
	"os"

	"github.com/convertpromote/convertpromote/ir"
)

func ExampleRead() {
	m, err := ir.Read("../testdata/ir/example1_promote_floats.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("IR version", m.Version, "with", len(m.Layers), "layers")
	for _, l := range m.Layers {
		if l.Type == ir.OpType {
			fmt.Println(l.Label(), "inputs", l.Inputs[0].Precision, l.Inputs[0].Dims, "and", l.Inputs[1].Precision, l.Inputs[1].Dims)
		}
	}
	// Output:
	// IR version 11 with 5 layers
	// layer 2 (example1) inputs FP16 [256 56] and FP32 [3]
}

func ExampleModel_Check() {
	m, err := ir.Read("../testdata/ir/safe_fail_f16_i64.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := m.Check(); err != nil {
		fmt.Println(err)
	}
	rep, _ := ir.Embedded().Check()
	for _, p := range rep.Promotes {
		fmt.Printf("%s: %s + %s -> %s\n", p.Layer.Name, p.In[0].Type, p.In[1].Type, p.Common)
	}
	// Output:
	// ../testdata/ir/safe_fail_f16_i64.xml:21: layer 2 (promote): Integer input cannot be safely promoted to floating-point. (inputs f16 and i64; promote_unsafe=false, pytorch_scalar_promotion=false, u64_integer_promotion_target=f32)
	// example1: f16 + f32 -> f32
	// example2: i16 + u32 -> i64
	// example3: i16 + u64 -> f32
}

func ExampleModel_Decompose() {
	m := ir.Embedded()
	n, err := m.Decompose()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replaced", n)
	for _, l := range m.Layers {
		if l.Type == "Convert" {
			t, _ := l.DataAttr("destination_type")
			fmt.Println(l.Name, "->", t, l.Outputs[0].Names)
		}
	}
	dir, _ := os.MkdirTemp("", "decomposed")
	defer os.RemoveAll(dir)
	if err := m.Save(dir + "/model.xml"); err != nil { // model.xml and model.bin
		fmt.Println(err)
	}
	// Output:
	// replaced 3
	// lhs_f16/example1.0 -> f32 example1:0
	// rhs_f32/example1.1 -> f32 example1:1
	// lhs_i16/example2.0 -> i64 example2:0
	// rhs_u32/example2.1 -> i64 example2:1
	// lhs_i16_b/example3.0 -> f32 example3:0
	// rhs_u64/example3.1 -> f32 example3:1
}
