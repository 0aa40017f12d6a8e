//go:build !purego

#include "textflag.h"

// Each loop takes 128 source bytes a step (four 32-byte loads) and stores with VMOVNTDQ, then
// fences the stores with SFENCE, as the kernels' non-temporal loops do.

// move21: for j { dst[32j:32j+32] = src[64j:64j+32] ^ src[64j+32:64j+64] }.
TEXT ·move21(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
loop:
	VMOVDQU (SI), Y0
	VPXOR   32(SI), Y0, Y0
	VMOVDQU 64(SI), Y1
	VPXOR   96(SI), Y1, Y1
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y1, 32(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $128, CX
	JNZ  loop
	SFENCE
	VZEROUPPER
	RET

// move11: for j { dst[32j:32j+32] = src[32j:32j+32] }.
TEXT ·move11(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y1, 32(DI)
	VMOVNTDQ Y2, 64(DI)
	VMOVNTDQ Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $128, CX
	JNZ  loop
	SFENCE
	VZEROUPPER
	RET

// move12: for j { dst[64j:64j+32] = dst[64j+32:64j+64] = src[32j:32j+32] }.
TEXT ·move12(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y0, 32(DI)
	VMOVNTDQ Y1, 64(DI)
	VMOVNTDQ Y1, 96(DI)
	VMOVNTDQ Y2, 128(DI)
	VMOVNTDQ Y2, 160(DI)
	VMOVNTDQ Y3, 192(DI)
	VMOVNTDQ Y3, 224(DI)
	ADDQ $128, SI
	ADDQ $256, DI
	SUBQ $128, CX
	JNZ  loop
	SFENCE
	VZEROUPPER
	RET

// move14: for j { dst[128j+32i:128j+32i+32] = src[32j:32j+32] for i < 4 }.
TEXT ·move14(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y0, 32(DI)
	VMOVNTDQ Y0, 64(DI)
	VMOVNTDQ Y0, 96(DI)
	VMOVNTDQ Y1, 128(DI)
	VMOVNTDQ Y1, 160(DI)
	VMOVNTDQ Y1, 192(DI)
	VMOVNTDQ Y1, 224(DI)
	VMOVNTDQ Y2, 256(DI)
	VMOVNTDQ Y2, 288(DI)
	VMOVNTDQ Y2, 320(DI)
	VMOVNTDQ Y2, 352(DI)
	VMOVNTDQ Y3, 384(DI)
	VMOVNTDQ Y3, 416(DI)
	VMOVNTDQ Y3, 448(DI)
	VMOVNTDQ Y3, 480(DI)
	ADDQ $128, SI
	ADDQ $512, DI
	SUBQ $128, CX
	JNZ  loop
	SFENCE
	VZEROUPPER
	RET
