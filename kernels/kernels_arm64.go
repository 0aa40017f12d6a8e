//go:build !purego

package kernels

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/convertpromote/convertpromote/element"
)

// Feature flags, read once at start-up. No kernel uses FP16 arithmetic (FEAT_FP16, x/sys/cpu's
// HasFPHP/HasASIMDHP): the f16 conversions FCVTN/FCVTL are base ARMv8 Advanced SIMD, so every
// kernel except BFCVTN runs on any arm64 CPU (Cortex-A53 included). The kernels rely on FPCR as
// Go leaves it (round to nearest even, no flush to zero, no default NaN), like Go's own float
// conversions do. Tests switch useBFCVTN off and on to run both f32 → bf16 branches on a CPU
// that has FEAT_BF16.
var (
	// hasASIMD: Advanced SIMD, present on every arm64 CPU Go supports.
	hasASIMD = cpu.ARM64.HasASIMD
	// hasBF16: FEAT_BF16 (BFCVTN), which golang.org/x/sys/cpu does not report; read from the
	// auxiliary vector's HWCAP2 (see bf16_linux_arm64.go).
	hasBF16 = cpuHasBF16()
	// useBFCVTN selects BFCVTN for f32 → bf16; it is never true without hasBF16.
	useBFCVTN = hasBF16
)

// The NEON kernels in float_arm64.s, decode_arm64.s, encode_arm64.s and int_arm64.s. Each
// converts n elements, n a positive multiple of its block size (neonKernel.blk).

//go:noescape
func f32ToF16NEON(dst, src *byte, n int)

//go:noescape
func f16ToF32NEON(dst, src *byte, n int)

//go:noescape
func f32ToBF16NEON(dst, src *byte, n int)

//go:noescape
func f32ToBF16BFCVTN(dst, src *byte, n int)

//go:noescape
func bf16ToF32NEON(dst, src *byte, n int)

//go:noescape
func f16ToBF16NEON(dst, src *byte, n int)

//go:noescape
func bf16ToF16NEON(dst, src *byte, n int)

//go:noescape
func f64ToF32NEON(dst, src *byte, n int)

//go:noescape
func f32ToF64NEON(dst, src *byte, n int)

//go:noescape
func f8e4m3ToF32NEON(dst, src *byte, n int)

//go:noescape
func f8e4m3ToF16NEON(dst, src *byte, n int)

//go:noescape
func f8e5m2ToF16NEON(dst, src *byte, n int)

//go:noescape
func f8e5m2ToF32NEON(dst, src *byte, n int)

//go:noescape
func nibbleToF32NEON(dst, src *byte, n int, tab *byte)

//go:noescape
func nibbleToF16NEON(dst, src *byte, n int, tab *byte)

//go:noescape
func i8ToF32NEON(dst, src *byte, n int)

//go:noescape
func u8ToF32NEON(dst, src *byte, n int)

//go:noescape
func i16ToF32NEON(dst, src *byte, n int)

//go:noescape
func u16ToF32NEON(dst, src *byte, n int)

//go:noescape
func i32ToF32NEON(dst, src *byte, n int)

//go:noescape
func i8ToI32NEON(dst, src *byte, n int)

//go:noescape
func u8ToI32NEON(dst, src *byte, n int)

//go:noescape
func i16ToI32NEON(dst, src *byte, n int)

//go:noescape
func i32ToI64NEON(dst, src *byte, n int)

//go:noescape
func i64ToI32NEON(dst, src *byte, n int)

//go:noescape
func i32ToI16NEON(dst, src *byte, n int)

//go:noescape
func i32ToI8NEON(dst, src *byte, n int)

//go:noescape
func f32ToI32NEON(dst, src *byte, n int)

//go:noescape
func f32ToI16NEON(dst, src *byte, n int)

//go:noescape
func f32ToI8NEON(dst, src *byte, n int)

//go:noescape
func f32ToU8NEON(dst, src *byte, n int)

//go:noescape
func byteToBoolNEON(dst, src *byte, n int)

//go:noescape
func boolToF32NEON(dst, src *byte, n int)

//go:noescape
func f32ToBoolNEON(dst, src *byte, n int)

//go:noescape
func f16ToF8e5m2NEON(dst, src *byte, n int)

//go:noescape
func f32ToF8e5m2NEON(dst, src *byte, n int)

//go:noescape
func f16ToF8e4m3NEON(dst, src *byte, n int)

//go:noescape
func f32ToF8e4m3NEON(dst, src *byte, n int)

//go:noescape
func i8ToF16NEON(dst, src *byte, n int)

//go:noescape
func u8ToF16NEON(dst, src *byte, n int)

