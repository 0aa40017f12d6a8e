package kernels_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

func ExampleQuantizeF32s() {
	// 40 values: one whole MXFP4 block of 32 and a partial block of 8, with its own scale.
	src := make([]float32, 40)
	for i := range src {
		src[i] = float32(i) / 4
	}
	src[33] = -100
	f := kernels.MXFP4
	codes := make([]byte, (len(src)+1)/2)
	scales := make([]byte, f.Scales(len(src)))
	if err := kernels.QuantizeF32s(codes, scales, f, src); err != nil {
		panic(err)
	}
	back := make([]float32, len(src))
	if err := kernels.DequantizeF32s(back, codes, scales, f); err != nil {
		panic(err)
	}
	// amax 7.75 → scale 2^(2-2) = 1 (f8e8m0 0x7f); amax 100 → 2^(6-2) = 16 (0x83).
	fmt.Printf("scales % x\n", scales)
	fmt.Println(back[:8], back[30:32])
	fmt.Println(back[32:])
	// Output:
	// scales 7f 83
	// [0 0 0.5 1 1 1 1.5 2] [6 6]
	// [8 -96 8 8 8 8 8 8]
}

func ExampleDequantize() {
	// One NVFP4 block of 16 codes (f4e2m1, low nibble first) with the f8e4m3 scale 0x3c (1.5),
	// decoded to bf16.
	codes := []byte{0x21, 0x43, 0x65, 0x87, 0xa9, 0xcb, 0xed, 0x0f}
	scales := []byte{0x3c}
	dst := make([]uint16, 16)
	if err := kernels.Dequantize(kernels.AsBytes(dst), element.BF16, codes, scales, kernels.NVFP4, 16); err != nil {
		panic(err)
	}
	for _, b := range dst {
		fmt.Print(kernels.F32FromBF16(b), " ")
	}
	fmt.Println()
	// Output:
	// 0.75 1.5 2.25 3 4.5 6 9 -0 -0.75 -1.5 -2.25 -3 -4.5 -6 -9 0
}
