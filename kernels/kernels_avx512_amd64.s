//go:build !purego

// AVX-512 (F, BW, VL, DQ, VBMI) kernels, with the same contract as the AVX2 ones: Go signature
// func(dst, src *byte, n int) (4-bit lookups add a table pointer), n a positive multiple of the
// block size (see kernels_avx512_amd64.go for the scalar loop each one computes). Registers:
// DI = dst, SI = src, CX = elements left; Z8..Z31 hold constants. Results are stored with full
// vector moves (the narrowing VPMOV*/VCVTPS2PH forms with a memory destination are slow on Zen 4).

#include "textflag.h"

#include "kernels_amd64.h"

// TAILIN copies N bytes from S into the frame at D in 64-byte vectors, the last one a masked
// load (BZHI builds the mask) so that no source byte past N is read, stored whole (the bytes past
// N become zero): a full store lets the kernel's full loads from the frame be forwarded from the
// store buffer, which a masked store does not (a stall on every call). TAILOUT copies N
// bytes from the frame at S to D, the last vector a full load and a masked store, so that no
// destination byte past N is written. The frame's 256-byte halves hold a partial block of every
// kernel rounded up to 64 bytes. Both use AX, DX, R9, K7 and Z0.
//
// COPYVECS is their common loop: N bytes from S to D in 64-byte vectors, the last partial one
// by PART(S, D) after the byte mask of the DX bytes left is built in K7.
#define COPYVECS(S, D, N, L64, LPART, LE, PART) \
	XORQ AX, AX; \
L64: \
	MOVQ N, DX; \
	SUBQ AX, DX; \
	JBE  LE; \
	CMPQ DX, $64; \
	JB   LPART; \
	VMOVDQU64 (S)(AX*1), Z0; \
	VMOVDQU64 Z0, (D)(AX*1); \
	ADDQ $64, AX; \
	JMP  L64; \
LPART: \
	MOVQ $-1, R9; \
	BZHIQ DX, R9, R9; \
	KMOVQ R9, K7; \
	PART(S, D); \
LE:

// MASKEDLOAD reads the partial vector with a zeroing masked load and stores it whole;
// MASKEDSTORE loads it whole and stores it with a masked store.
#define MASKEDLOAD(S, D) \
	VMOVDQU8.Z (S)(AX*1), K7, Z0; \
	VMOVDQU64 Z0, (D)(AX*1)

#define MASKEDSTORE(S, D) \
	VMOVDQU64 (S)(AX*1), Z0; \
	VMOVDQU8 Z0, K7, (D)(AX*1)

#define TAILIN(S, D, N, L64, LPART, LE) COPYVECS(S, D, N, L64, LPART, LE, MASKEDLOAD)
#define TAILOUT(S, D, N, L64, LPART, LE) COPYVECS(S, D, N, L64, LPART, LE, MASKEDSTORE)

// ZD and ZW broadcast a 32- or 16-bit constant into a Z register.
#define ZD(val, Z) \
	MOVL $val, AX; \
	VPBROADCASTD AX, Z

#define ZW(val, Z) \
	MOVL $val, AX; \
	VPBROADCASTW AX, Z

// ---- f32 <-> f16 -------------------------------------------------------------------------------

// F32F16_ST is the loop body of F32F16 with the store instruction ST: the ordinary
// VMOVDQU or VMOVNTDQ (F32F16NT, for the non-temporal kernels). The two halves are stored as
// they are: joining them first (VINSERTI64X4) and storing 64 bytes costs an instruction and
// gains nothing, since the store port moves 32 bytes a cycle either way.
#define F32F16_ST(I, O, ST) \
	VMOVUPS I(SI), Z0; \
	VMOVUPS I+64(SI), Z1; \
	VCVTPS2PH $0, Z0, Y0; \
	VCVTPS2PH $0, Z1, Y1; \
	ST Y0, O(DI); \
	ST Y1, O+32(DI)

#define F32F16(I, O) F32F16_ST(I, O, VMOVDQU)
#define F32F16NT(I, O) F32F16_ST(I, O, VMOVNTDQ)

TEXT ·f32ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	LOOP(F32F16, 32, 128, 64)

// F16F32_ST is the loop body of F16F32 with the store instruction ST: the ordinary
// VMOVUPS or VMOVNTDQ (F16F32NT, for the non-temporal kernels).
#define F16F32_ST(I, O, ST) \
	VCVTPH2PS I(SI), Z0; \
	ST Z0, O(DI)

#define F16F32(I, O) F16F32_ST(I, O, VMOVUPS)
#define F16F32NT(I, O) F16F32_ST(I, O, VMOVNTDQ)

TEXT ·f16ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	LOOP(F16F32, 16, 32, 64)

// ---- bf16 --------------------------------------------------------------------------------------

// BF16_CONSTS: Z15 = 0x7FFF, Z14 = 1, Z13 = 0x00400000, Z12 = the word indices 1, 3, ..., 63
// (the high halves of the dwords of two registers).
#define BF16_CONSTS \
	ZD(0x7FFF, Z15); \
	ZD(1, Z14); \
	ZD(0x00400000, Z13); \
	VMOVDQU64 ·oddWords(SB), Z12

// BF16R rounds the float32 bits in R to bfloat16 in the high half of each lane of T: non-NaN
// lanes x + 0x7FFF + ((x>>16)&1), NaN lanes x | 0x00400000 (the quiet bit).
#define BF16R(R, T, K) \
	VPSRLD $16, R, T; \
	VPANDD Z14, T, T; \
	VPADDD Z15, T, T; \
	VPADDD R, T, T; \
	VCMPPS $3, R, R, K; \
	VPORD Z13, R, K, T

// F32BF16_ST is the loop body of F32BF16 with the store instruction ST: the ordinary
// VMOVDQU64 or VMOVNTDQ (F32BF16NT, for the non-temporal kernels).
#define F32BF16_ST(I, O, ST) \
	VMOVDQU32 I(SI), Z0; \
	VMOVDQU32 I+64(SI), Z1; \
	BF16R(Z0, Z2, K1); \
	BF16R(Z1, Z3, K2); \
	VPERMT2W Z3, Z12, Z2; \
	ST Z2, O(DI)

#define F32BF16(I, O) F32BF16_ST(I, O, VMOVDQU64)
#define F32BF16NT(I, O) F32BF16_ST(I, O, VMOVNTDQ)

