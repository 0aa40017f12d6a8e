package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The 8-bit floats f8e4m3 and f8e5m2, from and to f16 and f32.

// f8Kernels declares the kernels of the 8-bit floats (f8_amd64.s).
func f8Kernels() {
	f8DecodeAVX2()
	f8EncodeAVX2()
	f8DecodeAVX512()
	f8EncodeAVX512()
}

// nibPermD is the VPERMD order 0, 2, 4, 6, 1, 3, 5, 7 of the dwords of a Y register, after which
// the unpacks of 128-bit lanes give elements in order.
func nibPermD() Mem {
	return rodata("nibPermD", 0x0000000200000000, 0x0000000600000004, 0x0000000300000001, 0x0000000700000005)
}

func f8DecodeAVX2() {
	// f8e4m3 → binary16, 32 bytes a step. Every f8e4m3 value's binary16 is s<<15 | y<<7 with s
	// the sign and y = h>>7 an 8-bit number (its low seven bits are zero): y = m + 0x40 for the
	// normal magnitudes m = c&0x7F in 8..0x7E, the binary16 of m·2^-9 shifted right by 7 (0,
	// 0x30, 0x38, 0x3C, 0x40, 0x42, 0x44, 0x46) for m < 8 and 0xFC (0x7E00) for the NaN code m =
	// 0x7F. The body computes y in byte lanes from z = (c+1)&0x7F, which moves the NaN code to 0
	// and puts the nine special codes in 0..8 (m = z-1 otherwise): the index VPADDSB(z, 0x76) is
	// 0x76..0x7E for them (entries 6..14 of the VPSHUFB table e4m3Y) and saturates to 0x7F
	// (entry 15) for the normal codes, and y = z + e4m3Y[index], with 0x3F at entry 15. The byte
	// unpacks then pair each y (low byte) with S = 0xFF for a negative c, 0 otherwise (VPCMPGTB,
	// high byte), and VPSLLW by 7 turns the word S<<8 | y into s<<15 | y<<7: two unpacks and two
	// shifts for 64 bytes of stores, 15 instructions a step where a high and low byte route
	// (VPAVGB and two tables) takes 17, and faster in L1; VPMULLW by 128 instead of the shifts is
	// no faster (docs/perf/README.md). The source quadwords are put in the order 0, 2, 1, 3
	// (VPERMQ from a register after a load: the memory-operand form makes the step slower).
	add(&kernel{name: "f8e4m3ToF16AVX2", isa: avx2, from: "F8E4M3", to: "F16",
		doc: []string{"32 bytes a step: y = h>>7 without the sign computed in byte lanes, m + 0x40 plus a VPSHUFB correction for m < 8 and NaN, then paired with the sign byte by unpacks and shifted by 7."},
		body: func() {
			bcastD(0x7F7F7F7F, Y15)
			bcastD(0x76767676, Y14)
			VBROADCASTI128(rodata("e4m3Y", 0xFFFC000000000000, 0x3F3E3D3C3B38352E), Y13)
			VPXOR(Y12, Y12, Y12)
			VPCMPEQB(Y11, Y11, Y11)
			loop(avx2, func(i, o int) {
				VMOVDQU(src(i), Y0)
				VPERMQ(U8(0xD8), Y0, Y0)
				VPSUBB(Y11, Y0, Y1)
				VPAND(Y15, Y1, Y1)
				VPADDSB(Y14, Y1, Y2)
				VPSHUFB(Y2, Y13, Y2)
				VPADDB(Y2, Y1, Y1)
				VPCMPGTB(Y0, Y12, Y3)
				VPUNPCKLBW(Y3, Y1, Y4)
				VPUNPCKHBW(Y3, Y1, Y5)
				VPSLLW(U8(7), Y4, Y4)
				VPSLLW(U8(7), Y5, Y5)
				VMOVDQU(Y4, dst(o))
				VMOVDQU(Y5, dst(o+32))
			}, block{32, 32, 64})
		}})

	// f8e4m3 → float32 goes through bfloat16 bytes (the top half of the exact float32), computed
	// in byte lanes: with m = c&0x7F, a normal m (8..0x7E) is m<<4 + 0x3C00, high byte (m>>4) +
	// 0x3C, low byte (m<<4)&0xF0 (VPSRLW, VPSLLW and a mask each: the shifts work on words). The
	// index VPADDSB(m, 0x77), cleared to 0 for the NaN code, picks from two VPSHUFB tables what
	// to add (modulo 256): e4m3BHi holds 0x3C for the normal codes, the high byte of m·2^-9 for
	// m < 8 (where m>>4 = 0), and 0x7F - 7 for the NaN 0x7FC0; e4m3BLo holds the low byte minus
	// (m<<4)&0xF0 (0 for the normal codes). The sign c&0x80 goes into the high byte. Unpacking
	// bytes to words and then words to dwords under a zero low half widens them to float32 with
	// shuffles only (VCVTPH2PS costs more); the source dwords are first put in the order of
	// nibPermD, so that the four results hold elements 0..7, 8..15, 16..23 and 24..31. Y15 =
	// 0x7F, Y14 = 0x07, Y13 = 0x80, Y12 = 0x77, Y9 = 0xF0 (bytes), Y11 = e4m3BHi, Y10 = e4m3BLo,
	// Y8 = nibPermD, Y7 = 0.
	add(&kernel{name: "f8e4m3ToF32AVX2", isa: avx2, from: "F8E4M3", to: "F32",
		doc: []string{"32 bytes a step in byte lanes, VPSHUFB corrections for m < 8 and NaN, then widened by unpacks under a zero low half."},
		body: func() {
			e4m3BF16ConstsAVX2()
			VMOVDQU(nibPermD(), Y8)
			VPXOR(Y7, Y7, Y7)
			loop(avx2, func(i, o int) {
				VPERMD(src(i), Y8, Y0)
				e4m3BF16BytesAVX2()
				VPUNPCKLBW(Y2, Y3, Y4)
				VPUNPCKHBW(Y2, Y3, Y5)
				VPUNPCKLWD(Y4, Y7, Y0)
				VPUNPCKHWD(Y4, Y7, Y1)
				VPUNPCKLWD(Y5, Y7, Y2)
				VPUNPCKHWD(Y5, Y7, Y3)
				VMOVDQU(Y0, dst(o))
				VMOVDQU(Y1, dst(o+32))
				VMOVDQU(Y2, dst(o+64))
				VMOVDQU(Y3, dst(o+96))
			}, block{32, 32, 128})
		}})

	// f8e4m3 → bfloat16 computes the bfloat16 bytes as f8e4m3ToF32AVX2 does and interleaves them
	// into words. VPERMQ first puts the source qwords in the order 0, 2, 1, 3, so that the
	// in-lane byte unpacks give elements 0..15 and 16..31 in order.
	add(&kernel{name: "f8e4m3ToBF16AVX2", isa: avx2, from: "F8E4M3", to: "BF16",
		doc: []string{"The bfloat16 bytes of f8e4m3ToF32AVX2 (32 bytes a step in byte lanes, VPSHUFB corrections for m < 8 and NaN), interleaved into words."},
		body: func() {
			e4m3BF16ConstsAVX2()
			loop(avx2, func(i, o int) {
				VPERMQ(U8(0xD8), src(i), Y0)
				e4m3BF16BytesAVX2()
				VPUNPCKLBW(Y2, Y3, Y4)
				VPUNPCKHBW(Y2, Y3, Y5)
				VMOVDQU(Y4, dst(o))
				VMOVDQU(Y5, dst(o+32))
			}, block{32, 32, 64})
		}})

	add(&kernel{name: "f8e5m2ToF16AVX2", isa: avx2, from: "F8E5M2", to: "F16",
		doc: []string{"Each byte c becomes the word c<<8."},
		body: func() {
			loop(avx2, func(i, o int) {
				VPMOVZXBW(src(i), Y0)
				VPSLLW(U8(8), Y0, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{16, 16, 32})
		}})
	// f8e5m2 → f32 has one shape on both paths: the byte widened to its binary16 c<<8 in the half
	// register, then VCVTPH2PS.
	for _, a := range []*isa{avx2, avx512} {
		add(&kernel{name: kname("F8E5M2", "F32", a), isa: a, from: "F8E5M2", to: "F32",
			doc: []string{"The binary16 c<<8 of each byte, widened by VCVTPH2PS."},
			body: func() {
				v, h := a.vec(0), half(a.vec(0))
				loop(a, func(i, o int) {
					VPMOVZXBW(src(i), h)
					VPSLLW(U8(8), h, h)
					VCVTPH2PS(h, v)
					VMOVUPS(v, dst(o))
				}, block{a.bytes / 4, a.bytes / 4, a.bytes})
			}})
	}
}

// half returns the register of half the width of v (X of Y, Y of Z).
func half(v VecPhysical) VecPhysical {
	if v.Size() == 64 {
		return v.AsY().(VecPhysical)
	}
	return v.AsX().(VecPhysical)
}

func f8EncodeAVX2() {

	e4m3Doc := "VCVTPS2PH where the source is f32, then F8E4M3FromF16 in byte operations (lutE4m3Sub for the subnormal codes), " +
		"or, for groups of 128 elements whose binary16 magnitudes are all in the normal f8e4m3 range (M = h>>8&0x7F in 0x24..0x5E), " +
		"the normal rule alone: (h>>8) + M - 0x40 + [L > 0x40] + [L > 0xBF] with L = h&0xFF."
	add(&kernel{name: "f32ToF8e4m3AVX2", isa: avx2, from: "F32", to: "F8E4M3", doc: []string{e4m3Doc}, body: func() {
		loopFast(avx2, e4m3FastAVX2(f32f8AVX2, e4m3Range), f32f8AVX2(toE4M3AVX2), toE4M3ConstsAVX2, block{32, 128, 32})
	}})
	add(&kernel{name: "f16ToF8e4m3AVX2", isa: avx2, from: "F16", to: "F8E4M3", doc: []string{e4m3Doc}, body: func() {
		loopFast(avx2, e4m3FastAVX2(f16f8AVX2, e4m3Range), f16f8AVX2(toE4M3AVX2), toE4M3ConstsAVX2, block{32, 64, 32})
	}})

	add(&kernel{name: "f32ToF8e5m2AVX2", isa: avx2, from: "F32", to: "F8E5M2",
		doc: []string{"VCVTPS2PH, then H + [L + H&1 > 0x80] in byte operations with H, L the high and low bytes, except that a NaN keeps H (VCVTPS2PH gives quiet NaNs, so H&0x7F > 0x7D is exactly a NaN, and H is F8E5M2FromF16's H | 2)."},
		body: func() {
			toE5M2ConstsAVX2()
			loop(avx2, f32f8AVX2(toE5M2QAVX2), block{32, 128, 32})
		}})
	add(&kernel{name: "f16ToF8e5m2AVX2", isa: avx2, from: "F16", to: "F8E5M2",
		doc: []string{"H + [L + H&1 > 0x80] in byte operations with H, L the high and low bytes, a NaN giving H | 2; the NaN test left out for groups of 128 elements whose magnitudes are all below 0x7C00."},
		body: func() {
			loopFast(avx2, e5m2FastAVX2(0x7B), f16f8AVX2(toE5M2AVX2), toE5M2ConstsAVX2, block{32, 64, 32})
		}})
}

// The AVX2 f8 encoders work on bytes: splitHLAVX2 separates the binary16 values into their high
// bytes H (sign, exponent, top two mantissa bits) and low bytes L (the other eight mantissa
// bits), 32 of each per register, and the rounding is then decided byte by byte, 32 lanes an
// instruction.

// splitHLDataAVX2 returns the VPSHUFB indices that gather, in each 16-byte lane of eight words,
// the low bytes into the lane's first eight bytes and the high bytes into its last eight.
func splitHLDataAVX2() Mem { return rodata("splitHL", 0x0E0C0A0806040200, 0x0F0D0B0907050301) }

// splitHLAVX2 turns the 32 binary16 words of Y0 (elements A) and Y1 (elements B), with the
// splitHLDataAVX2 indices in Y15, into their low bytes in Y2 and high bytes in Y3: in each
// 128-bit lane, the 8 bytes of A's lane then the 8 of B's. Y0 and Y1 are clobbered.
func splitHLAVX2() {
	VPSHUFB(Y15, Y0, Y0)
	VPSHUFB(Y15, Y1, Y1)
	VPUNPCKLQDQ(Y1, Y0, Y2)
	VPUNPCKHQDQ(Y1, Y0, Y3)
}

// f32f8AVX2 converts 32 float32 to binary16 (VCVTPS2PH rounds to nearest even as F16FromF32
// does, and gives the same NaNs, quiet), joining the halves so that splitHLAVX2 puts the bytes in
// element order (Y0 = elements 0..7 and 16..23, Y1 = 8..15 and 24..31), and rounds them to f8
// with round, which leaves the 32 codes in Y1.
func f32f8AVX2(round func()) body {
	return func(i, o int) {
		VMOVUPS(src(i), Y0)
		VMOVUPS(src(i+64), Y1)
		VMOVUPS(src(i+32), Y2)
		VMOVUPS(src(i+96), Y3)
		VCVTPS2PH(U8(0), Y0, X0)
		VCVTPS2PH(U8(0), Y1, X1)
		VCVTPS2PH(U8(0), Y2, X2)
		VCVTPS2PH(U8(0), Y3, X3)
		VINSERTI128(U8(1), X1, Y0, Y0)
		VINSERTI128(U8(1), X3, Y2, Y1)
		splitHLAVX2()
		round()
		VMOVDQU(Y1, dst(o))
	}
}

// f16f8AVX2 rounds 32 binary16 with round; splitHLAVX2 leaves the bytes in the order 0..7, 16..23,
// 8..15, 24..31, which VPERMQ sorts.
func f16f8AVX2(round func()) body {
	return func(i, o int) {
		VMOVDQU(src(i), Y0)
		VMOVDQU(src(i+32), Y1)
		splitHLAVX2()
		round()
		VPERMQ(U8(0xD8), Y1, Y1)
		VMOVDQU(Y1, dst(o))
	}
}

// toE4M3ConstsAVX2: Y15 = splitHLDataAVX2 (both lanes), Y14 = 0x7F, Y13 = 0x80, Y12 = 0x20, Y11 = 0x0C,
// Y10 = the subnormal bases and Y9 the complemented thresholds (lutE4m3Sub), Y8 = 0xC0,
// Y7 = 0x3F (bytes).
func toE4M3ConstsAVX2() {
	VBROADCASTI128(splitHLDataAVX2(), Y15)
	bcastD(0x7F7F7F7F, Y14)
	bcastD(0x80808080, Y13)
	bcastD(0x20202020, Y12)
	bcastD(0x0C0C0C0C, Y11)
	VBROADCASTI128(sym("lutE4m3Sub", 0), Y10)
	VBROADCASTI128(sym("lutE4m3Sub", 16), Y9)
	bcastD(0xC0C0C0C0, Y8)
	bcastD(0x3F3F3F3F, Y7)
}

// toE4M3FastAVX2 is toE4M3AVX2 for binary16 magnitudes in the normal f8e4m3 range, high byte M =
// H&0x7F from 0x24 to 0x5E (2^-6 ≤ |h| < 448), where the code is just c = 2M - 0x40 + [L >
// 0x40] + [L > 0xBF] (8 ≤ c ≤ 0x7E): it adds d = c - M = M - 0x40 + [L > 0x40] + [L > 0xBF]
// to H, which is c with H's sign bit, in 10 simple byte operations. Y6 keeps the unsigned
// maximum of M - 0x24 (modulo 256), which is at most 0x3A exactly when every M so far was in
// 0x24..0x5E. Its constants: Y15 = splitHLDataAVX2 (both lanes), Y14 = 0x7F, Y13 = 0x80, Y12 = 0x1C,
// Y11 = 0x24, Y10 = 0x3A, Y8 = 0xC0, Y7 = 0x3F (bytes), Y6 = 0.
func toE4M3FastAVX2() {
	VPXOR(Y13, Y2, Y2)
	VPAND(Y14, Y3, Y0)
	VPSUBB(Y11, Y0, Y0)
	VPMAXUB(Y0, Y6, Y6)
	VPSUBB(Y12, Y0, Y0)
	VPCMPGTB(Y8, Y2, Y4)
	VPSUBB(Y4, Y0, Y0)
	VPCMPGTB(Y7, Y2, Y4)
	VPSUBB(Y4, Y0, Y0)
	VPADDB(Y0, Y3, Y1)
}

// toE4M3AVX2 rounds the binary16 values with low bytes L in Y2 and high bytes H in Y3 to
// f8e4m3, into Y1 (Y0 and Y2..Y5 are clobbered): F8E4M3FromF16 in 17 byte operations. With
// M = H&0x7F (the magnitude is a = M<<8 | L) and Lx = L^0x80 (signed byte compares of Lx
// order L as unsigned), it computes two candidates and keeps the larger (signed):
//   - n, the normal rule: (a - 0x2000 + 0x3F + bit 7 of a) >> 7 is 2(M-0x20) + [L > 0x40] +
//     [L > 0xBF], L rounded to the nearest multiple of 0x80, ties to even. VPADDSB and
//     VPSUBSB compute it with signed saturation, so that every code above 0x7E (magnitudes
//     over 464, ±Inf, NaN) comes out as 0x7F, the NaN code.
//   - s, the rule below 2^-6: there the code rises by at most one within a 256-value block
//     of a (see f8EncTable), so it is base + [L > thr], with base and thr read from 16-entry
//     tables (VPSHUFB) indexed by M - 0x14. For M < 0x14 (a < 2^-10, which rounds to 0) the
//     index is negative and VPSHUFB gives 0: base 0, and the stored ^thr, xored with 0x7F,
//     becomes the threshold 0x7F that no Lx exceeds, so s = 0.
//
// max(n, s) is the code: for M ≥ 0x24, n ≥ 8 and s ≤ 8 (s is then some table entry, at most
// 7 + 1); for 0x20 ≤ M < 0x24, with m = a - 0x2000 < 0x400, n = RNE(m/128) ≤ RNE(4 + m/256)
// = s as m/128 ≤ 4 + m/256; for M < 0x20, n ≤ 2·(-1) + 2 = 0 ≤ s. Then the sign bit of H.
func toE4M3AVX2() {
	VPXOR(Y13, Y2, Y2)
	VPAND(Y14, Y3, Y0)
	VPAND(Y13, Y3, Y3)
	VPSUBB(Y12, Y0, Y0)
	VPADDB(Y11, Y0, Y1)
	VPSHUFB(Y1, Y10, Y4)
	VPSHUFB(Y1, Y9, Y1)
	VPXOR(Y14, Y1, Y1)
	VPCMPGTB(Y1, Y2, Y1)
	VPSUBB(Y1, Y4, Y4)
	VPADDSB(Y0, Y0, Y1)
	VPCMPGTB(Y8, Y2, Y5)
	VPSUBSB(Y5, Y1, Y1)
	VPCMPGTB(Y7, Y2, Y5)
	VPSUBSB(Y5, Y1, Y1)
	VPMAXSB(Y4, Y1, Y1)
	VPOR(Y3, Y1, Y1)
}

// e4m3FastAVX2 is the fast route of the AVX2 f8e4m3 encoders, toE4M3FastAVX2 in the blocks of b
// (f16f8AVX2 or f32f8AVX2) over the normal range n (e4m3Range; e4m3fnuzRange, for which Y11, Y12
// and Y10 hold its own low, off and span): a group stands when Y6, the maximum of M - low, is at
// most span. Its consts load toE4M3FastAVX2's constants.
func e4m3FastAVX2(b func(func()) body, n normalRange) fastRoute {
	return fastRoute{
		fast: b(toE4M3FastAVX2),
		ok: func() {
			VPSUBUSB(Y10, Y6, Y4)
			VPTEST(Y4, Y4)
		},
		consts: func() {
			VBROADCASTI128(splitHLDataAVX2(), Y15)
			bcastD(0x7F7F7F7F, Y14)
			bcastD(0x80808080, Y13)
			bcastD(n.off*0x01010101, Y12)
			bcastD(n.low*0x01010101, Y11)
			bcastD(n.span*0x01010101, Y10)
			bcastD(0xC0C0C0C0, Y8)
			bcastD(0x3F3F3F3F, Y7)
			VPXOR(Y6, Y6, Y6)
		},
	}
}

// toE5M2ConstsAVX2: Y15 = splitHLDataAVX2 (both lanes), Y14 = 0x7F, Y13 = 0x80, Y12 = 0, Y11 = 0x01,
// Y10 = 0x3E, Y9 = 0x02, Y8 = 0x7E (bytes).
func toE5M2ConstsAVX2() {
	VBROADCASTI128(splitHLDataAVX2(), Y15)
	bcastD(0x7F7F7F7F, Y14)
	bcastD(0x80808080, Y13)
	VPXOR(Y12, Y12, Y12)
	bcastD(0x01010101, Y11)
	bcastD(0x3E3E3E3E, Y10)
	bcastD(0x02020202, Y9)
	bcastD(0x7E7E7E7E, Y8)
}

// e5m2UpAVX2 sets Y4 to Lx | (H&1), with Lx = L^0x80 signed, whose being positive is whether the
// f8e5m2 code rounds up: F8E5M2FromF16 adds 0x7F + (H&1) to the magnitude and keeps its high
// byte, so the code is H + [L + (H&1) > 0x80], that is Lx > -(H&1) (for odd H, Lx ≥ 0). L in
// Y2 and H in Y3 are kept; Y0 is clobbered. No shuffle or saturating operation: the ports
// those use are the busy ones.
func e5m2UpAVX2() {
	VPXOR(Y13, Y2, Y4)
	VPAND(Y11, Y3, Y0)
	VPOR(Y0, Y4, Y4)
}

// toE5M2QAVX2 rounds binary16 values with low bytes L in Y2 and high bytes H in Y3 to f8e5m2 in
// Y1, for values whose NaNs are quiet (from VCVTPS2PH), in seven simple byte operations: H +
// [up > 0] (the sign stays in place: no magnitude up to 0x7C00 carries into it), except that a
// NaN keeps H, which is F8E5M2FromF16's H | 0x02 for a quiet NaN. The NaNs are exactly the H
// with bits 1..6 set (M = H&0x7F > 0x7D: every other value is at most 0x7C00), for which X =
// ^H & 0x7E is 0; X is positive for the others, so [min(up, X) > 0] (signed) is the rounding
// step.
func toE5M2QAVX2() {
	e5m2UpAVX2()
	VPANDN(Y8, Y3, Y0)
	VPMINSB(Y0, Y4, Y4)
	VPCMPGTB(Y12, Y4, Y4)
	VPSUBB(Y4, Y3, Y1)
}

// toE5M2FastAVX2 is toE5M2AVX2 for binary16 values with M = H&0x7F at most 0x7B (no NaN, no
// infinity): H + [e5m2UpAVX2 > 0] (which also rounds the largest finite values up to infinity
// correctly). Y6 keeps the unsigned maximum of 2M = H+H, at most 0xF6 (Y7) exactly when every
// M so far was at most 0x7B.
func toE5M2FastAVX2() {
	e5m2UpAVX2()
	VPCMPGTB(Y12, Y4, Y4)
	VPADDB(Y3, Y3, Y0)
	VPMAXUB(Y0, Y6, Y6)
	VPSUBB(Y4, Y3, Y1)
}

// toE5M2AVX2 rounds any binary16 values, low bytes L in Y2 and high bytes H in Y3, to f8e5m2 in
// Y1 (Y0, Y2 and Y3 are clobbered): H + [e5m2UpAVX2 > 0], except that a NaN (M<<8 | L > 0x7C00,
// that is M + [L ≠ 0] ≥ 0x7D, or VPAVGB(M, [L ≠ 0]) = (M + [L ≠ 0] + 1) >> 1 > 0x3E, computed
// in 9 bits) gives H | 0x02 (VPBLENDVB).
func toE5M2AVX2() {
	e5m2UpAVX2()
	VPCMPGTB(Y12, Y4, Y4)
	VPSUBB(Y4, Y3, Y1)
	VPMINUB(Y11, Y2, Y2)
	VPAND(Y14, Y3, Y0)
	VPAVGB(Y2, Y0, Y0)
	VPCMPGTB(Y10, Y0, Y0)
	VPOR(Y9, Y3, Y3)
	VPBLENDVB(Y0, Y3, Y1, Y1)
}

func f8DecodeAVX512() {
	// f8e4m3 → f16 needs one table lookup for 64 elements: every low byte of an f8e4m3 value's
	// binary16 is 0x00 or 0x80, and lutE4m3F16Hi keeps that bit in bit 7 of the high byte (where
	// the sign goes). With T the looked-up byte (VPERMI2B reads seven bits of each index, so
	// c&0x7F), the low byte is T&0x80 and the high byte c&0x80 | T&0x7F; the bytes, in
	// unpackOrder, are interleaved into words by the unpacks: two shuffles and two unpacks for 128
	// bytes of stores, which take four cycles. (Interleaving with two VPERMT2B instead of the
	// VPERMB and the unpacks, or the two lookups of the f32 route, is slower on Zen 4;
	// docs/perf/README.md.) Constants: Z29:Z28 = lutE4m3F16Hi, Z27 = unpackOrder, Z26 = 0x80
	// bytes.
	e4m3f16Consts := func() {
		VMOVDQU64(sym("lutE4m3F16Hi", 0), Z28)
		VMOVDQU64(sym("lutE4m3F16Hi", 64), Z29)
		VMOVDQU64(sym("unpackOrder", 0), Z27)
		bcastD(0x80808080, Z26)
	}
	e4m3f16 := func(st func(...Op)) body {
		return func(i, o int) {
			VPERMB(src(i), Z27, Z0)
			VMOVDQA64(Z0, Z1)
			VPERMI2B(Z29, Z28, Z1)
			VPANDD(Z26, Z1, Z2)
			VPTERNLOGD(U8(0xD8), Z26, Z0, Z1)
			VPUNPCKLBW(Z1, Z2, Z3)
			VPUNPCKHBW(Z1, Z2, Z4)
			st(Z3, dst(o))
			st(Z4, dst(o+64))
		}
	}
	e4m3Doc := "One VPERMI2B lookup of the high byte (lutE4m3F16Hi) for 64 elements, the low byte being 0x00 or 0x80."
	add(&kernel{name: "f8e4m3ToF16AVX512", isa: avx512, from: "F8E4M3", to: "F16", doc: []string{e4m3Doc}, body: func() {
		e4m3f16Consts()
		loop(avx512, e4m3f16(VMOVDQU64), block{64, 64, 128})
	}},
		&kernel{name: "f8e4m3ToF16AVX512NT", isa: avx512, from: "F8E4M3", to: "F16", nt: true, noFrame: true, body: func() {
			e4m3f16Consts()
			loopNT(e4m3f16(vmovntdq), block{64, 64, 128})
		}})

	// f8e4m3 → f32 looks up each value's bfloat16 (the top half of its float32, whose low half is
	// always zero for an f8e4m3 value) in lutE4m3BF16: Z31:Z30 the low bytes, Z29:Z28 the high
	// bytes of each magnitude 0..127, the sign (Z26 = 0x80 bytes) ORed in. The bytes, permuted by
	// unpackOrder2 (Z27) into the order that the byte and word unpacks restore, are widened to
	// dwords under a zero low half (Z24), giving elements 0..63.
	add(&kernel{name: "f8e4m3ToF32AVX512", isa: avx512, from: "F8E4M3", to: "F32",
		doc: []string{"VPERMI2B lookups of the bfloat16 bytes of each magnitude (lutE4m3BF16), widened to float32 by unpacks under a zero low half."},
		body: func() {
			e4m3BF16ConstsAVX512()
			VMOVDQU64(sym("unpackOrder2", 0), Z27)
			bcastD(0x80808080, Z26)
			VPXORD(Z24, Z24, Z24)
			loop(avx512, func(i, o int) {
				VPERMB(src(i), Z27, Z0)
				e4m3BF16BytesAVX512()
				VPUNPCKLBW(Z2, Z1, Z3)
				VPUNPCKHBW(Z2, Z1, Z4)
				VPUNPCKLWD(Z3, Z24, Z0)
				VPUNPCKHWD(Z3, Z24, Z1)
				VPUNPCKLWD(Z4, Z24, Z2)
				VPUNPCKHWD(Z4, Z24, Z3)
				VMOVDQU64(Z0, dst(o))
				VMOVDQU64(Z1, dst(o+64))
				VMOVDQU64(Z2, dst(o+128))
				VMOVDQU64(Z3, dst(o+192))
			}, block{64, 64, 256})
		}})

	// f8e4m3 → bfloat16 is the lookup of f8e4m3ToF32AVX512 without the widening: the bytes,
	// permuted by unpackOrder into the order that the byte unpacks restore, interleaved into
	// words.
	add(&kernel{name: "f8e4m3ToBF16AVX512", isa: avx512, from: "F8E4M3", to: "BF16",
		doc: []string{"VPERMI2B lookups of the bfloat16 bytes of each magnitude (lutE4m3BF16), interleaved into words."},
		body: func() {
			e4m3BF16ConstsAVX512()
			VMOVDQU64(sym("unpackOrder", 0), Z27)
			bcastD(0x80808080, Z26)
			loop(avx512, func(i, o int) {
				VPERMB(src(i), Z27, Z0)
				e4m3BF16BytesAVX512()
				VPUNPCKLBW(Z2, Z1, Z3)
				VPUNPCKHBW(Z2, Z1, Z4)
				VMOVDQU64(Z3, dst(o))
				VMOVDQU64(Z4, dst(o+64))
			}, block{64, 64, 128})
		}})

	add(&kernel{name: "f8e5m2ToF16AVX512", isa: avx512, from: "F8E5M2", to: "F16",
		doc: []string{"Each byte c becomes the word c<<8: the bytes, in unpack order, interleaved with zeros."},
		body: func() {
			VMOVDQU64(sym("unpackOrder", 0), Z27)
			VPXORD(Z26, Z26, Z26)
			loop(avx512, func(i, o int) {
				VPERMB(src(i), Z27, Z0)
				VPUNPCKLBW(Z0, Z26, Z1)
				VPUNPCKHBW(Z0, Z26, Z2)
				VMOVDQU64(Z1, dst(o))
				VMOVDQU64(Z2, dst(o+64))
			}, block{64, 64, 128})
		}})
}

func f8EncodeAVX512() {
	// cvt4PH converts the 64 float32 at i(SI) to binary16, elements 0..15 into the Y half of
	// r[0], 16..31 of r[1], 32..47 of r[2] and 48..63 of r[3]: the first step of the f32 → f8
	// encoders.
	cvt4PH := func(i int, r ...VecPhysical) {
		for k := range 4 {
			VMOVUPS(src(i+64*k), r[k])
		}
		for k := range 4 {
			VCVTPS2PH(U8(0), r[k], half(r[k]))
		}
	}
	// f32f8 converts 64 float32 to binary16 (VCVTPS2PH, four halves joined in Z0 and Z1) and
	// rounds them to f8 with toF8.
	f32f8 := func(i, o int) {
		cvt4PH(i, Z0, Z1, Z2, Z3)
		VINSERTI64X4(U8(1), Y1, Z0, Z0)
		VINSERTI64X4(U8(1), Y3, Z2, Z1)
		toF8()
		VMOVDQU64(Z3, dst(o))
	}
	lookupDoc := "VPERMI2B lookups of the rounding of each high byte (the tables of f8EncTable, built from the scalar codec)."
	add(&kernel{name: "f32ToF8e4m3AVX512", isa: avx512, from: "F32", to: "F8E4M3",
		doc: []string{"VCVTPS2PH, then " + lookupDoc},
		body: func() {
			toF8Consts("lutE4m3Enc", 0xBFBFBFBF)
			loop(avx512, f32f8, block{64, 256, 64})
		}})

	add(&kernel{name: "f16ToF8e4m3AVX512", isa: avx512, from: "F16", to: "F8E4M3",
		doc: []string{lookupDoc + " Groups of 256 elements whose magnitudes are all in the normal f8e4m3 range take the normal rule alone."},
		body: func() {
			toF8Consts("lutE4m3Enc", 0xBFBFBFBF)
			e4m3NormalConsts(e4m3Range)
			loopFast(avx512, e4m3Normal(e4m3Range, false), func(i, o int) {
				VMOVDQU64(src(i), Z0)
				VMOVDQU64(src(i+64), Z1)
				toF8()
				VMOVDQU64(Z3, dst(o))
			}, nil, block{64, 128, 64})
		}})

	// toE5M2 rounds the 32 binary16 words in r to f8e5m2 in the high byte of each word: NaN
	// lanes (|h| > 0x7C00) become h | 0x0200 (the quieted NaN), the others h + 0x7F + ((h>>8)&1).
	toE5M2 := func(r VecPhysical) {
		VPTESTMW(Z16, r, K2)
		VPADDW(Z13, r, Z3)
		VPADDW(Z12, Z3, K2, Z3)
		VPANDD(Z15, r, Z2)
		VPCMPUW(U8(6), Z14, Z2, K1)
		VPORD(Z11, r, r)
		VPBLENDMW(r, Z3, K1, r)
	}
	add(&kernel{name: "f16ToF8e5m2AVX512", isa: avx512, from: "F16", to: "F8E5M2",
		doc: []string{"h + 0x7F + ((h>>8)&1) in words, a NaN giving h | 0x0200, the high bytes gathered by VPERMT2B; the NaN test left out for groups of 256 elements with no NaN."},
		body: func() {
			e5m2Consts()
			loopFast(avx512, e5m2Route(e5m2F16, Z14, false), func(i, o int) {
				VMOVDQU64(src(i), Z0)
				VMOVDQU64(src(i+64), Z1)
				toE5M2(Z0)
				toE5M2(Z1)
				VPERMT2B(Z1, Z10, Z0)
				VMOVDQU64(Z0, dst(o))
			}, nil, block{64, 128, 64})
		}})
	// The fast route of f32 → f8e5m2 rounds each 16 binary16 from VCVTPS2PH in its Y register;
	// VPERMT2B gathers the high bytes of each pair of Y registers (the first 32 indices of
	// oddBytes), with no joining of halves. Groups with a NaN take the lookups of f32ToF8e4m3's
	// route with lutE5m2Enc.
	add(&kernel{name: "f32ToF8e5m2AVX512", isa: avx512, from: "F32", to: "F8E5M2",
		doc: []string{"VCVTPS2PH, then h + 0x7F + ((h>>8)&1) in words for groups of 256 elements with no NaN, the high bytes gathered by VPERMT2B; other groups take " + lookupDoc},
		body: func() {
			toF8Consts("lutE5m2Enc", 0)
			e5m2Consts()
			loopFast(avx512, e5m2Route(func(i, o int) {
				cvt4PH(i, Z0, Z1, Z3, Z4)
				e5m2Round(Y0, Y0)
				e5m2Round(Y1, Y1)
				e5m2Round(Y3, Y3)
				e5m2Round(Y4, Y4)
				VPERMT2B(Y1, Y10, Y0)
				VPERMT2B(Y4, Y10, Y3)
				VMOVDQU(Y0, dst(o))
				VMOVDQU(Y3, dst(o+32))
			}, Z14, false), f32f8, nil, block{64, 256, 64})
		}})
}

// normalRange is where the fast routes of the f8e4m3 and f8e4m3fnuz encoders apply the normal
// rule: the binary16 high bytes M = H&0x7F from low to low+span, which no encoder of the format
// rounds outside its normal range or past its largest finite value, and whose code is then
// 2M - (low + off) + [L > 0x40] + [L > 0xBF] (L the low byte; the format's three mantissa bits).
type normalRange struct{ low, off, span uint32 }

var (
	// e4m3Range: 2^-6 ≤ |h| < 448 (M 0x24 to 0x5E); the code 2M - 0x40 + the steps.
	e4m3Range = normalRange{low: 0x24, off: 0x1C, span: 0x3A}
	// e4m3fnuzRange: f8e4m3fnuz's bias is one more, so its normal range starts at 2^-7 (M 0x20)
	// and its codes are 8 more (2M - 0x38 + the steps); up to M 0x5A, below 224, nothing rounds
	// past 240.
	e4m3fnuzRange = normalRange{low: 0x20, off: 0x18, span: 0x3A}
)

// e4m3NormalConsts loads the constants of e4m3Normal for the range n: Z17 = 0x7F, Z18 = n.low,
// Z19 = n.off, Z20 = 0x40, Z24 = n.span (bytes).
func e4m3NormalConsts(n normalRange) {
	bcastD(0x7F7F7F7F, Z17)
	bcastD(n.low*0x01010101, Z18)
	bcastD(n.off*0x01010101, Z19)
	bcastD(0x40404040, Z20)
	bcastD(n.span*0x01010101, Z24)
}

// e4m3Normal is the fast route of the f16 → f8e4m3 and f8e4m3fnuz encoders: toF8 for magnitudes
// in the normal range n, high byte M = H&0x7F from n.low to n.low + n.span (for f8e4m3 0x24 to
// 0x5E, 2^-6 ≤ |h| < 448, where every encoder rounds alike and none overflows): there the code is
// c = 2M - (low + off) + [L > 0x40] + [L > 0xBF], so D = H + (M - low - off) + the two steps is c
// with the sign bit of H (c is not zero, so an FNUZ code takes the sign too). The unsigned maximum
// of M - low (modulo 256) goes into Z6 (every M was in range when it is at most span, Z24).
// Constants: e4m3NormalConsts', and toF8Consts' Z25 = 0xBF, Z23 = 0xFF, Z31, Z30. With reload its
// consts load e4m3NormalConsts again, for an exact route that uses those registers.
func e4m3Normal(n normalRange, reload bool) fastRoute {
	return fastRoute{
		fast: func(i, o int) {
			VMOVDQU64(src(i), Z0)
			VMOVDQU64(src(i+64), Z1)
			toF8Split()
			VPANDD(Z17, Z0, Z3)
			VPSUBB(Z18, Z3, Z3)
			VPMAXUB(Z3, Z6, Z6)
			VPSUBB(Z19, Z3, Z3)
			VPCMPUB(U8(6), Z20, Z2, K1)
			VPCMPUB(U8(6), Z25, Z2, K2)
			VPSUBB(Z23, Z3, K1, Z3)
			VPSUBB(Z23, Z3, K2, Z3)
			VPADDB(Z0, Z3, Z3)
			VMOVDQU64(Z3, dst(o))
		},
		ok: func() {
			VPCMPUB(U8(6), Z24, Z6, K1)
			KORTESTQ(K1, K1)
		},
		consts: func() {
			if reload {
				e4m3NormalConsts(n)
			}
			VPXORD(Z6, Z6, Z6)
		},
	}
}

// e5m2Consts loads the constants of e5m2Round, toE5M2 and e5m2F16: Z15 = 0x7FFF, Z14 = 0x7C00,
// Z13 = 0x7F, Z12 = 1, Z11 = 0x0200, Z16 = 0x0100 (words), Z10 = the byte indices 1, 3, …, 127
// (the high bytes of the words of two registers).
func e5m2Consts() {
	bcastW(0x7FFF, Z15)
	bcastW(0x7C00, Z14)
	bcastW(0x7F, Z13)
	bcastW(1, Z12)
	bcastW(0x200, Z11)
	bcastW(0x100, Z16)
	VMOVDQU64(sym("oddBytes", 0), Z10)
}

// e5m2Round is the f8e5m2 rounding without the NaN lanes: d gets the binary16 words in r
// rounded, h + 0x7F + ((h>>8)&1), the code in the high byte, and Z6 the unsigned maximum of its
// magnitudes h&0x7FFF and those before (the rounding is exact when no magnitude is above 0x7C00,
// that is when no lane is NaN; infinities and overflow round to 0x7C). r is a Z register, or a
// Y register (with the Y halves of the constants); d may be r.
func e5m2Round(r, d VecPhysical) { e5m2RoundWith(r, d, Z13, false) }

// e5m2RoundWith is e5m2Round adding add (0x7F, Z13, for e5m2Round) instead of 0x7F, and with
// min also keeping the unsigned minimum of the magnitudes in Z7.
func e5m2RoundWith(r, d, add VecPhysical, min bool) {
	c := func(z VecPhysical) VecPhysical {
		if r.Size() == 32 {
			return half(z)
		}
		return z
	}
	VPANDD(c(Z15), r, c(Z2))
	VPMAXUW(c(Z2), c(Z6), c(Z6))
	if min {
		VPMINUW(c(Z2), c(Z7), c(Z7))
	}
	VPTESTMW(c(Z16), r, K2)
	VPADDW(c(add), r, d)
	VPADDW(c(Z12), d, K2, d)
}

// e5m2F16 is the fast block of the f16 → f8e5m2 encoders: e5m2Round of the 64 binary16 at i(SI),
// the high bytes gathered by VPERMT2B.
func e5m2F16(i, o int) {
	VMOVDQU64(src(i), Z0)
	VMOVDQU64(src(i+64), Z1)
	e5m2Round(Z0, Z3)
	e5m2Round(Z1, Z4)
	VPERMT2B(Z4, Z10, Z3)
	VMOVDQU64(Z3, dst(o))
}

// e5m2Route is the fast route of the f8e5m2 encoders with fast blocks fast (e5m2Round's): a
// group stands when its largest magnitude is at most limit (Z14, 0x7C00: no NaN, for the
// encoders that give infinity's code to overflow; a saturating one's threshold below it). With
// reload its consts load e5m2Consts again.
func e5m2Route(fast body, limit VecPhysical, reload bool) fastRoute {
	return fastRoute{
		fast: fast,
		ok: func() {
			VPCMPUW(U8(6), limit, Z6, K1)
			KORTESTD(K1, K1)
		},
		consts: func() {
			if reload {
				e5m2Consts()
			}
			VPXORD(Z6, Z6, Z6)
		},
	}
}

// e5m2FNUZRoute is the fast route of the f16 → f8e5m2fnuz encoders. f8e5m2fnuz has f8e5m2's
// two mantissa bits and a bias one more, so a binary16 normal's code is its f8e5m2 rounding four
// higher: h + 0x47F + ((h>>8)&1), in the high byte (no carry reaches the sign: the magnitudes
// stop at 0x7B7F, where the code is 0x7F, the largest finite one, with or without saturation).
// A group stands when its magnitudes are all from 0x0400 (no zero, whose sign must go, and no
// binary16 subnormal) to 0x7B7F: Z6 keeps their maximum, Z7 their minimum. Its consts load
// e5m2Consts and Z5 = 0x47F, Z8 = 0x0400, Z9 = 0x7B7F (words), Z6 = 0, Z7 = 0xFFFF.
func e5m2FNUZRoute() fastRoute {
	return fastRoute{
		fast: func(i, o int) {
			VMOVDQU64(src(i), Z0)
			VMOVDQU64(src(i+64), Z1)
			e5m2RoundWith(Z0, Z3, Z5, true)
			e5m2RoundWith(Z1, Z4, Z5, true)
			VPERMT2B(Z4, Z10, Z3)
			VMOVDQU64(Z3, dst(o))
		},
		ok: func() {
			VPCMPUW(U8(6), Z9, Z6, K1)
			VPCMPUW(U8(1), Z8, Z7, K2)
			KORD(K1, K2, K1)
			KORTESTD(K1, K1)
		},
		consts: func() {
			e5m2Consts()
			bcastW(0x47F, Z5)
			bcastW(0x0400, Z8)
			bcastW(0x7B7F, Z9)
			VPXORD(Z6, Z6, Z6)
			VPTERNLOGD(U8(0xFF), Z7, Z7, Z7)
		},
	}
}

// toE5M2FNUZFastAVX2 is toE5M2FastAVX2 for f8e5m2fnuz (see e5m2FNUZRoute): H + 4 + [e5m2UpAVX2 >
// 0] for binary16 normals with M = H&0x7F at most 0x7A (from 0x7B00 some round to 0x7C, whose
// code 0x80 would take the sign bit). Y6 keeps the unsigned maximum of 2M - 8 (modulo 256), at
// most 0xEC (Y7) exactly when every M so far was from 4 to 0x7A. Y8 = 0x08, Y9 = 0x04 (bytes).
func toE5M2FNUZFastAVX2() {
	e5m2UpAVX2()
	VPCMPGTB(Y12, Y4, Y4)
	VPADDB(Y3, Y3, Y0)
	VPSUBB(Y8, Y0, Y0)
	VPMAXUB(Y0, Y6, Y6)
	VPSUBB(Y4, Y3, Y1)
	VPADDB(Y9, Y1, Y1)
}

// e5m2FNUZFastAVX2 is the fast route of the AVX2 f16 → f8e5m2fnuz encoders, toE5M2FNUZFastAVX2.
func e5m2FNUZFastAVX2() fastRoute {
	return fastRoute{
		fast: f16f8AVX2(toE5M2FNUZFastAVX2),
		ok: func() {
			VPSUBUSB(Y7, Y6, Y4)
			VPTEST(Y4, Y4)
		},
		consts: func() {
			toE5M2ConstsAVX2()
			bcastD(0xECECECEC, Y7)
			bcastD(0x08080808, Y8)
			bcastD(0x04040404, Y9)
			VPXOR(Y6, Y6, Y6)
		},
	}
}

// e4m3BF16ConstsAVX2 loads the constants of e4m3BF16BytesAVX2: Y15 = 0x7F, Y14 = 0x07, Y13 =
// 0x80, Y12 = 0x77, Y9 = 0xF0 (bytes), Y11 = e4m3BHi, Y10 = e4m3BLo (see f8e4m3ToF32AVX2).
func e4m3BF16ConstsAVX2() {
	bcastD(0x7F7F7F7F, Y15)
	bcastD(0x80808080, Y13)
	bcastD(0x77777777, Y12)
	bcastD(0x07070707, Y14)
	bcastD(0xF0F0F0F0, Y9)
	VBROADCASTI128(rodata("e4m3BHi", 0x0000000000000078, 0x3C3C3C3C3C3B3B3B), Y11)
	VBROADCASTI128(rodata("e4m3BLo", 0x00000000000000D0, 0x00F0E0D0C09060F0), Y10)
}

// e4m3BF16BytesAVX2 computes, for the 32 f8e4m3 codes in Y0, the high bytes (Y2, sign
// included) and low bytes (Y3) of their bfloat16 values, in byte lanes; it uses Y1, Y4 and Y5.
func e4m3BF16BytesAVX2() {
	VPAND(Y15, Y0, Y1)
	VPCMPEQB(Y15, Y1, Y5)
	VPADDSB(Y12, Y1, Y4)
	VPANDN(Y4, Y5, Y4)
	VPSRLW(U8(4), Y1, Y2)
	VPAND(Y14, Y2, Y2)
	VPSHUFB(Y4, Y11, Y5)
	VPADDB(Y5, Y2, Y2)
	VPSLLW(U8(4), Y1, Y3)
	VPAND(Y9, Y3, Y3)
	VPSHUFB(Y4, Y10, Y5)
	VPADDB(Y5, Y3, Y3)
	VPAND(Y13, Y0, Y5)
	VPOR(Y5, Y2, Y2)
}

// e4m3BF16ConstsAVX512 loads lutE4m3BF16 into Z31:Z30 (the low bytes of the bfloat16 of each
// magnitude 0..127) and Z29:Z28 (the high bytes).
func e4m3BF16ConstsAVX512() {
	VMOVDQU64(sym("lutE4m3BF16", 0), Z30)
	VMOVDQU64(sym("lutE4m3BF16", 64), Z31)
	VMOVDQU64(sym("lutE4m3BF16", 128), Z28)
	VMOVDQU64(sym("lutE4m3BF16", 192), Z29)
}

// e4m3BF16BytesAVX512 looks up, for the 64 f8e4m3 codes in Z0, the low bytes (Z1) and the high
// bytes with the sign ORed in (Z2, with Z26 = 0x80 bytes) of their bfloat16 values.
func e4m3BF16BytesAVX512() {
	VMOVDQA64(Z0, Z1)
	VPERMI2B(Z31, Z30, Z1)
	VMOVDQA64(Z0, Z2)
	VPERMI2B(Z29, Z28, Z2)
	VPTERNLOGD(U8(0xF8), Z26, Z0, Z2)
}

// toF8Consts loads the constants of toF8 (AVX-512): Z31 = the byte indices 0, 2, …, 126 (the
// low bytes of the words of two registers), Z30 = 1, 3, …, 127 (the high bytes), Z29:Z28 = base and Z27:Z26 = thr1 (the
// VPERMI2B tables of table, lutE4m3Enc or lutE5m2Enc), Z25 = s2 bytes (0xBF or 0x00), Z23 =
// 0xFF bytes, Z22 = 0x80 bytes.
func toF8Consts(table string, s2 uint32) {
	toF8Tables(table)
	bcastD(s2, Z25)
	VPTERNLOGD(U8(0xFF), Z23, Z23, Z23)
	bcastD(0x80808080, Z22)
}

// toF8Tables loads the split indices and the tables of toF8Consts: Z31, Z30, Z29:Z28, Z27:Z26.
func toF8Tables(table string) {
	VMOVDQU64(sym("evenBytes", 0), Z31)
	VMOVDQU64(sym("oddBytes", 0), Z30)
	VMOVDQU64(sym(table, 0), Z28)
	VMOVDQU64(sym(table, 64), Z29)
	VMOVDQU64(sym(table, 128), Z26)
	VMOVDQU64(sym(table, 192), Z27)
}

// toF8 rounds the 64 binary16 in Z0 (elements 0..31) and Z1 (32..63) to f8e4m3 or f8e5m2 in
// Z3, in bytes (see lutE4m3Enc): it gathers the high bytes H into Z0 and the low bytes L into
// Z2, looks up base and thr1 by the 7 low bits of H (VPERMI2B ignores the sign bit), adds 1
// where L > thr1 and, in the lanes whose base has the two-step flag (bit 7, VPMOVB2M), 1 more
// where L > s2; then it replaces bit 7 with the sign bit of H. Nine vector ops for 64
// elements, five of them shuffles.
func toF8() {
	toF8Codes()
	toF8Sign()
}

// toF8Codes is toF8 before the sign: the codes in Z3, bit 7 of each not yet the sign (it may
// hold the two-step flag), the high bytes H in Z0 and the low bytes L in Z2.
func toF8Codes() {
	toF8Split()
	VMOVDQA64(Z0, Z3)
	VPERMI2B(Z29, Z28, Z3)
	VMOVDQA64(Z0, Z4)
	VPERMI2B(Z27, Z26, Z4)
	VPMOVB2M(Z3, K3)
	VPCMPUB(U8(6), Z4, Z2, K1)
	VPCMPUB(U8(6), Z25, Z2, K3, K2)
	VPSUBB(Z23, Z3, K1, Z3)
	VPSUBB(Z23, Z3, K2, Z3)
}

// toF8Split gathers the high bytes H of the 64 words in Z0 and Z1 into Z0 and their low bytes L
// into Z2 (Z31 and Z30 hold the indices: toF8Tables).
func toF8Split() {
	VMOVDQA64(Z31, Z2)
	VPERMI2B(Z1, Z0, Z2)
	VPERMT2B(Z1, Z30, Z0)
}

// toF8Sign replaces bit 7 of each code in Z3 with the sign bit of its high byte in Z0.
func toF8Sign() {
	VPTERNLOGD(U8(0xD8), Z22, Z0, Z3)
}

// e5m2FastAVX2 is the fast route of the AVX2 f16 → f8e5m2 encoders, toE5M2FastAVX2: a group
// stands when every M = H&0x7F is at most maxM (0x7B: no NaN and no infinity), which Y6, the
// maximum of 2M, tells against 2·maxM in Y7. Its consts load toE5M2ConstsAVX2 and Y7.
func e5m2FastAVX2(maxM uint32) fastRoute {
	return fastRoute{
		fast: f16f8AVX2(toE5M2FastAVX2),
		ok: func() {
			VPSUBUSB(Y7, Y6, Y4)
			VPTEST(Y4, Y4)
		},
		consts: func() {
			toE5M2ConstsAVX2()
			bcastD(2*maxM*0x01010101, Y7)
			VPXOR(Y6, Y6, Y6)
		},
	}
}
