package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The kernels of the rule sets (ruleRegistry in registry.go): float32, f16 and bf16 to the
// float8 types by one rounding to nearest even, as f8FromF32 in rules_codec.go computes it. A
// row's loop names the encoder constant (encE4M3Sat, …) that it passes to f8FromF32; the
// generator reads the constant's value from rules_codec.go, so the kernels and the pure-Go loop
// take their format from one place.

// f8Enc is an encoder constant of rules_codec.go, unpacked as f8Enc's methods unpack it.
type f8Enc struct {
	mant, bias, clamp, nan uint32
	fnuz                   bool
}

func (e f8Enc) shift() uint32     { return 23 - e.mant }
func (e f8Enc) minNormal() uint32 { return (128 - e.bias) << 23 }
func (e f8Enc) magic() uint32     { return (151 - e.bias - e.mant) << 23 }
func (e f8Enc) offset() uint32    { return (127 - e.bias) << e.mant }

// nanOwnCode reports whether a NaN needs a code of its own: not when it gets the clamp code
// (f8e4m3 without saturation, whose overflow is the NaN 0x7F, and the FNUZ types', whose
// overflow and NaN are both 0x80 once the sign is added), since a NaN's magnitude bits are above
// every finite value's and it is clamped with them.
func (e f8Enc) nanOwnCode() bool { return e.nan != e.clamp && !(e.fnuz && e.clamp == 0x80) }

// f8EncOf unpacks an f8Enc constant's value.
func f8EncOf(u uint64) f8Enc {
	return f8Enc{mant: uint32(u & 0xF), bias: uint32(u >> 4 & 0xFF), clamp: uint32(u >> 12 & 0xFF),
		nan: uint32(u >> 20 & 0xFF), fnuz: u>>28&1 != 0}
}

// readEncoders evaluates the constants whose names start with enc in the Go file at path.
func readEncoders(path string) (map[string]uint64, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	encs := map[string]uint64{}
	var eval func(e ast.Expr) (constant.Value, error)
	eval = func(e ast.Expr) (constant.Value, error) {
		switch e := e.(type) {
		case *ast.BasicLit:
			return constant.MakeFromLiteral(e.Value, e.Kind, 0), nil
		case *ast.ParenExpr:
			return eval(e.X)
		case *ast.BinaryExpr:
			x, err := eval(e.X)
			if err != nil {
				return nil, err
			}
			y, err := eval(e.Y)
			if err != nil {
				return nil, err
			}
			if e.Op == token.SHL {
				s, _ := constant.Uint64Val(y)
				return constant.Shift(x, token.SHL, uint(s)), nil
			}
			return constant.BinaryOp(x, e.Op, y), nil
		}
		return nil, fmt.Errorf("%s: not an integer constant expression", fset.Position(e.Pos()))
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for k, n := range vs.Names {
				if !regexp.MustCompile(`^enc[A-Z]`).MatchString(n.Name) || k >= len(vs.Values) {
					continue
				}
				v, err := eval(vs.Values[k])
				if err != nil {
					return nil, err
				}
				u, ok := constant.Uint64Val(v)
				if !ok {
					return nil, fmt.Errorf("%s: %s is not an unsigned constant", path, n.Name)
				}
				encs[n.Name] = u
			}
		}
	}
	return encs, nil
}

// encName finds the encoder constant a row's loop names.
var encName = regexp.MustCompile(`\benc[A-Z]\w*`)

// ruleKernels declares the AVX2 and AVX-512 kernels of the rows of ruleRegistry to the float8
// types (f8FromF32's encoders).
func ruleKernels() { ruleKernelsWhere(func(r row) bool { return f8Target(r.to) }) }

// ruleOtherKernels declares the rest of ruleRegistry's kernels, to f16, bf16 and f8e8m0, in a
// file of their own (rules_amd64.s alone would pass 2 MiB).
func ruleOtherKernels() { ruleKernelsWhere(func(r row) bool { return !f8Target(r.to) }) }

// f8Target reports whether t is one of the float8 targets of f8FromF32's encoders.
func f8Target(t string) bool {
	return t != "F16" && t != "BF16" && t != "F8E8M0"
}

// ruleKernelsWhere declares the AVX2 and AVX-512 kernels of the rows of ruleRegistry for which
// keep is true.
func ruleKernelsWhere(keep func(row) bool) {
	rows, err := readRuleRegistry(filepath.Join(*dir, "registry.go"))
	if err != nil {
		fatal(err)
	}
	encs, err := readEncoders(filepath.Join(*dir, "rules_codec.go"))
	if err != nil {
		fatal(err)
	}
	for _, r := range rows {
		if !keep(r) {
			continue
		}
		if r.to == "F16" || r.to == "BF16" {
			wideKernels(r)
			continue
		}
		name := encName.FindString(r.loop)
		u, ok := encs[name]
		if !ok {
			fatal(fmt.Errorf("ruleRegistry row %s → %s under %s: its loop names no encoder constant of rules_codec.go", r.from, r.to, r.rulesLit))
		}
		if r.to == "F8E8M0" {
			e8m0Kernels(r, u, "lut"+strings.ToUpper(name[:1])+name[1:])
			continue
		}
		e := f8EncOf(u)
		for _, a := range []*isa{avx2, avx512} {
			if !r.has(a.path) {
				continue
			}
			a, r := a, r
			k := &kernel{name: pairName(r.from, r.to, r.rules+a.path), isa: a, from: r.from, to: r.to, rules: r.rules,
				doc: []string{f8EncDoc}, body: func() { f8EncodeRulesAVX2(r.from, e) }}
			if a == avx512 {
				table := "lut" + strings.ToUpper(name[:1]) + name[1:]
				k.doc = []string{fmt.Sprintf(f8LookupDoc, table)}
				if r.from == "BF16" || r.from == "F32" && (e.mant != 3 || e.fnuz) {
					k.doc = append(k.doc, bf16FastDoc)
				}
				k.body = func() { f8EncodeLookupAVX512(r.from, e, table, false) }
			}
			if r.from == "F16" {
				k.doc = append(k.doc, f16RouteDoc)
			}
			add(k)
			if a == avx512 && r.nt != 0 {
				ntBlock(r, 64)
				table := "lut" + strings.ToUpper(name[:1]) + name[1:]
				add(&kernel{name: pairName(r.from, r.to, r.rules+"AVX512NT"), isa: avx512, from: r.from, to: r.to, rules: r.rules,
					nt: true, noFrame: true, doc: []string{fmt.Sprintf(f8LookupDoc, table), f8LookupNTDoc},
					body: func() { f8EncodeLookupAVX512(r.from, e, table, true) }})
			}
		}
	}
}

// ntBlock stops the generator when the non-temporal block of row r is not v, the block of its
// AVX-512 kernels.
func ntBlock(r row, v int) {
	if r.nt != v {
		fatal(fmt.Errorf("ruleRegistry row %s → %s under %s: non-temporal block %d, but its AVX-512 block is %d elements", r.from, r.to, r.rulesLit, r.nt, v))
	}
}

// f8LookupNTDoc says which route the non-temporal float8 encoders take.
const f8LookupNTDoc = "Every block takes that lookup route: a fast route's redo would store twice to the same bytes, " +
	"which non-temporal stores do not order."

// f8EncDoc says how the rule-set float8 encoders compute their loop.
const f8EncDoc = "It widens the source to float32 and computes f8FromF32's steps on 32-bit lanes: the magnitude's " +
	"bits rounded to the target's mantissa by integer arithmetic and rebiased, " +
	"the lanes below the smallest normal replaced by the magic-number addition, the clamp (VPMINUD), the NaN " +
	"code and the sign; then packs the codes to bytes."

// f8LookupDoc says how the AVX-512 rule-set float8 encoders compute their loop; %s is the table.
const f8LookupDoc = "It converts a float32 or bfloat16 source to binary16 rounded to odd (VCVTPS2PH truncating, and the " +
	"last bit set where one of the source's 18 low bits is; for f8e4m3 and f8e4m3fnuz, which round every binary16 " +
	"subnormal to zero, bit 13 set before the conversion where one of bits 0 to 12 is), then looks up the codes as the OpenVINO " +
	"encoders do (VPERMI2B on the high bytes, two thresholds on the low bytes) in %s, built from f8FromF32 " +
	"(rules_tables_amd64.go), and gives the magnitudes the table cannot express (NaN, and for the FNUZ types " +
	"overflow without saturation) their code."

