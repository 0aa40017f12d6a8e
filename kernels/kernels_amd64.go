//go:build !purego

package kernels

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/convertpromote/convertpromote/element"
)

// CPU features, read once at start-up. The AVX2 path needs AVX2, F16C (VCVTPS2PH, VCVTPH2PS)
// and FMA (the Haswell baseline); the AVX-512 path needs AVX-512 F, BW, VL, DQ and VBMI
// (VPERMB, VPERMI2B) on top of the AVX2 path, since it uses the AVX2 kernels for the pairs it has
// no wider kernel for.
var (
	haveAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasF16C && cpu.X86.HasFMA

	haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VBMI
)

// archPaths returns the SIMD paths this CPU can run, best first.
func archPaths() []Path {
	switch {
	case haveAVX512:
		return []Path{AVX512, AVX2}
	case haveAVX2:
		return []Path{AVX2}
	}
	return nil
}

// archKernel returns the SIMD kernel for the pair on path p, or nil.
func archKernel(p Path, from, to element.Type) loopFunc {
	if from >= maxType || to >= maxType {
		return nil
	}
	switch p {
	case AVX2:
		return avx2Table[from][to]
	case AVX512:
		return avx512Table[from][to]
	}
	return nil
}

// maxType bounds the element types the dispatch tables cover (every type of package element).
const maxType = 32

// The dispatch tables, filled at start-up for the paths the CPU has.
var avx2Table, avx512Table [maxType][maxType]loopFunc

// asmFunc is the signature of every assembly kernel: it converts n elements from src to dst,
// where n is a positive multiple of the kernel's block size (its vector width in elements).
type asmFunc func(dst, src *byte, n int)

// kernelSpec describes one assembly kernel: the pair it converts, the kernel and its block size.
type kernelSpec struct {
	from, to element.Type
	k        asmFunc
	block    int
}

func init() {
	if !haveAVX2 {
		return
	}
	initTables()
	for _, s := range avx2Kernels() {
		avx2Table[s.from][s.to] = blocked(s)
	}
	if !haveAVX512 {
		return
	}
	avx512Table = avx2Table
	for _, s := range avx512Kernels() {
		avx512Table[s.from][s.to] = blocked(s)
	}
}

// blocked wraps an assembly kernel into a loopFunc: whole blocks run in the kernel directly, and
// a last partial block runs through a bounce buffer, so the kernel never reads or writes past
// the slices.
func blocked(s kernelSpec) loopFunc {
	k, block := s.k, s.block
	sbits, dbits := s.from.Bits(), s.to.Bits()
	if block&(block-1) != 0 || block*max(sbits, dbits)/8 > tailBytes {
		panic("kernels: bad block size")
	}
	return func(dst, src []byte, n int) {
		m := n &^ (block - 1)
		if m > 0 {
			k(unsafe.SliceData(dst), unsafe.SliceData(src), m)
		}
		if m < n {
			tail(k, block, sbits, dbits, dst, src, m, n)
		}
	}
}

// tailBytes is the size of the bounce buffers: the largest block of any kernel, in bytes.
const tailBytes = 512

// tail converts elements m..n-1 (fewer than one block) by copying them into a zeroed block,
// converting the whole block and copying back only the bytes of the n-m elements.
//
//go:noinline
func tail(k asmFunc, block, sbits, dbits int, dst, src []byte, m, n int) {
	var sb, db [tailBytes]byte
	s0, s1 := m*sbits/8, (n*sbits+7)/8
	d0, d1 := m*dbits/8, (n*dbits+7)/8
	copy(sb[:], src[s0:s1])
	k(&db[0], &sb[0], block)
	copy(dst[d0:d1], db[:d1-d0])
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
	// unpackOrder permutes 64 bytes so that VPUNPCKLBW and VPUNPCKHBW, which interleave within
	// 16-byte lanes, give elements 0..31 and 32..63 in order.
	unpackOrder [64]byte

	lutU4F32, lutI4F32, lutNf4F32, lutF4e2m1F32     nibbleF32
	lutU4F16, lutI4F16, lutNf4F16, lutF4e2m1F16     nibbleF16 // words for VPERMW: values 0..15 then again
	lutU4F16B, lutI4F16B, lutNf4F16B, lutF4e2m1F16B [32]byte  // bytes for VPSHUFB: 16 low bytes, 16 high bytes

	// lutE4m3F16 holds the binary16 value of each f8e4m3 magnitude 0..127, as 128 low bytes
	// followed by 128 high bytes (the tables of VPERMI2B).
	lutE4m3F16 [256]byte
)

