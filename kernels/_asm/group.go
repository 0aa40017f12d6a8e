package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The group kernels of package quant: the dequantizers of its group rows, which stand for a
// family of schemes (NNCF's modes, computed in f16, docs/SEMANTICS.md §9.5) and take the group
// size at run time, a multiple of groupStep. Each element is f16(f32(f16(code − zero)) × scale):
// code − zero is exact in f16 and f32 (an integer of at most 9 bits, an f4e2m1 value, or an nf4
// value rounded to f16), and its product with an f16 scale (or an f8e8m0 scale rounded to f16)
// has at most 22 significant bits, exact in f32, so one VCVTPS2PH to nearest even rounds it as
// the specification does; an f32 destination receives that f16 value (VCVTPH2PS). A NaN product (a NaN scale, or an infinite scale times a zero
// difference, whose NaN x86 makes negative) becomes the positive quiet NaN 0x7FC00000.
//
// 4-bit codes: a group has only 16 values, one a code. Each group's 16 products are computed
// (VSUBPS, VMULPS), fixed up (when the scale is infinite or NaN, the only scales that give a NaN)
// and rounded to f16 once, and looked up by the codes: on AVX-512 by
// VPERMW (32 elements an instruction, the table in both 256-bit halves so that bit 4 of an index
// does not matter), on AVX2 by VPSHUFB in the table split into its low and high bytes.
//
// mxfp4 (f4e2m1 codes, an f8e8m0 scale): a group's 16 values depend on its scale byte alone, so
// they are not computed but loaded: quant/tables.go holds them for every scale byte, computed by
// the pure-Go loop's own functions (mxfp4GroupRows, and mxfp4GroupSplit for AVX2's VPSHUFB).
//
// 8-bit codes: each element is computed (VPMOVZXBD or VPMOVSXBD, VCVTDQ2PS, VSUBPS, VMULPS,
// VCVTPS2PH); a group whose scale is infinite or NaN takes a loop that also fixes NaNs up.
//
// Registers: DI = values, SI = codes, DX = scales, R10 = zero points, CX = groups left, R11 =
// group, R12 = steps of 32 left in the group, R9 = the shift of the current u4 zero point (0 or
// 4); AX and BX are scratch. Vectors: 0 the scale, 1 the zero point, 15 the quiet NaN; 4-bit
// codes: 14 (and 13) the codes' values, 5 (AVX2: 6, 7) the group's table.

// groupStep is the granule of the group size, quant's groupStep.
const groupStep = 32

// groupParams are a group kernel's parameters.
const groupParams = "dst, codes, scales, zeros []byte, groups, group int"

// groupKernel declares one group kernel.
type groupKernel struct {
	isa    *isa
	family string // package quant's family variable: int4Asym, int8Sym, mxfp4F16
	typ    string // the values' element constant: F32, F16
	doc    string
}

var groupKernels []*groupKernel

// name returns the kernel's name, its TEXT symbol.
func (k *groupKernel) name() string { return blockName(k.family, k.typ, true, k.isa.path) }

// groupFamilies describe the families: the code type's bits, its 16 values (4-bit codes), a
// signed 8-bit code, the zero point's type and the scale's.
var groupFamilies = map[string]struct {
	bits   int
	values []float32
	// valuesSym names package quant's variable that holds the 16 values, when values does not.
	valuesSym string
	signed    bool
	zero      string // "", "U4", "U8"
	e8m0      bool   // an f8e8m0 scale rather than an f16 one: the values come from quant's rows
	e4m3      bool   // f8e4m3 codes with an f32 scale, computed in f32 (groupfp8.go)
}{
	"fp8F32":   {bits: 8, e4m3: true},
	"int4Asym": {bits: 4, values: iota16(0), zero: "U4"},
	"int4Sym":  {bits: 4, values: iota16(-16)},
	"int8Asym": {bits: 8, zero: "U8"},
	"int8Sym":  {bits: 8, signed: true},
	"mxfp4F16": {bits: 4, e8m0: true},
	"nf4F16":   {bits: 4, valuesSym: "nf4GroupValues"},
	"fp4F16":   {bits: 4, valuesSym: "f4GroupValues"},
}

