package ir_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/ir"
)

// Decompress replaces the int4_asym weight of eval_ops.xml (u4 codes, u4 zero points, f16
// scales, computed in f16 and converted to f32 for a MatMul) by one Const, here stored as f16
// and converted back to f32 for the MatMul; the new .bin holds that weight and the Consts the
// Gather reads, without the codes.
func ExampleModel_Decompress() {
	m, err := ir.Read("../testdata/ir/eval_ops.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "decompress")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out.xml")
	n, err := m.Decompress(out, ir.DecompressOptions{To: element.F16})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replaced", n, "weight:", m.CountByType())
	for _, name := range []string{"w/fq_weights_1/convert_compressed", "w/fq_weights_1/convert"} {
		l := m.LayerByName(name)
		fmt.Println(l.Label(), l.Type, l.Outputs[0].Precision, l.Outputs[0].Dims)
	}
	res, err := m.Run(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Outputs {
		if o.Name == "w/fq_weights_1/convert" {
			fmt.Println(o.Name, o.Tensor)
		}
	}
	fi, err := os.Stat(ir.BinPath(out))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(".bin:", fi.Size(), "bytes")
	// Output:
	// replaced 1 weight: map[Const:5 Convert:1 Gather:1 MatMul:1 Parameter:1 Result:2 Transpose:1]
	// layer 22 (w/fq_weights_1/convert_compressed) Const FP16 [4 8]
	// layer 23 (w/fq_weights_1/convert) Convert FP32 [4 8]
	// w/fq_weights_1/convert f32[4,8] [-0.69970703 -0.39990234 -0.099975586 0.19995117 -0.2998047 0.34985352 0.19995117 0.049987793 0 0.5996094 1.1992188 -1.3994141 -4.5 0 4.5 9 …]
	// .bin: 126 bytes
}