TEXT ·f32ToBF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	BF16_CONSTS
	LOOP(F32BF16, 32, 128, 64)

#define F16BF16(I, O) \
	VCVTPH2PS I(SI), Z0; \
	VCVTPH2PS I+32(SI), Z1; \
	BF16R(Z0, Z2, K1); \
	BF16R(Z1, Z3, K2); \
	VPERMT2W Z3, Z12, Z2; \
	VMOVDQU64 Z2, O(DI)

TEXT ·f16ToBF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	BF16_CONSTS
	LOOP(F16BF16, 32, 64, 64)

// ---- bf16 with AVX512_BF16 ---------------------------------------------------------------------
// VCVTNEPS2BF16 rounds to nearest even and quiets NaNs exactly as docs/SEMANTICS.md §3.4/§3.8 ask, but
// treats subnormal inputs as zero. VCVTNE2PS2BF16 does the same to two registers at once, the
// first source giving the high half of the result. The Go assembler knows neither mnemonic:
// CVTNE2 is the encoding of Z0 ← (Z1, Z0), that is words 0..15 from Z0 and 16..31 from Z1
// (EVEX.512.F2.0F38.W0 72 /r, vvvv = Z1, r/m = Z0).

#define CVTNE2 BYTE $0x62; BYTE $0xF2; BYTE $0x77; BYTE $0x48; BYTE $0x72; BYTE $0xC0

// f32ToBF16AVX512BF converts 32 float32 a step with VCVTNE2PS2BF16, unless a lane of the step is
// subnormal (VFPCLASSPS class 0x20): that step takes the integer rounding of F32BF16. The last
// partial step goes through LOOP's tail, also with F32BF16.
TEXT ·f32ToBF16AVX512BF(SB), NOSPLIT, $512-56
	ARGS
	BF16_CONSTS
	MOVQ CX, R12
	ANDQ $31, R12
	SUBQ R12, CX
	JZ   bfrest

bfloop:
	VMOVDQU32 (SI), Z0
	VMOVDQU32 64(SI), Z1
	VFPCLASSPSZ $0x20, Z0, K1
	VFPCLASSPSZ $0x20, Z1, K2
	KORTESTW K1, K2
	JNZ  bfslow
	CVTNE2
	VMOVDQU64 Z0, (DI)

bfnext:
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $32, CX
	JNZ  bfloop

bfrest:
	MOVQ R12, CX
	LOOP(F32BF16, 32, 128, 64)

bfslow:
	F32BF16(0, 0)
	JMP  bfnext

#define F16BF16N(I, O) \
	VCVTPH2PS I(SI), Z0; \
	VCVTPH2PS I+32(SI), Z1; \
	CVTNE2; \
	VMOVDQU64 Z0, O(DI)

// f16ToBF16AVX512BF: f16 → f32 (exact, never subnormal) → bf16 with VCVTNE2PS2BF16.
TEXT ·f16ToBF16AVX512BF(SB), NOSPLIT, $512-56
	ARGS
	LOOP(F16BF16N, 32, 64, 64)

// BF16F32_ST is the loop body of BF16F32 with the store instruction ST: the ordinary
// VMOVDQU32 or VMOVNTDQ (BF16F32NT, for the non-temporal kernels).
#define BF16F32_ST(I, O, ST) \
	VPMOVZXWD I(SI), Z0; \
	VPSLLD $16, Z0, Z0; \
	ST Z0, O(DI)

#define BF16F32(I, O) BF16F32_ST(I, O, VMOVDQU32)
#define BF16F32NT(I, O) BF16F32_ST(I, O, VMOVNTDQ)

TEXT ·bf16ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	LOOP(BF16F32, 16, 32, 64)

// TOF16EVENODD converts the float32 of the even elements in Z0 and of the odd ones in Z1 to 32
// binary16, interleaves them (VPERMT2W with the indices in Z15) and stores them at O(DI).
#define TOF16EVENODD(O) \
	VCVTPS2PH $0, Z0, Y0; \
	VCVTPS2PH $0, Z1, Y1; \
	VPERMT2W Z1, Z15, Z0; \
	VMOVDQU64 Z0, O(DI)

// BF16F16 widens the even words of 64 bytes to float32 by a shift and the odd ones by a mask
// (Z14 = 0xFFFF0000), which takes two ALU ops instead of two VPMOVZXWD shuffles.
#define BF16F16(I, O) \
	VMOVDQU64 I(SI), Z1; \
	VPSLLD $16, Z1, Z0; \
	VPANDD Z14, Z1, Z1; \
	TOF16EVENODD(O)

// bf16ToF16AVX512 takes the integer route of bf16ToF16AVX2 (kernels_avx2_amd64.s) in 512-bit
// registers through LOOPFAST: groups of 512 elements converted as (a -sat 0x3800) << 3 with the
// sign ORed back (one VPTERNLOGD), the running VPMINUW of a - 1 in Z22 and VPMAXUW of a in Z23
// (a = h & 0x7FFF); a group with an a outside 0 and 0x3880..0x477F (the bf16 values that are not
// exact binary16 normals: tiny, huge, Inf, NaN) is converted again by BF16F16. Z20 = 0x7FFF,
// Z21 = all ones, Z24 = 0x3800, Z27 = 0x477F, Z28 = 0x387F (words).
#define BF16F16XA(I, H, A, T) \
	VMOVDQU64 I(SI), H; \
	VPANDD Z20, H, A; \
	VPADDW Z21, A, T; \
	VPMINUW T, Z22, Z22; \
	VPMAXUW A, Z23, Z23

// BF16F16XB: T = (a -sat 0x3800) << 3 | (h & 0x8000) (VPTERNLOGD 0xF4: T | (H & ^Z20)).
#define BF16F16XB(H, A, T) \
	VPSUBUSW Z24, A, T; \
	VPSLLW $3, T, T; \
	VPTERNLOGD $0xF4, Z20, H, T

// BF16F16XTEST sets ZF when every lane of the group passed the range test. Z25 and Z26
// are scratch.
#define BF16F16XTEST \
	VPSUBUSW Z27, Z23, Z25; \
	VPSUBUSW Z22, Z28, Z26; \
	VPORQ Z26, Z25, Z25; \
	VPTESTMW Z25, Z25, K1; \
	KORTESTD K1, K1

