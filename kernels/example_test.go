package kernels_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/x448/float16"
)

func ExampleConvert() {
	// Three float32 values as little-endian bytes, converted to f8e4m3 and to packed u3.
	src := make([]byte, 12)
	for i, v := range []float32{1, 464, -3.1} {
		b := math.Float32bits(v)
		src[4*i], src[4*i+1], src[4*i+2], src[4*i+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
	}
	f8 := make([]byte, 3)
	if err := kernels.Convert(f8, element.F8E4M3, src, element.F32, 3); err != nil {
		panic(err)
	}
	u3 := make([]byte, 3) // one 3-byte group holds up to 8 u3 values
	if err := kernels.Convert(u3, element.U3, src, element.F32, 3); err != nil {
		panic(err)
	}
	fmt.Printf("f8e4m3 % x\nu3 % x\n", f8, u3)
	err := kernels.Convert(f8, element.String, src, element.F32, 3)
	fmt.Println(err)
	// Output:
	// f8e4m3 38 7e c4
	// u3 44 00 20
	// kernels: conversion from f32 to string is not supported
}

func ExampleF16sFromF32s() {
	src := []float32{1, 0.1, 65520, float32(math.NaN())}
	dst := make([]float16.Float16, len(src)) // any slice of a ~uint16 type
	if err := kernels.F16sFromF32s(dst, src); err != nil {
		panic(err)
	}
	for _, h := range dst {
		fmt.Printf("%#04x %v\n", h.Bits(), h.Float32())
	}
	fmt.Println(kernels.F16sFromF32s(dst[:2], src))
	// Output:
	// 0x3c00 1
	// 0x2e66 0.099975586
	// 0x7c00 +Inf
	// 0x7e00 NaN
	// kernels: f32 → f16: destination has 2 elements, source 4
}

func ExampleF16FromF32() {
	fmt.Printf("%#04x %#04x %#04x\n", kernels.F16FromF32(1), kernels.F16FromF32(65504), kernels.F16FromF32(0x1p-24))
	fmt.Println(kernels.F32FromF16(0x3555))
	// Output:
	// 0x3c00 0x7bff 0x0001
	// 0.33325195
}

func ExampleF8E8M0FromF32() {
	for _, v := range []float32{1.5, 3, 6, -1} {
		c := kernels.F8E8M0FromF32(v)
		fmt.Printf("%v → %#02x (%v)\n", v, c, kernels.F32FromF8E8M0(c))
	}
	// Output:
	// 1.5 → 0x80 (2)
	// 3 → 0x80 (2)
	// 6 → 0x82 (8)
	// -1 → 0x00 (5.877472e-39)
}

func ExampleConverter_Convert_rules() {
	// 465 and +Inf as float32, converted to f8e4m3 under each rule set.
	src := make([]byte, 8)
	for i, v := range []float32{465, float32(math.Inf(1))} {
		b := math.Float32bits(v)
		src[4*i], src[4*i+1], src[4*i+2], src[4*i+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
	}
	for _, c := range []struct {
		name  string
		rules kernels.Rules
	}{
		{"openvino", kernels.Rules{}},
		{"onnx", kernels.Rules{Set: kernels.ONNX}},
		{"onnx saturate=0", kernels.Rules{Set: kernels.ONNX, NoSaturate: true}},
		{"ml_dtypes", kernels.Rules{Set: kernels.MLDtypes}},
	} {
		dst := make([]byte, 2)
		if err := (kernels.Converter{Rules: c.rules}).Convert(dst, element.F8E4M3, src, element.F32, 2); err != nil {
			panic(err)
		}
		fmt.Printf("%-15s % x\n", c.name, dst)
	}
	// Output:
	// openvino        7f 7f
	// onnx            7e 7e
	// onnx saturate=0 7f 7f
	// ml_dtypes       7f 7f
}

func ExampleAsBytes() {
	// A pair without a typed helper, f64 → i16, through Convert over the slices' own memory.
	src := []float64{1.9, -40000, math.NaN()}
	dst := make([]int16, len(src))
	if err := kernels.Convert(kernels.AsBytes(dst), element.I16, kernels.AsBytes(src), element.F64, len(src)); err != nil {
		panic(err)
	}
	fmt.Println(dst)
	// Output: [1 -32768 0]
}

func ExampleErrShortBuffer() {
	src := []float32{1, 2, 3}
	dst := make([]byte, 4) // room for two f16 values, not three
	err := kernels.Convert(dst, element.F16, kernels.AsBytes(src), element.F32, len(src))
	fmt.Println(errors.Is(err, kernels.ErrShortBuffer), errors.Is(err, kernels.ErrOverlap))
	fmt.Println(err)
	// Output:
	// true false
	// kernels: f16 destination holds 4 bytes, 3 elements need 6
}

func ExampleF32sFromNF4s() {
	packed := []uint8{0x70, 0x0F} // codes 0, 7 (low nibble first), then 15
	dst := make([]float32, 3)
	if err := kernels.F32sFromNF4s(dst, packed[:2]); err != nil {
		panic(err)
	}
	fmt.Println(dst)
	// Output: [-1 0 1]
}
