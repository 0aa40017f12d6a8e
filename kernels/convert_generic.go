package kernels

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

// The pure-Go conversion. Every pair's rule is written once: decode a block of source elements
// into a wide form (float32 for the narrow floats and f32, float64 for f64, two's-complement
// uint64 bits for integers and boolean, plus an imaginary part for complex types), then encode
// the destination from it. The registry's pairs also have direct loops, their rows' loops as
// code (direct_generic.go), which give the same bits.

// genericKernel returns the pure-Go loop for the pair, or nil for an unsupported pair (string,
// dynamic or an invalid type on either side).
func genericKernel(from, to element.Type) loopFunc {
	if int(from) >= len(genericTable) || int(to) >= len(genericTable) {
		return nil
	}
	return genericTable[from][to]
}

// genericTable holds the loop of every pair, built once so that Convert does not allocate.
var genericTable = func() [][]loopFunc {
	ts := element.All()
	t := make([][]loopFunc, len(ts))
	for _, from := range ts {
		t[from] = make([]loopFunc, len(ts))
		for _, to := range ts {
			t[from][to] = newGenericKernel(from, to)
		}
	}
	return t
}()

// newGenericKernel builds the loop for a pair: a copy for the same type, the direct loop of a
// registry pair or of an openvino row of ruleRegistry, or the general decode/encode loop.
func newGenericKernel(from, to element.Type) loopFunc {
	if !convertible(from) || !convertible(to) {
		return nil
	}
	if from == to {
		return copyLoop(from)
	}
	if f := directKernel(from, to); f != nil {
		return f
	}
	if f := openvinoLoop(from, to); f != nil {
		return f
	}
	if from == element.F8E5M2 && to == element.C32 {
		// f8e5m2 → f16 is the byte shifted left by 8, NaNs included (docs/SEMANTICS.md §3.8); the general
		// loop would decode through f32 and quiet a signalling NaN.
		return func(dst, src []byte, n int) {
			for i, c := range src[:n] {
				binary.LittleEndian.PutUint32(dst[4*i:], uint32(c)<<8)
			}
		}
	}
	return blockLoop(Rules{}, from, to)
}

func convertible(t element.Type) bool { return t.IsStatic() && t != element.String }

// copyLoop copies n elements of t and clears the unused bits of a packed last byte or group.
func copyLoop(t element.Type) loopFunc {
	return func(dst, src []byte, n int) {
		nb, _ := t.ByteSize(int64(n))
		copy(dst[:nb], src[:nb])
		clearPackedTail(t, dst[:nb], n)
	}
}

// clearPackedTail zeroes the bits past element n-1 in the last byte (or 3-byte group) of a
// packed buffer of exactly t.ByteSize(n) bytes.
func clearPackedTail(t element.Type, dst []byte, n int) {
	if len(dst) == 0 {
		return
	}
	last := len(dst) - 1
	switch t {
	case element.U1:
		if r := n & 7; r != 0 {
			dst[last] &= 0xFF << (8 - r)
		}
	case element.U2:
		if r := n & 3; r != 0 {
			dst[last] &= 0xFF << (8 - 2*r)
		}
	case element.U4, element.I4, element.NF4, element.F4E2M1:
		if n&1 != 0 {
			dst[last] &= 0x0F
		}
	case element.U3:
		if r := n & 7; r != 0 {
			lo := uint16(0xFFFF) << (16 - 2*r)
			dst[last-2] &= byte(lo >> 8)
			dst[last-1] &= byte(lo)
			dst[last] &= 0xFF << (8 - r)
		}
	case element.U6:
		if r := n & 3; r != 0 {
			lo := uint16(0xFFFF) << (16 - 4*r)
			dst[last-2] &= byte(lo >> 8)
			dst[last-1] &= byte(lo)
			dst[last] &= 0xFF << (8 - 2*r)
		}
	}
}

// blockLen is the number of elements decoded and encoded at a time: a multiple of 8, so every
// block of a packed type starts on a whole byte and a whole u3/u6 group.
const blockLen = 256

// wide class of a decoded block.
const (
	clsF32 = iota // re32 (and im32) hold the values
	clsF64        // re64 (and im64) hold the values
	clsInt        // ints holds two's-complement bits; signed says whether to sign-extend
)

// block is one block of decoded values.
type block struct {
	cls     int
	signed  bool // clsInt: the source is a signed integer type (sign-extended into ints)
	complex bool // im32 / im64 hold an imaginary part; otherwise it is +0
	re32    [blockLen]float32
	im32    [blockLen]float32
	re64    [blockLen]float64
	im64    [blockLen]float64
	ints    [blockLen]uint64
	codes   [blockLen]uint8
	tmp     [blockLen]float32
}

