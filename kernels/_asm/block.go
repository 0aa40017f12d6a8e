package main

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The kernels of package quant (quant.Dequantize and quant.Quantize, docs/SEMANTICS.md §9),
// written to quant_amd64.s when the generator runs with -quant (quant.go). They do not fit the
// registry's pairs: a block kernel reads or writes three buffers, the codes, the scales (one
// byte a group) and the values, and converts whole steps of 32 elements (one MXFP4 or MXFP8
// group, two NVFP4 groups); the Go side runs the rest on the pure-Go loop.
//
// Registers: DI = values (decoding) or codes (quantizing), SI = codes or values, DX = scales,
// CX = steps left; AX is scratch.

// blockKernel declares one block kernel.
type blockKernel struct {
	isa    *isa
	format string // package quant's Scheme variable: MXFP4, NVFP4, MXFP8E4M3
	typ    string // the values' element constant: F32, F16, BF16
	decode bool
	frame  int // bytes of stack the body uses at blockFrame
	doc    string
	body   func()
}

// blockFrame is the stack frame of the block kernel being written, when it asks for one.
var blockFrame Mem

var blockKernels []*blockKernel

func addBlock(k *blockKernel) { blockKernels = append(blockKernels, k) }

// name returns the kernel's name, its TEXT symbol.
func (k *blockKernel) name() string { return blockName(k.format, k.typ, k.decode, k.isa.path) }

// blockName returns the name of the kernel of a quant row on a path, amd64's and arm64's: the
// name pairName gives the row's pair, the scheme and the value type in the conversion's order,
// with the scheme spelled as its variable when it is the destination: mxfp4ToF32AVX2,
// mxfp8e4m3ToBF16NEON, f32ToMXFP4AVX512.
func blockName(scheme, typ string, decode bool, path string) string {
	if decode {
		return pairName(scheme, typ, path)
	}
	return fromName(typ) + scheme + path
}

// blockParams returns the parameters of a block kernel, a dequantizer's or a quantizer's.
func blockParams(decode bool) string {
	if decode {
		return "dst, codes, scales []byte, steps int"
	}
	return "codes, scales, src []byte, steps int"
}

// emitBlock writes the TEXT of k.
func emitBlock(k *blockKernel) {
	labels = map[string]int{}
	TEXT(k.name(), NOSPLIT, "func("+blockParams(k.decode)+")")
	if k.decode {
		Load(Param("dst").Base(), RDI)
		Load(Param("codes").Base(), RSI)
	} else {
		Load(Param("codes").Base(), RDI)
		Load(Param("src").Base(), RSI)
	}
	if k.frame > 0 {
		blockFrame = AllocLocal(k.frame)
	}
	Load(Param("scales").Base(), RDX)
	Load(Param("steps"), RCX)
	k.body()
}

// blockLoop runs step CX times (none for CX = 0) and returns; step moves SI, DI and DX.
func blockLoop(step func()) {
	top, done := label("step"), label("done")
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	Label(top)
	step()
	DECQ(RCX)
	JNZ(LabelRef(top))
	Label(done)
	ret()
}

// f32Quads packs float32 values two to a quadword, the first in the low half.
func f32Quads(vs ...float32) []uint64 {
	var q []uint64
	for i := 0; i < len(vs); i += 2 {
		q = append(q, uint64(math.Float32bits(vs[i]))|uint64(math.Float32bits(vs[i+1]))<<32)
	}
	return q
}

// byteQuads packs bytes eight to a quadword, little-endian.
func byteQuads(bs []byte) []uint64 {
	q := make([]uint64, len(bs)/8)
	for i, b := range bs {
		q[i/8] |= uint64(b) << (8 * (i % 8))
	}
	return q
}

// f4Values are the 16 f4e2m1 values by code.
var f4Values = []float32{0, 0.5, 1, 1.5, 2, 3, 4, 6, float32(math.Copysign(0, -1)), -0.5, -1, -1.5, -2, -3, -4, -6}

// scaleTable is the package variable that maps a scale byte to its float32 value, NaN scales
// to the positive quiet NaN.
func scaleTable(format string) string {
	if format == "NVFP4" {
		return "e4m3Scales"
	}
	return "e8m0Scales"
}

// scaleBase loads the address of the format's scale table into R8, for loadScale.
func scaleBase(format string) { LEAQ(sym(scaleTable(format), 0), R8) }

// loadScale broadcasts the float32 value of the scale byte at off(DX) into v (R8 holds the
// table's address).
func loadScale(off int, v VecPhysical) {
	MOVBLZX(Mem{Base: RDX, Disp: off}, EAX)
	VBROADCASTSS(Mem{Base: R8, Index: RAX, Scale: 4}, v)
}

// The block kernels of one path: the bodies for f4e2m1 decoding, f8e4m3 decoding and f32 →
// MXFP4.
type blockPath struct {
	isa   *isa
	f4    func(format, typ string)
	e4m3  func(typ string)
	quant func()
}

