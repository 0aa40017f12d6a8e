//go:build gc && !purego

// The NEON kernels of package quant (Dequantize and Quantize, docs/SEMANTICS.md §9). Each
// converts steps of 32 elements (one MXFP4 or MXFP8 group, two NVFP4 groups); stubs_arm64.go
// documents each by the pure-Go call it computes (its row's loop in registry.go). The tables
// they read are in tables.go. FPCR is as Go leaves it: round to nearest even, no flush to zero,
// default-NaN mode off.
//
// Instructions the Go assembler lacks are WORD-encoded with the instruction in the comment;
// TestARM64WordEncodings checks each against aarch64-linux-gnu-objdump.
//
// f4e2m1 → f32, f16, bf16: a group's 16 values split into byte planes, looked up by TBL with the
// element's code, and ST4 or ST2 interleaves the planes' bytes back into values. For f32 the
// planes come from the 16 products of the group's scale (FMUL by the scale, exact) and
// UZP1/UZP2; for f16 and bf16 they are loaded from the scale's row in tables.go, whose
// products the pure-Go functions rounded.

#include "textflag.h"

// func mxfp4ToF32NEON(dst, codes, scales []byte, steps int)
TEXT ·mxfp4ToF32NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$·f4Values(SB), R5
	VLD1	(R5), [V28.S4, V29.S4, V30.S4, V31.S4]
	MOVD	$·e8m0Scales(SB), R4
	VMOVI	$15, V27.B16
	CBZ	R3, done
loop:
	MOVBU.P	1(R2), R5
	MOVWU	(R4)(R5<<2), R6
	VDUP	R6, V0.S4
	WORD	$0x6e20df81 // FMUL V1.4S, V28.4S, V0.4S
	WORD	$0x6e20dfa2 // FMUL V2.4S, V29.4S, V0.4S
	WORD	$0x6e20dfc3 // FMUL V3.4S, V30.4S, V0.4S
	WORD	$0x6e20dfe4 // FMUL V4.4S, V31.4S, V0.4S
	VUZP1	V2.B16, V1.B16, V14.B16
	VUZP2	V2.B16, V1.B16, V15.B16
	VUZP1	V4.B16, V3.B16, V16.B16
	VUZP2	V4.B16, V3.B16, V17.B16
	VUZP1	V16.B16, V14.B16, V5.B16
	VUZP1	V17.B16, V15.B16, V6.B16
	VUZP2	V16.B16, V14.B16, V7.B16
	VUZP2	V17.B16, V15.B16, V8.B16
	VLD1.P	16(R1), [V13.B16]
	VAND	V27.B16, V13.B16, V14.B16
	VUSHR	$4, V13.B16, V15.B16
	VZIP1	V15.B16, V14.B16, V16.B16
	VZIP2	V15.B16, V14.B16, V17.B16
	VTBL	V16.B16, [V5.B16], V18.B16
	VTBL	V16.B16, [V6.B16], V19.B16
	VTBL	V16.B16, [V7.B16], V20.B16
	VTBL	V16.B16, [V8.B16], V21.B16
	VST4.P	[V18.B16, V19.B16, V20.B16, V21.B16], 64(R0)
	VTBL	V17.B16, [V5.B16], V18.B16
	VTBL	V17.B16, [V6.B16], V19.B16
	VTBL	V17.B16, [V7.B16], V20.B16
	VTBL	V17.B16, [V8.B16], V21.B16
	VST4.P	[V18.B16, V19.B16, V20.B16, V21.B16], 64(R0)
	SUBS	$1, R3, R3
	BNE	loop
done:
	RET

// func mxfp4ToF16NEON(dst, codes, scales []byte, steps int)
TEXT ·mxfp4ToF16NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$·mxfp4F16Split(SB), R8
	JMP	mxfp4HalfBlocks<>(SB)

// func mxfp4ToBF16NEON(dst, codes, scales []byte, steps int)
TEXT ·mxfp4ToBF16NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$·mxfp4BF16Split(SB), R8
	JMP	mxfp4HalfBlocks<>(SB)

// mxfp4HalfBlocks<> decodes R3 steps of 32 f4e2m1 codes from R1, with one f8e8m0 scale (MXFP4:
// a block of 32) a step from R2, to R0, as f16 or bf16 by the rows in R8: for every scale byte,
// the 16 products of tables.go split into two byte planes (low bytes, then high bytes, 32
// bytes a scale), which TBL looks up by code.
TEXT mxfp4HalfBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	VMOVI	$15, V27.B16
	CBZ	R3, done
loop:
	MOVBU.P	1(R2), R5
	ADD	R5<<5, R8, R6
	VLD1	(R6), [V5.B16, V6.B16]
	VLD1.P	16(R1), [V13.B16]
	VAND	V27.B16, V13.B16, V14.B16
	VUSHR	$4, V13.B16, V15.B16
	VZIP1	V15.B16, V14.B16, V16.B16
	VZIP2	V15.B16, V14.B16, V17.B16
	VTBL	V16.B16, [V5.B16], V18.B16
	VTBL	V16.B16, [V6.B16], V19.B16
	VST2.P	[V18.B16, V19.B16], 32(R0)
	VTBL	V17.B16, [V5.B16], V18.B16
	VTBL	V17.B16, [V6.B16], V19.B16
	VST2.P	[V18.B16, V19.B16], 32(R0)
	SUBS	$1, R3, R3
	BNE	loop