// bf16FastDoc says how the AVX-512 bf16 → float8 encoders take their fast route (bf16Fast).
const bf16FastDoc = "Groups of 256 elements whose magnitudes lie where the code has the normal form take two lookups " +
	"instead: min(t[H&63] + step·(L>>7) + r[L&0x7F], clamp) with the sign of H, from the bfloat16's bytes H and L " +
	"(bf16FastTab, built from f8FromF32); a float32 source gives its high halves with bit 0 set where the low half " +
	"is not zero (the bfloat16 rounded to odd, whose code is the float32's)."

// f16RouteDoc says how the AVX-512 rule-set f16 → f8e4m3 and f8e5m2 encoders take OpenVINO's fast
// route (f16Route).
const f16RouteDoc = "Groups where the encoder gives OpenVINO's codes take OpenVINO's fast routes: " +
	"f8e4m3 and f8e4m3fnuz the normal rule when every magnitude is in the format's normal range (normalRange), " +
	"f8e5m2 the rounding of the binary16 bits when none is NaN (for a saturating encoder, none rounds past the " +
	"largest finite code), f8e5m2fnuz that rounding four codes higher when every magnitude is a binary16 normal " +
	"that does not round past the largest finite code."

// Registers of the AVX2 float8 encoders' constants, Y15 down (the NaN code, 0x7F800000 and 0x80
// are memory operands, for want of registers, and Y8 holds the VPERMD indices of the packing).
const (
	rcAbs   = iota // 0x7FFFFFFF
	rcMin          // e.minNormal()
	rcMagic        // e.magic()
	rcOff          // e.offset()
	rcClamp        // e.clamp
	rcHalf         // 1<<(shift-1) - 1
	rcOne          // 1
)

// f8EncConsts loads the AVX2 encoders' constants into reg(rc…).
func f8EncConsts(e f8Enc, reg func(int) VecPhysical) {
	bcastD(0x7FFFFFFF, reg(rcAbs))
	bcastD(e.minNormal(), reg(rcMin))
	bcastD(e.magic(), reg(rcMagic))
	bcastD(e.offset(), reg(rcOff))
	bcastD(e.clamp, reg(rcClamp))
	bcastD(1<<(e.shift()-1)-1, reg(rcHalf))
	bcastD(1, reg(rcOne))
}

// dwords32 returns the read-only 32 bytes name<> holding the dword c eight times.
func dwords32(name string, c uint32) Mem {
	q := uint64(c) | uint64(c)<<32
	return rodata(fmt.Sprintf("%s%x", name, c), q, q, q, q)
}

// loadF32 loads the k-th vector of float32 (as bits) of a block that starts at i(SI) into x,
// widening an f16 or bf16 source.
func loadF32(a *isa, from string, i, k int, x VecPhysical) {
	switch from {
	case "F32":
		if a == avx512 {
			VMOVDQU32(src(i+k*a.bytes), x)
		} else {
			VMOVDQU(src(i+k*a.bytes), x)
		}
	case "F16":
		VCVTPH2PS(src(i+k*a.bytes/2), x)
	case "BF16":
		VPMOVZXWD(src(i+k*a.bytes/2), x)
		VPSLLD(U8(16), x, x)
	}
}

// f8EncodeRulesAVX2 is the AVX2 body: 32 elements a block, four vectors of 8 lanes (codes in Y0
// to Y3), each through f8FromF32's steps with the normal lanes rounded by integer arithmetic and
// the lanes below the smallest normal blended in (VPBLENDVB), packed to bytes as the integer
// kernels pack (packOrder).
func f8EncodeRulesAVX2(from string, e f8Enc) {
	y := func(i int) VecPhysical { return ys[15-i] }
	consts := func() {
		f8EncConsts(e, y)
		VMOVDQU(packOrder(), Y8)
	}
	consts()
	x, a, t, m := Y4, Y5, Y6, Y7
	body := func(i, o int) {
		for k := range 4 {
			c := ys[k]
			loadF32(avx2, from, i, k, x)
			VPAND(y(rcAbs), x, a)
			VPSRLD(U8(e.shift()), a, t)
			VPAND(y(rcOne), t, t)
			VPADDD(y(rcHalf), a, c)
			VPADDD(t, c, c)
			VPSRLD(U8(e.shift()), c, c)
			VPSUBD(y(rcOff), c, c)
			VADDPS(y(rcMagic), a, t)
			VPSUBD(y(rcMagic), t, t)
			VPCMPGTD(a, y(rcMin), m)
			VPBLENDVB(m, t, c, c)
			VPMINUD(y(rcClamp), c, c)
			if e.nanOwnCode() {
				VPCMPGTD(dwords32("f8Inf", 0x7F800000), a, m)
				VPBLENDVB(m, dwords32("f8Code", e.nan), c, c)
			}
			VPSRLD(U8(24), x, x)
			VPAND(dwords32("f8Code", 0x80), x, x)
			if e.fnuz {
				VPXOR(m, m, m)
				VPCMPEQD(m, c, m)
				VPANDN(x, m, x)
			}
			VPOR(x, c, c)
		}
		packCodes(avx2, [4]VecPhysical{Y0, Y1, Y2, Y3}, Y8, o)
	}
	if from == "F16" {
		loopFast(avx2, f16RouteAVX2(e), body, consts, block{32, 64, 32})
		return
	}
	loop(avx2, body, block{32, 32 * bytesOf(from), 32})
}

// f16RouteAVX2 is f16Route's AVX2 counterpart, OpenVINO's AVX2 fast routes: f8e4m3's in the
// normal range; f8e5m2's where every M = H&0x7F is at most 0x7B (no NaN, no infinity), or for a
// saturating encoder at most 0x7A, whose magnitudes do not round past its clamp code.
func f16RouteAVX2(e f8Enc) fastRoute {
	switch {
	case e.mant == 3:
		return e4m3FastAVX2(f16f8AVX2, e.normalRange())
	case e.fnuz:
		return e5m2FNUZFastAVX2()
	}
	switch e.clamp {
	case 0x7B:
		return e5m2FastAVX2(0x7A)
	case 0x7C:
		return e5m2FastAVX2(0x7B)
	}
	fatal(fmt.Errorf("f8e5m2 encoder with clamp code %#x: no fast route for it", e.clamp))
	return fastRoute{}
}

