package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// fnuzKernels declares the decoders of the FNUZ float8 types to f32, f16 and bf16. AVX2
// computes each value: the magnitude bits c&0x7F moved to float32's mantissa position and
// multiplied by the power of two that rebiases them (a subnormal code becomes a float32
// subnormal, which the product makes exact and normal), the sign bit c&0x80 moved to bit 31,
// and code 0x80, NaN, given 0x7FC00000; then binary16 by VCVTPS2PH (exact) or bfloat16 by the
// top half. AVX-512 looks the 16-bit value up by the magnitude (lutFNUZ16), as the f8e4m3
// decoders do: a fifth of the instructions for 64 elements; it also converts to f64.
func fnuzKernels() {
	for ti, t := range []struct {
		name       string
		mant, bias int
	}{{"F8E4M3FNUZ", 3, 8}, {"F8E5M2FNUZ", 2, 16}} {
		for _, to := range []string{"F32", "F16", "BF16", "F64"} {
			ti, t, to := ti, t, to
			if to != "F64" {
				add(&kernel{name: kname(t.name, to, avx2), isa: avx2, from: t.name, to: to,
					doc:  []string{fmt.Sprintf("It computes float32((c&0x7F) << %d as bits) · 2^%d, with the sign and code 0x80 (NaN) set apart.", 23-t.mant, 127-t.bias)},
					body: func() { fnuzDecode(avx2, t.mant, t.bias, to) }})
			}
			tab, nan := 1, uint32(0x7FC0) // bfloat16; float32 0x7FC00000
			if to == "F16" {
				tab, nan = 0, 0x7E00
			}
			add(&kernel{name: kname(t.name, to, avx512), isa: avx512, from: t.name, to: to,
				doc:  []string{"VPERMI2B lookups of the low and high bytes of each magnitude's " + lookupDoc[to] + " (lutFNUZ16), the sign ORed in and code 0x80 (NaN) set apart."},
				body: func() { byteLookupAVX512("lutFNUZ16", (2*ti+tab)*256, nan, to) }})
		}
	}
}

// byteLookupAVX512 is the body of an AVX-512 decoder of 8-bit codes by table, 64 elements a
// block (32 for float64): table, at byte off of its symbol, holds the 16-bit value (binary16,
// or bfloat16 for a float32 or float64 target) of each magnitude 0..127, 128 low bytes then 128
// high bytes. The codes, permuted into unpack order (unpackOrder, or unpackOrder2 for the wider
// targets), index the low and high bytes (e4m3BF16BytesAVX512), the sign is ORed into the high
// byte, and where nan is not 0 code 0x80 (the FNUZ types' NaN) is given its bytes; the bytes
// are interleaved into words, for float32 into the high halves of dwords, and for float64
// those are converted (VCVTPS2PD: exact).
func byteLookupAVX512(table string, off int, nan uint32, to string) {
	VMOVDQU64(sym(table, off), Z30)
	VMOVDQU64(sym(table, off+64), Z31)
	VMOVDQU64(sym(table, off+128), Z28)
	VMOVDQU64(sym(table, off+192), Z29)
	bcastD(0x80808080, Z26)
	bcastD(nan>>8*0x01010101, Z25)
	bcastD(nan&0xFF*0x01010101, Z24)
	wide := to == "F32" || to == "F64"
	order := "unpackOrder"
	if wide {
		order = "unpackOrder2"
		VPXORD(Z23, Z23, Z23)
	}
	VMOVDQU64(sym(order, 0), Z27)
	outBytes := map[string]int{"F64": 8, "F32": 4, "F16": 2, "BF16": 2}[to]
	n := 64 // elements a block; 32 for float64, whose 64 would not fit loop's frame
	if to == "F64" {
		n = 32
	}
	loop(avx512, func(i, o int) {
		if n == 32 {
			VMOVDQU(src(i), Y0) // the upper half zero: elements 32..63 are not stored
			VPERMB(Z0, Z27, Z0)
		} else {
			VPERMB(src(i), Z27, Z0)
		}
		if nan != 0 {
			VPCMPEQB(Z26, Z0, K1)
		}
		e4m3BF16BytesAVX512()
		if nan != 0 {
			VMOVDQU8(Z25, K1, Z2)
			if nan&0xFF != 0 {
				VMOVDQU8(Z24, K1, Z1)
			}
		}
		VPUNPCKLBW(Z2, Z1, Z3)
		VPUNPCKHBW(Z2, Z1, Z4)
		if !wide {
			VMOVDQU64(Z3, dst(o))
			VMOVDQU64(Z4, dst(o+64))
			return
		}
		VPUNPCKLWD(Z3, Z23, Z0)
		VPUNPCKHWD(Z3, Z23, Z1)
		if to == "F64" {
			storeF64Halves(Z0, Z5, Z6, dst(o), dst(o+64))
			storeF64Halves(Z1, Z5, Z6, dst(o+128), dst(o+192))
			return
		}
		VPUNPCKLWD(Z4, Z23, Z2)
		VPUNPCKHWD(Z4, Z23, Z3)
		for k, z := range []VecPhysical{Z0, Z1, Z2, Z3} {
			VMOVDQU64(z, dst(o+64*k))
		}
	}, block{n, n, n * outBytes})
}

// storeF64Halves converts the 16 float32 in z to float64 (VCVTPS2PD, exact) and stores the low
// eight at lo and the high eight at hi, with t and u as scratch.
func storeF64Halves(z, t, u VecPhysical, lo, hi Mem) {
	VCVTPS2PD(z.AsY(), t)
	VEXTRACTF64X4(U8(1), z, u.AsY())
	VCVTPS2PD(u.AsY(), u)
	VMOVUPD(t, lo)
	VMOVUPD(u, hi)
}

// lookupDoc names what byteLookupAVX512 looks up for each target.
var lookupDoc = map[string]string{"F64": "bfloat16, widened to float32 under a zero low half and converted to float64",
	"F32": "bfloat16, widened to float32 under a zero low half", "F16": "binary16", "BF16": "bfloat16"}

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
