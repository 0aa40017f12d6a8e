package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// widenKernels declares the conversions to float64, and from the 32- and 64-bit integers that
// AVX-512 converts directly to float32: one or two instructions a vector (a widening load, a
// conversion).
func widenKernels() {
	for _, from := range []string{"F16", "BF16", "I8", "U8", "I16", "U16", "I32", "U32", "I64", "U64"} {
		for _, a := range []*isa{avx2, avx512} {
			if a == avx2 && (from == "U32" || from == "I64" || from == "U64") {
				continue // AVX2 has no unsigned or 64-bit integer conversions
			}
			from, a := from, a
			add(&kernel{name: kname(from, "F64", a), isa: a, from: from, to: "F64",
				body: func() { toF64(a, from, false) }})
			if a == avx512 {
				add(&kernel{name: kname(from, "F64", a) + "NT", isa: a, from: from, to: "F64", nt: true, noFrame: true,
					body: func() { toF64(a, from, true) }})
			}
		}
	}
	for _, from := range []string{"U8", "I16", "U16", "F8E8M0"} {
		for _, to := range []string{"BF16", "F32", "F16", "F64"} {
			if from != "F8E8M0" && to != "BF16" {
				continue
			}
			for _, a := range []*isa{avx2, avx512} {
				if to == "F64" && a == avx2 {
					continue
				}
				from, to, a := from, to, a
				add(&kernel{name: kname(from, to, a), isa: a, from: from, to: to,
					body: func() { smallTo32(a, from, to) }})
			}
		}
	}
	// The f8e4m3 and f8e5m2 lookups to float64, and f8e5m2's to bfloat16.
	for _, k := range []struct{ from, to, table string }{{"F8E4M3", "F64", "lutE4m3BF16"}, {"F8E5M2", "F64", "lutE5m2BF16"}, {"F8E5M2", "BF16", "lutE5m2BF16"}} {
		k := k
		add(&kernel{name: kname(k.from, k.to, avx512), isa: avx512, from: k.from, to: k.to,
			doc:  []string{"VPERMI2B lookups of the low and high bytes of each magnitude's " + lookupDoc[k.to] + " (" + k.table + "), the sign ORed in."},
			body: func() { byteLookupAVX512(k.table, 0, 0, k.to) }})
	}
	for _, from := range []string{"U32", "I64", "U64"} {
		for _, to := range []string{"F32", "F16"} {
			from, to := from, to
			add(&kernel{name: kname(from, to, avx512), isa: avx512, from: from, to: to,
				body: func() { toF32AVX512(from, to, false) }})
			if to == "F32" {
				add(&kernel{name: kname(from, to, avx512) + "NT", isa: avx512, from: from, to: to, nt: true, noFrame: true,
					body: func() { toF32AVX512(from, to, true) }})
			}
		}
	}
}

// toF64 is the body of a conversion to float64: four vectors of float64 a block (16 elements
// on AVX2, 32 on AVX-512), each from a vector of half the width of float32 or int32 (or, for a
// 64-bit integer, converted directly); nt makes the non-temporal kernel (VMOVNTDQ).
func toF64(a *isa, from string, nt bool) {
	st := storeInt(a, 8)
	if nt {
		st = vmovntdq
	}
	lanes := a.bytes / 8
	half := func(v VecPhysical) Register {
		if a == avx512 {
			return v.AsY()
		}
		return v.AsX()
	}
	body := func(i, o int) {
		for k := range 4 {
			v := a.vec(k)
			s := src(i + k*lanes*bytesOf(from))
			switch from {
			case "F16":
				VCVTPH2PS(s, half(v))
				VCVTPS2PD(half(v), v)
			case "BF16":
				VPMOVZXWD(s, half(v))
				VPSLLD(U8(16), half(v), half(v))
				VCVTPS2PD(half(v), v)
			case "I8", "U8", "I16", "U16":
				map[string]func(...Op){"I8": VPMOVSXBD, "U8": VPMOVZXBD, "I16": VPMOVSXWD, "U16": VPMOVZXWD}[from](s, half(v))
				VCVTDQ2PD(half(v), v)
			case "I32":
				VCVTDQ2PD(s, v)
			case "U32":
				VCVTUDQ2PD(s, v)
			case "I64":
				VCVTQQ2PD(s, v)
			case "U64":
				VCVTUQQ2PD(s, v)
			}
		}
		for k := range 4 {
			st(a.vec(k), dst(o+k*a.bytes))
		}
	}
	loopOrNT(a, nt, body, block{4 * lanes, 4 * lanes * bytesOf(from), 4 * a.bytes})
}