//go:noescape
func i16ToF16NEON(dst, src *byte, n int)

//go:noescape
func u16ToF16NEON(dst, src *byte, n int)

//go:noescape
func i32ToF16NEON(dst, src *byte, n int)

// neonID names one assembly kernel; callNEON calls it directly, so the stack buffers of the
// tail in runNEON do not escape (a call through a func value would move them to the heap).
type neonID uint8

const (
	kF32F16 neonID = iota
	kF16F32
	kF32BF16
	kF32BF16BFCVTN
	kBF16F32
	kF16BF16
	kBF16F16
	kF64F32
	kF32F64
	kE4M3F32
	kE4M3F16
	kE5M2F16
	kE5M2F32
	kNibF32
	kNibF16
	kI8F32
	kU8F32
	kI16F32
	kU16F32
	kI32F32
	kI8I32
	kU8I32
	kI16I32
	kI32I64
	kI64I32
	kI32I16
	kI32I8
	kF32I32
	kF32I16
	kF32I8
	kF32U8
	kByteBool
	kBoolF32
	kF32Bool
	kF16E5M2
	kF32E5M2
	kF16E4M3
	kF32E4M3
	kI8F16
	kU8F16
	kI16F16
	kU16F16
	kI32F16
)

func callNEON(id neonID, dst, src *byte, n int, tab *byte) {
	switch id {
	case kF32F16:
		f32ToF16NEON(dst, src, n)
	case kF16F32:
		f16ToF32NEON(dst, src, n)
	case kF32BF16:
		f32ToBF16NEON(dst, src, n)
	case kF32BF16BFCVTN:
		f32ToBF16BFCVTN(dst, src, n)
	case kBF16F32:
		bf16ToF32NEON(dst, src, n)
	case kF16BF16:
		f16ToBF16NEON(dst, src, n)
	case kBF16F16:
		bf16ToF16NEON(dst, src, n)
	case kF64F32:
		f64ToF32NEON(dst, src, n)
	case kF32F64:
		f32ToF64NEON(dst, src, n)
	case kE4M3F32:
		f8e4m3ToF32NEON(dst, src, n)
	case kE4M3F16:
		f8e4m3ToF16NEON(dst, src, n)
	case kE5M2F16:
		f8e5m2ToF16NEON(dst, src, n)
	case kE5M2F32:
		f8e5m2ToF32NEON(dst, src, n)
	case kNibF32:
		nibbleToF32NEON(dst, src, n, tab)
	case kNibF16:
		nibbleToF16NEON(dst, src, n, tab)
	case kI8F32:
		i8ToF32NEON(dst, src, n)
	case kU8F32:
		u8ToF32NEON(dst, src, n)
	case kI16F32:
		i16ToF32NEON(dst, src, n)
	case kU16F32:
		u16ToF32NEON(dst, src, n)
	case kI32F32:
		i32ToF32NEON(dst, src, n)
	case kI8I32:
		i8ToI32NEON(dst, src, n)
	case kU8I32:
		u8ToI32NEON(dst, src, n)
	case kI16I32:
		i16ToI32NEON(dst, src, n)
	case kI32I64:
		i32ToI64NEON(dst, src, n)
	case kI64I32:
		i64ToI32NEON(dst, src, n)
	case kI32I16:
		i32ToI16NEON(dst, src, n)
	case kI32I8:
		i32ToI8NEON(dst, src, n)
	case kF32I32:
		f32ToI32NEON(dst, src, n)
	case kF32I16:
		f32ToI16NEON(dst, src, n)
	case kF32I8:
		f32ToI8NEON(dst, src, n)
	case kF32U8:
		f32ToU8NEON(dst, src, n)
	case kByteBool:
		byteToBoolNEON(dst, src, n)
	case kBoolF32:
		boolToF32NEON(dst, src, n)
	case kF32Bool:
		f32ToBoolNEON(dst, src, n)
	case kF16E5M2:
		f16ToF8e5m2NEON(dst, src, n)
	case kF32E5M2:
		f32ToF8e5m2NEON(dst, src, n)
	case kF16E4M3:
		f16ToF8e4m3NEON(dst, src, n)
	case kF32E4M3:
		f32ToF8e4m3NEON(dst, src, n)
	case kI8F16:
		i8ToF16NEON(dst, src, n)
	case kU8F16:
		u8ToF16NEON(dst, src, n)
	case kI16F16:
		i16ToF16NEON(dst, src, n)
	case kU16F16:
		u16ToF16NEON(dst, src, n)
	case kI32F16:
		i32ToF16NEON(dst, src, n)
	default:
		panic("kernels: unknown NEON kernel")
	}
}