// f8EncodeLookupAVX512 is the AVX-512 body of the encoders with a table (rules_tables_amd64.go:
// lut and the encoder's name): 64 elements a block. A float32 or bfloat16 source goes to
// binary16 rounded to odd: VCVTPS2PH truncating, and the last bit set (a masked VPORD of the
// vector with that bit, through VMOVDQU16) where the truncation may have dropped a bit; then the binary16
// lookups of the OpenVINO encoders (toF8), the magnitudes at or above the table's fixFrom (K4)
// given its fixCode, and for the FNUZ types a -0 code turned into 0x00.
func f8EncodeLookupAVX512(from string, e f8Enc, table string, nt bool) {
	// The FNUZ types with saturation correct NaN alone (0x80; infinity saturates), and from
	// f32 and bf16 every NaN is quiet: its high byte, less the sign, is above 0x7C, which a
	// compare of the high bytes gathered for the lookup finds.
	byteNaN := e.fnuz && e.clamp != 0x80 && from != "F16"
	// A target whose smallest subnormal is 2^-13 or more (f8e4m3, f8e4m3fnuz) rounds every
	// binary16 subnormal to zero whatever was dropped: only the binary16 normals need their last
	// bit right, and that bit is the float32's bit 13.
	normalsOnly := 1-int(e.bias)-int(e.mant) >= -13
	// consts loads the constants of body (bf16Words adds its own), again after a fast route
	// that uses some of the same registers.
	consts := func() {
		toF8Consts(table, 0xBFBFBFBF) // the s2 of every rule-set table (ruleEncTable)
		bcastW(0x7FFF, Z21)
		VPBROADCASTW(sym(table, 256), Z20)
		VPBROADCASTB(sym(table, 258), Z19)
		VPXORD(Z24, Z24, Z24)
		if e.fnuz {
			bcastD(0x7F7F7F7F, Z14) // the sign step's byte add; the NaN compare's magnitude mask
		}
		if byteNaN {
			bcastD(0x7C7C7C7C, Z15)
		}
		if normalsOnly {
			bcastD(0x1FFF, Z17)
			bcastD(0x2000, Z18)
		} else {
			bcastD(0x3FFFF, Z17)
			bcastW(1, Z18)
		}
	}
	consts()
	// toF16 converts the 16 float32 (or bfloat16) of vector k at i(SI) to binary16 rounded to odd
	// in the Y half of r, with t and u as scratch. In general the last bit is set where any of the
	// float32's 18 low bits is (K5): that covers every bit VCVTPS2PH drops from a binary16
	// subnormal of 2^-19 or more, below which every float8 target rounds to zero anyway, and a bit
	// it keeps is below the rounding position of every target, so setting the last bit for it
	// changes nothing. For normalsOnly targets bit 13 is set before the conversion where one of
	// bits 0 to 12 is, one masked VPORD. A bfloat16 source takes this route only for the other
	// targets, in the blocks bf16Words hands it.
	toF16 := func(i, k int, r, t, u VecPhysical) {
		if from == "BF16" {
			VPMOVZXWD(src(i+32*k), t)
			VPSLLD(U8(16), t, t)
		} else {
			VMOVDQU32(src(i+64*k), t)
		}
		switch {
		case normalsOnly:
			VPTESTMD(Z17, t, K5)
			VPORD(Z18, t, K5, t)
			VCVTPS2PH(U8(3), t, half(r))
		default:
			VPTESTMD(Z17, t, K5)
			VCVTPS2PH(U8(3), t, half(r))
			VPORD(half(Z18), half(r), half(u))
			VMOVDQU16(half(u), K5, half(r))
		}
	}
	// wide converts the block at i(SI) to binary16 in Z0 and Z1 through float32, with Z4–Z7 as
	// scratch.
	wide := func(i int) {
		toF16(i, 0, Z0, Z4, Z5)
		toF16(i, 1, Z6, Z4, Z5)
		toF16(i, 2, Z1, Z4, Z5)
		toF16(i, 3, Z7, Z4, Z5)
		VINSERTI64X4(U8(1), Y6, Z0, Z0)
		VINSERTI64X4(U8(1), Y7, Z1, Z1)
	}
	var words func(i int)
	if from == "BF16" {
		words = bf16Words(e, wide)
	}
	body := func(i, o int) {
		switch from {
		case "F16":
			VMOVDQU64(src(i), Z0)
			VMOVDQU64(src(i+64), Z1)
		case "BF16":
			words(i)
		default:
			wide(i)
		}
		// See ruleEncTable: the table holds a quiet NaN's code, which is every NaN from f32 and
		// bf16, and a NaN code one above infinity's (the clamp code) for every NaN.
		fix := e.fnuz || e.nan != e.clamp && e.nan != e.clamp+1 && from == "F16"
		if fix && !byteNaN {
			VPANDD(Z21, Z0, Z5)
			VPCMPUW(U8(5), Z20, Z5, K4)
			VPANDD(Z21, Z1, Z6)
			VPCMPUW(U8(5), Z20, Z6, K5)
			KUNPCKDQ(K4, K5, K4)
		}
		toF8Codes()
		if byteNaN {
			VPANDD(Z14, Z0, Z5)
			VPCMPUB(U8(6), Z15, Z5, K4)
		}
		if fix && !e.fnuz {
			VMOVDQU8(Z19, K4, Z3)
		}
		if !e.fnuz {
			toF8Sign()
		} else {
			// The FNUZ types have no negative zero: the sign goes on only where the magnitude m
			// (bits 0 to 6) is not zero. code + 0x7F carries into bit 7 exactly when m ≠ 0, so
			// bit 7 of code ^ (code + 0x7F) is m ≠ 0 whatever bit 7 held (the two-step flag);
			// two VPTERNLOGD put it, ANDed with the sign, in bit 7. Then NaN's 0x80.
			VPADDB(Z14, Z3, Z5)
			VPTERNLOGD(U8(0x78), Z22, Z5, Z3) // bit 7: code ^ (code + 0x7F); bits 0-6: code
			VPTERNLOGD(U8(0xD0), Z22, Z0, Z3) // bit 7: that & the sign
			VMOVDQU8(Z19, K4, Z3)
		}
		groupStore(Z3, dst(o), nt)
	}
	if nt {
		loopNT(body, block{64, 64 * bytesOf(from), 64})
		return
	}
	switch from {
	case "F16":
		loopFast(avx512, f16Route(e), body, consts, block{64, 128, 64})
		return
	case "BF16":
		loopFast(avx512, bf16Fast("bf16Fast"+strings.TrimPrefix(table, "lut"), false), body, consts, block{64, 128, 64})
		return
	case "F32":
		// Not for f8e4m3 itself, whose lookup route from f32 carries no NaN step and measured
		// faster than this one.
		if e.mant == 3 && !e.fnuz {
			break
		}
		loopFast(avx512, bf16Fast("bf16Fast"+strings.TrimPrefix(table, "lut"), true), body, consts, block{64, 256, 64})
		return
	}
	loop(avx512, body, block{64, 64 * bytesOf(from), 64})
}

// bf16Fast is the fast route of the AVX-512 bf16 → float8 encoders (with f32, of the f32 ones
// but f8e4m3's: the float32's high halves rounded to odd first), with the encoder's table
// (bf16FastTab in rules_tables_amd64.go, built from f8FromF32): within its range of high bytes M
// of the bfloat16 magnitudes (from 2^-5 or 2^-13 up, where the code has the normal form), the
// code is min(t[H&63] + step·(L>>7) + r[L&0x7F], clamp) with the sign bit of H: one VPERMB by H,
// one VPERMI2B by L, for 64 elements. Z6 keeps the unsigned maximum of M - low; a group stands
// when it is at most span. Its consts load the table: Z14 = t, Z16:Z15 = r, Z17 = step, Z18 =
// clamp, Z19 = low, Z20 = span, Z24 = 0x7F (bytes), Z6 = 0; it uses toF8Consts' Z31, Z30 and Z22.
func bf16Fast(table string, f32 bool) fastRoute {
	return fastRoute{
		fast: func(i, o int) {
			if f32 {
				// The float32's high halves with bit 0 set where the low half is not zero: the
				// bfloat16 rounded to odd, whose code (two or more bits below every target's
				// precision) is the float32's.
				for k, z := range []VecPhysical{Z0, Z2, Z1, Z3} {
					f32Sticky(src(i+64*k), z, Z7, Z8, K1)
				}
				VPERMT2W(Z2, Z9, Z0)
				VPERMT2W(Z3, Z9, Z1)
			} else {
				VMOVDQU64(src(i), Z0)
				VMOVDQU64(src(i+64), Z1)
			}
			toF8Split()
			VPANDD(Z24, Z0, Z3)
			VPSUBB(Z19, Z3, Z3)
			VPMAXUB(Z3, Z6, Z6)
			VPERMB(Z14, Z0, Z4)
			VMOVDQA64(Z2, Z5)
			VPERMI2B(Z16, Z15, Z5)
			VPADDB(Z5, Z4, Z4)
			VPMOVB2M(Z2, K1)
			VPADDB(Z17, Z4, K1, Z4)
			VPMINUB(Z18, Z4, Z4)
			VPTERNLOGD(U8(0xF8), Z22, Z0, Z4) // the code | H&0x80
			VMOVDQU64(Z4, dst(o))
		},
		ok: func() {
			VPCMPUB(U8(6), Z20, Z6, K1)
			KORTESTQ(K1, K1)
		},
		consts: func() {
			VMOVDQU64(sym(table, 0), Z14)
			VMOVDQU64(sym(table, 64), Z15)
			VMOVDQU64(sym(table, 128), Z16)
			VPBROADCASTB(sym(table, 192), Z17)
			VPBROADCASTB(sym(table, 193), Z18)
			VPBROADCASTB(sym(table, 194), Z19)
			VPBROADCASTB(sym(table, 195), Z20)
			bcastD(0x7F7F7F7F, Z24)
			if f32 {
				bcastD(0xFFFF, Z7)
				bcastD(0x10000, Z8)
				VMOVDQU64(sym("oddWords", 0), Z9)
			}
			VPXORD(Z6, Z6, Z6)
		},
	}
}

// normalRange returns the normal range of e's fast route, f8e4m3's or f8e4m3fnuz's.
func (e f8Enc) normalRange() normalRange {
	if e.fnuz {
		return e4m3fnuzRange
	}
	return e4m3Range
}

