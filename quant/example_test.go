package quant_test

import (
	"errors"
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

func ExampleQuantizeF32s() {
	// 40 values: one whole MXFP4 group of 32 and a partial group of 8, with its own scale.
	src := make([]float32, 40)
	for i := range src {
		src[i] = float32(i) / 4
	}
	src[33] = -100
	s := quant.MXFP4
	q := s.Alloc(len(src))
	if err := quant.QuantizeF32s(q, s, src); err != nil {
		panic(err)
	}
	back := make([]float32, len(src))
	if err := quant.DequantizeF32s(back, q, s); err != nil {
		panic(err)
	}
	// amax 7.75 → scale 2^(2-2) = 1 (f8e8m0 0x7f); amax 100 → 2^(6-2) = 16 (0x83).
	fmt.Printf("scales % x\n", q.Scales)
	fmt.Println(back[:8], back[30:32])
	fmt.Println(back[32:])
	// Output:
	// scales 7f 83
	// [0 0 0.5 1 1 1 1.5 2] [6 6]
	// [8 -96 8 8 8 8 8 8]
}

func ExampleDequantize() {
	// One NVFP4 group of 16 codes (f4e2m1, low nibble first) with the f8e4m3 scale 0x3c (1.5),
	// decoded to bf16.
	q := quant.Data{
		Codes:  []byte{0x21, 0x43, 0x65, 0x87, 0xa9, 0xcb, 0xed, 0x0f},
		Scales: []byte{0x3c},
	}
	dst := make([]uint16, 16)
	if err := quant.Dequantize(kernels.AsBytes(dst), element.BF16, q, quant.NVFP4, 16); err != nil {
		panic(err)
	}
	for _, b := range dst {
		fmt.Print(kernels.F32FromBF16(b), " ")
	}
	fmt.Println()
	// Output:
	// 0.75 1.5 2.25 3 4.5 6 9 -0 -0.75 -1.5 -2.25 -3 -4.5 -6 -9 0
}

func ExampleQuantize() {
	// Two MXFP8 (e4m3) groups of f16 values on the pure-Go path.
	s := quant.MXFP8E4M3
	src := make([]uint16, 64)
	for i := range src {
		src[i] = kernels.F16FromF32(float32(i) * 10)
	}
	q := s.Alloc(len(src))
	if err := (quant.Codec{Path: kernels.Generic}).Quantize(q, s, kernels.AsBytes(src), element.F16, len(src)); err != nil {
		panic(err)
	}
	// amax 310 → 2^(8-8) = 1 (0x7f); amax 630 → 2^(9-8) = 2 (0x80).
	fmt.Printf("scales % x, codes of 10, 20, 30: % x\n", q.Scales, q.Codes[1:4])
	// Output:
	// scales 7f 80, codes of 10, 20, 30: 52 5a 5f
}

func ExampleParse() {
	for _, name := range []string{"nvfp4", "f4e2m1/f8e8m0/64", "int4_asym/128", "u4/f16/64/scalarzero=u4", "u4/f16/64/zero=i16"} {
		s, err := quant.Parse(name)
		fmt.Println(s.Code, s.Scale, s.Zero, s.Group, s.Compute, errors.Is(err, kernels.ErrUnsupported))
	}
	// Output:
	// f4e2m1 f8e4m3 dynamic 16 dynamic false
	// f4e2m1 f8e8m0 dynamic 64 dynamic false
	// u4 f16 u4 128 f16 false
	// u4 f16 u4 64 dynamic false
	// dynamic dynamic dynamic 0 dynamic true
}
