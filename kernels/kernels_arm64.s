//go:build gc && !purego

// The NEON kernels: conversions between the binary floats (f32, f16, bf16, f64), the 8-bit
// floats (f8e4m3, f8e5m2, docs/SEMANTICS.md §3.5 for the encoders), the packed 4-bit types
// (table lookups), the integers and boolean. stubs_arm64.go, which the generator (kernels/_asm)
// writes from the registry, declares the kernel of every row that names NEON, named after its
// pair (f32ToF16NEON), documented by the scalar loop it computes.
//
// Every kernel has the Go signature func(dst, src []byte, n int) (a loopFunc): it converts the
// first n elements of src into dst, whole blocks and the last partial one, and reads or writes
// no byte outside the two slices. It loads its arguments and hands its block routine to
// neonRun<>, which holds the loop and the tail once for all. FPCR is as Go leaves it: round to
// nearest even, no flush to zero, default-NaN mode off.
//
// Instructions the Go assembler lacks are WORD-encoded with the instruction in the comment;
// TestARM64WordEncodings checks each against aarch64-linux-gnu-objdump.

#include "textflag.h"

// neonRun<> converts n elements with a block routine. In: R0 dst, R1 src, R2 n, R9 the block
// routine, R10 = block<<16 | source bits<<8 | destination bits of one element, and R3 the block
// routine's parameter, if it takes one (the 4-bit decoders' table; the formats of a routine that
// serves several pairs). The block is a power of two, at
// most 64 source and 128 destination bytes; destination elements are whole bytes.
//
// A block routine converts R2 elements, a positive multiple of its block, from R1 to R0 and
// advances both past them. It may change R2, R4 to R8 and every vector register; it only reads
// R3 and leaves the other general registers alone.
//
// neonRun<> runs the whole blocks in place, then the last partial block of r elements, if any.
// When n ≥ block and the block - r elements before the partial block end on a byte boundary in
// both buffers, it runs the block that ends at the last element: block - r elements convert a
// second time and the same bytes are stored over them (elements convert independently). When n
// < block, or the step back would split a byte (an odd count of 4-bit codes), it copies the r
// elements' source bytes into its frame (8(RSP), 64 bytes), converts a whole block there into
// the frame (72(RSP), 128 bytes) and copies out only the r elements' destination bytes. The
// source bytes of the frame past the copied ones are whatever the stack held: they convert to
// values that are never copied out.
TEXT neonRun<>(SB), NOSPLIT, $192-0
	LSR	$16, R10, R11      // R11: block
	UBFX	$8, R10, $8, R12   // R12: source bits
	AND	$0xFF, R10, R10    // R10: destination bits
	MOVD	R2, R14            // R14: n
	SUB	$1, R11, R4
	AND	R4, R2, R13        // R13: r, the elements after the whole blocks
	SUBS	R13, R2, R2
	BEQ	tail
	CALL	(R9)

tail:
	CBZ	R13, done
	CMP	R11, R14
	BLO	frame
	SUB	R13, R11, R4 // block - r
	MUL	R12, R4, R5  // its source bits
	MUL	R10, R4, R6  // its destination bits
	ORR	R5, R6, R7
	TST	$7, R7
	BNE	frame
	SUB	R5>>3, R1, R1
	SUB	R6>>3, R0, R0
	MOVD	R11, R2
	CALL	(R9)

done:
	RET

frame:
	MUL	R12, R13, R5
	ADD	$7, R5, R5
	LSR	$3, R5, R5 // source bytes of r elements, a partly used byte included
	ADD	$8, RSP, R6

copyin:
	MOVBU.P	1(R1), R7
	MOVB.P	R7, 1(R6)
	SUBS	$1, R5, R5
	BNE	copyin
	MOVD	R0, R15
	ADD	$8, RSP, R1
	ADD	$72, RSP, R0
	MOVD	R11, R2
	CALL	(R9)
	MUL	R10, R13, R5
	LSR	$3, R5, R5 // destination bytes of r elements
	ADD	$72, RSP, R6

copyout:
	MOVBU.P	1(R6), R7
	MOVB.P	R7, 1(R15)
	SUBS	$1, R5, R5
	BNE	copyout
	RET

// The kernels, in the order of the registry (registry.go). Each loads its arguments, its block
// routine, the block and element sizes and the routine's parameter, and jumps to neonRun<>. The
// 4-bit decoders pass the address of their type's row of nibbleValuesF32 or nibbleValuesF16
// (tables.go; rows in the order of nibbleTypes: u4, i4, nf4, f4e2m1).

// func f32ToF16NEON(dst, src []byte, n int)
TEXT ·f32ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f32ToF16Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f16ToF32NEON(dst, src []byte, n int)
TEXT ·f16ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f16ToF32Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f32ToBF16NEON(dst, src []byte, n int)
TEXT ·f32ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // from f32
	MOVD	$toBF16Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f32ToBF16BFCVTN(dst, src []byte, n int)
TEXT ·f32ToBF16BFCVTN(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f32ToBF16BFCVTNBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func bf16ToF32NEON(dst, src []byte, n int)
TEXT ·bf16ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$bf16ToF32Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f16ToBF16NEON(dst, src []byte, n int)
TEXT ·f16ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // from f16
	MOVD	$toBF16Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 16), R10
	JMP	neonRun<>(SB)

// func bf16ToF16NEON(dst, src []byte, n int)
TEXT ·bf16ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$bf16ToF16Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e4m3ToF16NEON(dst, src []byte, n int)
TEXT ·f8e4m3ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // to f16
	MOVD	$f8e4m3ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e4m3ToF32NEON(dst, src []byte, n int)
TEXT ·f8e4m3ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // to f32
	MOVD	$f8e4m3ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f8e4m3ToBF16NEON(dst, src []byte, n int)
TEXT ·f8e4m3ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$2, R3 // to bf16
	MOVD	$f8e4m3ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e5m2ToF16NEON(dst, src []byte, n int)
TEXT ·f8e5m2ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // to f16
	MOVD	$f8e5m2ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e5m2ToF32NEON(dst, src []byte, n int)
TEXT ·f8e5m2ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // to f32
	MOVD	$f8e5m2ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f32ToF8e4m3NEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // from f32
	MOVD	$toF8e4m3Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e4m3NEON(dst, src []byte, n int)
TEXT ·f16ToF8e4m3NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // from f16
	MOVD	$toF8e4m3Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2NEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // from f32
	MOVD	$toF8e5m2Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2NEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // from f16
	MOVD	$toF8e5m2Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func u4ToF32NEON(dst, src []byte, n int)
TEXT ·u4ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+0(SB), R3 // the u4 row
	MOVD	$nibbleToF32Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i4ToF32NEON(dst, src []byte, n int)
TEXT ·i4ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+64(SB), R3 // the i4 row
	MOVD	$nibbleToF32Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 32), R10
	JMP	neonRun<>(SB)

// func nf4ToF32NEON(dst, src []byte, n int)
TEXT ·nf4ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+128(SB), R3 // the nf4 row
	MOVD	$nibbleToF32Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f4e2m1ToF32NEON(dst, src []byte, n int)
TEXT ·f4e2m1ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+192(SB), R3 // the f4e2m1 row
	MOVD	$nibbleToF32Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 32), R10
	JMP	neonRun<>(SB)

// func u4ToF16NEON(dst, src []byte, n int)
TEXT ·u4ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF16+0(SB), R3 // the u4 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i4ToF16NEON(dst, src []byte, n int)
TEXT ·i4ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF16+32(SB), R3 // the i4 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func nf4ToF16NEON(dst, src []byte, n int)
TEXT ·nf4ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF16+64(SB), R3 // the nf4 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f4e2m1ToF16NEON(dst, src []byte, n int)
TEXT ·f4e2m1ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF16+96(SB), R3 // the f4e2m1 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i8ToF32NEON(dst, src []byte, n int)
TEXT ·i8ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(0<<4 | 1), R3 // i8 to f32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func u8ToF32NEON(dst, src []byte, n int)
TEXT ·u8ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(1<<4 | 1), R3 // u8 to f32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i16ToF32NEON(dst, src []byte, n int)
TEXT ·i16ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(2<<4 | 1), R3 // i16 to f32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 32), R10
	JMP	neonRun<>(SB)

// func u16ToF32NEON(dst, src []byte, n int)
TEXT ·u16ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(3<<4 | 1), R3 // u16 to f32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i32ToF32NEON(dst, src []byte, n int)
TEXT ·i32ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$i32ToF32Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i8ToF16NEON(dst, src []byte, n int)
TEXT ·i8ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(0<<4 | 2), R3 // i8 to f16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u8ToF16NEON(dst, src []byte, n int)
TEXT ·u8ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(1<<4 | 2), R3 // u8 to f16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i16ToF16NEON(dst, src []byte, n int)
TEXT ·i16ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(2<<4 | 2), R3 // i16 to f16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u16ToF16NEON(dst, src []byte, n int)
TEXT ·u16ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(3<<4 | 2), R3 // u16 to f16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i32ToF16NEON(dst, src []byte, n int)
TEXT ·i32ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$i32ToF16Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i8ToBF16NEON(dst, src []byte, n int)
TEXT ·i8ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$i8ToBF16Blocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i8ToI32NEON(dst, src []byte, n int)
TEXT ·i8ToI32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(0<<4 | 0), R3 // i8 to i32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func u8ToI32NEON(dst, src []byte, n int)
TEXT ·u8ToI32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(1<<4 | 0), R3 // u8 to i32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i16ToI32NEON(dst, src []byte, n int)
TEXT ·i16ToI32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(2<<4 | 0), R3 // i16 to i32
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i32ToI64NEON(dst, src []byte, n int)
TEXT ·i32ToI64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$i32ToI64Blocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 64), R10
	JMP	neonRun<>(SB)

// func i64ToI32NEON(dst, src []byte, n int)
TEXT ·i64ToI32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$i64ToI32Blocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i32ToI16NEON(dst, src []byte, n int)
TEXT ·i32ToI16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // to i16
	MOVD	$i32ToNarrowBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i32ToI8NEON(dst, src []byte, n int)
TEXT ·i32ToI8NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // to i8
	MOVD	$i32ToNarrowBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToI32NEON(dst, src []byte, n int)
TEXT ·f32ToI32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f32ToI32Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f32ToI16NEON(dst, src []byte, n int)
TEXT ·f32ToI16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // to i16
	MOVD	$f32ToSmallIntBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f32ToI8NEON(dst, src []byte, n int)
TEXT ·f32ToI8NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // to i8
	MOVD	$f32ToSmallIntBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToU8NEON(dst, src []byte, n int)
TEXT ·f32ToU8NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$2, R3 // to u8
	MOVD	$f32ToSmallIntBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f64ToF32NEON(dst, src []byte, n int)
TEXT ·f64ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f64ToF32Blocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f32ToF64NEON(dst, src []byte, n int)
TEXT ·f32ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f32ToF64Blocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 64), R10
	JMP	neonRun<>(SB)

// func boolToU8NEON(dst, src []byte, n int)
TEXT ·boolToU8NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$byteToBoolBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 8), R10
	JMP	neonRun<>(SB)

// func u8ToBoolNEON(dst, src []byte, n int)
TEXT ·u8ToBoolNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$byteToBoolBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 8), R10
	JMP	neonRun<>(SB)

// func boolToF32NEON(dst, src []byte, n int)
TEXT ·boolToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$boolToF32Blocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f32ToBoolNEON(dst, src []byte, n int)
TEXT ·f32ToBoolNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$f32ToBoolBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// The block routines (see neonRun<>).

