package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// f32 ↔ f16, f32 ↔ bf16, f16 ↔ bf16.

// floatKernels declares the kernels between f32, f16 and bf16 (floats_amd64.s).
func floatKernels() {
	// f16 → f32 and bf16 → f32 have one shape on both paths, with a non-temporal variant on
	// AVX-512.
	for _, a := range []*isa{avx2, avx512} {
		f16f32 := func(st func(...Op)) body {
			return func(i, o int) {
				VCVTPH2PS(src(i), a.vec(0))
				st(a.vec(0), dst(o))
			}
		}
		bf16f32 := func(st func(...Op)) body {
			return func(i, o int) {
				VPMOVZXWD(src(i), a.vec(0))
				VPSLLD(U8(16), a.vec(0), a.vec(0))
				st(a.vec(0), dst(o))
			}
		}
		bl := block{a.bytes / 4, a.bytes / 2, a.bytes}
		add(&kernel{name: kname("F16", "F32", a), isa: a, from: "F16", to: "F32", body: func() { loop(a, f16f32(VMOVUPS), bl) }},
			&kernel{name: kname("BF16", "F32", a), isa: a, from: "BF16", to: "F32", body: func() { loop(a, bf16f32(storeInt(a, 4)), bl) }})
		if a == avx512 {
			add(&kernel{name: "f16ToF32AVX512NT", isa: a, from: "F16", to: "F32", nt: true, noFrame: true, body: func() { loopNT(f16f32(vmovntdq), bl) }},
				&kernel{name: "bf16ToF32AVX512NT", isa: a, from: "BF16", to: "F32", nt: true, noFrame: true, body: func() { loopNT(bf16f32(vmovntdq), bl) }})
		}
	}

	// f32 → f16 converts to a register and stores it: VCVTPS2PH with a memory destination is
	// much slower on Zen 4 (docs/perf/README.md, "Kernel design measurements").
	add(&kernel{name: "f32ToF16AVX2", isa: avx2, from: "F32", to: "F16",
		doc: []string{"VCVTPS2PH to a register and a store: its memory form is much slower on Zen 4."},
		body: func() {
			loop(avx2, func(i, o int) {
				VMOVUPS(src(i), Y0)
				VCVTPS2PH(U8(0), Y0, X0)
				VMOVDQU(X0, dst(o))
			}, block{8, 32, 16})
		}})
	f32f16 := func(st func(...Op)) body {
		return func(i, o int) {
			VMOVUPS(src(i), Z0)
			VMOVUPS(src(i+64), Z1)
			VCVTPS2PH(U8(0), Z0, Y0)
			VCVTPS2PH(U8(0), Z1, Y1)
			st(Y0, dst(o))
			st(Y1, dst(o+32))
		}
	}
	add(&kernel{name: "f32ToF16AVX512", isa: avx512, from: "F32", to: "F16",
		doc: []string{"VCVTPS2PH to registers, the halves stored as they are (joining them costs an instruction and gains nothing)."},
		body: func() {
			loop(avx512, f32f16(func(ops ...Op) { VMOVDQU(ops[0], ops[1]) }), block{32, 128, 64})
		}},
		&kernel{name: "f32ToF16AVX512NT", isa: avx512, from: "F32", to: "F16", nt: true, noFrame: true, body: func() {
			loopNT(f32f16(vmovntdq), block{32, 128, 64})
		}})

	bf16AVX2()
	bf16AVX512()
}