// initTables fills the lookup tables from the decoding rules (SEMANTICS.md §3.1), converting the
// float32 values to binary16 with the F16C kernel itself.
func initTables() {
	for i := range oddWords {
		oddWords[i] = uint16(2*i + 1)
	}
	for l := range 4 {
		for j := range 8 {
			unpackOrder[16*l+j] = byte(8*l + j)
			unpackOrder[16*l+8+j] = byte(32 + 8*l + j)
		}
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
		f32ToF16AVX2((*byte)(unsafe.Pointer(&h[0])), (*byte)(unsafe.Pointer(&t.f32[0])), 16)
		for i, v := range h {
			t.w[i], t.w[i+16] = v, v
			t.b[i], t.b[i+16] = byte(v), byte(v>>8)
		}
	}
	var src [128]byte
	var h [128]uint16
	for i := range src {
		src[i] = byte(i)
	}
	f8e4m3ToF16AVX2((*byte)(unsafe.Pointer(&h[0])), &src[0], 128)
	for i, v := range h {
		lutE4m3F16[i], lutE4m3F16[i+128] = byte(v), byte(v>>8)
	}
}

// nibbleKernel binds a 4-bit lookup kernel to its table.
func nibbleKernel[T any](k func(dst, src *byte, n int, tab *T), tab *T) asmFunc {
	return func(dst, src *byte, n int) { k(dst, src, n, tab) }
}

func avx2Kernels() []kernelSpec {
	const (
		bf16, f16, f32, f64 = element.BF16, element.F16, element.F32, element.F64
		e4m3, e5m2          = element.F8E4M3, element.F8E5M2
		i8, i16, i32, i64   = element.I8, element.I16, element.I32, element.I64
		u8, u16, boolean    = element.U8, element.U16, element.Boolean
	)
	return []kernelSpec{
		{f32, f16, f32ToF16AVX2, 8},
		{f16, f32, f16ToF32AVX2, 8},
		{f32, bf16, f32ToBF16AVX2, 16},
		{bf16, f32, bf16ToF32AVX2, 8},
		{f16, bf16, f16ToBF16AVX2, 16},
		{bf16, f16, bf16ToF16AVX2, 8},

		{e4m3, f16, f8e4m3ToF16AVX2, 16},
		{e4m3, f32, f8e4m3ToF32AVX2, 16},
		{e5m2, f16, f8e5m2ToF16AVX2, 16},
		{e5m2, f32, f8e5m2ToF32AVX2, 8},
		{f32, e4m3, f32ToF8e4m3AVX2, 8},
		{f16, e4m3, f16ToF8e4m3AVX2, 8},
		{f32, e5m2, f32ToF8e5m2AVX2, 16},
		{f16, e5m2, f16ToF8e5m2AVX2, 16},

		{element.U4, f32, nibbleKernel(nibbleToF32AVX2, &lutU4F32), 8},
		{element.I4, f32, nibbleKernel(nibbleToF32AVX2, &lutI4F32), 8},
		{element.NF4, f32, nibbleKernel(nibbleToF32AVX2, &lutNf4F32), 8},
		{element.F4E2M1, f32, nibbleKernel(nibbleToF32AVX2, &lutF4e2m1F32), 8},
		{element.U4, f16, nibbleKernel(nibbleToF16AVX2, &lutU4F16B), 32},
		{element.I4, f16, nibbleKernel(nibbleToF16AVX2, &lutI4F16B), 32},
		{element.NF4, f16, nibbleKernel(nibbleToF16AVX2, &lutNf4F16B), 32},
		{element.F4E2M1, f16, nibbleKernel(nibbleToF16AVX2, &lutF4e2m1F16B), 32},

		{i8, f32, i8ToF32AVX2, 8},
		{u8, f32, u8ToF32AVX2, 8},
		{i16, f32, i16ToF32AVX2, 8},
		{u16, f32, u16ToF32AVX2, 8},
		{i32, f32, i32ToF32AVX2, 8},
		{i8, f16, i8ToF16AVX2, 8},
		{u8, f16, u8ToF16AVX2, 8},
		{i16, f16, i16ToF16AVX2, 8},
		{u16, f16, u16ToF16AVX2, 8},
		{i32, f16, i32ToF16AVX2, 8},

		{i8, i32, i8ToI32AVX2, 8},
		{u8, i32, u8ToI32AVX2, 8},
		{i16, i32, i16ToI32AVX2, 8},
		{i32, i64, i32ToI64AVX2, 4},
		{i64, i32, i64ToI32AVX2, 8},
		{i32, i16, i32ToI16AVX2, 16},
		{i32, i8, i32ToI8AVX2, 16},

		{f32, i32, f32ToI32AVX2, 8},
		{f32, i16, f32ToI16AVX2, 16},
		{f32, i8, f32ToI8AVX2, 16},
		{f32, u8, f32ToU8AVX2, 16},
		{f64, f32, f64ToF32AVX2, 4},
		{f32, f64, f32ToF64AVX2, 4},

		{boolean, u8, boolToU8AVX2, 32},
		{u8, boolean, boolToU8AVX2, 32},
		{boolean, f32, boolToF32AVX2, 8},
		{f32, boolean, f32ToBoolAVX2, 8},
	}
}

