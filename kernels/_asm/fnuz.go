package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// fnuzKernels declares the decoders of the FNUZ float8 types to f32, f16 and bf16, on both paths:
// the magnitude bits c&0x7F moved to float32's mantissa position and multiplied by the power of
// two that rebiases them (a subnormal code becomes a float32 subnormal, which the product makes
// exact and normal), the sign bit c&0x80 moved to bit 31, and code 0x80, NaN, given 0x7FC00000;
// then binary16 by VCVTPS2PH (exact) or bfloat16 by the top half.
func fnuzKernels() {
	for _, t := range []struct {
		name       string
		mant, bias int
	}{{"F8E4M3FNUZ", 3, 8}, {"F8E5M2FNUZ", 2, 16}} {
		for _, to := range []string{"F32", "F16", "BF16"} {
			for _, a := range []*isa{avx2, avx512} {
				t, to, a := t, to, a
				add(&kernel{name: kname(t.name, to, a), isa: a, from: t.name, to: to,
					doc:  []string{fmt.Sprintf("It computes float32((c&0x7F) << %d as bits) · 2^%d, with the sign and code 0x80 (NaN) set apart.", 23-t.mant, 127-t.bias)},
					body: func() { fnuzDecode(a, t.mant, t.bias, to) }})
			}
		}
	}
}

// fnuzDecode is the body of a FNUZ decoder: 64 elements a block on AVX-512 (four vectors of 16),
// 32 on AVX2 (four of 8).
func fnuzDecode(a *isa, mant, bias int, to string) {
	v := a.vec
	sh := 23 - mant
	bcastD(0x7F<<sh, v(15))             // the magnitude's bits once shifted
	bcastD(uint32(254-bias)<<23, v(14)) // 2^(127-bias)
	bcastD(0x80000000, v(13))           // the sign
	bcastD(0x80, v(12))                 // the NaN code
	bcastD(0x7FC00000, v(11))           // its float32
	lanes := a.bytes / 4                // elements a vector
	outBytes := map[string]int{"F32": 4, "F16": 2, "BF16": 2}[to]
	body := func(i, o int) {
		for k := range 4 {
			c, f, s := v(k), v(4+k), v(8)
			VPMOVZXBD(src(i+k*lanes), c)
			VPSLLD(U8(sh), c, f)
			if a == avx512 {
				VPANDD(v(15), f, f)
			} else {
				VPAND(v(15), f, f)
			}
			VMULPS(v(14), f, f)
			VPSLLD(U8(24), c, s)
			if a == avx512 {
				VPTERNLOGD(U8(0xF8), v(13), s, f) // f | (s & sign)
				VPCMPEQD(v(12), c, K1)
				VMOVDQA32(v(11), K1, f)
			} else {
				VPAND(v(13), s, s)
				VPOR(s, f, f)
				VPCMPEQD(v(12), c, s)
				VBLENDVPS(s, v(11), f, f)
			}
			switch to {
			case "F32":
				if a == avx512 {
					VMOVDQU64(f, dst(o+k*a.bytes))
				} else {
					VMOVDQU(f, dst(o+k*a.bytes))
				}
			case "F16":
				VCVTPS2PH(U8(0), f, dst(o+k*a.bytes/2))
			case "BF16":
				VPSRLD(U8(16), f, f)
				if a == avx512 {
					VPMOVDW(f, dst(o+k*a.bytes/2))
				} else {
					VEXTRACTI128(U8(1), f, X9)
					VPACKUSDW(X9, f.AsX(), X9)
					VMOVDQU(X9, dst(o+k*a.bytes/2))
				}
			}
		}
	}
	loop(a, body, block{4 * lanes, 4 * lanes, 4 * lanes * outBytes})
}
