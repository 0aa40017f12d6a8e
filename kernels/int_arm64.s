//go:build !purego

// NEON kernels between integer types, from integers to f32, from f32 to integers, and for
// boolean.
//
// Every function has the Go signature func(dst, src *byte, n int) and converts n elements; n is
// a positive multiple of the function's block size (the Go wrappers in kernels_arm64.go run the
// rest through a zero-padded buffer), so no load or store leaves the slices. FPCR is as Go leaves
// it: round to nearest even, no flush to zero, default-NaN mode off.
//
// Instructions the Go assembler lacks are WORD-encoded with the instruction in the comment;
// TestARM64WordEncodings checks each against aarch64-linux-gnu-objdump.

#include "textflag.h"

// func i8ToF32NEON(dst, src *byte, n int), block 16.
// SXTL, SCVTF (exact).
TEXT ·i8ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i8f32loop:
	VLD1.P	16(R1), [V0.B16]
	WORD	$0x0f08a401 // SXTL V1.8H, V0.8B
	WORD	$0x4f08a402 // SXTL2 V2.8H, V0.16B
	WORD	$0x0f10a423 // SXTL V3.4S, V1.4H
	WORD	$0x4f10a424 // SXTL2 V4.4S, V1.8H
	WORD	$0x0f10a445 // SXTL V5.4S, V2.4H
	WORD	$0x4f10a446 // SXTL2 V6.4S, V2.8H
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	i8f32loop
	RET

// func u8ToF32NEON(dst, src *byte, n int), block 16.
// UXTL, UCVTF (exact).
TEXT ·u8ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
u8f32loop:
	VLD1.P	16(R1), [V0.B16]
	VUXTL	V0.B8, V1.H8
	VUXTL2	V0.B16, V2.H8
	VUXTL	V1.H4, V3.S4
	VUXTL2	V1.H8, V4.S4
	VUXTL	V2.H4, V5.S4
	VUXTL2	V2.H8, V6.S4
	WORD	$0x6e21d863 // UCVTF V3.4S, V3.4S
	WORD	$0x6e21d884 // UCVTF V4.4S, V4.4S
	WORD	$0x6e21d8a5 // UCVTF V5.4S, V5.4S
	WORD	$0x6e21d8c6 // UCVTF V6.4S, V6.4S
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	u8f32loop
	RET

// func i8ToI32NEON(dst, src *byte, n int), block 16.
// SXTL (sign extension).
TEXT ·i8ToI32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i8i32loop:
	VLD1.P	16(R1), [V0.B16]
	WORD	$0x0f08a401 // SXTL V1.8H, V0.8B
	WORD	$0x4f08a402 // SXTL2 V2.8H, V0.16B
	WORD	$0x0f10a423 // SXTL V3.4S, V1.4H
	WORD	$0x4f10a424 // SXTL2 V4.4S, V1.8H
	WORD	$0x0f10a445 // SXTL V5.4S, V2.4H
	WORD	$0x4f10a446 // SXTL2 V6.4S, V2.8H
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	i8i32loop
	RET

// func u8ToI32NEON(dst, src *byte, n int), block 16.
// UXTL (zero extension).
TEXT ·u8ToI32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
u8i32loop:
	VLD1.P	16(R1), [V0.B16]
	VUXTL	V0.B8, V1.H8
	VUXTL2	V0.B16, V2.H8
	VUXTL	V1.H4, V3.S4
	VUXTL2	V1.H8, V4.S4
	VUXTL	V2.H4, V5.S4
	VUXTL2	V2.H8, V6.S4
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	u8i32loop
	RET

// func i16ToF32NEON(dst, src *byte, n int), block 16.
// SXTL, SCVTF (exact).
TEXT ·i16ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i16f32loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0f10a403 // SXTL V3.4S, V0.4H
	WORD	$0x4f10a404 // SXTL2 V4.4S, V0.8H
	WORD	$0x0f10a425 // SXTL V5.4S, V1.4H
	WORD	$0x4f10a426 // SXTL2 V6.4S, V1.8H
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	i16f32loop
	RET

// func u16ToF32NEON(dst, src *byte, n int), block 16.
// UXTL, UCVTF (exact).
TEXT ·u16ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
u16f32loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	VUXTL	V0.H4, V3.S4
	VUXTL2	V0.H8, V4.S4
	VUXTL	V1.H4, V5.S4
	VUXTL2	V1.H8, V6.S4
	WORD	$0x6e21d863 // UCVTF V3.4S, V3.4S
	WORD	$0x6e21d884 // UCVTF V4.4S, V4.4S
	WORD	$0x6e21d8a5 // UCVTF V5.4S, V5.4S
	WORD	$0x6e21d8c6 // UCVTF V6.4S, V6.4S
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	u16f32loop
	RET

