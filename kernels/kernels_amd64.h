// Macros shared by the amd64 kernel files.
//
// Every kernel is a loopFunc, func(dst, src []byte, n int), with a 512-byte frame: the first 256
// bytes hold the source and the last 256 the destination of the last partial block.

// ARGS loads the arguments: DI = dst, SI = src, CX = n.
#define ARGS \
	MOVQ dst_base+0(FP), DI; \
	MOVQ src_base+24(FP), SI; \
	MOVQ n+48(FP), CX

// BCASTD and BCASTW broadcast a 32- or 16-bit constant into a Y register (X is its low half).
#define BCASTD(val, X, Y) \
	MOVL $val, AX; \
	VMOVD AX, X; \
	VPBROADCASTD X, Y

#define BCASTW(val, X, Y) \
	MOVL $val, AX; \
	VMOVD AX, X; \
	VPBROADCASTW X, Y

// COPYBYTES copies N bytes from S to D, 8 at a time while 8 are left, then one at a time, never
// touching a byte past N. It uses AX and DX; L8, L1 and LE are label names.
#define COPYBYTES(S, D, N, L8, L1, LE) \
	XORQ AX, AX; \
L8: \
	LEAQ 8(AX), DX; \
	CMPQ DX, N; \
	JA   L1; \
	MOVQ (S)(AX*1), DX; \
	MOVQ DX, (D)(AX*1); \
	ADDQ $8, AX; \
	JMP  L8; \
L1: \
	CMPQ AX, N; \
	JAE  LE; \
	MOVB (S)(AX*1), DX; \
	MOVB DX, (D)(AX*1); \
	INCQ AX; \
	JMP  L1; \
LE:

// BLOCKS4 converts the four consecutive blocks of BODY that start at I(SI) and O(DI), SIN and SOUT
// bytes long.
#define BLOCKS4(BODY, I, O, SIN, SOUT) \
	BODY(I, O); \
	BODY(I+SIN, O+SOUT); \
	BODY(I+2*SIN, O+2*SOUT); \
	BODY(I+3*SIN, O+3*SOUT)

// STEP4 converts four blocks with BODY and moves SI, DI and the count CX past them.
#define STEP4(BODY, V, SIN, SOUT) \
	BLOCKS4(BODY, 0, 0, SIN, SOUT); \
	ADDQ $(4*SIN), SI; \
	ADDQ $(4*SOUT), DI; \
	SUBQ $(4*V), CX

// LOOP runs BODY(in, out) over the buffers: four blocks per iteration while at least four are
// left, then one block at a time. A last partial block (R10 elements) of a call with at least one
// whole block is converted as the whole block that ends with the last element: it converts the
// V-R10 elements before the tail again and stores the same bytes over them (elements convert
// independently), which needs no copies, and no byte outside the buffers is read or written. When
// n < V, or when the step back does not fall on a byte (an odd count of 4-bit elements), the
// partial block is copied into the frame, converted there as a whole block, and only its R10
// elements are copied out. V is the block size
// in elements, SIN and SOUT its size in bytes (SIN·8/V bits an element, so 4-bit sources work).
// The including file defines TAILIN(S, D, N, L8, L1, LE), which copies the N source bytes into the
// frame (it may also write the frame's bytes past N), and TAILOUT(S, D, N, L8, L1, LE), which copies
// N bytes out of the frame (it may read the frame's bytes past N), with the contract of COPYBYTES
// otherwise: no byte of the caller's buffers past N is read or written.
#define LOOP(BODY, V, SIN, SOUT) \
	MOVQ CX, R10; \
	ANDQ $(V-1), R10; \
	SUBQ R10, CX; \
	JZ   tail; \
	CMPQ CX, $(4*V); \
	JB   single; \
four: \
	STEP4(BODY, V, SIN, SOUT); \
	CMPQ CX, $(4*V); \
	JAE  four; \
	TESTQ CX, CX; \
	JZ   tail; \
single: \
	BODY(0, 0); \
	ADDQ $SIN, SI; \
	ADDQ $SOUT, DI; \
	SUBQ $V, CX; \
	JNZ  single; \
tail: \
	TESTQ R10, R10; \
	JZ   done; \
	CMPQ n+48(FP), $V; \
	JB   frame; \
	MOVQ $V, BX; \
	SUBQ R10, BX; \
	MOVQ BX, AX; \
	IMULQ $(SIN*8/V), AX; \
	IMULQ $(SOUT*8/V), BX; \
	MOVQ AX, DX; \
	ORQ  BX, DX; \
	TESTQ $7, DX; \
	JNZ  frame; \
	SHRQ $3, AX; \
	SHRQ $3, BX; \
	SUBQ AX, SI; \
	SUBQ BX, DI; \
	BODY(0, 0); \
	JMP  done; \
frame: \
	MOVQ R10, BX; \
	IMULQ $(SIN*8/V), BX; \
	ADDQ $7, BX; \
	SHRQ $3, BX; \
	LEAQ 0(SP), R8; \
	TAILIN(SI, R8, BX, in8, in1, inDone); \
	MOVQ DI, R11; \
	MOVQ R8, SI; \
	LEAQ 256(SP), DI; \
	BODY(0, 0); \
	MOVQ R10, BX; \
	IMULQ $(SOUT*8/V), BX; \
	ADDQ $7, BX; \
	SHRQ $3, BX; \
	TAILOUT(DI, R11, BX, out8, out1, outDone); \
done: \
	VZEROUPPER; \
	RET

