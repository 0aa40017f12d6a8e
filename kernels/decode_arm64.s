//go:build !purego

// NEON kernels decoding f8e4m3, f8e5m2 and the packed 4-bit types (table lookups).
//
// Every function has the Go signature func(dst, src *byte, n int) and converts n elements; n is
// a positive multiple of the function's block size (the Go wrappers in kernels_arm64.go run the
// rest through a zero-padded buffer), so no load or store leaves the slices. FPCR is as Go leaves
// it: round to nearest even, no flush to zero, default-NaN mode off.
//
// Instructions the Go assembler lacks are WORD-encoded with the instruction in the comment;
// TestARM64WordEncodings checks each against aarch64-linux-gnu-objdump.

#include "textflag.h"

// func f8e4m3ToF32NEON(dst, src *byte, n int), block 16.
// The magnitude bits m = b & 0x7F placed at f32 bit 20 are the value
// times 2^-120 (subnormals too); FMUL by 2^120 is exact. m == 0x7F is NaN (quiet, sign kept).
TEXT ·f8e4m3ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	// V26 = f32 quiet NaN, V27 = 0x7F, V30 = 2^120 (f32 lanes); V28 = 0x80, V29 = 0x7F (bytes); V31 = 0.
	MOVW	$0x7FC00000, R3
	VDUP	R3, V26.S4
	MOVW	$0x7F, R3
	VDUP	R3, V27.S4
	MOVW	$0x7B800000, R3
	VDUP	R3, V30.S4
	VMOVI	$0x80, V28.B16
	VMOVI	$0x7F, V29.B16
	VEOR	V31.B16, V31.B16, V31.B16
