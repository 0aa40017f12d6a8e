// Macros shared by the amd64 kernel files.

// ARGS loads the three common arguments.
#define ARGS \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ n+16(FP), CX

// BCASTD and BCASTW broadcast a 32- or 16-bit constant into a Y register (X is its low half).
#define BCASTD(val, X, Y) \
	MOVL $val, AX; \
	VMOVD AX, X; \
	VPBROADCASTD X, Y

#define BCASTW(val, X, Y) \
	MOVL $val, AX; \
	VMOVD AX, X; \
	VPBROADCASTW X, Y

// LOOP runs BODY(in, out) over the buffers: four blocks per iteration while at least four are
// left, then one block at a time. V is the block size in elements, SIN and SOUT in bytes.
#define LOOP(BODY, V, SIN, SOUT) \
	CMPQ CX, $(4*V); \
	JB   one; \
four: \
	BODY(0, 0); \
	BODY(SIN, SOUT); \
	BODY(2*SIN, 2*SOUT); \
	BODY(3*SIN, 3*SOUT); \
	ADDQ $(4*SIN), SI; \
	ADDQ $(4*SOUT), DI; \
	SUBQ $(4*V), CX; \
	CMPQ CX, $(4*V); \
	JAE  four; \
one: \
	TESTQ CX, CX; \
	JZ   done; \
single: \
	BODY(0, 0); \
	ADDQ $SIN, SI; \
	ADDQ $SOUT, DI; \
	SUBQ $V, CX; \
	JNZ  single; \
done: \
	VZEROUPPER; \
	RET