#define BF16F16XRESET \
	VMOVDQA64 Z21, Z22; \
	VPXORQ Z23, Z23, Z23

// BF16F16XF is LOOPFAST's fast route: two steps of 64 elements. BF16F16X4 is its exact route
// for the same 128 elements.
#define BF16F16XF(I, O) \
	BF16F16XA(I, Z16, Z17, Z18); \
	BF16F16XA(I+64, Z19, Z29, Z30); \
	BF16F16XB(Z16, Z17, Z18); \
	BF16F16XB(Z19, Z29, Z30); \
	VMOVDQU64 Z18, O(DI); \
	VMOVDQU64 Z30, O+64(DI); \
	BF16F16XA(I+128, Z16, Z17, Z18); \
	BF16F16XA(I+192, Z19, Z29, Z30); \
	BF16F16XB(Z16, Z17, Z18); \
	BF16F16XB(Z19, Z29, Z30); \
	VMOVDQU64 Z18, O+128(DI); \
	VMOVDQU64 Z30, O+192(DI)

#define BF16F16X4(I, O) BLOCKS4(BF16F16, I, O, 64, 64)

TEXT ·bf16ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU64 ·interleaveWords(SB), Z15
	ZD(0xFFFF0000, Z14)
	ZW(0x7FFF, Z20)
	VPTERNLOGD $0xFF, Z21, Z21, Z21
	ZW(0x3800, Z24)
	ZW(0x477F, Z27)
	ZW(0x387F, Z28)
	LOOPFAST(BF16F16XF, BF16F16XTEST, BF16F16X4, BF16F16XRESET, NOCONSTS, 128, 256, 256)

// ---- f8 -> f16, f32 ----------------------------------------------------------------------------

// E4M3_CONSTS: Z31:Z30 = the low bytes and Z29:Z28 the high bytes of the bfloat16 (the top half
// of the float32) of each f8e4m3 magnitude 0..127 (the VPERMI2B tables lutE4m3BF16), Z27 =
// unpackOrder2, the byte order that makes the unpacks of E4M3F32 give elements in order, Z26 =
// 0x80 bytes.
#define E4M3_CONSTS \
	VMOVDQU64 ·lutE4m3BF16+0(SB), Z30; \
	VMOVDQU64 ·lutE4m3BF16+64(SB), Z31; \
	VMOVDQU64 ·lutE4m3BF16+128(SB), Z28; \
	VMOVDQU64 ·lutE4m3BF16+192(SB), Z29; \
	VMOVDQU64 ·unpackOrder2(SB), Z27; \
	ZD(0x80808080, Z26)

// E4M3H looks up the 16-bit value of each of the 64 f8e4m3 bytes at I(SI), permuted by Z27,
// into the words of Z3 and Z4 (with unpackOrder2, in the order E4M3F32's word unpacks restore).
#define E4M3H(I) \
	VPERMB I(SI), Z27, Z0; \
	VMOVDQA64 Z0, Z1; \
	VPERMI2B Z31, Z30, Z1; \
	VMOVDQA64 Z0, Z2; \
	VPERMI2B Z29, Z28, Z2; \
	VPTERNLOGD $0xF8, Z26, Z0, Z2; \
	VPUNPCKLBW Z2, Z1, Z3; \
	VPUNPCKHBW Z2, Z1, Z4

// E4M3F16_ST is the loop body of E4M3F16 with the store instruction ST: the ordinary
// VMOVDQU64 or VMOVNTDQ (E4M3F16NT, for the non-temporal kernels). It needs one table lookup
// for 64 elements: every low byte of an f8e4m3 value's binary16 is 0x00 or 0x80, and
// lutE4m3F16Hi keeps that bit in bit 7 of the high byte (where the sign goes). With T the
// looked-up byte (VPERMI2B reads seven bits of each index, so c&0x7F), the low byte is T&0x80
// and the high byte c&0x80 | T&0x7F; the bytes, in unpackOrder, are interleaved into words by
// the unpacks: two shuffles and two unpacks for 128 bytes of stores, which take four cycles.
// (Interleaving with two VPERMT2B instead of the VPERMB and the unpacks, or the two lookups of
// E4M3H, is slower on Zen 4; docs/perf/README.md.)
// Constants (E4M3F16_CONSTS): Z29:Z28 = lutE4m3F16Hi, Z27 = unpackOrder, Z26 = 0x80 bytes.
#define E4M3F16_ST(I, O, ST) \
	VPERMB I(SI), Z27, Z0; \
	VMOVDQA64 Z0, Z1; \
	VPERMI2B Z29, Z28, Z1; \
	VPANDD Z26, Z1, Z2; \
	VPTERNLOGD $0xD8, Z26, Z0, Z1; \
	VPUNPCKLBW Z1, Z2, Z3; \
	VPUNPCKHBW Z1, Z2, Z4; \
	ST Z3, O(DI); \
	ST Z4, O+64(DI)

#define E4M3F16(I, O) E4M3F16_ST(I, O, VMOVDQU64)
#define E4M3F16NT(I, O) E4M3F16_ST(I, O, VMOVNTDQ)

#define E4M3F16_CONSTS \
	VMOVDQU64 ·lutE4m3F16Hi+0(SB), Z28; \
	VMOVDQU64 ·lutE4m3F16Hi+64(SB), Z29; \
	VMOVDQU64 ·unpackOrder(SB), Z27; \
	ZD(0x80808080, Z26)

TEXT ·f8e4m3ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	E4M3F16_CONSTS
	LOOP(E4M3F16, 64, 64, 128)

// E4M3F32 looks up each value's bfloat16 with E4M3H (the top half of its float32, whose low half
// is always zero for an f8e4m3 value) and widens the words to dwords: the bytes, permuted by
// unpackOrder2 into the order that the byte and word unpacks restore, give elements 0..63.
#define E4M3F32(I, O) \
	E4M3H(I); \
	VPUNPCKLWD Z3, Z24, Z0; \
	VPUNPCKHWD Z3, Z24, Z1; \
	VPUNPCKLWD Z4, Z24, Z2; \
	VPUNPCKHWD Z4, Z24, Z3; \
	VMOVDQU64 Z0, O(DI); \
	VMOVDQU64 Z1, O+64(DI); \
	VMOVDQU64 Z2, O+128(DI); \
	VMOVDQU64 Z3, O+192(DI)

