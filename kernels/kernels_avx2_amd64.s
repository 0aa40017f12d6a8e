//go:build !purego

// AVX2 + F16C kernels. Every kernel has the Go signature func(dst, src *byte, n int) (the 4-bit
// lookups add a table pointer) and converts n elements, n a positive multiple of its block size
// (see kernels_avx2_amd64.go for the scalar loop each one computes). Registers: DI = dst,
// SI = src, CX = elements left; Y8..Y15 hold constants.

#include "textflag.h"

#include "kernels_amd64.h"

#define TAILIN(S, D, N, L8, L1, LE) COPYBYTES(S, D, N, L8, L1, LE)
#define TAILOUT(S, D, N, L8, L1, LE) COPYBYTES(S, D, N, L8, L1, LE)

// ---- f32 <-> f16 -------------------------------------------------------------------------------

// F32F16 converts to a register and stores it: VCVTPS2PH with a memory destination is much
// slower on Zen 4 (docs/perf/README.md, "Kernel design measurements").
#define F32F16(I, O) \
	VMOVUPS I(SI), Y0; \
	VCVTPS2PH $0, Y0, X0; \
	VMOVDQU X0, O(DI)

TEXT ·f32ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOP(F32F16, 8, 32, 16)

#define F16F32(I, O) \
	VCVTPH2PS I(SI), Y0; \
	VMOVUPS Y0, O(DI)

TEXT ·f16ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOP(F16F32, 8, 16, 32)

// ---- bf16 --------------------------------------------------------------------------------------

// BF16_CONSTS: Y13 = 0x8000, Y12 = 0x10000, Y11 = 0x00400000, Y10 = (0, 1) words, Y9 = 0
// (Y14 is the NaN test of f32ToBF16AVX2).
#define BF16_CONSTS \
	BCASTD(0x8000, X13, Y13); \
	BCASTD(0x10000, X12, Y12); \
	BCASTD(0x00400000, X11, Y11); \
	BCASTD(0x00010000, X10, Y10); \
	VPXOR Y9, Y9, Y9

// BF16R rounds the float32 bits x in R to bfloat16, sign-extended into the whole lane: NaN
// lanes (VCMPPS unordered) become (x>>16)|0x40 (x | 0x00400000, the quiet bit), the others
// (x + 0x7FFF + ((x>>16)&1)) >> 16, computed as x + 0x8000 - [bit 16 of x is 0] (VPCMPEQD gives
// -1). VPMADDWD by (0, 1) takes the top word, sign-extended, so that VPACKSSDW packs it
// unchanged. No shift: shifts share two pipes with VCMPPS and the conversions on Zen 4, while
// the integer ALU ops run on four. T1..T3 are scratch.
#define BF16R(R, T1, T2, T3) \
	VPAND Y12, R, T1; \
	VPCMPEQD Y9, T1, T1; \
	VPADDD Y13, R, T2; \
	VPADDD T1, T2, T2; \
	VPOR Y11, R, T1; \
	VCMPPS $3, R, R, T3; \
	VBLENDVPS T3, T1, T2, R; \
	VPMADDWD Y10, R, R

#define F32BF16(I, O) \
	VMOVDQU I(SI), Y0; \
	VMOVDQU I+32(SI), Y4; \
	BF16R(Y0, Y1, Y2, Y3); \
	BF16R(Y4, Y5, Y6, Y7); \
	VPACKSSDW Y4, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VMOVDQU Y0, O(DI)

// BF16FAST(I, R, S, T, U) rounds the 16 float32 at I(SI) to bfloat16 in R (in order) as BF16R
// does, without the NaN lanes: it ORs into Y14 the unordered compare of the two halves (a NaN
// in either sets the lane) instead. S, T and U are scratch.
#define BF16FAST(I, R, S, T, U) \
	VMOVDQU I(SI), R; \
	VMOVDQU I+32(SI), S; \
	VCMPPS $3, S, R, T; \
	VPOR T, Y14, Y14; \
	VPAND Y12, R, T; \
	VPCMPEQD Y9, T, T; \
	VPADDD Y13, R, R; \
	VPADDD T, R, R; \
	VPMADDWD Y10, R, R; \
	VPAND Y12, S, U; \
	VPCMPEQD Y9, U, U; \
	VPADDD Y13, S, S; \
	VPADDD U, S, S; \
	VPMADDWD Y10, S, S; \
	VPACKSSDW S, R, R; \
	VPERMQ $0xD8, R, R

#define BF16FAST32 \
	BF16FAST(0, Y0, Y1, Y2, Y3); \
	BF16FAST(64, Y4, Y5, Y6, Y7)

#define BF16STORE32 \
	VMOVDQU Y0, (DI); \
	VMOVDQU Y4, 32(DI)

// f32ToBF16AVX2 goes through LOOPCHECK: steps of 32 float32 rounded by BF16FAST, with the NaN
// test of every lane ORed into Y14; a block with a NaN is done again, with the rest of the call,
// step by step, and a step whose test is set goes through F32BF16, which handles NaN lanes (a
// NaN is rare, and the test costs two ops per 16 lanes against six).
#define BF16RESET VPXOR Y14, Y14, Y14
#define BF16BAD VPTEST Y14, Y14
#define BF16FIX \
	F32BF16(0, 0); \
	F32BF16(64, 32)

TEXT ·f32ToBF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	BF16_CONSTS
	LOOPCHECK(BF16FAST32, BF16RESET, BF16BAD, BF16STORE32, BF16FIX, 32, 128, 64, F32BF16, 16, 64, 32)

// ---- f16 <-> bf16 on the exact integer route ---------------------------------------------------
//
// Real tensors hold zeros and normal numbers, and between f16 and bf16 those convert by integer
// arithmetic on a = h & 0x7FFF, the sign h ^ a ORed back:
//   - f16 → bf16, a normal f16 (0x0400 ≤ a ≤ 0x7BFF): a>>3 + (112<<7) (the exponent rebiased from
//     15 to 127, the 10-bit mantissa cut to 7), rounded to nearest even on the 3 dropped bits;
//   - bf16 → f16, a bf16 in the f16 normal range (0x3880 ≤ a ≤ 0x477F, exact in f16):
//     (a - (112<<7)) << 3;
//   - ±0 stays ±0.
// The kernels convert groups of 256 elements that way (LOOPFAST) and keep a running VPMAXUW
// (Y10) and VPMINUW of a value less 1 (Y9, where a zero wraps to 0xFFFF and so never lowers it):
// a of the source for bf16 → f16 (HALFFAST), the magnitude of the result for f16 → bf16
// (F16BF16H). When both stay within the range of the values the route gets right, the group is
// exact and done. Otherwise LOOPFAST converts the group again, storing over the same bytes, by
// the kernel's exact float route (F16BF16, BF16F16), which handles every pattern: a lone special
// value costs one wasted integer pass over its group, data with many (random bit patterns)
// waste it on one group in 17 at most. The elements after the last whole group go through the
// float route in LOOP. Y8 = all ones.

// WORDS32(NAME, Q) defines NAME<>, 32 read-only bytes holding the quadword Q four times (a
// 16-bit constant in every word lane, for memory operands).
#define WORDS32(NAME, Q) \
	DATA NAME<>+0(SB)/8, $Q; \
	DATA NAME<>+8(SB)/8, $Q; \
	DATA NAME<>+16(SB)/8, $Q; \
	DATA NAME<>+24(SB)/8, $Q; \
	GLOBL NAME<>(SB), RODATA|NOPTR, $32

WORDS32(words7FFF, 0x7FFF7FFF7FFF7FFF)
WORDS32(words3800, 0x3800380038003800)
WORDS32(words477F, 0x477F477F477F477F)
WORDS32(words387F, 0x387F387F387F387F)
WORDS32(words8EFE, 0x8EFE8EFE8EFE8EFE)
WORDS32(words7101, 0x7101710171017101)

// HALFA loads the 16 words at I(SI) into H, their a = h & 0x7FFF into A, and folds a into the
// block's range test: Y10 = max(Y10, a), Y9 = min(Y9, a - 1) (unsigned). T is scratch.
#define HALFA(I, H, A, T) \
	VMOVDQU I(SI), H; \
	VPAND words7FFF<>(SB), H, A; \
	VPADDW Y8, A, T; \
	VPMINUW T, Y9, Y9; \
	VPMAXUW A, Y10, Y10

// HALFTEST sets ZF when the range test passed: max(a) ≤ HI and min(a - 1) ≥ LOM1 = LO - 1 in
// every lane (VPSUBUSW leaves 0 exactly then); HI and LOM1 are memory operands. It uses Y2 and Y3.
#define HALFTEST(HI, LOM1) \
	VMOVDQU LOM1, Y3; \
	VPSUBUSW HI, Y10, Y2; \
	VPSUBUSW Y9, Y3, Y3; \
	VPOR Y3, Y2, Y2; \
	VPTEST Y2, Y2

// HALFRESET starts a new range test.
#define HALFRESET \
	VMOVDQA Y8, Y9; \
	VPXOR Y10, Y10, Y10