// f32ToF16Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// FCVTN: round to nearest even, overflow to ±inf, NaN quieted.
TEXT f32ToF16Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// f16ToF32Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// FCVTL: exact; a signalling NaN is quieted.
TEXT f16ToF32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// f32ToBF16BFCVTNBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// BFCVTN, FEAT_BF16 only. Its FPConvertBF with the FPCR Go runs under
// (AH=0, FZ=0, DN=0, round to nearest even) keeps subnormals and quiets a NaN keeping its sign
// and top payload bits: the bits of toBF16Blocks<>. TestNEONBF16Branches compares the two under
// qemu -cpu max.
TEXT f32ToBF16BFCVTNBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// bf16ToF32Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// Exact: each bf16 becomes the high half of an f32 (bits unchanged).
TEXT bf16ToF32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// bf16ToF16Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// bf16 to f32 (exact), then FCVTN to f16 (round to nearest even).
TEXT bf16ToF16Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// f64ToF32Blocks<> converts R2 elements, a positive multiple of 8, from R1 to R0.
// FCVTN: round to nearest even, overflow to ±inf, NaN quieted with
// sign and top payload kept (what Go's float32(x) gives).
TEXT f64ToF32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// f32ToF64Blocks<> converts R2 elements, a positive multiple of 8, from R1 to R0.
// FCVTL: exact; a signalling NaN is quieted.
TEXT f32ToF64Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// toBF16Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f32 (R3 = 0)
// or f16 (R3 = 1, widened exactly by FCVTL, a NaN quieted) to bf16. Integer rounding:
// (x + 0x7FFF + bit 16 of x) >> 16, subnormals kept, overflow to ±inf; a NaN becomes
// x>>16 | 0x0040 (quieted, sign and top payload kept).
TEXT toBF16Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// V27 = 0x00400000 (quiet bit), V28 = 0x7FFF, V29 = 1, V30 = 0x7FFFFFFF, V31 = +inf.
	MOVW	$0x400000, R4
	VDUP	R4, V27.S4
	MOVW	$0x7FFF, R4
	VDUP	R4, V28.S4
	MOVW	$0x1, R4
	VDUP	R4, V29.S4
	MOVW	$0x7FFFFFFF, R4
	VDUP	R4, V30.S4
	MOVW	$0x7F800000, R4
	VDUP	R4, V31.S4
loop:
	CBNZ	R3, fromf16
	VLD1.P	64(R1), [V2.S4, V3.S4, V4.S4, V5.S4]
	B	round

fromf16:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0e217802 // FCVTL V2.4S, V0.4H
	WORD	$0x4e217803 // FCVTL2 V3.4S, V0.8H
	WORD	$0x0e217824 // FCVTL V4.4S, V1.4H
	WORD	$0x4e217825 // FCVTL2 V5.4S, V1.8H

round:
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
	BNE	loop
	RET

// f8e4m3ToBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f8e4m3 to
// f32 (R3 = 0), f16 (R3 = 1) or bf16 (R3 = 2). The magnitude bits m = b & 0x7F placed at f32
// bit 20 are the value times 2^-120 (subnormals too); FMUL by 2^120 is exact. m == 0x7F is NaN
// (quiet, sign kept). The f16 results are the f32 ones narrowed by FCVTN (exact: every e4m3
// value is an f16); the bf16 results are their high halves (exact: the low halves are zero).
TEXT f8e4m3ToBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// V26 = f32 quiet NaN, V27 = 0x7F, V30 = 2^120 (f32 lanes); V28 = 0x80, V29 = 0x7F (bytes); V31 = 0.
	MOVW	$0x7FC00000, R4
	VDUP	R4, V26.S4
	MOVW	$0x7F, R4
	VDUP	R4, V27.S4
	MOVW	$0x7B800000, R4
	VDUP	R4, V30.S4
	VMOVI	$0x80, V28.B16
	VMOVI	$0x7F, V29.B16
	VEOR	V31.B16, V31.B16, V31.B16
loop:
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
	CMP	$2, R3
	BEQ	tobf16
	BHI	tof64
	CBNZ	R3, tof16
	VST1.P	[V5.S4, V6.S4, V7.S4, V8.S4], 64(R0)
	B	next

tof64:
	WORD	$0x0e6178b0 // FCVTL V16.2D, V5.2S
	WORD	$0x4e6178b1 // FCVTL2 V17.2D, V5.4S
	WORD	$0x0e6178d2 // FCVTL V18.2D, V6.2S
	WORD	$0x4e6178d3 // FCVTL2 V19.2D, V6.4S
	WORD	$0x0e6178f4 // FCVTL V20.2D, V7.2S
	WORD	$0x4e6178f5 // FCVTL2 V21.2D, V7.4S
	WORD	$0x0e617916 // FCVTL V22.2D, V8.2S
	WORD	$0x4e617917 // FCVTL2 V23.2D, V8.4S
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	B	next

tobf16:
	VUZP2	V6.H8, V5.H8, V16.H8
	VUZP2	V8.H8, V7.H8, V17.H8
	VST1.P	[V16.H8, V17.H8], 32(R0)
	B	next

