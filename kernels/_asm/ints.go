package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Integer widening and narrowing.

// intKernels declares the integer kernels (ints_amd64.s).
func intKernels() {
	// The widening kernels have one shape on both paths: a sign- or zero-extending load of one
	// vector of results and its store.
	for _, w := range []struct {
		from, to string
		ext      func(...Op)
		inBytes  int
		outBytes int
	}{
		{"I8", "I32", VPMOVSXBD, 1, 4},
		{"U8", "I32", VPMOVZXBD, 1, 4},
		{"I16", "I32", VPMOVSXWD, 2, 4},
		{"I32", "I64", VPMOVSXDQ, 4, 8},
	} {
		for _, a := range []*isa{avx2, avx512} {
			bl := block{a.bytes / w.outBytes, a.bytes / w.outBytes * w.inBytes, a.bytes}
			store := storeInt(a, w.outBytes)
			add(&kernel{name: kname(w.from, w.to, a), isa: a, from: w.from, to: w.to, body: func() {
				loop(a, func(i, o int) {
					w.ext(src(i), a.vec(0))
					store(a.vec(0), dst(o))
				}, bl)
			}})
		}
	}

	add(&kernel{name: "i64ToI32AVX2", isa: avx2, from: "I64", to: "I32",
		doc: []string{"VSHUFPS picks dwords 0 and 2 of each lane of both inputs, VPERMQ puts the quarters in order."},
		body: func() {
			loop(avx2, func(i, o int) {
				VMOVDQU(src(i), Y0)
				VMOVDQU(src(i+32), Y1)
				VSHUFPS(U8(0x88), Y1, Y0, Y0)
				VPERMQ(U8(0xD8), Y0, Y0)
				VMOVDQU(Y0, dst(o))
			}, block{8, 64, 32})
		}})
	// The low word (byte) of each dword is masked so that VPACKUSDW never saturates.
	add(&kernel{name: "i32ToI16AVX2", isa: avx2, from: "I32", to: "I16",
		doc: []string{"The low word of each dword, masked so that VPACKUSDW never saturates, in order after VPERMQ."},
		body: func() {
			bcastD(0xFFFF, Y15)
			loop(avx2, func(i, o int) {
				maskPack(i)
				VMOVDQU(Y0, dst(o))
			}, block{16, 64, 32})
		}})
	add(&kernel{name: "i32ToI8AVX2", isa: avx2, from: "I32", to: "I8",
		doc: []string{"The low byte of each dword, masked so that the packs never saturate."},
		body: func() {
			bcastD(0xFF, Y15)
			loop(avx2, func(i, o int) {
				maskPack(i)
				packW16(o)
			}, block{16, 64, 16})
		}})

	// AVX-512 narrows with one two-source permutation a vector (lowDwordsQ, lowWordsD,
	// lowBytesD: the low parts of the lanes of two registers).
	for _, n := range []struct {
		from, to string
		perm     func(...Op)
		table    string
		out      int
	}{
		{"I64", "I32", VPERMT2D, "lowDwordsQ", 64},
		{"I32", "I16", VPERMT2W, "lowWordsD", 64},
		{"I32", "I8", VPERMT2B, "lowBytesD", 32},
	} {
		add(&kernel{name: kname(n.from, n.to, avx512), isa: avx512, from: n.from, to: n.to,
			doc: []string{"One two-source permutation (" + n.table + ") of 128 source bytes."},
			body: func() {
				VMOVDQU64(sym(n.table, 0), Z10)
				loop(avx512, func(i, o int) {
					VMOVDQU64(src(i), Z0)
					n.perm(src(i+64), Z10, Z0)
					if n.out == 64 {
						VMOVDQU64(Z0, dst(o))
					} else {
						VMOVDQU(Y0, dst(o))
					}
				}, block{128 / bytesOf(n.from), 128, n.out})
			}})
	}
}

// maskPack keeps the low part (Y15) of the 16 dwords at i(SI) and packs them to words in Y0,
// in order.
func maskPack(i int) {
	VPAND(src(i), Y15, Y0)
	VPAND(src(i+32), Y15, Y1)
	VPACKUSDW(Y1, Y0, Y0)
	VPERMQ(U8(0xD8), Y0, Y0)
}

// packW16 packs the 16 word lanes of Y0 (each ≤ 0xFF) into 16 bytes at o(DI).
func packW16(o int) {
	VEXTRACTI128(U8(1), Y0, X1)
	VPACKUSWB(X1, X0, X0)
	VMOVDQU(X0, dst(o))
}

// storeInt returns the store of a vector of integers of size bytes on the path.
func storeInt(a *isa, size int) func(...Op) {
	switch {
	case a.bytes == 32:
		return func(ops ...Op) { VMOVDQU(ops[0], ops[1]) }
	case size == 8:
		return VMOVDQU64
	}
	return VMOVDQU32
}