// f16Route is the fast route of the rule-set f16 → f8e4m3, f8e4m3fnuz and f8e5m2 encoders (e),
// OpenVINO's encoders' (e4m3Normal, e5m2Route): in the groups it takes, every encoder of the
// format gives OpenVINO's codes (f8e4m3fnuz: those of the same rule over its own range).
// f8e4m3's covers the normal range, where none overflows; f8e5m2's every
// magnitude up to 0x7C00 (overflow and infinity round to infinity's code, the clamp code of the
// encoders that do not saturate), or for a saturating encoder up to 0x7B7F, the largest that
// does not round past its clamp code (Z9).
func f16Route(e f8Enc) fastRoute {
	switch {
	case e.mant == 3:
		return e4m3Normal(e.normalRange(), true)
	case e.fnuz:
		return e5m2FNUZRoute()
	}
	limit := Z14
	switch e.clamp {
	case 0x7B:
		bcastW(0x7B7F, Z9)
		limit = Z9
	case 0x7C:
	default:
		fatal(fmt.Errorf("f8e5m2 encoder with clamp code %#x: no fast route for it", e.clamp))
	}
	e5m2Consts()
	return e5m2Route(e5m2F16, limit, true)
}

// bf16Words returns the part of the AVX-512 bf16 → float8 body that converts the 64 bfloat16 at
// i(SI) to binary16 in Z0 and Z1, in 16-bit lanes, exactly wherever the target's code depends on
// it. A bfloat16 magnitude a from 2^-14 (0x3880) to below 2^16 is the binary16 (a − 0x3800) << 3.
// Everything above, ±Inf too, is clamped to 0x477F (65280, above every target's overflow
// threshold): under every encoder infinity's code is that of a finite overflow. NaN becomes the
// quiet binary16 NaN 0x7E00 where the target codes NaN apart (elsewhere the clamp serves it too),
// whose code the table holds. A magnitude below 2^-15 becomes zero (VPSUBUSW), and one from 2^-15
// to below 2^-14 a binary16 below 2^-14. Every target whose half smallest subnormal is at least
// 2^-14 (f8e4m3, f8e4m3fnuz) rounds all of those to zero, as it does the bfloat16 itself. For the
// others (f8e5m2, f8e5m2fnuz) a block with a magnitude above half the smallest subnormal and
// below 2^-14 (rare in weights) is converted by wide, the float32 route, instead. Constants in
// Z8–Z13; the sign is put back from the source with Z21 (0x7FFF).
func bf16Words(e f8Enc, wide func(i int)) func(i int) {
	low := (127 - e.bias - e.mant) << 7 // half the target's smallest subnormal, as bfloat16 bits
	check := low < 0x3880
	bcastW(0x477F, Z8)
	bcastW(0x3800, Z9)
	bcastW(0x7F80, Z10)
	bcastW(0x47C0, Z13) // the binary16 quiet NaN 0x7E00, before the subtraction and the shift
	if check {
		bcastW(uint16(low+1), Z11)
		bcastW(uint16(0x3880-low-1), Z12)
	}
	conv := func(i int, r VecPhysical, fall Op) {
		b, a, t := Z4, Z5, Z6
		VMOVDQU64(src(i), b)
		VPANDD(Z21, b, a)
		VPMINUW(Z8, a, r)
		if e.nanOwnCode() {
			VPCMPUW(U8(6), Z10, a, K1) // NaN
			VMOVDQU16(Z13, K1, r)
		}
		VPSUBUSW(Z9, r, r)
		VPSLLW(U8(3), r, r)
		VPTERNLOGD(U8(0xF4), Z21, b, r) // r | b&^0x7FFF
		if check {
			VPSUBW(Z11, a, t)
			VPCMPUW(U8(1), Z12, t, fall)
		}
	}
	return func(i int) {
		conv(i, Z0, K2)
		conv(i+64, Z1, K3)
		if !check {
			return
		}
		done := label("bf16words")
		KORTESTD(K2, K3)
		JZ(LabelRef(done))
		wide(i)
		Label(done)
	}
}

// wideKernels declares the AVX-512 kernel of a ruleRegistry row from f64, i32, u32, i64 or u64 to
// f16 or bf16: the source rounded once to float32 to odd (f32RoundOdd), then to nearest even.
func wideKernels(r row) {
	if r.has("AVX2") {
		if r.from == "U64" && r.to != "BF16" || r.from == "I64" && r.to != "BF16" {
			fatal(fmt.Errorf("ruleRegistry row %s → %s: the generator has no AVX2 kernel for it", r.from, r.to))
		}
		doc := []string{wideDocAVX2}
		if r.from == "I32" || r.from == "U32" || r.from == "F64" && r.to == "BF16" {
			doc = append(doc, wideNearestDocAVX2)
		}
		add(&kernel{name: pairName(r.from, r.to, r.rules+"AVX2"), isa: avx2, from: r.from, to: r.to, rules: r.rules,
			doc:  doc,
			body: func() { wideTo16AVX2(r.from, r.to) }})
	}
	if !r.has("AVX512") {
		return
	}
	doc := []string{wideDoc}
	if r.to == "BF16" {
		doc = append(doc, wideTieDoc)
	}
	add(&kernel{name: pairName(r.from, r.to, r.rules+"AVX512"), isa: avx512, from: r.from, to: r.to, rules: r.rules,
		doc:  doc,
		body: func() { wideTo16AVX512(r.from, r.to, false) }})
	if r.nt == 0 {
		return
	}
	ntBlock(r, 64/bytesOf(r.from)*4)
	add(&kernel{name: pairName(r.from, r.to, r.rules+"AVX512NT"), isa: avx512, from: r.from, to: r.to, rules: r.rules,
		nt: true, noFrame: true, doc: doc,
		body: func() { wideTo16AVX512(r.from, r.to, true) }})
}

// wideDoc says how the kernels of wideKernels compute their loop.
const wideDoc = "It converts to float32 truncating (embedded round-toward-zero), converts back, and sets the last " +
	"bit where the two differ: the source rounded to odd; then VCVTPS2PH, or for bfloat16 the rounding to nearest " +
	"even on the float32 bits with NaN quieted (BF16FromF32). An int32 to binary16 needs no rounding to odd: " +
	"the float32 of an int32 is exact up to 2^24, beyond which binary16 overflows."

// wideTieDoc says how the AVX-512 kernels to bfloat16 take the rounding to odd only where it
// matters.
const wideTieDoc = "A block first converts to float32 rounded to nearest even; only a block where one of those float32 " +
	"is a midpoint of bfloat16 (low half 0x8000), where two roundings to nearest may differ from one, is converted " +
	"again through float32 rounded to odd."

