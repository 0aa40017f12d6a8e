//go:build gc && !purego

package kernels

import (
	"fmt"
	"math"

	"github.com/convertpromote/convertpromote/element"
)

// The lookup tables and permutation indices of the amd64 kernels (the *_amd64.s files). They are
// built from the scalar codecs and from tables.go, never by running a kernel, so that a table
// cannot inherit a kernel's error.

// The tables are filled before the package's users can call a kernel; nibbleValuesF32 and
// nibbleValuesF16 are package-level initialisers, ready before any init function.
func init() {
	if haveAVX2 {
		initTables()
	}
}

var (
	// oddWords selects the high halves of the dwords of two registers (VPERMT2W indices 1, 3, …, 63).
	oddWords [32]uint16
	// oddBytes selects the high bytes of the words of two registers (VPERMT2B indices 1, 3, …, 127).
	oddBytes [64]byte
	// evenBytes selects the low bytes of the words of two registers (VPERMI2B indices 0, 2, …, 126).
	evenBytes [64]byte
	// lowBytesD selects the low bytes of the dwords of two registers (VPERMT2B indices 0, 4, …,
	// 124), into the low 32 bytes.
	lowBytesD [64]byte
	// lowWordsD selects the low halves of the dwords of two registers (VPERMT2W indices 0, 2, …, 62).
	lowWordsD [32]uint16
	// lowDwordsQ selects the low halves of the qwords of two registers (VPERMT2D indices 0, 2, …, 30).
	lowDwordsQ [16]uint32
	// interleaveWords interleaves the low halves of two registers word by word (VPERMT2W
	// indices 0, 32, 1, 33, …, 15, 47).
	interleaveWords [32]uint16
	// unpackOrder permutes 64 bytes so that VPUNPCKLBW and VPUNPCKHBW, which interleave within
	// 16-byte lanes, give elements 0..31 and 32..63 in order.
	unpackOrder [64]byte
	// unpackOrder2 permutes 64 bytes so that VPUNPCKL/HBW followed by VPUNPCKL/HWD of each
	// result give elements 0..15, 16..31, 32..47 and 48..63 in order.
	unpackOrder2 [64]byte

	// nibbleWordsF16 holds, for each type of nibbleTypes, the binary16 of its 16 codes twice
	// (the VPERMW tables, which read 5 index bits); nibbleBytesF16 their 16 low bytes, then
	// their 16 high bytes (the VPSHUFB tables). The float32 kernels read nibbleValuesF32.
	nibbleWordsF16 [len(nibbleTypes)][32]uint16
	nibbleBytesF16 [len(nibbleTypes)][32]byte
	// lutF4e2m1BF16B holds the bfloat16 (top half of the float32) of each f4e2m1 code for
	// VPSHUFB: 16 low bytes, then 16 high bytes (the float32 low halves are zero: initTables
	// checks it).
	lutF4e2m1BF16B [32]byte

	// lutE4m3F16Hi holds the high byte of the binary16 value of each f8e4m3 magnitude 0..127,
	// with bit 7 (the sign, zero in a magnitude) replaced by bit 7 of the low byte, whose other
	// bits are zero (initTables checks it): the VPERMI2B table of f8e4m3ToF16AVX512.
	lutE4m3F16Hi [128]byte
	// lutE4m3BF16 holds the bfloat16 (the top half of the exact float32) of each f8e4m3
	// magnitude 0..127, as 128 low bytes followed by 128 high bytes (the VPERMI2B tables of
	// f8e4m3ToF32AVX512).
	lutE4m3BF16 [256]byte
	// lutFNUZ16 holds, for f8e4m3fnuz (index 0) and f8e5m2fnuz (1) and for binary16 (0) and
	// bfloat16 (1), the target's value of each magnitude 0..127 as 128 low bytes followed by 128
	// high bytes: the VPERMI2B tables of the FNUZ decoders (fnuz_amd64.s). Both targets hold
	// every FNUZ value exactly (initTables checks it); the float32 decoder widens the bfloat16.
	lutFNUZ16 [2][2][256]byte
	// lutE5m2BF16 holds the bfloat16 of each f8e5m2 magnitude 0..127 (BF16FromF32 of its exact
	// float32, so a NaN quiet), 128 low bytes then 128 high bytes: the tables of the f8e5m2 →
	// bf16 and f64 decoders.
	lutE5m2BF16 [256]byte
	// nibbleWordsBF16 holds the bfloat16 of each code of each 4-bit type (nibbleValuesBF16:
	// exact but for nf4), twice, for VPERMW.
	nibbleWordsBF16 [len(nibbleTypes)][32]uint16

	// lutE4m3Enc and lutE5m2Enc hold, for each high byte H = 0..127 of a binary16 magnitude,
	// how its f8 code depends on the low byte L: code = base&0x7F + [L > thr1] + [L > s2 if
	// base&0x80], with base at offset 0 and thr1 at offset 128 (two VPERMI2B tables of 128
	// bytes); s2 is 0xBF for f8e4m3 and 0x00 for f8e5m2. See f8EncTable.
	lutE4m3Enc, lutE5m2Enc [256]byte
	// lutE4m3Sub holds, for the high bytes H = 0x14..0x23 of the binary16 magnitudes that round
	// to an f8e4m3 subnormal or to 2^-6 (2^-10 ≤ |h| < 2^-6), the code at low byte 0 (16 bytes)
	// and then the complement of the largest low byte that keeps it (16 bytes): the code is
	// base + [L > thr], one step at most (the VPSHUFB tables of the AVX2 encoder, taken from
	// lutE4m3Enc).
	lutE4m3Sub [32]byte

	// lutI8F16 and lutU8F16 hold the binary16 of each byte read as int8 and as uint8: the 256
	// low bytes, then the 256 high bytes.
	lutI8F16, lutU8F16 [512]byte
)