// iota16 returns the values of the 16 4-bit codes: 0..15, or with wrap -16, 0..7 then -8..-1.
func iota16(wrap int) []float32 {
	v := make([]float32, 16)
	for c := range v {
		x := c
		if wrap != 0 && c >= 8 {
			x += wrap
		}
		v[c] = float32(x)
	}
	return v
}

func init() {
	for _, a := range []*isa{avx512, avx2} {
		for _, f := range []string{"int4Asym", "int4Sym", "int8Asym", "int8Sym", "mxfp4F16", "nf4F16", "fp4F16"} {
			for _, typ := range []string{"F16", "F32"} {
				doc := "It looks a group's 16 values up by code."
				if groupFamilies[f].bits == 8 {
					doc = "It computes every element."
				}
				groupKernels = append(groupKernels, &groupKernel{isa: a, family: f, typ: typ, doc: doc})
			}
		}
		for _, typ := range []string{"BF16", "F32"} {
			groupKernels = append(groupKernels, &groupKernel{isa: a, family: "fp8F32", typ: typ, doc: "It computes every element in f32, the codes' values by shifts."})
		}
	}
}

// emitGroup writes the TEXT of k: the constants, then the group loop twice, with ordinary
// stores and with non-temporal ones (VMOVNTDQ, then SFENCE), which a call takes when its
// destination is aligned to a vector and holds at least groupStreamBytes bytes: a dequantized
// weight of that size does not stay in the cache anyway, and non-temporal stores save the
// destination's read for ownership.
func emitGroup(k *groupKernel) {
	labels = map[string]int{}
	TEXT(k.name(), NOSPLIT, "func("+groupParams+")")
	Load(Param("dst").Base(), RDI)
	Load(Param("codes").Base(), RSI)
	Load(Param("scales").Base(), RDX)
	Load(Param("zeros").Base(), R10)
	Load(Param("groups"), RCX)
	Load(Param("group"), R11)
	f := groupFamilies[k.family]
	v := k.isa.vec
	bcastD(0x7FC00000, v(15))
	XORL(R9L, R9L)
	done, stream, cached := label("done"), label("stream"), label("cached")
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	if f.bits == 4 {
		groupConsts4(k)
	}
	if f.e4m3 {
		fp8Setup(k)
	}
	// Streaming: dst aligned to a vector and groups·group·size ≥ groupStreamBytes.
	MOVQ(RCX, RAX)
	IMULQ(R11, RAX)
	size := 1
	if k.typ == "F32" {
		size = 2
	}
	SHLQ(U8(uint64(size)), RAX)
	CMPQ(RAX, sym("groupStreamBytes", 0))
	JB(LabelRef(cached))
	TESTQ(U32(uint64(k.isa.bytes-1)), RDI)
	JZ(LabelRef(stream))
	Label(cached)
	groupLoops(k, false)
	Label(done)
	ret()
	Label(stream)
	groupLoops(k, true)
	SFENCE()
	ret()
}

// groupLoops emits the group loop; for 4-bit codes twice, the first for a group that is a
// multiple of 128 (NNCF's default), whose steps need no loop control for a rest.
func groupLoops(k *groupKernel, nt bool) {
	if groupFamilies[k.family].bits == 8 {
		groupLoop(k, nt, false)
		return
	}
	other, end := label("other"), label("end")
	TESTQ(U32(127), R11)
	JNZ(LabelRef(other))
	groupLoop(k, nt, true)
	JMP(LabelRef(end))
	Label(other)
	groupLoop(k, nt, false)
	Label(end)
}

