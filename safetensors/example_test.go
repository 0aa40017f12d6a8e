package safetensors_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/convertpromote/convertpromote/safetensors"
)

// Write a file of two tensors, streaming the data, then open it and list its tensors.
func Example() {
	dir, err := os.MkdirTemp("", "st")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.safetensors")

	w, err := safetensors.Create(path, []safetensors.Decl{
		{Name: "embed.weight", DType: safetensors.BF16, Shape: []int64{4, 2}},
		{Name: "scale", DType: safetensors.F32, Shape: []int64{}},
	}, map[string]string{"format": "pt"})
	if err != nil {
		log.Fatal(err)
	}
	defer w.Abort()
	w.Write(make([]byte, 16))               // embed.weight: 8 bf16 zeros
	w.Write([]byte{0x00, 0x00, 0x80, 0x3f}) // scale: 1.0
	if err := w.Commit(); err != nil {
		log.Fatal(err)
	}

	f, err := safetensors.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	for _, t := range f.Tensors() {
		el, _ := t.DType.Element()
		fmt.Println(t.Name, t.DType, el, t.Shape, t.Bytes())
	}
	fmt.Println(f.Metadata())
	// Output:
	// embed.weight BF16 bf16 [4 2] 16
	// scale F32 f32 [] 4
	// map[format:pt]
}
