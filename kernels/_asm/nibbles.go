package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The 4-bit types u4, i4, nf4 and f4e2m1 to f32 and f16, and on AVX-512 to f64 and bf16: two
// elements a byte, the low nibble first. The tables (nibbleValuesF32 of tables.go,
// nibbleWordsF16, nibbleWordsBF16, nibbleBytesF16 and lutF4e2m1BF16B of tables_amd64.go) come
// from the scalar codecs.

// nibbleTypes are the 4-bit types in the order of the tables (nibbleTypes in tables.go; main
// checks the order).
var nibbleTypes = []string{"U4", "I4", "NF4", "F4E2M1"}

// nibbleTable returns the memory operand of the row of a 4-bit type in a table of tables.go or
// tables_amd64.go with rows of size bytes, at byte off of the row.
func nibbleTable(table, typ string, size, off int) Mem {
	for k, t := range nibbleTypes {
		if t == typ {
			return sym(table, k*size+off)
		}
	}
	panic("no 4-bit type " + typ)
}

// nibbleKernels declares the kernels of the 4-bit types (nibbles_amd64.s).
func nibbleKernels() {
	nibblesAVX2()
	for _, t := range nibbleTypes {
		// AVX-512 f32 (and f64, converted exactly): 8 bytes (16 nibbles) a block; each byte b
		// becomes the dword pair (b | b<<28, b>>4), and VPERMPS reads the low 4 bits of each
		// index.
		dwords := func(store func(o int), sout int) func() {
			return func() {
				VMOVUPS(nibbleTable("nibbleValuesF32", t, 64, 0), Z15)
				loop(avx512, func(i, o int) {
					VPMOVZXBQ(src(i), Z0)
					VPSLLQ(U8(28), Z0, Z1)
					VPORQ(Z1, Z0, Z0)
					VPERMPS(Z15, Z0, Z1)
					store(o)
				}, block{16, 8, sout})
			}
		}
		add(&kernel{name: kname(t, "F32", avx512), isa: avx512, from: t, to: "F32",
			doc:  []string{"VPERMPS lookups of nibbleValuesF32, indexed by the nibbles spread over the dwords."},
			body: dwords(func(o int) { VMOVUPS(Z1, dst(o)) }, 64)},
			&kernel{name: kname(t, "F64", avx512), isa: avx512, from: t, to: "F64",
				doc:  []string{"VPERMPS lookups of nibbleValuesF32, indexed by the nibbles spread over the dwords, converted to float64 (VCVTPS2PD, exact)."},
				body: dwords(func(o int) { storeF64Halves(Z1, Z2, Z3, dst(o), dst(o+64)) }, 128)})
		// AVX-512 f16 and bf16: 16 bytes (32 nibbles) a block; each byte b becomes the word pair
		// (b | b<<12, b>>4), and VPERMW reads the low 5 bits of each index (the tables hold their
		// 16 values twice).
		for _, to := range []string{"F16", "BF16"} {
			table := "nibbleWords" + to
			add(&kernel{name: kname(t, to, avx512), isa: avx512, from: t, to: to,
				doc: []string{"VPERMW lookups of " + table + ", indexed by the nibbles spread over the words."},
				body: func() {
					VMOVDQU64(nibbleTable(table, t, 64, 0), Z15)
					loop(avx512, func(i, o int) {
						VPMOVZXBD(src(i), Z0)
						VPSLLD(U8(12), Z0, Z1)
						VPORD(Z1, Z0, Z0)
						VPERMW(Z15, Z0, Z1)
						VMOVDQU64(Z1, dst(o))
					}, block{32, 16, 64})
				}})
		}
	}
}