done:
	RET

// func nvfp4ToF32NEON(dst, codes, scales []byte, steps int)
TEXT ·nvfp4ToF32NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$·f4Values(SB), R5
	VLD1	(R5), [V28.S4, V29.S4, V30.S4, V31.S4]
	MOVD	$·e4m3Scales(SB), R4
	VMOVI	$15, V27.B16
	CBZ	R3, done
loop:
	MOVBU.P	1(R2), R5
	MOVWU	(R4)(R5<<2), R6
	VDUP	R6, V0.S4
	WORD	$0x6e20df81 // FMUL V1.4S, V28.4S, V0.4S
	WORD	$0x6e20dfa2 // FMUL V2.4S, V29.4S, V0.4S
	WORD	$0x6e20dfc3 // FMUL V3.4S, V30.4S, V0.4S
	WORD	$0x6e20dfe4 // FMUL V4.4S, V31.4S, V0.4S
	VUZP1	V2.B16, V1.B16, V14.B16
	VUZP2	V2.B16, V1.B16, V15.B16
	VUZP1	V4.B16, V3.B16, V16.B16
	VUZP2	V4.B16, V3.B16, V17.B16
	VUZP1	V16.B16, V14.B16, V5.B16
	VUZP1	V17.B16, V15.B16, V6.B16
	VUZP2	V16.B16, V14.B16, V7.B16
	VUZP2	V17.B16, V15.B16, V8.B16
	MOVBU.P	1(R2), R5
	MOVWU	(R4)(R5<<2), R6
	VDUP	R6, V0.S4
	WORD	$0x6e20df81 // FMUL V1.4S, V28.4S, V0.4S
	WORD	$0x6e20dfa2 // FMUL V2.4S, V29.4S, V0.4S
	WORD	$0x6e20dfc3 // FMUL V3.4S, V30.4S, V0.4S
	WORD	$0x6e20dfe4 // FMUL V4.4S, V31.4S, V0.4S
	VUZP1	V2.B16, V1.B16, V14.B16
	VUZP2	V2.B16, V1.B16, V15.B16
	VUZP1	V4.B16, V3.B16, V16.B16
	VUZP2	V4.B16, V3.B16, V17.B16
	VUZP1	V16.B16, V14.B16, V9.B16
	VUZP1	V17.B16, V15.B16, V10.B16
	VUZP2	V16.B16, V14.B16, V11.B16
	VUZP2	V17.B16, V15.B16, V12.B16
	VLD1.P	16(R1), [V13.B16]
	VAND	V27.B16, V13.B16, V14.B16
	VUSHR	$4, V13.B16, V15.B16
	VZIP1	V15.B16, V14.B16, V16.B16
	VZIP2	V15.B16, V14.B16, V17.B16
	VTBL	V16.B16, [V5.B16], V18.B16
	VTBL	V16.B16, [V6.B16], V19.B16
	VTBL	V16.B16, [V7.B16], V20.B16
	VTBL	V16.B16, [V8.B16], V21.B16
	VST4.P	[V18.B16, V19.B16, V20.B16, V21.B16], 64(R0)
	VTBL	V17.B16, [V9.B16], V18.B16
	VTBL	V17.B16, [V10.B16], V19.B16
	VTBL	V17.B16, [V11.B16], V20.B16
	VTBL	V17.B16, [V12.B16], V21.B16
	VST4.P	[V18.B16, V19.B16, V20.B16, V21.B16], 64(R0)
	SUBS	$1, R3, R3
	BNE	loop
done:
	RET

// func nvfp4ToF16NEON(dst, codes, scales []byte, steps int)
TEXT ·nvfp4ToF16NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$·nvfp4F16Split(SB), R8
	JMP	nvfp4HalfBlocks<>(SB)

// func nvfp4ToBF16NEON(dst, codes, scales []byte, steps int)
TEXT ·nvfp4ToBF16NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$·nvfp4BF16Split(SB), R8
	JMP	nvfp4HalfBlocks<>(SB)

// nvfp4HalfBlocks<> decodes R3 steps of 32 f4e2m1 codes from R1, with two f8e4m3 scales (NVFP4:
// blocks of 16) a step from R2, to R0, as f16 or bf16 by the rows in R8 (as mxfp4HalfBlocks<>),
// one row a block.
TEXT nvfp4HalfBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	VMOVI	$15, V27.B16
	CBZ	R3, done
loop:
	MOVBU.P	1(R2), R5
	ADD	R5<<5, R8, R6
	VLD1	(R6), [V5.B16, V6.B16]
	MOVBU.P	1(R2), R5
	ADD	R5<<5, R8, R6
	VLD1	(R6), [V9.B16, V10.B16]
	VLD1.P	16(R1), [V13.B16]
	VAND	V27.B16, V13.B16, V14.B16
	VUSHR	$4, V13.B16, V15.B16
	VZIP1	V15.B16, V14.B16, V16.B16
	VZIP2	V15.B16, V14.B16, V17.B16
	VTBL	V16.B16, [V5.B16], V18.B16
	VTBL	V16.B16, [V6.B16], V19.B16
	VST2.P	[V18.B16, V19.B16], 32(R0)
	VTBL	V17.B16, [V9.B16], V18.B16
	VTBL	V17.B16, [V10.B16], V19.B16
	VST2.P	[V18.B16, V19.B16], 32(R0)
	SUBS	$1, R3, R3
	BNE	loop