// wideTo16AVX512 is the body of wideKernels' kernels: four vectors of the source a block (32
// elements of a 64-bit source, 64 of a 32-bit one). With nt it is the non-temporal variant:
// every store a VMOVNTDQ, the loop loopNT's (whole blocks, an SFENCE at the end).
func wideTo16AVX512(from, to string, nt bool) {
	store := func(v VecPhysical, m Mem) { groupStore(v, m, nt) }
	wide := bytesOf(from) == 8
	lanes := 16
	if wide {
		lanes = 8
	}
	bcastD(1, Z31)
	bcastD(0x7FFF, Z30)
	VMOVDQU64(sym("oddWords", 0), Z26)
	bcastD(0x00400000, Z25)
	// f32 gives the source's vector k at i(SI) as float32 rounded to odd, in f (a Y register for
	// a 64-bit source), with x and b as scratch.
	f32 := func(i, k int, f, x, b VecPhysical) {
		if wide {
			VMOVDQU64(src(i+64*k), x)
		} else {
			VMOVDQU32(src(i+64*k), x)
		}
		y := f
		if wide {
			y = half(f)
		}
		switch from {
		case "F64":
			VCVTPD2PS_RZ_SAE(x, y)
			VCVTPS2PD(y, b)
			VCMPPD(U8(0x0C), b, x, K1) // not equal, ordered: NaN lanes stay as they are
		case "I64":
			VCVTQQ2PS_RZ_SAE(x, y)
			VCVTTPS2QQ(y, b)
			VPCMPQ(U8(4), b, x, K1)
		case "U64":
			VCVTUQQ2PS_RZ_SAE(x, y)
			VCVTTPS2UQQ(y, b)
			VPCMPUQ(U8(4), b, x, K1)
		case "I32":
			if to == "F16" {
				VCVTDQ2PS(x, y)
				return
			}
			VCVTDQ2PS_RZ_SAE(x, y)
			VCVTTPS2DQ(y, b)
			VPCMPD(U8(4), b, x, K1)
		case "U32":
			VCVTUDQ2PS_RZ_SAE(x, y)
			VCVTTPS2UDQ(y, b)
			VPCMPUD(U8(4), b, x, K1)
		}
		one := Z31
		if wide {
			one = Y31
		}
		VPORD(one, y, K1, y)
	}
	sized := func(z VecPhysical) VecPhysical {
		if wide {
			return half(z)
		}
		return z
	}
	// round sets t to BF16FromF32 of the float32 in y in the high half of each lane: y + 0x7FFF
	// + (y>>16 & 1), and for a float64 source a NaN lane y | 0x00400000 (its top half with 0x40
	// set). The constants come in y's size.
	round := func(y, t VecPhysical) {
		c := func(z VecPhysical) VecPhysical {
			if y.Size() == 32 {
				return half(z)
			}
			return z
		}
		VPSRLD(U8(16), y, t)
		VPANDD(c(Z31), t, t)
		VPADDD(c(Z30), t, t)
		VPADDD(y, t, t)
		if from == "F64" {
			VCMPPS(U8(3), y, y, K2)
			VPORD(c(Z25), y, K2, t)
		}
	}
	if wide && to == "BF16" {
		// Two vectors of eight float32 joined into one of sixteen before the rounding; the high
		// halves of two such packed by one VPERMT2W and stored together.
		//
		// A block goes first to float32 rounded to nearest even, one conversion for eight
		// elements. Rounding twice to nearest gives the one rounding's result unless the first
		// lands on a midpoint of the second (every midpoint of bfloat16 is a float32, so the
		// first rounding keeps each element on its side of each midpoint, or lands on it): a
		// float32 whose low half is 0x8000, which the word compare with Z24 (0x8000 in the low
		// word, kept by K5) finds. Such a block (exact ties among them) is converted again
		// through float32 rounded to odd.
		bf16TieConsts()
		b := func(i, o int) {
			odd, done := label("bf16odd"), label("bf16done")
			for k := range 4 {
				f := half(zs[3*k])
				VMOVDQU64(src(i+64*k), zs[3*k+1])
				switch from {
				case "F64":
					VCVTPD2PS(zs[3*k+1], f)
				case "I64":
					VCVTQQ2PS(zs[3*k+1], f)
				case "U64":
					VCVTUQQ2PS(zs[3*k+1], f)
				}
			}
			VINSERTF32X8(U8(1), Y3, Z0, Z0)
			VINSERTF32X8(U8(1), Y9, Z6, Z6)
			bf16Ties(odd, Z0, Z6)
			round(Z0, Z1)
			round(Z6, Z7)
			VPERMT2W(Z7, Z26, Z1)
			store(Z1, dst(o))
			JMP(LabelRef(done))
			Label(odd)
			for k := range 4 {
				f32(i, k, zs[3*k], zs[3*k+1], zs[3*k+2])
			}
			VINSERTF32X8(U8(1), Y3, Z0, Z0)
			VINSERTF32X8(U8(1), Y9, Z6, Z6)
			round(Z0, Z1)
			round(Z6, Z7)
			VPERMT2W(Z7, Z26, Z1)
			store(Z1, dst(o))
			Label(done)
		}
		loopOrNT(avx512, nt, b, block{32, 32 * 8, 64})
		return
	}
	body := func(i, o int) {
		for k := range 4 {
			f, x, b := zs[3*k], zs[3*k+1], zs[3*k+2]
			f32(i, k, f, x, b)
			y, t := sized(f), sized(x)
			out := dst(o + k*lanes*2)
			if to == "F16" {
				if nt {
					VCVTPS2PH(U8(0), y, half(t))
					store(half(t), out)
				} else {
					VCVTPS2PH(U8(0), y, out)
				}
				continue
			}
			// The high halves of two vectors are packed by one VPERMT2W (oddWords) and stored
			// together.
			round(y, t)
			if k%2 == 0 {
				continue
			}
			first := sized(zs[3*(k-1)+1])
			VPERMT2W(t, sized(Z26), first)
			store(first, dst(o+(k-1)*lanes*2))
		}
	}
	if !wide && to == "BF16" {
		body = nearestBF16AVX512(from, body, round, store)
	}
	loopOrNT(avx512, nt, body, block{4 * lanes, 4 * lanes * bytesOf(from), 4 * lanes * 2})
}

// f32Sticky loads the 16 float32 at m into z with bit 16 set where the low half is not zero
// (low = 0xFFFF and bit = 0x10000 in each dword, k as scratch): each high half is then the
// bfloat16 rounded to odd, which a word-lane route takes for the float32 (bf16Fast,
// e8m0WordsAVX512).
func f32Sticky(m Mem, z, low, bit VecPhysical, k Register) {
	VMOVDQU32(m, z)
	VPTESTMD(low, z, k)
	VPORD(bit, z, k, z)
}

// bf16TieConsts loads the constants of bf16Ties: Z24 = 0x8000 in each dword's low word, K5 =
// the low words' mask bits.
func bf16TieConsts() {
	bcastD(0x8000, Z24)
	MOVL(U32(0x55555555), EAX)
	KMOVD(EAX, K5)
}

// bf16Ties jumps to tie when a float32 lane of the vectors vs (two or more) is a bfloat16
// midpoint, its low half 0x8000: a word compare with Z24, kept for the low words by K5.
func bf16Ties(tie string, vs ...VecPhysical) {
	VPCMPEQW(Z24, vs[0], K3)
	for _, z := range vs[1:] {
		VPCMPEQW(Z24, z, K4)
		KORD(K3, K4, K3)
	}
	KTESTD(K5, K3)
	JNZ(LabelRef(tie))
}

// nearestBF16AVX512 returns the AVX-512 body of the i32 and u32 → bf16 kernels of
// wideTo16AVX512: the 64 elements converted to float32 rounded to nearest even (VCVTDQ2PS,
// VCVTUDQ2PS), which gives the one rounding's bfloat16 unless a float32 lands on a bfloat16
// midpoint (low half 0x8000, found by a word compare with Z24 kept by K5); a block holding one
// (exact ties among them) takes exact, the rounding to odd. round and store are wideTo16AVX512's.
func nearestBF16AVX512(from string, exact body, round func(y, t VecPhysical), store func(v VecPhysical, m Mem)) body {
	bf16TieConsts()
	return func(i, o int) {
		odd, done := label("bf16odd"), label("bf16done")
		for k := range 4 {
			if from == "I32" {
				VCVTDQ2PS(src(i+64*k), zs[3*k])
			} else {
				VCVTUDQ2PS(src(i+64*k), zs[3*k])
			}
		}
		bf16Ties(odd, Z0, Z3, Z6, Z9)
		for k := range 4 {
			round(zs[3*k], zs[3*k+1])
			if k%2 == 1 {
				VPERMT2W(zs[3*k+1], Z26, zs[3*(k-1)+1])
				store(zs[3*(k-1)+1], dst(o+(k-1)*32))
			}
		}
		JMP(LabelRef(done))
		Label(odd)
		exact(i, o)
		Label(done)
	}
}

// wideDocAVX2 says how the AVX2 kernels of wideKernels compute their loop.
const wideDocAVX2 = "It widens a 32-bit integer source to float64 exactly, a 64-bit one to float64 rounded to odd " +
	"(int64ToF64Odd in the generator), converts to float32 to nearest, converts back, " +
	"and turns the result into the source rounded to odd: one less in magnitude where the rounding went away " +
	"from zero, the last bit set where it was inexact; then VCVTPS2PH, or for bfloat16 BF16FromF32's rounding " +
	"on the bits."

// wideNearestDocAVX2 says how the AVX2 kernels of wideNearestAVX2 take that route only where it matters.
const wideNearestDocAVX2 = "That route serves only the blocks where it matters: a block first converts to float32 " +
	"rounded to nearest even, eight elements a vector, which an int32 to binary16 needs no more than; to bfloat16, " +
	"a block where one float32 is a bfloat16 midpoint (low half 0x8000) goes the float64 route."