// LOOPNT is LOOP for the kernels with non-temporal stores: n must be a multiple of V and dst
// 64-byte aligned (the caller splits off the rest), and an SFENCE orders the stores before
// returning.
#define LOOPNT(BODY, V, SIN, SOUT) \
	TESTQ CX, CX; \
	JZ   done; \
	CMPQ CX, $(4*V); \
	JB   single; \
four: \
	STEP4(BODY, V, SIN, SOUT); \
	CMPQ CX, $(4*V); \
	JAE  four; \
	TESTQ CX, CX; \
	JZ   done; \
single: \
	BODY(0, 0); \
	ADDQ $SIN, SI; \
	ADDQ $SOUT, DI; \
	SUBQ $V, CX; \
	JNZ  single; \
done: \
	SFENCE; \
	VZEROUPPER; \
	RET

// LOOPFAST is LOOP with a fast path: four blocks (a group) at a time it runs FAST, with the
// constants FCONSTS, and then OK, which clears ZF if FAST may have got an element wrong since
// FCONSTS; then it converts the group again with BODY and the constants CONSTS (storing over the
// same bytes), and R13 more groups after it, before it reloads FCONSTS and tries FAST again. R13
// starts at 0, becomes 2·R13 + 1 (at most 15) at each such redo and 0 again at each group that
// FAST gets right: a lone group with a value out of FAST's range costs one wasted FAST, and data
// with many (tensors of tiny values) waste it on one group in 17 at most. What is left (fewer
// than four blocks and a partial one), if anything, goes to LOOP with BODY. R12 counts the groups
// of BODY.
#define LOOPFAST(FAST, OK, BODY, FCONSTS, CONSTS, V, SIN, SOUT) \
	MOVQ CX, R10; \
	ANDQ $(V-1), R10; \
	SUBQ R10, CX; \
	CMPQ CX, $(4*V); \
	JB   full; \
	XORL R13, R13; \
	FCONSTS; \
fast: \
	FAST(0, 0); \
	FAST(SIN, SOUT); \
	FAST(2*SIN, 2*SOUT); \
	FAST(3*SIN, 3*SOUT); \
	OK; \
	JNZ  redo; \
	XORL R13, R13; \
	ADDQ $(4*SIN), SI; \
	ADDQ $(4*SOUT), DI; \
	SUBQ $(4*V), CX; \
	CMPQ CX, $(4*V); \
	JAE  fast; \
	JMP  full; \
redo: \
	CONSTS; \
	LEAQ 1(R13), R12; \
	LEAQ 1(R13)(R13*1), R13; \
	MOVL $15, AX; \
	CMPQ R13, AX; \
	CMOVQHI AX, R13; \
slow: \
	STEP4(BODY, V, SIN, SOUT); \
	CMPQ CX, $(4*V); \
	JB   rest; \
	DECQ R12; \
	JNZ  slow; \
	FCONSTS; \
	JMP  fast; \
full: \
	ADDQ R10, CX; \
	JZ   fastDone; \
	CONSTS; \
	JMP  loop; \
rest: \
	ADDQ R10, CX; \
	JZ   fastDone; \
loop: \
	LOOP(BODY, V, SIN, SOUT); \
fastDone: \
	VZEROUPPER; \
	RET

// NOCONSTS is LOOPFAST's CONSTS for kernels that keep the constants of both routes loaded.
#define NOCONSTS

// LOOPCHECK is LOOP for kernels with a short route that is exact except for rare special values
// it can detect (f32 → i32: NaN and out of range; f32 → bf16 on AVX2: NaN). STEP elements (SIN
// and SOUT bytes) a step, blocks of up to 1024 elements: FAST converts a step into registers and
// folds its test into an accumulator, STORE stores the step, RESET clears the accumulator and
// BAD clears ZF when it shows a special value. When a block ends with BAD, that block and the
// rest of the call are converted again step by step (RESET, FAST, BAD), and a step with a
// special value goes through FIX, the exact route for one step, which stores itself. Redoing a
// block needs its source intact, which holds because Convert refuses overlapping buffers. The
// elements after the last whole step go through BODY in LOOP (V, BSIN, BSOUT). Uses R8, R9,
// R11, R12 and R13 besides LOOP's registers.
#define LOOPCHECK(FAST, RESET, BAD, STORE, FIX, STEP, SIN, SOUT, BODY, V, BSIN, BSOUT) \
	MOVQ CX, R12; \
	ANDQ $(STEP-1), R12; \
	SUBQ R12, CX; \
	JZ   ckrest; \
ckblock: \
	MOVQ $1024, R13; \
	CMPQ CX, R13; \
	CMOVQLT CX, R13; \
	MOVQ SI, R8; \
	MOVQ DI, R9; \
	MOVQ R13, R11; \
	RESET; \
ckrun: \
	FAST; \
	STORE; \
	ADDQ $SIN, SI; \
	ADDQ $SOUT, DI; \
	SUBQ $STEP, R13; \
	JNZ  ckrun; \
	BAD; \
	JNZ  ckspecial; \
	SUBQ R11, CX; \
	JNZ  ckblock; \
	JMP  ckrest; \
ckspecial: \
	MOVQ R8, SI; \
	MOVQ R9, DI; \
ckstep: \
	RESET; \
	FAST; \
	BAD; \
	JNZ  ckfix; \
	STORE; \
cknext: \
	ADDQ $SIN, SI; \
	ADDQ $SOUT, DI; \
	SUBQ $STEP, CX; \
	JNZ  ckstep; \
ckrest: \
	MOVQ R12, CX; \
	LOOP(BODY, V, BSIN, BSOUT); \
ckfix: \
	FIX; \
	JMP  cknext