e4m3f32loop:
	VLD1.P	16(R1), [V0.B16]
	VAND	V29.B16, V0.B16, V1.B16
	VAND	V28.B16, V0.B16, V2.B16
	VUXTL	V1.B8, V3.H8
	VUXTL2	V1.B16, V4.H8
	VUXTL	V3.H4, V5.S4
	VUXTL2	V3.H8, V6.S4
	VUXTL	V4.H4, V7.S4
	VUXTL2	V4.H8, V8.S4
	VCMEQ	V27.S4, V5.S4, V9.S4
	VSHL	$20, V5.S4, V5.S4
	WORD	$0x6e3edca5 // FMUL V5.4S, V5.4S, V30.4S
	VBIT	V9.B16, V26.B16, V5.B16
	VCMEQ	V27.S4, V6.S4, V9.S4
	VSHL	$20, V6.S4, V6.S4
	WORD	$0x6e3edcc6 // FMUL V6.4S, V6.4S, V30.4S
	VBIT	V9.B16, V26.B16, V6.B16
	VCMEQ	V27.S4, V7.S4, V9.S4
	VSHL	$20, V7.S4, V7.S4
	WORD	$0x6e3edce7 // FMUL V7.4S, V7.4S, V30.4S
	VBIT	V9.B16, V26.B16, V7.B16
	VCMEQ	V27.S4, V8.S4, V9.S4
	VSHL	$20, V8.S4, V8.S4
	WORD	$0x6e3edd08 // FMUL V8.4S, V8.4S, V30.4S
	VBIT	V9.B16, V26.B16, V8.B16
	VZIP1	V2.B16, V31.B16, V10.B16
	VZIP2	V2.B16, V31.B16, V11.B16
	VZIP1	V10.H8, V31.H8, V12.H8
	VZIP2	V10.H8, V31.H8, V13.H8
	VZIP1	V11.H8, V31.H8, V14.H8
	VZIP2	V11.H8, V31.H8, V15.H8
	VORR	V12.B16, V5.B16, V5.B16
	VORR	V13.B16, V6.B16, V6.B16
	VORR	V14.B16, V7.B16, V7.B16
	VORR	V15.B16, V8.B16, V8.B16
	VST1.P	[V5.S4, V6.S4, V7.S4, V8.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	e4m3f32loop
	RET

// func f8e4m3ToF16NEON(dst, src *byte, n int), block 16.
// As f8e4m3ToF32NEON, then FCVTN (exact: every e4m3 value is an f16).
TEXT ·f8e4m3ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	// V26 = f32 quiet NaN, V27 = 0x7F, V30 = 2^120 (f32 lanes); V28 = 0x80, V29 = 0x7F (bytes); V31 = 0.
	MOVW	$0x7FC00000, R3
	VDUP	R3, V26.S4
	MOVW	$0x7F, R3
	VDUP	R3, V27.S4
	MOVW	$0x7B800000, R3
	VDUP	R3, V30.S4
	VMOVI	$0x80, V28.B16
	VMOVI	$0x7F, V29.B16
	VEOR	V31.B16, V31.B16, V31.B16
e4m3f16loop:
	VLD1.P	16(R1), [V0.B16]
	VAND	V29.B16, V0.B16, V1.B16
	VAND	V28.B16, V0.B16, V2.B16
	VUXTL	V1.B8, V3.H8
	VUXTL2	V1.B16, V4.H8
	VUXTL	V3.H4, V5.S4
	VUXTL2	V3.H8, V6.S4
	VUXTL	V4.H4, V7.S4
	VUXTL2	V4.H8, V8.S4
	VCMEQ	V27.S4, V5.S4, V9.S4
	VSHL	$20, V5.S4, V5.S4
	WORD	$0x6e3edca5 // FMUL V5.4S, V5.4S, V30.4S
	VBIT	V9.B16, V26.B16, V5.B16
	VCMEQ	V27.S4, V6.S4, V9.S4
	VSHL	$20, V6.S4, V6.S4
	WORD	$0x6e3edcc6 // FMUL V6.4S, V6.4S, V30.4S
	VBIT	V9.B16, V26.B16, V6.B16
	VCMEQ	V27.S4, V7.S4, V9.S4
	VSHL	$20, V7.S4, V7.S4
	WORD	$0x6e3edce7 // FMUL V7.4S, V7.4S, V30.4S
	VBIT	V9.B16, V26.B16, V7.B16
	VCMEQ	V27.S4, V8.S4, V9.S4
	VSHL	$20, V8.S4, V8.S4
	WORD	$0x6e3edd08 // FMUL V8.4S, V8.4S, V30.4S
	VBIT	V9.B16, V26.B16, V8.B16
	VZIP1	V2.B16, V31.B16, V10.B16
	VZIP2	V2.B16, V31.B16, V11.B16
	VZIP1	V10.H8, V31.H8, V12.H8
	VZIP2	V10.H8, V31.H8, V13.H8
	VZIP1	V11.H8, V31.H8, V14.H8
	VZIP2	V11.H8, V31.H8, V15.H8
	VORR	V12.B16, V5.B16, V5.B16
	VORR	V13.B16, V6.B16, V6.B16
	VORR	V14.B16, V7.B16, V7.B16
	VORR	V15.B16, V8.B16, V8.B16
	WORD	$0x0e2168b0 // FCVTN V16.4H, V5.4S
	WORD	$0x4e2168d0 // FCVTN2 V16.8H, V6.4S
	WORD	$0x0e2168f1 // FCVTN V17.4H, V7.4S
	WORD	$0x4e216911 // FCVTN2 V17.8H, V8.4S
	VST1.P	[V16.H8, V17.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	e4m3f16loop
	RET

// func f8e5m2ToF16NEON(dst, src *byte, n int), block 16.
// The byte becomes the high byte of the f16 (bits unchanged).
TEXT ·f8e5m2ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	VEOR	V31.B16, V31.B16, V31.B16
e5m2f16loop:
	VLD1.P	16(R1), [V0.B16]
	VZIP1	V0.B16, V31.B16, V1.B16
	VZIP2	V0.B16, V31.B16, V2.B16
	VST1.P	[V1.H8, V2.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	e5m2f16loop
	RET

// func f8e5m2ToF32NEON(dst, src *byte, n int), block 16.
// The byte shifted to an f16, then FCVTL (NaN quieted).
TEXT ·f8e5m2ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	VEOR	V31.B16, V31.B16, V31.B16
e5m2f32loop:
	VLD1.P	16(R1), [V0.B16]
	VZIP1	V0.B16, V31.B16, V1.B16
	VZIP2	V0.B16, V31.B16, V2.B16
	WORD	$0x0e217823 // FCVTL V3.4S, V1.4H
	WORD	$0x4e217824 // FCVTL2 V4.4S, V1.8H
	WORD	$0x0e217845 // FCVTL V5.4S, V2.4H
	WORD	$0x4e217846 // FCVTL2 V6.4S, V2.8H
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	e5m2f32loop
	RET

// func nibbleToF32NEON(dst, src *byte, n int, tab *byte), block 32.
// Packed 4-bit codes (low nibble first) looked up in tab, 16
// float32 values: TBL on each of the four byte planes, stored interleaved with ST4.
TEXT ·nibbleToF32NEON(SB), NOSPLIT, $0-32
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	MOVD	tab+24(FP), R3
	VLD4	(R3), [V16.B16, V17.B16, V18.B16, V19.B16]
	VMOVI	$15, V31.B16
nibf32loop:
	VLD1.P	16(R1), [V0.B16]
	VAND	V31.B16, V0.B16, V1.B16
	VUSHR	$4, V0.B16, V2.B16
	VZIP1	V2.B16, V1.B16, V3.B16
	VZIP2	V2.B16, V1.B16, V4.B16
	VTBL	V3.B16, [V16.B16], V5.B16
	VTBL	V3.B16, [V17.B16], V6.B16
	VTBL	V3.B16, [V18.B16], V7.B16
	VTBL	V3.B16, [V19.B16], V8.B16
	VTBL	V4.B16, [V16.B16], V9.B16
	VTBL	V4.B16, [V17.B16], V10.B16
	VTBL	V4.B16, [V18.B16], V11.B16
	VTBL	V4.B16, [V19.B16], V12.B16
	VST4.P	[V5.B16, V6.B16, V7.B16, V8.B16], 64(R0)
	VST4.P	[V9.B16, V10.B16, V11.B16, V12.B16], 64(R0)
	SUBS	$32, R2, R2
	BNE	nibf32loop
	RET

// func nibbleToF16NEON(dst, src *byte, n int, tab *byte), block 32.
// Packed 4-bit codes (low nibble first) looked up in tab, 16
// uint16 values: TBL on both byte planes, stored interleaved with ST2.
TEXT ·nibbleToF16NEON(SB), NOSPLIT, $0-32
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	MOVD	tab+24(FP), R3
	VLD2	(R3), [V16.B16, V17.B16]
	VMOVI	$15, V31.B16
nibf16loop:
	VLD1.P	16(R1), [V0.B16]
	VAND	V31.B16, V0.B16, V1.B16
	VUSHR	$4, V0.B16, V2.B16
	VZIP1	V2.B16, V1.B16, V3.B16
	VZIP2	V2.B16, V1.B16, V4.B16
	VTBL	V3.B16, [V16.B16], V5.B16
	VTBL	V3.B16, [V17.B16], V6.B16
	VTBL	V4.B16, [V16.B16], V7.B16
	VTBL	V4.B16, [V17.B16], V8.B16
	VST2.P	[V5.B16, V6.B16], 32(R0)
	VST2.P	[V7.B16, V8.B16], 32(R0)
	SUBS	$32, R2, R2
	BNE	nibf16loop
	RET