// func i16ToI32NEON(dst, src *byte, n int), block 16.
// SXTL (sign extension).
TEXT ·i16ToI32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i16i32loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0f10a403 // SXTL V3.4S, V0.4H
	WORD	$0x4f10a404 // SXTL2 V4.4S, V0.8H
	WORD	$0x0f10a425 // SXTL V5.4S, V1.4H
	WORD	$0x4f10a426 // SXTL2 V6.4S, V1.8H
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	i16i32loop
	RET

// func i32ToF32NEON(dst, src *byte, n int), block 16.
// SCVTF: round to nearest even.
TEXT ·i32ToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i32f32loop:
	VLD1.P	64(R1), [V3.S4, V4.S4, V5.S4, V6.S4]
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	i32f32loop
	RET

// func i8ToF16NEON(dst, src *byte, n int), block 16.
// SXTL, SCVTF, FCVTN (exact).
TEXT ·i8ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i8f16loop:
	VLD1.P	16(R1), [V0.B16]
	WORD	$0x0f08a401 // SXTL V1.8H, V0.8B
	WORD	$0x4f08a402 // SXTL2 V2.8H, V0.16B
	WORD	$0x0f10a423 // SXTL V3.4S, V1.4H
	WORD	$0x4f10a424 // SXTL2 V4.4S, V1.8H
	WORD	$0x0f10a445 // SXTL V5.4S, V2.4H
	WORD	$0x4f10a446 // SXTL2 V6.4S, V2.8H
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	i8f16loop
	RET

// func u8ToF16NEON(dst, src *byte, n int), block 16.
// UXTL, UCVTF, FCVTN (exact).
TEXT ·u8ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
u8f16loop:
	VLD1.P	16(R1), [V0.B16]
	VUXTL	V0.B8, V1.H8
	VUXTL2	V0.B16, V2.H8
	VUXTL	V1.H4, V3.S4
	VUXTL2	V1.H8, V4.S4
	VUXTL	V2.H4, V5.S4
	VUXTL2	V2.H8, V6.S4
	WORD	$0x6e21d863 // UCVTF V3.4S, V3.4S
	WORD	$0x6e21d884 // UCVTF V4.4S, V4.4S
	WORD	$0x6e21d8a5 // UCVTF V5.4S, V5.4S
	WORD	$0x6e21d8c6 // UCVTF V6.4S, V6.4S
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	u8f16loop
	RET

// func i16ToF16NEON(dst, src *byte, n int), block 16.
// SXTL, SCVTF (exact), FCVTN (round to nearest even).
TEXT ·i16ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i16f16loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0f10a403 // SXTL V3.4S, V0.4H
	WORD	$0x4f10a404 // SXTL2 V4.4S, V0.8H
	WORD	$0x0f10a425 // SXTL V5.4S, V1.4H
	WORD	$0x4f10a426 // SXTL2 V6.4S, V1.8H
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	i16f16loop
	RET

// func u16ToF16NEON(dst, src *byte, n int), block 16.
// UXTL, UCVTF (exact), FCVTN (round to nearest even,
// 65520 and above to +inf).
TEXT ·u16ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
u16f16loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	VUXTL	V0.H4, V3.S4
	VUXTL2	V0.H8, V4.S4
	VUXTL	V1.H4, V5.S4
	VUXTL2	V1.H8, V6.S4
	WORD	$0x6e21d863 // UCVTF V3.4S, V3.4S
	WORD	$0x6e21d884 // UCVTF V4.4S, V4.4S
	WORD	$0x6e21d8a5 // UCVTF V5.4S, V5.4S
	WORD	$0x6e21d8c6 // UCVTF V6.4S, V6.4S
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	u16f16loop
	RET

// func i32ToF16NEON(dst, src *byte, n int), block 16.
// SCVTF (round to nearest even), clamp to ±65504 (i32 → f16 saturates),
// FCVTN.
TEXT ·i32ToF16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	MOVW	$0x477FE000, R3
	VDUP	R3, V30.S4
	MOVW	$0xC77FE000, R3
	VDUP	R3, V31.S4