func init() {
	// f4e2m1 → f32, f16, bf16 on AVX-512. A step is 32 elements: one MXFP4 block or two NVFP4
	// blocks. To f32, each half of 16 elements has one table of its 16 products (the 16 code
	// values times its block's scale, one VMULPS with the scale as the first operand, so that a
	// NaN scale gives its own NaN); VPMULTISHIFTQB puts every element's nibble at the bottom of
	// its dword index straight from the broadcast codes, and VPERMPS looks the products up. To
	// f16 and bf16, the tables are the rows of quant/tables.go, loaded by scale, and VPERMW looks
	// them up (f4DecodeHalfAVX512).
	//
	// AVX2 takes the same steps with 256-bit registers and without VPERMW and VPMULTISHIFTQB:
	// f4e2m1 → f32 looks up 8 elements a register with two VPERMPS (the positive and the
	// negative codes' products, by the low 3 bits of the code) and picks one by the sign bit
	// (VBLENDVPS); → f16 and bf16 looks the codes up with VPSHUFB in the rows split into low and
	// high bytes, whose 128-bit lanes hold the two halves' rows.
	for _, p := range []blockPath{
		{avx512, f4DecodeAVX512, e4m3DecodeAVX512, quantizeMXFP4AVX512},
		{avx2, f4DecodeAVX2, e4m3DecodeAVX2, quantizeMXFP4AVX2},
	} {
		for _, format := range []string{"MXFP4", "NVFP4"} {
			for _, typ := range []string{"F32", "F16", "BF16"} {
				addBlock(&blockKernel{
					isa: p.isa, format: format, typ: typ, decode: true,
					doc:  "It decodes 32 elements a step (one MXFP4 block, or two NVFP4 blocks).",
					body: func() { p.f4(format, typ) },
				})
			}
		}
		for _, typ := range []string{"F32", "BF16"} {
			addBlock(&blockKernel{
				isa: p.isa, format: "MXFP8E4M3", typ: typ, decode: true,
				doc:  "It decodes one block of 32 elements a step.",
				body: func() { p.e4m3(typ) },
			})
		}
		k := &blockKernel{
			isa: p.isa, format: "MXFP4", typ: "F32",
			doc:  "It encodes one block of 32 elements a step.",
			body: p.quant,
		}
		if p.isa == avx512 {
			k.frame = 64
			k.doc = "It encodes 16 blocks of 32 elements a loop iteration, then one or two at a time."
		}
		addBlock(k)
	}
}

func f4DecodeAVX512(format, typ string) {
	if typ != "F32" {
		f4DecodeHalfAVX512(format, typ)
		return
	}
	vals, ctl := Z31, Z30
	VMOVUPS(rodata("blockF4Values", f32Quads(f4Values...)...), vals)
	// VPMULTISHIFTQB control: dword i of a quadword of the result takes the 8 bits at 4i of
	// the broadcast quadword of 16 codes, so its low 4 bits are element i's code.
	var c []byte
	for q := range 8 {
		for j := range 8 {
			c = append(c, byte(8*q+4*(j/4)))
		}
	}
	VMOVDQU64(rodata("blockNibbleDwords", byteQuads(c)...), ctl)
	scales := 1
	if format == "NVFP4" {
		scales = 2
	}
	scaleBase(format)
	blockLoop(func() {
		for h := range 2 {
			t := zs[2*h] // the half's table
			if h < scales {
				loadScale(h, t)
				VMULPS(vals, t, t)
			} else {
				t = zs[0]
			}
			idx := zs[4+h]
			VPMULTISHIFTQB_BCST(Mem{Base: RSI, Disp: 8 * h}, ctl, idx)
			VPERMPS(t, idx, idx)
			VMOVUPS(idx, Mem{Base: RDI, Disp: 64 * h})
		}
		ADDQ(U32(16), RSI)
		ADDQ(U32(128), RDI)
		ADDQ(U32(uint64(scales)), RDX)
	})
}

// f4DecodeHalfAVX512 is f4DecodeAVX512 for f16 and bf16: one VPERMW decodes 32 elements from
// the rows of their scales (quant/tables.go), a row a block: 16 words, the block's 16 products
// rounded to the target type. An MXFP4 row is broadcast to both 256-bit halves, so that bit 4
// of an index does not matter; NVFP4's two rows fill one half each, and bit 4 picks the half.
// The indices come from the 16 code bytes zero-extended to dwords (VPMOVZXBD) and multiplied by
// 2^12+1, which adds each to itself shifted left by 12: the low word of dword j holds byte j,
// whose low nibble is element 2j's code, and the high word byte j's high nibble, element 2j+1's
// code. (VPMULLD measured as fast as VPSLLD and VPORD, in one instruction fewer.)
func f4DecodeHalfAVX512(format, typ string) {
	nv := format == "NVFP4"
	keep, set := Z31, Z30
	if nv {
		bcastD(0x000F000F, keep)
		VMOVDQU64(rodata("blockHalfSelect", 0, 0, 0, 0, 0x0010001000100010, 0x0010001000100010, 0x0010001000100010, 0x0010001000100010), set)
	}
	LEAQ(sym(strings.ToLower(format)+typ+"Rows", 0), R8)
	spread := Z29
	bcastD(1<<12|1, spread)
	scales := 1
	if nv {
		scales = 2
	}
	step := func(k, si, di int, scale func(GPPhysical)) {
		t, idx := zs[2*k], zs[2*k+1]
		scale(RAX)
		SHLQ(U8(5), RAX)
		if nv {
			scale(RBX)
			SHLQ(U8(5), RBX)
			VMOVDQU64(Mem{Base: R8, Index: RAX, Scale: 1}, t.AsY())
			VINSERTI64X4(U8(1), Mem{Base: R8, Index: RBX, Scale: 1}, t, t)
		} else {
			VBROADCASTI64X4(Mem{Base: R8, Index: RAX, Scale: 1}, t)
		}
		VPMOVZXBD(Mem{Base: RSI, Disp: si}, idx)
		VPMULLD(spread, idx, idx) // byte j | byte j << 12
		if nv {
			VPTERNLOGD(U8(0xEA), set, keep, idx) // (idx & keep) | set
		}
		VPERMW(t, idx, idx)
		VMOVDQU64(idx, Mem{Base: RDI, Disp: di})
	}
	blockLoopN(4, [3]int{16, 64, scales}, step)
}