// neonKernel describes one pair's kernel: which assembly function, its block size in elements
// (a power of two), the element widths in bits, and the lookup table of the 4-bit decoders.
type neonKernel struct {
	id              neonID
	blk             int
	inBits, outBits int
	tab             *byte
	fn              loopFunc // run, made once so archKernel does not allocate
}

// tailBuf is the largest block in bytes (32 4-bit codes to 32 f32, 8 f64 to 8 f32: 128 bytes).
const tailBuf = 128

// run converts n elements: whole blocks in place, then the last partial block through
// zero-padded stack buffers, so the kernel never reads or writes outside src and dst.
func (k *neonKernel) run(dst, src []byte, n int) {
	m := n &^ (k.blk - 1)
	if m > 0 {
		callNEON(k.id, unsafe.SliceData(dst), unsafe.SliceData(src), m, k.tab)
	}
	r := n - m
	if r == 0 {
		return
	}
	var sb, db [tailBuf]byte
	si, di := m*k.inBits/8, m*k.outBits/8
	copy(sb[:], src[si:si+(r*k.inBits+7)/8])
	callNEON(k.id, &db[0], &sb[0], k.blk, k.tab)
	copy(dst[di:di+(r*k.outBits+7)/8], db[:])
}

// The 4-bit decoding tables: value of each code as f32 and as f16 bits.
var (
	nibF32 [4][16]float32 // u4, i4, nf4, f4e2m1
	nibF16 [4][16]uint16
)

// neonTable holds each pair's kernel, indexed [from][to]; nil where NEON has none. f32 → bf16 is
// chosen at call time (useBFCVTN).
var neonTable [32][32]*neonKernel

// archInit fills the NEON tables; the package's init calls it before building the dispatch table.
func archInit() {
	if !hasASIMD {
		return
	}
	for c := range 16 {
		nibF32[0][c] = float32(c)
		nibF32[1][c] = float32(int8(c<<4) >> 4)
		nibF32[2][c] = element.NF4Codes[c]
		nibF32[3][c] = f4e2m1Value(uint8(c))
	}
	// The f16 tables are the f32 tables rounded by FCVTN (round to nearest even), the same
	// rounding as every f32 → f16 conversion; only nf4 codes are not exact in f16.
	for t := range nibF32 {
		f32ToF16NEON((*byte)(unsafe.Pointer(&nibF16[t][0])), (*byte)(unsafe.Pointer(&nibF32[t][0])), 16)
	}
	type p = [2]element.Type
	k := func(id neonID, blk int, from, to element.Type) *neonKernel {
		return &neonKernel{id: id, blk: blk, inBits: from.Bits(), outBits: to.Bits()}
	}
	pairs := map[[2]element.Type]*neonKernel{
		{element.F32, element.F16}:  k(kF32F16, 16, element.F32, element.F16),
		{element.F16, element.F32}:  k(kF16F32, 16, element.F16, element.F32),
		{element.BF16, element.F32}: k(kBF16F32, 16, element.BF16, element.F32),
		{element.F16, element.BF16}: k(kF16BF16, 16, element.F16, element.BF16),
		{element.BF16, element.F16}: k(kBF16F16, 16, element.BF16, element.F16),
		{element.F64, element.F32}:  k(kF64F32, 8, element.F64, element.F32),
		{element.F32, element.F64}:  k(kF32F64, 8, element.F32, element.F64),

		{element.F8E4M3, element.F32}: k(kE4M3F32, 16, element.F8E4M3, element.F32),
		{element.F8E4M3, element.F16}: k(kE4M3F16, 16, element.F8E4M3, element.F16),
		{element.F8E5M2, element.F16}: k(kE5M2F16, 16, element.F8E5M2, element.F16),
		{element.F8E5M2, element.F32}: k(kE5M2F32, 16, element.F8E5M2, element.F32),

		{element.F16, element.F8E5M2}: k(kF16E5M2, 16, element.F16, element.F8E5M2),
		{element.F32, element.F8E5M2}: k(kF32E5M2, 16, element.F32, element.F8E5M2),
		{element.F16, element.F8E4M3}: k(kF16E4M3, 16, element.F16, element.F8E4M3),
		{element.F32, element.F8E4M3}: k(kF32E4M3, 16, element.F32, element.F8E4M3),
		{element.I8, element.F16}:     k(kI8F16, 16, element.I8, element.F16),
		{element.U8, element.F16}:     k(kU8F16, 16, element.U8, element.F16),
		{element.I16, element.F16}:    k(kI16F16, 16, element.I16, element.F16),
		{element.U16, element.F16}:    k(kU16F16, 16, element.U16, element.F16),
		{element.I32, element.F16}:    k(kI32F16, 16, element.I32, element.F16),

		{element.I8, element.F32}:  k(kI8F32, 16, element.I8, element.F32),
		{element.U8, element.F32}:  k(kU8F32, 16, element.U8, element.F32),
		{element.I16, element.F32}: k(kI16F32, 16, element.I16, element.F32),
		{element.U16, element.F32}: k(kU16F32, 16, element.U16, element.F32),
		{element.I32, element.F32}: k(kI32F32, 16, element.I32, element.F32),
		{element.I8, element.I32}:  k(kI8I32, 16, element.I8, element.I32),
		{element.U8, element.I32}:  k(kU8I32, 16, element.U8, element.I32),
		{element.I16, element.I32}: k(kI16I32, 16, element.I16, element.I32),
		{element.I32, element.I64}: k(kI32I64, 8, element.I32, element.I64),
		{element.I64, element.I32}: k(kI64I32, 8, element.I64, element.I32),
		{element.I32, element.I16}: k(kI32I16, 16, element.I32, element.I16),
		{element.I32, element.I8}:  k(kI32I8, 16, element.I32, element.I8),
		{element.F32, element.I32}: k(kF32I32, 16, element.F32, element.I32),
		{element.F32, element.I16}: k(kF32I16, 16, element.F32, element.I16),
		{element.F32, element.I8}:  k(kF32I8, 16, element.F32, element.I8),
		{element.F32, element.U8}:  k(kF32U8, 16, element.F32, element.U8),

		{element.Boolean, element.U8}:  k(kByteBool, 16, element.Boolean, element.U8),
		{element.U8, element.Boolean}:  k(kByteBool, 16, element.U8, element.Boolean),
		{element.Boolean, element.F32}: k(kBoolF32, 16, element.Boolean, element.F32),
		{element.F32, element.Boolean}: k(kF32Bool, 16, element.F32, element.Boolean),
	}
	for t, from := range []element.Type{element.U4, element.I4, element.NF4, element.F4E2M1} {
		kf := k(kNibF32, 32, from, element.F32)
		kf.tab = (*byte)(unsafe.Pointer(&nibF32[t][0]))
		pairs[p{from, element.F32}] = kf
		kh := k(kNibF16, 32, from, element.F16)
		kh.tab = (*byte)(unsafe.Pointer(&nibF16[t][0]))
		pairs[p{from, element.F16}] = kh
	}
	for pr, kn := range pairs {
		kn.fn = kn.run
		neonTable[pr[0]][pr[1]] = kn
	}
	bf16Int.fn = bf16Int.run
	bf16BFCVTN.fn = bf16BFCVTN.run
}