TEXT ·f8e4m3ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	E4M3_CONSTS
	VPXORD Z24, Z24, Z24
	LOOP(E4M3F32, 64, 64, 256)

// E5M2F16 widens each byte c to c<<8: the bytes, in unpack order, interleaved with zeros.
#define E5M2F16(I, O) \
	VPERMB I(SI), Z27, Z0; \
	VPUNPCKLBW Z0, Z26, Z1; \
	VPUNPCKHBW Z0, Z26, Z2; \
	VMOVDQU64 Z1, O(DI); \
	VMOVDQU64 Z2, O+64(DI)

TEXT ·f8e5m2ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU64 ·unpackOrder(SB), Z27
	VPXORD Z26, Z26, Z26
	LOOP(E5M2F16, 64, 64, 128)

#define E5M2F32(I, O) \
	VPMOVZXBW I(SI), Y0; \
	VPSLLW $8, Y0, Y0; \
	VCVTPH2PS Y0, Z0; \
	VMOVUPS Z0, O(DI)

TEXT ·f8e5m2ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	LOOP(E5M2F32, 16, 16, 64)

// ---- f32, f16 -> f8 ----------------------------------------------------------------------------

// TOF8_CONSTS(T, S2): Z31 = the byte indices 0, 2, ..., 126 (the low bytes of the words of two
// registers), Z30 = 1, 3, ..., 127 (the high bytes), Z29:Z28 = base and Z27:Z26 = thr1 (the
// VPERMI2B tables of T, lutE4m3Enc or lutE5m2Enc), Z25 = S2 bytes (0xBF or 0x00), Z23 = 0xFF
// bytes, Z22 = 0x80 bytes.
#define TOF8_CONSTS(T, S2) \
	VMOVDQU64 ·evenBytes(SB), Z31; \
	VMOVDQU64 ·oddBytes(SB), Z30; \
	VMOVDQU64 T+0(SB), Z28; \
	VMOVDQU64 T+64(SB), Z29; \
	VMOVDQU64 T+128(SB), Z26; \
	VMOVDQU64 T+192(SB), Z27; \
	ZD(S2, Z25); \
	VPTERNLOGD $0xFF, Z23, Z23, Z23; \
	ZD(0x80808080, Z22)

// TOF8 rounds the 64 binary16 in Z0 (elements 0..31) and Z1 (32..63) to f8e4m3 or f8e5m2 in Z3,
// in bytes (see lutE4m3Enc): it gathers the high bytes H into Z0 and the low bytes L into Z2, looks
// up base and thr1 by the 7 low bits of H (VPERMI2B ignores the sign bit), adds 1 where
// L > thr1 and, in the lanes whose base has the two-step flag (bit 7, VPMOVB2M), 1 more where
// L > S2; then it replaces bit 7 with the sign bit of H. Nine vector ops for 64 elements,
// five of them shuffles.
#define TOF8 \
	VMOVDQA64 Z31, Z2; \
	VPERMI2B Z1, Z0, Z2; \
	VPERMT2B Z1, Z30, Z0; \
	VMOVDQA64 Z0, Z3; \
	VPERMI2B Z29, Z28, Z3; \
	VMOVDQA64 Z0, Z4; \
	VPERMI2B Z27, Z26, Z4; \
	VPMOVB2M Z3, K3; \
	VPCMPUB $6, Z4, Z2, K1; \
	VPCMPUB $6, Z25, Z2, K3, K2; \
	VPSUBB Z23, Z3, K1, Z3; \
	VPSUBB Z23, Z3, K2, Z3; \
	VPTERNLOGD $0xD8, Z22, Z0, Z3

// CVT4PH(I, ZA, YA, ZB, YB, ZC, YC, ZD, YD) converts the 64 float32 at I(SI) to binary16,
// elements 0..15 into YA, 16..31 into YB, 32..47 into YC and 48..63 into YD (ZA is the register
// of YA, and so on): the first step of the f32 -> f8 encoders.
#define CVT4PH(I, ZA, YA, ZB, YB, ZC, YC, ZD, YD) \
	VMOVUPS I(SI), ZA; \
	VMOVUPS I+64(SI), ZB; \
	VMOVUPS I+128(SI), ZC; \
	VMOVUPS I+192(SI), ZD; \
	VCVTPS2PH $0, ZA, YA; \
	VCVTPS2PH $0, ZB, YB; \
	VCVTPS2PH $0, ZC, YC; \
	VCVTPS2PH $0, ZD, YD

// F32F8 converts 64 float32 to binary16 (VCVTPS2PH, four halves joined in Z0 and Z1) and
// rounds them to f8 with TOF8.
#define F32F8(I, O) \
	CVT4PH(I, Z0, Y0, Z1, Y1, Z2, Y2, Z3, Y3); \
	VINSERTI64X4 $1, Y1, Z0, Z0; \
	VINSERTI64X4 $1, Y3, Z2, Z1; \
	TOF8; \
	VMOVDQU64 Z3, O(DI)

TEXT ·f32ToF8e4m3AVX512(SB), NOSPLIT, $512-56
	ARGS
	TOF8_CONSTS(·lutE4m3Enc, 0xBFBFBFBF)
	LOOP(F32F8, 64, 256, 64)

#define F16E4M3(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VMOVDQU64 I+64(SI), Z1; \
	TOF8; \
	VMOVDQU64 Z3, O(DI)

// E4M3F(L, H, D) is TOF8 for magnitudes in the normal f8e4m3 range, high byte M = H&0x7F from
// 0x24 to 0x5E (2^-6 ≤ |h| < 448), for the fast route of LOOPFAST: there the code is
// c = 2M - 0x40 + [L > 0x40] + [L > 0xBF], so D = H + (M - 0x40) + the two steps is c with the
// sign bit of H. L and H are the low and high bytes of 64 binary16; the unsigned maximum of
// M - 0x24 (modulo 256) goes into Z6 (E4M3FOK: every M was in range when it is at most 0x3A).
// Constants: Z17 = 0x7F, Z18 = 0x24, Z19 = 0x1C, Z20 = 0x40, Z25 = 0xBF, Z23 = 0xFF (bytes).
#define E4M3F(L, H, D) \
	VPANDD Z17, H, D; \
	VPSUBB Z18, D, D; \
	VPMAXUB D, Z6, Z6; \
	VPSUBB Z19, D, D; \
	VPCMPUB $6, Z20, L, K1; \
	VPCMPUB $6, Z25, L, K2; \
	VPSUBB Z23, D, K1, D; \
	VPSUBB Z23, D, K2, D; \
	VPADDB H, D, D