// BF16F16X is the integer route of bf16 → f16: the saturating a - 0x3800 is 0 for a zero, and
// shifted left by 3 it is the binary16 magnitude (the shift drops no set bit in range); last the
// sign h ^ a.
#define BF16F16X(H, A, T, U) \
	VPSUBUSW words3800<>(SB), A, T; \
	VPSLLW $3, T, T; \
	VPXOR A, H, H; \
	VPOR T, H, H

// HALFFAST(X, I, O) is LOOPFAST's fast route for the integer route X: 64 elements (four HALFA
// and X of 16). HALFSLOW(SLOW, I, O) is the exact route for the same 64 elements, SLOW being a
// body of 16 (F16BF16, BF16F16).
#define HALFFAST(X, I, O) \
	HALFA(I, Y0, Y1, Y2); \
	HALFA(I+32, Y4, Y5, Y6); \
	X(Y0, Y1, Y2, Y3); \
	X(Y4, Y5, Y6, Y7); \
	VMOVDQU Y0, O(DI); \
	VMOVDQU Y4, O+32(DI); \
	HALFA(I+64, Y0, Y1, Y2); \
	HALFA(I+96, Y4, Y5, Y6); \
	X(Y0, Y1, Y2, Y3); \
	X(Y4, Y5, Y6, Y7); \
	VMOVDQU Y0, O+64(DI); \
	VMOVDQU Y4, O+96(DI)

#define HALFSLOW(SLOW, I, O) BLOCKS4(SLOW, I, O, 32, 32)

// F16BF16 rounds the exact float32 x of each binary16 (VCVTPH2PS) to bfloat16 with float
// arithmetic: y = (x + M) - M, M = ±2^(e+16) (the sign and exponent field of x, plus 16 in the
// exponent field: integer AND and ADD). x + M lies in M's binade, whose spacing is 2^(e-7), the
// spacing of 8-bit significands at x's exponent e, and M is an even multiple of it, so the
// addition rounds x to bfloat16 to nearest even and the subtraction is exact. A binary16 has e ≤
// 15, so M never overflows; ±inf and NaN give a finite M (the field wraps) and come out unchanged,
// the NaN quiet (VCVTPH2PS sets the bit) with its payload, whose top 16 bits are the generic
// x>>16 | 0x40. Only -0 comes out +0: the binary16 sign is ORed back into the words at the end.
// The addition is an FMA, 1·x + M (one rounding, the same result), and VPMADDWD by (0, 1) takes
// the top word of y sign-extended for VPACKSSDW (then VPERMQ for the lane order): on Zen 4 the
// FMA and VPMADDWD run on the multiplier pipes, leaving the two pipes of VCVTPH2PS, VSUBPS and
// the shifts less loaded, which is faster than VADDPS and VPSRLD (docs/perf/README.md).
#define F16BF16R(R, T) \
	VPAND Y15, R, T; \
	VPADDD Y14, T, T; \
	VFMADD213PS T, Y11, R; \
	VSUBPS T, R, R; \
	VPMADDWD Y12, R, R

#define F16BF16(I, O) \
	VCVTPH2PS I(SI), Y0; \
	VCVTPH2PS I+16(SI), Y1; \
	F16BF16R(Y0, Y2); \
	F16BF16R(Y1, Y3); \
	VPACKSSDW Y1, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VPAND I(SI), Y13, Y4; \
	VPOR Y4, Y0, Y0; \
	VMOVDQU Y0, O(DI)

// F16BF16H2 is the integer route of f16 → bf16 for the 32 words at I(SI), stored at O(DI), on h
// itself, sign included. With a = h & 0x7FFF and q = h >> 2 (VPSRAW, arithmetic), the result is
// VPAVGW(q + m, B) = (q + m + B + 1) >> 1 (in 17 bits), where m = -1 when h&0xF = 4 (Y11 = 0xF,
// Y12 = 4; dropped bits exactly a half and kept mantissa even: the only case where rounding the
// 3 dropped bits half up, (q + 1) >> 1, is wrong), else 0, and B = VPSIGNW(0x7000, h) (Y14):
//   - h > 0: q = a>>2, B = 0x7000, R = rne(a>>3) + 0x3800 (112<<7, the exponent rebias);
//   - h = +0: q = m = B = 0, R = 0;
//   - h < 0: q = 0xE000 + a>>2, B = 0x9000 (-0x7000), R = (0x17000 + a>>2 + m + 1) >> 1 =
//     0xB800 + rne(a>>3) = 0x8000 | (rne(a>>3) + 0x3800).
// The range test is on 2R (VPADDW, the magnitude of R shifted left): R & 0x7FFF is rne(a>>3) +
// 0x3800 for every h but +0, so 2R in [0x7102, 0x8EFE] means rne(a>>3) in [0x81, 0xF7F], a
// normal f16 (the route is right for those, and for +0, where 2R = 0). -0 gives 2R = 0x7000
// and fails the test, as do the few normals with rne(a>>3) = 0x80 or 0xF80 (their group takes
// the exact route). 10 ops a vector, one on the multiply pipes of Zen 4 (VPSIGNW) and one on the
// shift pipes, the rest on any of the four, and no memory operand but the source. The two
// vectors are interleaved op by op. This beat the route on a with the sign ORed back (12 ops,
// 4 of them with memory operands) and a variant with VPMULHRSW by 2^12 for the rounding and
// VPADDW of VPSIGNW(0x3800, h) instead of VPSRAW and VPAVGW (cycle counts in
// docs/perf/README.md, "Kernel design measurements").
#define F16BF16H2(I, O) \
	VMOVDQU I(SI), Y0; \
	VMOVDQU I+32(SI), Y4; \
	VPAND Y11, Y0, Y1; \
	VPAND Y11, Y4, Y5; \
	VPCMPEQW Y12, Y1, Y1; \
	VPCMPEQW Y12, Y5, Y5; \
	VPSRAW $2, Y0, Y3; \
	VPSRAW $2, Y4, Y7; \
	VPADDW Y3, Y1, Y1; \
	VPADDW Y7, Y5, Y5; \
	VPSIGNW Y0, Y14, Y2; \
	VPSIGNW Y4, Y14, Y6; \
	VPAVGW Y2, Y1, Y3; \
	VPAVGW Y6, Y5, Y7; \
	VMOVDQU Y3, O(DI); \
	VMOVDQU Y7, O+32(DI); \
	VPADDW Y3, Y3, Y2; \
	VPADDW Y7, Y7, Y6; \
	VPADDW Y8, Y2, Y1; \
	VPADDW Y8, Y6, Y5; \
	VPMINUW Y1, Y9, Y9; \
	VPMAXUW Y2, Y10, Y10; \
	VPMINUW Y5, Y9, Y9; \
	VPMAXUW Y6, Y10, Y10

#define F16BF16F(I, O) \
	F16BF16H2(I, O); \
	F16BF16H2(I+64, O+64)

#define F16BF16S(I, O) HALFSLOW(F16BF16, I, O)
#define F16BF16OK HALFTEST(words8EFE<>(SB), words7101<>(SB))

// F16BF16FCONSTS: Y11 = 0xF, Y12 = 4, Y14 = 0x7000 (words) for the integer route;
// F16BF16CONSTS: Y14 = 16 in the exponent field, Y13 = 0x8000 words, Y12 = (0, 1) words,
// Y11 = 1.0 for the float route, with Y15 = 0xFF800000.
#define F16BF16FCONSTS \
	HALFRESET; \
	BCASTD(0x000F000F, X11, Y11); \
	BCASTD(0x00040004, X12, Y12); \
	BCASTD(0x70007000, X14, Y14)

#define F16BF16CONSTS \
	BCASTD(0x08000000, X14, Y14); \
	BCASTD(0x80008000, X13, Y13); \
	BCASTD(0x00010000, X12, Y12); \
	BCASTD(0x3F800000, X11, Y11)

TEXT ·f16ToBF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	BCASTD(0xFF800000, X15, Y15)
	VPCMPEQW Y8, Y8, Y8
	LOOPFAST(F16BF16F, F16BF16OK, F16BF16S, F16BF16FCONSTS, F16BF16CONSTS, 64, 128, 128)

#define BF16F32(I, O) \
	VPMOVZXWD I(SI), Y0; \
	VPSLLD $16, Y0, Y0; \
	VMOVDQU Y0, O(DI)

TEXT ·bf16ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOP(BF16F32, 8, 16, 32)

// BF16F16 widens the even bfloat16 of 16 to float32 by a shift and the odd ones by a mask
// (Y15 = 0xFFFF0000), which needs no shuffle, converts both with VCVTPS2PH to a register (the
// memory form is slower) and interleaves the two halves again (VPUNPCKLWD, VPUNPCKHWD).
#define BF16F16(I, O) \
	VMOVDQU I(SI), Y1; \
	VPSLLD $16, Y1, Y0; \
	VPAND Y15, Y1, Y1; \
	VCVTPS2PH $0, Y0, X0; \
	VCVTPS2PH $0, Y1, X1; \
	VPUNPCKLWD X1, X0, X2; \
	VPUNPCKHWD X1, X0, X3; \
	VMOVDQU X2, O(DI); \
	VMOVDQU X3, O+16(DI)