// initTables fills the lookup tables from the scalar codecs (docs/SEMANTICS.md §3.7) and
// tables.go. It panics when a table does not have the shape its kernel relies on.
func initTables() {
	for i := range oddWords {
		oddWords[i] = uint16(2*i + 1)
	}
	for i := range oddBytes {
		oddBytes[i] = byte(2*i + 1)
		evenBytes[i] = byte(2 * i)
	}
	for i := range lowWordsD {
		lowWordsD[i] = uint16(2 * i)
		lowBytesD[i] = byte(4 * i)
	}
	for i := range lowDwordsQ {
		lowDwordsQ[i] = uint32(2 * i)
	}
	lutE4m3Enc = f8EncTable(F8E4M3FromF16, 0xBF)
	lutE5m2Enc = f8EncTable(F8E5M2FromF16, 0x00)
	for i := range 16 {
		base, thr := lutE4m3Enc[0x14+i], lutE4m3Enc[128+0x14+i]
		if base&0x80 != 0 {
			panic("kernels: f8e4m3 code with two steps below 2^-6")
		}
		lutE4m3Sub[i], lutE4m3Sub[16+i] = base, ^thr
	}
	for i := range interleaveWords {
		interleaveWords[i] = uint16(i/2 + 32*(i%2))
	}
	for l := range 4 {
		for j := range 8 {
			unpackOrder[16*l+j] = byte(8*l + j)
			unpackOrder[16*l+8+j] = byte(32 + 8*l + j)
		}
	}
	// Byte p of a 128-bit lane L goes to word 8L+p (p < 8) of the VPUNPCKLBW result or word
	// 8L+p-8 of the VPUNPCKHBW one; word 8L+k goes to dword 4L+k (k < 4) of the VPUNPCKLWD result
	// or 4L+k-4 of the VPUNPCKHWD one. The results are stored in the order LBW/LWD, LBW/HWD,
	// HBW/LWD, HBW/HWD, 16 elements each.
	for pos := range 64 {
		l, p := pos/16, pos%16
		half := p / 8 // 0: VPUNPCKLBW, 1: VPUNPCKHBW
		k := p % 8    // word 8l+k of that result
		elem := 32*half + 16*(k/4) + 4*l + k%4
		unpackOrder2[pos] = byte(elem)
	}
	for t := range nibbleTypes {
		for i, v := range nibbleValuesBF16[t] {
			nibbleWordsBF16[t][i], nibbleWordsBF16[t][i+16] = v, v
		}
		for i, v := range nibbleValuesF16[t] {
			nibbleWordsF16[t][i], nibbleWordsF16[t][i+16] = v, v
			nibbleBytesF16[t][i], nibbleBytesF16[t][i+16] = byte(v), byte(v>>8)
		}
	}
	f4 := nibbleIndex(element.F4E2M1)
	for i, f := range nibbleValuesF32[f4] {
		b := math.Float32bits(f)
		if b&0xFFFF != 0 {
			panic("kernels: an f4e2m1 value whose float32 has a nonzero low half")
		}
		lutF4e2m1BF16B[i], lutF4e2m1BF16B[i+16] = byte(b>>16), byte(b>>24)
	}
	for _, v := range nibbleBytesF16[f4][:16] {
		if v != 0 {
			panic("kernels: an f4e2m1 value whose binary16 has a nonzero low byte (f4e2m1ToF16AVX2 looks up only the high byte)")
		}
	}
	for c := range 128 {
		h := F16FromF8E4M3(uint8(c))
		if h&0x7F != 0 {
			panic("kernels: an f8e4m3 value whose binary16 has low bits")
		}
		lutE4m3F16Hi[c] = byte(h>>8) | byte(h)&0x80
		b := math.Float32bits(F32FromF8E4M3(uint8(c)))
		if b&0xFFFF != 0 {
			panic("kernels: an f8e4m3 value whose float32 has a nonzero low half")
		}
		lutE4m3BF16[c], lutE4m3BF16[c+128] = byte(b>>16), byte(b>>24)
		f5 := F32FromF8E5M2(uint8(c))
		b5 := BF16FromF32(f5)
		if f5 == f5 && uint32(b5)<<16 != math.Float32bits(f5) {
			panic("kernels: an f8e5m2 number that bfloat16 does not hold exactly")
		}
		lutE5m2BF16[c], lutE5m2BF16[c+128] = byte(b5), byte(b5>>8)
		for t, dec := range [2]func(uint8) float32{F32FromF8E4M3FNUZ, F32FromF8E5M2FNUZ} {
			f := dec(uint8(c))
			h, b := F16FromF32(f), math.Float32bits(f)
			if F32FromF16(h) != f || b&0xFFFF != 0 {
				panic("kernels: an FNUZ value that binary16 or bfloat16 does not hold exactly")
			}
			lutFNUZ16[t][0][c], lutFNUZ16[t][0][c+128] = byte(h), byte(h>>8)
			lutFNUZ16[t][1][c], lutFNUZ16[t][1][c+128] = byte(b>>16), byte(b>>24)
		}
	}
	for i := range 256 {
		s, u := F16FromF32(float32(int8(i))), F16FromF32(float32(i))
		lutI8F16[i], lutI8F16[256+i] = byte(s), byte(s>>8)
		lutU8F16[i], lutU8F16[256+i] = byte(u), byte(u>>8)
	}
}

