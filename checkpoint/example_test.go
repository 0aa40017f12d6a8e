package checkpoint_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/convertpromote/convertpromote/checkpoint"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/ckfixture"
)

// Dequantize a DeepSeek-style FP8 checkpoint to bf16.
func ExampleConvert() {
	dir, err := os.MkdirTemp("", "ckpt")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "deepseek-fp8")
	if err := ckfixture.DeepSeekFP8().Write(in); err != nil {
		log.Fatal(err)
	}

	c, err := checkpoint.Open(in)
	if err != nil {
		log.Fatal(err)
	}
	info := c.Info()
	c.Close()
	fmt.Println(info.Scheme, info.Shards, "shards", info.Tensors, "tensors")

	rep, err := checkpoint.Convert(in, filepath.Join(dir, "bf16"), checkpoint.ConvertOptions{To: element.BF16, Threads: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Shards, "shards", rep.Tensors, "tensors", rep.InBytes, "bytes in", rep.OutBytes, "bytes out")
	// Output:
	// fp8-block 2 shards 10 tensors
	// 2 shards 7 tensors 101978 bytes in 195116 bytes out
}