i32f16loop:
	VLD1.P	64(R1), [V3.S4, V4.S4, V5.S4, V6.S4]
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	WORD	$0x4ebef463 // FMIN V3.4S, V3.4S, V30.4S
	WORD	$0x4e3ff463 // FMAX V3.4S, V3.4S, V31.4S
	WORD	$0x4ebef484 // FMIN V4.4S, V4.4S, V30.4S
	WORD	$0x4e3ff484 // FMAX V4.4S, V4.4S, V31.4S
	WORD	$0x4ebef4a5 // FMIN V5.4S, V5.4S, V30.4S
	WORD	$0x4e3ff4a5 // FMAX V5.4S, V5.4S, V31.4S
	WORD	$0x4ebef4c6 // FMIN V6.4S, V6.4S, V30.4S
	WORD	$0x4e3ff4c6 // FMAX V6.4S, V6.4S, V31.4S
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	i32f16loop
	RET

// func i32ToI64NEON(dst, src *byte, n int), block 8.
// SXTL (sign extension).
TEXT ·i32ToI64NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i32i64loop:
	VLD1.P	32(R1), [V0.S4, V1.S4]
	WORD	$0x0f20a402 // SXTL V2.2D, V0.2S
	WORD	$0x4f20a403 // SXTL2 V3.2D, V0.4S
	WORD	$0x0f20a424 // SXTL V4.2D, V1.2S
	WORD	$0x4f20a425 // SXTL2 V5.2D, V1.4S
	VST1.P	[V2.D2, V3.D2, V4.D2, V5.D2], 64(R0)
	SUBS	$8, R2, R2
	BNE	i32i64loop
	RET

// func i64ToI32NEON(dst, src *byte, n int), block 8.
// UZP1 keeps the low halves: two's-complement wrap.
TEXT ·i64ToI32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i64i32loop:
	VLD1.P	64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VUZP1	V1.S4, V0.S4, V4.S4
	VUZP1	V3.S4, V2.S4, V5.S4
	VST1.P	[V4.S4, V5.S4], 32(R0)
	SUBS	$8, R2, R2
	BNE	i64i32loop
	RET