// wideTo16AVX2 is the AVX2 body of wideKernels' kernels: 16 elements a block, four vectors of
// four float64.
func wideTo16AVX2(from, to string) {
	q := uint64(0x7FFFFFFFFFFFFFFF)
	VMOVDQU(rodata("abs64", q, q, q, q), Y15)
	VMOVDQU(rodata("evenDwords", 0|2<<32, 4|6<<32, 0, 0), Y14)
	bcastD(1, Y13)
	bcastD(0x7FFF, Y12)
	p32 := uint64(0x41F0000000000000) // 2^32
	VMOVDQU(rodata("two32", p32, p32, p32, p32), Y11)
	VPXOR(Y10, Y10, Y10)
	bcastD(0x7FFFFFFF, Y9)
	bcastD(0x7F800000, Y8)
	bcastD(0x40, Y7)
	body := func(i, o int) {
		for k := range 4 {
			switch from {
			case "F64":
				VMOVUPD(src(i+32*k), Y0)
			case "I64", "U64":
				int64ToF64Odd(from == "I64", src(i+32*k))
			default:
				VCVTDQ2PD(src(i+16*k), Y0)
				if from == "U32" { // a u32 read as negative int32 lacks 2^32
					VCMPPD(U8(1), Y10, Y0, Y6)
					VANDPD(Y11, Y6, Y6)
					VADDPD(Y6, Y0, Y0)
				}
			}
			VCVTPD2PSY(Y0, X5)
			VCVTPS2PD(X5, Y1)
			VCMPPD(U8(0x0C), Y1, Y0, Y2) // inexact (not equal, ordered: NaN is left alone)
			VANDPD(Y15, Y0, Y3)
			VANDPD(Y15, Y1, Y4)
			VCMPPD(U8(0x1E), Y3, Y4, Y4) // rounded away from zero
			VPERMD(Y2, Y14, Y2)
			VPERMD(Y4, Y14, Y4)
			VPADDD(X4, X5, X5)
			VPAND(X13, X2, X2)
			VPOR(X2, X5, X5)
			if to == "F16" {
				VCVTPS2PH(U8(0), X5, dst(o+8*k))
				continue
			}
			wideBF16AVX2(X5, X1, X6, from == "F64")
			VPACKUSDW(X1, X1, X1)
			VMOVQ(X1, dst(o+8*k))
		}
	}
	if from == "I32" || from == "U32" || from == "F64" && to == "BF16" {
		body = wideNearestAVX2(from, to, body)
	}
	loop(avx2, body, block{16, 16 * bytesOf(from), 32})
}

// wideBF16AVX2 sets r to BF16FromF32 of the float32 lanes of f, the bfloat16 in each lane's low half;
// with nan a NaN becomes its top half with 0x40 set, as BF16FromF32 quiets it (from a float64
// source a lane may be NaN). f and s are clobbered. The constants are wideTo16AVX2's, Y13 = 1,
// Y12 = 0x7FFF, Y9 = 0x7FFFFFFF, Y8 = 0x7F800000 and Y7 = 0x40, taken at f's size.
func wideBF16AVX2(f, r, s VecPhysical, nan bool) {
	c := func(y VecPhysical) VecPhysical {
		if f.Size() == 16 {
			return half(y)
		}
		return y
	}
	VMOVDQA(f, r)
	roundBF16(r, s, c(Y13), c(Y12), VPAND)
	if !nan {
		return
	}
	VPSRLD(U8(16), f, s)
	VPAND(c(Y9), f, f)
	VPCMPGTD(c(Y8), f, f) // NaN
	VPOR(c(Y7), s, s)
	VPBLENDVB(f, s, r, r)
}

// wideNearestAVX2 returns the AVX2 body of the i32, u32 and f64 kernels of wideTo16AVX2: the 16
// elements converted to float32 rounded to nearest even, eight a vector (u32 from half the
// value with the dropped bit kept as a sticky bit, doubled, where it is 2^31 or more; f64 four
// a conversion). An int32 to binary16 needs no more: the float32 is exact below 2^24, above
// which binary16 overflows either way. To bfloat16, rounding twice to nearest gives the one
// rounding's result unless the float32 lands on a bfloat16 midpoint (every midpoint is a
// float32, so the first rounding keeps each value on its side of it or lands on it), which a
// low half of 0x8000 shows: a block holding one (exact ties among them) takes exact, the
// float64 route. A NaN from f64 becomes its float32's top half with 0x40 set, as in exact.
// Constants as wideTo16AVX2's: Y13 = 1, Y12 = 0x7FFF, Y9 = 0x7FFFFFFF, Y8 = 0x7F800000, Y7 = 0x40.
func wideNearestAVX2(from, to string, exact body) body {
	f32 := func(i int, y VecPhysical) {
		switch from {
		case "I32":
			VCVTDQ2PS(src(i), y)
		case "U32":
			VMOVDQU(src(i), Y4)
			VPSRLD(U8(1), Y4, Y5)
			VPAND(Y13, Y4, Y6)
			VPOR(Y6, Y5, Y5)
			VCVTDQ2PS(Y5, Y5)
			VADDPS(Y5, Y5, Y5) // x ≥ 2^31: the half with its sticky bit, rounded, doubled
			VCVTDQ2PS(Y4, y)
			VBLENDVPS(Y4, Y5, y, y)
		case "F64":
			VCVTPD2PSY(src(i), y.AsX())
			VCVTPD2PSY(src(i+32), X4)
			VINSERTF128(U8(1), X4, y, y)
		}
	}
	step := 4 * 8
	if from == "F64" {
		step = 8 * 8
	}
	tieBits := dwords32("bf16Tie", 0x80000000)
	return func(i, o int) {
		f32(i, Y0)
		f32(i+step, Y1)
		if to == "F16" {
			VCVTPS2PH(U8(0), Y0, dst(o))
			VCVTPS2PH(U8(0), Y1, dst(o+16))
			return
		}
		tie, done := label("bf16tie"), label("bf16done")
		VPSLLD(U8(16), Y0, Y2)
		VPCMPEQD(tieBits, Y2, Y2)
		VPSLLD(U8(16), Y1, Y3)
		VPCMPEQD(tieBits, Y3, Y3)
		VPOR(Y3, Y2, Y2)
		VPTEST(Y2, Y2)
		JNZ(LabelRef(tie))
		wideBF16AVX2(Y0, Y3, Y2, from == "F64")
		wideBF16AVX2(Y1, Y4, Y2, from == "F64")
		VPACKUSDW(Y4, Y3, Y3)
		VPERMQ(U8(0xD8), Y3, Y3)
		VMOVDQU(Y3, dst(o))
		JMP(LabelRef(done))
		Label(tie)
		exact(i, o)
		Label(done)
	}
}

// e8m0Kernels declares the kernels of a ruleRegistry row to f8e8m0 whose loop calls e8m0FromF32
// with the encoder constant of value u (rules_codec.go: round mode, saturation, ml_dtypes).
func e8m0Kernels(r row, u uint64, table string) {
	for _, a := range []*isa{avx2, avx512} {
		if !r.has(a.path) {
			continue
		}
		a := a
		k := &kernel{name: pairName(r.from, r.to, r.rules+a.path), isa: a, from: r.from, to: r.to, rules: r.rules,
			doc:  []string{e8m0Doc},
			body: func() { e8m0Encode(a, r.from, u, table) }}
		if a == avx512 && (r.from == "BF16" || r.from == "F32") {
			k.doc = []string{e8m0BF16Doc}
			if r.from == "F32" {
				k.doc = append(k.doc, e8m0F32Doc)
			}
			k.body = func() { e8m0WordsAVX512(r.from, u, false) }
		}
		if a == avx512 && r.from == "F16" {
			k.doc = []string{fmt.Sprintf(e8m0F16Doc, table)}
		}
		add(k)
		if a == avx512 && r.nt != 0 {
			if r.from != "BF16" && r.from != "F32" {
				fatal(fmt.Errorf("ruleRegistry row %s → %s under %s: the generator has no non-temporal kernel for it", r.from, r.to, r.rulesLit))
			}
			ntBlock(r, 64)
			add(&kernel{name: pairName(r.from, r.to, r.rules+"AVX512NT"), isa: avx512, from: r.from, to: r.to, rules: r.rules,
				nt: true, noFrame: true, doc: k.doc,
				body: func() { e8m0WordsAVX512(r.from, u, true) }})
		}
	}
}

// e8m0BF16Doc says how the AVX-512 bf16 → f8e8m0 encoders compute their loop.
const e8m0BF16Doc = "It computes e8m0FromF32's steps on the bfloat16 bits in 16-bit lanes (the float32's low half " +
	"being zero, its additions and thresholds scale down by 2^16): the code from the exponent bits after the round " +
	"mode's addition, a subnormal doubled and its code taken one lower, then the codes of the ranges blended in; " +
	"then the low bytes of two vectors packed by one VPERMT2B."

// e8m0F16Doc says how the AVX-512 f16 → f8e8m0 encoders compute their loop; %s is the table.
const e8m0F16Doc = "It looks up the codes as the OpenVINO float8 encoders do (VPERMI2B on the high bytes, one " +
	"threshold on the low bytes) in %s, built from e8m0FromF32 (rules_tables_amd64.go), and gives the negative " +
	"values their code; a block holding a positive binary16 below 2^-16 goes through float32 as the f32 encoders do."

