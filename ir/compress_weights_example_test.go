package ir_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/ir"
)

func ExampleCompressWeights() {
	m, err := ir.Read("../testdata/ir/nncf_weights.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	n, err := ir.CompressWeights(m, ir.WeightCompression{Mode: "int4_asym", GroupSize: 64})
	if err != nil {
		fmt.Println(err)
		return
	}
	// fc1's weight takes int4_asym; the embedding and fc2, the last MatMul, take the backup
	// mode int8_asym. m.Save("out.xml") would write the model and its new .bin.
	fmt.Println(n, "weights compressed")
	for _, name := range []string{"fc1.weight", "embed.weight", "fc2.weight_compressed"} {
		l := m.LayerByName(name)
		ci, _ := m.ConstInfo(l)
		fmt.Println(name, ci.Type, ci.Shape)
	}
	fmt.Println(m.LayerByName("fc1.weight/fq_weights_1/convert").Type)
	// Output:
	// 3 weights compressed
	// fc1.weight u4 [32 2 64]
	// embed.weight u8 [8 128]
	// fc2.weight_compressed u8 [16 32]
	// Convert
}
