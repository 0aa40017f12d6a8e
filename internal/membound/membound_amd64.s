//go:build gc && !purego

#include "textflag.h"

// Each loop takes 128 source bytes a step and stores with VMOVNTDQ, then fences the stores with
// SFENCE, as the kernels' non-temporal loops do; move14c stores with VMOVDQU, as the kernels do
// below the non-temporal threshold.

// ARGS loads DI = dst, SI = src, CX = len(src).
#define ARGS \
	MOVQ dst_base+0(FP), DI; \
	MOVQ src_base+24(FP), SI; \
	MOVQ src_len+32(FP), CX

// LOAD4 loads the step's 128 source bytes into Y0..Y3.
#define LOAD4 \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	VMOVDQU 64(SI), Y2; \
	VMOVDQU 96(SI), Y3

// NEXT moves past a step that stored SOUT bytes, loops while source bytes are left, and returns.
#define NEXT(SOUT) \
	ADDQ $128, SI; \
	ADDQ $SOUT, DI; \
	SUBQ $128, CX; \
	JNZ  loop; \
	SFENCE; \
	VZEROUPPER; \
	RET

// STORE2 stores R at O(DI) and O+32(DI).
#define STORE2(R, O) \
	VMOVNTDQ R, O(DI); \
	VMOVNTDQ R, O+32(DI)

// STORE2C stores R at O(DI) and O+32(DI) through the caches.
#define STORE2C(R, O) \
	VMOVDQU R, O(DI); \
	VMOVDQU R, O+32(DI)

// move21: for j { dst[32j:32j+32] = src[64j:64j+32] ^ src[64j+32:64j+64] }.
TEXT ·move21(SB), NOSPLIT, $0-48
	ARGS
loop:
	LOAD4
	VPXOR    Y1, Y0, Y0
	VPXOR    Y3, Y2, Y2
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y2, 32(DI)
	NEXT(64)

// move11: for j { dst[32j:32j+32] = src[32j:32j+32] }.
TEXT ·move11(SB), NOSPLIT, $0-48
	ARGS
loop:
	LOAD4
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y1, 32(DI)
	VMOVNTDQ Y2, 64(DI)
	VMOVNTDQ Y3, 96(DI)
	NEXT(128)

// move12: for j { dst[64j:64j+32] = dst[64j+32:64j+64] = src[32j:32j+32] }.
TEXT ·move12(SB), NOSPLIT, $0-48
	ARGS
loop:
	LOAD4
	STORE2(Y0, 0)
	STORE2(Y1, 64)
	STORE2(Y2, 128)
	STORE2(Y3, 192)
	NEXT(256)

// move14: for j { dst[128j+32i:128j+32i+32] = src[32j:32j+32] for i < 4 }.
TEXT ·move14(SB), NOSPLIT, $0-48
	ARGS
loop:
	LOAD4
	STORE2(Y0, 0)
	STORE2(Y0, 64)
	STORE2(Y1, 128)
	STORE2(Y1, 192)
	STORE2(Y2, 256)
	STORE2(Y2, 320)
	STORE2(Y3, 384)
	STORE2(Y3, 448)
	NEXT(512)

// move14c is move14 with ordinary stores.
TEXT ·move14c(SB), NOSPLIT, $0-48
	ARGS
loop:
	LOAD4
	STORE2C(Y0, 0)
	STORE2C(Y0, 64)
	STORE2C(Y1, 128)
	STORE2C(Y1, 192)
	STORE2C(Y2, 256)
	STORE2C(Y2, 320)
	STORE2C(Y3, 384)
	STORE2C(Y3, 448)
	NEXT(512)