// func i32ToI16NEON(dst, src *byte, n int), block 16.
// UZP1 keeps the low halves: two's-complement wrap.
TEXT ·i32ToI16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i32i16loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VUZP1	V1.H8, V0.H8, V4.H8
	VUZP1	V3.H8, V2.H8, V5.H8
	VST1.P	[V4.H8, V5.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	i32i16loop
	RET

// func i32ToI8NEON(dst, src *byte, n int), block 16.
// UZP1 twice keeps the low bytes: two's-complement wrap.
TEXT ·i32ToI8NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
i32i8loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VUZP1	V1.H8, V0.H8, V4.H8
	VUZP1	V3.H8, V2.H8, V5.H8
	VUZP1	V5.B16, V4.B16, V6.B16
	VST1.P	[V6.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	i32i8loop
	RET

// func f32ToI32NEON(dst, src *byte, n int), block 16.
// FCVTZS: truncate toward zero, saturate, NaN to 0.
TEXT ·f32ToI32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f32i32loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x4ea1b800 // FCVTZS V0.4S, V0.4S
	WORD	$0x4ea1b821 // FCVTZS V1.4S, V1.4S
	WORD	$0x4ea1b842 // FCVTZS V2.4S, V2.4S
	WORD	$0x4ea1b863 // FCVTZS V3.4S, V3.4S
	VST1.P	[V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	f32i32loop
	RET

// func f32ToI16NEON(dst, src *byte, n int), block 16.
// FCVTZS (truncate, saturate, NaN to 0), then SQXTN saturates to i16.
TEXT ·f32ToI16NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f32i16loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x4ea1b800 // FCVTZS V0.4S, V0.4S
	WORD	$0x4ea1b821 // FCVTZS V1.4S, V1.4S
	WORD	$0x4ea1b842 // FCVTZS V2.4S, V2.4S
	WORD	$0x4ea1b863 // FCVTZS V3.4S, V3.4S
	WORD	$0x0e614804 // SQXTN V4.4H, V0.4S
	WORD	$0x4e614824 // SQXTN2 V4.8H, V1.4S
	WORD	$0x0e614845 // SQXTN V5.4H, V2.4S
	WORD	$0x4e614865 // SQXTN2 V5.8H, V3.4S
	VST1.P	[V4.H8, V5.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	f32i16loop
	RET

// func f32ToI8NEON(dst, src *byte, n int), block 16.
// FCVTZS (truncate, saturate, NaN to 0), then SQXTN twice saturates to i8.
TEXT ·f32ToI8NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f32i8loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x4ea1b800 // FCVTZS V0.4S, V0.4S
	WORD	$0x4ea1b821 // FCVTZS V1.4S, V1.4S
	WORD	$0x4ea1b842 // FCVTZS V2.4S, V2.4S
	WORD	$0x4ea1b863 // FCVTZS V3.4S, V3.4S
	WORD	$0x0e614804 // SQXTN V4.4H, V0.4S
	WORD	$0x4e614824 // SQXTN2 V4.8H, V1.4S
	WORD	$0x0e614845 // SQXTN V5.4H, V2.4S
	WORD	$0x4e614865 // SQXTN2 V5.8H, V3.4S
	WORD	$0x0e214886 // SQXTN V6.8B, V4.8H
	WORD	$0x4e2148a6 // SQXTN2 V6.16B, V5.8H
	VST1.P	[V6.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	f32i8loop
	RET

// func f32ToU8NEON(dst, src *byte, n int), block 16.
// FCVTZS (truncate, saturate, NaN to 0), SQXTUN (negative to 0), then
// UQXTN saturates to 255.
TEXT ·f32ToU8NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
f32u8loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x4ea1b800 // FCVTZS V0.4S, V0.4S
	WORD	$0x4ea1b821 // FCVTZS V1.4S, V1.4S
	WORD	$0x4ea1b842 // FCVTZS V2.4S, V2.4S
	WORD	$0x4ea1b863 // FCVTZS V3.4S, V3.4S
	WORD	$0x2e612804 // SQXTUN V4.4H, V0.4S
	WORD	$0x6e612824 // SQXTUN2 V4.8H, V1.4S
	WORD	$0x2e612845 // SQXTUN V5.4H, V2.4S
	WORD	$0x6e612865 // SQXTUN2 V5.8H, V3.4S
	WORD	$0x2e214886 // UQXTN V6.8B, V4.8H
	WORD	$0x6e2148a6 // UQXTN2 V6.16B, V5.8H
	VST1.P	[V6.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	f32u8loop
	RET

// func byteToBoolNEON(dst, src *byte, n int), block 16.
// Any non-zero byte to 1, zero to 0 (CMTST, USHR).
TEXT ·byteToBoolNEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
b2bloop:
	VLD1.P	16(R1), [V0.B16]
	VCMTST	V0.B16, V0.B16, V1.B16
	VUSHR	$7, V1.B16, V1.B16
	VST1.P	[V1.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	b2bloop
	RET

// func boolToF32NEON(dst, src *byte, n int), block 16.
// A non-zero byte to 1.0, zero to +0.0.
TEXT ·boolToF32NEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	MOVW	$0x3F800000, R3
	VDUP	R3, V31.S4
boolf32loop:
	VLD1.P	16(R1), [V0.B16]
	VCMTST	V0.B16, V0.B16, V1.B16
	VZIP1	V1.B16, V1.B16, V2.B16
	VZIP2	V1.B16, V1.B16, V3.B16
	VZIP1	V2.H8, V2.H8, V4.H8
	VZIP2	V2.H8, V2.H8, V5.H8
	VZIP1	V3.H8, V3.H8, V6.H8
	VZIP2	V3.H8, V3.H8, V7.H8
	VAND	V31.B16, V4.B16, V4.B16
	VAND	V31.B16, V5.B16, V5.B16
	VAND	V31.B16, V6.B16, V6.B16
	VAND	V31.B16, V7.B16, V7.B16
	VST1.P	[V4.S4, V5.S4, V6.S4, V7.S4], 64(R0)
	SUBS	$16, R2, R2
	BNE	boolf32loop
	RET

// func f32ToBoolNEON(dst, src *byte, n int), block 16.
// Non-zero (NaN and ±inf included) to 1, ±0 to 0.
TEXT ·f32ToBoolNEON(SB), NOSPLIT, $0-24
	MOVD	dst+0(FP), R0
	MOVD	src+8(FP), R1
	MOVD	n+16(FP), R2
	MOVW	$0x7FFFFFFF, R3
	VDUP	R3, V31.S4
f32boolloop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VCMTST	V31.S4, V0.S4, V0.S4
	VCMTST	V31.S4, V1.S4, V1.S4
	VCMTST	V31.S4, V2.S4, V2.S4
	VCMTST	V31.S4, V3.S4, V3.S4
	VUZP1	V1.H8, V0.H8, V4.H8
	VUZP1	V3.H8, V2.H8, V5.H8
	VUZP1	V5.B16, V4.B16, V6.B16
	VUSHR	$7, V6.B16, V6.B16
	VST1.P	[V6.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	f32boolloop
	RET