done:
	RET

// func mxfp8e4m3ToF32NEON(dst, codes, scales []byte, steps int)
TEXT ·mxfp8e4m3ToF32NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$0, R7 // to f32
	JMP	mxfp8e4m3Blocks<>(SB)

// func mxfp8e4m3ToBF16NEON(dst, codes, scales []byte, steps int)
TEXT ·mxfp8e4m3ToBF16NEON(SB), NOSPLIT, $0-80
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	steps+72(FP), R3
	MOVD	$1, R7 // to bf16
	JMP	mxfp8e4m3Blocks<>(SB)

// mxfp8e4m3Blocks<> decodes R3 MXFP8 (f8e4m3) blocks of 32 codes from R1, their f8e8m0 scales
// from R2, to R0: float32 products (R7 = 0) or their bfloat16 rounded to nearest even as
// BF16FromF32 does (R7 = 1). A block is two steps of 16 codes: each code's magnitude bits at
// float32 bit 20, masked, are its value times 2^-120 (FMUL by 2^120 is exact), the NaN code
// becomes the quiet NaN, the sign comes from bit 7, and one FMUL by the scale gives the product.
TEXT mxfp8e4m3Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	MOVD	$·e8m0Scales(SB), R4
	MOVW	$0x7f00000, R5
	VDUP	R5, V31.S4
	MOVW	$0x7b800000, R5
	VDUP	R5, V30.S4
	MOVW	$0x7fc00000, R5
	VDUP	R5, V29.S4
	MOVW	$0x80000000, R5
	VDUP	R5, V28.S4
	MOVW	$0x1, R5
	VDUP	R5, V27.S4
	MOVW	$0x7fff, R5
	VDUP	R5, V26.S4
	CBZ	R3, done
loop:
	MOVBU.P	1(R2), R5
	MOVWU	(R4)(R5<<2), R6
	VDUP	R6, V0.S4
	MOVD	$2, R8
half:
	VLD1.P	16(R1), [V1.B16]
	VUXTL	V1.B8, V2.H8
	VUXTL2	V1.B16, V3.H8
	VUXTL	V2.H4, V4.S4
	VUXTL2	V2.H8, V5.S4
	VUXTL	V3.H4, V6.S4
	VUXTL2	V3.H8, V7.S4
	VSHL	$20, V4.S4, V8.S4
	VAND	V31.B16, V8.B16, V8.B16
	VCMEQ	V31.S4, V8.S4, V13.S4
	WORD	$0x6e3edd08 // FMUL V8.4S, V8.4S, V30.4S
	VBIT	V13.B16, V29.B16, V8.B16
	VSHL	$24, V4.S4, V12.S4
	VAND	V28.B16, V12.B16, V12.B16
	VORR	V12.B16, V8.B16, V8.B16
	WORD	$0x6e28dc08 // FMUL V8.4S, V0.4S, V8.4S
	VSHL	$20, V5.S4, V9.S4
	VAND	V31.B16, V9.B16, V9.B16
	VCMEQ	V31.S4, V9.S4, V13.S4
	WORD	$0x6e3edd29 // FMUL V9.4S, V9.4S, V30.4S
	VBIT	V13.B16, V29.B16, V9.B16
	VSHL	$24, V5.S4, V12.S4
	VAND	V28.B16, V12.B16, V12.B16
	VORR	V12.B16, V9.B16, V9.B16
	WORD	$0x6e29dc09 // FMUL V9.4S, V0.4S, V9.4S
	VSHL	$20, V6.S4, V10.S4
	VAND	V31.B16, V10.B16, V10.B16
	VCMEQ	V31.S4, V10.S4, V13.S4
	WORD	$0x6e3edd4a // FMUL V10.4S, V10.4S, V30.4S
	VBIT	V13.B16, V29.B16, V10.B16
	VSHL	$24, V6.S4, V12.S4
	VAND	V28.B16, V12.B16, V12.B16
	VORR	V12.B16, V10.B16, V10.B16
	WORD	$0x6e2adc0a // FMUL V10.4S, V0.4S, V10.4S
	VSHL	$20, V7.S4, V11.S4
	VAND	V31.B16, V11.B16, V11.B16
	VCMEQ	V31.S4, V11.S4, V13.S4
	WORD	$0x6e3edd6b // FMUL V11.4S, V11.4S, V30.4S
	VBIT	V13.B16, V29.B16, V11.B16
	VSHL	$24, V7.S4, V12.S4
	VAND	V28.B16, V12.B16, V12.B16
	VORR	V12.B16, V11.B16, V11.B16
	WORD	$0x6e2bdc0b // FMUL V11.4S, V0.4S, V11.4S
	CBNZ	R7, tobf16
	VST1.P	[V8.S4, V9.S4, V10.S4, V11.S4], 64(R0)
	B	next