// E4M3F_CONSTS: the constants of E4M3F beside TOF8_CONSTS (which gives Z23 and Z25), and Z24 =
// 0x3A bytes, the largest M - 0x24 in range.
#define E4M3F_CONSTS \
	ZD(0x7F7F7F7F, Z17); \
	ZD(0x24242424, Z18); \
	ZD(0x1C1C1C1C, Z19); \
	ZD(0x40404040, Z20); \
	ZD(0x3A3A3A3A, Z24)

// E4M3FOK sets ZF when every byte of Z6 is at most 0x3A (Z24).
#define E4M3FOK \
	VPCMPUB $6, Z24, Z6, K1; \
	KORTESTQ K1, K1

#define E4M3FRESET VPXORD Z6, Z6, Z6

// F16E4M3F gathers the low and high bytes of 64 binary16 as TOF8 does and rounds them with E4M3F.
#define F16E4M3F(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VMOVDQU64 I+64(SI), Z1; \
	VMOVDQA64 Z31, Z2; \
	VPERMI2B Z1, Z0, Z2; \
	VPERMT2B Z1, Z30, Z0; \
	E4M3F(Z2, Z0, Z3); \
	VMOVDQU64 Z3, O(DI)

// f16ToF8e4m3AVX512 takes F16E4M3F's route 256 elements at a time, and converts again with
// F16E4M3 the groups that had a magnitude outside it (see LOOPFAST).
TEXT ·f16ToF8e4m3AVX512(SB), NOSPLIT, $512-56
	ARGS
	TOF8_CONSTS(·lutE4m3Enc, 0xBFBFBFBF)
	E4M3F_CONSTS
	LOOPFAST(F16E4M3F, E4M3FOK, F16E4M3, E4M3FRESET, NOCONSTS, 64, 128, 64)

// TOE5M2_CONSTS: Z15 = 0x7FFF, Z14 = 0x7C00, Z13 = 0x7F, Z12 = 1, Z11 = 0x0200, Z16 = 0x0100 (words),
// Z10 = the byte indices 1, 3, ..., 127 (the high bytes of the words of two registers).
#define TOE5M2_CONSTS \
	ZW(0x7FFF, Z15); \
	ZW(0x7C00, Z14); \
	ZW(0x7F, Z13); \
	ZW(1, Z12); \
	ZW(0x200, Z11); \
	ZW(0x100, Z16); \
	VMOVDQU64 ·oddBytes(SB), Z10

// TOE5M2 rounds the 32 binary16 words in R to f8e5m2 in the high byte of each word: NaN lanes
// (|h| > 0x7C00) become h | 0x0200 (the quieted NaN), the others h + 0x7F + ((h>>8)&1).
#define TOE5M2(R) \
	VPTESTMW Z16, R, K2; \
	VPADDW Z13, R, Z3; \
	VPADDW Z12, Z3, K2, Z3; \
	VPANDD Z15, R, Z2; \
	VPCMPUW $6, Z14, Z2, K1; \
	VPORD Z11, R, R; \
	VPBLENDMW R, Z3, K1, R

#define F16E5M2(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VMOVDQU64 I+64(SI), Z1; \
	TOE5M2(Z0); \
	TOE5M2(Z1); \
	VPERMT2B Z1, Z10, Z0; \
	VMOVDQU64 Z0, O(DI)

// TOE5M2F(R, D) is TOE5M2 without the NaN lanes, for the fast route of LOOPFAST: D gets the 32
// binary16 words in R rounded, h + 0x7F + ((h>>8)&1), and Z6 the unsigned maximum of its
// magnitudes h&0x7FFF and those before (E5M2FOK: the rounding is exact when no magnitude is
// above 0x7C00, that is when no lane is NaN; infinities and overflow round to 0x7C like TOE5M2).
#define TOE5M2F(R, D) \
	VPANDD Z15, R, Z2; \
	VPMAXUW Z2, Z6, Z6; \
	VPTESTMW Z16, R, K2; \
	VPADDW Z13, R, D; \
	VPADDW Z12, D, K2, D

// TOE5M2FY is TOE5M2F on the 16 words of a Y register. D may be R in both.
#define TOE5M2FY(R, D) \
	VPANDD Y15, R, Y2; \
	VPMAXUW Y2, Y6, Y6; \
	VPTESTMW Y16, R, K2; \
	VPADDW Y13, R, D; \
	VPADDW Y12, D, K2, D

// E5M2FOK sets ZF when no magnitude in Z6 is above 0x7C00 (Z14).
#define E5M2FOK \
	VPCMPUW $6, Z14, Z6, K1; \
	KORTESTD K1, K1

// E5M2FRESET starts the fast route's maximum again (LOOPFAST's FCONSTS; the other constants of
// both routes stay loaded, so its CONSTS is NOCONSTS).
#define E5M2FRESET VPXORD Z6, Z6, Z6

#define F16E5M2F(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VMOVDQU64 I+64(SI), Z1; \
	TOE5M2F(Z0, Z3); \
	TOE5M2F(Z1, Z4); \
	VPERMT2B Z4, Z10, Z3; \
	VMOVDQU64 Z3, O(DI)

// f16ToF8e5m2AVX512 takes, 256 elements at a time, TOE5M2F's route, and converts again with
// TOE5M2 the groups that had a NaN (see LOOPFAST).
TEXT ·f16ToF8e5m2AVX512(SB), NOSPLIT, $512-56
	ARGS
	TOE5M2_CONSTS
	LOOPFAST(F16E5M2F, E5M2FOK, F16E5M2, E5M2FRESET, NOCONSTS, 64, 128, 64)

// F32E5M2F converts 64 float32 to binary16 (VCVTPS2PH) and rounds each 16 of them with
// TOE5M2FY; VPERMT2B gathers the high bytes of each pair of Y registers (the first 32 indices of
// oddBytes), with no joining of halves.
#define F32E5M2F(I, O) \
	CVT4PH(I, Z0, Y0, Z1, Y1, Z3, Y3, Z4, Y4); \
	TOE5M2FY(Y0, Y0); \
	TOE5M2FY(Y1, Y1); \
	TOE5M2FY(Y3, Y3); \
	TOE5M2FY(Y4, Y4); \
	VPERMT2B Y1, Y10, Y0; \
	VPERMT2B Y4, Y10, Y3; \
	VMOVDQU Y0, O(DI); \
	VMOVDQU Y3, O+32(DI)