#define BF16F16F(I, O) HALFFAST(BF16F16X, I, O)
#define BF16F16S(I, O) HALFSLOW(BF16F16, I, O)
#define BF16F16OK HALFTEST(words477F<>(SB), words387F<>(SB))

TEXT ·bf16ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	BCASTD(0xFFFF0000, X15, Y15)
	VPCMPEQW Y8, Y8, Y8
	LOOPFAST(BF16F16F, BF16F16OK, BF16F16S, HALFRESET, NOCONSTS, 64, 128, 128)

// ---- f8 -> f16, f32 ----------------------------------------------------------------------------

// f8e4m3 -> binary16, 32 bytes a step. Every f8e4m3 value's binary16 is s<<15 | y<<7 with s the
// sign and y = h>>7 an 8-bit number (its low seven bits are zero): y = m + 0x40 for the normal
// magnitudes m = c&0x7F in 8..0x7E, the binary16 of m·2^-9 shifted right by 7 (0, 0x30, 0x38,
// 0x3C, 0x40, 0x42, 0x44, 0x46) for m < 8 and 0xFC (0x7E00) for the NaN code m = 0x7F. E4M3F16
// computes y in byte lanes from z = (c+1)&0x7F, which moves the NaN code to 0 and puts the nine
// special codes in 0..8 (m = z-1 otherwise): the index VPADDSB(z, 0x76) is 0x76..0x7E for them
// (entries 6..14 of the VPSHUFB table e4m3Y) and saturates to 0x7F (entry 15) for the normal
// codes, and y = z + e4m3Y[index], with 0x3F at entry 15. The byte unpacks then pair each y (low
// byte) with S = 0xFF for a negative c, 0 otherwise (VPCMPGTB, high byte), and VPSLLW by 7 turns
// the word S<<8 | y into s<<15 | y<<7: two unpacks and two shifts for 64 bytes of stores, 15
// instructions a step where a high and low byte route (VPAVGB and two tables) takes 17, and
// faster in L1; VPMULLW by 128 instead of the shifts is no faster (docs/perf/README.md).
DATA e4m3Y<>+0(SB)/8, $0xFFFC000000000000
DATA e4m3Y<>+8(SB)/8, $0x3F3E3D3C3B38352E
GLOBL e4m3Y<>(SB), RODATA|NOPTR, $16

// E4M3IDX and E4M3SIGN are steps of the f8e4m3 decoder to bfloat16 bytes (E4M3F32). With c in Y0: E4M3IDX puts m = c&0x7F in Y1 and the table index VPADDSB(m, 0x77) in Y4,
// cleared to 0 for the NaN code m = 0x7F (Y15 = 0x7F, Y12 = 0x77; Y5 is scratch); E4M3SIGN ORs
// the sign c&0x80 (Y13) into the high bytes in Y2.
#define E4M3IDX \
	VPAND Y15, Y0, Y1; \
	VPCMPEQB Y15, Y1, Y5; \
	VPADDSB Y12, Y1, Y4; \
	VPANDN Y4, Y5, Y4

#define E4M3SIGN \
	VPAND Y13, Y0, Y5; \
	VPOR Y5, Y2, Y2

// E4M3IDX_CONSTS loads the constants of E4M3IDX and E4M3SIGN: Y15 = 0x7F, Y13 = 0x80,
// Y12 = 0x77 (bytes).
#define E4M3IDX_CONSTS \
	BCASTD(0x7F7F7F7F, X15, Y15); \
	BCASTD(0x80808080, X13, Y13); \
	BCASTD(0x77777777, X12, Y12)

// E4M3F16 puts the quadwords of the source in the order 0, 2, 1, 3 (VPERMQ), so that the byte
// unpacks, which work within 128-bit lanes, give elements 0..15 and 16..31 (VPERMQ from a
// register after a load: the memory-operand form makes the step slower). Constants
// (E4M3F16_CONSTS): Y15 = 0x7F, Y14 = 0x76 (bytes), Y13 = e4m3Y (both lanes), Y12 = 0,
// Y11 = all ones.
#define E4M3F16(I, O) \
	VMOVDQU I(SI), Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VPSUBB Y11, Y0, Y1; \
	VPAND Y15, Y1, Y1; \
	VPADDSB Y14, Y1, Y2; \
	VPSHUFB Y2, Y13, Y2; \
	VPADDB Y2, Y1, Y1; \
	VPCMPGTB Y0, Y12, Y3; \
	VPUNPCKLBW Y3, Y1, Y4; \
	VPUNPCKHBW Y3, Y1, Y5; \
	VPSLLW $7, Y4, Y4; \
	VPSLLW $7, Y5, Y5; \
	VMOVDQU Y4, O(DI); \
	VMOVDQU Y5, O+32(DI)

#define E4M3F16_CONSTS \
	BCASTD(0x7F7F7F7F, X15, Y15); \
	BCASTD(0x76767676, X14, Y14); \
	VBROADCASTI128 e4m3Y<>(SB), Y13; \
	VPXOR Y12, Y12, Y12; \
	VPCMPEQB Y11, Y11, Y11

TEXT ·f8e4m3ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	E4M3F16_CONSTS
	LOOP(E4M3F16, 32, 32, 64)

// f8e4m3 -> float32 goes through bfloat16 bytes (the top half of the exact float32), computed
// in byte lanes: with m = c&0x7F, a normal m (8..0x7E) is m<<4 + 0x3C00, high byte (m>>4) + 0x3C,
// low byte (m<<4)&0xF0 (VPSRLW, VPSLLW and a mask each: the shifts work on words). The index
// VPADDSB(m, 0x77), 0 for the NaN code, picks from two VPSHUFB tables what to add (modulo 256):
// e4m3BHi holds 0x3C for the normal codes, the high byte of m·2^-9 for m < 8 (where m>>4 = 0),
// and 0x7F - 7 for the NaN 0x7FC0; e4m3BLo holds the low byte minus (m<<4)&0xF0 (0 for the
// normal codes). The sign c&0x80 goes into the high byte. Unpacking bytes to words and then
// words to dwords under a zero low half widens them to float32 with shuffles only (VCVTPH2PS
// costs more); the source dwords are first put in the order 0, 2, 4, 6, 1, 3, 5, 7 (VPERMD,
// nibPermD), so that the four results hold elements 0..7, 8..15, 16..23 and 24..31.
DATA e4m3BHi<>+0(SB)/8, $0x0000000000000078
DATA e4m3BHi<>+8(SB)/8, $0x3C3C3C3C3C3B3B3B
GLOBL e4m3BHi<>(SB), RODATA|NOPTR, $16

DATA e4m3BLo<>+0(SB)/8, $0x00000000000000D0
DATA e4m3BLo<>+8(SB)/8, $0x00F0E0D0C09060F0
GLOBL e4m3BLo<>(SB), RODATA|NOPTR, $16

// E4M3BF_CONSTS: Y15 = 0x7F, Y14 = 0x07, Y13 = 0x80, Y12 = 0x77, Y9 = 0xF0 (bytes), Y11 =
// e4m3BHi, Y10 = e4m3BLo, Y8 = nibPermD, Y7 = 0.
#define E4M3BF_CONSTS \
	E4M3IDX_CONSTS; \
	BCASTD(0x07070707, X14, Y14); \
	BCASTD(0xF0F0F0F0, X9, Y9); \
	VBROADCASTI128 e4m3BHi<>(SB), Y11; \
	VBROADCASTI128 e4m3BLo<>(SB), Y10; \
	VMOVDQU nibPermD<>(SB), Y8; \
	VPXOR Y7, Y7, Y7

// E4M3F32 decodes 32 f8e4m3 bytes at I(SI) into bfloat16 high bytes (Y2) and low bytes (Y3),
// then widens them to float32.
#define E4M3F32(I, O) \
	VPERMD I(SI), Y8, Y0; \
	E4M3IDX; \
	VPSRLW $4, Y1, Y2; \
	VPAND Y14, Y2, Y2; \
	VPSHUFB Y4, Y11, Y5; \
	VPADDB Y5, Y2, Y2; \
	VPSLLW $4, Y1, Y3; \
	VPAND Y9, Y3, Y3; \
	VPSHUFB Y4, Y10, Y5; \
	VPADDB Y5, Y3, Y3; \
	E4M3SIGN; \
	VPUNPCKLBW Y2, Y3, Y4; \
	VPUNPCKHBW Y2, Y3, Y5; \
	VPUNPCKLWD Y4, Y7, Y0; \
	VPUNPCKHWD Y4, Y7, Y1; \
	VPUNPCKLWD Y5, Y7, Y2; \
	VPUNPCKHWD Y5, Y7, Y3; \
	VMOVDQU Y0, O(DI); \
	VMOVDQU Y1, O+32(DI); \
	VMOVDQU Y2, O+64(DI); \
	VMOVDQU Y3, O+96(DI)