// groupConsts4 loads the constants of a 4-bit family's kernel: the codes' values (Z14, or Y14
// and Y13), and the index helpers (AVX-512: Z29, and Z28 for f32; AVX2: Y12, Y11).
func groupConsts4(k *groupKernel) {
	f := groupFamilies[k.family]
	if f.e8m0 {
		// The rows of quant/tables.go, whole (AVX-512) or split into low and high bytes (AVX2).
		if k.isa == avx512 {
			LEAQ(sym("mxfp4GroupRows", 0), R8)
			bcastD(1<<12|1, Z29)
			if k.typ == "F32" {
				nibbleCtl()
			}
		} else {
			LEAQ(sym("mxfp4GroupSplit", 0), R8)
			bcastD(0x0F0F0F0F, Y12)
		}
		return
	}
	var vals Mem
	if f.valuesSym != "" {
		vals = sym(f.valuesSym, 0)
	} else {
		vals = rodata("group"+k.family+"Values", f32Quads(f.values...)...)
	}
	if f.zero != "" {
		// Row z: the 16 codes' values minus z.
		var rows []float32
		for z := range 16 {
			for _, c := range f.values {
				rows = append(rows, c-float32(z))
			}
		}
		LEAQ(rodata("group"+k.family+"Rows", f32Quads(rows...)...), R8)
	}
	if k.isa == avx512 {
		VMOVUPS(vals, Z14)
		bcastD(1<<12|1, Z29)
		if k.typ == "F32" {
			nibbleCtl()
		}
		return
	}
	VMOVUPS(vals, Y14)
	VMOVUPS(vals.Offset(32), Y13)
	bcastD(0x0F0F0F0F, Y12)
	// Within each 128-bit lane: the low bytes of the 8 words, then their high bytes.
	VBROADCASTI128(rodata("groupSplitBytes", 0x0E0C0A0806040200, 0x0F0D0B0907050301), Y11)
}

// vecOf returns the register of v's number with the given size in bytes.
func vecOf(v VecPhysical, size uint) VecPhysical {
	var r Register
	switch size {
	case 16:
		r = v.AsX()
	case 32:
		r = v.AsY()
	default:
		r = v.AsZ()
	}
	return r.(VecPhysical)
}

// groupStore stores v at m, non-temporally when nt is set (VMOVNTDQ), else by VMOVDQU64 for a Z
// register and VMOVDQU for a smaller one.
func groupStore(v VecPhysical, m Mem, nt bool) {
	switch {
	case nt:
		VMOVNTDQ(v, m)
	case v.Size() == 64:
		VMOVDQU64(v, m)
	default:
		VMOVDQU(v, m)
	}
}

// groupSteps runs step over R12 steps of 32 elements, unroll a loop iteration while as many are
// left, then one at a time; step(si, di) emits a step at the byte offsets si and di from SI and
// DI, and the loop moves SI by 32·bits/8 and DI by 32·size a step. With exact, R12 is a
// multiple of unroll, and the loop has no code for the rest.
func groupSteps(unroll, sin, sout int, exact bool, step func(si, di int)) {
	big, single, one, end := label("steps"), label("single"), label("one"), label("stepped")
	if !exact {
		CMPQ(R12, U32(uint64(unroll)))
		JB(LabelRef(single))
	}
	Label(big)
	for u := range unroll {
		step(u*sin, u*sout)
	}
	ADDQ(U32(uint64(unroll*sin)), RSI)
	ADDQ(U32(uint64(unroll*sout)), RDI)
	SUBQ(U32(uint64(unroll)), R12)
	if exact {
		// R12 is a multiple of unroll.
		JNZ(LabelRef(big))
		return
	}
	CMPQ(R12, U32(uint64(unroll)))
	JAE(LabelRef(big))
	Label(single)
	TESTQ(R12, R12)
	JZ(LabelRef(end))
	Label(one)
	step(0, 0)
	ADDQ(U32(uint64(sin)), RSI)
	ADDQ(U32(uint64(sout)), RDI)
	DECQ(R12)
	JNZ(LabelRef(one))
	Label(end)
}

