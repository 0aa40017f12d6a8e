package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The loop skeletons, shared by every kernel. A kernel's body is a func(i, o int) that converts
// one block whose source starts at i(SI) and destination at o(DI); the skeletons run it over
// the buffers and move SI, DI and the count CX. Registers: DI = dst, SI = src, CX = elements
// left; AX, BX, DX and R8..R13 belong to the skeletons, the vector registers to the bodies.

// isa is a SIMD path: its vector registers and how its tails copy bytes.
type isa struct {
	// path is the name of the kernels package's Path constant.
	path string
	// bytes is the width of a vector register.
	bytes int
	// vec returns vector register i of the path's width (Y or Z).
	vec func(i int) VecPhysical
	// copyIn copies n bytes from s into the frame at d; it may also write the frame's bytes
	// past n. copyOut copies n bytes from the frame at s to d; it may read the frame's bytes
	// past n. Neither reads or writes a byte of the caller's buffers past n.
	copyIn, copyOut func(s, d, n Register)
}

var (
	ys = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	zs = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

var (
	avx2   = &isa{path: "AVX2", bytes: 32, vec: func(i int) VecPhysical { return ys[i] }, copyIn: copyBytes, copyOut: copyBytes}
	avx512 = &isa{path: "AVX512", bytes: 64, vec: func(i int) VecPhysical { return zs[i] }, copyIn: copyVecsIn, copyOut: copyVecsOut}
)

// loopHeads are the labels at the top of the skeletons' loops, which the assembly files align
// (loopHead in asm.go): blocks' four-block and one-block loops, loopFast's fast and exact routes,
// loopCheck's blocks and steps, and quant's block and step loops. quant's group loops (group,
// pair) are left as they fall: with PCALIGN before them, Go's assembler (go1.26) does not finish
// assembling quant_amd64.s.
var loopHeads = []string{"four", "single", "fast", "loop", "ckblock", "ckstep", "step", "steps", "tailloop", "groupslowloop"}

// body converts the block at i(SI) into o(DI).
type body func(i, o int)

// block is a body's block: v elements, sin source and sout destination bytes (sin·8/v bits an
// element, so 4-bit sources work).
type block struct{ v, sin, sout int }

// src and dst return the memory operands off(SI) and off(DI).
func src(off int) Mem { return Mem{Base: RSI, Disp: off} }
func dst(off int) Mem { return Mem{Base: RDI, Disp: off} }

// sym returns the memory operand of the package variable name at byte off.
func sym(name string, off int) Mem {
	return Mem{Symbol: Symbol{Name: "·" + name}, Base: StaticBase, Disp: off}
}

// rodata returns the read-only data name<> holding the quadwords q, declared at the first use.
func rodata(name string, q ...uint64) Mem {
	if m, ok := datas[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	for i, v := range q {
		DATA(8*i, U64(v))
	}
	datas[name] = m
	return m
}

var datas = map[string]Mem{}

// blocks4 converts the four consecutive blocks that start at i(SI) and o(DI).
func blocks4(b body, bl block, i, o int) {
	for k := range 4 {
		b(i+k*bl.sin, o+k*bl.sout)
	}
}

// step4 converts four blocks and moves SI, DI and CX past them.
func step4(b body, bl block) {
	blocks4(b, bl, 0, 0)
	ADDQ(U32(4*bl.sin), RSI)
	ADDQ(U32(4*bl.sout), RDI)
	SUBQ(U32(4*bl.v), RCX)
}

// blocks converts the CX > 0 elements, a multiple of the block, four blocks an iteration while
// at least four are left, then one block at a time, and falls through to the label exit (which
// it also jumps to).
func blocks(b body, bl block, exit string) {
	four, single := label("four"), label("single")
	CMPQ(RCX, U32(4*bl.v))
	JB(LabelRef(single))
	Label(four)
	step4(b, bl)
	CMPQ(RCX, U32(4*bl.v))
	JAE(LabelRef(four))
	TESTQ(RCX, RCX)
	JZ(LabelRef(exit))
	Label(single)
	b(0, 0)
	ADDQ(U32(bl.sin), RSI)
	ADDQ(U32(bl.sout), RDI)
	SUBQ(U32(bl.v), RCX)
	JNZ(LabelRef(single))
}

// ret ends a kernel that used vector registers.
func ret() {
	VZEROUPPER()
	RET()
}

// loop runs b over the buffers: four blocks an iteration while at least four are left, then one
// block at a time. A last partial block (R10 elements) of a call with at least one whole block
// is converted as the whole block that ends with the last element: it converts the v-R10
// elements before the tail again and stores the same bytes over them (elements convert
// independently), which needs no copies, and no byte outside the buffers is read or written.
// When n < v, or when the step back does not fall on a byte (an odd count of 4-bit elements),
// the partial block is copied into the frame, converted there as a whole block, and only its R10
// elements are copied out. It returns.
func loop(a *isa, b body, bl block) {
	if bl.sin > 256 || bl.sout > 256 {
		panic(fmt.Sprintf("loop: a block of %d source and %d destination bytes does not fit the frame's 256 and 256", bl.sin, bl.sout))
	}
	tail, inFrame, done := label("tail"), label("frame"), label("done")
	bitsIn, bitsOut := U32(bl.sin*8/bl.v), U32(bl.sout*8/bl.v)
	MOVQ(RCX, R10)
	ANDQ(U32(bl.v-1), R10)
	SUBQ(R10, RCX)
	JZ(LabelRef(tail))
	blocks(b, bl, tail)
	Label(tail)
	TESTQ(R10, R10)
	JZ(LabelRef(done))
	CMPQ(NewParamAddr("n", 48), U32(bl.v))
	JB(LabelRef(inFrame))
	MOVQ(U32(bl.v), RBX)
	SUBQ(R10, RBX)
	MOVQ(RBX, RAX)
	IMUL3Q(bitsIn, RAX, RAX)
	IMUL3Q(bitsOut, RBX, RBX)
	MOVQ(RAX, RDX)
	ORQ(RBX, RDX)
	TESTQ(U32(7), RDX)
	JNZ(LabelRef(inFrame))
	SHRQ(U8(3), RAX)
	SHRQ(U8(3), RBX)
	SUBQ(RAX, RSI)
	SUBQ(RBX, RDI)
	b(0, 0)
	JMP(LabelRef(done))
	Label(inFrame)
	MOVQ(R10, RBX)
	IMUL3Q(bitsIn, RBX, RBX)
	ADDQ(U32(7), RBX)
	SHRQ(U8(3), RBX)
	LEAQ(frame, R8)
	a.copyIn(RSI, R8, RBX)
	MOVQ(RDI, R11)
	MOVQ(R8, RSI)
	LEAQ(frame.Offset(256), RDI)
	b(0, 0)
	MOVQ(R10, RBX)
	IMUL3Q(bitsOut, RBX, RBX)
	ADDQ(U32(7), RBX)
	SHRQ(U8(3), RBX)
	a.copyOut(RDI, R11, RBX)
	Label(done)
	ret()
}

// loopOrNT is loopNT(b, bl) for a kernel's non-temporal variant (nt), else loop(a, b, bl).
func loopOrNT(a *isa, nt bool, b body, bl block) {
	if nt {
		loopNT(b, bl)
		return
	}
	loop(a, b, bl)
}

// loopNT is loop for the kernels with non-temporal stores: n must be a multiple of the block and
// dst 64-byte aligned (the caller splits off the rest), and an SFENCE orders the stores before
// returning. It returns.
func loopNT(b body, bl block) {
	done := label("done")
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	blocks(b, bl, done)
	Label(done)
	SFENCE()
	ret()
}

// fastRoute is loopFast's fast route: fast converts a block at i(SI) into o(DI) (four a group),
// ok clears ZF if fast may have got an element wrong since consts (nil for none) loaded its
// constants and started its test.
type fastRoute struct {
	fast   body
	ok     func()
	consts func()
}

// loopFast is loop with a fast route: four blocks (a group) at a time it runs f.fast, and then
// f.ok; if that fails, it converts the group again with b and the constants consts (nil when the
// constants of both routes stay loaded), storing over the same bytes, and R13 more groups after
// it, before it reloads f.consts and tries the fast route again. R13 starts at 0, becomes
// 2·R13 + 1 (at most 15) at each such redo and 0 again at each group that the fast route gets
// right: a lone group with a value out of its range costs one wasted fast pass, and data with
// many (tensors of tiny values) waste it on one group in 17 at most. What is left (fewer than
// four blocks and a partial one), if anything, goes to loop with b. R12 counts the groups of b.
// It returns.
func loopFast(a *isa, f fastRoute, b body, consts func(), bl block) {
	fast, redo, slow, full, rest, slowLoop, done := label("fast"), label("redo"), label("slow"), label("full"), label("rest"), label("loop"), label("fastDone")
	group := U32(4 * bl.v)
	MOVQ(RCX, R10)
	ANDQ(U32(bl.v-1), R10)
	SUBQ(R10, RCX)
	CMPQ(RCX, group)
	JB(LabelRef(full))
	XORL(R13L, R13L)
	f.consts()
	Label(fast)
	blocks4(f.fast, bl, 0, 0)
	f.ok()
	JNZ(LabelRef(redo))
	XORL(R13L, R13L)
	ADDQ(U32(4*bl.sin), RSI)
	ADDQ(U32(4*bl.sout), RDI)
	SUBQ(group, RCX)
	CMPQ(RCX, group)
	JAE(LabelRef(fast))
	JMP(LabelRef(full))
	Label(redo)
	if consts != nil {
		consts()
	}
	LEAQ(Mem{Base: R13, Disp: 1}, R12)
	LEAQ(Mem{Base: R13, Index: R13, Scale: 1, Disp: 1}, R13)
	MOVL(U32(15), EAX)
	CMPQ(R13, RAX)
	CMOVQHI(RAX, R13)
	Label(slow)
	step4(b, bl)
	CMPQ(RCX, group)
	JB(LabelRef(rest))
	DECQ(R12)
	JNZ(LabelRef(slow))
	f.consts()
	JMP(LabelRef(fast))
	Label(full)
	ADDQ(R10, RCX)
	JZ(LabelRef(done))
	if consts != nil {
		consts()
	}
	JMP(LabelRef(slowLoop))
	Label(rest)
	ADDQ(R10, RCX)
	JZ(LabelRef(done))
	Label(slowLoop)
	loop(a, b, bl)
	Label(done)
	ret()
}

// checkRoute is loopCheck's short route: steps of block.v elements (block.sin and block.sout
// bytes). fast converts a step into registers and folds its test into an accumulator, store
// stores the step, reset clears the accumulator, bad clears ZF when it shows a special value,
// and fix is the exact route for one step, which stores itself.
type checkRoute struct {
	fast, store, reset, bad, fix func()
	step                         block
}

// loopCheck is loop for kernels with a short route that is exact except for rare special values
// it can detect (f32 → i32: NaN and out of range; f32 → bf16 on AVX2: NaN), in blocks of up to
// 1024 elements: when a block ends with c.bad, that block and the rest of the call are converted
// again step by step (reset, fast, bad), and a step with a special value goes through c.fix.
// Redoing a block needs its source intact, which holds because Convert refuses overlapping
// buffers. The elements after the last whole step go through b in loop. It uses R8, R9, R11,
// R12 and R13 besides loop's registers, and returns.
func loopCheck(a *isa, c checkRoute, b body, bl block) {
	blk, run, special, step, next, rest, fix := label("ckblock"), label("ckrun"), label("ckspecial"), label("ckstep"), label("cknext"), label("ckrest"), label("ckfix")
	s := c.step
	MOVQ(RCX, R12)
	ANDQ(U32(s.v-1), R12)
	SUBQ(R12, RCX)
	JZ(LabelRef(rest))
	Label(blk)
	MOVQ(U32(1024), R13)
	CMPQ(RCX, R13)
	CMOVQLT(RCX, R13)
	MOVQ(RSI, R8)
	MOVQ(RDI, R9)
	MOVQ(R13, R11)
	c.reset()
	Label(run)
	c.fast()
	c.store()
	ADDQ(U32(s.sin), RSI)
	ADDQ(U32(s.sout), RDI)
	SUBQ(U32(s.v), R13)
	JNZ(LabelRef(run))
	c.bad()
	JNZ(LabelRef(special))
	SUBQ(R11, RCX)
	JNZ(LabelRef(blk))
	JMP(LabelRef(rest))
	Label(special)
	MOVQ(R8, RSI)
	MOVQ(R9, RDI)
	Label(step)
	c.reset()
	c.fast()
	c.bad()
	JNZ(LabelRef(fix))
	c.store()
	Label(next)
	ADDQ(U32(s.sin), RSI)
	ADDQ(U32(s.sout), RDI)
	SUBQ(U32(s.v), RCX)
	JNZ(LabelRef(step))
	Label(rest)
	MOVQ(R12, RCX)
	loop(a, b, bl)
	Label(fix)
	c.fix()
	JMP(LabelRef(next))
}

// copyBytes copies n bytes from s to d, 8 at a time while 8 are left, then one at a time, never
// touching a byte past n: the AVX2 path's tail copies. It uses AX and DX.
func copyBytes(s, d, n Register) {
	l8, l1, end := label("copy8"), label("copy1"), label("copied")
	XORQ(RAX, RAX)
	Label(l8)
	LEAQ(Mem{Base: RAX, Disp: 8}, RDX)
	CMPQ(RDX, n)
	JA(LabelRef(l1))
	MOVQ(Mem{Base: s, Index: RAX, Scale: 1}, RDX)
	MOVQ(RDX, Mem{Base: d, Index: RAX, Scale: 1})
	ADDQ(U32(8), RAX)
	JMP(LabelRef(l8))
	Label(l1)
	CMPQ(RAX, n)
	JAE(LabelRef(end))
	MOVB(Mem{Base: s, Index: RAX, Scale: 1}, DL)
	MOVB(DL, Mem{Base: d, Index: RAX, Scale: 1})
	INCQ(RAX)
	JMP(LabelRef(l1))
	Label(end)
}

// The AVX-512 path's tail copies move 64-byte vectors. copyVecsIn reads the last partial vector
// with a zeroing masked load (BZHI builds the mask), so that no source byte past n is read, and
// stores it whole (the bytes past n become zero): a full store lets the kernel's full loads from
// the frame be forwarded from the store buffer, which a masked store does not (a stall on every
// call). copyVecsOut loads the last vector whole and stores it masked, so that no destination
// byte past n is written. The frame's 256-byte halves hold a partial block of every kernel
// rounded up to 64 bytes. Both use AX, DX, R9, K7 and Z0.
func copyVecsIn(s, d, n Register) {
	copyVecs(s, d, n, func() {
		VMOVDQU8_Z(Mem{Base: s, Index: RAX, Scale: 1}, K7, Z0)
		VMOVDQU64(Z0, Mem{Base: d, Index: RAX, Scale: 1})
	})
}

func copyVecsOut(s, d, n Register) {
	copyVecs(s, d, n, func() {
		VMOVDQU64(Mem{Base: s, Index: RAX, Scale: 1}, Z0)
		VMOVDQU8(Z0, K7, Mem{Base: d, Index: RAX, Scale: 1})
	})
}

// copyVecs copies n bytes from s to d in 64-byte vectors, the last partial one by part after the
// byte mask of the DX bytes left is built in K7.
func copyVecs(s, d, n Register, part func()) {
	l64, lpart, end := label("copy64"), label("copypart"), label("copied")
	XORQ(RAX, RAX)
	Label(l64)
	MOVQ(n, RDX)
	SUBQ(RAX, RDX)
	JBE(LabelRef(end))
	CMPQ(RDX, U32(64))
	JB(LabelRef(lpart))
	VMOVDQU64(Mem{Base: s, Index: RAX, Scale: 1}, Z0)
	VMOVDQU64(Z0, Mem{Base: d, Index: RAX, Scale: 1})
	ADDQ(U32(64), RAX)
	JMP(LabelRef(l64))
	Label(lpart)
	MOVQ(I32(-1), R9)
	BZHIQ(RDX, R9, R9)
	KMOVQ(R9, K7)
	part()
	Label(end)
}

// bcastD broadcasts the 32-bit constant c into every dword of v (AVX2: through the X register,
// AVX-512: from AX).
func bcastD(c uint32, v VecPhysical) {
	MOVL(U32(c), EAX)
	if v.Size() == 64 {
		VPBROADCASTD(EAX, v)
		return
	}
	VMOVD(EAX, v.AsX())
	VPBROADCASTD(v.AsX(), v)
}

// bcastW broadcasts the 16-bit constant c into every word of v.
func bcastW(c uint16, v VecPhysical) {
	MOVL(U32(uint32(c)), EAX)
	if v.Size() == 64 {
		VPBROADCASTW(EAX, v)
		return
	}
	VMOVD(EAX, v.AsX())
	VPBROADCASTW(v.AsX(), v)
}

// vmovntdq is VMOVNTDQ as a store argument of the bodies that have a non-temporal variant.
func vmovntdq(ops ...Op) { VMOVNTDQ(ops[0], ops[1]) }