// e8m0F32Doc says how the AVX-512 f32 → f8e8m0 encoders get their 16-bit lanes.
const e8m0F32Doc = "A float32 source gives its high halves, gathered by VPERMT2W, with bit 0 set where " +
	"the low half is not zero: every addition and threshold of e8m0FromF32 then decides as on the float32."

// e8m0WordsAVX512 is the AVX-512 body of the bf16 and f32 → f8e8m0 encoders (encoder constant u):
// 64 elements a block, two vectors of 32 words. A bfloat16 b is the float32 b<<16, whose low half
// is zero, so e8m0FromF32's (b<<16 + add) >> 23 is (b + add>>16) >> 7, and its thresholds are
// the float32 ones shifted right by 16. A float32 is its high half h with bit 0 set where its low
// half is not zero (VPTESTMD, a masked VPORD, then one VPERMT2W gathers the high halves of two
// vectors): each threshold's low half is zero and its bit 16 is clear, so the float32 is above it
// exactly when that word is; the round modes' additions carry into the exponent from the low
// half only for up, which carries from any bit that is set, as from the sticky bit; and for a
// subnormal, doubled, bit 0 moves to bit 1, below the seven fraction bits whose carry up
// decides, and the carry comes from a set bit there as from one in the low half.
func e8m0WordsAVX512(from string, u uint64, nt bool) {
	ml, sat := u&8 != 0, u&4 != 0
	add := []uint16{0x7F, 0, 0x40}[u&3]
	if ml {
		add = 0x40
	}
	bcastW(add, Z30)
	bcastW(0xFF, Z25)
	switch { // the constants of codes' three cases
	case ml:
		bcastW(1, Z28)
		bcastW(0x7F3F, Z21) // 1.5·2^127, which rounds to code 0xFF, less one
	case sat:
		bcastW(0x7FFF, Z31)
		bcastW(0x7F00, Z23) // 2^127
		bcastW(0x7F80, Z22) // infinity
	default:
		bcastW(0x40, Z24)        // 2^-127
		bcastW(0x7F00-0x40, Z21) // the width of the range [2^-127, 2^127]
	}
	VPXORD(Z20, Z20, Z20)
	VMOVDQU64(sym("evenBytes", 0), Z19)
	// Up to zeroMax (a signed word: zero and the negative values too) the code is 0 wherever a
	// code from 2^-127 to 2^127 is given: every magnitude below 2^-127 gets 2^-127's code 0 under
	// saturation, and from 2^-127 up to the smallest normal, where e8m0FromF32 doubles a
	// subnormal and takes its code one lower, the code is 0 up to 2^-127 (up; ml_dtypes, which
	// gives 0 only up to 2^-127), up to 0x5F (nearest: 1.5·2^-127 goes up) or up to the smallest
	// normal (down), and 1 above that, which the normals' (x + add) >> 7 also gives there.
	zeroMax := []uint16{0x40, 0x7F, 0x5F}[u&3]
	if ml {
		zeroMax = 0x40
	}
	bcastW(zeroMax, Z29)
	// codes sets c to the codes of the 32 words in x, with a as scratch.
	codes := func(x, a, c VecPhysical) {
		switch {
		case ml:
			// Zero, the negative values, 1.5·2^127 and above (NaN too) give 0xFF: x − 1 is at
			// least 0x7F3F exactly for them.
			VPSUBW(Z28, x, a)
			VPCMPUW(U8(5), Z21, a, K2)
		case sat:
			// Above 2^127 (+Inf too) the code is 2^127's, 0xFE: x clamped there. NaN gives 0xFF.
			VPANDD(Z31, x, a)
			VPCMPUW(U8(6), Z22, a, K2)
		default:
			// Outside [2^-127, 2^127] (zeros, negative values, ±Inf and NaN included) the code is
			// 0xFF: x − 2^-127 above the range's width, unsigned.
			VPSUBW(Z24, x, a)
			VPCMPUW(U8(6), Z21, a, K2)
		}
		VPCMPW(U8(2), Z29, x, K1)
		c0 := x
		if sat {
			VPMINSW(Z23, x, c)
			c0 = c
		}
		if add != 0 {
			VPADDW(Z30, c0, c)
			c0 = c
		}
		VPSRLW(U8(7), c0, c)
		VMOVDQU16(Z20, K1, c)
		VMOVDQU16(Z25, K2, c)
	}
	if from == "F32" {
		bcastD(0xFFFF, Z16)
		bcastD(0x10000, Z17)
		VMOVDQU64(sym("oddWords", 0), Z18)
	}
	// words loads the 32 elements at i(SI) as 16-bit lanes into x, with t as scratch.
	words := func(i int, x, t VecPhysical) {
		if from == "BF16" {
			VMOVDQU64(src(i), x)
			return
		}
		f32Sticky(src(i), x, Z16, Z17, K1)
		f32Sticky(src(i+64), t, Z16, Z17, K2)
		VPERMT2W(t, Z18, x)
	}
	w := bytesOf(from)
	body := func(i, o int) {
		words(i, Z0, Z2)
		words(i+32*w, Z1, Z3)
		codes(Z0, Z2, Z4)
		codes(Z1, Z3, Z5)
		VPERMT2B(Z5, Z19, Z4)
		groupStore(Z4, dst(o), nt)
	}
	loopOrNT(avx512, nt, body, block{64, 64 * w, 64})
}

// e8m0Doc says how the f8e8m0 encoders compute their loop.
const e8m0Doc = "It computes e8m0FromF32's steps on 32-bit lanes: the code from the exponent bits after the round " +
	"mode's addition, a float32 subnormal doubled and its code taken one lower, then the codes of the ranges " +
	"(below 2^-127, above 2^127, NaN; ml_dtypes': zero, negative and too large, and its two subnormal codes) " +
	"blended in; then packs the codes to bytes."

// e8m0Encode is the body of the f8e8m0 encoders: four vectors of 32-bit lanes a block (64
// elements on AVX-512, 32 on AVX2), packed to bytes as the float8 encoders pack. Constants in
// registers 15 to 10: 0x7FFFFFFF, 0x800000, the round mode's addition, 1, 0x400000, and 0x7F000000
// (ml_dtypes: 0x7F3FFFFF); on AVX-512 also 9 = 0x7F800000, 8 = 0xFF, 7 = the code below 2^-127,
// 6 = the code above 2^127 (AVX2: memory operands), 5 = the packing's VPERMD indices, 4 = 0.
func e8m0Encode(a *isa, from string, u uint64, table string) {
	ml, sat := u&8 != 0, u&4 != 0
	add := []uint32{0x7FFFFF, 0, 0x400000}[u&3]
	if ml {
		add = 0x400000
	}
	low, high := uint32(0xFF), uint32(0xFF)
	if sat {
		low, high = 0, 0xFE
	}
	v := a.vec
	bcastD(0x7FFFFFFF, v(15))
	bcastD(0x800000, v(14))
	bcastD(add, v(13))
	bcastD(1, v(12))
	bcastD(0x400000, v(11))
	if ml {
		bcastD(0x7F3FFFFF, v(10))
	} else {
		bcastD(0x7F000000, v(10))
	}
	if a == avx512 {
		e8m0AVX512(from, ml, low, high, table)
		return
	}
	VMOVDQU(packOrder(), Y5)
	VPXOR(Y9, Y9, Y9)
	x, t, m, w := Y4, Y6, Y7, Y8
	body := func(i, o int) {
		for k := range 4 {
			c := ys[k]
			loadF32(avx2, from, i, k, x)
			VPAND(Y15, x, t)
			VPCMPGTD(t, Y14, m) // a float32 subnormal
			if ml {
				VPADDD(Y13, t, c)
				VPSRLD(U8(23), c, c)
				VPCMPGTD(Y11, t, w)
				VPAND(Y12, w, w) // its code: 1 above 2^-127, else 0
				VPBLENDVB(m, w, c, c)
				VPCMPGTD(Y9, x, m) // x > 0
				VMOVDQU(dwords32("e8m0Code", 0xFF), w)
				VPBLENDVB(m, c, w, c)
				VPCMPGTD(Y10, t, m)
				VPBLENDVB(m, w, c, c)
				continue
			}
			VPAND(t, m, w)
			VPADDD(w, t, t) // doubled
			VPADDD(Y13, t, c)
			VPSRLD(U8(23), c, c)
			VPADDD(m, c, c) // one lower
			VPCMPGTD(x, Y11, m)
			VPBLENDVB(m, dwords32("e8m0Code", low), c, c)
			VPCMPGTD(Y10, x, m)
			VPBLENDVB(m, dwords32("e8m0Code", high), c, c)
			VPAND(Y15, x, t)
			VPCMPGTD(dwords32("f8Inf", 0x7F800000), t, m)
			VPBLENDVB(m, dwords32("e8m0Code", 0xFF), c, c)
		}
		packCodes(avx2, [4]VecPhysical{Y0, Y1, Y2, Y3}, Y5, o)
	}
	loop(avx2, body, block{32, 32 * bytesOf(from), 32})
}