// blockLoop is the general loop: decode a block, encode it with rules r (the zero Rules are
// OpenVINO's, under which i32 saturates to ±65504 before f16).
func blockLoop(r Rules, from, to element.Type) loopFunc {
	own := r.Set != OpenVINO
	satF16 := !own && from == element.I32 && (to == element.F16 || to == element.C32)
	return func(dst, src []byte, n int) {
		var b block
		for start := 0; start < n; start += blockLen {
			m := min(blockLen, n-start)
			s0, _ := from.ByteSize(int64(start))
			d0, _ := to.ByteSize(int64(start))
			decodeBlock(from, &b, src[s0:], m)
			if satF16 {
				for i, v := range b.ints[:m] {
					b.ints[i] = uint64(max(min(int64(v), i32F16Limit), -i32F16Limit))
				}
			}
			if own {
				encodeRules(r, to, dst[d0:], &b, m)
			} else {
				encodeBlock(to, dst[d0:], &b, m)
			}
		}
	}
}

// decodeBlock decodes the first n elements of src (n ≤ blockLen) into b.
func decodeBlock(from element.Type, b *block, src []byte, n int) {
	le := binary.LittleEndian
	b.complex = false
	switch from {
	case element.Boolean:
		b.cls, b.signed = clsInt, false
		for i, v := range src[:n] {
			b.ints[i] = b2u(v != 0)
		}
	case element.I8:
		b.cls, b.signed = clsInt, true
		for i, v := range src[:n] {
			b.ints[i] = uint64(int8(v))
		}
	case element.I16:
		b.cls, b.signed = clsInt, true
		for i := range n {
			b.ints[i] = uint64(int16(le.Uint16(src[2*i:])))
		}
	case element.I32:
		b.cls, b.signed = clsInt, true
		for i := range n {
			b.ints[i] = uint64(int32(le.Uint32(src[4*i:])))
		}
	case element.I64:
		b.cls, b.signed = clsInt, true
		for i := range n {
			b.ints[i] = le.Uint64(src[8*i:])
		}
	case element.U8:
		b.cls, b.signed = clsInt, false
		for i, v := range src[:n] {
			b.ints[i] = uint64(v)
		}
	case element.U16:
		b.cls, b.signed = clsInt, false
		for i := range n {
			b.ints[i] = uint64(le.Uint16(src[2*i:]))
		}
	case element.U32:
		b.cls, b.signed = clsInt, false
		for i := range n {
			b.ints[i] = uint64(le.Uint32(src[4*i:]))
		}
	case element.U64:
		b.cls, b.signed = clsInt, false
		for i := range n {
			b.ints[i] = le.Uint64(src[8*i:])
		}
	case element.U1, element.U2, element.U3, element.U4, element.U6:
		b.cls, b.signed = clsInt, false
		unpackCodes(from, b.codes[:], src, n)
		for i, c := range b.codes[:n] {
			b.ints[i] = uint64(c)
		}
	case element.I4:
		b.cls, b.signed = clsInt, true
		unpackCodes(from, b.codes[:], src, n)
		for i, c := range b.codes[:n] {
			b.ints[i] = uint64(int64(int8(c<<4) >> 4))
		}
	case element.NF4:
		b.cls = clsF32
		unpackCodes(from, b.codes[:], src, n)
		for i, c := range b.codes[:n] {
			b.re32[i] = element.NF4Codes[c]
		}
	case element.F4E2M1:
		b.cls = clsF32
		unpackCodes(from, b.codes[:], src, n)
		for i, c := range b.codes[:n] {
			b.re32[i] = f4e2m1Values[c]
		}
	case element.F8E4M3, element.F8E5M2, element.F8E8M0, element.F8E4M3FNUZ, element.F8E5M2FNUZ:
		b.cls = clsF32
		t := f8ToF32Table(from)
		for i, c := range src[:n] {
			b.re32[i] = t[c]
		}
	case element.F16:
		b.cls = clsF32
		for i := range n {
			b.re32[i] = F32FromF16(le.Uint16(src[2*i:]))
		}
	case element.BF16:
		b.cls = clsF32
		for i := range n {
			b.re32[i] = F32FromBF16(le.Uint16(src[2*i:]))
		}
	case element.F32:
		b.cls = clsF32
		for i := range n {
			b.re32[i] = math.Float32frombits(le.Uint32(src[4*i:]))
		}
	case element.F64:
		b.cls = clsF64
		for i := range n {
			b.re64[i] = math.Float64frombits(le.Uint64(src[8*i:]))
		}
	case element.C32:
		b.cls, b.complex = clsF32, true
		for i := range n {
			b.re32[i] = F32FromF16(le.Uint16(src[4*i:]))
			b.im32[i] = F32FromF16(le.Uint16(src[4*i+2:]))
		}
	case element.C64:
		b.cls, b.complex = clsF32, true
		for i := range n {
			b.re32[i] = math.Float32frombits(le.Uint32(src[8*i:]))
			b.im32[i] = math.Float32frombits(le.Uint32(src[8*i+4:]))
		}
	case element.C128:
		b.cls, b.complex = clsF64, true
		for i := range n {
			b.re64[i] = math.Float64frombits(le.Uint64(src[16*i:]))
			b.im64[i] = math.Float64frombits(le.Uint64(src[16*i+8:]))
		}
	default:
		panic("kernels: decodeBlock from " + from.String())
	}
}

