package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Integers to f32 and f16, f64 ↔ f32, f32 to integers, boolean.

// intFloatKernels declares the kernels between integers and floats, f64 ↔ f32 and boolean
// (intfloat_amd64.s).
func intFloatKernels() {
	// Widening to float32 has one shape on both paths: an extending load of one vector of
	// int32, VCVTDQ2PS (exact), a store.
	for _, w := range []struct {
		from string
		ext  func(...Op)
		in   int
	}{
		{"I8", VPMOVSXBD, 1},
		{"U8", VPMOVZXBD, 1},
		{"I16", VPMOVSXWD, 2},
		{"U16", VPMOVZXWD, 2},
	} {
		for _, a := range []*isa{avx2, avx512} {
			bl := block{a.bytes / 4, a.bytes / 4 * w.in, a.bytes}
			widen := func(st func(...Op)) body {
				return func(i, o int) {
					w.ext(src(i), a.vec(0))
					VCVTDQ2PS(a.vec(0), a.vec(0))
					st(a.vec(0), dst(o))
				}
			}
			add(&kernel{name: kname(w.from, "F32", a), isa: a, from: w.from, to: "F32", body: func() {
				loop(a, widen(VMOVUPS), bl)
			}})
			if a == avx512 && w.from == "I8" {
				add(&kernel{name: "i8ToF32AVX512NT", isa: a, from: w.from, to: "F32", nt: true, noFrame: true, body: func() {
					loopNT(widen(vmovntdq), bl)
				}})
			}
		}
	}

	// One-instruction conversions, four a step on AVX2, so that the loop's four steps an
	// iteration give 16 conversions to its five loop instructions (at one conversion a step,
	// f64 → f32 and f32 → f64 fell behind github.com/viterin/vek's loops at 1 Ki elements;
	// docs/perf/README.md).
	add(&kernel{name: "i32ToF32AVX2", isa: avx2, from: "I32", to: "F32", body: func() {
		loop(avx2, cvt4(VCVTDQ2PS, VMOVUPS, ys, 32, 32), block{32, 128, 128})
	}})
	add(&kernel{name: "f64ToF32AVX2", isa: avx2, from: "F64", to: "F32", body: func() {
		loop(avx2, cvt4(VCVTPD2PSY, VMOVUPS, []VecPhysical{X0, X1, X2, X3}, 32, 16), block{16, 128, 64})
	}})
	add(&kernel{name: "f32ToF64AVX2", isa: avx2, from: "F32", to: "F64", body: func() {
		loop(avx2, cvt4(VCVTPS2PD, VMOVUPD, ys, 16, 32), block{16, 64, 128})
	}})

	// AVX-512: one conversion a block, with the ordinary or the non-temporal store.
	for _, c := range []struct {
		from, to string
		cvt      func(...Op)
		st       func(...Op)
		bl       block
	}{
		{"I32", "F32", VCVTDQ2PS, VMOVUPS, block{16, 64, 64}},
		{"F32", "F64", VCVTPS2PD, VMOVUPD, block{8, 32, 64}},
	} {
		one := func(st func(...Op)) body {
			return func(i, o int) {
				c.cvt(src(i), Z0)
				st(Z0, dst(o))
			}
		}
		add(&kernel{name: kname(c.from, c.to, avx512), isa: avx512, from: c.from, to: c.to, body: func() {
			loop(avx512, one(c.st), c.bl)
		}})
		add(&kernel{name: kname(c.from, c.to, avx512) + "NT", isa: avx512, from: c.from, to: c.to, nt: true, noFrame: true, body: func() {
			loopNT(one(vmovntdq), c.bl)
		}})
	}

	f64f32 := func(st func(...Op)) body {
		return func(i, o int) {
			VCVTPD2PS(src(i), Y0)
			VCVTPD2PS(src(i+64), Y1)
			st(Y0, dst(o))
			st(Y1, dst(o+32))
		}
	}
	add(&kernel{name: "f64ToF32AVX512", isa: avx512, from: "F64", to: "F32",
		doc: []string{"Calls of at least 2048 elements take four 256-bit conversions (VCVTPD2PS ymm → xmm) joined in pairs, " +
			"32 elements a step: slower from L1 and slightly faster when the buffers live in L2 or L3 " +
			"(docs/perf/README.md, \"Kernel design measurements\")."},
		body: func() {
			rest, yloop := label("f64rest"), label("f64yloop")
			CMPQ(RCX, U32(2048))
			JB(LabelRef(rest))
			MOVQ(RCX, R12)
			ANDQ(U32(31), R12)
			SUBQ(R12, RCX)
			Label(yloop)
			for _, io := range [][2]int{{0, 0}, {128, 64}} {
				i, o := io[0], io[1]
				VCVTPD2PSY(src(i), X0)
				VCVTPD2PSY(src(i+32), X1)
				VCVTPD2PSY(src(i+64), X2)
				VCVTPD2PSY(src(i+96), X3)
				VINSERTF128(U8(1), X1, Y0, Y0)
				VINSERTF128(U8(1), X3, Y2, Y2)
				VMOVUPS(Y0, dst(o))
				VMOVUPS(Y2, dst(o+32))
			}
			ADDQ(U32(256), RSI)
			ADDQ(U32(128), RDI)
			SUBQ(U32(32), RCX)
			JNZ(LabelRef(yloop))
			MOVQ(R12, RCX)
			Label(rest)
			loop(avx512, f64f32(VMOVUPS), block{16, 128, 64})
		}})
	add(&kernel{name: "f64ToF32AVX512NT", isa: avx512, from: "F64", to: "F32", nt: true, noFrame: true, body: func() {
		loopNT(f64f32(vmovntdq), block{16, 128, 64})
	}})

	intsToF16()
	f32ToInts()
	booleans()
	i8ToBF16()
}

