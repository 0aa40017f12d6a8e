package ir_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/convertpromote/convertpromote/ir"
)

func ExampleCompressToF16Report() {
	m, err := ir.Read("../testdata/ir/f32_weights.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := ir.CompressToF16Report(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("compressed:", rep.Compressed)
	fmt.Println("kept: precise", rep.Precise, "shape path", rep.ShapePath, "out of range", rep.OutOfRange)
	for _, name := range []string{"matmul_weight_compressed", "matmul_weight"} {
		l := m.LayerByName(name)
		et, _ := l.DataAttr("element_type")
		dt, _ := l.DataAttr("destination_type")
		fmt.Println(l.Type, l.Name, et+dt)
	}
	// Write only the data the Consts use.
	dir, _ := os.MkdirTemp("", "f16")
	defer os.RemoveAll(dir)
	if err := m.CompactWeights(); err != nil {
		fmt.Println(err)
		return
	}
	if err := m.Save(filepath.Join(dir, "f16.xml")); err != nil {
		fmt.Println(err)
		return
	}
	fi, _ := os.Stat(filepath.Join(dir, "f16.bin"))
	fmt.Println(".bin:", fi.Size(), "bytes")
	// Output:
	// compressed: [matmul_weight embedding]
	// kept: precise [precise_bias] shape path [reshape_shape] out of range [big_scale]
	// Const matmul_weight_compressed f16
	// Convert matmul_weight f32
	// .bin: 124 bytes
}