// quantizeGroupsAVX512 encodes MXFP4 blocks 16 at a time while 16 are left, and falls through
// with SI, DI, DX and CX moved past them.
//
// The 16 blocks' largest magnitudes are found together: each block's two registers are reduced
// to one (VPMAXUD), and the 16 registers are merged pairwise in four rounds, each round halving
// the lanes a block occupies (a blend, a two-source permute and a maximum per merge), so that
// lane k ends with block k's maximum when the blocks are visited in bit-reversed order. The 16
// scales are then computed in one register and stored with one VPMOVDB, and their inverses go
// to the stack, where each block's multiplication reads its own as a broadcast operand.
//
// A block's encoding: the quotient's magnitude is raised to 2^-3 at least by VRANGEPS (the
// sign kept), bit 20 is set when any of bits 0-20 is (the sticky bit), and the high words of
// the 32 quotients are gathered into one register (VPERMT2W). There, bits 4-9 of a word are the
// f4e2m1Below8 index (exponent mod 8, two fraction bits, sticky bit), one VPERMB looks the 32
// magnitude codes up, the sign bit 15 of each word (VPMOVW2M) adds 8, VPMADDWD pairs the codes
// (code 2j + 16 × code 2j+1) and VPMOVDB stores the 16 bytes.
//
// The loop is software-pipelined: an iteration finds the next group's maxima before it encodes
// the current group, whose maxima the previous iteration found, so that the reduction's chain
// of dependent steps overlaps the encoding instead of stalling it. A group with a NaN or an
// infinity is encoded one block at a time by single. The other arguments are
// quantizeMXFP4AVX512's registers and steps.
func quantizeGroupsAVX512(abs, lut, floor, sticky, eight, inf VecPhysical,
	scale, inverse func(VecPhysical), single func()) {
	// VRANGEPS's selector: the operand of larger magnitude, with the sign of the first.
	const maxAbsSigned = 0b0011
	pair, idx := Z19, [4]VecPhysical{Z15, Z16, Z17, Z18}
	masks := [4]OpmaskPhysical{K4, K5, K6, K7}
	bcastD(16<<16|1, pair) // words 1, 16: VPMADDWD's multipliers
	bit20, high := Z11, Z12
	bcastD(1<<20, bit20)
	hw := make([]uint64, 8) // word j: 2j+1, the high half of quotient j (32 + … the second register's)
	for j := range 32 {
		hw[j/4] |= uint64(2*j+1) << (16 * (j % 4))
	}
	VMOVDQU64(rodata("blockHighWords", hw...), high)
	MOVQ(U64(0x5555555555555555), RAX)
	KMOVQ(RAX, K3) // the low byte of every word
	for r := range 4 {
		g := 8 >> r
		var ix []uint64
		var m uint64
		for k := 0; k < 16; k += 2 {
			lane := func(k int) uint64 {
				if k&g == 0 {
					return uint64(k + g)
				}
				m |= 1 << k
				return uint64(16 + k - g)
			}
			ix = append(ix, lane(k)|lane(k+1)<<32)
		}
		VMOVDQU64(rodata(fmt.Sprintf("blockMergeIndex%d", g), ix...), idx[r])
		MOVQ(U64(m), RAX)
		KMOVW(EAX, masks[r])
	}
	// reduce leaves in dst the largest magnitudes of the 16 blocks at disp(SI), lane k block
	// k's (Z0-Z7 are its scratch).
	reduce := func(disp int, dst VecPhysical) {
		type part struct {
			v     VecPhysical
			round int
		}
		var stack []part
		free := []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7}
		take := func() VecPhysical { v := free[0]; free = free[1:]; return v }
		for step := range 16 {
			b := int(bits.Reverse8(uint8(step)) >> 4)
			lo, hi := take(), take()
			VPANDD(Mem{Base: RSI, Disp: disp + 128*b}, abs, lo)
			VPANDD(Mem{Base: RSI, Disp: disp + 128*b + 64}, abs, hi)
			VPMAXUD(hi, lo, lo)
			free = append(free, hi)
			stack = append(stack, part{lo, 0})
			for len(stack) >= 2 && stack[len(stack)-1].round == stack[len(stack)-2].round {
				a, c := stack[len(stack)-2], stack[len(stack)-1]
				r := a.round
				x := take()
				VPBLENDMD(c.v, a.v, masks[r], x) // lanes of c's half from c, the others from a
				VPERMT2D(c.v, idx[r], a.v)       // the other halves, swapped
				VPMAXUD(x, a.v, a.v)
				free = append(free, x, c.v)
				stack = append(stack[:len(stack)-2], part{a.v, r + 1})
			}
		}
		VMOVDQA64(stack[0].v, dst)
	}
	// The pipelined loop: cur holds the maxima of the group at SI, next those of the group
	// after it.
	cur, next, inv := Z14, Z13, Z10
	group, encode, slow, slowLoop, advance, done := label("group"), label("groupencode"), label("groupslow"), label("groupslowloop"), label("groupnext"), label("groupdone")
	CMPQ(RCX, U32(16))
	JB(LabelRef(done))
	reduce(0, cur)
	Label(group)
	CMPQ(RCX, U32(32))
	JB(LabelRef(encode))
	reduce(2048, next)
	Label(encode)
	VPCMPUD(U8(5), inf, cur, K2) // amax ≥ +Inf: Inf or NaN
	KORTESTW(K2, K2)
	JNZ(LabelRef(slow))
	VMOVDQA64(cur, inv)
	scale(inv)
	VPMOVDB(inv, Mem{Base: RDX})
	inverse(inv)
	VMOVDQU64(inv, blockFrame)
	for b := range 16 {
		a0, a1, c := zs[3*(b%3)], zs[3*(b%3)+1], zs[3*(b%3)+2]
		for h, a := range []VecPhysical{a0, a1} {
			VMOVUPS(Mem{Base: RSI, Disp: 128*b + 64*h}, a)
			VMULPS_BCST(blockFrame.Offset(4*b), a, a) // times block b's inverse
			VRANGEPS(U8(maxAbsSigned), floor, a, a)   // magnitude at least 2^-3, sign kept
			VPTESTMD(sticky, a, K1)
			VPORD(bit20, a, K1, a) // bit 20: any of bits 0-20
		}
		VPERMT2W(a1, high, a0) // the 32 high words in order: sign, exponent, 7 fraction bits
		VPMOVW2M(a0, K2)       // the signs
		VPSRLW(U8(4), a0, a0)  // the index in the low 6 bits
		VPERMB_Z(lut, a0, K3, c)
		VPADDW(eight, c, K2, c) // the sign bit of each code
		VPMADDWD(pair, c, c)    // code 2j + 16 × code 2j+1
		VPMOVDB(c, Mem{Base: RDI, Disp: 16 * b})
	}
	ADDQ(U32(2048), RSI)
	ADDQ(U32(256), RDI)
	ADDQ(U32(16), RDX)
	SUBQ(U32(16), RCX)
	Label(advance)
	VMOVDQA64(next, cur)
	CMPQ(RCX, U32(16))
	JAE(LabelRef(group))
	JMP(LabelRef(done))
	Label(slow)
	MOVL(U32(16), R10L)
	Label(slowLoop)
	single() // Z0-Z5, K1 and K2: next and cur are kept
	DECQ(RCX)
	DECL(R10L)
	JNZ(LabelRef(slowLoop))
	JMP(LabelRef(advance))
	Label(done)
}