// toF32AVX512 is the body of the AVX-512 conversions of u32, i64 and u64 to float32, rounding to
// nearest even, and on to binary16 (VCVTPS2PH, nearest even: the float32 step rounds only beyond
// 2^24, where binary16 has overflowed): four vectors a block; nt makes the non-temporal kernel
// (to f32 only).
func toF32AVX512(from, to string, nt bool) {
	lanes, cvt := 8, VCVTQQ2PS
	switch from {
	case "U32":
		lanes, cvt = 16, VCVTUDQ2PS
	case "U64":
		cvt = VCVTUQQ2PS
	}
	out := 4
	if to == "F16" {
		out = 2
	}
	body := func(i, o int) {
		for k := range 4 {
			r := zs[k]
			if lanes == 8 {
				cvt(src(i+64*k), r.AsY())
			} else {
				cvt(src(i+64*k), r)
			}
		}
		for k := range 4 {
			d := dst(o + k*lanes*out)
			switch {
			case to == "F16" && lanes == 8:
				VCVTPS2PH(U8(0), zs[k].AsY(), d)
			case to == "F16":
				VCVTPS2PH(U8(0), zs[k], d)
			case lanes == 8 && nt:
				VMOVNTDQ(zs[k].AsY(), d)
			case lanes == 8:
				VMOVDQU(zs[k].AsY(), d)
			case nt:
				VMOVNTDQ(zs[k], d)
			default:
				VMOVDQU32(zs[k], d)
			}
		}
	}
	loopOrNT(avx512, nt, body, block{4 * lanes, 4 * lanes * bytesOf(from), 4 * lanes * out})
}

// smallTo32 is the body of the conversions of u8, i16 and u16 to bfloat16 (widened, VCVTDQ2PS,
// exact, then roundBF16) and of f8e8m0 to float32, binary16, bfloat16 and (AVX-512) float64 (the
// code moved to the float32 exponent, code 0 given 2^-127 and code 0xFF NaN, then VCVTPS2PH, the
// top halves or VCVTPS2PD): four vectors of 32-bit lanes a block, two for float64.
func smallTo32(a *isa, from, to string) {
	lanes := a.bytes / 4
	v := a.vec
	bcastD(1, v(15))
	bcastD(0x7FFF, v(14))
	bcastD(0x00400000, v(13)) // 2^-127
	bcastD(0x7FC00000, v(12)) // NaN
	bcastD(0xFF, v(11))
	VPXOR(v(10).AsX(), v(10).AsX(), v(10).AsX())
	and := func(x, y, z Op) { VPAND(x, y, z) }
	if a == avx512 {
		and = func(x, y, z Op) { VPANDD(x, y, z) }
	}
	nv := 4 // vectors a block; two for float64, whose four would not fit loop's frame
	if to == "F64" {
		nv = 2
	}
	body := func(i, o int) {
		for k := range nv {
			x, s, m := v(k), v(4), v(5)
			in := src(i + k*lanes*bytesOf(from))
			switch from {
			case "U8", "F8E8M0":
				VPMOVZXBD(in, x)
			case "I16":
				VPMOVSXWD(in, x)
			case "U16":
				VPMOVZXWD(in, x)
			}
			if from != "F8E8M0" {
				VCVTDQ2PS(x, x)
				roundBF16(x, s, v(15), v(14), and)
			} else {
				VPSLLD(U8(23), x, s)
				if a == avx512 {
					VPCMPEQD(v(10), x, K1)
					VMOVDQA32(v(13), K1, s)
					VPCMPEQD(v(11), x, K1)
					VMOVDQA32(v(12), K1, s)
				} else {
					VPCMPEQD(v(10), x, m)
					VPBLENDVB(m, v(13), s, s)
					VPCMPEQD(v(11), x, m)
					VPBLENDVB(m, v(12), s, s)
				}
				if to == "BF16" {
					VPSRLD(U8(16), s, x)
				}
			}
			out := dst(o + k*lanes*map[string]int{"F64": 8, "F32": 4, "F16": 2, "BF16": 2}[to])
			switch {
			case to == "F64":
				storeF64Halves(s, v(6), v(7), out, dst(o+k*lanes*8+64))
			case to == "F32":
				storeInt(a, 4)(s, out)
			case to == "F16":
				VCVTPS2PH(U8(0), s, out)
			case a == avx512:
				VPMOVDW(x, out)
			default:
				VEXTRACTI128(U8(1), x, m.AsX())
				VPACKUSDW(m.AsX(), x.AsX(), m.AsX())
				VMOVDQU(m.AsX(), out)
			}
		}
	}
	outBytes := map[string]int{"F64": 8, "F32": 4, "F16": 2, "BF16": 2}[to]
	loop(a, body, block{nv * lanes, nv * lanes * bytesOf(from), nv * lanes * outBytes})
}