// f32ToF8e5m2AVX512 takes F32E5M2F's route 256 elements at a time, and converts again with
// F32F8 (the lutE5m2Enc lookups) the groups that had a NaN (see LOOPFAST).
TEXT ·f32ToF8e5m2AVX512(SB), NOSPLIT, $512-56
	ARGS
	TOF8_CONSTS(·lutE5m2Enc, 0)
	TOE5M2_CONSTS
	LOOPFAST(F32E5M2F, E5M2FOK, F32F8, E5M2FRESET, NOCONSTS, 64, 256, 64)

// ---- 4-bit lookups -----------------------------------------------------------------------------

// NIBF32 decodes 8 bytes (16 nibbles): each byte b becomes the dword pair (b | b<<28, b>>4), and
// VPERMPS reads the low 4 bits of each index.
#define NIBF32(I, O) \
	VPMOVZXBQ I(SI), Z0; \
	VPSLLQ $28, Z0, Z1; \
	VPORQ Z1, Z0, Z0; \
	VPERMPS Z15, Z0, Z1; \
	VMOVUPS Z1, O(DI)

TEXT ·u4ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVUPS ·lutU4F32(SB), Z15
	LOOP(NIBF32, 16, 8, 64)

TEXT ·i4ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVUPS ·lutI4F32(SB), Z15
	LOOP(NIBF32, 16, 8, 64)

TEXT ·nf4ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVUPS ·lutNf4F32(SB), Z15
	LOOP(NIBF32, 16, 8, 64)

TEXT ·f4e2m1ToF32AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVUPS ·lutF4e2m1F32(SB), Z15
	LOOP(NIBF32, 16, 8, 64)

// NIBF16 decodes 16 bytes (32 nibbles): each byte b becomes the word pair (b | b<<12, b>>4), and
// VPERMW reads the low 5 bits of each index (the table holds its 16 values twice).
#define NIBF16(I, O) \
	VPMOVZXBD I(SI), Z0; \
	VPSLLD $12, Z0, Z1; \
	VPORD Z1, Z0, Z0; \
	VPERMW Z15, Z0, Z1; \
	VMOVDQU64 Z1, O(DI)

TEXT ·u4ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU64 ·lutU4F16(SB), Z15
	LOOP(NIBF16, 32, 16, 64)

TEXT ·i4ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU64 ·lutI4F16(SB), Z15
	LOOP(NIBF16, 32, 16, 64)

TEXT ·nf4ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU64 ·lutNf4F16(SB), Z15
	LOOP(NIBF16, 32, 16, 64)

TEXT ·f4e2m1ToF16AVX512(SB), NOSPLIT, $512-56
	ARGS
	VMOVDQU64 ·lutF4e2m1F16(SB), Z15
	LOOP(NIBF16, 32, 16, 64)

// ---- integers -> f32, f16 ----------------------------------------------------------------------

// I8F32_ST is the loop body of I8F32 with the store instruction ST: the ordinary
// VMOVUPS or VMOVNTDQ (I8F32NT, for the non-temporal kernels).
#define I8F32_ST(I, O, ST) \
	VPMOVSXBD I(SI), Z0; \
	VCVTDQ2PS Z0, Z0; \
	ST Z0, O(DI)

#define I8F32(I, O) I8F32_ST(I, O, VMOVUPS)
#define I8F32NT(I, O) I8F32_ST(I, O, VMOVNTDQ)


#define U8F32(I, O) \
	VPMOVZXBD I(SI), Z0; \
	VCVTDQ2PS Z0, Z0; \
	VMOVUPS Z0, O(DI)


#define I16F32(I, O) \
	VPMOVSXWD I(SI), Z0; \
	VCVTDQ2PS Z0, Z0; \
	VMOVUPS Z0, O(DI)


#define U16F32(I, O) \
	VPMOVZXWD I(SI), Z0; \
	VCVTDQ2PS Z0, Z0; \
	VMOVUPS Z0, O(DI)


// I32F32_ST is the loop body of I32F32 with the store instruction ST: the ordinary
// VMOVUPS or VMOVNTDQ (I32F32NT, for the non-temporal kernels).
#define I32F32_ST(I, O, ST) \
	VCVTDQ2PS I(SI), Z0; \
	ST Z0, O(DI)

#define I32F32(I, O) I32F32_ST(I, O, VMOVUPS)
#define I32F32NT(I, O) I32F32_ST(I, O, VMOVNTDQ)


// TOF16PAIR converts the float32 in Z0 and Z1 to 32 binary16 at O(DI), storing the halves as
// they are (see F32F16_ST).
#define TOF16PAIR(O) \
	VCVTPS2PH $0, Z0, Y0; \
	VCVTPS2PH $0, Z1, Y1; \
	VMOVDQU Y0, O(DI); \
	VMOVDQU Y1, O+32(DI)

// BYTEF16 looks up the binary16 of each of 64 bytes in 256-entry tables of low bytes (Z16..Z19)
// and high bytes (Z20..Z23): VPERMI2B reads 7 index bits, so each plane takes two lookups, and
// the top bit of the byte (VPMOVB2M) picks the second. The bytes are first permuted (Z27) into
// the order that VPUNPCKL/HBW restore.
#define BYTEF16(I, O) \
	VPERMB I(SI), Z27, Z0; \
	VPMOVB2M Z0, K1; \
	VMOVDQA64 Z0, Z1; \
	VPERMI2B Z17, Z16, Z1; \
	VMOVDQA64 Z0, Z2; \
	VPERMI2B Z19, Z18, Z2; \
	VPBLENDMB Z2, Z1, K1, Z1; \
	VMOVDQA64 Z0, Z3; \
	VPERMI2B Z21, Z20, Z3; \
	VMOVDQA64 Z0, Z4; \
	VPERMI2B Z23, Z22, Z4; \
	VPBLENDMB Z4, Z3, K1, Z3; \
	VPUNPCKLBW Z3, Z1, Z0; \
	VPUNPCKHBW Z3, Z1, Z2; \
	VMOVDQU64 Z0, O(DI); \
	VMOVDQU64 Z2, O+64(DI)