TEXT ·f8e4m3ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	E4M3BF_CONSTS
	LOOP(E4M3F32, 32, 32, 128)

#define E5M2F16(I, O) \
	VPMOVZXBW I(SI), Y0; \
	VPSLLW $8, Y0, Y0; \
	VMOVDQU Y0, O(DI)

TEXT ·f8e5m2ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOP(E5M2F16, 16, 16, 32)

#define E5M2F32(I, O) \
	VPMOVZXBW I(SI), X0; \
	VPSLLW $8, X0, X0; \
	VCVTPH2PS X0, Y0; \
	VMOVUPS Y0, O(DI)

TEXT ·f8e5m2ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOP(E5M2F32, 8, 8, 32)

// ---- f32, f16 -> f8 ----------------------------------------------------------------------------

// The f8 encoders work on bytes: SPLITHL separates the binary16 values into their high bytes H
// (sign, exponent, top two mantissa bits) and low bytes L (the other eight mantissa bits), 32 of
// each per register, and the rounding is then decided byte by byte, 32 lanes an instruction.

// splitHL holds the VPSHUFB indices that gather, in each 16-byte lane of eight words, the low
// bytes into the lane's first eight bytes and the high bytes into its last eight.
DATA splitHL<>+0(SB)/8, $0x0E0C0A0806040200
DATA splitHL<>+8(SB)/8, $0x0F0D0B0907050301
GLOBL splitHL<>(SB), RODATA|NOPTR, $16

// SPLITHL turns the 32 binary16 words of Y0 (elements A) and Y1 (elements B), with the splitHL
// indices in Y15, into their low bytes in Y2 and high bytes in Y3: in each 128-bit lane, the 8
// bytes of A's lane then the 8 of B's. Y0 and Y1 are clobbered.
#define SPLITHL \
	VPSHUFB Y15, Y0, Y0; \
	VPSHUFB Y15, Y1, Y1; \
	VPUNPCKLQDQ Y1, Y0, Y2; \
	VPUNPCKHQDQ Y1, Y0, Y3

// TOE4M3_CONSTS: Y15 = splitHL (both lanes), Y14 = 0x7F, Y13 = 0x80, Y12 = 0x20, Y11 = 0x0C,
// Y10 = the subnormal bases and Y9 the complemented thresholds (lutE4m3Sub), Y8 = 0xC0,
// Y7 = 0x3F (bytes).
#define TOE4M3_CONSTS \
	VBROADCASTI128 splitHL<>(SB), Y15; \
	BCASTD(0x7F7F7F7F, X14, Y14); \
	BCASTD(0x80808080, X13, Y13); \
	BCASTD(0x20202020, X12, Y12); \
	BCASTD(0x0C0C0C0C, X11, Y11); \
	VBROADCASTI128 ·lutE4m3Sub+0(SB), Y10; \
	VBROADCASTI128 ·lutE4m3Sub+16(SB), Y9; \
	BCASTD(0xC0C0C0C0, X8, Y8); \
	BCASTD(0x3F3F3F3F, X7, Y7)

// TOE4M3 rounds the binary16 values with low bytes L in Y2 and high bytes H in Y3 to f8e4m3,
// into Y1 (Y0 and Y2..Y5 are clobbered): F8E4M3FromF16 in 17 byte operations. With M = H&0x7F
// (the magnitude is a = M<<8 | L) and Lx = L^0x80 (signed byte compares of Lx order L as
// unsigned), it computes two candidates and keeps the larger (signed):
//   - n, the normal rule: (a - 0x2000 + 0x3F + bit 7 of a) >> 7 is 2(M-0x20) + [L > 0x40] +
//     [L > 0xBF], L rounded to the nearest multiple of 0x80, ties to even. VPADDSB and VPSUBSB
//     compute it with signed saturation, so that every code above 0x7E (magnitudes over 464,
//     ±Inf, NaN) comes out as 0x7F, the NaN code.
//   - s, the rule below 2^-6: there the code rises by at most one within a 256-value block of
//     a (see f8EncTable), so it is base + [L > thr], with base and thr read from 16-entry
//     tables (VPSHUFB) indexed by M - 0x14. For M < 0x14 (a < 2^-10, which rounds to 0) the
//     index is negative and VPSHUFB gives 0: base 0, and the stored ^thr, xored with 0x7F,
//     becomes the threshold 0x7F that no Lx exceeds, so s = 0.
// max(n, s) is the code: for M ≥ 0x24, n ≥ 8 and s ≤ 8 (s is then some table entry, at most
// 7 + 1); for 0x20 ≤ M < 0x24, with m = a - 0x2000 < 0x400, n = RNE(m/128) ≤ RNE(4 + m/256) = s
// as m/128 ≤ 4 + m/256; for M < 0x20, n ≤ 2·(-1) + 2 = 0 ≤ s. Then the sign bit of H.
#define TOE4M3 \
	VPXOR Y13, Y2, Y2; \
	VPAND Y14, Y3, Y0; \
	VPAND Y13, Y3, Y3; \
	VPSUBB Y12, Y0, Y0; \
	VPADDB Y11, Y0, Y1; \
	VPSHUFB Y1, Y10, Y4; \
	VPSHUFB Y1, Y9, Y1; \
	VPXOR Y14, Y1, Y1; \
	VPCMPGTB Y1, Y2, Y1; \
	VPSUBB Y1, Y4, Y4; \
	VPADDSB Y0, Y0, Y1; \
	VPCMPGTB Y8, Y2, Y5; \
	VPSUBSB Y5, Y1, Y1; \
	VPCMPGTB Y7, Y2, Y5; \
	VPSUBSB Y5, Y1, Y1; \
	VPMAXSB Y4, Y1, Y1; \
	VPOR Y3, Y1, Y1

// F32F8 converts 32 float32 to binary16 (VCVTPS2PH rounds to nearest even as F16FromF32 does,
// and gives the same NaNs, quiet), joining the halves so that SPLITHL puts the bytes in element
// order (Y0 = elements 0..7 and 16..23, Y1 = 8..15 and 24..31), and rounds them to f8 with
// ROUND, which leaves the 32 codes in Y1.
#define F32F8(I, O, ROUND) \
	VMOVUPS I(SI), Y0; \
	VMOVUPS I+64(SI), Y1; \
	VMOVUPS I+32(SI), Y2; \
	VMOVUPS I+96(SI), Y3; \
	VCVTPS2PH $0, Y0, X0; \
	VCVTPS2PH $0, Y1, X1; \
	VCVTPS2PH $0, Y2, X2; \
	VCVTPS2PH $0, Y3, X3; \
	VINSERTI128 $1, X1, Y0, Y0; \
	VINSERTI128 $1, X3, Y2, Y1; \
	SPLITHL; \
	ROUND; \
	VMOVDQU Y1, O(DI)

// F16F8 rounds 32 binary16 with ROUND; SPLITHL leaves the bytes in the order 0..7, 16..23,
// 8..15, 24..31, which VPERMQ sorts.
#define F16F8(I, O, ROUND) \
	VMOVDQU I(SI), Y0; \
	VMOVDQU I+32(SI), Y1; \
	SPLITHL; \
	ROUND; \
	VPERMQ $0xD8, Y1, Y1; \
	VMOVDQU Y1, O(DI)

#define F32E4M3(I, O) F32F8(I, O, TOE4M3)
#define F16E4M3(I, O) F16F8(I, O, TOE4M3)

// TOE4M3FAST_CONSTS: Y15 = splitHL (both lanes), Y14 = 0x7F, Y13 = 0x80, Y12 = 0x1C, Y11 = 0x24,
// Y10 = 0x3A, Y8 = 0xC0, Y7 = 0x3F (bytes), Y6 = 0 (the range of TOE4M3FAST).
#define TOE4M3FAST_CONSTS \
	VBROADCASTI128 splitHL<>(SB), Y15; \
	BCASTD(0x7F7F7F7F, X14, Y14); \
	BCASTD(0x80808080, X13, Y13); \
	BCASTD(0x1C1C1C1C, X12, Y12); \
	BCASTD(0x24242424, X11, Y11); \
	BCASTD(0x3A3A3A3A, X10, Y10); \
	BCASTD(0xC0C0C0C0, X8, Y8); \
	BCASTD(0x3F3F3F3F, X7, Y7); \
	VPXOR Y6, Y6, Y6

// TOE4M3FAST is TOE4M3 for binary16 magnitudes in the normal f8e4m3 range, high byte M = H&0x7F
// from 0x24 to 0x5E (2^-6 ≤ |h| < 448), where the code is just c = 2M - 0x40 + [L > 0x40] +
// [L > 0xBF] (8 ≤ c ≤ 0x7E): it adds d = c - M = M - 0x40 + [L > 0x40] + [L > 0xBF] to H, which
// is c with H's sign bit, in 10 simple byte operations. Y6 keeps the unsigned maximum of M - 0x24
// (modulo 256), which is at most 0x3A exactly when every M so far was in 0x24..0x5E (E4M3FASTOK).
#define TOE4M3FAST \
	VPXOR Y13, Y2, Y2; \
	VPAND Y14, Y3, Y0; \
	VPSUBB Y11, Y0, Y0; \
	VPMAXUB Y0, Y6, Y6; \
	VPSUBB Y12, Y0, Y0; \
	VPCMPGTB Y8, Y2, Y4; \
	VPSUBB Y4, Y0, Y0; \
	VPCMPGTB Y7, Y2, Y4; \
	VPSUBB Y4, Y0, Y0; \
	VPADDB Y0, Y3, Y1

