package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The fp8F32 group kernels: f8e4m3 codes with one float32 scale a group, computed in f32 and
// written as bf16 or f32 (DeepSeek's FP8 weight blocks and compressed-tensors' FP8 weights,
// docs/SEMANTICS.md §9.7). Each element is to(f32(value(code) × scale)), as the pure-Go loop
// computes it:
//
//   - The code's exact value without a table: the sign-extended code shifted left by 20 and
//     masked with 0x87F00000 puts the sign in bit 31 and the code's exponent and mantissa
//     fields at the top of float32's exponent and mantissa, a float32 equal to the value times
//     2^-120 (normal codes become normal float32s, subnormal codes subnormal ones, exactly), and
//     a multiplication by 2^120 restores it exactly. The NaN codes (0x7F, 0xFF) give ±480 there:
//     their lanes are replaced afterwards by the NaN of the code's sign, 0x7FC00000 | sign, the
//     NaN the pure-Go loop decodes them to. A scan of the group's codes first (fp8Scan) lets a
//     group without NaN codes, every group of a checkpoint, skip that fix-up.
//   - One VMULPS by the scale rounds the product to float32 as Go's float32 multiplication does
//     (MXCSR to nearest, no flushing of subnormals in Go programs).
//   - bf16 by integer rounding to nearest even, (b + 0x7FFF + bit 16 of b) >> 16, exact also for
//     subnormal products, which VCVTNEPS2BF16 would flush to zero; the only NaNs left (0x7FC00000
//     and 0xFFC00000) have no low bits, so the rounding keeps them as BF16FromF32 does.
//   - A group whose scale is infinite also turns the products of ±0 codes (∞ × 0, whose NaN x86
//     makes negative) into the positive quiet NaN; a group whose scale is NaN is the quiet NaN
//     throughout (0x7FC00000, bf16 0x7FC0), whatever its codes.
//
// Vectors: 0 the scale, 15 the quiet NaN; constants (AVX-512 Z16..Z23, AVX2 Y7..Y14): the field
// mask 0x87F00000, 2^120, 0x7FFF, 1, 0xFFFFFF80, all ones, the sign bit, zero; AVX-512 Z31 the
// VPERMT2W index of the odd words.

// fp8Consts are the registers of the fp8F32 kernels' constants.
type fp8Consts struct {
	fields, pow120, bias, one, low7, ones, sign, zero VecPhysical
	// words (AVX-512) selects the odd words of two vectors: the bf16 halves of 32 lanes.
	words VecPhysical
}

// fp8Regs returns the constant registers of an ISA's fp8F32 kernel.
func fp8Regs(k *groupKernel) fp8Consts {
	v := k.isa.vec
	if k.isa == avx512 {
		return fp8Consts{v(16), v(17), v(18), v(19), v(20), v(21), v(22), v(23), v(31)}
	}
	return fp8Consts{v(14), v(13), v(12), v(11), v(10), v(9), v(8), v(7), nil}
}

// fp8Setup loads the constants.
func fp8Setup(k *groupKernel) {
	c := fp8Regs(k)
	bcastD(0x87F00000, c.fields)
	bcastD(0x7B800000, c.pow120) // 2^120
	bcastD(0x7FFF, c.bias)
	bcastD(1, c.one)
	bcastD(0xFFFFFF80, c.low7)
	bcastD(0xFFFFFFFF, c.ones)
	bcastD(0x80000000, c.sign)
	c80, ones, _, _ := fp8ScanRegs(k)
	bcastD(0x80808080, c80)
	if k.isa == avx512 {
		VPCMPEQB(ones, ones, ones)
	}
	if k.isa == avx512 {
		VPXORD(c.zero, c.zero, c.zero)
		var idx []byte
		for w := range 32 {
			idx = append(idx, byte(2*w+1), 0)
		}
		VMOVDQU64(rodata("fp8OddWords", byteQuads(idx)...), c.words)
	} else {
		VPXOR(c.zero, c.zero, c.zero)
	}
}

// fp8Group emits the body of the group loop for the current group (scale at DX, R12 steps of 32
// codes at SI): the finite-scale loop, the infinite-scale loop and the NaN fill.
func fp8Group(k *groupKernel, nt bool) {
	scale, nan := k.isa.vec(0), k.isa.vec(15)
	VBROADCASTSS(Mem{Base: RDX}, scale)
	special, fill, next := label("special"), label("fill"), label("next")
	MOVL(Mem{Base: RDX}, EAX)
	ANDL(U32(0x7FFFFFFF), EAX)
	CMPL(EAX, U32(0x7F800000))
	JAE(LabelRef(special))
	// A finite scale: the NaN codes need their fix-up only in a group that holds one, which
	// a scan of the group's codes (three instructions for 32 codes) tells.
	nanCodes := label("nancodes")
	fp8Scan(k)
	JNZ(LabelRef(nanCodes))
	fp8Steps(k, false, false, nt)
	JMP(LabelRef(next))
	Label(nanCodes)
	fp8Steps(k, false, true, nt)
	JMP(LabelRef(next))
	Label(special)
	JA(LabelRef(fill))
	fp8Steps(k, true, true, nt)
	JMP(LabelRef(next))
	Label(fill)
	// A NaN scale: every element is the quiet NaN.
	out := 64
	if k.typ == "F32" {
		out = 128
	}
	w := VecPhysical(nan)
	if k.typ == "BF16" {
		w = k.isa.vec(1)
		bcastD(0x7FC07FC0, w)
	}
	groupSteps(1, 32, out, false, func(si, di int) {
		for o := 0; o < out; o += k.isa.bytes {
			groupStore(w, Mem{Base: RDI, Disp: di + o}, nt)
		}
	})
	Label(next)
}