// blockLoopN runs CX steps, n a loop iteration while n are left, then one at a time, and
// returns. step(k, si, di, scale) emits step k of an iteration at the byte offsets si and di
// from SI and DI; sizes are one step's bytes of SI, DI and DX (its scale bytes, n×sizes[2] at
// most 8). scale(r) zero-extends the step's next scale byte into r. A grouped iteration reads
// all its scale bytes with one load into R9 and takes them from there, low byte first: a load
// for every scale byte measured slower, as the loads compete with those of the codes and rows.
func blockLoopN(n int, sizes [3]int, step func(k, si, di int, scale func(GPPhysical))) {
	group, single, one, done := label("group"), label("single"), label("one"), label("done")
	perGroup := n * sizes[2]
	CMPQ(RCX, U32(uint64(n)))
	JB(LabelRef(single))
	Label(group)
	switch {
	case perGroup <= 4:
		MOVL(Mem{Base: RDX}, R9L)
	case perGroup <= 8:
		MOVQ(Mem{Base: RDX}, R9)
	default:
		panic("blockLoopN: more than 8 scale bytes an iteration")
	}
	taken := 0
	fromR9 := func(r GPPhysical) {
		MOVBLZX(R9B, r.As32())
		if taken++; taken < perGroup {
			SHRQ(U8(8), R9)
		}
	}
	for k := range n {
		step(k, k*sizes[0], k*sizes[1], fromR9)
	}
	ADDQ(U32(uint64(n*sizes[0])), RSI)
	ADDQ(U32(uint64(n*sizes[1])), RDI)
	ADDQ(U32(uint64(perGroup)), RDX)
	SUBQ(U32(uint64(n)), RCX)
	CMPQ(RCX, U32(uint64(n)))
	JAE(LabelRef(group))
	Label(single)
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	Label(one)
	off := 0
	fromMem := func(r GPPhysical) {
		MOVBLZX(Mem{Base: RDX, Disp: off}, r.As32())
		off++
	}
	step(0, 0, 0, fromMem)
	ADDQ(U32(uint64(sizes[0])), RSI)
	ADDQ(U32(uint64(sizes[1])), RDI)
	ADDQ(U32(uint64(sizes[2])), RDX)
	DECQ(RCX)
	JNZ(LabelRef(one))
	Label(done)
	ret()
}