// E4M3FASTOK sets ZF when every byte of Y6 is at most 0x3A (Y10), that is when TOE4M3FAST got
// every code right since TOE4M3FAST_CONSTS.
#define E4M3FASTOK \
	VPSUBUSB Y10, Y6, Y4; \
	VPTEST Y4, Y4

#define F32E4M3FAST(I, O) F32F8(I, O, TOE4M3FAST)

TEXT ·f32ToF8e4m3AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOPFAST(F32E4M3FAST, E4M3FASTOK, F32E4M3, TOE4M3FAST_CONSTS, TOE4M3_CONSTS, 32, 128, 32)

#define F16E4M3FAST(I, O) F16F8(I, O, TOE4M3FAST)

TEXT ·f16ToF8e4m3AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOPFAST(F16E4M3FAST, E4M3FASTOK, F16E4M3, TOE4M3FAST_CONSTS, TOE4M3_CONSTS, 32, 64, 32)

// TOE5M2_CONSTS: Y15 = splitHL (both lanes), Y14 = 0x7F, Y13 = 0x80, Y12 = 0, Y11 = 0x01,
// Y10 = 0x3E, Y9 = 0x02, Y8 = 0x7E (bytes).
#define TOE5M2_CONSTS \
	VBROADCASTI128 splitHL<>(SB), Y15; \
	BCASTD(0x7F7F7F7F, X14, Y14); \
	BCASTD(0x80808080, X13, Y13); \
	VPXOR Y12, Y12, Y12; \
	BCASTD(0x01010101, X11, Y11); \
	BCASTD(0x3E3E3E3E, X10, Y10); \
	BCASTD(0x02020202, X9, Y9); \
	BCASTD(0x7E7E7E7E, X8, Y8)

// E5M2UP sets Y4 to Lx | (H&1), with Lx = L^0x80 signed, whose being positive is whether the
// f8e5m2 code rounds up: F8E5M2FromF16 adds 0x7F + (H&1) to the magnitude and keeps its high
// byte, so the code is H + [L + (H&1) > 0x80], that is Lx > -(H&1) (for odd H, Lx ≥ 0). L in Y2
// and H in Y3 are kept; Y0 is clobbered. No shuffle or saturating operation: the ports those
// use are the busy ones.
#define E5M2UP \
	VPXOR Y13, Y2, Y4; \
	VPAND Y11, Y3, Y0; \
	VPOR Y0, Y4, Y4

// TOE5M2Q rounds binary16 values with low bytes L in Y2 and high bytes H in Y3 to f8e5m2 in Y1,
// for values whose NaNs are quiet (from VCVTPS2PH), in seven simple byte operations: H + [up > 0]
// (the sign stays in place: no magnitude up to 0x7C00 carries into it), except that a NaN keeps
// H, which is F8E5M2FromF16's H | 0x02 for a quiet NaN. The NaNs are exactly the H with bits 1..6
// set (M = H&0x7F > 0x7D: every other value is at most 0x7C00), for which X = ^H & 0x7E is 0; X is
// positive for the others, so [min(up, X) > 0] (signed) is the rounding step.
#define TOE5M2Q \
	E5M2UP; \
	VPANDN Y8, Y3, Y0; \
	VPMINSB Y0, Y4, Y4; \
	VPCMPGTB Y12, Y4, Y4; \
	VPSUBB Y4, Y3, Y1

// TOE5M2 rounds any binary16 values, low bytes L in Y2 and high bytes H in Y3, to f8e5m2 in Y1
// (Y0, Y2 and Y3 are clobbered): H + [E5M2UP > 0], except that a NaN (M<<8 | L > 0x7C00, that is
// M + [L ≠ 0] ≥ 0x7D, or VPAVGB(M, [L ≠ 0]) = (M + [L ≠ 0] + 1) >> 1 > 0x3E, computed in 9 bits)
// gives H | 0x02 (VPBLENDVB).
#define TOE5M2 \
	E5M2UP; \
	VPCMPGTB Y12, Y4, Y4; \
	VPSUBB Y4, Y3, Y1; \
	VPMINUB Y11, Y2, Y2; \
	VPAND Y14, Y3, Y0; \
	VPAVGB Y2, Y0, Y0; \
	VPCMPGTB Y10, Y0, Y0; \
	VPOR Y9, Y3, Y3; \
	VPBLENDVB Y0, Y3, Y1, Y1

// TOE5M2FAST is TOE5M2 for binary16 values with M = H&0x7F at most 0x7B (no NaN, no infinity):
// H + [E5M2UP > 0] (which also rounds the largest finite values up to infinity correctly). Y6
// keeps the unsigned maximum of 2M = H+H, at most 0xF6 (Y7) exactly when every M so far was at
// most 0x7B (E5M2FASTOK).
#define TOE5M2FAST \
	E5M2UP; \
	VPCMPGTB Y12, Y4, Y4; \
	VPADDB Y3, Y3, Y0; \
	VPMAXUB Y0, Y6, Y6; \
	VPSUBB Y4, Y3, Y1

// TOE5M2FAST_CONSTS: TOE5M2_CONSTS, Y7 = 0xF6 (bytes) and Y6 = 0.
#define TOE5M2FAST_CONSTS \
	TOE5M2_CONSTS; \
	BCASTD(0xF6F6F6F6, X7, Y7); \
	VPXOR Y6, Y6, Y6

// E5M2FASTOK sets ZF when every byte of Y6 is at most 0xF6 (Y7).
#define E5M2FASTOK \
	VPSUBUSB Y7, Y6, Y4; \
	VPTEST Y4, Y4

#define F32E5M2(I, O) F32F8(I, O, TOE5M2Q)
#define F16E5M2(I, O) F16F8(I, O, TOE5M2)
#define F16E5M2FAST(I, O) F16F8(I, O, TOE5M2FAST)

TEXT ·f32ToF8e5m2AVX2(SB), NOSPLIT, $512-56
	ARGS
	TOE5M2_CONSTS
	LOOP(F32E5M2, 32, 128, 32)

TEXT ·f16ToF8e5m2AVX2(SB), NOSPLIT, $512-56
	ARGS
	LOOPFAST(F16E5M2FAST, E5M2FASTOK, F16E5M2, TOE5M2FAST_CONSTS, TOE5M2_CONSTS, 32, 64, 32)

// PACKW16 packs the 16 word lanes of Y0 (each ≤ 0xFF) into 16 bytes at O(DI).
#define PACKW16(O) \
	VEXTRACTI128 $1, Y0, X1; \
	VPACKUSWB X1, X0, X0; \
	VMOVDQU X0, O(DI)

// ---- 4-bit lookups -----------------------------------------------------------------------------

// NIBF32 decodes 4 bytes (8 nibbles, low nibble first) through the 16-entry float32 table in
// Y14 (entries 0..7) and Y15 (8..15). The 4 bytes are broadcast to every dword and shifted right
// by 4k in dword k (VPSRLVD with Y13 = 0, 4, ..., 28), which puts nibble k in its low 4 bits:
// VPERMPS reads index bits 2..0, and bit 3 of each index, shifted to the sign, picks the table.
#define NIBF32(I, O) \
	VPBROADCASTD I(SI), Y0; \
	VPSRLVD Y13, Y0, Y0; \
	VPERMPS Y14, Y0, Y1; \
	VPERMPS Y15, Y0, Y2; \
	VPSLLD $28, Y0, Y3; \
	VBLENDVPS Y3, Y2, Y1, Y1; \
	VMOVUPS Y1, O(DI)

DATA nibShifts<>+0(SB)/8, $0x0000000400000000
DATA nibShifts<>+8(SB)/8, $0x0000000C00000008
DATA nibShifts<>+16(SB)/8, $0x0000001400000010
DATA nibShifts<>+24(SB)/8, $0x0000001C00000018
GLOBL nibShifts<>(SB), RODATA|NOPTR, $32

TEXT ·nf4ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	VMOVUPS ·lutNf4F32+0(SB), Y14
	VMOVUPS ·lutNf4F32+32(SB), Y15
	VMOVDQU nibShifts<>(SB), Y13
	LOOP(NIBF32, 8, 4, 32)