// real32 returns the block's (real) values as float32: f64 rounds to nearest even (Go's
// conversion), integers round to nearest even.
func (b *block) real32(n int) []float32 {
	out := b.re32[:n]
	switch b.cls {
	case clsF64:
		for i, v := range b.re64[:n] {
			out[i] = float32(v)
		}
	case clsInt:
		if b.signed {
			for i, v := range b.ints[:n] {
				out[i] = float32(int64(v))
			}
		} else {
			for i, v := range b.ints[:n] {
				out[i] = float32(v)
			}
		}
	}
	return out
}

// real64 returns the block's (real) values as float64.
func (b *block) real64(n int) []float64 {
	out := b.re64[:n]
	switch b.cls {
	case clsF32:
		for i, v := range b.re32[:n] {
			out[i] = float64(v)
		}
	case clsInt:
		if b.signed {
			for i, v := range b.ints[:n] {
				out[i] = float64(int64(v))
			}
		} else {
			for i, v := range b.ints[:n] {
				out[i] = float64(v)
			}
		}
	}
	return out
}

// imag32 returns the imaginary parts as float32 (+0 for a real source). It uses b.tmp, so
// call it after real32.
func (b *block) imag32(n int) []float32 {
	out := b.tmp[:n]
	switch {
	case !b.complex:
		clear(out)
	case b.cls == clsF32:
		copy(out, b.im32[:n])
	default:
		for i, v := range b.im64[:n] {
			out[i] = float32(v)
		}
	}
	return out
}

// imag64 returns the imaginary parts as float64 (+0 for a real source). It overwrites b.im64.
func (b *block) imag64(n int) []float64 {
	out := b.im64[:n]
	switch {
	case !b.complex:
		clear(out)
	case b.cls == clsF32:
		for i, v := range b.im32[:n] {
			out[i] = float64(v)
		}
	}
	return out
}

// bits returns the block's values as two's-complement bits for integer (or boolean)
// destination to, with the rules of int_generic.go.
func (b *block) bits(to element.Type, n int) []uint64 {
	out := b.ints[:n]
	if b.cls == clsInt {
		if to == element.Boolean {
			for i, v := range out {
				out[i] = b2u(v != 0)
			}
		}
		return out
	}
	if to == element.Boolean && b.complex {
		// A complex value is true when either part is non-zero (or NaN).
		im := b.imag64(n)
		for i, re := range b.real64(n) {
			out[i] = b2u(re != 0 || im[i] != 0)
		}
		return out
	}
	floatToBits(out, b.real64(n), to) // a complex source converts its real part
	return out
}