// e4m3DecodeAVX512 decodes MXFP8E4M3: each code's magnitude bits shifted into a float32's
// exponent and mantissa fields read 2^-120 times the element's value (subnormals included), so
// one exact VMULPS by 2^120 decodes it; the NaN magnitude 0x7F becomes the quiet NaN, the sign
// bit is put back, and the element is multiplied by the scale (the scale the first operand: a
// NaN scale's NaN wins). For bf16 the product is rounded to nearest even on its low 16 bits as
// BF16FromF32 does (an f8e4m3 value times a small scale can be a float32 subnormal that bf16
// must round).
func e4m3DecodeAVX512(typ string) {
	magMask, pow120, qnan, signMask, one, round := Z31, Z29, Z28, Z27, Z26, Z25
	e4m3Setup(typ, magMask, pow120, qnan, signMask, one, round)
	blockLoop(func() {
		loadScale(0, Z0)
		for h := range 2 {
			c, m, s := zs[1+3*h], zs[2+3*h], zs[3+3*h]
			VPMOVZXBD(Mem{Base: RSI, Disp: 16 * h}, c)
			VPSLLD(U8(20), c, m)
			VPANDD(magMask, m, m)
			VPCMPEQD(magMask, m, K1) // the NaN magnitude 0x7F fills the mask
			VMULPS(pow120, m, m)
			VMOVAPS(qnan, K1, m)
			VPSLLD(U8(24), c, s)
			VPTERNLOGD(U8(0xF8), signMask, s, m) // m | (s & sign)
			VMULPS(m, Z0, m)
			if typ == "F32" {
				VMOVUPS(m, Mem{Base: RDI, Disp: 64 * h})
				continue
			}
			roundBF16(m, s, one, round, func(a, b, c Op) { VPANDD(a, b, c) })
			VPMOVDW(m, m.AsY())
			VMOVDQU(m.AsY(), Mem{Base: RDI, Disp: 32 * h})
		}
		ADDQ(U32(32), RSI)
		if typ == "F32" {
			ADDQ(U32(128), RDI)
		} else {
			ADDQ(U32(64), RDI)
		}
		INCQ(RDX)
	})
}

// f4LUT is the f4e2m1 magnitude code, rounded to nearest even and clamped to 6, of a magnitude
// below 8 whose float32 bits (raised to 2^-3 at least) have the exponent field E, the first two
// mantissa bits m1 m0 and a sticky bit st (any lower bit set), by the index
// (E mod 8)<<3 | m1<<2 | m0<<1 | st: the decision needs no other bit, since every f4e2m1
// midpoint is 1.01 or 1.11 (binary) times a power of two.
func f4LUT() []byte {
	lut := make([]byte, 64)
	for e := 124; e <= 129; e++ {
		for low := range 8 {
			v := math.Ldexp(1+float64(low>>2)/2+float64(low>>1&1)/4+float64(low&1)/(1<<20), e-127)
			var c byte
			for k, m := range []float64{0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5} {
				if v > m || k%2 == 1 && v == m {
					c = byte(k + 1)
				}
			}
			lut[(e%8)<<3|low] = c
		}
	}
	return lut
}