// BYTEF16_CONSTS loads the tables at T: 256 low bytes, then 256 high bytes.
#define BYTEF16_CONSTS(T) \
	VMOVDQU64 T+0(SB), Z16; \
	VMOVDQU64 T+64(SB), Z17; \
	VMOVDQU64 T+128(SB), Z18; \
	VMOVDQU64 T+192(SB), Z19; \
	VMOVDQU64 T+256(SB), Z20; \
	VMOVDQU64 T+320(SB), Z21; \
	VMOVDQU64 T+384(SB), Z22; \
	VMOVDQU64 T+448(SB), Z23; \
	VMOVDQU64 ·unpackOrder(SB), Z27



// I16F16 sign-extends the even words of 64 bytes to int32 with VPMADDWD by the words 1, 0
// (Z14: x·1 + y·0) and the odd ones with VPMADDWD by 0, 1 (Z13), instead of VPSRAD: on Zen 4
// VPMADDWD runs on the multiply pipes, while VPSRAD would compete with VCVTDQ2PS and
// VCVTPS2PH for the float-add pipes (docs/perf/README.md).
#define I16F16(I, O) \
	VMOVDQU64 I(SI), Z1; \
	VPMADDWD Z14, Z1, Z0; \
	VPMADDWD Z13, Z1, Z1; \
	VCVTDQ2PS Z0, Z0; \
	VCVTDQ2PS Z1, Z1; \
	TOF16EVENODD(O)


// U16F16 makes the even words of 64 bytes the float32 bits of 2^23 + v with one VPTERNLOGD
// (v&0xFFFF | 0x4B000000, Z9 and Z12) and the odd ones with a shift and an OR, then subtracts
// 2^23 exactly with an FMA, x·1 − 2^23 (Z11 = 1.0, Z10 = −2^23), which runs on the multiply
// pipes where VCVTDQ2PS would compete with VCVTPS2PH (docs/perf/README.md).
#define U16F16(I, O) \
	VMOVDQU64 I(SI), Z1; \
	VMOVDQA64 Z12, Z0; \
	VPTERNLOGD $0xF8, Z9, Z1, Z0; \
	VPSRLD $16, Z1, Z1; \
	VPORD Z12, Z1, Z1; \
	VFMADD213PS Z10, Z11, Z0; \
	VFMADD213PS Z10, Z11, Z1; \
	TOF16EVENODD(O)


// I32F16 clamps to ±65504 before rounding to binary16 with one VRANGEPS a vector: imm 2 takes
// the operand of smaller magnitude, x or 65504 (Z15), with the sign of x.
#define I32F16(I, O) \
	VCVTDQ2PS I(SI), Z0; \
	VCVTDQ2PS I+64(SI), Z1; \
	VRANGEPS $2, Z15, Z0, Z0; \
	VRANGEPS $2, Z15, Z1, Z1; \
	TOF16PAIR(O)


// ---- integer widening and narrowing ------------------------------------------------------------

#define I8I32(I, O) \
	VPMOVSXBD I(SI), Z0; \
	VMOVDQU32 Z0, O(DI)


#define U8I32(I, O) \
	VPMOVZXBD I(SI), Z0; \
	VMOVDQU32 Z0, O(DI)


#define I16I32(I, O) \
	VPMOVSXWD I(SI), Z0; \
	VMOVDQU32 Z0, O(DI)


#define I32I64(I, O) \
	VPMOVSXDQ I(SI), Z0; \
	VMOVDQU64 Z0, O(DI)


#define I64I32(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VPERMT2D I+64(SI), Z10, Z0; \
	VMOVDQU64 Z0, O(DI)


#define I32I16(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VPERMT2W I+64(SI), Z10, Z0; \
	VMOVDQU64 Z0, O(DI)


#define I32I8(I, O) \
	VMOVDQU64 I(SI), Z0; \
	VPERMT2B I+64(SI), Z10, Z0; \
	VMOVDQU Y0, O(DI)


// ---- f32 -> integers ---------------------------------------------------------------------------

// F32I32R truncates the 16 float32 at I(SI) to int32 in R, saturating: lanes ≥ 2^31 (Z15) get
// 0x7FFFFFFF (Z14), NaN lanes 0 (Z13); below -2^31 VCVTTPS2DQ already gives 0x80000000.
#define F32I32R(I, R) \
	VMOVUPS I(SI), Z1; \
	VCVTTPS2DQ Z1, R; \
	VCMPPS $0x1D, Z15, Z1, K1; \
	VCMPPS $3, Z1, Z1, K2; \
	VMOVDQA32 Z14, K1, R; \
	VMOVDQA32 Z13, K2, R

#define F32I_CONSTS \
	ZD(0x4F000000, Z15); \
	ZD(0x7FFFFFFF, Z14); \
	VPXORD Z13, Z13, Z13

// F32I32_ST is the loop body of F32I32 with the store instruction ST: the ordinary
// VMOVDQU32 or VMOVNTDQ (F32I32NT, for the non-temporal kernels).
#define F32I32_ST(I, O, ST) \
	F32I32R(I, Z0); \
	ST Z0, O(DI)

#define F32I32(I, O) F32I32_ST(I, O, VMOVDQU32)
#define F32I32NT(I, O) F32I32_ST(I, O, VMOVNTDQ)

// TRUNC64 truncates the 64 float32 at (SI) to int32 in Z0..Z3 with VCVTTPS2DQ alone, and puts
// the VPMINSD of Z0 and Z1 in Z4 and of Z2 and Z3 in Z5.
#define TRUNC64 \
	VCVTTPS2DQ (SI), Z0; \
	VCVTTPS2DQ 64(SI), Z1; \
	VCVTTPS2DQ 128(SI), Z2; \
	VCVTTPS2DQ 192(SI), Z3; \
	VPMINSD Z1, Z0, Z4; \
	VPMINSD Z3, Z2, Z5

// f32ToI32AVX512 goes through LOOPCHECK with steps of 64 float32 converted by VCVTTPS2DQ alone,
// keeping the running VPMINSD of the results in Z11. VCVTTPS2DQ gives 0x80000000 for NaN and for
// |x| ≥ 2^31 (and for x = -2^31, which is correct), so a block with no result 0x80000000 is
// done; otherwise its steps are checked one by one and a step with such a lane goes through
// F32I32, which saturates and zeroes NaN lane by lane. Checking once a block instead of once a
// step brings short calls close to copy() (docs/perf/README.md); a call whose data has special
// values pays for one block twice.
#define I32FAST \
	TRUNC64; \
	VPMINSD Z4, Z11, Z11; \
	VPMINSD Z5, Z11, Z11