// packOrder holds the VPERMD indices that put in element order the dwords of a VPACKSSDW pair
// followed by a VPACKSS/USWB of the two results (32 elements, in 4-byte groups 0, 2, 4, 6, 1, 3,
// 5, 7 after the packs).
func packOrder() Mem {
	return rodata("packOrder", 0x0000000400000000, 0x0000000500000001, 0x0000000600000002, 0x0000000700000003)
}

// cvt4 returns a body of four one-instruction conversions: cvt from memory into r[0..3]
// (source strides of in bytes), then st of each (destination strides of out bytes).
func cvt4(cvt, st func(...Op), r []VecPhysical, in, out int) body {
	return func(i, o int) {
		for k := range 4 {
			cvt(src(i+k*in), r[k])
		}
		for k := range 4 {
			st(r[k], dst(o+k*out))
		}
	}
}

func intsToF16() {
	// WIDENF16: 16 integers a step through float32 (exact) with VCVTPS2PH to a register and a
	// store: the memory form of VCVTPS2PH is much slower on some CPUs.
	for _, w := range []struct {
		from string
		ext  func(...Op)
	}{{"I16", VPMOVSXWD}, {"U16", VPMOVZXWD}} {
		add(&kernel{name: kname(w.from, "F16", avx2), isa: avx2, from: w.from, to: "F16",
			doc: []string{"Through float32 (exact) and VCVTPS2PH to a register: its memory form is much slower on some CPUs."},
			body: func() {
				loop(avx2, func(i, o int) {
					w.ext(src(i), Y0)
					w.ext(src(i+16), Y1)
					VCVTDQ2PS(Y0, Y0)
					VCVTDQ2PS(Y1, Y1)
					VCVTPS2PH(U8(0), Y0, X0)
					VCVTPS2PH(U8(0), Y1, X1)
					VMOVDQU(X0, dst(o))
					VMOVDQU(X1, dst(o+16))
				}, block{16, 32, 32})
			}})
	}

	// X8F16 converts 16 bytes to binary16 without VCVTPS2PH, whose throughput on Zen 4 limited
	// the widening route for bytes (docs/perf/README.md). WIDEN (VPMOVZXBW, VPMOVSXBW) puts
	// element k in word k; dword j then holds the even element 2j in its low word and the odd
	// element 2j+1 in its high word. VPMULLD by 2^16 leaves the even element times 2^16, VPAND
	// (Y15 = 0xFFFF0000) the odd one times 2^16, and VCVTDQ2PS converts both exactly (at most 8
	// significant bits). A float32 v = x·2^16, 1 ≤ |x| ≤ 255, has the biased exponent 143 + e
	// (e = ⌊log2 |x|⌋) and 7 mantissa bits, all in its top word t = s<<15 | (143+e)<<7 | m;
	// t<<3, cut to 16 bits, is (15+e)<<10 | m<<3, the binary16 of |x|; x = 0 gives 0. VPMADDWD
	// by (0, 8) (Y14) computes t·8 into the even dwords, whose low word is then that binary16,
	// and VPSLLW by 3 turns the odd top words into theirs in place; VPBLENDW takes the low words
	// of the first and the high words of the second. The sign of int8 elements, lost on the
	// way, is bit 15 of their sign-extended word, ORed in at the end (Y13 = 0x8000).
	x8f16 := func(i int, ext func(...Op)) {
		ext(src(i), Y0)
		VPMULLD(Y12, Y0, Y1)
		VPAND(Y15, Y0, Y2)
		VCVTDQ2PS(Y1, Y1)
		VCVTDQ2PS(Y2, Y2)
		VPMADDWD(Y14, Y1, Y1)
		VPSLLW(U8(3), Y2, Y2)
		VPBLENDW(U8(0x55), Y1, Y2, Y1)
	}
	x8consts := func() {
		bcastD(0xFFFF0000, Y15)
		bcastD(0x00080000, Y14)
		bcastD(0x80008000, Y13)
		bcastD(0x00010000, Y12)
	}
	x8doc := []string{"Exact, without VCVTPS2PH: VCVTDQ2PS of the even and the odd elements times 2^16, the binary16 bits cut from the float32 bits by integer multiplies and shifts."}
	add(&kernel{name: "i8ToF16AVX2", isa: avx2, from: "I8", to: "F16", doc: x8doc, body: func() {
		x8consts()
		loop(avx2, func(i, o int) {
			x8f16(i, VPMOVSXBW)
			VPAND(Y13, Y0, Y0)
			VPOR(Y0, Y1, Y1)
			VMOVDQU(Y1, dst(o))
		}, block{16, 16, 32})
	}})
	add(&kernel{name: "u8ToF16AVX2", isa: avx2, from: "U8", to: "F16", doc: x8doc, body: func() {
		x8consts()
		loop(avx2, func(i, o int) {
			x8f16(i, VPMOVZXBW)
			VMOVDQU(Y1, dst(o))
		}, block{16, 16, 32})
	}})

	// I32F16 clamps to ±65504 (i32 → f16 saturates, docs/SEMANTICS.md §3.3) in int32, before
	// the conversion, with VPMINSD and VPMAXSD, which run on the integer units:
	// float32(clamp(x)) = clamp(float32(x)), since rounding to float32 is monotonic and ±65504
	// are float32 values. VCVTDQ2PS is then exact and VCVTPS2PH rounds as F16FromF32.
	add(&kernel{name: "i32ToF16AVX2", isa: avx2, from: "I32", to: "F16",
		doc: []string{"The clamp is done in int32 (VPMINSD, VPMAXSD), then VCVTDQ2PS and VCVTPS2PH to a register."},
		body: func() {
			bcastD(65504, Y15)
			bcastD(0xFFFF0020, Y14) // -65504
			loop(avx2, func(i, o int) {
				VPMINSD(src(i), Y15, Y0)
				VPMINSD(src(i+32), Y15, Y1)
				VPMAXSD(Y14, Y0, Y0)
				VPMAXSD(Y14, Y1, Y1)
				VCVTDQ2PS(Y0, Y0)
				VCVTDQ2PS(Y1, Y1)
				VCVTPS2PH(U8(0), Y0, X0)
				VCVTPS2PH(U8(0), Y1, X1)
				VMOVDQU(X0, dst(o))
				VMOVDQU(X1, dst(o+16))
			}, block{16, 64, 32})
		}})

	// BYTEF16 looks up the binary16 of each of 64 bytes in 256-entry tables of low bytes
	// (Z16..Z19) and high bytes (Z20..Z23): VPERMI2B reads 7 index bits, so each plane takes two
	// lookups, and the top bit of the byte (VPMOVB2M) picks the second. The bytes are first
	// permuted (Z27) into the order that VPUNPCKL/HBW restore.
	for _, b := range []struct{ from, table string }{{"I8", "lutI8F16"}, {"U8", "lutU8F16"}} {
		add(&kernel{name: kname(b.from, "F16", avx512), isa: avx512, from: b.from, to: "F16",
			doc: []string{"VPERMI2B lookups of the low and high bytes in " + b.table + ", built from the scalar codec."},
			body: func() {
				for k := range 8 {
					VMOVDQU64(sym(b.table, 64*k), zs[16+k])
				}
				VMOVDQU64(sym("unpackOrder", 0), Z27)
				loop(avx512, func(i, o int) {
					VPERMB(src(i), Z27, Z0)
					VPMOVB2M(Z0, K1)
					VMOVDQA64(Z0, Z1)
					VPERMI2B(Z17, Z16, Z1)
					VMOVDQA64(Z0, Z2)
					VPERMI2B(Z19, Z18, Z2)
					VPBLENDMB(Z2, Z1, K1, Z1)
					VMOVDQA64(Z0, Z3)
					VPERMI2B(Z21, Z20, Z3)
					VMOVDQA64(Z0, Z4)
					VPERMI2B(Z23, Z22, Z4)
					VPBLENDMB(Z4, Z3, K1, Z3)
					VPUNPCKLBW(Z3, Z1, Z0)
					VPUNPCKHBW(Z3, Z1, Z2)
					VMOVDQU64(Z0, dst(o))
					VMOVDQU64(Z2, dst(o+64))
				}, block{64, 64, 128})
			}})
	}

	// I16F16 sign-extends the even words of 64 bytes to int32 with VPMADDWD by the words 1, 0
	// (Z14: x·1 + y·0) and the odd ones with VPMADDWD by 0, 1 (Z13), instead of VPSRAD: on
	// Zen 4 VPMADDWD runs on the multiply pipes, while VPSRAD would compete with VCVTDQ2PS and
	// VCVTPS2PH for the float-add pipes (docs/perf/README.md).
	add(&kernel{name: "i16ToF16AVX512", isa: avx512, from: "I16", to: "F16", body: func() {
		VMOVDQU64(sym("interleaveWords", 0), Z15)
		bcastD(1, Z14)
		bcastD(0x10000, Z13)
		loop(avx512, func(i, o int) {
			VMOVDQU64(src(i), Z1)
			VPMADDWD(Z14, Z1, Z0)
			VPMADDWD(Z13, Z1, Z1)
			VCVTDQ2PS(Z0, Z0)
			VCVTDQ2PS(Z1, Z1)
			toF16EvenOdd(o)
		}, block{32, 64, 64})
	}})
	// U16F16 makes the even words of 64 bytes the float32 bits of 2^23 + v with one VPTERNLOGD
	// (v&0xFFFF | 0x4B000000, Z9 and Z12) and the odd ones with a shift and an OR, then
	// subtracts 2^23 exactly with an FMA, x·1 − 2^23 (Z11 = 1.0, Z10 = −2^23), which runs on the
	// multiply pipes where VCVTDQ2PS would compete with VCVTPS2PH (docs/perf/README.md).
	add(&kernel{name: "u16ToF16AVX512", isa: avx512, from: "U16", to: "F16", body: func() {
		VMOVDQU64(sym("interleaveWords", 0), Z15)
		bcastD(0xFFFF, Z9)
		bcastD(0x4B000000, Z12)
		bcastD(0x3F800000, Z11)
		bcastD(0xCB000000, Z10) // -2^23
		loop(avx512, func(i, o int) {
			VMOVDQU64(src(i), Z1)
			VMOVDQA64(Z12, Z0)
			VPTERNLOGD(U8(0xF8), Z9, Z1, Z0)
			VPSRLD(U8(16), Z1, Z1)
			VPORD(Z12, Z1, Z1)
			VFMADD213PS(Z10, Z11, Z0)
			VFMADD213PS(Z10, Z11, Z1)
			toF16EvenOdd(o)
		}, block{32, 64, 64})
	}})
	// I32F16 clamps to ±65504 before rounding to binary16 with one VRANGEPS a vector: imm 2
	// takes the operand of smaller magnitude, x or 65504 (Z15), with the sign of x.
	add(&kernel{name: "i32ToF16AVX512", isa: avx512, from: "I32", to: "F16", body: func() {
		bcastD(0x477FE000, Z15)
		loop(avx512, func(i, o int) {
			VCVTDQ2PS(src(i), Z0)
			VCVTDQ2PS(src(i+64), Z1)
			VRANGEPS(U8(2), Z15, Z0, Z0)
			VRANGEPS(U8(2), Z15, Z1, Z1)
			toF16Pair(o)
		}, block{32, 128, 64})
	}})
}

