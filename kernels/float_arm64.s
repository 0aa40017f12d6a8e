//go:build !purego

// NEON kernels between the binary float formats f32, f16, bf16 and f64.
//
// Every function has the Go signature func(dst, src *byte, n int) and converts n elements; n is
// a positive multiple of the function's block size (the Go wrappers in kernels_arm64.go run the
// rest through a zero-padded buffer), so no load or store leaves the slices. FPCR is as Go leaves
// it: round to nearest even, no flush to zero, default-NaN mode off.
//
// Instructions the Go assembler lacks are WORD-encoded with the instruction in the comment;
// TestARM64WordEncodings checks each against aarch64-linux-gnu-objdump.

#include "textflag.h"

// func f32ToF16NEON(dst, src *byte, n int), block 16.
// FCVTN: round to nearest even, overflow to ±inf, NaN quieted.
TEXT ·f32ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f32f16loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x0e216804 // FCVTN V4.4H, V0.4S
	WORD	$0x4e216824 // FCVTN2 V4.8H, V1.4S
	WORD	$0x0e216845 // FCVTN V5.4H, V2.4S
	WORD	$0x4e216865 // FCVTN2 V5.8H, V3.4S
	VST1.P	[V4.H8, V5.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	f32f16loop
	RET

// func f16ToF32NEON(dst, src *byte, n int), block 16.
// FCVTL: exact; a signalling NaN is quieted.
TEXT ·f16ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f16f32loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0e217802 // FCVTL V2.4S, V0.4H
	WORD	$0x4e217803 // FCVTL2 V3.4S, V0.8H
	WORD	$0x0e217824 // FCVTL V4.4S, V1.4H
	WORD	$0x4e217825 // FCVTL2 V5.4S, V1.8H
	VST1.P	[V2.S4, V3.S4, V4.S4, V5.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	f16f32loop
	RET

// func f32ToBF16NEON(dst, src *byte, n int), block 16.
// Integer rounding: (x + 0x7FFF + bit 16 of x) >> 16, subnormals
// kept, overflow to ±inf; a NaN becomes x>>16 | 0x0040 (quieted, sign and top payload kept).
TEXT ·f32ToBF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	// V27 = 0x00400000 (quiet bit), V28 = 0x7FFF, V29 = 1, V30 = 0x7FFFFFFF, V31 = +inf.
	MOVW	$0x400000, R3
	VDUP	R3, V27.S4
	MOVW	$0x7FFF, R3
	VDUP	R3, V28.S4
	MOVW	$0x1, R3
	VDUP	R3, V29.S4
	MOVW	$0x7FFFFFFF, R3
	VDUP	R3, V30.S4
	MOVW	$0x7F800000, R3
	VDUP	R3, V31.S4
f32bf16loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VUSHR	$16, V0.S4, V4.S4
	VAND	V29.B16, V4.B16, V4.B16
	VADD	V0.S4, V4.S4, V4.S4
	VADD	V28.S4, V4.S4, V4.S4
	VAND	V30.B16, V0.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V0.B16, V0.B16
	VBIT	V16.B16, V0.B16, V4.B16
	VUSHR	$16, V1.S4, V5.S4
	VAND	V29.B16, V5.B16, V5.B16
	VADD	V1.S4, V5.S4, V5.S4
	VADD	V28.S4, V5.S4, V5.S4
	VAND	V30.B16, V1.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V1.B16, V1.B16
	VBIT	V16.B16, V1.B16, V5.B16
	VUSHR	$16, V2.S4, V6.S4
	VAND	V29.B16, V6.B16, V6.B16
	VADD	V2.S4, V6.S4, V6.S4
	VADD	V28.S4, V6.S4, V6.S4
	VAND	V30.B16, V2.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V2.B16, V2.B16
	VBIT	V16.B16, V2.B16, V6.B16
	VUSHR	$16, V3.S4, V7.S4
	VAND	V29.B16, V7.B16, V7.B16
	VADD	V3.S4, V7.S4, V7.S4
	VADD	V28.S4, V7.S4, V7.S4
	VAND	V30.B16, V3.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V3.B16, V3.B16
	VBIT	V16.B16, V3.B16, V7.B16
	VUZP2	V5.H8, V4.H8, V8.H8
	VUZP2	V7.H8, V6.H8, V9.H8
	VST1.P	[V8.H8, V9.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	f32bf16loop
	RET

// func f32ToBF16BFCVTN(dst, src *byte, n int), block 16.
// BFCVTN, FEAT_BF16 only. Its FPConvertBF with the FPCR Go runs under
// (AH=0, FZ=0, DN=0, round to nearest even) keeps subnormals and quiets a NaN keeping its sign
// and top payload bits: the bits of f32ToBF16NEON. Checked against it under qemu -cpu max.
TEXT ·f32ToBF16BFCVTN(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
bfcvtnloop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x0ea16804 // BFCVTN V4.4H, V0.4S
	WORD	$0x4ea16824 // BFCVTN2 V4.8H, V1.4S
	WORD	$0x0ea16845 // BFCVTN V5.4H, V2.4S
	WORD	$0x4ea16865 // BFCVTN2 V5.8H, V3.4S
	VST1.P	[V4.H8, V5.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	bfcvtnloop
	RET

// func bf16ToF32NEON(dst, src *byte, n int), block 16.
// Exact: each bf16 becomes the high half of an f32 (bits unchanged).
TEXT ·bf16ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	VEOR	V31.B16, V31.B16, V31.B16
bf16f32loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	VZIP1	V0.H8, V31.H8, V2.H8
	VZIP2	V0.H8, V31.H8, V3.H8
	VZIP1	V1.H8, V31.H8, V4.H8
	VZIP2	V1.H8, V31.H8, V5.H8
	VST1.P	[V2.S4, V3.S4, V4.S4, V5.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	bf16f32loop
	RET

// func f16ToBF16NEON(dst, src *byte, n int), block 16.
// f16 to f32 (exact, NaN quieted), then the f32 to bf16 rounding.
TEXT ·f16ToBF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	// V27 = 0x00400000 (quiet bit), V28 = 0x7FFF, V29 = 1, V30 = 0x7FFFFFFF, V31 = +inf.
	MOVW	$0x400000, R3
	VDUP	R3, V27.S4
	MOVW	$0x7FFF, R3
	VDUP	R3, V28.S4
	MOVW	$0x1, R3
	VDUP	R3, V29.S4
	MOVW	$0x7FFFFFFF, R3
	VDUP	R3, V30.S4
	MOVW	$0x7F800000, R3
	VDUP	R3, V31.S4
f16bf16loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0e217802 // FCVTL V2.4S, V0.4H
	WORD	$0x4e217803 // FCVTL2 V3.4S, V0.8H
	WORD	$0x0e217824 // FCVTL V4.4S, V1.4H
	WORD	$0x4e217825 // FCVTL2 V5.4S, V1.8H
	VUSHR	$16, V2.S4, V6.S4
	VAND	V29.B16, V6.B16, V6.B16
	VADD	V2.S4, V6.S4, V6.S4
	VADD	V28.S4, V6.S4, V6.S4
	VAND	V30.B16, V2.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V2.B16, V2.B16
	VBIT	V16.B16, V2.B16, V6.B16
	VUSHR	$16, V3.S4, V7.S4
	VAND	V29.B16, V7.B16, V7.B16
	VADD	V3.S4, V7.S4, V7.S4
	VADD	V28.S4, V7.S4, V7.S4
	VAND	V30.B16, V3.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V3.B16, V3.B16
	VBIT	V16.B16, V3.B16, V7.B16
	VUSHR	$16, V4.S4, V8.S4
	VAND	V29.B16, V8.B16, V8.B16
	VADD	V4.S4, V8.S4, V8.S4
	VADD	V28.S4, V8.S4, V8.S4
	VAND	V30.B16, V4.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V4.B16, V4.B16
	VBIT	V16.B16, V4.B16, V8.B16
	VUSHR	$16, V5.S4, V9.S4
	VAND	V29.B16, V9.B16, V9.B16
	VADD	V5.S4, V9.S4, V9.S4
	VADD	V28.S4, V9.S4, V9.S4
	VAND	V30.B16, V5.B16, V16.B16
	WORD	$0x6ebf3610 // CMHI V16.4S, V16.4S, V31.4S
	VORR	V27.B16, V5.B16, V5.B16
	VBIT	V16.B16, V5.B16, V9.B16
	VUZP2	V7.H8, V6.H8, V10.H8
	VUZP2	V9.H8, V8.H8, V11.H8
	VST1.P	[V10.H8, V11.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	f16bf16loop
	RET

// func bf16ToF16NEON(dst, src *byte, n int), block 16.
// bf16 to f32 (exact), then FCVTN to f16 (round to nearest even).
TEXT ·bf16ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	VEOR	V31.B16, V31.B16, V31.B16
bf16f16loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	VZIP1	V0.H8, V31.H8, V2.H8
	VZIP2	V0.H8, V31.H8, V3.H8
	VZIP1	V1.H8, V31.H8, V4.H8
	VZIP2	V1.H8, V31.H8, V5.H8
	WORD	$0x0e216846 // FCVTN V6.4H, V2.4S
	WORD	$0x4e216866 // FCVTN2 V6.8H, V3.4S
	WORD	$0x0e216887 // FCVTN V7.4H, V4.4S
	WORD	$0x4e2168a7 // FCVTN2 V7.8H, V5.4S
	VST1.P	[V6.H8, V7.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	bf16f16loop
	RET

// func f64ToF32NEON(dst, src *byte, n int), block 8.
// FCVTN: round to nearest even, overflow to ±inf, NaN quieted with
// sign and top payload kept (what Go's float32(x) gives).
TEXT ·f64ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f64f32loop:
	VLD1.P	64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	WORD	$0x0e616804 // FCVTN V4.2S, V0.2D
	WORD	$0x4e616824 // FCVTN2 V4.4S, V1.2D
	WORD	$0x0e616845 // FCVTN V5.2S, V2.2D
	WORD	$0x4e616865 // FCVTN2 V5.4S, V3.2D
	VST1.P	[V4.S4, V5.S4], 32(R0)
	SUBS	$8, R2, R2
	BNE	f64f32loop
	RET

// func f32ToF64NEON(dst, src *byte, n int), block 8.
// FCVTL: exact; a signalling NaN is quieted.
TEXT ·f32ToF64NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f32f64loop:
	VLD1.P	32(R1), [V0.S4, V1.S4]
	WORD	$0x0e617802 // FCVTL V2.2D, V0.2S
	WORD	$0x4e617803 // FCVTL2 V3.2D, V0.4S
	WORD	$0x0e617824 // FCVTL V4.2D, V1.2S
	WORD	$0x4e617825 // FCVTL2 V5.2D, V1.4S
	VST1.P	[V2.D2, V3.D2, V4.D2, V5.D2], 64(R0)
	SUBS	$8, R2, R2
	BNE	f32f64loop
	RET
