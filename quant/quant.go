package quant

import (
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// Data holds the buffers of a quantized tensor.
type Data struct {
	// Codes holds the packed codes: Scheme.CodeBytes(n) bytes for n elements.
	Codes []byte
	// Scales holds one scale per group, group by group: Scheme.ScaleBytes(n) bytes.
	Scales []byte
	// Zeros holds the zero points, for a scheme with a zero point type (Scheme.ZeroBytes(n)
	// bytes: one per group, or one for the tensor with ScalarZero); nil otherwise.
	Zeros []byte
	// Scale2 holds the second-level scale, for a scheme with a second-level scale type (its
	// little-endian bytes, Scheme.Scale2Bytes); nil otherwise.
	Scale2 []byte
}

// Codec runs Dequantize and Quantize on Path, with the kernels of that path (the pure-Go loop
// for what the path has no kernel for). The zero Codec, whose Path is kernels.Best, runs the
// best path of this CPU, as Dequantize and Quantize do.
type Codec struct {
	Path kernels.Path
}

// Dequantize decodes n elements of scheme s, q's codes and scales, into dst as type to (f32,
// f16 or bf16), with the best path for this CPU. See Codec.Dequantize.
func Dequantize(dst []byte, to element.Type, q Data, s Scheme, n int) error {
	return Codec{}.Dequantize(dst, to, q, s, n)
}

// Quantize encodes n values of type from (f32, f16 or bf16) in src into scheme s, writing q's
// codes and scales, with the best path for this CPU. See Codec.Quantize.
func Quantize(q Data, s Scheme, src []byte, from element.Type, n int) error {
	return Codec{}.Quantize(q, s, src, from, n)
}

// Dequantize decodes n elements of scheme s into dst as type to: f32, f16 or bf16
// (docs/SEMANTICS.md §9.2). q.Codes must hold at least s.CodeBytes(n) bytes, q.Scales at least
// s.ScaleBytes(n), q.Zeros at least s.ZeroBytes(n) and q.Scale2 at least s.Scale2Bytes(); dst
// must hold at least to's bytes for n elements, and its bytes beyond them are not touched.
//
// Each element is round(round(code − zero) × scale) in the scheme's compute type, converted to
// to (see Scheme). In f32, without a zero point (the block-scaled schemes), the product is
// exact whenever its magnitude is within float32's range (subnormals included), so a float32
// destination receives it exactly and an f16 or bf16 destination receives it rounded once, to
// nearest, ties to even. In f16 the difference and the product are each rounded to binary16,
// as OpenVINO's f16 Subtract and Multiply round them; an f32 destination receives that value
// exactly.
//
// Special cases are:
//
//	a NaN scale (f8e8m0 0xFF; f8e4m3 0x7F, 0xFF; f16, bf16, f32 NaNs) or a NaN zero point: every
//	element of the group is the quiet NaN 0x7FC00000 (f16 0x7E00, bf16 0x7FC0), whatever its code
//	a NaN code (f8e4m3 0x7F, 0xFF; the f8e5m2 NaNs) in a group with a finite scale: the NaN as
//	kernels.Convert decodes the code alone (sign kept)
//	an infinite code (f8e5m2 0x7C, 0xFC) or scale: ±Inf, but ∞ × 0 and ∞ − ∞ are the quiet NaN
//	0x7FC00000
//	a difference or product beyond the compute type's or the destination's largest finite
//	value: ±Inf (f16 has no saturation: an f8e8m0 scale above 2^15 makes ±Inf in f16)
//	a zero or negative scale: the products are ±0 or negated, by the rules of multiplication
//
// A scheme the package does not take (see Scheme; the error names the field), a destination
// type other than f32, f16 or bf16, or a path the CPU lacks is an error wrapping
// kernels.ErrUnsupported; a negative n, or zero points or a second-level scale in q for a
// scheme without them, kernels.ErrInvalid; a short buffer kernels.ErrShortBuffer; a destination
// that shares memory with another buffer kernels.ErrOverlap. On an error nothing is written.
// Dequantize runs on the calling goroutine and does not allocate.
func (c Codec) Dequantize(dst []byte, to element.Type, q Data, s Scheme, n int) error {
	p, err := c.path()
	if err != nil {
		return err
	}
	e := lookup(s, to, true)
	if e == nil || n < 0 || int64(n) >= maxCount || len(q.Zeros) != 0 || len(q.Scale2) != 0 {
		if err := checkCall(s, to, q, n, false); err != nil {
			return err
		}
	}
	cb, sb, db := s.CodeBytes(n), s.ScaleBytes(n), n*to.Bits()/8
	zb, s2b := s.ZeroBytes(n), s.Scale2Bytes()
	codes, scales := q.Codes, q.Scales
	switch {
	case len(q.Zeros) < zb:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize %s: zero points hold %d bytes, %d elements need %d", s, len(q.Zeros), n, zb)
	case len(q.Scale2) < s2b:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize %s: the second-level scale holds %d bytes, not %d", s, len(q.Scale2), s2b)
	case overlap(dst, db, q.Zeros, zb):
		return errorf(kernels.ErrOverlap, "quant: dequantize %s: the %s destination and the zero points overlap", s, to)
	case overlap(dst, db, q.Scale2, s2b):
		return errorf(kernels.ErrOverlap, "quant: dequantize %s: the %s destination and the second-level scale overlap", s, to)
	case len(codes) < cb:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize %s: codes hold %d bytes, %d elements need %d", s, len(codes), n, cb)
	case len(scales) < sb:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize %s: scales hold %d bytes, %d elements need %d (one per group of %d)", s, len(scales), n, sb, s.Group)
	case len(dst) < db:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize %s: the %s destination holds %d bytes, %d elements need %d", s, to, len(dst), n, db)
	case overlap(dst, db, codes, cb):
		return errorf(kernels.ErrOverlap, "quant: dequantize %s: the %s destination and the codes overlap", s, to)
	case overlap(dst, db, scales, sb):
		return errorf(kernels.ErrOverlap, "quant: dequantize %s: the %s destination and the scales overlap", s, to)
	}
	dst, codes, scales = dst[:db], codes[:cb], scales[:sb]
	done := 0
	if e != nil {
		if k := e.group[p]; k != nil && n >= s.Group {
			groups := n / s.Group
			done = groups * s.Group
			k(dst[:done*to.Bits()/8], codes[:done*s.Code.Bits()/8], scales[:s.ScaleBytes(done)], q.Zeros[:s.ZeroBytes(done)], groups, s.Group)
		} else if k := e.decode[p]; k != nil && n >= step {
			steps := n / step
			done = steps * step
			k(dst[:done*to.Bits()/8], codes[:done*s.Code.Bits()/8], scales[:done/s.Group], steps)
		}
	}
	if done < n {
		// A kernel converts whole groups, and the codes of a whole number of groups fill whole
		// bytes (a group row's group is even; a block row's 4-bit groups are too).
		rest := Data{Codes: codes[done*s.Code.Bits()/8:], Scales: scales, Zeros: q.Zeros[:zb], Scale2: q.Scale2[:s2b]}
		decodeGroupsAt(dst[done*to.Bits()/8:], to, rest, s, n-done, done/s.Group)
	}
	return nil
}

// Quantize encodes n values of type from (f32, f16 or bf16) in src into scheme s
// (docs/SEMANTICS.md §9.3): it writes the packed codes to q.Codes (s.CodeBytes(n) bytes; an
// unused high nibble of a last f4e2m1 byte is written as zero) and one scale per group to
// q.Scales (s.ScaleBytes(n) bytes). Bytes beyond those are not touched.
//
// With an f8e8m0 scale (the MX formats) a group's scale is 2^(floor(log2(amax)) − emax), amax
// being the group's largest magnitude and emax the exponent of the code type's largest power
// of two (2 for f4e2m1, 8 for f8e4m3, 15 for f8e5m2), clamped to f8e8m0's range 2^-127..2^127.
// With an f8e4m3 scale (NVFP4) the scale is amax / 6 (the code type's largest value) rounded
// to nearest, ties to even, in f8e4m3, and clamped to 448. Each code is its value divided by
// the scale, rounded once to nearest, ties to even, in the code type and clamped to the code
// type's largest finite magnitude.
//
// Special cases are:
//
//	a group of zeros: scale 2^-127 (f8e8m0 0x00) or 0 (f8e4m3 0x00), codes ±0 by the values'
//	signs; the same codes for every group whose NVFP4 scale rounds to zero
//	a group holding a NaN: scale NaN (f8e8m0 0xFF, f8e4m3 0x7F) and every code 0, so that the
//	whole group decodes as NaN
//	a group holding ±Inf: as a NaN for f4e2m1 and f8e4m3 codes, which have no infinity; for
//	f8e5m2 codes the scale comes from the finite values and ±Inf is encoded as ±Inf
//	−0 and negative values that round to zero: the code of −0
//
// Errors are those of Dequantize, with a source type other than f32, f16 or bf16 unsupported
// and buffers that share memory (codes, scales, source) overlapping; on an error nothing is
// written. Quantize runs on the calling goroutine and does not allocate.
func (c Codec) Quantize(q Data, s Scheme, src []byte, from element.Type, n int) error {
	p, err := c.path()
	if err != nil {
		return err
	}
	e := lookup(s, from, false)
	if e == nil || n < 0 || int64(n) >= maxCount || len(q.Zeros) != 0 || len(q.Scale2) != 0 {
		if err := checkCall(s, from, q, n, true); err != nil {
			return err
		}
	}
	cb, sb, vb := s.CodeBytes(n), s.ScaleBytes(n), n*from.Bits()/8
	codes, scales := q.Codes, q.Scales
	switch {
	case len(src) < vb:
		return errorf(kernels.ErrShortBuffer, "quant: quantize %s: the %s source holds %d bytes, %d elements need %d", s, from, len(src), n, vb)
	case len(codes) < cb:
		return errorf(kernels.ErrShortBuffer, "quant: quantize %s: codes hold %d bytes, %d elements need %d", s, len(codes), n, cb)
	case len(scales) < sb:
		return errorf(kernels.ErrShortBuffer, "quant: quantize %s: scales hold %d bytes, %d elements need %d (one per group of %d)", s, len(scales), n, sb, s.Group)
	case overlap(codes, cb, src, vb):
		return errorf(kernels.ErrOverlap, "quant: quantize %s: the codes and the %s source overlap", s, from)
	case overlap(scales, sb, src, vb):
		return errorf(kernels.ErrOverlap, "quant: quantize %s: the scales and the %s source overlap", s, from)
	case overlap(codes, cb, scales, sb):
		return errorf(kernels.ErrOverlap, "quant: quantize %s: the codes and the scales overlap", s)
	}
	codes, scales, src = codes[:cb], scales[:sb], src[:vb]
	done := 0
	if e != nil {
		if k := e.encode[p]; k != nil && n >= step {
			steps := n / step
			done = steps * step
			k(codes[:done*s.Code.Bits()/8], scales[:done/s.Group], src[:done*from.Bits()/8], steps)
		}
	}
	if done < n {
		encodeGeneric(codes[done*s.Code.Bits()/8:], scales[done/s.Group:], s, src[done*from.Bits()/8:], from, n-done)
	}
	return nil
}

// HasDequantizer reports whether path p (kernels.Best: the best path of this CPU) runs a SIMD
// kernel of its own to dequantize scheme s to type to, rather than the pure-Go loop (for all
// whole groups, or all whole steps of 32 elements, of a call).
func HasDequantizer(p kernels.Path, s Scheme, to element.Type) bool {
	e := lookup(s, to, true)
	q := resolve(p)
	return e != nil && q < maxPaths && (e.decode[q] != nil || e.group[q] != nil)
}

// HasQuantizer reports whether path p (kernels.Best: the best path of this CPU) runs a SIMD
// kernel of its own to quantize type from into scheme s, rather than the pure-Go loop.
func HasQuantizer(p kernels.Path, s Scheme, from element.Type) bool {
	e := lookup(s, from, false)
	return e != nil && resolve(p) < maxPaths && e.encode[resolve(p)] != nil
}

// DequantizeF32s decodes len(dst) elements of scheme s into float32 (Dequantize with
// element.F32). q's codes and scales must hold exactly the bytes len(dst) elements need;
// otherwise the error wraps kernels.ErrLengthMismatch.
func DequantizeF32s[D ~float32](dst []D, q Data, s Scheme) error {
	if err := exactLengths(s, len(dst), q, false); err != nil {
		return err
	}
	return Dequantize(bytesOf(dst), element.F32, q, s, len(dst))
}

// QuantizeF32s encodes the float32 values of src into scheme s (Quantize with element.F32).
// q's codes and scales must hold exactly the bytes len(src) elements need; otherwise the error
// wraps kernels.ErrLengthMismatch.
func QuantizeF32s[S ~float32](q Data, s Scheme, src []S) error {
	if err := exactLengths(s, len(src), q, true); err != nil {
		return err
	}
	return Quantize(q, s, bytesOf(src), element.F32, len(src))
}

// exactLengths checks a typed helper's buffers against its element count.
func exactLengths(s Scheme, n int, q Data, encode bool) error {
	if err := s.check(encode); err != nil {
		return err
	}
	cb, sb, zb, s2b := s.CodeBytes(n), s.ScaleBytes(n), s.ZeroBytes(n), s.Scale2Bytes()
	if len(q.Codes) != cb || len(q.Scales) != sb || len(q.Zeros) != zb || len(q.Scale2) != s2b {
		return errorf(kernels.ErrLengthMismatch, "quant: %s: %d elements need %d code bytes, %d scale bytes, %d zero-point bytes and %d second-level scale bytes, have %d, %d, %d and %d",
			s, n, cb, sb, zb, s2b, len(q.Codes), len(q.Scales), len(q.Zeros), len(q.Scale2))
	}
	return nil
}

// maxCount bounds the element count of a call.
const maxCount = 1 << 40

// checkCall checks a call's scheme, value type, extra buffers and count, for Quantize with
// encode set. The calls run it only when the scheme and type have no registry row (a row's are
// valid: TestRegistryRows) or another argument is wrong, so that a call with a row's scheme
// does not pay for it.
func checkCall(s Scheme, vt element.Type, q Data, n int, encode bool) error {
	if err := s.check(encode); err != nil {
		return err
	}
	what := "dequantize"
	if encode {
		what = "quantize"
	}
	switch {
	case vt != element.F32 && vt != element.F16 && vt != element.BF16:
		return errorf(kernels.ErrUnsupported, "quant: %s %s: values must be f32, f16 or bf16, not %s", what, s, vt)
	case n < 0 || int64(n) >= maxCount:
		return errorf(kernels.ErrInvalid, "quant: %s %s: element count %d is out of range", what, s, n)
	case len(q.Zeros) != 0 && s.Zero == element.Dynamic:
		return errorf(kernels.ErrInvalid, "quant: %s %s: zero points given for a scheme without them", what, s)
	case len(q.Scale2) != 0 && s.Scale2 == element.Dynamic:
		return errorf(kernels.ErrInvalid, "quant: %s %s: a second-level scale given for a scheme without one", what, s)
	}
	return nil
}

// best is the path kernels.Best stands for: the first of kernels.Paths(), fixed at start-up.
var best = kernels.Paths()[0]

// available is the set of kernels.Paths(), computed once so that a call does not allocate.
var available = func() (m pathSet) {
	for _, p := range kernels.Paths() {
		m |= 1 << p
	}
	return m
}()

// resolve returns the path p stands for: best for kernels.Best, p itself otherwise.
func resolve(p kernels.Path) kernels.Path {
	if p == kernels.Best {
		return best
	}
	return p
}

// pathAvailable reports whether this CPU runs path p.
func pathAvailable(p kernels.Path) bool { return available.has(p) }

// path returns the path c runs, or an error wrapping kernels.ErrUnsupported when the CPU lacks
// it.
func (c Codec) path() (kernels.Path, error) {
	p := resolve(c.Path)
	if !pathAvailable(p) {
		return 0, errorf(kernels.ErrUnsupported, "quant: path %s is not available on this CPU", p)
	}
	return p, nil
}

// overlap reports whether the first db bytes of dst and the first sb bytes of src share memory.
func overlap(dst []byte, db int, src []byte, sb int) bool {
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	s := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return d < s+uintptr(sb) && s < d+uintptr(db)
}

// bytesOf views a slice's memory as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}