// The u4, i4 and f4e2m1 values are computed instead of looked up. The 4 bytes are broadcast to
// every dword and shifted left by 28 - 4k in dword k (VPSLLVD, Y13 = 28, 24, ..., 0), which puts
// nibble k in bits 31..28. u4: VPSRLD by 28 and VCVTDQ2PS (exact). i4: VPSRAD by 28 sign-extends
// the nibble first.
DATA nibShiftsL<>+0(SB)/8, $0x000000180000001C
DATA nibShiftsL<>+8(SB)/8, $0x0000001000000014
DATA nibShiftsL<>+16(SB)/8, $0x000000080000000C
DATA nibShiftsL<>+24(SB)/8, $0x0000000000000004
GLOBL nibShiftsL<>(SB), RODATA|NOPTR, $32

// NIB4F32(I, O, SHR) decodes the 8 nibbles of the dword at I(SI) to float32 at O(DI): SHR is
// VPSRLD (u4) or VPSRAD (i4).
#define NIB4F32(I, O, SHR) \
	VPBROADCASTD I(SI), Y0; \
	VPSLLVD Y13, Y0, Y0; \
	SHR $28, Y0, Y0; \
	VCVTDQ2PS Y0, Y0; \
	VMOVUPS Y0, O(DI)

#define U4F32(I, O) NIB4F32(I, O, VPSRLD)

TEXT ·u4ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU nibShiftsL<>(SB), Y13
	LOOP(U4F32, 8, 4, 32)

#define I4F32(I, O) NIB4F32(I, O, VPSRAD)

TEXT ·i4ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU nibShiftsL<>(SB), Y13
	LOOP(I4F32, 8, 4, 32)


// NIB16 decodes 32 bytes (64 nibbles, low nibble first) at I(SI) into 64 binary16 values:
// elements 0..15 in Y3, 16..31 in Y5, 32..47 in Y0 and 48..63 in Y1. Y14 and Y15 hold the low
// and the high bytes of the 16 values (VPSHUFB tables, both lanes), Y13 = 0x0F bytes, Y12 =
// nibPermD. A round of byte unpacks first interleaves the low nibbles (the even elements) and
// the high nibbles (the odd ones), which puts the indices in element order; the two tables are
// looked up at them, 32 an instruction, and a second round of byte unpacks interleaves low and
// high bytes into words (18 instructions for 64 elements; looking up the even and the odd
// nibbles and interleaving the words afterwards takes 20 and is slower in L1). Unpacks work
// within 128-bit lanes, so the source dwords are first put
// in the order 0, 2, 4, 6, 1, 3, 5, 7 (VPERMD): the second round's unpacks of lane 0 then take
// source dwords 0, 2, 4, 6 in turn and those of lane 1 the dwords 1, 3, 5, 7 that follow them.
#define NIB16(I) \
	VPERMD I(SI), Y12, Y0; \
	VPSRLW $4, Y0, Y1; \
	VPAND Y13, Y0, Y0; \
	VPAND Y13, Y1, Y1; \
	VPUNPCKLBW Y1, Y0, Y2; \
	VPUNPCKHBW Y1, Y0, Y4; \
	VPSHUFB Y2, Y14, Y0; \
	VPSHUFB Y2, Y15, Y1; \
	VPSHUFB Y4, Y14, Y2; \
	VPSHUFB Y4, Y15, Y4; \
	VPUNPCKLBW Y1, Y0, Y3; \
	VPUNPCKHBW Y1, Y0, Y5; \
	VPUNPCKLBW Y4, Y2, Y0; \
	VPUNPCKHBW Y4, Y2, Y1

// nibPermD is the VPERMD order of NIB16.
DATA nibPermD<>+0(SB)/8, $0x0000000200000000
DATA nibPermD<>+8(SB)/8, $0x0000000600000004
DATA nibPermD<>+16(SB)/8, $0x0000000300000001
DATA nibPermD<>+24(SB)/8, $0x0000000700000005
GLOBL nibPermD<>(SB), RODATA|NOPTR, $32

// NIB_CONSTS(T) loads the constants of NIB16 for the table T (lut*F16B).
#define NIB_CONSTS(T) \
	VBROADCASTI128 T+0(SB), Y14; \
	VBROADCASTI128 T+16(SB), Y15; \
	BCASTD(0x0F0F0F0F, X13, Y13); \
	VMOVDQU nibPermD<>(SB), Y12

#define NIBF16(I, O) \
	NIB16(I); \
	VMOVDQU Y3, O(DI); \
	VMOVDQU Y5, O+32(DI); \
	VMOVDQU Y0, O+64(DI); \
	VMOVDQU Y1, O+96(DI)

TEXT ·u4ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	NIB_CONSTS(·lutU4F16B)
	LOOP(NIBF16, 64, 32, 128)

TEXT ·i4ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	NIB_CONSTS(·lutI4F16B)
	LOOP(NIBF16, 64, 32, 128)

TEXT ·nf4ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	NIB_CONSTS(·lutNf4F16B)
	LOOP(NIBF16, 64, 32, 128)

// NIBH16F16 is NIBF16 for tables whose 16 binary16 values all have a zero low byte (f4e2m1:
// ±0, 0.5, 1, 1.5, 2, 3, 4, 6; initTables checks it): one lookup, of the high byte, for the
// even and one for the odd elements, a round of byte unpacks that interleaves them (bytes in
// element order), and a round under a zero low byte (Y11 = 0) that makes the words. With the
// source dwords in the order of NIB16 (nibPermD), the four results hold elements 0..15, 16..31,
// 32..47 and 48..63. 16 instructions for 64 elements against NIBF16's 20, and correspondingly
// faster in L1. Y15 = the high bytes (both lanes), Y13 = 0x0F bytes, Y12 = nibPermD.
#define NIBH16F16(I, O) \
	NIBH16(I); \
	VMOVDQU Y2, O(DI); \
	VMOVDQU Y3, O+32(DI); \
	VMOVDQU Y4, O+64(DI); \
	VMOVDQU Y5, O+96(DI)

#define NIBH16(I) \
	VPERMD I(SI), Y12, Y0; \
	VPSRLW $4, Y0, Y1; \
	VPAND Y13, Y0, Y0; \
	VPAND Y13, Y1, Y1; \
	VPSHUFB Y0, Y15, Y2; \
	VPSHUFB Y1, Y15, Y3; \
	VPUNPCKLBW Y3, Y2, Y0; \
	VPUNPCKHBW Y3, Y2, Y1; \
	VPUNPCKLBW Y0, Y11, Y2; \
	VPUNPCKHBW Y0, Y11, Y3; \
	VPUNPCKLBW Y1, Y11, Y4; \
	VPUNPCKHBW Y1, Y11, Y5

#define NIBH16_CONSTS(T) \
	VBROADCASTI128 T+16(SB), Y15; \
	BCASTD(0x0F0F0F0F, X13, Y13); \
	VMOVDQU nibPermD<>(SB), Y12; \
	VPXOR Y11, Y11, Y11

TEXT ·f4e2m1ToF16AVX2(SB), NOSPLIT, $512-56
	ARGS
	NIBH16_CONSTS(·lutF4e2m1F16B)
	LOOP(NIBH16F16, 64, 32, 128)

// f4e2m1 -> float32 looks up the two high bytes of each value's float32 (its bfloat16, the low
// half being zero) in lutF4e2m1BF16B, the low and the high byte for the even and the odd
// elements, and makes the float32 values with three rounds of unpacks: low byte with high byte,
// even element with odd element, and each word under a zero low word. After three rounds a
// register holds in each 128-bit lane four elements, two source bytes, from that lane of the
// source, so the source is first put in the order of its even 16-bit words, then its odd ones
// (VPSHUFB within the lanes by nibEvenOdd, then VPERMQ): the eight results then hold elements
// 0..7, 8..15, ..., 56..63. 34 instructions for 64 elements where the VPERMPS route (NIBF32)
// takes 7 for 8; the gain in L1 is small, and widening the binary16 values of NIBH16 with
// VEXTRACTI128 and VCVTPH2PS instead is slower (docs/perf/README.md).
DATA nibEvenOdd<>+0(SB)/8, $0x0D0C090805040100
DATA nibEvenOdd<>+8(SB)/8, $0x0F0E0B0A07060302
GLOBL nibEvenOdd<>(SB), RODATA|NOPTR, $16