// fp8ScanRegs returns the registers of the scan for NaN codes: the bytes 0x80, all ones, the
// accumulator and a scratch register, all below 16 (VEX).
func fp8ScanRegs(k *groupKernel) (c80, ones, acc, t VecPhysical) {
	if k.isa == avx512 {
		return Y7, Y8, Y9, Y10
	}
	return Y6, Y9, Y1, Y2 // Y9 is the AVX2 kernel's all-ones constant
}

// fp8Scan sets ZF unless the group's R11 codes at SI hold a NaN code (0x7F, 0xFF): for 32 codes
// at a time, code | 0x80 compared with 0xFF, the results ORed together and tested.
func fp8Scan(k *groupKernel) {
	c80, ones, acc, t := fp8ScanRegs(k)
	loop := label("scan")
	MOVQ(R11, RAX)
	MOVQ(RSI, RBX)
	VPXOR(acc, acc, acc)
	Label(loop)
	VPOR(Mem{Base: RBX}, c80, t)
	VPCMPEQB(ones, t, t)
	VPOR(t, acc, acc)
	ADDQ(U8(32), RBX)
	SUBQ(U8(32), RAX)
	JNZ(LabelRef(loop))
	VPTEST(acc, acc)
}

// fp8Steps emits the loop over a group's R12 steps of 32 codes, with the fix-up of ∞ × 0 when inf
// is set and that of the NaN codes when nanCodes is.
func fp8Steps(k *groupKernel, inf, nanCodes, nt bool) {
	c := fp8Regs(k)
	v := k.isa.vec
	scale, nan := v(0), v(15)
	z512 := k.isa == avx512
	lanes := k.isa.bytes / 4
	out := 64
	if k.typ == "F32" {
		out = 128
	}
	// product computes the lanes of codes si+j.. into p, with d, m, s as scratch.
	product := func(si, j int, p, d, m, s VecPhysical) {
		VPMOVSXBD(Mem{Base: RSI, Disp: si + j}, d)
		VPSLLD(U8(20), d, p)
		if z512 {
			VPANDD(c.fields, p, p)
		} else {
			VPAND(c.fields, p, p)
		}
		VMULPS(c.pow120, p, p) // the code's exact value (±480 for the NaN codes)
		if inf && z512 {
			VCMPPS(U8(0), c.zero, p, K2) // ±0 codes: ∞ × 0
		} else if inf {
			VCMPPS(U8(0), c.zero, p, m)
		}
		VMULPS(scale, p, p)
		if inf && z512 {
			VMOVAPS(nan, K2, p)
		} else if inf {
			VBLENDVPS(m, nan, p, p)
		}
		// The NaN codes: code | 0xFFFFFF80 is all ones; their NaN keeps the code's sign.
		if !nanCodes {
			return
		}
		if z512 {
			VPORD(c.low7, d, m)
			VPCMPEQD(c.ones, m, K1)
			VPANDD(c.sign, d, s)
			VPORD(nan, s, s)
			VMOVAPS(s, K1, p)
		} else {
			VPOR(c.low7, d, m)
			VPCMPEQD(c.ones, m, m)
			VPAND(c.sign, d, s)
			VPOR(nan, s, s)
			VBLENDVPS(m, s, p, p)
		}
	}
	// roundHigh rounds the f32 lanes of p to bf16 in the high half of each lane, with t as
	// scratch.
	roundHigh := func(p, t VecPhysical) {
		VPSRLD(U8(16), p, t)
		if z512 {
			VPANDD(c.one, t, t)
		} else {
			VPAND(c.one, t, t)
		}
		VPADDD(c.bias, p, p)
		VPADDD(t, p, p)
	}
	// round rounds them into the low half.
	round := func(p, t VecPhysical) {
		roundHigh(p, t)
		VPSRLD(U8(16), p, p)
	}
	groupSteps(2, 32, out, false, func(si, di int) {
		base := 1 + 3*(si/32) // the scratch of the two unrolled steps: 1..3 and 4..6 (+ AVX-512 24..)
		if z512 {
			d, m, s := v(24+4*(si/32)), v(25+4*(si/32)), v(26+4*(si/32))
			if k.typ == "F32" {
				for j := 0; j < 32; j += lanes {
					p := v(base)
					product(si, j, p, d, m, s)
					groupStore(p, Mem{Base: RDI, Disp: di + 4*j}, nt)
				}
				return
			}
			// bf16: the rounded high words of both halves, gathered by one VPERMT2W.
			a, b, t := v(base), v(base+1), v(base+2)
			product(si, 0, a, d, m, s)
			roundHigh(a, t)
			product(si, lanes, b, d, m, s)
			roundHigh(b, t)
			VPERMT2W(b, c.words, a)
			groupStore(a, Mem{Base: RDI, Disp: di}, nt)
			return
		}
		// AVX2: 8 lanes at a time; for bf16 two results packed into 16 words.
		if k.typ == "F32" {
			for j := 0; j < 32; j += lanes {
				p, d, m, s := Y1, Y2, Y3, Y4
				product(si, j, p, d, m, s)
				groupStore(p, Mem{Base: RDI, Disp: di + 4*j}, nt)
			}
			return
		}
		for j := 0; j < 32; j += 2 * lanes {
			a, b := Y1, Y5
			product(si, j, a, Y2, Y3, Y4)
			round(a, Y2)
			product(si, j+lanes, b, Y2, Y3, Y4)
			round(b, Y2)
			VPACKUSDW(b, a, a) // per 128-bit lane: a's 4 words, then b's
			VPERMQ(U8(0xD8), a, a)
			groupStore(a, Mem{Base: RDI, Disp: di + 2*j}, nt)
		}
	})
}