func avx512Kernels() []kernelSpec {
	const (
		bf16, f16, f32, f64 = element.BF16, element.F16, element.F32, element.F64
		e4m3, e5m2          = element.F8E4M3, element.F8E5M2
		i8, i16, i32, i64   = element.I8, element.I16, element.I32, element.I64
		u8, u16, boolean    = element.U8, element.U16, element.Boolean
	)
	return []kernelSpec{
		{f32, f16, f32ToF16AVX512, 32},
		{f16, f32, f16ToF32AVX512, 16},
		{f32, bf16, f32ToBF16AVX512, 32},
		{bf16, f32, bf16ToF32AVX512, 16},
		{f16, bf16, f16ToBF16AVX512, 32},
		{bf16, f16, bf16ToF16AVX512, 32},

		{e4m3, f16, f8e4m3ToF16AVX512, 64},
		{e4m3, f32, f8e4m3ToF32AVX512, 64},
		{e5m2, f16, f8e5m2ToF16AVX512, 64},
		{e5m2, f32, f8e5m2ToF32AVX512, 16},
		{f32, e4m3, f32ToF8e4m3AVX512, 16},
		{f16, e4m3, f16ToF8e4m3AVX512, 16},
		{f32, e5m2, f32ToF8e5m2AVX512, 32},
		{f16, e5m2, f16ToF8e5m2AVX512, 32},

		{element.U4, f32, nibbleKernel(nibbleToF32AVX512, &lutU4F32), 16},
		{element.I4, f32, nibbleKernel(nibbleToF32AVX512, &lutI4F32), 16},
		{element.NF4, f32, nibbleKernel(nibbleToF32AVX512, &lutNf4F32), 16},
		{element.F4E2M1, f32, nibbleKernel(nibbleToF32AVX512, &lutF4e2m1F32), 16},
		{element.U4, f16, nibbleKernel(nibbleToF16AVX512, &lutU4F16), 32},
		{element.I4, f16, nibbleKernel(nibbleToF16AVX512, &lutI4F16), 32},
		{element.NF4, f16, nibbleKernel(nibbleToF16AVX512, &lutNf4F16), 32},
		{element.F4E2M1, f16, nibbleKernel(nibbleToF16AVX512, &lutF4e2m1F16), 32},

		{i8, f32, i8ToF32AVX512, 16},
		{u8, f32, u8ToF32AVX512, 16},
		{i16, f32, i16ToF32AVX512, 16},
		{u16, f32, u16ToF32AVX512, 16},
		{i32, f32, i32ToF32AVX512, 16},
		{i8, f16, i8ToF16AVX512, 32},
		{u8, f16, u8ToF16AVX512, 32},
		{i16, f16, i16ToF16AVX512, 32},
		{u16, f16, u16ToF16AVX512, 32},
		{i32, f16, i32ToF16AVX512, 32},

		{i8, i32, i8ToI32AVX512, 16},
		{u8, i32, u8ToI32AVX512, 16},
		{i16, i32, i16ToI32AVX512, 16},
		{i32, i64, i32ToI64AVX512, 8},
		{i64, i32, i64ToI32AVX512, 16},
		{i32, i16, i32ToI16AVX512, 32},
		{i32, i8, i32ToI8AVX512, 32},

		{f32, i32, f32ToI32AVX512, 16},
		{f32, i16, f32ToI16AVX512, 32},
		{f32, i8, f32ToI8AVX512, 32},
		{f32, u8, f32ToU8AVX512, 32},
		{f64, f32, f64ToF32AVX512, 16},
		{f32, f64, f32ToF64AVX512, 8},

		{boolean, u8, boolToU8AVX512, 64},
		{u8, boolean, boolToU8AVX512, 64},
		{boolean, f32, boolToF32AVX512, 16},
		{f32, boolean, f32ToBoolAVX512, 32},
	}
}