func nibblesAVX2() {
	// nf4 → f32 decodes 4 bytes (8 nibbles) through the 16-entry float32 table in Y14 (entries
	// 0..7) and Y15 (8..15). The 4 bytes are broadcast to every dword and shifted right by 4k in
	// dword k (VPSRLVD with Y13 = 0, 4, …, 28), which puts nibble k in its low 4 bits: VPERMPS
	// reads index bits 2..0, and bit 3 of each index, shifted to the sign, picks the table.
	add(&kernel{name: "nf4ToF32AVX2", isa: avx2, from: "NF4", to: "F32",
		doc: []string{"VPSRLVD of 4 broadcast bytes gives the indices, two VPERMPS of nibbleValuesF32 and a blend the values."},
		body: func() {
			VMOVUPS(nibbleTable("nibbleValuesF32", "NF4", 64, 0), Y14)
			VMOVUPS(nibbleTable("nibbleValuesF32", "NF4", 64, 32), Y15)
			VMOVDQU(rodata("nibShifts", 0x0000000400000000, 0x0000000C00000008, 0x0000001400000010, 0x0000001C00000018), Y13)
			loop(avx2, func(i, o int) {
				VPBROADCASTD(src(i), Y0)
				VPSRLVD(Y13, Y0, Y0)
				VPERMPS(Y14, Y0, Y1)
				VPERMPS(Y15, Y0, Y2)
				VPSLLD(U8(28), Y0, Y3)
				VBLENDVPS(Y3, Y2, Y1, Y1)
				VMOVUPS(Y1, dst(o))
			}, block{8, 4, 32})
		}})

	// The u4 and i4 values are computed instead of looked up. The 4 bytes are broadcast to every
	// dword and shifted left by 28 - 4k in dword k (VPSLLVD, Y13 = 28, 24, …, 0), which puts
	// nibble k in bits 31..28. u4: VPSRLD by 28 and VCVTDQ2PS (exact). i4: VPSRAD by 28
	// sign-extends the nibble first.
	for _, t := range []struct {
		typ, what string
		shr       func(...Op)
	}{{"U4", "VPSRLD", VPSRLD}, {"I4", "VPSRAD", VPSRAD}} {
		add(&kernel{name: kname(t.typ, "F32", avx2), isa: avx2, from: t.typ, to: "F32",
			doc: []string{"VPSLLVD of 4 broadcast bytes, " + t.what + " by 28, VCVTDQ2PS."},
			body: func() {
				VMOVDQU(rodata("nibShiftsL", 0x000000180000001C, 0x0000001000000014, 0x000000080000000C, 0x0000000000000004), Y13)
				loop(avx2, func(i, o int) {
					VPBROADCASTD(src(i), Y0)
					VPSLLVD(Y13, Y0, Y0)
					t.shr(U8(28), Y0, Y0)
					VCVTDQ2PS(Y0, Y0)
					VMOVUPS(Y0, dst(o))
				}, block{8, 4, 32})
			}})
	}

	// The f16 kernels decode 32 bytes (64 nibbles) at a time into 64 binary16 values. Y14 and Y15
	// hold the low and the high bytes of the 16 values (VPSHUFB tables, both lanes), Y13 = 0x0F
	// bytes, Y12 = nibPermD. A round of byte unpacks first interleaves the low nibbles (the even
	// elements) and the high nibbles (the odd ones), which puts the indices in element order; the
	// two tables are looked up at them, 32 an instruction, and a second round of byte unpacks
	// interleaves low and high bytes into words (18 instructions for 64 elements; looking up the
	// even and the odd nibbles and interleaving the words afterwards takes 20 and is slower in
	// L1). Unpacks work within 128-bit lanes, so the source dwords are first put in the order 0,
	// 2, 4, 6, 1, 3, 5, 7 (VPERMD): the second round's unpacks of lane 0 then take source dwords
	// 0, 2, 4, 6 in turn and those of lane 1 the dwords 1, 3, 5, 7 that follow them.
	for _, t := range nibbleTypes[:3] {
		add(&kernel{name: kname(t, "F16", avx2), isa: avx2, from: t, to: "F16",
			doc: []string{"Two VPSHUFB lookups of nibbleBytesF16, low and high byte, 64 nibbles a step."},
			body: func() {
				VBROADCASTI128(nibbleTable("nibbleBytesF16", t, 32, 0), Y14)
				VBROADCASTI128(nibbleTable("nibbleBytesF16", t, 32, 16), Y15)
				bcastD(0x0F0F0F0F, Y13)
				VMOVDQU(nibPermD(), Y12)
				loop(avx2, func(i, o int) {
					VPERMD(src(i), Y12, Y0)
					VPSRLW(U8(4), Y0, Y1)
					VPAND(Y13, Y0, Y0)
					VPAND(Y13, Y1, Y1)
					VPUNPCKLBW(Y1, Y0, Y2)
					VPUNPCKHBW(Y1, Y0, Y4)
					VPSHUFB(Y2, Y14, Y0)
					VPSHUFB(Y2, Y15, Y1)
					VPSHUFB(Y4, Y14, Y2)
					VPSHUFB(Y4, Y15, Y4)
					VPUNPCKLBW(Y1, Y0, Y3)
					VPUNPCKHBW(Y1, Y0, Y5)
					VPUNPCKLBW(Y4, Y2, Y0)
					VPUNPCKHBW(Y4, Y2, Y1)
					VMOVDQU(Y3, dst(o))
					VMOVDQU(Y5, dst(o+32))
					VMOVDQU(Y0, dst(o+64))
					VMOVDQU(Y1, dst(o+96))
				}, block{64, 32, 128})
			}})
	}

	// f4e2m1 → f16 is the f16 route for tables whose 16 binary16 values all have a zero low byte
	// (f4e2m1: ±0, 0.5, 1, 1.5, 2, 3, 4, 6; initTables checks it): one lookup, of the high byte,
	// for the even and one for the odd elements, a round of byte unpacks that interleaves them
	// (bytes in element order), and a round under a zero low byte (Y11 = 0) that makes the words.
	// With the source dwords in the order of nibPermD, the four results hold elements 0..15,
	// 16..31, 32..47 and 48..63. 16 instructions for 64 elements against 20, and correspondingly
	// faster in L1. Y15 = the high bytes (both lanes), Y13 = 0x0F bytes, Y12 = nibPermD.
	add(&kernel{name: "f4e2m1ToF16AVX2", isa: avx2, from: "F4E2M1", to: "F16",
		doc: []string{"One VPSHUFB lookup of the high byte in nibbleBytesF16, the low byte being zero for every f4e2m1 value, 64 nibbles a step."},
		body: func() {
			VBROADCASTI128(nibbleTable("nibbleBytesF16", "F4E2M1", 32, 16), Y15)
			bcastD(0x0F0F0F0F, Y13)
			VMOVDQU(nibPermD(), Y12)
			VPXOR(Y11, Y11, Y11)
			loop(avx2, func(i, o int) {
				VPERMD(src(i), Y12, Y0)
				VPSRLW(U8(4), Y0, Y1)
				VPAND(Y13, Y0, Y0)
				VPAND(Y13, Y1, Y1)
				VPSHUFB(Y0, Y15, Y2)
				VPSHUFB(Y1, Y15, Y3)
				VPUNPCKLBW(Y3, Y2, Y0)
				VPUNPCKHBW(Y3, Y2, Y1)
				VPUNPCKLBW(Y0, Y11, Y2)
				VPUNPCKHBW(Y0, Y11, Y3)
				VPUNPCKLBW(Y1, Y11, Y4)
				VPUNPCKHBW(Y1, Y11, Y5)
				VMOVDQU(Y2, dst(o))
				VMOVDQU(Y3, dst(o+32))
				VMOVDQU(Y4, dst(o+64))
				VMOVDQU(Y5, dst(o+96))
			}, block{64, 32, 128})
		}})

	// f4e2m1 → float32 looks up the two high bytes of each value's float32 (its bfloat16, the low
	// half being zero) in lutF4e2m1BF16B, the low and the high byte for the even and the odd
	// elements, and makes the float32 values with three rounds of unpacks: low byte with high
	// byte, even element with odd element, and each word under a zero low word. After three
	// rounds a register holds in each 128-bit lane four elements, two source bytes, from that
	// lane of the source, so the source is first put in the order of its even 16-bit words, then
	// its odd ones (VPSHUFB within the lanes by nibEvenOdd, then VPERMQ): the eight results then
	// hold elements 0..7, 8..15, …, 56..63. 34 instructions for 64 elements where the VPERMPS
	// route takes 7 for 8; the gain in L1 is small, and widening the binary16 values of the f16
	// route with VEXTRACTI128 and VCVTPH2PS instead is slower (docs/perf/README.md). Y15 = the
	// high bytes, Y14 = the low bytes (both lanes), Y13 = 0x0F bytes, Y12 = nibEvenOdd (both
	// lanes), Y11 = 0.
	add(&kernel{name: "f4e2m1ToF32AVX2", isa: avx2, from: "F4E2M1", to: "F32",
		doc: []string{"Two VPSHUFB lookups of the two high bytes (lutF4e2m1BF16B), the low half of every f4e2m1 float32 being zero, then three rounds of unpacks, 64 nibbles a step."},
		body: func() {
			VBROADCASTI128(sym("lutF4e2m1BF16B", 0), Y14)
			VBROADCASTI128(sym("lutF4e2m1BF16B", 16), Y15)
			bcastD(0x0F0F0F0F, Y13)
			VBROADCASTI128(rodata("nibEvenOdd", 0x0D0C090805040100, 0x0F0E0B0A07060302), Y12)
			VPXOR(Y11, Y11, Y11)
			loop(avx2, func(i, o int) {
				VMOVDQU(src(i), Y0)
				VPSHUFB(Y12, Y0, Y0)
				VPERMQ(U8(0xD8), Y0, Y0)
				VPSRLW(U8(4), Y0, Y1)
				VPAND(Y13, Y0, Y0)
				VPAND(Y13, Y1, Y1)
				VPSHUFB(Y0, Y14, Y2)
				VPSHUFB(Y0, Y15, Y3)
				VPSHUFB(Y1, Y14, Y4)
				VPSHUFB(Y1, Y15, Y5)
				VPUNPCKLBW(Y3, Y2, Y0)
				VPUNPCKHBW(Y3, Y2, Y2)
				VPUNPCKLBW(Y5, Y4, Y1)
				VPUNPCKHBW(Y5, Y4, Y4)
				VPUNPCKLWD(Y1, Y0, Y3)
				VPUNPCKHWD(Y1, Y0, Y5)
				VPUNPCKLWD(Y4, Y2, Y0)
				VPUNPCKHWD(Y4, Y2, Y1)
				for k, r := range []VecPhysical{Y3, Y5, Y0, Y1} {
					VPUNPCKLWD(r, Y11, Y2)
					VPUNPCKHWD(r, Y11, r)
					VMOVDQU(Y2, dst(o+64*k))
					VMOVDQU(r, dst(o+64*k+32))
				}
			}, block{64, 32, 256})
		}})
}
