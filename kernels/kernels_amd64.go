//go:build !purego

//go:generate go -C _asm run . -out ../kernels_amd64.s -go ../stubs_amd64.go -registry ../registry.go

package kernels

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/convertpromote/convertpromote/element"
)

// CPU features, read once at start-up. The AVX2 path needs AVX2, F16C (VCVTPS2PH, VCVTPH2PS)
// and FMA (the Haswell baseline); the AVX-512 path needs AVX-512 F, BW, VL, DQ and VBMI
// (VPERMB, VPERMI2B) and BMI2 (BZHI, for the tail masks) on top of the AVX2 path, since it uses the AVX2 kernels for the pairs it has
// no wider kernel for.
var (
	haveAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasF16C && cpu.X86.HasFMA

	haveAVX512 = haveAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VBMI
)

// haveBF16 reports AVX512_BF16 (VCVTNE2PS2BF16), which the AVX-512 path uses for f32 and f16 →
// bf16 when the CPU has it.
var haveBF16 = haveAVX512 && cpu.X86.HasAVX512BF16

// archPaths returns the SIMD paths this CPU can run, best first.
func archPaths() []Path { return cpuPaths }

// cpuPaths is archPaths' answer, with its capacity cut to its length so that callers that
// append to it get a copy.
var cpuPaths = func() []Path {
	switch {
	case haveAVX512:
		return []Path{AVX512, AVX2}[:2:2]
	case haveAVX2:
		return []Path{AVX2}[:1:1]
	}
	return nil
}()

// archKernel returns the SIMD kernel for the pair on path p, or nil.
func archKernel(p Path, from, to element.Type) loopFunc { return simdKernel(p, from, to) }

// amd64Paths are the paths this architecture has kernels for, whether or not the CPU runs them.
const amd64Paths = onAVX2 | onAVX512

// archInit fills the dispatch tables of the paths the CPU has; the package's init calls it
// before building Convert's dispatch table.
func archInit() {
	bindKernels(amd64Kernels(), amd64Paths, func(p Path) bool {
		return p == AVX2 && haveAVX2 || p == AVX512 && haveAVX512
	})
	if !haveAVX2 {
		return
	}
	initTables()
	if haveBF16 {
		simdTable[AVX512][element.F32][element.BF16] = f32ToBF16AVX512BF
		simdTable[AVX512][element.F16][element.BF16] = f16ToBF16AVX512BF
	}
	if haveAVX512 {
		largeKernel = func(p Path, from, to element.Type) loopFunc {
			if p != AVX512 || from >= numTypes || to >= numTypes {
				return nil
			}
			return ntTable[from][to]
		}
	}
}

// Lookup tables of the 4-bit types: the value of each nibble as float32, and as binary16 split
// into the 16 low bytes followed by the 16 high bytes (for VPSHUFB) or as 32 uint16 (the 16
// values twice, for VPERMW, which reads 5 index bits).
type (
	nibbleF32 [16]float32
	nibbleF16 [32]uint16
)

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

	lutU4F32, lutI4F32, lutNf4F32, lutF4e2m1F32     nibbleF32
	lutU4F16, lutI4F16, lutNf4F16, lutF4e2m1F16     nibbleF16 // words for VPERMW: values 0..15 then again
	lutU4F16B, lutI4F16B, lutNf4F16B, lutF4e2m1F16B [32]byte  // bytes for VPSHUFB: 16 low bytes, 16 high bytes
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