// bf16AVX2 declares the AVX2 kernels to and from bfloat16 but bf16 → f32.
func bf16AVX2() {
	// BF16_CONSTS: Y13 = 0x8000, Y12 = 0x10000, Y11 = 0x00400000, Y10 = (0, 1) words, Y9 = 0
	// (Y14 is the NaN test).
	consts := func() {
		bcastD(0x8000, Y13)
		bcastD(0x10000, Y12)
		bcastD(0x00400000, Y11)
		bcastD(0x00010000, Y10)
		VPXOR(Y9, Y9, Y9)
	}
	// bf16R rounds the float32 bits x in r to bfloat16, sign-extended into the whole lane: NaN
	// lanes (VCMPPS unordered) become (x>>16)|0x40 (x | 0x00400000, the quiet bit), the others
	// (x + 0x7FFF + ((x>>16)&1)) >> 16, computed as x + 0x8000 - [bit 16 of x is 0] (VPCMPEQD
	// gives -1). VPMADDWD by (0, 1) takes the top word, sign-extended, so that VPACKSSDW packs it
	// unchanged. No shift: shifts share two pipes with VCMPPS and the conversions on Zen 4, while
	// the integer ALU ops run on four.
	bf16R := func(r, t1, t2, t3 VecPhysical) {
		VPAND(Y12, r, t1)
		VPCMPEQD(Y9, t1, t1)
		VPADDD(Y13, r, t2)
		VPADDD(t1, t2, t2)
		VPOR(Y11, r, t1)
		VCMPPS(U8(3), r, r, t3)
		VBLENDVPS(t3, t1, t2, r)
		VPMADDWD(Y10, r, r)
	}
	f32bf16 := func(i, o int) {
		VMOVDQU(src(i), Y0)
		VMOVDQU(src(i+32), Y4)
		bf16R(Y0, Y1, Y2, Y3)
		bf16R(Y4, Y5, Y6, Y7)
		VPACKSSDW(Y4, Y0, Y0)
		VPERMQ(U8(0xD8), Y0, Y0)
		VMOVDQU(Y0, dst(o))
	}
	// bf16Fast rounds the 16 float32 at i(SI) to bfloat16 in r (in order) as bf16R does, without
	// the NaN lanes: it ORs into Y14 the unordered compare of the two halves (a NaN in either sets
	// the lane) instead.
	bf16Fast := func(i int, r, s, t, u VecPhysical) {
		VMOVDQU(src(i), r)
		VMOVDQU(src(i+32), s)
		VCMPPS(U8(3), s, r, t)
		VPOR(t, Y14, Y14)
		VPAND(Y12, r, t)
		VPCMPEQD(Y9, t, t)
		VPADDD(Y13, r, r)
		VPADDD(t, r, r)
		VPMADDWD(Y10, r, r)
		VPAND(Y12, s, u)
		VPCMPEQD(Y9, u, u)
		VPADDD(Y13, s, s)
		VPADDD(u, s, s)
		VPMADDWD(Y10, s, s)
		VPACKSSDW(s, r, r)
		VPERMQ(U8(0xD8), r, r)
	}
	add(&kernel{name: "f32ToBF16AVX2", isa: avx2, from: "F32", to: "BF16",
		doc: []string{"Blocks of up to 1024 elements are rounded without the NaN lanes, the NaN test of every lane ORed into one register; " +
			"a block with a NaN is done again, with the rest of the call, 32 elements at a time, and 32 elements with a NaN take the route with NaN lanes " +
			"(a NaN is rare, and the test costs two ops per 16 lanes against six)."},
		body: func() {
			consts()
			loopCheck(avx2, checkRoute{
				fast: func() {
					bf16Fast(0, Y0, Y1, Y2, Y3)
					bf16Fast(64, Y4, Y5, Y6, Y7)
				},
				store: func() {
					VMOVDQU(Y0, dst(0))
					VMOVDQU(Y4, dst(32))
				},
				reset: func() { VPXOR(Y14, Y14, Y14) },
				bad:   func() { VPTEST(Y14, Y14) },
				fix: func() {
					f32bf16(0, 0)
					f32bf16(64, 32)
				},
				step: block{32, 128, 64},
			}, f32bf16, block{16, 64, 32})
		}})

	// f16 ↔ bf16 on the exact integer route. Real tensors hold zeros and normal numbers, and
	// between f16 and bf16 those convert by integer arithmetic on a = h & 0x7FFF, the sign h ^ a
	// ORed back:
	//   - f16 → bf16, a normal f16 (0x0400 ≤ a ≤ 0x7BFF): a>>3 + (112<<7) (the exponent rebiased
	//     from 15 to 127, the 10-bit mantissa cut to 7), rounded to nearest even on the 3 dropped
	//     bits;
	//   - bf16 → f16, a bf16 in the f16 normal range (0x3880 ≤ a ≤ 0x477F, exact in f16):
	//     (a - (112<<7)) << 3;
	//   - ±0 stays ±0.
	// The kernels convert groups of 256 elements that way (loopFast) and keep a running VPMAXUW
	// (Y10) and VPMINUW of a value less 1 (Y9, where a zero wraps to 0xFFFF and so never lowers
	// it): a of the source for bf16 → f16, the magnitude of the result for f16 → bf16. When both
	// stay within the range of the values the route gets right, the group is exact and done.
	// Otherwise loopFast converts the group again, storing over the same bytes, by the kernel's
	// exact float route, which handles every pattern. Y8 = all ones.
	words := func(name string, w uint64) Mem {
		q := w * 0x0001000100010001
		return rodata(name, q, q, q, q)
	}
	halfReset := func() {
		VMOVDQA(Y8, Y9)
		VPXOR(Y10, Y10, Y10)
	}
	// halfTest sets ZF when the range test passed: max(a) ≤ hi and min(a - 1) ≥ lo - 1 in
	// every lane (VPSUBUSW leaves 0 exactly then). It uses Y2 and Y3.
	halfTest := func(hi, lom1 uint64) func() {
		return func() {
			VMOVDQU(words(fmt.Sprintf("words%04X", lom1), lom1), Y3)
			VPSUBUSW(words(fmt.Sprintf("words%04X", hi), hi), Y10, Y2)
			VPSUBUSW(Y9, Y3, Y3)
			VPOR(Y3, Y2, Y2)
			VPTEST(Y2, Y2)
		}
	}

	// f16 → bf16's float route rounds the exact float32 x of each binary16 (VCVTPH2PS) to
	// bfloat16 with float arithmetic: y = (x + M) - M, M = ±2^(e+16) (the sign and exponent field
	// of x, plus 16 in the exponent field: integer AND and ADD). x + M lies in M's binade, whose
	// spacing is 2^(e-7), the spacing of 8-bit significands at x's exponent e, and M is an even
	// multiple of it, so the addition rounds x to bfloat16 to nearest even and the subtraction is
	// exact. A binary16 has e ≤ 15, so M never overflows; ±inf and NaN give a finite M (the field
	// wraps) and come out unchanged, the NaN quiet (VCVTPH2PS sets the bit) with its payload,
	// whose top 16 bits are the generic x>>16 | 0x40. Only -0 comes out +0: the binary16 sign is
	// ORed back into the words at the end. The addition is an FMA, 1·x + M (one rounding, the
	// same result), and VPMADDWD by (0, 1) takes the top word of y sign-extended for VPACKSSDW
	// (then VPERMQ for the lane order): on Zen 4 the FMA and VPMADDWD run on the multiplier
	// pipes, leaving the two pipes of VCVTPH2PS, VSUBPS and the shifts less loaded, which is
	// faster than VADDPS and VPSRLD (docs/perf/README.md).
	f16bf16R := func(r, t VecPhysical) {
		VPAND(Y15, r, t)
		VPADDD(Y14, t, t)
		VFMADD213PS(t, Y11, r)
		VSUBPS(t, r, r)
		VPMADDWD(Y12, r, r)
	}
	f16bf16 := func(i, o int) {
		VCVTPH2PS(src(i), Y0)
		VCVTPH2PS(src(i+16), Y1)
		f16bf16R(Y0, Y2)
		f16bf16R(Y1, Y3)
		VPACKSSDW(Y1, Y0, Y0)
		VPERMQ(U8(0xD8), Y0, Y0)
		VPAND(src(i), Y13, Y4)
		VPOR(Y4, Y0, Y0)
		VMOVDQU(Y0, dst(o))
	}
	// f16bf16H2 is the integer route of f16 → bf16 for the 32 words at i(SI), stored at o(DI),
	// on h itself, sign included. With a = h & 0x7FFF and q = h >> 2 (VPSRAW, arithmetic), the
	// result is VPAVGW(q + m, B) = (q + m + B + 1) >> 1 (in 17 bits), where m = -1 when h&0xF = 4
	// (Y11 = 0xF, Y12 = 4; dropped bits exactly a half and kept mantissa even: the only case
	// where rounding the 3 dropped bits half up, (q + 1) >> 1, is wrong), else 0, and B =
	// VPSIGNW(0x7000, h) (Y14):
	//   - h > 0: q = a>>2, B = 0x7000, R = rne(a>>3) + 0x3800 (112<<7, the exponent rebias);
	//   - h = +0: q = m = B = 0, R = 0;
	//   - h < 0: q = 0xE000 + a>>2, B = 0x9000 (-0x7000), R = (0x17000 + a>>2 + m + 1) >> 1 =
	//     0xB800 + rne(a>>3) = 0x8000 | (rne(a>>3) + 0x3800).
	// The range test is on 2R (VPADDW, the magnitude of R shifted left): R & 0x7FFF is
	// rne(a>>3) + 0x3800 for every h but +0, so 2R in [0x7102, 0x8EFE] means rne(a>>3) in
	// [0x81, 0xF7F], a normal f16 (the route is right for those, and for +0, where 2R = 0). -0
	// gives 2R = 0x7000 and fails the test, as do the few normals with rne(a>>3) = 0x80 or 0xF80
	// (their group takes the exact route). 10 ops a vector, one on the multiply pipes of Zen 4
	// (VPSIGNW) and one on the shift pipes, the rest on any of the four, and no memory operand
	// but the source. The two vectors are interleaved op by op. This beat the route on a with the
	// sign ORed back (12 ops, 4 of them with memory operands) and a variant with VPMULHRSW by
	// 2^12 for the rounding and VPADDW of VPSIGNW(0x3800, h) instead of VPSRAW and VPAVGW (cycle
	// counts in docs/perf/README.md, "Kernel design measurements").
	f16bf16H2 := func(i, o int) {
		VMOVDQU(src(i), Y0)
		VMOVDQU(src(i+32), Y4)
		VPAND(Y11, Y0, Y1)
		VPAND(Y11, Y4, Y5)
		VPCMPEQW(Y12, Y1, Y1)
		VPCMPEQW(Y12, Y5, Y5)
		VPSRAW(U8(2), Y0, Y3)
		VPSRAW(U8(2), Y4, Y7)
		VPADDW(Y3, Y1, Y1)
		VPADDW(Y7, Y5, Y5)
		VPSIGNW(Y0, Y14, Y2)
		VPSIGNW(Y4, Y14, Y6)
		VPAVGW(Y2, Y1, Y3)
		VPAVGW(Y6, Y5, Y7)
		VMOVDQU(Y3, dst(o))
		VMOVDQU(Y7, dst(o+32))
		VPADDW(Y3, Y3, Y2)
		VPADDW(Y7, Y7, Y6)
		VPADDW(Y8, Y2, Y1)
		VPADDW(Y8, Y6, Y5)
		VPMINUW(Y1, Y9, Y9)
		VPMAXUW(Y2, Y10, Y10)
		VPMINUW(Y5, Y9, Y9)
		VPMAXUW(Y6, Y10, Y10)
	}
	add(&kernel{name: "f16ToBF16AVX2", isa: avx2, from: "F16", to: "BF16",
		doc: []string{"Groups of 256 elements that are all +0 or normal take an integer route on h with its sign (VPSRAW, VPSIGNW, VPAVGW); " +
			"other groups are converted again by VCVTPH2PS and the rounding by float32 addition and subtraction of ±2^(e+16)."},
		body: func() {
			bcastD(0xFF800000, Y15)
			VPCMPEQW(Y8, Y8, Y8)
			loopFast(avx2, fastRoute{
				fast: func(i, o int) {
					f16bf16H2(i, o)
					f16bf16H2(i+64, o+64)
				},
				ok: halfTest(0x8EFE, 0x7101),
				consts: func() {
					halfReset()
					bcastD(0x000F000F, Y11)
					bcastD(0x00040004, Y12)
					bcastD(0x70007000, Y14)
				},
			}, func(i, o int) { blocks4(f16bf16, block{16, 32, 32}, i, o) }, func() {
				bcastD(0x08000000, Y14)
				bcastD(0x80008000, Y13)
				bcastD(0x00010000, Y12)
				bcastD(0x3F800000, Y11)
			}, block{64, 128, 128})
		}})

	// bf16 → f16's exact route widens the even bfloat16 of 16 to float32 by a shift and the odd
	// ones by a mask (Y15 = 0xFFFF0000), which needs no shuffle, converts both with VCVTPS2PH to
	// a register (the memory form is slower) and interleaves the two halves again.
	bf16f16 := func(i, o int) {
		VMOVDQU(src(i), Y1)
		VPSLLD(U8(16), Y1, Y0)
		VPAND(Y15, Y1, Y1)
		VCVTPS2PH(U8(0), Y0, X0)
		VCVTPS2PH(U8(0), Y1, X1)
		VPUNPCKLWD(X1, X0, X2)
		VPUNPCKHWD(X1, X0, X3)
		VMOVDQU(X2, dst(o))
		VMOVDQU(X3, dst(o+16))
	}
	add(&kernel{name: "bf16ToF16AVX2", isa: avx2, from: "BF16", to: "F16",
		doc: []string{"Groups of 256 elements that are all zero or exact binary16 normals take the integer route (a - 0x3800) << 3 with the sign ORed back; " +
			"other groups are converted again by VCVTPS2PH of the even and the odd elements, widened by a shift and a mask."},
		body: func() {
			bcastD(0xFFFF0000, Y15)
			VPCMPEQW(Y8, Y8, Y8)
			m7FFF, m3800 := words("words7FFF", 0x7FFF), words("words3800", 0x3800)
			loopFast(avx2, fastRoute{
				fast: halfFast(32, 0, []VecPhysical{Y0, Y1, Y2}, []VecPhysical{Y4, Y5, Y6},
					halfLoad(VMOVDQU, VPAND, m7FFF, Y8, Y9, Y10),
					func(h, a, t VecPhysical) {
						VPSUBUSW(m3800, a, t)
						VPSLLW(U8(3), t, t)
						VPXOR(a, h, h)
						VPOR(t, h, h)
					}, func(r VecPhysical, o int) { VMOVDQU(r, dst(o)) }),
				ok:     halfTest(0x477F, 0x387F),
				consts: halfReset,
			}, func(i, o int) { blocks4(bf16f16, block{16, 32, 32}, i, o) }, nil, block{64, 128, 128})
		}})
}