// groupLoop emits the loop over the groups (CX of them, at least one), with non-temporal stores
// when nt is set, for a group that is a multiple of 128 with by128.
func groupLoop(k *groupKernel, nt, by128 bool) {
	f := groupFamilies[k.family]
	z512 := k.isa == avx512
	v := k.isa.vec
	nan := v(15)
	top := label("group")
	Label(top)
	scale, zero := v(0), v(1)
	if f.e4m3 {
		MOVQ(R11, R12)
		SHRQ(U8(5), R12)
		fp8Group(k, nt)
		ADDQ(U32(4), RDX)
		DECQ(RCX)
		JNZ(LabelRef(top))
		return
	}
	if f.e8m0 {
		// The table is the scale's row of precomputed values (R8: the rows).
		MOVBLZX(Mem{Base: RDX}, EAX)
		SHLL(U8(5), EAX)
	} else {
		loadGroupScale(scale)
	}
	if f.zero != "" && f.bits == 8 {
		loadGroupZero(f.zero, zero)
	}
	MOVQ(R11, R12)
	SHRQ(U8(5), R12)
	out := 64 // bytes of 32 values
	if k.typ == "F32" {
		out = 128
	}
	if f.bits == 4 {
		vals := []VecPhysical{v(14), v(13)}
		n := 1
		if !z512 {
			n = 2
		}
		prods := []VecPhysical{v(2), v(3)}[:n]
		if f.zero != "" {
			// The group's zero point selects its row of code − zero point (R8: the rows).
			MOVBLZX(Mem{Base: R10}, EAX)
			SHRXL(R9L, EAX, EAX)
			ANDL(U32(15), EAX)
			SHLL(U8(6), EAX)
		}
		for i, p := range prods {
			if f.e8m0 {
				break
			}
			if f.zero != "" {
				VMULPS(Mem{Base: R8, Index: RAX, Scale: 1, Disp: 32 * i}, scale, p)
			} else {
				VMULPS(scale, vals[i], p)
			}
			// Only an infinite or NaN scale gives a NaN product: a finite one skips the fix-up
			// (a predicted branch is cheaper than VCMPPS and a masked move on every group).
			finite := label("finite")
			cmpScaleExp(EBX)
			JNE(LabelRef(finite))
			fixNaN(p, nan, v(4))
			Label(finite)
		}
		if z512 {
			t := Z5
			switch {
			case f.e8m0 && k.typ == "F16":
				VBROADCASTI64X4(Mem{Base: R8, Index: RAX, Scale: 1}, t)
			case f.e8m0:
				VCVTPH2PS(Mem{Base: R8, Index: RAX, Scale: 1}, t)
			case k.typ == "F16":
				VCVTPS2PH(U8(0), prods[0], t.AsY())
				VINSERTI64X4(U8(1), t.AsY(), t, t)
			default:
				VCVTPS2PH(U8(0), prods[0], t.AsY())
				VCVTPH2PS(t.AsY(), t)
			}
			groupSteps(4, 16, out, by128, func(si, di int) {
				if k.typ == "F16" {
					idx := zs[6+si/16]
					VPMOVZXBD(Mem{Base: RSI, Disp: si}, idx)
					VPMULLD(Z29, idx, idx) // byte j | byte j << 12: codes 2j and 2j+1 in its words
					VPERMW(t, idx, idx)
					groupStore(idx, Mem{Base: RDI, Disp: di}, nt)
					return
				}
				for h := range 2 {
					idx := zs[6+2*(si/16)+h]
					VPMULTISHIFTQB_BCST(Mem{Base: RSI, Disp: si + 8*h}, Z28, idx)
					VPERMPS(t, idx, idx)
					groupStore(idx, Mem{Base: RDI, Disp: di + 64*h}, nt)
				}
			})
		} else {
			// The 16 f16 values in one register, split into a table of their low bytes and one of
			// their high bytes, each in both 128-bit lanes.
			t := Y5
			tlo, thi := Y6, Y7
			if f.e8m0 {
				VBROADCASTI128(Mem{Base: R8, Index: RAX, Scale: 1}, tlo)
				VBROADCASTI128(Mem{Base: R8, Index: RAX, Scale: 1, Disp: 16}, thi)
			} else {
				VCVTPS2PH(U8(0), prods[0], t.AsX())
				VCVTPS2PH(U8(0), prods[1], X6)
				VINSERTI128(U8(1), X6, t, t)
				VPSHUFB(Y11, t, t)
				VPERMQ(U8(0xD8), t, t)
				VPERM2I128(U8(0x00), t, t, tlo)
				VPERM2I128(U8(0x11), t, t, thi)
			}
			groupSteps(4, 16, out, by128, func(si, di int) {
				c, hi := X8, X9
				VMOVDQU(Mem{Base: RSI, Disp: si}, c)
				VPSRLW(U8(4), c, hi)
				VPAND(X12, c, c)
				VPAND(X12, hi, hi)
				idx := Y10
				VPUNPCKHBW(hi, c, X4)
				VPUNPCKLBW(hi, c, idx.AsX())
				VINSERTI128(U8(1), X4, idx, idx) // the codes of elements 0..15, then 16..31
				lb, hb := Y3, Y4
				VPSHUFB(idx, tlo, lb)
				VPSHUFB(idx, thi, hb)
				w0, w1 := Y1, Y2
				VPUNPCKLBW(hb, lb, w0) // elements 0..7 | 16..23
				VPUNPCKHBW(hb, lb, w1) // elements 8..15 | 24..31
				if k.typ == "F16" {
					VPERM2I128(U8(0x20), w1, w0, Y3)
					VPERM2I128(U8(0x31), w1, w0, Y4)
					groupStore(Y3, Mem{Base: RDI, Disp: di}, nt)
					groupStore(Y4, Mem{Base: RDI, Disp: di + 32}, nt)
					return
				}
				VCVTPH2PS(w0.AsX(), Y3)
				groupStore(Y3, Mem{Base: RDI, Disp: di}, nt)
				VCVTPH2PS(w1.AsX(), Y3)
				groupStore(Y3, Mem{Base: RDI, Disp: di + 32}, nt)
				VEXTRACTI128(U8(1), w0, X3)
				VCVTPH2PS(X3, Y3)
				groupStore(Y3, Mem{Base: RDI, Disp: di + 64}, nt)
				VEXTRACTI128(U8(1), w1, X3)
				VCVTPH2PS(X3, Y3)
				groupStore(Y3, Mem{Base: RDI, Disp: di + 96}, nt)
			})
		}
	} else {
		// An infinite or NaN scale takes the loop that fixes NaNs up.
		fix, next := label("fix"), label("next")
		cmpScaleExp(EAX)
		JE(LabelRef(fix))
		bytes8(k, f.signed, f.zero != "", false, nt)
		JMP(LabelRef(next))
		Label(fix)
		bytes8(k, f.signed, f.zero != "", true, nt)
		Label(next)
	}
	// Next group: its scale and zero point.
	if f.e8m0 {
		INCQ(RDX)
	} else {
		ADDQ(U32(2), RDX)
	}
	switch f.zero {
	case "U8":
		INCQ(R10)
	case "U4":
		// The shift alternates 0, 4; the pointer moves on after the high nibble.
		MOVQ(R9, RAX)
		SHRQ(U8(2), RAX)
		ADDQ(RAX, R10)
		XORL(U32(4), R9L)
	}
	DECQ(RCX)
	JNZ(LabelRef(top))
}