// encodeBlock encodes n elements (n ≤ blockLen) from b into the start of dst.
func encodeBlock(to element.Type, dst []byte, b *block, n int) {
	le := binary.LittleEndian
	switch to {
	case element.Boolean, element.I8, element.U8:
		for i, v := range b.bits(to, n) {
			dst[i] = byte(v)
		}
	case element.I16, element.U16:
		for i, v := range b.bits(to, n) {
			le.PutUint16(dst[2*i:], uint16(v))
		}
	case element.I32, element.U32:
		for i, v := range b.bits(to, n) {
			le.PutUint32(dst[4*i:], uint32(v))
		}
	case element.I64, element.U64:
		for i, v := range b.bits(to, n) {
			le.PutUint64(dst[8*i:], v)
		}
	case element.U1, element.U2, element.U3, element.U4, element.U6, element.I4:
		codes := b.codes[:n]
		for i, v := range b.bits(to, n) {
			codes[i] = uint8(v)
		}
		packCodes(to, dst, codes, n)
	case element.NF4:
		codes := b.codes[:n]
		for i, v := range b.real32(n) {
			codes[i] = NF4FromF32(v)
		}
		packCodes(to, dst, codes, n)
	case element.F4E2M1:
		codes := b.codes[:n]
		for i, v := range b.real32(n) {
			codes[i] = F4E2M1FromF32(v)
		}
		packCodes(to, dst, codes, n)
	case element.F8E4M3:
		for i, v := range b.real32(n) {
			dst[i] = F8E4M3FromF32(v)
		}
	case element.F8E5M2:
		for i, v := range b.real32(n) {
			dst[i] = F8E5M2FromF32(v)
		}
	case element.F8E8M0:
		for i, v := range b.real32(n) {
			dst[i] = F8E8M0FromF32(v)
		}
	case element.F8E4M3FNUZ, element.F8E5M2FNUZ:
		// Not OpenVINO types: ml_dtypes' rules, one rounding from the source value.
		f := fnuzOrF8Format(to)
		for i, v := range b.wide64(n) {
			dst[i] = uint8(encodeNarrow(v, f, false))
		}
	case element.F16:
		for i, v := range b.real32(n) {
			le.PutUint16(dst[2*i:], F16FromF32(v))
		}
	case element.BF16:
		for i, v := range b.real32(n) {
			le.PutUint16(dst[2*i:], BF16FromF32(v))
		}
	case element.F32:
		for i, v := range b.real32(n) {
			le.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case element.F64:
		for i, v := range b.real64(n) {
			le.PutUint64(dst[8*i:], math.Float64bits(v))
		}
	case element.C32:
		re := b.real32(n)
		im := b.imag32(n)
		for i := range re {
			le.PutUint16(dst[4*i:], F16FromF32(re[i]))
			le.PutUint16(dst[4*i+2:], F16FromF32(im[i]))
		}
	case element.C64:
		re := b.real32(n)
		im := b.imag32(n)
		for i := range re {
			le.PutUint32(dst[8*i:], math.Float32bits(re[i]))
			le.PutUint32(dst[8*i+4:], math.Float32bits(im[i]))
		}
	case element.C128:
		im := b.imag64(n)
		re := b.real64(n)
		for i := range re {
			le.PutUint64(dst[16*i:], math.Float64bits(re[i]))
			le.PutUint64(dst[16*i+8:], math.Float64bits(im[i]))
		}
	default:
		panic("kernels: encodeBlock to " + to.String())
	}
}

// view returns b as a []T when b's start is aligned for T (always true for an empty b).
func view[T any](b []byte) ([]T, bool) {
	var z T
	size := int(unsafe.Sizeof(z))
	if len(b) < size {
		return nil, true
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%unsafe.Alignof(z) != 0 {
		return nil, false
	}
	return unsafe.Slice((*T)(p), len(b)/size), true
}

// typedLoop adapts a direct loop over typed slices to loopFunc. Buffers not aligned for their
// element types go through aligned temporaries, a block at a time, so the bits are the same.
func typedLoop[D, S any](f func(dst []D, src []S)) loopFunc {
	return func(dst, src []byte, n int) {
		d, ok1 := view[D](dst)
		s, ok2 := view[S](src)
		if ok1 && ok2 {
			f(d[:n], s[:n])
			return
		}
		var td [blockLen]D
		var ts [blockLen]S
		dw, sw := int(unsafe.Sizeof(td[0])), int(unsafe.Sizeof(ts[0]))
		tdb, tsb := bytesOf(td[:]), bytesOf(ts[:])
		for start := 0; start < n; start += blockLen {
			m := min(blockLen, n-start)
			copy(tsb, src[start*sw:(start+m)*sw])
			f(td[:m], ts[:m])
			copy(dst[start*dw:(start+m)*dw], tdb[:m*dw])
		}
	}
}

// packedLoop adapts a direct loop from a packed source to loopFunc (see typedLoop).
func packedLoop[D any](f func(dst []D, src []byte, n int)) loopFunc {
	return func(dst, src []byte, n int) {
		if d, ok := view[D](dst); ok {
			f(d[:n], src, n)
			return
		}
		var td [blockLen]D
		dw := int(unsafe.Sizeof(td[0]))
		tdb := bytesOf(td[:])
		for start := 0; start < n; start += blockLen {
			m := min(blockLen, n-start)
			f(td[:m], src[start/2:], m) // 4-bit sources: blockLen is even, so start/2 is exact
			copy(dst[start*dw:(start+m)*dw], tdb[:m*dw])
		}
	}
}

// directLoop is the direct loop of a registry pair: the row's loop as code (direct_generic.go,
// generated from the registry).
type directLoop struct {
	from, to element.Type
	f        loopFunc
}

// directKernel returns the direct loop of a registry pair, or nil for a pair without a row.
func directKernel(from, to element.Type) loopFunc {
	for _, d := range directLoops {
		if d.from == from && d.to == to {
			return d.f
		}
	}
	return nil
}

// f8ToF32Table returns the decoding table of an 8-bit float type: the float32 value of each code.
func f8ToF32Table(t element.Type) *[256]float32 {
	switch t {
	case element.F8E4M3:
		return &f8e4m3ToF32Table
	case element.F8E5M2:
		return &f8e5m2ToF32Table
	case element.F8E8M0:
		return &f8e8m0ToF32Table
	case element.F8E4M3FNUZ:
		return &f8e4m3fnuzToF32Table
	}
	return &f8e5m2fnuzToF32Table
}