// e8m0AVX512 is e8m0Encode's AVX-512 body, after the constants common to both paths: the
// f16 encoders' (e8m0F16Table, with table), whose blocks holding a binary16 below 2^-16 it converts; the f32
// and bf16 encoders take e8m0WordsAVX512.
func e8m0AVX512(from string, ml bool, low, high uint32, table string) {
	bcastD(0x7F800000, Z9)
	bcastD(0xFF, Z8)
	bcastD(low, Z7)
	bcastD(high, Z6)
	VMOVDQU64(rodata("packOrder16", 0|4<<32, 8|12<<32, 1|5<<32, 9|13<<32, 2|6<<32, 10|14<<32, 3|7<<32, 11|15<<32), Z5)
	VPXORD(Z4, Z4, Z4)
	body := func(i, o int) {
		for k := range 4 {
			x, t, c := zs[16+2*k], zs[17+2*k], zs[k]
			loadF32(avx512, from, i, k, x)
			VPANDD(Z15, x, t)
			VPCMPUD(U8(1), Z14, t, K1) // a float32 subnormal
			if ml {
				VPADDD(Z13, t, c)
				VPSRLD(U8(23), c, c)
				VPCMPUD(U8(6), Z11, t, K1, K2)
				VPXORD(c, c, K1, c)
				VMOVDQA32(Z12, K2, c) // its code: 1 above 2^-127, else 0
				VPCMPD(U8(2), Z4, x, K3)
				VPCMPUD(U8(6), Z10, t, K4)
				KORW(K3, K4, K3)
				VMOVDQA32(Z8, K3, c)
				continue
			}
			VPADDD(t, t, K1, t) // doubled
			VPADDD(Z13, t, c)
			VPSRLD(U8(23), c, c)
			VPSUBD(Z12, c, K1, c) // one lower
			VPCMPD(U8(1), Z11, x, K2)
			VMOVDQA32(Z7, K2, c)
			VPCMPD(U8(6), Z10, x, K3)
			VMOVDQA32(Z6, K3, c)
			VPANDD(Z15, x, t)
			VPCMPUD(U8(6), Z9, t, K4)
			VMOVDQA32(Z8, K4, c)
		}
		packCodes(avx512, [4]VecPhysical{Z0, Z1, Z2, Z3}, Z5, o)
	}
	if from == "F16" {
		body = e8m0F16Table(table, low == 0, body)
	}
	loop(avx512, body, block{64, 64 * bytesOf(from), 64})
}

// e8m0F16Table returns the AVX-512 body of the f16 → f8e8m0 encoders: the codes looked up as
// the OpenVINO float8 encoders look up theirs (toF8Codes), in table (lutEnc…, rules_tables_amd64.go,
// built from e8m0FromF32): the high bytes H and low bytes L of 64 binary16 gathered apart, the
// code of each magnitude's H by the seven bits VPERMI2B reads, plus one where L is above the
// threshold of that H. A negative binary16 gets 0xFF, or under saturation 0 unless its code is
// NaN's 0xFF. A block with a positive binary16 below 2^-16 (H 0 and L not; rare in weights),
// whose code needs the position of its leading one, is converted by wide, the float32 route,
// instead. Constants in Z25–Z31, which wide does not use.
func e8m0F16Table(table string, sat bool, wide body) body {
	toF8Tables(table)
	VPTERNLOGD(U8(0xFF), Z25, Z25, Z25)
	return func(i, o int) {
		slow, done := label("e8m0wide"), label("e8m0done")
		h, l, c, t := Z0, Z2, Z18, Z19
		VMOVDQU64(src(i), Z0)
		VMOVDQU64(src(i+64), Z1)
		toF8Split()
		VPTESTNMB(h, h, K1)
		VPTESTMB(l, l, K1, K1) // a positive binary16 below 2^-16
		KORTESTQ(K1, K1)
		JNZ(LabelRef(slow))
		VMOVDQA64(h, c)
		VPERMI2B(Z29, Z28, c)
		VMOVDQA64(h, t)
		VPERMI2B(Z27, Z26, t)
		VPCMPUB(U8(6), t, l, K2)
		VPSUBB(Z25, c, K2, c)
		VPMOVB2M(h, K3)
		if sat {
			VPCMPUB(U8(1), Z25, c, K3, K3) // negative, its code not NaN's
			VPSUBB(c, c, K3, c)
		} else {
			VMOVDQU8(Z25, K3, c)
		}
		VMOVDQU64(c, dst(o))
		JMP(LabelRef(done))
		Label(slow)
		wide(i, o)
		Label(done)
	}
}

// packCodes packs four vectors of codes in 32-bit lanes (each at most 0xFF), c[0] the first
// elements, into bytes at o(DI): two VPACKUSDW and a VPACKUSWB, which interleave the vectors'
// 128-bit lanes, then a VPERMD by idx (packOrder, or packOrder16 on AVX-512) into element
// order. It leaves the bytes in c[0], and changes c[2].
func packCodes(a *isa, c [4]VecPhysical, idx VecPhysical, o int) {
	VPACKUSDW(c[1], c[0], c[0])
	VPACKUSDW(c[3], c[2], c[2])
	VPACKUSWB(c[2], c[0], c[0])
	VPERMD(c[0], idx, c[0])
	if a == avx512 {
		VMOVDQU64(c[0], dst(o))
	} else {
		VMOVDQU(c[0], dst(o))
	}
}

// int64ToF64Odd sets Y0 to the four 64-bit integers at m (signed or not) as float64 rounded to
// odd, for wideTo16AVX2, with Y10 = 0; it uses Y1–Y6. AVX2 has no conversion from 64-bit
// integers, and a rounding to nearest there would round twice. Each integer is split into its
// high half h and low half l, both exact as float64 (l with 2^52's exponent put above it, h
// with 2^84's, and those powers subtracted, the signed h biased by 2^31 on the way); their sum
// s rounds to nearest, and since |h·2^32| ≥ l wherever h ≠ 0 the error e = l − (s − h·2^32) is
// exact (Fast2Sum). Where e ≠ 0, s becomes one less in magnitude if its rounding went away from
// zero (the signs of e and s differ), and its last bit is set.
func int64ToF64Odd(signed bool, m Mem) {
	// The same bits serve as the exponent put above a half and as the power it makes: 2^52
	// above l; 2^84 above h, and for a signed h also bit 31 flipped (h + 2^31) and 2^63 more.
	lo, hi := rodata("exp52", 0x4330000000000000, 0x4330000000000000, 0x4330000000000000, 0x4330000000000000), rodata("exp84", 0x4530000000000000, 0x4530000000000000, 0x4530000000000000, 0x4530000000000000)
	if signed {
		hi = rodata("exp84s", 0x4530000080000000, 0x4530000080000000, 0x4530000080000000, 0x4530000080000000)
	}
	VMOVDQU(m, Y0)
	VPBLENDD(U8(0xAA), lo, Y0, Y1)
	VSUBPD(lo, Y1, Y1) // l
	VPSRLQ(U8(32), Y0, Y2)
	VPXOR(hi, Y2, Y2)
	VSUBPD(hi, Y2, Y2) // h·2^32
	VADDPD(Y1, Y2, Y3) // s
	VSUBPD(Y2, Y3, Y4)
	VSUBPD(Y4, Y1, Y4)         // e
	VCMPPD(U8(4), Y10, Y4, Y5) // e ≠ 0
	VXORPD(Y3, Y4, Y6)
	VPCMPGTQ(Y6, Y10, Y6) // the signs of e and s differ
	VPAND(Y5, Y6, Y6)
	VPADDQ(Y6, Y3, Y3)
	VPAND(rodata("one64", 1, 1, 1, 1), Y5, Y5)
	VPOR(Y5, Y3, Y0)
}