// NIBF32U: Y15 = the high bytes, Y14 = the low bytes (both lanes), Y13 = 0x0F bytes,
// Y12 = nibEvenOdd (both lanes), Y11 = 0.
#define NIBF32U(I, O) \
	VMOVDQU I(SI), Y0; \
	VPSHUFB Y12, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VPSRLW $4, Y0, Y1; \
	VPAND Y13, Y0, Y0; \
	VPAND Y13, Y1, Y1; \
	VPSHUFB Y0, Y14, Y2; \
	VPSHUFB Y0, Y15, Y3; \
	VPSHUFB Y1, Y14, Y4; \
	VPSHUFB Y1, Y15, Y5; \
	VPUNPCKLBW Y3, Y2, Y0; \
	VPUNPCKHBW Y3, Y2, Y2; \
	VPUNPCKLBW Y5, Y4, Y1; \
	VPUNPCKHBW Y5, Y4, Y4; \
	VPUNPCKLWD Y1, Y0, Y3; \
	VPUNPCKHWD Y1, Y0, Y5; \
	VPUNPCKLWD Y4, Y2, Y0; \
	VPUNPCKHWD Y4, Y2, Y1; \
	VPUNPCKLWD Y3, Y11, Y2; \
	VPUNPCKHWD Y3, Y11, Y3; \
	VMOVDQU Y2, O(DI); \
	VMOVDQU Y3, O+32(DI); \
	VPUNPCKLWD Y5, Y11, Y2; \
	VPUNPCKHWD Y5, Y11, Y5; \
	VMOVDQU Y2, O+64(DI); \
	VMOVDQU Y5, O+96(DI); \
	VPUNPCKLWD Y0, Y11, Y2; \
	VPUNPCKHWD Y0, Y11, Y0; \
	VMOVDQU Y2, O+128(DI); \
	VMOVDQU Y0, O+160(DI); \
	VPUNPCKLWD Y1, Y11, Y2; \
	VPUNPCKHWD Y1, Y11, Y1; \
	VMOVDQU Y2, O+192(DI); \
	VMOVDQU Y1, O+224(DI)

TEXT ·f4e2m1ToF32AVX2(SB), NOSPLIT, $512-56
	ARGS
	VBROADCASTI128 ·lutF4e2m1BF16B+0(SB), Y14
	VBROADCASTI128 ·lutF4e2m1BF16B+16(SB), Y15
	BCASTD(0x0F0F0F0F, X13, Y13)
	VBROADCASTI128 nibEvenOdd<>(SB), Y12
	VPXOR Y11, Y11, Y11
	LOOP(NIBF32U, 64, 32, 256)

// ---- integers -> f32, f16 ----------------------------------------------------------------------

// WIDENF32(I, O, WIDEN) sign- or zero-extends 8 integers at I(SI) to int32 (WIDEN: VPMOVSXBD,
// VPMOVZXBD, VPMOVSXWD or VPMOVZXWD) and converts them to float32 at O(DI), exactly.
#define WIDENF32(I, O, WIDEN) \
	WIDEN I(SI), Y0; \
	VCVTDQ2PS Y0, Y0; \
	VMOVUPS Y0, O(DI)

#define I8F32(I, O) WIDENF32(I, O, VPMOVSXBD)


#define U8F32(I, O) WIDENF32(I, O, VPMOVZXBD)


#define I16F32(I, O) WIDENF32(I, O, VPMOVSXWD)


#define U16F32(I, O) WIDENF32(I, O, VPMOVZXWD)


// CVT4 is a LOOP body of four one-instruction conversions: CVT from memory into R0..R3 (source
// strides of IN bytes), then ST of each (destination strides of OUT bytes). Four a step, so that
// LOOP's four steps an iteration give 16 conversions to its five loop instructions (at one
// conversion a step, f64 → f32 and f32 → f64 fell behind github.com/viterin/vek's loops at
// 1 Ki elements; docs/perf/README.md).
#define CVT4(CVT, ST, R0, R1, R2, R3, IN, OUT, I, O) \
	CVT I(SI), R0; \
	CVT I+IN(SI), R1; \
	CVT I+2*IN(SI), R2; \
	CVT I+3*IN(SI), R3; \
	ST R0, O(DI); \
	ST R1, O+OUT(DI); \
	ST R2, O+2*OUT(DI); \
	ST R3, O+3*OUT(DI)

// I32F32 converts 32 elements a step (see CVT4).
#define I32F32(I, O) CVT4(VCVTDQ2PS, VMOVUPS, Y0, Y1, Y2, Y3, 32, 32, I, O)


// WIDENF16(I, O, WIDEN, HALF) converts 16 integers a step (I16F16, U16F16; HALF
// is the byte size of 8 of them) through float32 (exact) with VCVTPS2PH to a register and a
// store: the memory form of VCVTPS2PH is much slower on some CPUs.
#define WIDENF16(I, O, WIDEN, HALF) \
	WIDEN I(SI), Y0; \
	WIDEN I+HALF(SI), Y1; \
	VCVTDQ2PS Y0, Y0; \
	VCVTDQ2PS Y1, Y1; \
	VCVTPS2PH $0, Y0, X0; \
	VCVTPS2PH $0, Y1, X1; \
	VMOVDQU X0, O(DI); \
	VMOVDQU X1, O+16(DI)

// X8F16(I, O, WIDEN) converts 16 bytes to binary16 without VCVTPS2PH, whose throughput on
// Zen 4 limited WIDENF16 for bytes (docs/perf/README.md). WIDEN (VPMOVZXBW, VPMOVSXBW) puts
// element k in word k; dword j then holds the even element 2j in its low word and the odd element 2j+1 in its high word.
// VPMULLD by 2^16 leaves the even element times 2^16, VPAND (Y15 = 0xFFFF0000) the odd one times
// 2^16, and VCVTDQ2PS converts both exactly (at most 8 significant bits). A float32 v = x·2^16,
// 1 ≤ |x| ≤ 255, has the biased exponent 143 + e (e = ⌊log2 |x|⌋) and 7 mantissa bits, all in its
// top word t = s<<15 | (143+e)<<7 | m; t<<3, cut to 16 bits, is (143+e mod 32)<<10 | m<<3 =
// (15+e)<<10 | m<<3, the binary16 of |x|; x = 0 gives 0. VPMADDWD by (0, 8) (Y14) computes t·8
// into the even dwords, whose low word is then that binary16 (the high word, garbage, is
// dropped by the blend), and VPSLLW by 3 turns the odd top words into theirs in place; VPBLENDW
// takes the low words of the first and the high words of the second. The sign of int8 elements,
// lost on the way, is bit 15 of their sign-extended word, ORed in at the end (Y13 = 0x8000).
// VPMULLD and VPMADDWD run on the multiplier pipes, VCVTDQ2PS and VPSLLW on others (Zen 4).
#define X8F16(I, O, WIDEN) \
	WIDEN I(SI), Y0; \
	VPMULLD Y12, Y0, Y1; \
	VPAND Y15, Y0, Y2; \
	VCVTDQ2PS Y1, Y1; \
	VCVTDQ2PS Y2, Y2; \
	VPMADDWD Y14, Y1, Y1; \
	VPSLLW $3, Y2, Y2; \
	VPBLENDW $0x55, Y1, Y2, Y1

// X8F16_CONSTS: Y15 = 0xFFFF0000, Y14 = (0, 8) words, Y13 = 0x8000 words, Y12 = 2^16.
#define X8F16_CONSTS \
	BCASTD(0xFFFF0000, X15, Y15); \
	BCASTD(0x00080000, X14, Y14); \
	BCASTD(0x80008000, X13, Y13); \
	BCASTD(0x00010000, X12, Y12)

#define U8F16(I, O) \
	X8F16(I, O, VPMOVZXBW); \
	VMOVDQU Y1, O(DI)

#define I8F16(I, O) \
	X8F16(I, O, VPMOVSXBW); \
	VPAND Y13, Y0, Y0; \
	VPOR Y0, Y1, Y1; \
	VMOVDQU Y1, O(DI)



#define I16F16(I, O) WIDENF16(I, O, VPMOVSXWD, 16)


#define U16F16(I, O) WIDENF16(I, O, VPMOVZXWD, 16)


// I32F16 clamps to ±65504 (i32 -> f16 saturates, docs/SEMANTICS.md §3.3) in int32, before the
// conversion, with VPMINSD and VPMAXSD (Y15 = 65504, Y14 = -65504), which run on the integer
// units: float32(clamp(x)) = clamp(float32(x)), since rounding to float32 is monotonic and ±65504
// are float32 values. VCVTDQ2PS is then exact and VCVTPS2PH rounds as F16FromF32.
#define I32F16(I, O) \
	VPMINSD I(SI), Y15, Y0; \
	VPMINSD I+32(SI), Y15, Y1; \
	VPMAXSD Y14, Y0, Y0; \
	VPMAXSD Y14, Y1, Y1; \
	VCVTDQ2PS Y0, Y0; \
	VCVTDQ2PS Y1, Y1; \
	VCVTPS2PH $0, Y0, X0; \
	VCVTPS2PH $0, Y1, X1; \
	VMOVDQU X0, O(DI); \
	VMOVDQU X1, O+16(DI)


// ---- integer widening and narrowing ------------------------------------------------------------

#define I8I32(I, O) \
	VPMOVSXBD I(SI), Y0; \
	VMOVDQU Y0, O(DI)


#define U8I32(I, O) \
	VPMOVZXBD I(SI), Y0; \
	VMOVDQU Y0, O(DI)


#define I16I32(I, O) \
	VPMOVSXWD I(SI), Y0; \
	VMOVDQU Y0, O(DI)


#define I32I64(I, O) \
	VPMOVSXDQ I(SI), Y0; \
	VMOVDQU Y0, O(DI)


// I64I32 keeps the low dword of each qword: VSHUFPS picks dwords 0 and 2 of each lane of both
// inputs, VPERMQ puts the quarters in order.
#define I64I32(I, O) \
	VMOVDQU I(SI), Y0; \
	VMOVDQU I+32(SI), Y1; \
	VSHUFPS $0x88, Y1, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VMOVDQU Y0, O(DI)