// initTables fills the lookup tables from the decoding rules (docs/SEMANTICS.md §3.7), converting the
// float32 values to binary16 with the F16C kernel itself.
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
	f4 := [8]float32{0, 0.5, 1, 1.5, 2, 3, 4, 6}
	for i := range 16 {
		lutU4F32[i] = float32(i)
		lutI4F32[i] = float32(int8(i<<4) >> 4)
		lutNf4F32[i] = element.NF4Codes[i]
		lutF4e2m1F32[i] = f4[i&7]
		if i >= 8 {
			lutF4e2m1F32[i] = float32(math.Copysign(float64(f4[i&7]), -1))
		}
	}
	for _, t := range []struct {
		f32 *nibbleF32
		w   *nibbleF16
		b   *[32]byte
	}{{&lutU4F32, &lutU4F16, &lutU4F16B}, {&lutI4F32, &lutI4F16, &lutI4F16B}, {&lutNf4F32, &lutNf4F16, &lutNf4F16B},
		{&lutF4e2m1F32, &lutF4e2m1F16, &lutF4e2m1F16B}} {
		var h [16]uint16
		f32ToF16AVX2(unsafe.Slice((*byte)(unsafe.Pointer(&h[0])), 32), unsafe.Slice((*byte)(unsafe.Pointer(&t.f32[0])), 64), 16)
		for i, v := range h {
			t.w[i], t.w[i+16] = v, v
			t.b[i], t.b[i+16] = byte(v), byte(v>>8)
		}
	}
	for i, f := range lutF4e2m1F32 {
		b := math.Float32bits(f)
		if b&0xFFFF != 0 {
			panic("kernels: an f4e2m1 value whose float32 has a nonzero low half")
		}
		lutF4e2m1BF16B[i], lutF4e2m1BF16B[i+16] = byte(b>>16), byte(b>>24)
	}
	for _, v := range lutF4e2m1F16B[:16] {
		if v != 0 {
			panic("kernels: an f4e2m1 value whose binary16 has a nonzero low byte (f4e2m1ToF16AVX2 looks up only the high byte)")
		}
	}
	var src [128]byte
	var h [128]uint16
	for i := range src {
		src[i] = byte(i)
	}
	f8e4m3ToF16AVX2(unsafe.Slice((*byte)(unsafe.Pointer(&h[0])), 256), src[:], 128)
	for i, v := range h {
		if v&0x7F != 0 {
			panic("kernels: an f8e4m3 value whose binary16 has low bits")
		}
		lutE4m3F16Hi[i] = byte(v>>8) | byte(v)&0x80
	}
	var all [256]byte
	for i := range all {
		all[i] = byte(i)
	}
	for _, t := range []struct {
		k   loopFunc
		lut *[512]byte
	}{{i8ToF16AVX2, &lutI8F16}, {u8ToF16AVX2, &lutU8F16}} {
		var h [256]uint16
		t.k(unsafe.Slice((*byte)(unsafe.Pointer(&h[0])), 512), all[:], 256)
		for i, v := range h {
			t.lut[i], t.lut[256+i] = byte(v), byte(v>>8)
		}
	}
	var w [128]uint32
	f16ToF32AVX2(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 512), unsafe.Slice((*byte)(unsafe.Pointer(&h[0])), 256), 128)
	for i, v := range w {
		lutE4m3BF16[i], lutE4m3BF16[i+128] = byte(v>>16), byte(v>>24)
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
		thr1, thr2, next := 0xFF, 0xFF, base+2
		for l := 255; l >= 0; l-- {
			c := enc(uint16(h)<<8 | uint16(l))
			if c < base || c > next {
				panic("kernels: f8 codes of a 256-value block not rising by at most 2")
			}
			next = c
			if c > base+1 {
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
			panic("kernels: f8 code with a second step not at s2")
		}
		t[h], t[128+h] = base, byte(thr1)
	}
	return t
}