// toF16EvenOdd converts the float32 of the even elements in Z0 and of the odd ones in Z1 to 32
// binary16, interleaves them (VPERMT2W with the indices in Z15) and stores them at o(DI).
func toF16EvenOdd(o int) {
	VCVTPS2PH(U8(0), Z0, Y0)
	VCVTPS2PH(U8(0), Z1, Y1)
	VPERMT2W(Z1, Z15, Z0)
	VMOVDQU64(Z0, dst(o))
}

// toF16Pair converts the float32 in Z0 and Z1 to 32 binary16 at o(DI), storing the halves as
// they are: joining them first (VINSERTI64X4) and storing 64 bytes costs an instruction and gains
// nothing, since the store port moves 32 bytes a cycle either way.
func toF16Pair(o int) {
	VCVTPS2PH(U8(0), Z0, Y0)
	VCVTPS2PH(U8(0), Z1, Y1)
	VMOVDQU(Y0, dst(o))
	VMOVDQU(Y1, dst(o+32))
}

func f32ToInts() {
	// F32I32R truncates the 8 float32 at i(SI) to int32 in Y0, saturating: VCVTTPS2DQ gives
	// 0x80000000 for NaN and out of range; lanes ≥ 2^31 (Y15) flip it to 0x7FFFFFFF and NaN
	// lanes are cleared.
	f32i32Y := func(i, o int) {
		VMOVUPS(src(i), Y1)
		VCVTTPS2DQ(Y1, Y0)
		VCMPPS(U8(0x1D), Y15, Y1, Y2)
		VPXOR(Y2, Y0, Y0)
		VCMPPS(U8(7), Y1, Y1, Y2)
		VPAND(Y2, Y0, Y0)
		VMOVDQU(Y0, dst(o))
	}
	// The short route of f32 → i32: VCVTTPS2DQ alone, four vectors a step, the running
	// VPMINSD of the results in the accumulator; VCVTTPS2DQ gives 0x80000000 for NaN and for
	// |x| ≥ 2^31 (and for x = -2^31, which is correct), so a block with no result 0x80000000 is
	// done; otherwise its steps are checked one by one and a step with such a lane goes through
	// the saturating body. Checking once a block instead of once a step brings short calls close
	// to copy() (docs/perf/README.md); a call whose data has special values pays for one block
	// twice.
	truncCheck := func(a *isa, fix body, acc, minInt, maxInt VecPhysical) checkRoute {
		v := a.vec
		w := a.bytes
		return checkRoute{
			fast: func() {
				for k := range 4 {
					VCVTTPS2DQ(src(k*w), v(k))
				}
				VPMINSD(v(1), v(0), v(4))
				VPMINSD(v(3), v(2), v(5))
				VPMINSD(v(4), acc, acc)
				VPMINSD(v(5), acc, acc)
			},
			store: func() {
				for k := range 4 {
					storeInt(a, 4)(v(k), dst(k*w))
				}
			},
			reset: func() {
				if w == 32 {
					VMOVDQA(maxInt, acc)
				} else {
					VMOVDQA64(maxInt, acc)
				}
			},
			bad: func() {
				if w == 32 {
					VPCMPEQD(minInt, acc, acc)
					VPTEST(acc, acc)
				} else {
					VPCMPEQD(minInt, acc, K1)
					KORTESTW(K1, K1)
				}
			},
			fix:  func() { blocks4(fix, block{w / 4, w, w}, 0, 0) },
			step: block{w, 4 * w, 4 * w},
		}
	}
	add(&kernel{name: "f32ToI32AVX2", isa: avx2, from: "F32", to: "I32",
		doc: []string{"VCVTTPS2DQ alone for blocks of up to 1024 elements with no result 0x80000000; the steps of other blocks with one are converted again with the saturating route."},
		body: func() {
			bcastD(0x4F000000, Y15)
			bcastD(0x80000000, Y12)
			bcastD(0x7FFFFFFF, Y14)
			loopCheck(avx2, truncCheck(avx2, f32i32Y, Y11, Y12, Y14), f32i32Y, block{8, 32, 32})
		}})

	// F32I32R truncates the 16 float32 at i(SI) to int32 in Z0, saturating: lanes ≥ 2^31 (Z15)
	// get 0x7FFFFFFF (Z14), NaN lanes 0 (Z13); below -2^31 VCVTTPS2DQ already gives 0x80000000.
	f32i32Z := func(st func(...Op)) body {
		return func(i, o int) {
			VMOVUPS(src(i), Z1)
			VCVTTPS2DQ(Z1, Z0)
			VCMPPS(U8(0x1D), Z15, Z1, K1)
			VCMPPS(U8(3), Z1, Z1, K2)
			VMOVDQA32(Z14, K1, Z0)
			VMOVDQA32(Z13, K2, Z0)
			st(Z0, dst(o))
		}
	}
	f32iConsts := func() {
		bcastD(0x4F000000, Z15)
		bcastD(0x7FFFFFFF, Z14)
		VPXORD(Z13, Z13, Z13)
	}
	add(&kernel{name: "f32ToI32AVX512", isa: avx512, from: "F32", to: "I32",
		doc: []string{"VCVTTPS2DQ alone for blocks of up to 1024 elements with no result 0x80000000; the steps of other blocks with one are converted again with the saturating route."},
		body: func() {
			f32iConsts()
			bcastD(0x80000000, Z12)
			loopCheck(avx512, truncCheck(avx512, f32i32Z(VMOVDQU32), Z11, Z12, Z14), f32i32Z(VMOVDQU32), block{16, 64, 64})
		}})
	add(&kernel{name: "f32ToI32AVX512NT", isa: avx512, from: "F32", to: "I32", nt: true, noFrame: true,
		doc: []string{"Every block takes the saturating route."},
		body: func() {
			f32iConsts()
			loopNT(f32i32Z(vmovntdq), block{16, 64, 64})
		}})

	// The narrow integer kernels clamp in float32 first, where VMINPS and VMAXPS choose their
	// NaN result: with x second (the memory operand of VMINPS, the register of VMAXPS), a NaN x
	// stays NaN. VCVTTPS2DQ then truncates, giving 0x80000000 for NaN and for x ≤ -2^31, and the
	// signed-saturating packs clamp to the destination's range: 0x80000000 becomes the minimum.
	add(&kernel{name: "f32ToI16AVX2", isa: avx2, from: "F32", to: "I16",
		doc: []string{"x above 32767 becomes 32767 (VMINPS keeps NaN), NaN lanes are cleared by the ordered mask, VCVTTPS2DQ truncates and VPACKSSDW saturates the rest."},
		body: func() {
			bcastD(0x46FFFE00, Y15) // 32767.0
			loop(avx2, func(i, o int) {
				for k, r := range [][2]VecPhysical{{Y0, Y4}, {Y1, Y5}} {
					VMINPS(src(i+32*k), Y15, r[0])
					VCMPPS(U8(7), r[0], r[0], r[1])
					VANDPS(r[1], r[0], r[0])
					VCVTTPS2DQ(r[0], r[0])
				}
				VPACKSSDW(Y1, Y0, Y0)
				VPERMQ(U8(0xD8), Y0, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{16, 64, 32})
		}})
	add(&kernel{name: "f32ToI8AVX2", isa: avx2, from: "F32", to: "I8",
		doc: []string{"Clamped to [-128, 127] in float32 with NaN kept, so that VCVTTPS2DQ gives 0x80000000 for NaN only; packed to words (NaN lanes become 0x8000) and the low byte of each word kept."},
		body: func() {
			bcastD(0x42FE0000, Y15) // 127.0
			bcastD(0xC3000000, Y14) // -128.0
			bcastD(0x00FF00FF, Y13)
			VMOVDQU(packOrder(), Y12)
			loop(avx2, func(i, o int) {
				for k := range 4 {
					VMINPS(src(i+32*k), Y15, ys[k])
					VMAXPS(ys[k], Y14, ys[k])
					VCVTTPS2DQ(ys[k], ys[k])
				}
				VPACKSSDW(Y1, Y0, Y0)
				VPACKSSDW(Y3, Y2, Y2)
				VPAND(Y13, Y0, Y0)
				VPAND(Y13, Y2, Y2)
				VPACKUSWB(Y2, Y0, Y0)
				VPERMD(Y0, Y12, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{32, 128, 32})
		}})
	add(&kernel{name: "f32ToU8AVX2", isa: avx2, from: "F32", to: "U8",
		doc: []string{"min(255, x) keeps a NaN, which VCVTTPS2DQ turns into 0x80000000 as every x ≤ -2^31; the packs saturate those and the other negative lanes to 0."},
		body: func() {
			bcastD(0x437F0000, Y15) // 255.0
			VMOVDQU(packOrder(), Y14)
			loop(avx2, func(i, o int) {
				for k := range 4 {
					VMINPS(src(i+32*k), Y15, ys[k])
					VCVTTPS2DQ(ys[k], ys[k])
				}
				VPACKSSDW(Y1, Y0, Y0)
				VPACKSSDW(Y3, Y2, Y2)
				VPACKUSWB(Y2, Y0, Y0)
				VPERMD(Y0, Y14, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{32, 128, 32})
		}})

	// F32CLAMP truncates float32 to int32 after clamping them to [lo, hi] (Z12, Z11) with NaN
	// kept (VMINPS and VMAXPS return their second Intel operand, here x, when it is NaN): a NaN
	// lane becomes 0x80000000, whose low byte and low word are 0, so keeping the low byte or word
	// of each lane gives NaN → 0 and every other lane is already in range. The narrowing kernels
	// keep them with one two-source VPERMT2B/VPERMT2W per 32 elements (lowBytesD, lowWordsD),
	// not with two VPMOVDB/VPMOVDW and an insert, which are slower on Zen 4 (docs/perf/README.md,
	// "Kernel design measurements").
	for _, c := range []struct {
		to       string
		lo, hi   uint32
		perm     func(...Op)
		table    string
		out      int
		zeroLow  bool
		comments [2]string
	}{
		{"I16", 0xC7000000, 0x46FFFE00, VPERMT2W, "lowWordsD", 64, false, [2]string{"-32768", "32767"}},
		{"I8", 0xC3000000, 0x42FE0000, VPERMT2B, "lowBytesD", 32, false, [2]string{"-128", "127"}},
		{"U8", 0, 0x437F0000, VPERMT2B, "lowBytesD", 32, true, [2]string{"0", "255"}},
	} {
		add(&kernel{name: kname("F32", c.to, avx512), isa: avx512, from: "F32", to: c.to,
			doc: []string{"Clamped in float32 with NaN kept, truncated by VCVTTPS2DQ (NaN → 0x80000000, whose low part is 0), the low part of each lane kept by one VPERMT2W/VPERMT2B per 32 elements."},
			body: func() {
				if c.zeroLow {
					VPXORD(Z12, Z12, Z12)
				} else {
					bcastD(c.lo, Z12)
				}
				bcastD(c.hi, Z11)
				VMOVDQU64(sym(c.table, 0), Z10)
				loop(avx512, func(i, o int) {
					for k, r := range []VecPhysical{Z0, Z1} {
						VMOVUPS(src(i+64*k), r)
						VMINPS(r, Z11, r)
						VMAXPS(r, Z12, r)
						VCVTTPS2DQ(r, r)
					}
					c.perm(Z1, Z10, Z0)
					if c.out == 64 {
						VMOVDQU64(Z0, dst(o))
					} else {
						VMOVDQU(Y0, dst(o))
					}
				}, block{32, 128, c.out})
			}})
	}
}

func booleans() {
	for _, a := range []*isa{avx2, avx512} {
		v := a.vec
		add(&kernel{name: kname("Boolean", "U8", a), isa: a, from: "Boolean", to: "U8", also: [][2]string{{"U8", "Boolean"}},
			doc: []string{"min(b, 1) per byte (VPMINUB)."},
			body: func() {
				bcastD(0x01010101, v(15))
				loop(a, func(i, o int) {
					VPMINUB(src(i), v(15), v(0))
					storeInt(a, 8)(v(0), dst(o))
				}, block{a.bytes, a.bytes, a.bytes})
			}})
		add(&kernel{name: kname("Boolean", "F32", a), isa: a, from: "Boolean", to: "F32",
			doc: []string{"float32(min(b, 1)) through VPMOVZXBD, VPMINUD and VCVTDQ2PS."},
			body: func() {
				bcastD(1, v(15))
				loop(a, func(i, o int) {
					VPMOVZXBD(src(i), v(0))
					VPMINUD(v(15), v(0), v(0))
					VCVTDQ2PS(v(0), v(0))
					VMOVUPS(v(0), dst(o))
				}, block{a.bytes / 4, a.bytes / 4, a.bytes})
			}})
	}
	// F32BOOL compares 32 float32 with 0 (VCMPPS NEQ_UQ: ±0 give 0, NaN and every other value
	// -1, subnormals included, as Go runs with MXCSR.DAZ clear), packs the dword masks to bytes
	// (signed saturation keeps -1 and 0) and turns -1 into 1 (VPABSB).
	add(&kernel{name: "f32ToBoolAVX2", isa: avx2, from: "F32", to: "Boolean",
		doc: []string{"VCMPPS NEQ_UQ with 0 (subnormals are not zero: Go runs with MXCSR.DAZ clear), the masks packed to bytes and made 1 by VPABSB."},
		body: func() {
			VMOVDQU(packOrder(), Y14)
			VXORPS(Y13, Y13, Y13)
			loop(avx2, func(i, o int) {
				for k := range 4 {
					VCMPPS(U8(4), src(i+32*k), Y13, ys[k])
				}
				VPACKSSDW(Y1, Y0, Y0)
				VPACKSSDW(Y3, Y2, Y2)
				VPACKSSWB(Y2, Y0, Y0)
				VPABSB(Y0, Y0)
				VPERMD(Y0, Y14, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{32, 128, 32})
		}})
	// A lane whose bits without the sign (Z14) are not all zero gives byte 1 (Z15).
	add(&kernel{name: "f32ToBoolAVX512", isa: avx512, from: "F32", to: "Boolean",
		doc: []string{"VPTESTMD of the bits without the sign gives the mask of the lanes that are not ±0; a zeroing masked move of 1 bytes stores them."},
		body: func() {
			bcastD(0x01010101, Z15)
			bcastD(0x7FFFFFFF, Z14)
			loop(avx512, func(i, o int) {
				VPTESTMD(src(i), Z14, K1)
				VPTESTMD(src(i+64), Z14, K2)
				KUNPCKWD(K1, K2, K1)
				VMOVDQU8_Z(Y15, K1, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{32, 128, 32})
		}})
}

// i8ToBF16 declares i8 → bf16. I8BF16 is exact: an int8 has at most 8 significant bits, so its
// float32 is a bfloat16 value, the float32's top half. VPMOVSXBW puts element k in word k, so
// dword j holds the even element 2j in its low word and the odd element 2j+1 in its high word;
// VPMADDWD by the words (1, 0) sign-extends the even elements to int32 and VPSRAD by 16 the odd
// ones, VCVTDQ2PS converts both, VPSRLD by 16 moves the even elements' top halves into the low
// words, and a blend takes the odd elements' top halves from the high words (VPBLENDW on AVX2;
// VPBLENDMW by the mask K1 of the odd words on AVX-512, which has no VPBLENDW).
func i8ToBF16() {
	for _, a := range []*isa{avx2, avx512} {
		add(&kernel{name: kname("I8", "BF16", a), isa: a, from: "I8", to: "BF16",
			doc: []string{"Exact: VCVTDQ2PS of the even and the odd elements sign-extended to int32, and the top halves of the float32 bits blended into words."},
			body: func() {
				ones := a.vec(15) // the words 1, 0: VPMADDWD's multipliers
				bcastD(1, ones)
				blend := func(odd, even VecPhysical) { VPBLENDW(U8(0x55), even, odd, even) }
				if a == avx512 {
					MOVL(U32(0xAAAAAAAA), EAX)
					KMOVD(EAX, K1)
					blend = func(odd, even VecPhysical) { VPBLENDMW(odd, even, K1, even) }
				}
				v0, v1, v2 := a.vec(0), a.vec(1), a.vec(2)
				loop(a, func(i, o int) {
					VPMOVSXBW(src(i), v0)
					VPMADDWD(ones, v0, v1)
					VPSRAD(U8(16), v0, v2)
					VCVTDQ2PS(v1, v1)
					VCVTDQ2PS(v2, v2)
					VPSRLD(U8(16), v1, v1)
					blend(v2, v1)
					storeInt(a, 2)(v1, dst(o))
				}, block{a.bytes / 2, a.bytes / 2, a.bytes})
			}})
	}
}