// I32I16 keeps the low word of each dword (masked, so VPACKUSDW never saturates); Y15 = 0xFFFF.
#define I32I16(I, O) \
	VPAND I(SI), Y15, Y0; \
	VPAND I+32(SI), Y15, Y1; \
	VPACKUSDW Y1, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VMOVDQU Y0, O(DI)


// I32I8 keeps the low byte of each dword; Y15 = 0xFF.
#define I32I8(I, O) \
	VPAND I(SI), Y15, Y0; \
	VPAND I+32(SI), Y15, Y1; \
	VPACKUSDW Y1, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	PACKW16(O)


// ---- f32 -> integers ---------------------------------------------------------------------------

// F32I32R truncates the 8 float32 at I(SI) to int32 in R, saturating: VCVTTPS2DQ gives
// 0x80000000 for NaN and out of range; lanes ≥ 2^31 (Y15) flip it to 0x7FFFFFFF and NaN lanes
// are cleared.
#define F32I32R(I, R, T1, T2) \
	VMOVUPS I(SI), T1; \
	VCVTTPS2DQ T1, R; \
	VCMPPS $0x1D, Y15, T1, T2; \
	VPXOR T2, R, R; \
	VCMPPS $7, T1, T1, T2; \
	VPAND T2, R, R

#define F32I32(I, O) \
	F32I32R(I, Y0, Y1, Y2); \
	VMOVDQU Y0, O(DI)

// TRUNC32 truncates the 32 float32 at (SI) to int32 in Y0..Y3 with VCVTTPS2DQ alone, and puts
// the VPMINSD of Y0 and Y1 in Y4 and of Y2 and Y3 in Y5.
#define TRUNC32 \
	VCVTTPS2DQ (SI), Y0; \
	VCVTTPS2DQ 32(SI), Y1; \
	VCVTTPS2DQ 64(SI), Y2; \
	VCVTTPS2DQ 96(SI), Y3; \
	VPMINSD Y1, Y0, Y4; \
	VPMINSD Y3, Y2, Y5

#define STORE32 \
	VMOVDQU Y0, (DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI); \
	VMOVDQU Y3, 96(DI)

// f32ToI32AVX2 is f32ToI32AVX512 in 256-bit registers (LOOPCHECK, steps of 32): VCVTTPS2DQ
// alone, the running VPMINSD of the results in Y11, and F32I32 for the steps of a block with a
// result of 0x80000000 (NaN, |x| ≥ 2^31, or x = -2^31).
#define I32FAST \
	TRUNC32; \
	VPMINSD Y4, Y11, Y11; \
	VPMINSD Y5, Y11, Y11

#define I32RESET VMOVDQA Y14, Y11

#define I32BAD \
	VPCMPEQD Y12, Y11, Y11; \
	VPTEST Y11, Y11

#define I32FIX \
	F32I32(0, 0); \
	F32I32(32, 32); \
	F32I32(64, 64); \
	F32I32(96, 96)


// The narrow integer kernels clamp in float32 first, where VMINPS and VMAXPS choose their NaN
// result: with x second (the memory operand of VMINPS, the register of VMAXPS), a NaN x stays
// NaN. VCVTTPS2DQ then truncates, giving 0x80000000 for NaN and for x ≤ -2^31, and the
// signed-saturating packs clamp to the destination's range: 0x80000000 becomes the minimum.
//
// packOrder holds the VPERMD indices that put in element order the dwords of a VPACKSSDW pair
// followed by a VPACKSS/USWB of the two results (32 elements, in 4-byte groups 0, 2, 4, 6,
// 1, 3, 5, 7 after the packs).
DATA packOrder<>+0(SB)/8, $0x0000000400000000
DATA packOrder<>+8(SB)/8, $0x0000000500000001
DATA packOrder<>+16(SB)/8, $0x0000000600000002
DATA packOrder<>+24(SB)/8, $0x0000000700000003
GLOBL packOrder<>(SB), RODATA|NOPTR, $32

// TOI32I16 truncates the 8 float32 at I(SI) to int32 in R: x above 32767 (Y15) becomes 32767
// (a NaN stays NaN), NaN lanes are cleared by the ordered mask, and VCVTTPS2DQ truncates (x ≤
// -2^31 gives 0x80000000, which VPACKSSDW saturates to -32768 as every x ≤ -32768); T is scratch.
#define TOI32I16(I, R, T) \
	VMINPS I(SI), Y15, R; \
	VCMPPS $7, R, R, T; \
	VANDPS T, R, R; \
	VCVTTPS2DQ R, R

// F32I16: the int32 of 16 elements, saturated to int16 by VPACKSSDW, in order after VPERMQ.
#define F32I16(I, O) \
	TOI32I16(I, Y0, Y4); \
	TOI32I16(I+32, Y1, Y5); \
	VPACKSSDW Y1, Y0, Y0; \
	VPERMQ $0xD8, Y0, Y0; \
	VMOVDQU Y0, O(DI)


// TOI32I8 truncates the 8 float32 at I(SI) to int32 in R, clamped to [-128, 127] in float32
// (Y15 = 127, Y14 = -128) with NaN kept, so that VCVTTPS2DQ gives 0x80000000 for NaN only.
#define TOI32I8(I, R) \
	VMINPS I(SI), Y15, R; \
	VMAXPS R, Y14, R; \
	VCVTTPS2DQ R, R

// F32I8 packs the int32 of 32 elements to words (the NaN lanes become 0x8000) and keeps the low
// byte of each word (Y13 = 0x00FF words): the value, or 0 for NaN.
#define F32I8(I, O) \
	TOI32I8(I, Y0); \
	TOI32I8(I+32, Y1); \
	TOI32I8(I+64, Y2); \
	TOI32I8(I+96, Y3); \
	VPACKSSDW Y1, Y0, Y0; \
	VPACKSSDW Y3, Y2, Y2; \
	VPAND Y13, Y0, Y0; \
	VPAND Y13, Y2, Y2; \
	VPACKUSWB Y2, Y0, Y0; \
	VPERMD Y0, Y12, Y0; \
	VMOVDQU Y0, O(DI)


// TOI32U8 truncates the 8 float32 at I(SI) to int32 in R: min(255, x) keeps a NaN, which
// VCVTTPS2DQ turns into 0x80000000, as every x ≤ -2^31; the packs saturate those and the other
// negative lanes to 0.
#define TOI32U8(I, R) \
	VMINPS I(SI), Y15, R; \
	VCVTTPS2DQ R, R

#define F32U8(I, O) \
	TOI32U8(I, Y0); \
	TOI32U8(I+32, Y1); \
	TOI32U8(I+64, Y2); \
	TOI32U8(I+96, Y3); \
	VPACKSSDW Y1, Y0, Y0; \
	VPACKSSDW Y3, Y2, Y2; \
	VPACKUSWB Y2, Y0, Y0; \
	VPERMD Y0, Y14, Y0; \
	VMOVDQU Y0, O(DI)


// ---- f64 <-> f32 -------------------------------------------------------------------------------

// F64F32 and F32F64 convert 16 elements a step (see CVT4).
#define F64F32(I, O) CVT4(VCVTPD2PSY, VMOVUPS, X0, X1, X2, X3, 32, 16, I, O)


#define F32F64(I, O) CVT4(VCVTPS2PD, VMOVUPD, Y0, Y1, Y2, Y3, 16, 32, I, O)


// ---- boolean -----------------------------------------------------------------------------------

// BOOLU8: min(b, 1) per byte; Y15 = 1 (bytes).
#define BOOLU8(I, O) \
	VPMINUB I(SI), Y15, Y0; \
	VMOVDQU Y0, O(DI)


// BOOLF32: float32(min(b, 1)); Y15 = 1 (dwords).
#define BOOLF32(I, O) \
	VPMOVZXBD I(SI), Y0; \
	VPMINUD Y15, Y0, Y0; \
	VCVTDQ2PS Y0, Y0; \
	VMOVUPS Y0, O(DI)


// F32BOOL compares 32 float32 with 0 (VCMPPS NEQ_UQ: ±0 give 0, NaN and every other value
// -1, subnormals included, as Go runs with MXCSR.DAZ clear), packs the dword masks to bytes
// (signed saturation keeps -1 and 0) and turns -1 into 1 (VPABSB).
#define F32BOOL(I, O) \
	VCMPPS $4, I(SI), Y13, Y0; \
	VCMPPS $4, I+32(SI), Y13, Y1; \
	VCMPPS $4, I+64(SI), Y13, Y2; \
	VCMPPS $4, I+96(SI), Y13, Y3; \
	VPACKSSDW Y1, Y0, Y0; \
	VPACKSSDW Y3, Y2, Y2; \
	VPACKSSWB Y2, Y0, Y0; \
	VPABSB Y0, Y0; \
	VPERMD Y0, Y14, Y0; \
	VMOVDQU Y0, O(DI)