// bytes8 emits the loop over a group's steps of 32 8-bit codes (R12 of them, at least one),
// fixing NaN products up when fix is set, storing non-temporally when nt is.
func bytes8(k *groupKernel, signed, zp, fix, nt bool) {
	v := k.isa.vec
	scale, zero, nan := v(0), v(1), v(15)
	lanes := k.isa.bytes / 4
	out := 64
	if k.typ == "F32" {
		out = 128
	}
	groupSteps(2, 32, out, false, func(si, di int) {
		for j := 0; j < 32; j += lanes {
			r := 2 + j/lanes + (si/32)*(32/lanes)
			x := v(r)
			if signed {
				VPMOVSXBD(Mem{Base: RSI, Disp: si + j}, x)
			} else {
				VPMOVZXBD(Mem{Base: RSI, Disp: si + j}, x)
			}
			VCVTDQ2PS(x, x)
			if zp {
				VSUBPS(zero, x, x)
			}
			VMULPS(scale, x, x)
			if fix {
				fixNaN(x, nan, v(10+j/lanes))
			}
			h := VecPhysical(Y2)
			if lanes == 8 {
				h = X2
			}
			h = vecOf(x, h.Size())
			if k.typ == "F16" && !nt {
				VCVTPS2PH(U8(0), x, Mem{Base: RDI, Disp: di + 2*j})
				continue
			}
			VCVTPS2PH(U8(0), x, h)
			if k.typ == "F16" {
				groupStore(h, Mem{Base: RDI, Disp: di + 2*j}, nt)
			} else {
				VCVTPH2PS(h, x)
				groupStore(x, Mem{Base: RDI, Disp: di + 4*j}, nt)
			}
		}
	})
}