// quantizeMXFP4AVX512 encodes a block of 32 float32 values: the largest magnitude by its bits
// (which order like the magnitudes) reduced across the vector; the scale byte max(E − 2, 0)
// from its exponent field E (floor(log2 amax) − 2 + 127, clamped at 0; amax below the normals
// gives 0 as well); the magnitudes times 2^-k (exact, below 8) looked up in f4LUT by their
// exponent, two mantissa bits and a sticky bit (VPERMB); the value's sign bit added; the codes
// gathered in order (VPERMT2B) and paired into bytes. A block whose largest magnitude is Inf or
// NaN gets the NaN scale 0xFF and zero codes.
func quantizeMXFP4AVX512() {
	abs, lut, floor, sticky, one, eight, gather, low := Z31, Z30, Z29, Z28, Z27, Z26, Z25, Z24
	bcastD(0x7FFFFFFF, abs)
	VMOVDQU64(rodata("blockF4LUT", byteQuads(f4LUT())...), lut)
	bcastD(0x3E000000, floor) // 2^-3
	bcastD(0x1FFFFF, sticky)
	bcastD(1, one)
	bcastW(8, eight) // 8 in every word: the sign bit of a code in a byte or a word
	g := make([]byte, 64)
	for j := range 32 {
		g[j] = byte(4 * j) // byte 0 of dword j of the first half, then of the second (64 + …)
	}
	VMOVDQU64(rodata("blockGatherCodes", byteQuads(g)...), gather)
	bcastW(0x00FF, low)
	inf, two, zero, c254 := Z23, Z22, Z21, Z20
	bcastD(0x7F800000, inf)
	bcastD(2, two)
	VPXORD(zero, zero, zero)
	bcastD(254, c254)
	// encode turns the magnitudes in a (a Z register) times inv into codes in c, a code in byte
	// 0 of each dword, with the sign of the values at off(SI); a is overwritten.
	encode := func(a, inv, c VecPhysical, off int) {
		VMULPS(inv, a, a)
		VPMAXUD(floor, a, a)
		VPTESTMD(sticky, a, K1)
		VPSRLD(U8(20), a, a)
		VPORD(one, a, K1, a)
		VPERMB(lut, a, c) // byte 0 of each dword; pack reads no other
		VPSRLD(U8(28), Mem{Base: RSI, Disp: off}, a)
		VPTERNLOGD(U8(0xF8), eight, a, c) // c | (a & 8)
	}
	// pack stores the 32 codes of c0 and c1 two a byte at off(DI); c0 and c1 are overwritten.
	pack := func(c0, c1 VecPhysical, off int) {
		VPERMT2B(c1, gather, c0) // the 32 codes in order, a byte each
		VPSRLW(U8(4), c0, c1)
		VPTERNLOGD(U8(0xA8), low, c1, c0) // (c | c>>4) & 0x00FF: two codes a word
		VPMOVWB(c0.AsY(), c0.AsX())
		VMOVDQU(c0.AsX(), Mem{Base: RDI, Disp: off})
	}
	// scale turns the largest magnitudes in every lane of m into the scale code max(E − 2, 0)
	// and, in m, 2^-k, whose exponent field is 127 − k = 254 − code.
	scale := func(m VecPhysical) {
		VPSRLD(U8(23), m, m)
		VPSUBD(two, m, m)
		VPMAXSD(zero, m, m)
	}
	inverse := func(m VecPhysical) {
		VPSUBD(m, c254, m)
		VPSLLD(U8(23), m, m)
	}
	// single encodes one block, a NaN or infinite one included, and moves SI, DI and DX on.
	single := func() {
		nanBlock, next := label("nanblock"), label("next")
		VPANDD(Mem{Base: RSI}, abs, Z0)
		VPANDD(Mem{Base: RSI, Disp: 64}, abs, Z1)
		// The largest magnitude in every lane: a butterfly of maxima.
		VPMAXUD(Z0, Z1, Z2)
		VSHUFI64X2(U8(0x4E), Z2, Z2, Z3)
		VPMAXUD(Z3, Z2, Z2)
		VSHUFI64X2(U8(0xB1), Z2, Z2, Z3)
		VPMAXUD(Z3, Z2, Z2)
		VPSHUFD(U8(0x4E), Z2, Z3)
		VPMAXUD(Z3, Z2, Z2)
		VPSHUFD(U8(0xB1), Z2, Z3)
		VPMAXUD(Z3, Z2, Z2)
		VPCMPUD(U8(5), inf, Z2, K2) // amax ≥ +Inf: Inf or NaN
		KORTESTW(K2, K2)
		JNZ(LabelRef(nanBlock))
		scale(Z2)
		VMOVD(X2, EAX)
		MOVB(AL, Mem{Base: RDX})
		inverse(Z2)
		encode(Z0, Z2, Z4, 0)
		encode(Z1, Z2, Z5, 64)
		pack(Z4, Z5, 0)
		JMP(LabelRef(next))
		Label(nanBlock)
		MOVB(U8(0xFF), Mem{Base: RDX})
		VPXORD(X0, X0, X0)
		VMOVDQU(X0, Mem{Base: RDI})
		Label(next)
		ADDQ(U32(128), RSI)
		ADDQ(U32(16), RDI)
		INCQ(RDX)
	}
	quantizeGroupsAVX512(abs, lut, floor, sticky, eight, inf, scale, inverse, single)
	// Two blocks an iteration share the reduction's shuffles: their maxima side by side, lanes
	// 0-1 for the first block and 2-3 for the second. A pair with a NaN or an infinity goes one
	// block at a time.
	top, pairNaN, tail, tailLoop, done := label("pair"), label("pairnan"), label("tail"), label("tailloop"), label("done")
	Label(top)
	CMPQ(RCX, U32(2))
	JB(LabelRef(tail))
	for q := range 4 {
		VPANDD(Mem{Base: RSI, Disp: 64 * q}, abs, zs[q])
	}
	VPMAXUD(Z0, Z1, Z4)
	VPMAXUD(Z2, Z3, Z5)
	VSHUFI64X2(U8(0x44), Z5, Z4, Z6)
	VSHUFI64X2(U8(0xEE), Z5, Z4, Z7)
	VPMAXUD(Z7, Z6, Z6)
	VSHUFI64X2(U8(0xB1), Z6, Z6, Z7)
	VPMAXUD(Z7, Z6, Z6)
	VPSHUFD(U8(0x4E), Z6, Z7)
	VPMAXUD(Z7, Z6, Z6)
	VPSHUFD(U8(0xB1), Z6, Z7)
	VPMAXUD(Z7, Z6, Z6)
	VPCMPUD(U8(5), inf, Z6, K2)
	KORTESTW(K2, K2)
	JNZ(LabelRef(pairNaN))
	scale(Z6)
	VPMOVDB(Z6, X7) // byte 0: the first block's code, byte 8: the second's
	VMOVD(X7, EAX)
	MOVB(AL, Mem{Base: RDX})
	VPEXTRB(U8(8), X7, EAX)
	MOVB(AL, Mem{Base: RDX, Disp: 1})
	inverse(Z6)
	VSHUFI64X2(U8(0x00), Z6, Z6, Z8)
	VSHUFI64X2(U8(0xAA), Z6, Z6, Z9)
	for b := range 2 {
		encode(zs[2*b], zs[8+b], zs[10+2*b], 128*b)
		encode(zs[2*b+1], zs[8+b], zs[11+2*b], 128*b+64)
		pack(zs[10+2*b], zs[11+2*b], 16*b)
	}
	ADDQ(U32(256), RSI)
	ADDQ(U32(32), RDI)
	ADDQ(U32(2), RDX)
	SUBQ(U32(2), RCX)
	JMP(LabelRef(top))
	Label(pairNaN)
	single()
	DECQ(RCX)
	JMP(LabelRef(top))
	Label(tail)
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	Label(tailLoop)
	single()
	DECQ(RCX)
	JNZ(LabelRef(tailLoop))
	Label(done)
	ret()
}

// loadScaleY broadcasts the float32 value of the scale byte at off(DX) into the Y register v
// (R8 holds the table's address).
func loadScaleY(off int, v VecPhysical) {
	MOVBLZX(Mem{Base: RDX, Disp: off}, EAX)
	VBROADCASTSS(Mem{Base: R8, Index: RAX, Scale: 4}, v)
}