tobf16:
	VUSHR	$16, V8.S4, V12.S4
	VAND	V27.B16, V12.B16, V12.B16
	VADD	V26.S4, V8.S4, V8.S4
	VADD	V12.S4, V8.S4, V8.S4
	VUSHR	$16, V9.S4, V12.S4
	VAND	V27.B16, V12.B16, V12.B16
	VADD	V26.S4, V9.S4, V9.S4
	VADD	V12.S4, V9.S4, V9.S4
	VUSHR	$16, V10.S4, V12.S4
	VAND	V27.B16, V12.B16, V12.B16
	VADD	V26.S4, V10.S4, V10.S4
	VADD	V12.S4, V10.S4, V10.S4
	VUSHR	$16, V11.S4, V12.S4
	VAND	V27.B16, V12.B16, V12.B16
	VADD	V26.S4, V11.S4, V11.S4
	VADD	V12.S4, V11.S4, V11.S4
	VUZP2	V9.H8, V8.H8, V14.H8
	VUZP2	V11.H8, V10.H8, V15.H8
	VST1.P	[V14.H8, V15.H8], 32(R0)
next:
	SUBS	$1, R8, R8
	BNE	half
	SUBS	$1, R3, R3
	BNE	loop
done:
	RET

// func f32ToMXFP4NEON(codes, scales, src []byte, steps int)
TEXT ·f32ToMXFP4NEON(SB), NOSPLIT, $0-80
	MOVD	codes_base+0(FP), R0
	MOVD	scales_base+24(FP), R2
	MOVD	src_base+48(FP), R1
	MOVD	steps+72(FP), R3
	MOVW	$0x7fffffff, R5
	VDUP	R5, V31.S4
	MOVW	$0x4a800000, R5
	VDUP	R5, V30.S4
	MOVW	$0x7, R5
	VDUP	R5, V29.S4
	MOVW	$0x8, R5
	VDUP	R5, V28.S4
	MOVW	$0x3f800000, R5
	VDUP	R5, V27.S4
	MOVW	$0xc11fffff, R5
	VDUP	R5, V26.S4
	MOVW	$0x1, R5
	VDUP	R5, V25.S4
	CBZ	R3, done
loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P	64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	VAND	V31.B16, V0.B16, V8.B16
	VAND	V31.B16, V1.B16, V9.B16
	VAND	V31.B16, V2.B16, V10.B16
	VAND	V31.B16, V3.B16, V11.B16
	VAND	V31.B16, V4.B16, V12.B16
	VAND	V31.B16, V5.B16, V13.B16
	VAND	V31.B16, V6.B16, V14.B16
	VAND	V31.B16, V7.B16, V15.B16
	VUMAX	V9.S4, V8.S4, V16.S4
	VUMAX	V11.S4, V10.S4, V17.S4
	VUMAX	V13.S4, V12.S4, V18.S4
	VUMAX	V15.S4, V14.S4, V19.S4
	VUMAX	V17.S4, V16.S4, V16.S4
	VUMAX	V19.S4, V18.S4, V18.S4
	VUMAX	V18.S4, V16.S4, V16.S4
	WORD	$0x6eb0aa10 // UMAXV S16, V16.4S
	FMOVS	F16, R5
	MOVW	$0x7F800000, R6
	CMPW	R6, R5
	BHS	nanblock
	LSRW	$23, R5, R5
	SUBSW	$2, R5, R5
	CSELW	LT, ZR, R5, R5
	MOVB	R5, (R2)
	MOVW	$254, R6
	SUBW	R5, R6, R6
	LSLW	$23, R6, R6
	VDUP	R6, V20.S4
	WORD	$0x6e34dd08 // FMUL V8.4S, V8.4S, V20.4S
	VUSHR	$22, V8.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V8.S4, V16.S4
	VADD	V21.S4, V16.S4, V16.S4
	VUSHR	$22, V16.S4, V16.S4
	WORD	$0x4e3ed515 // FADD V21.4S, V8.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6ea83776 // CMHI V22.4S, V27.4S, V8.4S
	VBIT	V22.B16, V21.B16, V16.B16
	VUMIN	V29.S4, V16.S4, V16.S4
	VUSHR	$28, V0.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V16.B16, V0.B16
	WORD	$0x6e34dd29 // FMUL V9.4S, V9.4S, V20.4S
	VUSHR	$22, V9.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V9.S4, V17.S4
	VADD	V21.S4, V17.S4, V17.S4
	VUSHR	$22, V17.S4, V17.S4
	WORD	$0x4e3ed535 // FADD V21.4S, V9.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6ea93776 // CMHI V22.4S, V27.4S, V9.4S
	VBIT	V22.B16, V21.B16, V17.B16
	VUMIN	V29.S4, V17.S4, V17.S4
	VUSHR	$28, V1.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V17.B16, V1.B16
	WORD	$0x6e34dd4a // FMUL V10.4S, V10.4S, V20.4S
	VUSHR	$22, V10.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V10.S4, V18.S4
	VADD	V21.S4, V18.S4, V18.S4
	VUSHR	$22, V18.S4, V18.S4
	WORD	$0x4e3ed555 // FADD V21.4S, V10.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6eaa3776 // CMHI V22.4S, V27.4S, V10.4S
	VBIT	V22.B16, V21.B16, V18.B16
	VUMIN	V29.S4, V18.S4, V18.S4
	VUSHR	$28, V2.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V18.B16, V2.B16
	WORD	$0x6e34dd6b // FMUL V11.4S, V11.4S, V20.4S
	VUSHR	$22, V11.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V11.S4, V19.S4
	VADD	V21.S4, V19.S4, V19.S4
	VUSHR	$22, V19.S4, V19.S4
	WORD	$0x4e3ed575 // FADD V21.4S, V11.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6eab3776 // CMHI V22.4S, V27.4S, V11.4S
	VBIT	V22.B16, V21.B16, V19.B16
	VUMIN	V29.S4, V19.S4, V19.S4
	VUSHR	$28, V3.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V19.B16, V3.B16
	WORD	$0x6e34dd8c // FMUL V12.4S, V12.4S, V20.4S
	VUSHR	$22, V12.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V12.S4, V16.S4
	VADD	V21.S4, V16.S4, V16.S4
	VUSHR	$22, V16.S4, V16.S4
	WORD	$0x4e3ed595 // FADD V21.4S, V12.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6eac3776 // CMHI V22.4S, V27.4S, V12.4S
	VBIT	V22.B16, V21.B16, V16.B16
	VUMIN	V29.S4, V16.S4, V16.S4
	VUSHR	$28, V4.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V16.B16, V4.B16
	WORD	$0x6e34ddad // FMUL V13.4S, V13.4S, V20.4S
	VUSHR	$22, V13.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V13.S4, V17.S4
	VADD	V21.S4, V17.S4, V17.S4
	VUSHR	$22, V17.S4, V17.S4
	WORD	$0x4e3ed5b5 // FADD V21.4S, V13.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6ead3776 // CMHI V22.4S, V27.4S, V13.4S
	VBIT	V22.B16, V21.B16, V17.B16
	VUMIN	V29.S4, V17.S4, V17.S4
	VUSHR	$28, V5.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V17.B16, V5.B16
	WORD	$0x6e34ddce // FMUL V14.4S, V14.4S, V20.4S
	VUSHR	$22, V14.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V14.S4, V18.S4
	VADD	V21.S4, V18.S4, V18.S4
	VUSHR	$22, V18.S4, V18.S4
	WORD	$0x4e3ed5d5 // FADD V21.4S, V14.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6eae3776 // CMHI V22.4S, V27.4S, V14.4S
	VBIT	V22.B16, V21.B16, V18.B16
	VUMIN	V29.S4, V18.S4, V18.S4
	VUSHR	$28, V6.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V18.B16, V6.B16
	WORD	$0x6e34ddef // FMUL V15.4S, V15.4S, V20.4S
	VUSHR	$22, V15.S4, V21.S4
	VAND	V25.B16, V21.B16, V21.B16
	VADD	V26.S4, V15.S4, V19.S4
	VADD	V21.S4, V19.S4, V19.S4
	VUSHR	$22, V19.S4, V19.S4
	WORD	$0x4e3ed5f5 // FADD V21.4S, V15.4S, V30.4S
	VSUB	V30.S4, V21.S4, V21.S4
	WORD	$0x6eaf3776 // CMHI V22.4S, V27.4S, V15.4S
	VBIT	V22.B16, V21.B16, V19.B16
	VUMIN	V29.S4, V19.S4, V19.S4
	VUSHR	$28, V7.S4, V21.S4
	VAND	V28.B16, V21.B16, V21.B16
	VORR	V21.B16, V19.B16, V7.B16
	VUZP1	V1.H8, V0.H8, V8.H8
	VUZP1	V3.H8, V2.H8, V9.H8
	VUZP1	V5.H8, V4.H8, V10.H8
	VUZP1	V7.H8, V6.H8, V11.H8
	VUZP1	V9.B16, V8.B16, V12.B16
	VUZP1	V11.B16, V10.B16, V13.B16
	VUZP1	V13.B16, V12.B16, V14.B16
	VUZP2	V13.B16, V12.B16, V15.B16
	VSLI	$4, V15.B16, V14.B16
	VST1.P	[V14.B16], 16(R0)
next:
	ADD	$1, R2, R2
	SUBS	$1, R3, R3
	BNE	loop
done:
	RET
nanblock:
	MOVW	$0xFF, R5
	MOVB	R5, (R2)
	VEOR	V14.B16, V14.B16, V14.B16
	VST1.P	[V14.B16], 16(R0)
	B	next