// halfFast returns the fast route of bf16 → f16 on a path whose vectors hold w bytes: four
// vectors of words a call, two at a time, each loaded with its range test folded in (load, into
// the registers r[0..2]) and converted (conv, result in r[res]) before the two are stored.
func halfFast(w, res int, r1, r2 []VecPhysical, load func(i int, h, a, t VecPhysical), conv func(h, a, t VecPhysical), store func(r VecPhysical, o int)) body {
	return func(i, o int) {
		for k := range 2 {
			load(i+2*k*w, r1[0], r1[1], r1[2])
			load(i+(2*k+1)*w, r2[0], r2[1], r2[2])
			conv(r1[0], r1[1], r1[2])
			conv(r2[0], r2[1], r2[2])
			store(r1[res], o+2*k*w)
			store(r2[res], o+(2*k+1)*w)
		}
	}
}

// halfLoad returns the load of bf16 → f16's fast route: it loads the words at i(SI) into h with
// load, their a = h & 0x7FFF (and with mask) into a, and folds a into the group's range test:
// mx = max(mx, a), mn = min(mn, a - 1) (unsigned; ones holds -1 words).
func halfLoad(load func(m, r Op), and func(m, a, b Op), mask Op, ones, mn, mx VecPhysical) func(i int, h, a, t VecPhysical) {
	return func(i int, h, a, t VecPhysical) {
		load(src(i), h)
		and(mask, h, a)
		VPADDW(ones, a, t)
		VPMINUW(t, mn, mn)
		VPMAXUW(a, mx, mx)
	}
}

