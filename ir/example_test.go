package ir_test

import (
	"errors"
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

func ExampleModel_Run() {
	res, err := ir.Embedded().Run(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Outputs {
		fmt.Println(o.Name, o.Tensor)
	}
	// Output:
	// example1:0 f32[256,56] [-0 +Inf NaN 65504 -12 -11.875 -11.75 -11.625 -11.5 -11.375 -11.25 -11.125 -11 -10.875 -10.75 -10.625 …]
	// example1:1 f32[3] [1.5 -2.25 3.4028235e+38]
	// example2:0 i64[256,56] [-30000 -29963 -29926 -29889 -29852 -29815 -29778 -29741 -29704 -29667 -29630 -29593 -29556 -29519 -29482 -29445 …]
	// example2:1 i64[3] [0 4294967295 123456789]
	// example3:0 f32[256,56] [-30000 -29963 -29926 -29889 -29852 -29815 -29778 -29741 -29704 -29667 -29630 -29593 -29556 -29519 -29482 -29445 …]
	// example3:1 f32[3] [0 1.8446744e+19 9.007199e+15]
}

func ExampleModel_Fold() {
	m := ir.Embedded()
	n, err := m.Fold()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("folded", n)
	fmt.Println(m.CountByType())
	c := m.LayerByName("example2.1")
	ci, data, _ := m.ConstData(c)
	fmt.Println(c.Name, ci.Type, ci.Shape, len(data), "bytes")
	// Output:
	// folded 3
	// map[Const:6 Result:6]
	// example2.1 i64 [3] 24 bytes
}

func ExampleModel_Plan() {
	m, err := ir.Read("../testdata/ir/example1_promote_floats.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Plan(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range p.Outputs {
		fmt.Println(o.Name, o.Type, o.Shape)
	}
	fmt.Println("Const data", p.ConstBytes, "bytes, outputs", p.OutputBytes, "bytes")
	// Output:
	// example1:0 f32 [256 56]
	// example1:1 f32 [3]
	// Const data 28684 bytes, outputs 57356 bytes
}

func ExampleModel_RunWith() {
	m, err := ir.Read("../testdata/ir/example1_promote_floats.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	// 64 KiB is less than the 84 KiB the model's Const data and outputs take.
	_, err = m.RunWith(nil, ir.RunOptions{MaxMemory: 64 << 10})
	var be *ir.BudgetError
	if errors.As(err, &be) {
		fmt.Println("needs", be.Need, "bytes, budget", be.Budget)
	}
	res, err := m.RunWith(nil, ir.RunOptions{MaxMemory: 1 << 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Outputs), "outputs")
	// Output:
	// needs 86040 bytes, budget 65536
	// 2 outputs
}

// Run evaluates a compressed weight's decompression subgraph (here int4_asym codes, zero points
// and f16 scales, computed in f16 as OpenVINO does) as one unit, and a Gather-8, whose
// out-of-range index 7 gives zeros. The weight's output says what was recognised.
func ExampleModel_Run_decompression() {
	m, err := ir.Read("../testdata/ir/eval_ops.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := m.Run(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Outputs {
		switch o.Name {
		case "w/fq_weights_1/convert", "emb/gather":
			fmt.Println(o.Name, o.Tensor)
		}
		if w := o.Weight; w != nil {
			fmt.Println(w.Mode, "group", w.Group, "from", w.Codes.Name, w.CodeType, w.Stored, "bytes stored")
		}
	}
	n, err := m.Fold()
	fmt.Println("folded", n, err, m.CountByType())
	// Output:
	// emb/gather f16[3,3] [3 3.5 4 -1.5 -1 -0.5 0 0 0]
	// w/fq_weights_1/convert f32[4,8] [-0.69970703 -0.39990234 -0.099975586 0.19995117 -0.2998047 0.34985352 0.19995117 0.049987793 0 0.5996094 1.1992188 -1.3994141 -4.5 0 4.5 9 …]
	// int4_asym group 4 from codes u4 36 bytes stored
	// folded 2 <nil> map[Const:2 MatMul:1 Parameter:1 Result:2]
}