// The group kernels: the dequantizers of the group rows (a family of schemes, computed in f16 as
// docs/SEMANTICS.md §9.5 specifies), which take the group size, a multiple of 32, at run time.
// Each element is f16(f32(f16(code − zero)) × scale): code − zero is an integer of at most 9
// bits, exact in f32, and its product with an f16 scale (or an f8e8m0 scale rounded to f16 first,
// FCVTN then FCVTL) has at most 20 significant bits, exact in f32, so one FCVTN to nearest even
// rounds it as the specification does; an f32 destination receives that f16 value (FCVTL). A NaN
// product (a NaN scale, which FMUL propagates with its sign and payload, or an infinite scale
// times a zero difference) becomes the positive quiet NaN 0x7FC00000 (f16 0x7E00), the pure-Go
// loop's, by FCMEQ of the product with itself and BIF.
//
// 4-bit codes (nibbleGroups<>): a group has only 16 values, one a code. Each group's 16 products
// are computed, fixed up and rounded to f16 once, split into byte planes (UZP1, UZP2) and looked
// up by TBL with the codes, and ST2 (f16) or ST4 (f32) interleaves the planes' bytes into values.
//
// 8-bit codes (byteGroups<>): each element is computed (UXTL and a 16-bit SUB of the zero point,
// or SXTL; SXTL to 32 bits; SCVTF; FMUL; FCVTN), 16 a step; the NaN fix-up runs only in a group
// whose scale is infinite or NaN.
//
// Registers: R0 = values, R1 = codes, R2 = scales, R3 = zero points, R4 = groups left, R5 =
// group, then steps a group; R6 = the 16 code values (4-bit codes); R7 = 1 for f32 values, 0 for
// f16; R8 = 1 for zero points (u4 or u8), R9 = 1 for f8e8m0 scales (4-bit codes).
// u4Values are the values of the 16 u4 codes as float32, by code.
DATA	u4Values<>+0(SB)/4, $0x00000000
DATA	u4Values<>+4(SB)/4, $0x3f800000
DATA	u4Values<>+8(SB)/4, $0x40000000
DATA	u4Values<>+12(SB)/4, $0x40400000
DATA	u4Values<>+16(SB)/4, $0x40800000
DATA	u4Values<>+20(SB)/4, $0x40a00000
DATA	u4Values<>+24(SB)/4, $0x40c00000
DATA	u4Values<>+28(SB)/4, $0x40e00000
DATA	u4Values<>+32(SB)/4, $0x41000000
DATA	u4Values<>+36(SB)/4, $0x41100000
DATA	u4Values<>+40(SB)/4, $0x41200000
DATA	u4Values<>+44(SB)/4, $0x41300000
DATA	u4Values<>+48(SB)/4, $0x41400000
DATA	u4Values<>+52(SB)/4, $0x41500000
DATA	u4Values<>+56(SB)/4, $0x41600000
DATA	u4Values<>+60(SB)/4, $0x41700000
GLOBL	u4Values<>(SB), RODATA|NOPTR, $64

// i4Values are the values of the 16 i4 codes as float32, by code.
DATA	i4Values<>+0(SB)/4, $0x00000000
DATA	i4Values<>+4(SB)/4, $0x3f800000
DATA	i4Values<>+8(SB)/4, $0x40000000
DATA	i4Values<>+12(SB)/4, $0x40400000
DATA	i4Values<>+16(SB)/4, $0x40800000
DATA	i4Values<>+20(SB)/4, $0x40a00000
DATA	i4Values<>+24(SB)/4, $0x40c00000
DATA	i4Values<>+28(SB)/4, $0x40e00000
DATA	i4Values<>+32(SB)/4, $0xc1000000
DATA	i4Values<>+36(SB)/4, $0xc0e00000
DATA	i4Values<>+40(SB)/4, $0xc0c00000
DATA	i4Values<>+44(SB)/4, $0xc0a00000
DATA	i4Values<>+48(SB)/4, $0xc0800000
DATA	i4Values<>+52(SB)/4, $0xc0400000
DATA	i4Values<>+56(SB)/4, $0xc0000000
DATA	i4Values<>+60(SB)/4, $0xbf800000
GLOBL	i4Values<>(SB), RODATA|NOPTR, $64

// func int4asymToF16NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int4asymToF16NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$u4Values<>(SB), R6
	MOVD	$0, R7 // to f16
	MOVD	$1, R8 // u4 zero points
	MOVD	$0, R9 // f16 scales
	JMP	nibbleGroups<>(SB)

// func int4asymToF32NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int4asymToF32NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$u4Values<>(SB), R6
	MOVD	$1, R7 // to f32
	MOVD	$1, R8 // u4 zero points
	MOVD	$0, R9 // f16 scales
	JMP	nibbleGroups<>(SB)

// func int4symToF16NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int4symToF16NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$i4Values<>(SB), R6
	MOVD	$0, R7 // to f16
	MOVD	$0, R8 // no zero points
	MOVD	$0, R9 // f16 scales
	JMP	nibbleGroups<>(SB)

// func int4symToF32NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int4symToF32NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$i4Values<>(SB), R6
	MOVD	$1, R7 // to f32
	MOVD	$0, R8 // no zero points
	MOVD	$0, R9 // f16 scales
	JMP	nibbleGroups<>(SB)

// func mxfp4f16ToF16NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·mxfp4f16ToF16NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$·f4Values(SB), R6
	MOVD	$0, R7 // to f16
	MOVD	$0, R8 // no zero points
	MOVD	$1, R9 // f8e8m0 scales
	JMP	nibbleGroups<>(SB)

// func mxfp4f16ToF32NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·mxfp4f16ToF32NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$·f4Values(SB), R6
	MOVD	$1, R7 // to f32
	MOVD	$0, R8 // no zero points
	MOVD	$1, R9 // f8e8m0 scales
	JMP	nibbleGroups<>(SB)

// func int8asymToF16NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int8asymToF16NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$0, R7 // to f16
	MOVD	$1, R8 // u8 zero points
	JMP	byteGroups<>(SB)

// func int8asymToF32NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int8asymToF32NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$1, R7 // to f32
	MOVD	$1, R8 // u8 zero points
	JMP	byteGroups<>(SB)

// func int8symToF16NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int8symToF16NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$0, R7 // to f16
	MOVD	$0, R8 // no zero points
	JMP	byteGroups<>(SB)

// func int8symToF32NEON(dst, codes, scales, zeros []byte, groups, group int)
TEXT ·int8symToF32NEON(SB), NOSPLIT, $0-112
	MOVD	dst_base+0(FP), R0
	MOVD	codes_base+24(FP), R1
	MOVD	scales_base+48(FP), R2
	MOVD	zeros_base+72(FP), R3
	MOVD	groups+96(FP), R4
	MOVD	group+104(FP), R5
	MOVD	$1, R7 // to f32
	MOVD	$0, R8 // no zero points
	JMP	byteGroups<>(SB)