// bf16AVX512 declares the AVX-512 kernels to bfloat16 and bf16 → f16.
func bf16AVX512() {
	// BF16_CONSTS: Z15 = 0x7FFF, Z14 = 1, Z13 = 0x00400000, Z12 = the word indices 1, 3, …,
	// 63 (the high halves of the dwords of two registers).
	consts := func() {
		bcastD(0x7FFF, Z15)
		bcastD(1, Z14)
		bcastD(0x00400000, Z13)
		VMOVDQU64(sym("oddWords", 0), Z12)
	}
	// bf16R rounds the float32 bits in r to bfloat16 in the high half of each lane of t: non-NaN
	// lanes x + 0x7FFF + ((x>>16)&1), NaN lanes x | 0x00400000 (the quiet bit).
	bf16R := func(r, t, k Register) {
		VPSRLD(U8(16), r, t)
		VPANDD(Z14, t, t)
		VPADDD(Z15, t, t)
		VPADDD(r, t, t)
		VCMPPS(U8(3), r, r, k)
		VPORD(Z13, r, k, t)
	}
	f32bf16 := func(st func(...Op)) body {
		return func(i, o int) {
			VMOVDQU32(src(i), Z0)
			VMOVDQU32(src(i+64), Z1)
			bf16R(Z0, Z2, K1)
			bf16R(Z1, Z3, K2)
			VPERMT2W(Z3, Z12, Z2)
			st(Z2, dst(o))
		}
	}
	add(&kernel{name: "f32ToBF16AVX512", isa: avx512, from: "F32", to: "BF16", body: func() {
		consts()
		loop(avx512, f32bf16(VMOVDQU64), block{32, 128, 64})
	}},
		&kernel{name: "f32ToBF16AVX512NT", isa: avx512, from: "F32", to: "BF16", nt: true, noFrame: true, body: func() {
			consts()
			loopNT(f32bf16(vmovntdq), block{32, 128, 64})
		}},
		&kernel{name: "f16ToBF16AVX512", isa: avx512, from: "F16", to: "BF16", body: func() {
			consts()
			loop(avx512, func(i, o int) {
				VCVTPH2PS(src(i), Z0)
				VCVTPH2PS(src(i+32), Z1)
				bf16R(Z0, Z2, K1)
				bf16R(Z1, Z3, K2)
				VPERMT2W(Z3, Z12, Z2)
				VMOVDQU64(Z2, dst(o))
			}, block{32, 64, 64})
		}})

	// With AVX512_BF16: VCVTNEPS2BF16 rounds to nearest even and quiets NaNs exactly as
	// docs/SEMANTICS.md §3.4/§3.8 ask, but treats subnormal inputs as zero. VCVTNE2PS2BF16 does
	// the same to two registers at once, the first source giving the high half of the result.
	add(&kernel{name: "f32ToBF16AVX512BF", isa: avx512, from: "F32", to: "BF16", feature: "AVX512_BF16",
		doc: []string{"It is the AVX512_BF16 variant: 32 float32 a step with VCVTNE2PS2BF16, unless a lane of the step is subnormal " +
			"(VFPCLASSPS class 0x20), which VCVTNE2PS2BF16 would flush to zero: that step takes the integer rounding of f32ToBF16AVX512, " +
			"as does the last partial step."},
		body: func() {
			consts()
			bfloop, bfnext, bfrest, bfslow := label("bfloop"), label("bfnext"), label("bfrest"), label("bfslow")
			MOVQ(RCX, R12)
			ANDQ(U32(31), R12)
			SUBQ(R12, RCX)
			JZ(LabelRef(bfrest))
			Label(bfloop)
			VMOVDQU32(src(0), Z0)
			VMOVDQU32(src(64), Z1)
			VFPCLASSPSZ(U8(0x20), Z0, K1)
			VFPCLASSPSZ(U8(0x20), Z1, K2)
			KORTESTW(K1, K2)
			JNZ(LabelRef(bfslow))
			cvtne2ps2bf16()
			VMOVDQU64(Z0, dst(0))
			Label(bfnext)
			ADDQ(U32(128), RSI)
			ADDQ(U32(64), RDI)
			SUBQ(U32(32), RCX)
			JNZ(LabelRef(bfloop))
			Label(bfrest)
			MOVQ(R12, RCX)
			loop(avx512, f32bf16(VMOVDQU64), block{32, 128, 64})
			Label(bfslow)
			f32bf16(VMOVDQU64)(0, 0)
			JMP(LabelRef(bfnext))
		}},
		&kernel{name: "f16ToBF16AVX512BF", isa: avx512, from: "F16", to: "BF16", feature: "AVX512_BF16",
			doc: []string{"It is the AVX512_BF16 variant: f16 → f32 (exact, never subnormal) → bf16 with VCVTNE2PS2BF16."},
			body: func() {
				loop(avx512, func(i, o int) {
					VCVTPH2PS(src(i), Z0)
					VCVTPH2PS(src(i+32), Z1)
					cvtne2ps2bf16()
					VMOVDQU64(Z0, dst(o))
				}, block{32, 64, 64})
			}})

	// bf16 → f16 takes the integer route of bf16ToF16AVX2 in 512-bit registers through
	// loopFast: groups of 512 elements converted as (a -sat 0x3800) << 3 with the sign ORed back
	// (one VPTERNLOGD), the running VPMINUW of a - 1 in Z22 and VPMAXUW of a in Z23 (a = h &
	// 0x7FFF); a group with an a outside 0 and 0x3880..0x477F (the bf16 values that are not exact
	// binary16 normals: tiny, huge, Inf, NaN) is converted again by the exact route, which widens
	// the even words of 64 bytes to float32 by a shift and the odd ones by a mask (Z14 =
	// 0xFFFF0000). Z20 = 0x7FFF, Z21 = all ones, Z24 = 0x3800, Z27 = 0x477F, Z28 = 0x387F (words).
	bf16f16 := func(i, o int) {
		VMOVDQU64(src(i), Z1)
		VPSLLD(U8(16), Z1, Z0)
		VPANDD(Z14, Z1, Z1)
		toF16EvenOdd(o)
	}
	add(&kernel{name: "bf16ToF16AVX512", isa: avx512, from: "BF16", to: "F16",
		doc: []string{"Groups of 512 elements that are all zero or exact binary16 normals take the integer route (a - 0x3800) << 3 with the sign ORed back; " +
			"other groups are converted again by VCVTPS2PH of the even and the odd elements, widened by a shift and a mask."},
		body: func() {
			VMOVDQU64(sym("interleaveWords", 0), Z15)
			bcastD(0xFFFF0000, Z14)
			bcastW(0x7FFF, Z20)
			VPTERNLOGD(U8(0xFF), Z21, Z21, Z21)
			bcastW(0x3800, Z24)
			bcastW(0x477F, Z27)
			bcastW(0x387F, Z28)
			loopFast(avx512, fastRoute{
				fast: halfFast(64, 2, []VecPhysical{Z16, Z17, Z18}, []VecPhysical{Z19, Z29, Z30},
					halfLoad(func(m, r Op) { VMOVDQU64(m, r) }, func(m, a, b Op) { VPANDD(m, a, b) }, Z20, Z21, Z22, Z23),
					func(h, a, t VecPhysical) {
						VPSUBUSW(Z24, a, t)
						VPSLLW(U8(3), t, t)
						VPTERNLOGD(U8(0xF4), Z20, h, t)
					}, func(r VecPhysical, o int) { VMOVDQU64(r, dst(o)) }),
				ok: func() {
					VPSUBUSW(Z27, Z23, Z25)
					VPSUBUSW(Z22, Z28, Z26)
					VPORQ(Z26, Z25, Z25)
					VPTESTMW(Z25, Z25, K1)
					KORTESTD(K1, K1)
				},
				consts: func() {
					VMOVDQA64(Z21, Z22)
					VPXORQ(Z23, Z23, Z23)
				},
			}, func(i, o int) { blocks4(bf16f16, block{32, 64, 64}, i, o) }, nil, block{128, 256, 256})
		}})
}

// cvtne2ps2bf16 emits VCVTNE2PS2BF16 Z0, Z1, Z0 (Intel: vcvtne2ps2bf16 zmm0, zmm1, zmm0), which
// rounds Z0 into words 0..15 and Z1 into words 16..31 of Z0 (EVEX.512.F2.0F38.W0 72 /r, vvvv =
// Z1, r/m = Z0), as bytes: the Go assembler does not know it.
func cvtne2ps2bf16() {
	rawBytes("VCVTNE2PS2BF16 Z0, Z1, Z0", 0x62, 0xF2, 0x77, 0x48, 0x72, 0xC0)
}

// rawBytes emits the machine code b of an instruction avo cannot spell as BYTE directives,
// preceded by a comment naming it (Go operand order). The objdump test of package kernels
// checks that the bytes decode to the named instruction.
func rawBytes(name string, b ...byte) {
	Comment(name)
	for _, x := range b {
		Instruction(&ir.Instruction{Opcode: "BYTE", Operands: []Op{U8(x)}})
	}
}