func f4DecodeAVX2(format, typ string) {
	nv := format == "NVFP4"
	if typ == "F32" {
		pos, neg, shifts := Y15, Y14, Y13
		VMOVUPS(rodata("blockF4Values", f32Quads(f4Values...)...), pos)
		VMOVUPS(Mem{Symbol: Symbol{Name: "blockF4Values<>"}, Base: StaticBase, Disp: 32}, neg)
		scaleBase(format)
		VMOVDQU(rodata("blockNibbleShifts", 0x0000000400000000, 0x0000000C00000008, 0x0000001400000010, 0x0000001C00000018), shifts)
		blockLoop(func() {
			for h := range 2 {
				tp, tn := Y0, Y1
				if h == 0 || nv {
					loadScaleY(h, tp)
					VMULPS(neg, tp, tn)
					VMULPS(pos, tp, tp)
				}
				for q := range 2 {
					idx, sel, p, n := ys[2+4*q], ys[3+4*q], ys[4+4*q], ys[5+4*q]
					VPBROADCASTD(Mem{Base: RSI, Disp: 8*h + 4*q}, idx)
					VPSRLVD(shifts, idx, idx)
					VPSLLD(U8(28), idx, sel)
					VPERMPS(tp, idx, p)
					VPERMPS(tn, idx, n)
					VBLENDVPS(sel, n, p, p)
					VMOVUPS(p, Mem{Base: RDI, Disp: 64*h + 32*q})
				}
			}
			ADDQ(U32(16), RSI)
			ADDQ(U32(128), RDI)
			if nv {
				ADDQ(U32(2), RDX)
			} else {
				INCQ(RDX)
			}
		})
		return
	}
	low := Y13
	bcastB := func(c uint8, v VecPhysical) {
		MOVL(U32(uint32(c)*0x01010101), EAX)
		VMOVD(EAX, v.AsX())
		VPBROADCASTD(v.AsX(), v)
	}
	bcastB(0x0F, low)
	// The rows split into low and high bytes (quant/tables.go): row s is at 32s, its 16 low bytes
	// first. MXFP4's row goes to both 128-bit lanes; NVFP4's first block's row to lane 0, the
	// second's to lane 1.
	LEAQ(sym(strings.ToLower(format)+typ+"Split", 0), R8)
	scales := 1
	if nv {
		scales = 2
	}
	blockLoopN(4, [3]int{16, 64, scales}, func(k, si, di int, scale func(GPPhysical)) {
		lo, hi := Y0, Y1
		scale(RAX)
		SHLQ(U8(5), RAX)
		if nv {
			scale(RBX)
			SHLQ(U8(5), RBX)
			VMOVDQU(Mem{Base: R8, Index: RAX, Scale: 1}, lo.AsX())
			VINSERTI128(U8(1), Mem{Base: R8, Index: RBX, Scale: 1}, lo, lo)
			VMOVDQU(Mem{Base: R8, Index: RAX, Scale: 1, Disp: 16}, hi.AsX())
			VINSERTI128(U8(1), Mem{Base: R8, Index: RBX, Scale: 1, Disp: 16}, hi, hi)
		} else {
			VBROADCASTI128(Mem{Base: R8, Index: RAX, Scale: 1}, lo)
			VBROADCASTI128(Mem{Base: R8, Index: RAX, Scale: 1, Disp: 16}, hi)
		}
		// The codes as one byte an element: lane 0 elements 0-15, lane 1 elements 16-31.
		x, n0, n1 := Y4, Y5, Y6
		VBROADCASTI128(Mem{Base: RSI, Disp: si}, x)
		VPAND(low, x, n0)
		VPSRLW(U8(4), x, n1)
		VPAND(low, n1, n1)
		VPUNPCKLBW(n1, n0, x)
		VPUNPCKHBW(n1, n0, n0)
		VPBLENDD(U8(0xF0), n0, x, x)
		VPSHUFB(x, lo, n0)
		VPSHUFB(x, hi, n1)
		VPUNPCKLBW(n1, n0, x)  // words of elements 0-7 | 16-23
		VPUNPCKHBW(n1, n0, n0) // 8-15 | 24-31
		VPERM2I128(U8(0x20), n0, x, n1)
		VMOVDQU(n1, Mem{Base: RDI, Disp: di})
		VPERM2I128(U8(0x31), n0, x, n1)
		VMOVDQU(n1, Mem{Base: RDI, Disp: di + 32})
	})
}

// e4m3Setup broadcasts the constants of both paths' MXFP8E4M3 decoders (one and round only for
// bf16) and loads the scale table's address.
func e4m3Setup(typ string, magMask, pow120, qnan, signMask, one, round VecPhysical) {
	bcastD(0x07F00000, magMask) // a code's magnitude bits, shifted into a float32's fields
	bcastD(0x7B800000, pow120)  // 2^120
	bcastD(0x7FC00000, qnan)
	bcastD(0x80000000, signMask)
	if typ == "BF16" {
		bcastD(1, one)
		bcastD(0x7FFF, round)
	}
	scaleBase("MXFP8E4M3")
}