// nibbleGroups<> dequantizes R4 groups of R5 4-bit codes (two a byte, low nibble first) from R1
// with the code values at R6, see above.
TEXT nibbleGroups<>(SB), NOSPLIT|NOFRAME, $0-0
	VLD1	(R6), [V28.S4, V29.S4, V30.S4, V31.S4]
	MOVW	$0x7fc00000, R10
	VDUP	R10, V26.S4
	VMOVI	$15, V27.B16
	MOVD	$·e8m0Scales(SB), R11
	MOVD	ZR, R12 // the group's index, for its u4 zero point
	LSR	$5, R5, R5 // 32 codes a step
	CBZ	R4, done
group:
	CBNZ	R9, e8m0
	MOVHU.P	2(R2), R10
	VDUP	R10, V0.H8
	WORD	$0x0e217800 // FCVTL V0.4S, V0.4H
	B	zero
e8m0:
	MOVBU.P	1(R2), R10
	MOVWU	(R11)(R10<<2), R10
	VDUP	R10, V0.S4
	WORD	$0x0e216800 // FCVTN V0.4H, V0.4S
	WORD	$0x0e217800 // FCVTL V0.4S, V0.4H
zero:
	VEOR	V1.B16, V1.B16, V1.B16
	CBZ	R8, products
	LSR	$1, R12, R10
	MOVBU	(R3)(R10), R10
	AND	$1, R12, R13
	LSL	$2, R13, R13
	LSR	R13, R10, R10
	AND	$15, R10, R10
	VDUP	R10, V1.S4
	WORD	$0x6e21d821 // UCVTF V1.4S, V1.4S
products:
	// (value − zero) × scale for the 16 codes; x − 0 is x, −0 included.
	WORD	$0x4ea1d782 // FSUB V2.4S, V28.4S, V1.4S
	WORD	$0x4ea1d7a3 // FSUB V3.4S, V29.4S, V1.4S
	WORD	$0x4ea1d7c4 // FSUB V4.4S, V30.4S, V1.4S
	WORD	$0x4ea1d7e5 // FSUB V5.4S, V31.4S, V1.4S
	WORD	$0x6e20dc42 // FMUL V2.4S, V2.4S, V0.4S
	WORD	$0x6e20dc63 // FMUL V3.4S, V3.4S, V0.4S
	WORD	$0x6e20dc84 // FMUL V4.4S, V4.4S, V0.4S
	WORD	$0x6e20dca5 // FMUL V5.4S, V5.4S, V0.4S
	WORD	$0x4e22e446 // FCMEQ V6.4S, V2.4S, V2.4S
	VBIF	V6.B16, V26.B16, V2.B16
	WORD	$0x4e23e466 // FCMEQ V6.4S, V3.4S, V3.4S
	VBIF	V6.B16, V26.B16, V3.B16
	WORD	$0x4e24e486 // FCMEQ V6.4S, V4.4S, V4.4S
	VBIF	V6.B16, V26.B16, V4.B16
	WORD	$0x4e25e4a6 // FCMEQ V6.4S, V5.4S, V5.4S
	VBIF	V6.B16, V26.B16, V5.B16
	WORD	$0x0e216846 // FCVTN V6.4H, V2.4S
	WORD	$0x4e216866 // FCVTN2 V6.8H, V3.4S
	WORD	$0x0e216887 // FCVTN V7.4H, V4.4S
	WORD	$0x4e2168a7 // FCVTN2 V7.8H, V5.4S
	MOVD	R5, R13
	CBNZ	R7, planes4
	VUZP1	V7.B16, V6.B16, V8.B16
	VUZP2	V7.B16, V6.B16, V9.B16
step2:
	VLD1.P	16(R1), [V13.B16]
	VAND	V27.B16, V13.B16, V14.B16
	VUSHR	$4, V13.B16, V15.B16
	VZIP1	V15.B16, V14.B16, V16.B16
	VZIP2	V15.B16, V14.B16, V17.B16
	VTBL	V16.B16, [V8.B16], V18.B16
	VTBL	V16.B16, [V9.B16], V19.B16
	VST2.P	[V18.B16, V19.B16], 32(R0)
	VTBL	V17.B16, [V8.B16], V18.B16
	VTBL	V17.B16, [V9.B16], V19.B16
	VST2.P	[V18.B16, V19.B16], 32(R0)
	SUBS	$1, R13, R13
	BNE	step2
	B	next
planes4:
	WORD	$0x0e2178c2 // FCVTL V2.4S, V6.4H
	WORD	$0x4e2178c3 // FCVTL2 V3.4S, V6.8H
	WORD	$0x0e2178e4 // FCVTL V4.4S, V7.4H
	WORD	$0x4e2178e5 // FCVTL2 V5.4S, V7.8H
	VUZP1	V3.B16, V2.B16, V14.B16
	VUZP2	V3.B16, V2.B16, V15.B16
	VUZP1	V5.B16, V4.B16, V16.B16
	VUZP2	V5.B16, V4.B16, V17.B16
	VUZP1	V16.B16, V14.B16, V8.B16
	VUZP1	V17.B16, V15.B16, V9.B16
	VUZP2	V16.B16, V14.B16, V10.B16
	VUZP2	V17.B16, V15.B16, V11.B16