// f8EncTable derives lutE4m3Enc or lutE5m2Enc from the encoding rule enc, F8E4M3FromF16 or
// F8E5M2FromF16 (docs/SEMANTICS.md §3.5, §3.8). For a fixed high byte H, the code of the magnitude
// H<<8 | L never decreases as L goes from 0 to 255 and rises by at most 2, once at thr1 and
// once at s2 if at all. f8e4m3: a step is 128 binary16 steps wide in the normal range (the code
// rises at L = 0x41 and L = 0xC0, ties to even), wider below 2^-6, and from 464 up the code
// stays 0x7F. f8e5m2: the code rises once by the rounding of L (at 0x80 or 0x81, ties to even),
// except that H = 0x7C goes from +Inf (L = 0) straight to the quiet NaN 0x7E (L > 0), and a NaN
// H keeps its code. So base is the code at L = 0, thr1 the largest L whose code is still base
// (0xFF, which no byte exceeds, when the code never rises), and bit 7 of base (the codes fit in
// 7 bits) flags a second step after s2. It panics if enc ever broke that shape.
func f8EncTable(enc func(uint16) uint8, s2 int) (t [256]byte) {
	for h := range 128 {
		base := enc(uint16(h) << 8)
		thr1, thr2, next := 0xFF, 0xFF, int(base)+2 // int: f8e8m0's base 0xFE steps to 0xFF
		for l := 255; l >= 0; l-- {
			c := enc(uint16(h)<<8 | uint16(l))
			if c < base || int(c) > next {
				panic("kernels: f8 codes of a 256-value block not rising by at most 2")
			}
			next = int(c)
			if int(c) > int(base)+1 {
				thr2 = l - 1
			}
			if c > base {
				thr1 = l - 1
			}
		}
		switch thr2 {
		case s2:
			base |= 0x80
		case 0xFF:
		default:
			panic(fmt.Sprintf("kernels: f8 code with a second step not at s2 (h %#x, thr2 %#x)", h, thr2))
		}
		t[h], t[128+h] = base, byte(thr1)
	}
	return t
}