#define I32RESET VMOVDQA64 Z14, Z11

#define I32BAD \
	VPCMPEQD Z12, Z11, K1; \
	KORTESTW K1, K1

#define I32STORE \
	VMOVDQU32 Z0, (DI); \
	VMOVDQU32 Z1, 64(DI); \
	VMOVDQU32 Z2, 128(DI); \
	VMOVDQU32 Z3, 192(DI)

#define I32FIX \
	F32I32(0, 0); \
	F32I32(64, 64); \
	F32I32(128, 128); \
	F32I32(192, 192)


// F32CLAMP truncates the 16 float32 at I(SI) to int32 in R after clamping them to [LO, HI]
// with NaN kept (VMINPS and VMAXPS return their second Intel operand, here x, when it is NaN):
// a NaN lane becomes 0x80000000, whose low byte and low word are 0, so keeping the low byte or
// word of each lane gives NaN → 0 and every other lane is already in range. The narrowing
// kernels keep them with one two-source VPERMT2B/VPERMT2W per 32 elements (lowBytesD,
// lowWordsD), not with two VPMOVDB/VPMOVDW and an insert, which are slower on Zen 4
// (docs/perf/README.md, "Kernel design measurements").
#define F32CLAMP(I, R, LO, HI) \
	VMOVUPS I(SI), R; \
	VMINPS R, HI, R; \
	VMAXPS R, LO, R; \
	VCVTTPS2DQ R, R

#define F32I16(I, O) \
	F32CLAMP(I, Z0, Z12, Z11); \
	F32CLAMP(I+64, Z1, Z12, Z11); \
	VPERMT2W Z1, Z10, Z0; \
	VMOVDQU64 Z0, O(DI)


#define F32I8(I, O) \
	F32CLAMP(I, Z0, Z12, Z11); \
	F32CLAMP(I+64, Z1, Z12, Z11); \
	VPERMT2B Z1, Z10, Z0; \
	VMOVDQU Y0, O(DI)



// ---- f64 <-> f32 -------------------------------------------------------------------------------

// F64F32_ST is the loop body of F64F32 with the store instruction ST: the ordinary
// VMOVUPS or VMOVNTDQ (F64F32NT, for the non-temporal kernels), 32 bytes at a time (see F32F16_ST).
#define F64F32_ST(I, O, ST) \
	VCVTPD2PS I(SI), Y0; \
	VCVTPD2PS I+64(SI), Y1; \
	ST Y0, O(DI); \
	ST Y1, O+32(DI)

#define F64F32(I, O) F64F32_ST(I, O, VMOVUPS)
#define F64F32NT(I, O) F64F32_ST(I, O, VMOVNTDQ)

// F64F32Y is F64F32 with four 256-bit conversions (VCVTPD2PS ymm → xmm) joined in pairs: it is
// slower from L1 and slightly faster when the buffers live in L2 or L3, hence the switch at
// 2048 elements (docs/perf/README.md, "Kernel design measurements").
#define F64F32Y(I, O) \
	VCVTPD2PSY I(SI), X0; \
	VCVTPD2PSY I+32(SI), X1; \
	VCVTPD2PSY I+64(SI), X2; \
	VCVTPD2PSY I+96(SI), X3; \
	VINSERTF128 $1, X1, Y0, Y0; \
	VINSERTF128 $1, X3, Y2, Y2; \
	VMOVUPS Y0, O(DI); \
	VMOVUPS Y2, O+32(DI)

// f64ToF32AVX512 converts calls of at least f64F32YMin elements with F64F32Y, 32 elements a
// step, and the rest (the whole call below f64F32YMin, the last partial step above) with LOOP.
#define f64F32YMin 2048


// F32F64_ST is the loop body of F32F64 with the store instruction ST: the ordinary
// VMOVUPD or VMOVNTDQ (F32F64NT, for the non-temporal kernels).
#define F32F64_ST(I, O, ST) \
	VCVTPS2PD I(SI), Z0; \
	ST Z0, O(DI)

#define F32F64(I, O) F32F64_ST(I, O, VMOVUPD)
#define F32F64NT(I, O) F32F64_ST(I, O, VMOVNTDQ)


// ---- boolean -----------------------------------------------------------------------------------

#define BOOLU8(I, O) \
	VPMINUB I(SI), Z15, Z0; \
	VMOVDQU64 Z0, O(DI)


#define BOOLF32(I, O) \
	VPMOVZXBD I(SI), Z0; \
	VPMINUD Z15, Z0, Z0; \
	VCVTDQ2PS Z0, Z0; \
	VMOVUPS Z0, O(DI)


// F32BOOL: a lane whose bits without the sign (Z14) are not all zero gives byte 1 (Z15).
#define F32BOOL(I, O) \
	VPTESTMD I(SI), Z14, K1; \
	VPTESTMD I+64(SI), Z14, K2; \
	KUNPCKWD K1, K2, K1; \
	VMOVDQU8.Z Y15, K1, Y0; \
	VMOVDQU Y0, O(DI)


// ---- non-temporal variants for large conversions -----------------------------------------------
// The same loop bodies (the *NT macros, defined with the ordinary ones) with VMOVNTDQ stores, for
// destinations much larger than the caches: n is a multiple of the block size and dst is 64-byte
// aligned.

TEXT ·f32ToF16AVX512NT(SB), NOSPLIT, $0-56
	ARGS
	LOOPNT(F32F16NT, 32, 128, 64)

TEXT ·f16ToF32AVX512NT(SB), NOSPLIT, $0-56
	ARGS
	LOOPNT(F16F32NT, 16, 32, 64)

TEXT ·f32ToBF16AVX512NT(SB), NOSPLIT, $0-56
	ARGS
	BF16_CONSTS
	LOOPNT(F32BF16NT, 32, 128, 64)

TEXT ·bf16ToF32AVX512NT(SB), NOSPLIT, $0-56
	ARGS
	LOOPNT(BF16F32NT, 16, 32, 64)

TEXT ·f8e4m3ToF16AVX512NT(SB), NOSPLIT, $0-56
	ARGS
	E4M3F16_CONSTS
	LOOPNT(E4M3F16NT, 64, 64, 128)