step4:
	VLD1.P	16(R1), [V13.B16]
	VAND	V27.B16, V13.B16, V14.B16
	VUSHR	$4, V13.B16, V15.B16
	VZIP1	V15.B16, V14.B16, V16.B16
	VZIP2	V15.B16, V14.B16, V17.B16
	VTBL	V16.B16, [V8.B16], V18.B16
	VTBL	V16.B16, [V9.B16], V19.B16
	VTBL	V16.B16, [V10.B16], V20.B16
	VTBL	V16.B16, [V11.B16], V21.B16
	VST4.P	[V18.B16, V19.B16, V20.B16, V21.B16], 64(R0)
	VTBL	V17.B16, [V8.B16], V18.B16
	VTBL	V17.B16, [V9.B16], V19.B16
	VTBL	V17.B16, [V10.B16], V20.B16
	VTBL	V17.B16, [V11.B16], V21.B16
	VST4.P	[V18.B16, V19.B16, V20.B16, V21.B16], 64(R0)
	SUBS	$1, R13, R13
	BNE	step4
next:
	ADD	$1, R12, R12
	SUBS	$1, R4, R4
	BNE	group
done:
	RET

// byteGroups<> dequantizes R4 groups of R5 8-bit codes from R1: u8 codes less their group's u8
// zero point (R8 = 1) or i8 codes (R8 = 0), see above.
TEXT byteGroups<>(SB), NOSPLIT|NOFRAME, $0-0
	MOVW	$0x7fc00000, R10
	VDUP	R10, V26.S4
	LSR	$4, R5, R5 // 16 codes a step
	CBZ	R4, done
group:
	MOVHU.P	2(R2), R10
	VDUP	R10, V0.H8
	WORD	$0x0e217800 // FCVTL V0.4S, V0.4H
	// R11 = 1 when the scale is infinite or NaN: only then can a product be NaN.
	AND	$0x7c00, R10, R11
	CMP	$0x7c00, R11
	CSET	EQ, R11
	CBZ	R8, steps
	MOVBU.P	1(R3), R10
	VDUP	R10, V1.H8
steps:
	MOVD	R5, R13
step:
	VLD1.P	16(R1), [V2.B16]
	CBZ	R8, signed
	VUXTL	V2.B8, V3.H8
	VUXTL2	V2.B16, V4.H8
	VSUB	V1.H8, V3.H8, V3.H8
	VSUB	V1.H8, V4.H8, V4.H8
	B	widen
signed:
	WORD	$0x0f08a443 // SXTL V3.8H, V2.8B
	WORD	$0x4f08a444 // SXTL2 V4.8H, V2.16B
widen:
	WORD	$0x0f10a465 // SXTL V5.4S, V3.4H
	WORD	$0x4f10a466 // SXTL2 V6.4S, V3.8H
	WORD	$0x0f10a487 // SXTL V7.4S, V4.4H
	WORD	$0x4f10a488 // SXTL2 V8.4S, V4.8H
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	WORD	$0x4e21d8e7 // SCVTF V7.4S, V7.4S
	WORD	$0x4e21d908 // SCVTF V8.4S, V8.4S
	WORD	$0x6e20dca5 // FMUL V5.4S, V5.4S, V0.4S
	WORD	$0x6e20dcc6 // FMUL V6.4S, V6.4S, V0.4S
	WORD	$0x6e20dce7 // FMUL V7.4S, V7.4S, V0.4S
	WORD	$0x6e20dd08 // FMUL V8.4S, V8.4S, V0.4S
	CBZ	R11, round
	WORD	$0x4e25e4a9 // FCMEQ V9.4S, V5.4S, V5.4S
	VBIF	V9.B16, V26.B16, V5.B16
	WORD	$0x4e26e4c9 // FCMEQ V9.4S, V6.4S, V6.4S
	VBIF	V9.B16, V26.B16, V6.B16
	WORD	$0x4e27e4e9 // FCMEQ V9.4S, V7.4S, V7.4S
	VBIF	V9.B16, V26.B16, V7.B16
	WORD	$0x4e28e509 // FCMEQ V9.4S, V8.4S, V8.4S
	VBIF	V9.B16, V26.B16, V8.B16
round:
	WORD	$0x0e2168a9 // FCVTN V9.4H, V5.4S
	WORD	$0x4e2168c9 // FCVTN2 V9.8H, V6.4S
	WORD	$0x0e2168ea // FCVTN V10.4H, V7.4S
	WORD	$0x4e21690a // FCVTN2 V10.8H, V8.4S
	CBNZ	R7, wide
	VST1.P	[V9.H8, V10.H8], 32(R0)
	B	stepped
wide:
	WORD	$0x0e217925 // FCVTL V5.4S, V9.4H
	WORD	$0x4e217926 // FCVTL2 V6.4S, V9.8H
	WORD	$0x0e217947 // FCVTL V7.4S, V10.4H
	WORD	$0x4e217948 // FCVTL2 V8.4S, V10.8H
	VST1.P	[V5.S4, V6.S4, V7.S4, V8.S4], 64(R0)
stepped:
	SUBS	$1, R13, R13
	BNE	step
	SUBS	$1, R4, R4
	BNE	group
done:
	RET