// loadGroupScale broadcasts the current group's f16 scale (at DX), as float32, into v.
func loadGroupScale(v VecPhysical) {
	if v.Size() == 64 {
		VPBROADCASTW(Mem{Base: RDX}, v.AsY())
		VCVTPH2PS(v.AsY(), v)
	} else {
		VPBROADCASTW(Mem{Base: RDX}, v.AsX())
		VCVTPH2PS(v.AsX(), v)
	}
}

// loadGroupZero broadcasts the current group's zero point, as float32, into v: u8 at R10, u4
// the nibble of R10's byte at shift R9.
func loadGroupZero(t string, v VecPhysical) {
	MOVBLZX(Mem{Base: R10}, EAX)
	if t == "U4" {
		SHRXL(R9L, EAX, EAX)
		ANDL(U32(15), EAX)
	}
	VCVTSI2SSL(EAX, v.AsX(), v.AsX())
	VBROADCASTSS(v.AsX(), v)
}

// fixNaN replaces the NaN lanes of x by nan, with tmp as scratch (AVX2; AVX-512 uses K1).
func fixNaN(x, nan, tmp VecPhysical) {
	const unordered = 3
	if x.Size() == 64 {
		VCMPPS(U8(unordered), x, x, K1)
		VMOVAPS(nan, K1, x)
		return
	}
	VCMPPS(U8(unordered), x, x, tmp)
	VBLENDVPS(tmp, nan, x, x)
}

// nibbleCtl returns the VPMULTISHIFTQB control that puts element i's code (nibble i of the
// broadcast quadword of 16 codes) at the bottom of dword i, in Z28.
func nibbleCtl() VecPhysical {
	var c []byte
	for q := range 8 {
		for j := range 8 {
			c = append(c, byte(8*q+4*(j/4)))
		}
	}
	VMOVDQU64(rodata("blockNibbleDwords", byteQuads(c)...), Z28)
	return Z28
}

// cmpScaleExp compares the exponent field of the current group's f16 scale (at DX), loaded into
// r, with all ones: equal (JE) for an infinite or NaN scale, the only scales that give NaNs.
func cmpScaleExp(r GPPhysical) {
	MOVWLZX(Mem{Base: RDX}, r)
	ANDL(U32(0x7C00), r)
	CMPL(r, U32(0x7C00))
}