// The two f32 → bf16 kernels.
var (
	bf16Int    = &neonKernel{id: kF32BF16, blk: 16, inBits: 32, outBits: 16}
	bf16BFCVTN = &neonKernel{id: kF32BF16BFCVTN, blk: 16, inBits: 32, outBits: 16}
)

// f32ToBF16Dynamic is the f32 → bf16 loop of the NEON path: it asks f32ToBF16Kernel on every call,
// so that Convert's dispatch table, built once, follows the tests' switch of useBFCVTN.
func f32ToBF16Dynamic(dst, src []byte, n int) { f32ToBF16Kernel().fn(dst, src, n) }

// f32ToBF16Kernel returns the f32 → bf16 kernel in use: BFCVTN only on a CPU with FEAT_BF16.
func f32ToBF16Kernel() *neonKernel {
	if useBFCVTN && hasBF16 {
		return bf16BFCVTN
	}
	return bf16Int
}

// f4e2m1Value decodes a 4-bit e2m1 code: sign bit 3, exponent bits 2-1 (bias 1), mantissa bit 0.
func f4e2m1Value(c uint8) float32 {
	e, m := int(c>>1&3), float64(c&1)
	v := m / 2 // subnormal: 0 or 0.5
	if e > 0 {
		v = math.Ldexp(1+m/2, e-1)
	}
	if c&8 != 0 {
		v = -v
	}
	return float32(v)
}

// archPaths returns the SIMD paths this CPU can run, best first: NEON on every arm64 CPU with
// Advanced SIMD.
func archPaths() []Path {
	if hasASIMD {
		return []Path{NEON}
	}
	return nil
}

// archKernel returns the NEON kernel for the pair, or nil when NEON has none (or p is not NEON).
func archKernel(p Path, from, to element.Type) loopFunc {
	if p != NEON || !hasASIMD {
		return nil
	}
	if from == element.F32 && to == element.BF16 {
		return f32ToBF16Dynamic
	}
	if int(from) < len(neonTable) && int(to) < len(neonTable) {
		if k := neonTable[from][to]; k != nil {
			return k.fn
		}
	}
	return nil
}