tof16:
	WORD	$0x0e2168b0 // FCVTN V16.4H, V5.4S
	WORD	$0x4e2168d0 // FCVTN2 V16.8H, V6.4S
	WORD	$0x0e2168f1 // FCVTN V17.4H, V7.4S
	WORD	$0x4e216911 // FCVTN2 V17.8H, V8.4S
	VST1.P	[V16.H8, V17.H8], 32(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// f8e5m2ToBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f8e5m2 to
// f32 (R3 = 0) or f16 (R3 = 1). The byte becomes the high byte of an f16 (bits unchanged), which
// FCVTL widens to f32 (a NaN quieted).
TEXT f8e5m2ToBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	VEOR	V31.B16, V31.B16, V31.B16
loop:
	VLD1.P	16(R1), [V0.B16]
	VZIP1	V0.B16, V31.B16, V1.B16
	VZIP2	V0.B16, V31.B16, V2.B16
	CMP	$1, R3
	BNE	tof32
	VST1.P	[V1.H8, V2.H8], 32(R0)
	B	next

tof32:
	WORD	$0x0e217823 // FCVTL V3.4S, V1.4H
	WORD	$0x4e217824 // FCVTL2 V4.4S, V1.8H
	WORD	$0x0e217845 // FCVTL V5.4S, V2.4H
	WORD	$0x4e217846 // FCVTL2 V6.4S, V2.8H
	CMP	$2, R3
	BEQ	tobf16
	BHI	tof64
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	B	next

tobf16:
	VUZP2	V4.H8, V3.H8, V7.H8
	VUZP2	V6.H8, V5.H8, V8.H8
	VST1.P	[V7.H8, V8.H8], 32(R0)
	B	next

tof64:
	WORD	$0x0e617870 // FCVTL V16.2D, V3.2S
	WORD	$0x4e617871 // FCVTL2 V17.2D, V3.4S
	WORD	$0x0e617892 // FCVTL V18.2D, V4.2S
	WORD	$0x4e617893 // FCVTL2 V19.2D, V4.4S
	WORD	$0x0e6178b4 // FCVTL V20.2D, V5.2S
	WORD	$0x4e6178b5 // FCVTL2 V21.2D, V5.4S
	WORD	$0x0e6178d6 // FCVTL V22.2D, V6.2S
	WORD	$0x4e6178d7 // FCVTL2 V23.2D, V6.4S
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// nibbleToF32Blocks<> converts R2 packed 4-bit codes (low nibble first), a positive multiple of
// 32, from R1 to R0: each code is looked up in the table of 16 float32 values at R3, by TBL on
// each of the four byte planes, and the planes are stored interleaved with ST4.
TEXT nibbleToF32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// nibbleToF16Blocks<> converts R2 packed 4-bit codes (low nibble first), a positive multiple of
// 32, from R1 to R0: each code is looked up in the table of 16 binary16 (or bfloat16) values at
// R3, by TBL on both byte planes, and the planes are stored interleaved with ST2.
TEXT nibbleToF16Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// toF8e5m2Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f32 (R3 = 0,
// first narrowed to f16 by FCVTN, round to nearest even: the two-step rule) or f16 (R3 = 1) to
// f8e5m2. RNE on the low byte of the f16, keep the high byte (overflow to ±inf); a NaN is
// quieted (bit 9 set) and truncated: 0x7E/0x7F by payload, sign kept.
TEXT toF8e5m2Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// V20 = 0x7F, V21 = 1, V22 = 0x7FFF, V23 = 0x7C00 (+inf), V24 = 0x0200 (f16 quiet bit), halfword lanes.
	MOVW	$0x7F, R4
	VDUP	R4, V20.H8
	MOVW	$0x1, R4
	VDUP	R4, V21.H8
	MOVW	$0x7FFF, R4
	VDUP	R4, V22.H8
	MOVW	$0x7C00, R4
	VDUP	R4, V23.H8
	MOVW	$0x200, R4
	VDUP	R4, V24.H8
loop:
	CBNZ	R3, fromf16
	VLD1.P	64(R1), [V2.S4, V3.S4, V4.S4, V5.S4]
	WORD	$0x0e216840 // FCVTN V0.4H, V2.4S
	WORD	$0x4e216860 // FCVTN2 V0.8H, V3.4S
	WORD	$0x0e216881 // FCVTN V1.4H, V4.4S
	WORD	$0x4e2168a1 // FCVTN2 V1.8H, V5.4S
	B	encode

fromf16:
	VLD1.P	32(R1), [V0.H8, V1.H8]

encode:
	VUSHR	$8, V0.H8, V6.H8
	VAND	V21.B16, V6.B16, V6.B16
	VADD	V0.H8, V6.H8, V6.H8
	VADD	V20.H8, V6.H8, V6.H8
	VAND	V22.B16, V0.B16, V9.B16
	WORD	$0x6e773529 // CMHI V9.8H, V9.8H, V23.8H
	VORR	V24.B16, V0.B16, V0.B16
	VBIT	V9.B16, V0.B16, V6.B16
	VUSHR	$8, V1.H8, V7.H8
	VAND	V21.B16, V7.B16, V7.B16
	VADD	V1.H8, V7.H8, V7.H8
	VADD	V20.H8, V7.H8, V7.H8
	VAND	V22.B16, V1.B16, V9.B16
	WORD	$0x6e773529 // CMHI V9.8H, V9.8H, V23.8H
	VORR	V24.B16, V1.B16, V1.B16
	VBIT	V9.B16, V1.B16, V7.B16
	VUZP2	V7.B16, V6.B16, V8.B16
	VST1.P	[V8.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// toF8e4m3Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f32 (R3 = 0,
// first narrowed to f16 by FCVTN, round to nearest even: the two-step rule) or f16 (R3 = 1) to
// f8e4m3. RNE from f16 to e4m3 (subnormals through FCVTNS of the value times 2^9); above 464,
// ±inf and NaN to 0x7F/0xFF by sign; 464 itself to 448.
TEXT toF8e4m3Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// Halfword lanes: V20 = 0x7FFF, V21 = 0x2000, V22 = 0x3F, V23 = 1, V25 = 0x2400 (2^-6, the smallest
	// normal e4m3), V27 = 0x7F (NaN code), V28 = 0x8000; word lanes: V26 = 512.0.
	MOVW	$0x7FFF, R4
	VDUP	R4, V20.H8
	MOVW	$0x2000, R4
	VDUP	R4, V21.H8
	MOVW	$0x3F, R4
	VDUP	R4, V22.H8
	MOVW	$0x1, R4
	VDUP	R4, V23.H8
	MOVW	$0x2400, R4
	VDUP	R4, V25.H8
	MOVW	$0x7F, R4
	VDUP	R4, V27.H8
	MOVW	$0x8000, R4
	VDUP	R4, V28.H8
	MOVW	$0x44000000, R4
	VDUP	R4, V26.S4
loop:
	CBNZ	R3, fromf16
	VLD1.P	64(R1), [V2.S4, V3.S4, V4.S4, V5.S4]
	WORD	$0x0e216840 // FCVTN V0.4H, V2.4S
	WORD	$0x4e216860 // FCVTN2 V0.8H, V3.4S
	WORD	$0x0e216881 // FCVTN V1.4H, V4.4S
	WORD	$0x4e2168a1 // FCVTN2 V1.8H, V5.4S
	B	encode

fromf16:
	VLD1.P	32(R1), [V0.H8, V1.H8]

encode:
	VAND	V20.B16, V0.B16, V2.B16
	VAND	V28.B16, V0.B16, V3.B16
	VUSHR	$8, V3.H8, V3.H8
	VSUB	V21.H8, V2.H8, V4.H8
	VUSHR	$7, V4.H8, V5.H8
	VAND	V23.B16, V5.B16, V5.B16
	VADD	V5.H8, V4.H8, V4.H8
	VADD	V22.H8, V4.H8, V4.H8
	VUSHR	$7, V4.H8, V14.H8
	VUMIN	V27.H8, V14.H8, V14.H8
	WORD	$0x0e217846 // FCVTL V6.4S, V2.4H
	WORD	$0x4e217847 // FCVTL2 V7.4S, V2.8H
	WORD	$0x6e3adcc6 // FMUL V6.4S, V6.4S, V26.4S
	WORD	$0x6e3adce7 // FMUL V7.4S, V7.4S, V26.4S
	WORD	$0x4e21a8c6 // FCVTNS V6.4S, V6.4S
	WORD	$0x4e21a8e7 // FCVTNS V7.4S, V7.4S
	VUZP1	V7.H8, V6.H8, V6.H8
	WORD	$0x6e623729 // CMHI V9.8H, V25.8H, V2.8H
	VBIT	V9.B16, V6.B16, V14.B16
	VORR	V3.B16, V14.B16, V14.B16
	VAND	V20.B16, V1.B16, V2.B16
	VAND	V28.B16, V1.B16, V3.B16
	VUSHR	$8, V3.H8, V3.H8
	VSUB	V21.H8, V2.H8, V4.H8
	VUSHR	$7, V4.H8, V5.H8
	VAND	V23.B16, V5.B16, V5.B16
	VADD	V5.H8, V4.H8, V4.H8
	VADD	V22.H8, V4.H8, V4.H8
	VUSHR	$7, V4.H8, V15.H8
	VUMIN	V27.H8, V15.H8, V15.H8
	WORD	$0x0e217846 // FCVTL V6.4S, V2.4H
	WORD	$0x4e217847 // FCVTL2 V7.4S, V2.8H
	WORD	$0x6e3adcc6 // FMUL V6.4S, V6.4S, V26.4S
	WORD	$0x6e3adce7 // FMUL V7.4S, V7.4S, V26.4S
	WORD	$0x4e21a8c6 // FCVTNS V6.4S, V6.4S
	WORD	$0x4e21a8e7 // FCVTNS V7.4S, V7.4S
	VUZP1	V7.H8, V6.H8, V6.H8
	WORD	$0x6e623729 // CMHI V9.8H, V25.8H, V2.8H
	VBIT	V9.B16, V6.B16, V15.B16
	VORR	V3.B16, V15.B16, V15.B16
	VUZP1	V15.B16, V14.B16, V16.B16
	VST1.P	[V16.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// smallIntToBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0. R3 is
// source<<4 | destination: source 0 i8, 1 u8, 2 i16, 3 u16; destination 0 i32, 1 f32, 2 f16,
// 3 bf16, 4 f64. The source is widened to i32 (SXTL, UXTL), converted exactly to f32 by SCVTF (a
// zero-extended u8 or u16 is a non-negative i32, so SCVTF gives UCVTF's result), then narrowed to
// f16 by FCVTN (round to nearest even; from u16, 65520 and above to +inf), rounded to bf16 by
// BF16FromF32's steps on the bits (x + 0x7FFF + (x>>16 & 1), its high half; no NaN can occur) or
// widened exactly to f64 by FCVTL.
TEXT smallIntToBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	LSR	$4, R3, R5 // source
	AND	$15, R3, R6 // destination
	MOVW	$0x7FFF, R4
	VDUP	R4, V28.S4
	MOVW	$1, R4
	VDUP	R4, V29.S4
loop:
	CBZ	R5, i8
	CMP	$2, R5
	BLO	u8
	BEQ	i16
	VLD1.P	32(R1), [V0.H8, V1.H8]
	VUXTL	V0.H4, V3.S4
	VUXTL2	V0.H8, V4.S4
	VUXTL	V1.H4, V5.S4
	VUXTL2	V1.H8, V6.S4
	B	widened

i16:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	WORD	$0x0f10a403 // SXTL V3.4S, V0.4H
	WORD	$0x4f10a404 // SXTL2 V4.4S, V0.8H
	WORD	$0x0f10a425 // SXTL V5.4S, V1.4H
	WORD	$0x4f10a426 // SXTL2 V6.4S, V1.8H
	B	widened

u8:
	VLD1.P	16(R1), [V0.B16]
	VUXTL	V0.B8, V1.H8
	VUXTL2	V0.B16, V2.H8
	VUXTL	V1.H4, V3.S4
	VUXTL2	V1.H8, V4.S4
	VUXTL	V2.H4, V5.S4
	VUXTL2	V2.H8, V6.S4
	B	widened

i8:
	VLD1.P	16(R1), [V0.B16]
	WORD	$0x0f08a401 // SXTL V1.8H, V0.8B
	WORD	$0x4f08a402 // SXTL2 V2.8H, V0.16B
	WORD	$0x0f10a423 // SXTL V3.4S, V1.4H
	WORD	$0x4f10a424 // SXTL2 V4.4S, V1.8H
	WORD	$0x0f10a445 // SXTL V5.4S, V2.4H
	WORD	$0x4f10a446 // SXTL2 V6.4S, V2.8H

widened:
	CBZ	R6, store32
	WORD	$0x4e21d863 // SCVTF V3.4S, V3.4S
	WORD	$0x4e21d884 // SCVTF V4.4S, V4.4S
	WORD	$0x4e21d8a5 // SCVTF V5.4S, V5.4S
	WORD	$0x4e21d8c6 // SCVTF V6.4S, V6.4S
	CMP	$1, R6
	BEQ	store32
	CMP	$3, R6
	BEQ	tobf16
	BHI	tof64
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	B	next

tobf16:
	VUSHR	$16, V3.S4, V7.S4
	VAND	V29.B16, V7.B16, V7.B16
	VADD	V3.S4, V7.S4, V7.S4
	VADD	V28.S4, V7.S4, V7.S4
	VUSHR	$16, V4.S4, V8.S4
	VAND	V29.B16, V8.B16, V8.B16
	VADD	V4.S4, V8.S4, V8.S4
	VADD	V28.S4, V8.S4, V8.S4
	VUSHR	$16, V5.S4, V9.S4
	VAND	V29.B16, V9.B16, V9.B16
	VADD	V5.S4, V9.S4, V9.S4
	VADD	V28.S4, V9.S4, V9.S4
	VUSHR	$16, V6.S4, V10.S4
	VAND	V29.B16, V10.B16, V10.B16
	VADD	V6.S4, V10.S4, V10.S4
	VADD	V28.S4, V10.S4, V10.S4
	VUZP2	V8.H8, V7.H8, V11.H8
	VUZP2	V10.H8, V9.H8, V12.H8
	VST1.P	[V11.H8, V12.H8], 32(R0)
	B	next

tof64:
	WORD	$0x0e617870 // FCVTL V16.2D, V3.2S
	WORD	$0x4e617871 // FCVTL2 V17.2D, V3.4S
	WORD	$0x0e617892 // FCVTL V18.2D, V4.2S
	WORD	$0x4e617893 // FCVTL2 V19.2D, V4.4S
	WORD	$0x0e6178b4 // FCVTL V20.2D, V5.2S
	WORD	$0x4e6178b5 // FCVTL2 V21.2D, V5.4S
	WORD	$0x0e6178d6 // FCVTL V22.2D, V6.2S
	WORD	$0x4e6178d7 // FCVTL2 V23.2D, V6.4S
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	B	next

store32:
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// i32ToF32Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// SCVTF: round to nearest even.
TEXT i32ToF32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// i32ToF16Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// SCVTF (round to nearest even), clamp to ±65504 (i32 → f16 saturates),
// FCVTN.
TEXT i32ToF16Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	MOVW	$0x477FE000, R4
	VDUP	R4, V30.S4
	MOVW	$0xC77FE000, R4
	VDUP	R4, V31.S4
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

// i8ToBF16Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0. Exact: SXTL
// twice to int32, SCVTF (an int8 has at most 8 significant bits, so its float32 is a bfloat16
// value, the low half of its bits zero), and UZP2 keeps the top halves.
TEXT i8ToBF16Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
i8bf16loop:
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
	VUZP2	V4.H8, V3.H8, V7.H8
	VUZP2	V6.H8, V5.H8, V8.H8
	VST1.P	[V7.H8, V8.H8], 32(R0)
	SUBS	$16, R2, R2
	BNE	i8bf16loop
	RET

// i32ToI64Blocks<> converts R2 elements, a positive multiple of 8, from R1 to R0.
// SXTL (sign extension).
TEXT i32ToI64Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// i64ToI32Blocks<> converts R2 elements, a positive multiple of 8, from R1 to R0.
// UZP1 keeps the low halves: two's-complement wrap.
TEXT i64ToI32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
i64i32loop:
	VLD1.P	64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VUZP1	V1.S4, V0.S4, V4.S4
	VUZP1	V3.S4, V2.S4, V5.S4
	VST1.P	[V4.S4, V5.S4], 32(R0)
	SUBS	$8, R2, R2
	BNE	i64i32loop
	RET

// i32ToNarrowBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: i32 to
// i16 (R3 = 0) or i8 (R3 = 1). UZP1 keeps the low halves, twice for i8: two's-complement wrap.
TEXT i32ToNarrowBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VUZP1	V1.H8, V0.H8, V4.H8
	VUZP1	V3.H8, V2.H8, V5.H8
	CBNZ	R3, toi8
	VST1.P	[V4.H8, V5.H8], 32(R0)
	B	next

toi8:
	VUZP1	V5.B16, V4.B16, V6.B16
	VST1.P	[V6.B16], 16(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// f32ToI32Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// FCVTZS: truncate toward zero, saturate, NaN to 0.
TEXT f32ToI32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
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

// f32ToSmallIntBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f32 to
// i16 (R3 = 0), i8 (R3 = 1) or u8 (R3 = 2). FCVTZS truncates toward zero, saturates to i32 and
// takes NaN to 0; SQXTN saturates to i16, again to i8; for u8 SQXTUN takes negatives to 0 and
// UQXTN saturates to 255.
TEXT f32ToSmallIntBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
loop:
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD	$0x4ea1b800 // FCVTZS V0.4S, V0.4S
	WORD	$0x4ea1b821 // FCVTZS V1.4S, V1.4S
	WORD	$0x4ea1b842 // FCVTZS V2.4S, V2.4S
	WORD	$0x4ea1b863 // FCVTZS V3.4S, V3.4S
	CMP	$1, R3
	BHI	tou8
	WORD	$0x0e614804 // SQXTN V4.4H, V0.4S
	WORD	$0x4e614824 // SQXTN2 V4.8H, V1.4S
	WORD	$0x0e614845 // SQXTN V5.4H, V2.4S
	WORD	$0x4e614865 // SQXTN2 V5.8H, V3.4S
	BEQ	toi8
	VST1.P	[V4.H8, V5.H8], 32(R0)
	B	next

toi8:
	WORD	$0x0e214886 // SQXTN V6.8B, V4.8H
	WORD	$0x4e2148a6 // SQXTN2 V6.16B, V5.8H
	VST1.P	[V6.B16], 16(R0)
	B	next

tou8:
	WORD	$0x2e612804 // SQXTUN V4.4H, V0.4S
	WORD	$0x6e612824 // SQXTUN2 V4.8H, V1.4S
	WORD	$0x2e612845 // SQXTUN V5.4H, V2.4S
	WORD	$0x6e612865 // SQXTUN2 V5.8H, V3.4S
	WORD	$0x2e214886 // UQXTN V6.8B, V4.8H
	WORD	$0x6e2148a6 // UQXTN2 V6.16B, V5.8H
	VST1.P	[V6.B16], 16(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// byteToBoolBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// Any non-zero byte to 1, zero to 0 (CMTST, USHR).
TEXT byteToBoolBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
b2bloop:
	VLD1.P	16(R1), [V0.B16]
	VCMTST	V0.B16, V0.B16, V1.B16
	VUSHR	$7, V1.B16, V1.B16
	VST1.P	[V1.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	b2bloop
	RET

// boolToF32Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// A non-zero byte to 1.0, zero to +0.0.
TEXT boolToF32Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	MOVW	$0x3F800000, R4
	VDUP	R4, V31.S4
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

// f32ToBoolBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0.
// Non-zero (NaN and ±inf included) to 1, ±0 to 0.
TEXT f32ToBoolBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	MOVW	$0x7FFFFFFF, R4
	VDUP	R4, V31.S4
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

// The FNUZ decoders: each passes its type's and output's row of neonFNUZ (rules_arm64.go) to
// fnuzBlocks<>.

// func f8e4m3fnuzToF32NEON(dst, src []byte, n int)
TEXT ·f8e4m3fnuzToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+0(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f8e4m3fnuzToF16NEON(dst, src []byte, n int)
TEXT ·f8e4m3fnuzToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+16(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e4m3fnuzToBF16NEON(dst, src []byte, n int)
TEXT ·f8e4m3fnuzToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+32(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e5m2fnuzToF32NEON(dst, src []byte, n int)
TEXT ·f8e5m2fnuzToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+64(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f8e5m2fnuzToF16NEON(dst, src []byte, n int)
TEXT ·f8e5m2fnuzToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+80(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e5m2fnuzToBF16NEON(dst, src []byte, n int)
TEXT ·f8e5m2fnuzToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+96(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// The rule sets' float8 encoders, in the order of ruleRegistry (registry.go): each passes its
// encoder's row for its source (rules_arm64.go) to ruleF8Blocks<>.

// func f32ToF8e4m3ONNXNEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3Sat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2ONNXNEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2Sat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e4m3fnuzONNXNEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3fnuzONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2fnuzONNXNEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2fnuzONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e4m3ONNXNEON(dst, src []byte, n int)
TEXT ·f16ToF8e4m3ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3Sat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2ONNXNEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2Sat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e4m3fnuzONNXNEON(dst, src []byte, n int)
TEXT ·f16ToF8e4m3fnuzONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2fnuzONNXNEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2fnuzONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e4m3ONNXNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e4m3ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3Sat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e5m2ONNXNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e5m2ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2Sat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e4m3fnuzONNXNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e4m3fnuzONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e5m2fnuzONNXNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e5m2fnuzONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e4m3ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3NoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2NoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e4m3fnuzONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3fnuzONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZNoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2fnuzONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2fnuzONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZNoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2NoSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e4m3fnuzONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f16ToF8e4m3fnuzONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZNoSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2fnuzONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2fnuzONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZNoSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e4m3ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e4m3ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3NoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e5m2ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e5m2ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2NoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e4m3fnuzONNXNoSatNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e4m3fnuzONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZNoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e5m2fnuzONNXNoSatNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e5m2fnuzONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZNoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e4m3MLDtypesNEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3NoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2MLDtypesNEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2ML+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e4m3fnuzMLDtypesNEON(dst, src []byte, n int)
TEXT ·f32ToF8e4m3fnuzMLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZNoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e5m2fnuzMLDtypesNEON(dst, src []byte, n int)
TEXT ·f32ToF8e5m2fnuzMLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZNoSat+0(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2MLDtypesNEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2ML+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e4m3fnuzMLDtypesNEON(dst, src []byte, n int)
TEXT ·f16ToF8e4m3fnuzMLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZNoSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e5m2fnuzMLDtypesNEON(dst, src []byte, n int)
TEXT ·f16ToF8e5m2fnuzMLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZNoSat+36(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e4m3MLDtypesNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e4m3MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3NoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e5m2MLDtypesNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e5m2MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2ML+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e4m3fnuzMLDtypesNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e4m3fnuzMLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE4M3FNUZNoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e5m2fnuzMLDtypesNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e5m2fnuzMLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE5M2FNUZNoSat+72(SB), R3
	MOVD	$ruleF8Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// ruleF8Blocks<> is the block routine of the rule sets' float8 encoders (ruleRegistry): 16
// elements a block, f8FromF32's steps on four vectors of 32-bit lanes. R3 points to the
// encoder's row for the source (neonEnc in rules_arm64.go): the source (0 f32, 1 f16, widened by
// FCVTL, 2 bf16, widened by ZIP with zero halves), then minNormal, magic, offset, clamp, half,
// the NaN code, the negated shift and the FNUZ mask.
TEXT ruleF8Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// V16 = 0x7FFFFFFF, V17 = minNormal, V18 = magic, V19 = offset, V20 = clamp, V21 = half,
	// V22 = 1, V23 = NaN code, V24 = 0x7F800000, V25 = 0x80, V26 = -shift, V27 = FNUZ mask,
	// V28 = 0 (word lanes).
	MOVW	$0x7FFFFFFF, R4
	VDUP	R4, V16.S4
	MOVWU	4(R3), R4
	VDUP	R4, V17.S4
	MOVWU	8(R3), R4
	VDUP	R4, V18.S4
	MOVWU	12(R3), R4
	VDUP	R4, V19.S4
	MOVWU	16(R3), R4
	VDUP	R4, V20.S4
	MOVWU	20(R3), R4
	VDUP	R4, V21.S4
	MOVW	$1, R4
	VDUP	R4, V22.S4
	MOVWU	24(R3), R4
	VDUP	R4, V23.S4
	MOVW	$0x7F800000, R4
	VDUP	R4, V24.S4
	MOVW	$0x80, R4
	VDUP	R4, V25.S4
	MOVWU	28(R3), R4
	VDUP	R4, V26.S4
	MOVWU	32(R3), R4
	VDUP	R4, V27.S4
	VEOR	V28.B16, V28.B16, V28.B16
	MOVWU	0(R3), R7

loop:
	CBNZ	R7, narrow
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	B	encode

narrow:
	VLD1.P	32(R1), [V4.H8, V5.H8]
	CMP	$1, R7
	BNE	bf16
	WORD	$0x0e217880 // FCVTL V0.4S, V4.4H
	WORD	$0x4e217881 // FCVTL2 V1.4S, V4.8H
	WORD	$0x0e2178a2 // FCVTL V2.4S, V5.4H
	WORD	$0x4e2178a3 // FCVTL2 V3.4S, V5.8H
	B	encode

bf16:
	VZIP1	V4.H8, V28.H8, V0.H8
	VZIP2	V4.H8, V28.H8, V1.H8
	VZIP1	V5.H8, V28.H8, V2.H8
	VZIP2	V5.H8, V28.H8, V3.H8

encode:
	VAND	V16.B16, V0.B16, V4.B16 // a = |x|
	WORD	$0x6eba4485 // USHL V5.4S, V4.4S, V26.4S
	VAND	V22.B16, V5.B16, V5.B16
	VADD	V21.S4, V4.S4, V6.S4
	VADD	V5.S4, V6.S4, V6.S4
	WORD	$0x6eba44c6 // USHL V6.4S, V6.4S, V26.4S
	VSUB	V19.S4, V6.S4, V6.S4 // the code of a normal magnitude
	WORD	$0x4e32d487 // FADD V7.4S, V4.4S, V18.4S
	VSUB	V18.S4, V7.S4, V7.S4 // the code of a subnormal one
	WORD	$0x6ea43628 // CMHI V8.4S, V17.4S, V4.4S
	VBIT	V8.B16, V7.B16, V6.B16
	VUMIN	V20.S4, V6.S4, V6.S4 // clamped
	WORD	$0x6eb83488 // CMHI V8.4S, V4.4S, V24.4S
	VBIT	V8.B16, V23.B16, V6.B16 // NaN
	VUSHR	$24, V0.S4, V9.S4
	VAND	V25.B16, V9.B16, V9.B16 // the sign, 0x80
	WORD	$0x4ea098c8 // CMEQ V8.4S, V6.4S, #0
	VAND	V27.B16, V8.B16, V8.B16
	VBIT	V8.B16, V28.B16, V9.B16 // no sign on an FNUZ zero
	VORR	V9.B16, V6.B16, V10.B16
	VAND	V16.B16, V1.B16, V4.B16 // a = |x|
	WORD	$0x6eba4485 // USHL V5.4S, V4.4S, V26.4S
	VAND	V22.B16, V5.B16, V5.B16
	VADD	V21.S4, V4.S4, V6.S4
	VADD	V5.S4, V6.S4, V6.S4
	WORD	$0x6eba44c6 // USHL V6.4S, V6.4S, V26.4S
	VSUB	V19.S4, V6.S4, V6.S4 // the code of a normal magnitude
	WORD	$0x4e32d487 // FADD V7.4S, V4.4S, V18.4S
	VSUB	V18.S4, V7.S4, V7.S4 // the code of a subnormal one
	WORD	$0x6ea43628 // CMHI V8.4S, V17.4S, V4.4S
	VBIT	V8.B16, V7.B16, V6.B16
	VUMIN	V20.S4, V6.S4, V6.S4 // clamped
	WORD	$0x6eb83488 // CMHI V8.4S, V4.4S, V24.4S
	VBIT	V8.B16, V23.B16, V6.B16 // NaN
	VUSHR	$24, V1.S4, V9.S4
	VAND	V25.B16, V9.B16, V9.B16 // the sign, 0x80
	WORD	$0x4ea098c8 // CMEQ V8.4S, V6.4S, #0
	VAND	V27.B16, V8.B16, V8.B16
	VBIT	V8.B16, V28.B16, V9.B16 // no sign on an FNUZ zero
	VORR	V9.B16, V6.B16, V11.B16
	VAND	V16.B16, V2.B16, V4.B16 // a = |x|
	WORD	$0x6eba4485 // USHL V5.4S, V4.4S, V26.4S
	VAND	V22.B16, V5.B16, V5.B16
	VADD	V21.S4, V4.S4, V6.S4
	VADD	V5.S4, V6.S4, V6.S4
	WORD	$0x6eba44c6 // USHL V6.4S, V6.4S, V26.4S
	VSUB	V19.S4, V6.S4, V6.S4 // the code of a normal magnitude
	WORD	$0x4e32d487 // FADD V7.4S, V4.4S, V18.4S
	VSUB	V18.S4, V7.S4, V7.S4 // the code of a subnormal one
	WORD	$0x6ea43628 // CMHI V8.4S, V17.4S, V4.4S
	VBIT	V8.B16, V7.B16, V6.B16
	VUMIN	V20.S4, V6.S4, V6.S4 // clamped
	WORD	$0x6eb83488 // CMHI V8.4S, V4.4S, V24.4S
	VBIT	V8.B16, V23.B16, V6.B16 // NaN
	VUSHR	$24, V2.S4, V9.S4
	VAND	V25.B16, V9.B16, V9.B16 // the sign, 0x80
	WORD	$0x4ea098c8 // CMEQ V8.4S, V6.4S, #0
	VAND	V27.B16, V8.B16, V8.B16
	VBIT	V8.B16, V28.B16, V9.B16 // no sign on an FNUZ zero
	VORR	V9.B16, V6.B16, V12.B16
	VAND	V16.B16, V3.B16, V4.B16 // a = |x|
	WORD	$0x6eba4485 // USHL V5.4S, V4.4S, V26.4S
	VAND	V22.B16, V5.B16, V5.B16
	VADD	V21.S4, V4.S4, V6.S4
	VADD	V5.S4, V6.S4, V6.S4
	WORD	$0x6eba44c6 // USHL V6.4S, V6.4S, V26.4S
	VSUB	V19.S4, V6.S4, V6.S4 // the code of a normal magnitude
	WORD	$0x4e32d487 // FADD V7.4S, V4.4S, V18.4S
	VSUB	V18.S4, V7.S4, V7.S4 // the code of a subnormal one
	WORD	$0x6ea43628 // CMHI V8.4S, V17.4S, V4.4S
	VBIT	V8.B16, V7.B16, V6.B16
	VUMIN	V20.S4, V6.S4, V6.S4 // clamped
	WORD	$0x6eb83488 // CMHI V8.4S, V4.4S, V24.4S
	VBIT	V8.B16, V23.B16, V6.B16 // NaN
	VUSHR	$24, V3.S4, V9.S4
	VAND	V25.B16, V9.B16, V9.B16 // the sign, 0x80
	WORD	$0x4ea098c8 // CMEQ V8.4S, V6.4S, #0
	VAND	V27.B16, V8.B16, V8.B16
	VBIT	V8.B16, V28.B16, V9.B16 // no sign on an FNUZ zero
	VORR	V9.B16, V6.B16, V13.B16
	VUZP1	V11.H8, V10.H8, V10.H8
	VUZP1	V13.H8, V12.H8, V12.H8
	VUZP1	V12.B16, V10.B16, V10.B16
	VST1.P	[V10.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// fnuzBlocks<> is the block routine of the FNUZ decoders: 16 codes a block, widened to 32-bit
// lanes, each float32((c&0x7F) << shift as bits) · 2^(127-bias), the sign bit c&0x80 moved to
// bit 31, code 0x80 (NaN) given 0x7FC00000; then stored as float32, binary16 (FCVTN, exact) or
// bfloat16 (the top halves). R3 points to the type's row of neonFNUZ (rules_arm64.go): the
// output (0 f32, 1 f16, 2 bf16), the shift, the shifted magnitude mask and 2^(127-bias).
TEXT fnuzBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// Word lanes: V26 = shift, V25 = magnitude mask, V27 = 2^(127-bias), V24 = 0x80000000,
	// V28 = 0x80, V29 = 0x7FC00000.
	MOVWU	4(R3), R4
	VDUP	R4, V26.S4
	MOVWU	8(R3), R4
	VDUP	R4, V25.S4
	MOVWU	12(R3), R4
	VDUP	R4, V27.S4
	MOVW	$0x80000000, R4
	VDUP	R4, V24.S4
	MOVW	$0x80, R4
	VDUP	R4, V28.S4
	MOVW	$0x7FC00000, R4
	VDUP	R4, V29.S4
	MOVWU	0(R3), R7

loop:
	VLD1.P	16(R1), [V0.B16]
	VUXTL	V0.B8, V1.H8
	VUXTL2	V0.B16, V2.H8
	VUXTL	V1.H4, V3.S4
	VUXTL2	V1.H8, V4.S4
	VUXTL	V2.H4, V5.S4
	VUXTL2	V2.H8, V6.S4
	WORD	$0x6eba446a // USHL V10.4S, V3.4S, V26.4S
	VAND	V25.B16, V10.B16, V10.B16
	WORD	$0x6e3bdd4a // FMUL V10.4S, V10.4S, V27.4S
	VSHL	$24, V3.S4, V8.S4
	VAND	V24.B16, V8.B16, V8.B16
	VORR	V8.B16, V10.B16, V10.B16
	WORD	$0x6ebc8c68 // CMEQ V8.4S, V3.4S, V28.4S
	VBIT	V8.B16, V29.B16, V10.B16
	WORD	$0x6eba448b // USHL V11.4S, V4.4S, V26.4S
	VAND	V25.B16, V11.B16, V11.B16
	WORD	$0x6e3bdd6b // FMUL V11.4S, V11.4S, V27.4S
	VSHL	$24, V4.S4, V8.S4
	VAND	V24.B16, V8.B16, V8.B16
	VORR	V8.B16, V11.B16, V11.B16
	WORD	$0x6ebc8c88 // CMEQ V8.4S, V4.4S, V28.4S
	VBIT	V8.B16, V29.B16, V11.B16
	WORD	$0x6eba44ac // USHL V12.4S, V5.4S, V26.4S
	VAND	V25.B16, V12.B16, V12.B16
	WORD	$0x6e3bdd8c // FMUL V12.4S, V12.4S, V27.4S
	VSHL	$24, V5.S4, V8.S4
	VAND	V24.B16, V8.B16, V8.B16
	VORR	V8.B16, V12.B16, V12.B16
	WORD	$0x6ebc8ca8 // CMEQ V8.4S, V5.4S, V28.4S
	VBIT	V8.B16, V29.B16, V12.B16
	WORD	$0x6eba44cd // USHL V13.4S, V6.4S, V26.4S
	VAND	V25.B16, V13.B16, V13.B16
	WORD	$0x6e3bddad // FMUL V13.4S, V13.4S, V27.4S
	VSHL	$24, V6.S4, V8.S4
	VAND	V24.B16, V8.B16, V8.B16
	VORR	V8.B16, V13.B16, V13.B16
	WORD	$0x6ebc8cc8 // CMEQ V8.4S, V6.4S, V28.4S
	VBIT	V8.B16, V29.B16, V13.B16
	CBNZ	R7, half
	VST1.P	[V10.S4, V11.S4, V12.S4, V13.S4], 64(R0)
	B	next

half:
	CMP	$1, R7
	BEQ	f16
	CMP	$2, R7
	BEQ	bf16
	WORD	$0x0e617950 // FCVTL V16.2D, V10.2S
	WORD	$0x4e617951 // FCVTL2 V17.2D, V10.4S
	WORD	$0x0e617972 // FCVTL V18.2D, V11.2S
	WORD	$0x4e617973 // FCVTL2 V19.2D, V11.4S
	WORD	$0x0e617994 // FCVTL V20.2D, V12.2S
	WORD	$0x4e617995 // FCVTL2 V21.2D, V12.4S
	WORD	$0x0e6179b6 // FCVTL V22.2D, V13.2S
	WORD	$0x4e6179b7 // FCVTL2 V23.2D, V13.4S
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	B	next

f16:
	WORD	$0x0e216950 // FCVTN V16.4H, V10.4S
	WORD	$0x4e216970 // FCVTN2 V16.8H, V11.4S
	WORD	$0x0e216991 // FCVTN V17.4H, V12.4S
	WORD	$0x4e2169b1 // FCVTN2 V17.8H, V13.4S
	VST1.P	[V16.H8, V17.H8], 32(R0)
	B	next

bf16:
	VUZP2	V11.H8, V10.H8, V16.H8
	VUZP2	V13.H8, V12.H8, V17.H8
	VST1.P	[V16.H8, V17.H8], 32(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// The rule sets' one rounding of f64, i32 and u32 to f16 and bf16: each passes its pair's row of
// neonWide (rules_arm64.go) to wideBlocks<>.

// func f64ToF16ONNXNEON(dst, src []byte, n int)
TEXT ·f64ToF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+0(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f64ToBF16ONNXNEON(dst, src []byte, n int)
TEXT ·f64ToBF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+8(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i32ToF16ONNXNEON(dst, src []byte, n int)
TEXT ·i32ToF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+16(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i32ToBF16ONNXNEON(dst, src []byte, n int)
TEXT ·i32ToBF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+24(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u32ToBF16ONNXNEON(dst, src []byte, n int)
TEXT ·u32ToBF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+40(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i64ToBF16ONNXNEON(dst, src []byte, n int)
TEXT ·i64ToBF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+56(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u64ToBF16ONNXNEON(dst, src []byte, n int)
TEXT ·u64ToBF16ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+72(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f64ToF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·f64ToF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+0(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f64ToBF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·f64ToBF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+8(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i32ToF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·i32ToF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+16(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i32ToBF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·i32ToBF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+24(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u32ToBF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·u32ToBF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+40(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i64ToBF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·i64ToBF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+56(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u64ToBF16MLDtypesNEON(dst, src []byte, n int)
TEXT ·u64ToBF16MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWide+72(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// wideBlocks<> is the block routine of the rule sets' one rounding of f64, i32, u32, i64 and u64
// to f16 and bf16: 8 elements a block, made float64 (the 32-bit integers exactly: SXTL or UXTL,
// then SCVTF or UCVTF; the 64-bit ones rounded to odd, below), rounded to float32 to odd by
// FCVTXN, then to nearest even: FCVTN for binary16, BF16FromF32's rounding on the bits for
// bfloat16 (a NaN's top half with 0x40 set). R3 points to the pair's row of neonWide
// (rules_arm64.go): the source (0 f64, 1 i32, 2 u32, 3 i64, 4 u64) and the output (0 f16, 1
// bf16). Outputs 2 and 3 serve the registry's i64 and u64 → f32 and f16 (neonWideNearest): the
// float64 rounded to odd goes to float32 to nearest even (FCVTN), which is Go's float32 of the
// integer, and for 3 on to binary16 by FCVTN (F16FromF32 of it).
//
// A 64-bit integer x converts to float64 s to nearest (SCVTF, UCVTF) and back (FCVTZS, FCVTZU:
// exact, but for s = 2^63 or 2^64, which saturate one below); the difference d = x - back, at
// most 2^10 in magnitude, tells where s rounded away from zero (d and s of opposite signs) and
// whether it was inexact (d ≠ 0): there s goes one down in magnitude and gets its last bit set,
// which makes it x rounded to odd. Float64 rounded to odd and then to float32 to odd is x rounded
// to float32 to odd, from which one rounding to nearest gives what one from x gives. The
// saturated case x = 2^63-1 (2^64-1 unsigned) keeps s = 2^63 (2^64), a value that rounds to the
// same bf16 as x.
TEXT wideBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// Word lanes: V20 = 1, V21 = 0x7FFF, V22 = 0x7FFFFFFF, V23 = 0x7F800000, V25 = 0x40.
	MOVW	$1, R4
	VDUP	R4, V20.S4
	MOVW	$0x7FFF, R4
	VDUP	R4, V21.S4
	MOVW	$0x7FFFFFFF, R4
	VDUP	R4, V22.S4
	MOVW	$0x7F800000, R4
	VDUP	R4, V23.S4
	MOVW	$0x40, R4
	VDUP	R4, V25.S4
	MOVWU	0(R3), R7
	MOVWU	4(R3), R8

	MOVD	$1, R4
	VDUP	R4, V14.D2

loop:
	CBNZ	R7, ints
	VLD1.P	64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	B	round

ints:
	CMP	$3, R7
	BHS	ints64
	VLD1.P	32(R1), [V4.S4, V5.S4]
	CMP	$1, R7
	BNE	unsigned
	WORD	$0x0f20a480 // SXTL V0.2D, V4.2S
	WORD	$0x4f20a481 // SXTL2 V1.2D, V4.4S
	WORD	$0x0f20a4a2 // SXTL V2.2D, V5.2S
	WORD	$0x4f20a4a3 // SXTL2 V3.2D, V5.4S
	WORD	$0x4e61d800 // SCVTF V0.2D, V0.2D
	WORD	$0x4e61d821 // SCVTF V1.2D, V1.2D
	WORD	$0x4e61d842 // SCVTF V2.2D, V2.2D
	WORD	$0x4e61d863 // SCVTF V3.2D, V3.2D
	B	round

unsigned:
	WORD	$0x2f20a480 // UXTL V0.2D, V4.2S
	WORD	$0x6f20a481 // UXTL2 V1.2D, V4.4S
	WORD	$0x2f20a4a2 // UXTL V2.2D, V5.2S
	WORD	$0x6f20a4a3 // UXTL2 V3.2D, V5.4S
	WORD	$0x6e61d800 // UCVTF V0.2D, V0.2D
	WORD	$0x6e61d821 // UCVTF V1.2D, V1.2D
	WORD	$0x6e61d842 // UCVTF V2.2D, V2.2D
	WORD	$0x6e61d863 // UCVTF V3.2D, V3.2D
	B	round

ints64:
	VLD1.P	64(R1), [V10.D2, V11.D2, V12.D2, V13.D2]
	CMP	$4, R7
	BEQ	unsigned64
	WORD	$0x4e61d940 // SCVTF V0.2D, V10.2D
	WORD	$0x4e61d961 // SCVTF V1.2D, V11.2D
	WORD	$0x4e61d982 // SCVTF V2.2D, V12.2D
	WORD	$0x4e61d9a3 // SCVTF V3.2D, V13.2D
	WORD	$0x4ee1b80f // FCVTZS V15.2D, V0.2D
	WORD	$0x4ee1b83a // FCVTZS V26.2D, V1.2D
	WORD	$0x4ee1b85c // FCVTZS V28.2D, V2.2D
	WORD	$0x4ee1b87e // FCVTZS V30.2D, V3.2D
	VSUB	V15.D2, V10.D2, V15.D2
	VSUB	V26.D2, V11.D2, V26.D2
	VSUB	V28.D2, V12.D2, V28.D2
	VSUB	V30.D2, V13.D2, V30.D2
	WORD	$0x4eef8df8 // CMTST V24.2D, V15.2D, V15.2D
	WORD	$0x4efa8f5b // CMTST V27.2D, V26.2D, V26.2D
	WORD	$0x4efc8f9d // CMTST V29.2D, V28.2D, V28.2D
	WORD	$0x4efe8fdf // CMTST V31.2D, V30.2D, V30.2D
	VEOR	V0.B16, V15.B16, V15.B16
	VEOR	V1.B16, V26.B16, V26.B16
	VEOR	V2.B16, V28.B16, V28.B16
	VEOR	V3.B16, V30.B16, V30.B16
	WORD	$0x4ee0a9ef // CMLT V15.2D, V15.2D, #0
	WORD	$0x4ee0ab5a // CMLT V26.2D, V26.2D, #0
	WORD	$0x4ee0ab9c // CMLT V28.2D, V28.2D, #0
	WORD	$0x4ee0abde // CMLT V30.2D, V30.2D, #0
	VAND	V24.B16, V15.B16, V15.B16
	VAND	V27.B16, V26.B16, V26.B16
	VAND	V29.B16, V28.B16, V28.B16
	VAND	V31.B16, V30.B16, V30.B16
	VADD	V15.D2, V0.D2, V0.D2
	VADD	V26.D2, V1.D2, V1.D2
	VADD	V28.D2, V2.D2, V2.D2
	VADD	V30.D2, V3.D2, V3.D2
	VAND	V14.B16, V24.B16, V24.B16
	VAND	V14.B16, V27.B16, V27.B16
	VAND	V14.B16, V29.B16, V29.B16
	VAND	V14.B16, V31.B16, V31.B16
	VORR	V24.B16, V0.B16, V0.B16
	VORR	V27.B16, V1.B16, V1.B16
	VORR	V29.B16, V2.B16, V2.B16
	VORR	V31.B16, V3.B16, V3.B16
	B	round

unsigned64:
	WORD	$0x6e61d940 // UCVTF V0.2D, V10.2D
	WORD	$0x6e61d961 // UCVTF V1.2D, V11.2D
	WORD	$0x6e61d982 // UCVTF V2.2D, V12.2D
	WORD	$0x6e61d9a3 // UCVTF V3.2D, V13.2D
	WORD	$0x6ee1b80f // FCVTZU V15.2D, V0.2D
	WORD	$0x6ee1b83a // FCVTZU V26.2D, V1.2D
	WORD	$0x6ee1b85c // FCVTZU V28.2D, V2.2D
	WORD	$0x6ee1b87e // FCVTZU V30.2D, V3.2D
	VSUB	V15.D2, V10.D2, V15.D2
	VSUB	V26.D2, V11.D2, V26.D2
	VSUB	V28.D2, V12.D2, V28.D2
	VSUB	V30.D2, V13.D2, V30.D2
	WORD	$0x4eef8df8 // CMTST V24.2D, V15.2D, V15.2D
	WORD	$0x4efa8f5b // CMTST V27.2D, V26.2D, V26.2D
	WORD	$0x4efc8f9d // CMTST V29.2D, V28.2D, V28.2D
	WORD	$0x4efe8fdf // CMTST V31.2D, V30.2D, V30.2D
	WORD	$0x4ee0a9ef // CMLT V15.2D, V15.2D, #0
	WORD	$0x4ee0ab5a // CMLT V26.2D, V26.2D, #0
	WORD	$0x4ee0ab9c // CMLT V28.2D, V28.2D, #0
	WORD	$0x4ee0abde // CMLT V30.2D, V30.2D, #0
	VADD	V15.D2, V0.D2, V0.D2
	VADD	V26.D2, V1.D2, V1.D2
	VADD	V28.D2, V2.D2, V2.D2
	VADD	V30.D2, V3.D2, V3.D2
	VAND	V14.B16, V24.B16, V24.B16
	VAND	V14.B16, V27.B16, V27.B16
	VAND	V14.B16, V29.B16, V29.B16
	VAND	V14.B16, V31.B16, V31.B16
	VORR	V24.B16, V0.B16, V0.B16
	VORR	V27.B16, V1.B16, V1.B16
	VORR	V29.B16, V2.B16, V2.B16
	VORR	V31.B16, V3.B16, V3.B16

round:
	CMP	$2, R8
	BHS	nearest
	WORD	$0x2e616810 // FCVTXN V16.2S, V0.2D
	WORD	$0x6e616830 // FCVTXN2 V16.4S, V1.2D
	WORD	$0x2e616851 // FCVTXN V17.2S, V2.2D
	WORD	$0x6e616871 // FCVTXN2 V17.4S, V3.2D
	CBNZ	R8, tobf16
	WORD	$0x0e216a12 // FCVTN V18.4H, V16.4S
	WORD	$0x4e216a32 // FCVTN2 V18.8H, V17.4S
	VST1.P	[V18.H8], 16(R0)
	B	next

tobf16:
	VUSHR	$16, V16.S4, V6.S4
	VAND	V20.B16, V6.B16, V7.B16
	VADD	V21.S4, V16.S4, V18.S4
	VADD	V7.S4, V18.S4, V18.S4
	VUSHR	$16, V18.S4, V18.S4
	VAND	V22.B16, V16.B16, V8.B16
	WORD	$0x6eb73509 // CMHI V9.4S, V8.4S, V23.4S
	VORR	V25.B16, V6.B16, V6.B16
	VBIT	V9.B16, V6.B16, V18.B16
	VUSHR	$16, V17.S4, V6.S4
	VAND	V20.B16, V6.B16, V7.B16
	VADD	V21.S4, V17.S4, V19.S4
	VADD	V7.S4, V19.S4, V19.S4
	VUSHR	$16, V19.S4, V19.S4
	VAND	V22.B16, V17.B16, V8.B16
	WORD	$0x6eb73509 // CMHI V9.4S, V8.4S, V23.4S
	VORR	V25.B16, V6.B16, V6.B16
	VBIT	V9.B16, V6.B16, V19.B16
	VUZP1	V19.H8, V18.H8, V18.H8
	VST1.P	[V18.H8], 16(R0)
	B	next

nearest:
	WORD	$0x0e616810 // FCVTN V16.2S, V0.2D
	WORD	$0x4e616830 // FCVTN2 V16.4S, V1.2D
	WORD	$0x0e616851 // FCVTN V17.2S, V2.2D
	WORD	$0x4e616871 // FCVTN2 V17.4S, V3.2D
	CMP	$3, R8
	BEQ	nearestf16
	VST1.P	[V16.S4, V17.S4], 32(R0)
	B	next

nearestf16:
	WORD	$0x0e216a12 // FCVTN V18.4H, V16.4S
	WORD	$0x4e216a32 // FCVTN2 V18.8H, V17.4S
	VST1.P	[V18.H8], 16(R0)

next:
	SUBS	$8, R2, R2
	BNE	loop
	RET

// The rule sets' f8e8m0 encoders: each passes its encoder's row for its source (rules_arm64.go)
// to e8m0Blocks<>.

// func f32ToF8e8m0ONNXNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Up+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0ONNXNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Up+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0ONNXNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0ONNXNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Up+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e8m0ONNXDownNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0ONNXDownNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Down+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0ONNXDownNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0ONNXDownNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Down+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0ONNXDownNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0ONNXDownNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Down+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e8m0ONNXNearestNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0ONNXNearestNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Nearest+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0ONNXNearestNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0ONNXNearestNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Nearest+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0ONNXNearestNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0ONNXNearestNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0Nearest+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e8m0ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0UpNoSat+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0UpNoSat+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0ONNXNoSatNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0ONNXNoSatNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0UpNoSat+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e8m0ONNXNoSatDownNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0ONNXNoSatDownNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0DownNoSat+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0ONNXNoSatDownNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0ONNXNoSatDownNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0DownNoSat+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0ONNXNoSatDownNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0ONNXNoSatDownNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0DownNoSat+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e8m0ONNXNoSatNearestNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0ONNXNoSatNearestNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0NearestNoSat+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0ONNXNoSatNearestNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0ONNXNoSatNearestNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0NearestNoSat+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0ONNXNoSatNearestNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0ONNXNoSatNearestNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0NearestNoSat+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f32ToF8e8m0MLDtypesNEON(dst, src []byte, n int)
TEXT ·f32ToF8e8m0MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0ML+0(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 8), R10
	JMP	neonRun<>(SB)

// func f16ToF8e8m0MLDtypesNEON(dst, src []byte, n int)
TEXT ·f16ToF8e8m0MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0ML+20(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// func bf16ToF8e8m0MLDtypesNEON(dst, src []byte, n int)
TEXT ·bf16ToF8e8m0MLDtypesNEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonEncE8M0ML+40(SB), R3
	MOVD	$e8m0Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 8), R10
	JMP	neonRun<>(SB)

// e8m0Blocks<> is the block routine of the rule sets' f8e8m0 encoders: 16 elements a block,
// e8m0FromF32's steps on four vectors of 32-bit lanes. R3 points to the encoder's row for the
// source (neonE8M0 in rules_arm64.go): the source (0 f32, 1 f16, 2 bf16), the round mode's
// addition, 1 for ml_dtypes' rule, and ONNX's codes below 2^-127 and above 2^127.
TEXT e8m0Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// Word lanes: V16 = 0x7FFFFFFF, V14 = 0x800000, V13 = the addition, V12 = 1, V11 = 0x400000,
	// V10 = 0x7F000000 (ml_dtypes: 0x7F3FFFFF), V9 = 0x7F800000, V24 = 0xFF, V22 = the low code,
	// V23 = the high code, V28 = 0.
	MOVW	$0x7FFFFFFF, R4
	VDUP	R4, V16.S4
	MOVW	$0x800000, R4
	VDUP	R4, V14.S4
	MOVWU	4(R3), R4
	VDUP	R4, V13.S4
	MOVW	$1, R4
	VDUP	R4, V12.S4
	MOVW	$0x400000, R4
	VDUP	R4, V11.S4
	MOVWU	8(R3), R8
	MOVW	$0x7F000000, R4
	CBZ	R8, onnx
	MOVW	$0x7F3FFFFF, R4

onnx:
	VDUP	R4, V10.S4
	MOVW	$0x7F800000, R4
	VDUP	R4, V9.S4
	MOVW	$0xFF, R4
	VDUP	R4, V24.S4
	MOVWU	12(R3), R4
	VDUP	R4, V22.S4
	MOVWU	16(R3), R4
	VDUP	R4, V23.S4
	VEOR	V28.B16, V28.B16, V28.B16
	MOVWU	0(R3), R7

loop:
	CBNZ	R7, narrow
	VLD1.P	64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	B	encode

narrow:
	VLD1.P	32(R1), [V4.H8, V5.H8]
	CMP	$1, R7
	BNE	bf16
	WORD	$0x0e217880 // FCVTL V0.4S, V4.4H
	WORD	$0x4e217881 // FCVTL2 V1.4S, V4.8H
	WORD	$0x0e2178a2 // FCVTL V2.4S, V5.4H
	WORD	$0x4e2178a3 // FCVTL2 V3.4S, V5.8H
	B	encode

bf16:
	VZIP1	V4.H8, V28.H8, V0.H8
	VZIP2	V4.H8, V28.H8, V1.H8
	VZIP1	V5.H8, V28.H8, V2.H8
	VZIP2	V5.H8, V28.H8, V3.H8

encode:
	CBNZ	R8, ml
	VAND	V16.B16, V0.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VAND	V4.B16, V8.B16, V5.B16
	VADD	V4.S4, V5.S4, V5.S4
	VADD	V13.S4, V5.S4, V18.S4
	VUSHR	$23, V18.S4, V18.S4
	VADD	V8.S4, V18.S4, V18.S4
	WORD	$0x4ea03568 // CMGT V8.4S, V11.4S, V0.4S
	VBIT	V8.B16, V22.B16, V18.B16
	WORD	$0x4eaa3408 // CMGT V8.4S, V0.4S, V10.4S
	VBIT	V8.B16, V23.B16, V18.B16
	WORD	$0x6ea93488 // CMHI V8.4S, V4.4S, V9.4S
	VBIT	V8.B16, V24.B16, V18.B16
	VAND	V16.B16, V1.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VAND	V4.B16, V8.B16, V5.B16
	VADD	V4.S4, V5.S4, V5.S4
	VADD	V13.S4, V5.S4, V19.S4
	VUSHR	$23, V19.S4, V19.S4
	VADD	V8.S4, V19.S4, V19.S4
	WORD	$0x4ea13568 // CMGT V8.4S, V11.4S, V1.4S
	VBIT	V8.B16, V22.B16, V19.B16
	WORD	$0x4eaa3428 // CMGT V8.4S, V1.4S, V10.4S
	VBIT	V8.B16, V23.B16, V19.B16
	WORD	$0x6ea93488 // CMHI V8.4S, V4.4S, V9.4S
	VBIT	V8.B16, V24.B16, V19.B16
	VAND	V16.B16, V2.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VAND	V4.B16, V8.B16, V5.B16
	VADD	V4.S4, V5.S4, V5.S4
	VADD	V13.S4, V5.S4, V20.S4
	VUSHR	$23, V20.S4, V20.S4
	VADD	V8.S4, V20.S4, V20.S4
	WORD	$0x4ea23568 // CMGT V8.4S, V11.4S, V2.4S
	VBIT	V8.B16, V22.B16, V20.B16
	WORD	$0x4eaa3448 // CMGT V8.4S, V2.4S, V10.4S
	VBIT	V8.B16, V23.B16, V20.B16
	WORD	$0x6ea93488 // CMHI V8.4S, V4.4S, V9.4S
	VBIT	V8.B16, V24.B16, V20.B16
	VAND	V16.B16, V3.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VAND	V4.B16, V8.B16, V5.B16
	VADD	V4.S4, V5.S4, V5.S4
	VADD	V13.S4, V5.S4, V21.S4
	VUSHR	$23, V21.S4, V21.S4
	VADD	V8.S4, V21.S4, V21.S4
	WORD	$0x4ea33568 // CMGT V8.4S, V11.4S, V3.4S
	VBIT	V8.B16, V22.B16, V21.B16
	WORD	$0x4eaa3468 // CMGT V8.4S, V3.4S, V10.4S
	VBIT	V8.B16, V23.B16, V21.B16
	WORD	$0x6ea93488 // CMHI V8.4S, V4.4S, V9.4S
	VBIT	V8.B16, V24.B16, V21.B16
	B	pack

ml:
	VAND	V16.B16, V0.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VADD	V11.S4, V4.S4, V18.S4
	VUSHR	$23, V18.S4, V18.S4
	WORD	$0x6eab3485 // CMHI V5.4S, V4.4S, V11.4S
	VAND	V12.B16, V5.B16, V5.B16
	VBIT	V8.B16, V5.B16, V18.B16
	WORD	$0x4ebc3408 // CMGT V8.4S, V0.4S, V28.4S
	VBIF	V8.B16, V24.B16, V18.B16
	WORD	$0x6eaa3488 // CMHI V8.4S, V4.4S, V10.4S
	VBIT	V8.B16, V24.B16, V18.B16
	VAND	V16.B16, V1.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VADD	V11.S4, V4.S4, V19.S4
	VUSHR	$23, V19.S4, V19.S4
	WORD	$0x6eab3485 // CMHI V5.4S, V4.4S, V11.4S
	VAND	V12.B16, V5.B16, V5.B16
	VBIT	V8.B16, V5.B16, V19.B16
	WORD	$0x4ebc3428 // CMGT V8.4S, V1.4S, V28.4S
	VBIF	V8.B16, V24.B16, V19.B16
	WORD	$0x6eaa3488 // CMHI V8.4S, V4.4S, V10.4S
	VBIT	V8.B16, V24.B16, V19.B16
	VAND	V16.B16, V2.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VADD	V11.S4, V4.S4, V20.S4
	VUSHR	$23, V20.S4, V20.S4
	WORD	$0x6eab3485 // CMHI V5.4S, V4.4S, V11.4S
	VAND	V12.B16, V5.B16, V5.B16
	VBIT	V8.B16, V5.B16, V20.B16
	WORD	$0x4ebc3448 // CMGT V8.4S, V2.4S, V28.4S
	VBIF	V8.B16, V24.B16, V20.B16
	WORD	$0x6eaa3488 // CMHI V8.4S, V4.4S, V10.4S
	VBIT	V8.B16, V24.B16, V20.B16
	VAND	V16.B16, V3.B16, V4.B16
	WORD	$0x6ea435c8 // CMHI V8.4S, V14.4S, V4.4S
	VADD	V11.S4, V4.S4, V21.S4
	VUSHR	$23, V21.S4, V21.S4
	WORD	$0x6eab3485 // CMHI V5.4S, V4.4S, V11.4S
	VAND	V12.B16, V5.B16, V5.B16
	VBIT	V8.B16, V5.B16, V21.B16
	WORD	$0x4ebc3468 // CMGT V8.4S, V3.4S, V28.4S
	VBIF	V8.B16, V24.B16, V21.B16
	WORD	$0x6eaa3488 // CMHI V8.4S, V4.4S, V10.4S
	VBIT	V8.B16, V24.B16, V21.B16

pack:
	VUZP1	V19.H8, V18.H8, V18.H8
	VUZP1	V21.H8, V20.H8, V20.H8
	VUZP1	V20.B16, V18.B16, V18.B16
	VST1.P	[V18.B16], 16(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// The kernels of the registry's rows to f64, from u8, i16 and u16 to bf16, from u32, i64 and
// u64 to f32 and f16, from f8e8m0, from f8e5m2 to bf16 and from the 4-bit types to bf16 (their
// row of nibbleValuesBF16 through nibbleToF16Blocks<>, which looks up 16-bit values) and f64.

// func u8ToBF16NEON(dst, src []byte, n int)
TEXT ·u8ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(1<<4 | 3), R3 // u8 to bf16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i16ToBF16NEON(dst, src []byte, n int)
TEXT ·i16ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(2<<4 | 3), R3 // i16 to bf16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u16ToBF16NEON(dst, src []byte, n int)
TEXT ·u16ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(3<<4 | 3), R3 // u16 to bf16
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i8ToF64NEON(dst, src []byte, n int)
TEXT ·i8ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(0<<4 | 4), R3 // i8 to f64
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// func u8ToF64NEON(dst, src []byte, n int)
TEXT ·u8ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(1<<4 | 4), R3 // u8 to f64
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// func i16ToF64NEON(dst, src []byte, n int)
TEXT ·i16ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(2<<4 | 4), R3 // i16 to f64
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 64), R10
	JMP	neonRun<>(SB)

// func u16ToF64NEON(dst, src []byte, n int)
TEXT ·u16ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$(3<<4 | 4), R3 // u16 to f64
	MOVD	$smallIntToBlocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 64), R10
	JMP	neonRun<>(SB)

// func i32ToF64NEON(dst, src []byte, n int)
TEXT ·i32ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // signed
	MOVD	$word32ToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 64), R10
	JMP	neonRun<>(SB)

// func u32ToF64NEON(dst, src []byte, n int)
TEXT ·u32ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // unsigned
	MOVD	$word32ToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 64), R10
	JMP	neonRun<>(SB)

// func i64ToF64NEON(dst, src []byte, n int)
TEXT ·i64ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // signed
	MOVD	$word64ToF64Blocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 64), R10
	JMP	neonRun<>(SB)

// func u64ToF64NEON(dst, src []byte, n int)
TEXT ·u64ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // unsigned
	MOVD	$word64ToF64Blocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 64), R10
	JMP	neonRun<>(SB)

// func f16ToF64NEON(dst, src []byte, n int)
TEXT ·f16ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // from f16
	MOVD	$half16ToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 64), R10
	JMP	neonRun<>(SB)

// func bf16ToF64NEON(dst, src []byte, n int)
TEXT ·bf16ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // from bf16
	MOVD	$half16ToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 16<<8 | 64), R10
	JMP	neonRun<>(SB)

// func u32ToF32NEON(dst, src []byte, n int)
TEXT ·u32ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // to f32
	MOVD	$u32ToFloatBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 32), R10
	JMP	neonRun<>(SB)

// func u32ToF16NEON(dst, src []byte, n int)
TEXT ·u32ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // to f16
	MOVD	$u32ToFloatBlocks<>(SB), R9
	MOVD	$(16<<16 | 32<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e8m0ToF32NEON(dst, src []byte, n int)
TEXT ·f8e8m0ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$0, R3 // to f32
	MOVD	$f8e8m0ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 32), R10
	JMP	neonRun<>(SB)

// func f8e8m0ToF16NEON(dst, src []byte, n int)
TEXT ·f8e8m0ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$1, R3 // to f16
	MOVD	$f8e8m0ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e8m0ToBF16NEON(dst, src []byte, n int)
TEXT ·f8e8m0ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$2, R3 // to bf16
	MOVD	$f8e8m0ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e8m0ToF64NEON(dst, src []byte, n int)
TEXT ·f8e8m0ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$3, R3 // to f64
	MOVD	$f8e8m0ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// word32ToF64Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: i32 (R3 =
// 0) or u32 (R3 = 1) to f64, exactly: SXTL or UXTL to 64 bits, then SCVTF or UCVTF.
TEXT word32ToF64Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
loop:
	VLD1.P	64(R1), [V3.S4, V4.S4, V5.S4, V6.S4]
	CBNZ	R3, unsigned
	WORD	$0x0f20a470 // SXTL V16.2D, V3.2S
	WORD	$0x4f20a471 // SXTL2 V17.2D, V3.4S
	WORD	$0x0f20a492 // SXTL V18.2D, V4.2S
	WORD	$0x4f20a493 // SXTL2 V19.2D, V4.4S
	WORD	$0x0f20a4b4 // SXTL V20.2D, V5.2S
	WORD	$0x4f20a4b5 // SXTL2 V21.2D, V5.4S
	WORD	$0x0f20a4d6 // SXTL V22.2D, V6.2S
	WORD	$0x4f20a4d7 // SXTL2 V23.2D, V6.4S
	WORD	$0x4e61da10 // SCVTF V16.2D, V16.2D
	WORD	$0x4e61da31 // SCVTF V17.2D, V17.2D
	WORD	$0x4e61da52 // SCVTF V18.2D, V18.2D
	WORD	$0x4e61da73 // SCVTF V19.2D, V19.2D
	WORD	$0x4e61da94 // SCVTF V20.2D, V20.2D
	WORD	$0x4e61dab5 // SCVTF V21.2D, V21.2D
	WORD	$0x4e61dad6 // SCVTF V22.2D, V22.2D
	WORD	$0x4e61daf7 // SCVTF V23.2D, V23.2D
	B	store

unsigned:
	VUXTL	V3.S2, V16.D2
	VUXTL2	V3.S4, V17.D2
	VUXTL	V4.S2, V18.D2
	VUXTL2	V4.S4, V19.D2
	VUXTL	V5.S2, V20.D2
	VUXTL2	V5.S4, V21.D2
	VUXTL	V6.S2, V22.D2
	VUXTL2	V6.S4, V23.D2
	WORD	$0x6e61da10 // UCVTF V16.2D, V16.2D
	WORD	$0x6e61da31 // UCVTF V17.2D, V17.2D
	WORD	$0x6e61da52 // UCVTF V18.2D, V18.2D
	WORD	$0x6e61da73 // UCVTF V19.2D, V19.2D
	WORD	$0x6e61da94 // UCVTF V20.2D, V20.2D
	WORD	$0x6e61dab5 // UCVTF V21.2D, V21.2D
	WORD	$0x6e61dad6 // UCVTF V22.2D, V22.2D
	WORD	$0x6e61daf7 // UCVTF V23.2D, V23.2D

store:
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// word64ToF64Blocks<> converts R2 elements, a positive multiple of 8, from R1 to R0: i64 (R3 =
// 0) or u64 (R3 = 1) to f64 by SCVTF or UCVTF, rounding to nearest even as Go's float64 does.
TEXT word64ToF64Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
loop:
	VLD1.P	64(R1), [V3.D2, V4.D2, V5.D2, V6.D2]
	CBNZ	R3, unsigned
	WORD	$0x4e61d863 // SCVTF V3.2D, V3.2D
	WORD	$0x4e61d884 // SCVTF V4.2D, V4.2D
	WORD	$0x4e61d8a5 // SCVTF V5.2D, V5.2D
	WORD	$0x4e61d8c6 // SCVTF V6.2D, V6.2D
	B	store

unsigned:
	WORD	$0x6e61d863 // UCVTF V3.2D, V3.2D
	WORD	$0x6e61d884 // UCVTF V4.2D, V4.2D
	WORD	$0x6e61d8a5 // UCVTF V5.2D, V5.2D
	WORD	$0x6e61d8c6 // UCVTF V6.2D, V6.2D

store:
	VST1.P	[V3.D2, V4.D2, V5.D2, V6.D2], 64(R0)
	SUBS	$8, R2, R2
	BNE	loop
	RET

// half16ToF64Blocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f16 (R3
// = 0, FCVTL to f32) or bf16 (R3 = 1, the bits moved to the high halves) to f64 by FCVTL,
// exactly; a signalling NaN is quieted, as Go's float64 of a float32 quiets it.
TEXT half16ToF64Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	VEOR	V31.B16, V31.B16, V31.B16
loop:
	VLD1.P	32(R1), [V0.H8, V1.H8]
	CBNZ	R3, frombf16
	WORD	$0x0e217803 // FCVTL V3.4S, V0.4H
	WORD	$0x4e217804 // FCVTL2 V4.4S, V0.8H
	WORD	$0x0e217825 // FCVTL V5.4S, V1.4H
	WORD	$0x4e217826 // FCVTL2 V6.4S, V1.8H
	B	widen

frombf16:
	VZIP1	V0.H8, V31.H8, V3.H8
	VZIP2	V0.H8, V31.H8, V4.H8
	VZIP1	V1.H8, V31.H8, V5.H8
	VZIP2	V1.H8, V31.H8, V6.H8

widen:
	WORD	$0x0e617870 // FCVTL V16.2D, V3.2S
	WORD	$0x4e617871 // FCVTL2 V17.2D, V3.4S
	WORD	$0x0e617892 // FCVTL V18.2D, V4.2S
	WORD	$0x4e617893 // FCVTL2 V19.2D, V4.4S
	WORD	$0x0e6178b4 // FCVTL V20.2D, V5.2S
	WORD	$0x4e6178b5 // FCVTL2 V21.2D, V5.4S
	WORD	$0x0e6178d6 // FCVTL V22.2D, V6.2S
	WORD	$0x4e6178d7 // FCVTL2 V23.2D, V6.4S
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// u32ToFloatBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: u32 to f32
// by UCVTF (R3 = 0; round to nearest even, as Go's float32), then to f16 by FCVTN (R3 = 1;
// F16FromF32 of that float32).
TEXT u32ToFloatBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
loop:
	VLD1.P	64(R1), [V3.S4, V4.S4, V5.S4, V6.S4]
	WORD	$0x6e21d863 // UCVTF V3.4S, V3.4S
	WORD	$0x6e21d884 // UCVTF V4.4S, V4.4S
	WORD	$0x6e21d8a5 // UCVTF V5.4S, V5.4S
	WORD	$0x6e21d8c6 // UCVTF V6.4S, V6.4S
	CBNZ	R3, tof16
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)
	B	next

tof16:
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// f8e8m0ToBlocks<> converts R2 elements, a positive multiple of 16, from R1 to R0: f8e8m0 to f32
// (R3 = 0), f16 (R3 = 1), bf16 (R3 = 2) or f64 (R3 = 3). The code c widened to 32 bits and
// shifted to the exponent field is 2^(c-127), except code 0 (2^-127, the subnormal 0x00400000)
// and 0xFF (NaN, 0x7FC00000), put in by compare and select. The f16 results are those narrowed
// by FCVTN (round to nearest even: F16FromF32), the bf16 ones their high halves (exact: a power
// of two or NaN has a zero low half), the f64 ones widened by FCVTL (exact).
TEXT f8e8m0ToBlocks<>(SB), NOSPLIT|NOFRAME, $0-0
	// V27 = 0x00400000, V28 = 0x7F800000 (code 0xFF shifted), V29 = 0x7FC00000, V31 = 0.
	MOVW	$0x00400000, R4
	VDUP	R4, V27.S4
	MOVW	$0x7F800000, R4
	VDUP	R4, V28.S4
	MOVW	$0x7FC00000, R4
	VDUP	R4, V29.S4
	VEOR	V31.B16, V31.B16, V31.B16
loop:
	VLD1.P	16(R1), [V0.B16]
	VUXTL	V0.B8, V1.H8
	VUXTL2	V0.B16, V2.H8
	VUXTL	V1.H4, V3.S4
	VUXTL2	V1.H8, V4.S4
	VUXTL	V2.H4, V5.S4
	VUXTL2	V2.H8, V6.S4
	VSHL	$23, V3.S4, V3.S4
	VSHL	$23, V4.S4, V4.S4
	VSHL	$23, V5.S4, V5.S4
	VSHL	$23, V6.S4, V6.S4
	VCMEQ	V31.S4, V3.S4, V9.S4
	VBIT	V9.B16, V27.B16, V3.B16
	VCMEQ	V28.S4, V3.S4, V9.S4
	VBIT	V9.B16, V29.B16, V3.B16
	VCMEQ	V31.S4, V4.S4, V9.S4
	VBIT	V9.B16, V27.B16, V4.B16
	VCMEQ	V28.S4, V4.S4, V9.S4
	VBIT	V9.B16, V29.B16, V4.B16
	VCMEQ	V31.S4, V5.S4, V9.S4
	VBIT	V9.B16, V27.B16, V5.B16
	VCMEQ	V28.S4, V5.S4, V9.S4
	VBIT	V9.B16, V29.B16, V5.B16
	VCMEQ	V31.S4, V6.S4, V9.S4
	VBIT	V9.B16, V27.B16, V6.B16
	VCMEQ	V28.S4, V6.S4, V9.S4
	VBIT	V9.B16, V29.B16, V6.B16
	CBZ	R3, store32
	CMP	$2, R3
	BLO	tof16
	BEQ	tobf16
	WORD	$0x0e617870 // FCVTL V16.2D, V3.2S
	WORD	$0x4e617871 // FCVTL2 V17.2D, V3.4S
	WORD	$0x0e617892 // FCVTL V18.2D, V4.2S
	WORD	$0x4e617893 // FCVTL2 V19.2D, V4.4S
	WORD	$0x0e6178b4 // FCVTL V20.2D, V5.2S
	WORD	$0x4e6178b5 // FCVTL2 V21.2D, V5.4S
	WORD	$0x0e6178d6 // FCVTL V22.2D, V6.2S
	WORD	$0x4e6178d7 // FCVTL2 V23.2D, V6.4S
	VST1.P	[V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	B	next

tof16:
	WORD	$0x0e216867 // FCVTN V7.4H, V3.4S
	WORD	$0x4e216887 // FCVTN2 V7.8H, V4.4S
	WORD	$0x0e2168a8 // FCVTN V8.4H, V5.4S
	WORD	$0x4e2168c8 // FCVTN2 V8.8H, V6.4S
	VST1.P	[V7.H8, V8.H8], 32(R0)
	B	next

tobf16:
	VUZP2	V4.H8, V3.H8, V7.H8
	VUZP2	V6.H8, V5.H8, V8.H8
	VST1.P	[V7.H8, V8.H8], 32(R0)
	B	next

store32:
	VST1.P	[V3.S4, V4.S4, V5.S4, V6.S4], 64(R0)

next:
	SUBS	$16, R2, R2
	BNE	loop
	RET

// func i64ToF32NEON(dst, src []byte, n int)
TEXT ·i64ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWideNearest+0(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 32), R10
	JMP	neonRun<>(SB)

// func i64ToF16NEON(dst, src []byte, n int)
TEXT ·i64ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWideNearest+8(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func u64ToF32NEON(dst, src []byte, n int)
TEXT ·u64ToF32NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWideNearest+16(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 32), R10
	JMP	neonRun<>(SB)

// func u64ToF16NEON(dst, src []byte, n int)
TEXT ·u64ToF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonWideNearest+24(SB), R3
	MOVD	$wideBlocks<>(SB), R9
	MOVD	$(8<<16 | 64<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e4m3ToF64NEON(dst, src []byte, n int)
TEXT ·f8e4m3ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$3, R3
	MOVD	$f8e4m3ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// func f8e5m2ToBF16NEON(dst, src []byte, n int)
TEXT ·f8e5m2ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$2, R3
	MOVD	$f8e5m2ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f8e5m2ToF64NEON(dst, src []byte, n int)
TEXT ·f8e5m2ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$3, R3
	MOVD	$f8e5m2ToBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// func f8e4m3fnuzToF64NEON(dst, src []byte, n int)
TEXT ·f8e4m3fnuzToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+48(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// func f8e5m2fnuzToF64NEON(dst, src []byte, n int)
TEXT ·f8e5m2fnuzToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·neonFNUZ+112(SB), R3
	MOVD	$fnuzBlocks<>(SB), R9
	MOVD	$(16<<16 | 8<<8 | 64), R10
	JMP	neonRun<>(SB)

// func u4ToBF16NEON(dst, src []byte, n int)
TEXT ·u4ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesBF16+0(SB), R3 // the u4 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func i4ToBF16NEON(dst, src []byte, n int)
TEXT ·i4ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesBF16+32(SB), R3 // the i4 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func nf4ToBF16NEON(dst, src []byte, n int)
TEXT ·nf4ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesBF16+64(SB), R3 // the nf4 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// func f4e2m1ToBF16NEON(dst, src []byte, n int)
TEXT ·f4e2m1ToBF16NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesBF16+96(SB), R3 // the f4e2m1 row
	MOVD	$nibbleToF16Blocks<>(SB), R9
	MOVD	$(32<<16 | 4<<8 | 16), R10
	JMP	neonRun<>(SB)

// nibbleToF64Blocks<> converts R2 packed 4-bit codes (low nibble first), a positive multiple of
// 16, from R1 to R0: each code is looked up in the table of 16 float32 values at R3 (its type's
// row of nibbleValuesF32, exact) by TBL on each of the four byte planes, the planes are zipped
// back into float32 lanes, and FCVTL widens them to f64, exactly.
TEXT nibbleToF64Blocks<>(SB), NOSPLIT|NOFRAME, $0-0
	VLD4	(R3), [V16.B16, V17.B16, V18.B16, V19.B16]
	VMOVI	$15, V31.B16
loop:
	VLD1.P	8(R1), [V0.B8]
	VAND	V31.B16, V0.B16, V1.B16
	VUSHR	$4, V0.B16, V2.B16
	VZIP1	V2.B16, V1.B16, V3.B16
	VTBL	V3.B16, [V16.B16], V4.B16
	VTBL	V3.B16, [V17.B16], V5.B16
	VTBL	V3.B16, [V18.B16], V6.B16
	VTBL	V3.B16, [V19.B16], V7.B16
	VZIP1	V5.B16, V4.B16, V8.B16
	VZIP2	V5.B16, V4.B16, V9.B16
	VZIP1	V7.B16, V6.B16, V10.B16
	VZIP2	V7.B16, V6.B16, V11.B16
	VZIP1	V10.H8, V8.H8, V12.H8
	VZIP2	V10.H8, V8.H8, V13.H8
	VZIP1	V11.H8, V9.H8, V14.H8
	VZIP2	V11.H8, V9.H8, V15.H8
	WORD	$0x0e617994 // FCVTL V20.2D, V12.2S
	WORD	$0x4e617995 // FCVTL2 V21.2D, V12.4S
	WORD	$0x0e6179b6 // FCVTL V22.2D, V13.2S
	WORD	$0x4e6179b7 // FCVTL2 V23.2D, V13.4S
	WORD	$0x0e6179d8 // FCVTL V24.2D, V14.2S
	WORD	$0x4e6179d9 // FCVTL2 V25.2D, V14.4S
	WORD	$0x0e6179fa // FCVTL V26.2D, V15.2S
	WORD	$0x4e6179fb // FCVTL2 V27.2D, V15.4S
	VST1.P	[V20.D2, V21.D2, V22.D2, V23.D2], 64(R0)
	VST1.P	[V24.D2, V25.D2, V26.D2, V27.D2], 64(R0)
	SUBS	$16, R2, R2
	BNE	loop
	RET

// func u4ToF64NEON(dst, src []byte, n int)
TEXT ·u4ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+0(SB), R3 // the u4 row
	MOVD	$nibbleToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 4<<8 | 64), R10
	JMP	neonRun<>(SB)

// func i4ToF64NEON(dst, src []byte, n int)
TEXT ·i4ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+64(SB), R3 // the i4 row
	MOVD	$nibbleToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 4<<8 | 64), R10
	JMP	neonRun<>(SB)

// func nf4ToF64NEON(dst, src []byte, n int)
TEXT ·nf4ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+128(SB), R3 // the nf4 row
	MOVD	$nibbleToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 4<<8 | 64), R10
	JMP	neonRun<>(SB)

// func f4e2m1ToF64NEON(dst, src []byte, n int)
TEXT ·f4e2m1ToF64NEON(SB), NOSPLIT, $0-56
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	n+48(FP), R2
	MOVD	$·nibbleValuesF32+192(SB), R3 // the f4e2m1 row
	MOVD	$nibbleToF64Blocks<>(SB), R9
	MOVD	$(16<<16 | 4<<8 | 64), R10
	JMP	neonRun<>(SB)