// handAVX2Kernels lists the AVX2 kernels not generated yet (kernels_avx2_amd64.s).
func handAVX2Kernels() []kernelSpec {
	const (
		bf16, f16, f32, f64 = element.BF16, element.F16, element.F32, element.F64
		e4m3, e5m2          = element.F8E4M3, element.F8E5M2
		i8, i16, i32, i64   = element.I8, element.I16, element.I32, element.I64
		u8, u16, boolean    = element.U8, element.U16, element.Boolean
	)
	return []kernelSpec{
		{AVX2, f32, f16, f32ToF16AVX2, false},
		{AVX2, f16, f32, f16ToF32AVX2, false},
		{AVX2, f32, bf16, f32ToBF16AVX2, false},
		{AVX2, bf16, f32, bf16ToF32AVX2, false},
		{AVX2, f16, bf16, f16ToBF16AVX2, false},
		{AVX2, bf16, f16, bf16ToF16AVX2, false},

		{AVX2, e4m3, f16, f8e4m3ToF16AVX2, false},
		{AVX2, e4m3, f32, f8e4m3ToF32AVX2, false},
		{AVX2, e5m2, f16, f8e5m2ToF16AVX2, false},
		{AVX2, e5m2, f32, f8e5m2ToF32AVX2, false},
		{AVX2, f32, e4m3, f32ToF8e4m3AVX2, false},
		{AVX2, f16, e4m3, f16ToF8e4m3AVX2, false},
		{AVX2, f32, e5m2, f32ToF8e5m2AVX2, false},
		{AVX2, f16, e5m2, f16ToF8e5m2AVX2, false},

		{AVX2, element.U4, f32, u4ToF32AVX2, false},
		{AVX2, element.I4, f32, i4ToF32AVX2, false},
		{AVX2, element.NF4, f32, nf4ToF32AVX2, false},
		{AVX2, element.F4E2M1, f32, f4e2m1ToF32AVX2, false},
		{AVX2, element.U4, f16, u4ToF16AVX2, false},
		{AVX2, element.I4, f16, i4ToF16AVX2, false},
		{AVX2, element.NF4, f16, nf4ToF16AVX2, false},
		{AVX2, element.F4E2M1, f16, f4e2m1ToF16AVX2, false},
	}
}

// handAVX512Kernels lists the AVX-512 kernels not generated yet (kernels_avx512_amd64.s).
func handAVX512Kernels() []kernelSpec {
	const (
		bf16, f16, f32, f64 = element.BF16, element.F16, element.F32, element.F64
		e4m3, e5m2          = element.F8E4M3, element.F8E5M2
		i8, i16, i32, i64   = element.I8, element.I16, element.I32, element.I64
		u8, u16, boolean    = element.U8, element.U16, element.Boolean
	)
	return []kernelSpec{
		{AVX512, f32, f16, f32ToF16AVX512, false},
		{AVX512, f16, f32, f16ToF32AVX512, false},
		{AVX512, f32, bf16, f32ToBF16AVX512, false},
		{AVX512, bf16, f32, bf16ToF32AVX512, false},
		{AVX512, f16, bf16, f16ToBF16AVX512, false},
		{AVX512, bf16, f16, bf16ToF16AVX512, false},

		{AVX512, e4m3, f16, f8e4m3ToF16AVX512, false},
		{AVX512, e4m3, f32, f8e4m3ToF32AVX512, false},
		{AVX512, e5m2, f16, f8e5m2ToF16AVX512, false},
		{AVX512, e5m2, f32, f8e5m2ToF32AVX512, false},
		{AVX512, f32, e4m3, f32ToF8e4m3AVX512, false},
		{AVX512, f16, e4m3, f16ToF8e4m3AVX512, false},
		{AVX512, f32, e5m2, f32ToF8e5m2AVX512, false},
		{AVX512, f16, e5m2, f16ToF8e5m2AVX512, false},

		{AVX512, element.U4, f32, u4ToF32AVX512, false},
		{AVX512, element.I4, f32, i4ToF32AVX512, false},
		{AVX512, element.NF4, f32, nf4ToF32AVX512, false},
		{AVX512, element.F4E2M1, f32, f4e2m1ToF32AVX512, false},
		{AVX512, element.U4, f16, u4ToF16AVX512, false},
		{AVX512, element.I4, f16, i4ToF16AVX512, false},
		{AVX512, element.NF4, f16, nf4ToF16AVX512, false},
		{AVX512, element.F4E2M1, f16, f4e2m1ToF16AVX512, false},

		{AVX512, f32, f16, f32ToF16AVX512NT, true},
		{AVX512, f16, f32, f16ToF32AVX512NT, true},
		{AVX512, f32, bf16, f32ToBF16AVX512NT, true},
		{AVX512, bf16, f32, bf16ToF32AVX512NT, true},
		{AVX512, e4m3, f16, f8e4m3ToF16AVX512NT, true},
	}
}

// amd64Kernels lists every amd64 kernel with its path and pair.
func amd64Kernels() []kernelSpec {
	return append(append(append(avx2Kernels(), avx512Kernels()...), handAVX2Kernels()...), handAVX512Kernels()...)
}