// e4m3DecodeAVX2 is e4m3DecodeAVX512 eight elements a register.
func e4m3DecodeAVX2(typ string) {
	magMask, pow120, qnan, signMask, one, round := Y15, Y14, Y13, Y12, Y11, Y10
	e4m3Setup(typ, magMask, pow120, qnan, signMask, one, round)
	blockLoop(func() {
		loadScaleY(0, Y0)
		for q := range 4 {
			c, m, s, k := Y1, ys[2+q%2*4], Y3, Y4
			VPMOVZXBD(Mem{Base: RSI, Disp: 8 * q}, c)
			VPSLLD(U8(20), c, m)
			VPAND(magMask, m, m)
			VPCMPEQD(magMask, m, k)
			VMULPS(pow120, m, m)
			VBLENDVPS(k, qnan, m, m)
			VPSLLD(U8(24), c, s)
			VPAND(signMask, s, s)
			VPOR(s, m, m)
			VMULPS(m, Y0, m)
			if typ == "F32" {
				VMOVUPS(m, Mem{Base: RDI, Disp: 32 * q})
				continue
			}
			roundBF16(m, s, one, round, VPAND)
			if q%2 == 1 {
				VPACKUSDW(m, Y2, m)
				VPERMQ(U8(0xD8), m, m)
				VMOVDQU(m, Mem{Base: RDI, Disp: 32 * (q / 2)})
			}
		}
		ADDQ(U32(32), RSI)
		if typ == "F32" {
			ADDQ(U32(128), RDI)
		} else {
			ADDQ(U32(64), RDI)
		}
		INCQ(RDX)
	})
}

// quantizeMXFP4AVX2 is quantizeMXFP4AVX512 eight values a register; the codes are narrowed to
// bytes, paired into nibbles and stored 16 bytes a block.
func quantizeMXFP4AVX2() {
	abs, c22, seven, eight, oneF, rnd, one, lowByte := Y15, Y14, Y13, Y12, Y11, Y10, Y9, Y8
	bcastD(0x7FFFFFFF, abs)
	bcastD(0x4A800000, c22)
	bcastD(7, seven)
	bcastD(8, eight)
	bcastD(0x3F800000, oneF)
	bcastD(0x1FFFFF+(1<<32-252<<22), rnd)
	bcastD(1, one)
	bcastW(0x00FF, lowByte)
	nanBlock, next := label("nanblock"), label("next")
	blockLoop(func() {
		for q := range 4 {
			VPAND(Mem{Base: RSI, Disp: 32 * q}, abs, ys[q])
		}
		VPMAXUD(Y0, Y1, Y4)
		VPMAXUD(Y2, Y3, Y5)
		VPMAXUD(Y4, Y5, Y4)
		VEXTRACTI128(U8(1), Y4, X5)
		VPMAXUD(X5, X4, X4)
		VPSHUFD(U8(0x4E), X4, X5)
		VPMAXUD(X5, X4, X4)
		VPSHUFD(U8(0xB1), X4, X5)
		VPMAXUD(X5, X4, X4)
		VMOVD(X4, EAX)
		CMPL(EAX, U32(0x7F800000))
		JAE(LabelRef(nanBlock))
		SHRL(U8(23), EAX)
		SUBL(U8(2), EAX)
		XORL(EBX, EBX)
		TESTL(EAX, EAX)
		CMOVLLT(EBX, EAX)
		MOVB(AL, Mem{Base: RDX})
		NEGL(EAX)
		ADDL(U32(254), EAX)
		SHLL(U8(23), EAX)
		VMOVD(EAX, X4)
		VPBROADCASTD(X4, Y4)
		for q := range 4 {
			a, c, s, k := ys[q], Y5, Y6, Y7
			VMULPS(Y4, a, a)
			VPSRLD(U8(22), a, s)
			VPAND(one, s, s)
			VPADDD(rnd, a, c)
			VPADDD(s, c, c)
			VPSRLD(U8(22), c, c)
			VADDPS(c22, a, s)
			VPSUBD(c22, s, s)
			VPCMPGTD(a, oneF, k) // a < 1
			VPBLENDVB(k, s, c, c)
			VPMINUD(seven, c, c)
			VMOVDQU(Mem{Base: RSI, Disp: 32 * q}, s)
			VPSRLD(U8(28), s, s)
			VPAND(eight, s, s)
			VPOR(s, c, a) // the codes replace the magnitudes
		}
		VPACKUSDW(Y1, Y0, Y0)
		VPACKUSDW(Y3, Y2, Y2)
		VPACKUSWB(Y2, Y0, Y0)
		VMOVDQU(rodata("blockPackOrder", 0x0000000400000000, 0x0000000500000001, 0x0000000600000002, 0x0000000700000003), Y5)
		VPERMD(Y0, Y5, Y0) // the 32 codes in order, a byte each
		VPSRLW(U8(4), Y0, Y1)
		VPOR(Y1, Y0, Y0)
		VPAND(lowByte, Y0, Y0)
		VEXTRACTI128(U8(1), Y0, X1)
		VPACKUSWB(X1, X0, X0)
		VMOVDQU(X0, Mem{Base: RDI})
		Label(next)
		ADDQ(U32(128), RSI)
		ADDQ(U32(16), RDI)
		INCQ(RDX)
	})
	Label(nanBlock)
	MOVB(U8(0xFF), Mem{Base: RDX})
	VPXOR(X0, X0, X0)
	VMOVDQU(X0, Mem{Base: RDI})
	JMP(LabelRef(next))
}

// roundBF16 rounds the float32 lanes of m to nearest even on their low 16 bits, leaving the
// bfloat16 in each lane's low half, as BF16FromF32 does for a non-NaN value: m + 0x7FFF +
// ((m>>16)&1), shifted right by 16. one and round hold 1 and 0x7FFF; s is scratch; and is
// VPAND (AVX2) or VPANDD (AVX-512).
func roundBF16(m, s, one, round Op, and func(a, b, c Op)) {
	VPSRLD(U8(16), m, s)
	and(one, s, s)
	VPADDD(round, m, m)
	VPADDD(s, m, m)
	VPSRLD(U8(16), m, m)
}
