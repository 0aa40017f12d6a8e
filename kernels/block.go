package kernels

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
)

// BlockFormat describes a block-scaled tensor (docs/SEMANTICS.md §9): n elements of type Elem,
// cut into blocks of Block consecutive elements, and one scale of type Scale per block. An
// element stands for its own value times its block's scale. Codes are packed as Convert packs
// Elem (f4e2m1 two a byte, low nibble first); scales are one byte each, block by block.
//
// The element count need not be a multiple of Block: the last block is then shorter, and it has
// a scale like any other. A tensor of n elements has f.Scales(n) scales.
type BlockFormat struct {
	Elem, Scale element.Type
	Block       int
}

// The block-scaled formats. The MX formats are those of the OCP Microscaling Formats
// specification v1.0: elements with a power-of-two f8e8m0 scale per block of 32. NVFP4 has
// f4e2m1 elements with an f8e4m3 scale per block of 16; its per-tensor float32 scale is the
// caller's to apply.
var (
	MXFP4     = BlockFormat{Elem: element.F4E2M1, Scale: element.F8E8M0, Block: 32}
	MXFP8E4M3 = BlockFormat{Elem: element.F8E4M3, Scale: element.F8E8M0, Block: 32}
	MXFP8E5M2 = BlockFormat{Elem: element.F8E5M2, Scale: element.F8E8M0, Block: 32}
	NVFP4     = BlockFormat{Elem: element.F4E2M1, Scale: element.F8E4M3, Block: 16}
)

var blockFormatNames = [...]struct {
	name string
	f    BlockFormat
}{{"mxfp4", MXFP4}, {"mxfp8e4m3", MXFP8E4M3}, {"mxfp8e5m2", MXFP8E5M2}, {"nvfp4", NVFP4}}

// String returns the name of a named format ("mxfp4", "mxfp8e4m3", "mxfp8e5m2", "nvfp4") and
// elem/scale/block (as "f4e2m1/f8e8m0/64") for any other.
func (f BlockFormat) String() string {
	for _, e := range blockFormatNames {
		if e.f == f {
			return e.name
		}
	}
	return fmt.Sprintf("%s/%s/%d", f.Elem, f.Scale, f.Block)
}

// ParseBlockFormat reads a format's name as String writes it, in any letter case:
// "mxfp4", "mxfp8e4m3", "mxfp8e5m2", "nvfp4" or elem/scale/block.
func ParseBlockFormat(s string) (BlockFormat, error) {
	l := strings.ToLower(s)
	for _, e := range blockFormatNames {
		if e.name == l {
			return e.f, nil
		}
	}
	parts := strings.Split(l, "/")
	if len(parts) == 3 {
		elem, err1 := element.Parse(parts[0])
		scale, err2 := element.Parse(parts[1])
		block, err3 := strconv.Atoi(parts[2])
		f := BlockFormat{Elem: elem, Scale: scale, Block: block}
		if err1 == nil && err2 == nil && err3 == nil {
			if err := f.check(); err != nil {
				return BlockFormat{}, err
			}
			return f, nil
		}
	}
	return BlockFormat{}, fmt.Errorf("unknown block format %q (valid: mxfp4, mxfp8e4m3, mxfp8e5m2, nvfp4, or elem/scale/block such as f4e2m1/f8e8m0/32)", s)
}

// Scales returns the number of scales (and scale bytes) of a tensor of n elements: n / Block
// rounded up. It returns 0 for n ≤ 0 or a format with Block ≤ 0.
func (f BlockFormat) Scales(n int) int {
	if n <= 0 || f.Block <= 0 {
		return 0
	}
	return (n-1)/f.Block + 1
}

// maxBlock bounds Block so that block arithmetic cannot overflow.
const maxBlock = 1 << 20

// check reports whether the package can decode and encode f: elements f4e2m1, f8e4m3 or f8e5m2
// with an f8e8m0 scale, or f4e2m1 with an f8e4m3 scale; Block in 1..2^20, even for f4e2m1 so
// that every block starts on a whole byte.
func (f BlockFormat) check() error {
	ok := f.Scale == element.F8E8M0 && (f.Elem == element.F4E2M1 || f.Elem == element.F8E4M3 || f.Elem == element.F8E5M2) ||
		f.Scale == element.F8E4M3 && f.Elem == element.F4E2M1
	if !ok {
		return errorf(ErrUnsupported, "kernels: block format with %s elements and %s scales is not supported (elements f4e2m1, f8e4m3 or f8e5m2 with f8e8m0 scales, or f4e2m1 with f8e4m3 scales)", f.Elem, f.Scale)
	}
	if f.Block < 1 || f.Block > maxBlock || f.Elem == element.F4E2M1 && f.Block%2 != 0 {
		return errorf(ErrUnsupported, "kernels: block format %s: block size %d is not in 1..%d (and even for f4e2m1 elements)", f, f.Block, maxBlock)
	}
	return nil
}

// blockSizes checks a block-scaled call's format, value type and count, and returns the bytes of
// codes, of scales and of values its n elements need.
func blockSizes(f BlockFormat, vt element.Type, n int, what string) (cb, sb, vb int, err error) {
	if err = f.check(); err != nil {
		return
	}
	if vt != element.F32 && vt != element.F16 && vt != element.BF16 {
		err = errorf(ErrUnsupported, "kernels: %s %s: values must be f32, f16 or bf16, not %s", what, f, vt)
		return
	}
	if n < 0 || int64(n) >= 1<<40 {
		err = errorf(ErrInvalid, "kernels: %s %s: element count %d is out of range", what, f, n)
		return
	}
	cb = (n*f.Elem.Bits() + 7) / 8
	return cb, f.Scales(n), n * vt.Bits() / 8, nil
}

// Dequantize decodes n elements of format f, codes and their scales, into dst as type to (f32,
// f16 or bf16), with the best path for this CPU (Converter.Dequantize). See
// Converter.Dequantize.
func Dequantize(dst []byte, to element.Type, codes, scales []byte, f BlockFormat, n int) error {
	return Converter{}.Dequantize(dst, to, codes, scales, f, n)
}

// Dequantize decodes n elements of format f into dst as type to: f32, f16 or bf16
// (docs/SEMANTICS.md §9.2). codes holds the packed element codes and must hold at least
// f.Elem's bytes for n elements; scales holds one byte per block and must hold at least
// f.Scales(n) bytes; dst must hold at least to's bytes for n elements, and its bytes beyond
// them are not touched.
//
// Each element decodes to its exact value times its block's scale. That product is exact in
// float32 whenever its magnitude is within float32's range (subnormals included), so a float32
// destination receives it exactly and an f16 or bf16 destination receives it rounded once, to
// nearest, ties to even, subnormal results included.
//
// Special cases are:
//
//	a NaN scale (f8e8m0 0xFF; f8e4m3 0x7F, 0xFF): every element of the block is the quiet NaN
//	0x7FC00000 (f16 0x7E00, bf16 0x7FC0), whatever its code
//	a NaN element (f8e4m3 0x7F, 0xFF; the f8e5m2 NaNs) in a block with a finite scale: the NaN as
//	Convert decodes the element alone (sign kept)
//	an infinite element (f8e5m2 0x7C, 0xFC): ±Inf
//	a product that rounds beyond the destination's largest finite value: ±Inf
//	an f8e4m3 scale that is zero or negative (NVFP4): the products are ±0 or negated, by the
//	rules of multiplication
//
// A format the package does not handle (see BlockFormat), a destination type other than f32,
// f16 or bf16, a path the CPU lacks, a negative n, a short buffer, or a destination that shares
// memory with codes or scales is an error, and nothing is written; errors.Is tells them apart
// with ErrUnsupported, ErrShortBuffer and ErrOverlap. Dequantize runs on the calling goroutine
// and does not allocate.
func (c Converter) Dequantize(dst []byte, to element.Type, codes, scales []byte, f BlockFormat, n int) error {
	p := c.Path.resolve()
	if !pathAvailable(p) {
		return errorf(ErrUnsupported, "kernels: path %s is not available on this CPU", p)
	}
	cb, sb, db, err := blockSizes(f, to, n, "dequantize")
	if err != nil {
		return err
	}
	switch {
	case len(codes) < cb:
		return errorf(ErrShortBuffer, "kernels: dequantize %s: codes hold %d bytes, %d elements need %d", f, len(codes), n, cb)
	case len(scales) < sb:
		return errorf(ErrShortBuffer, "kernels: dequantize %s: scales hold %d bytes, %d elements need %d (one per block of %d)", f, len(scales), n, sb, f.Block)
	case len(dst) < db:
		return errorf(ErrShortBuffer, "kernels: dequantize %s: the %s destination holds %d bytes, %d elements need %d", f, to, len(dst), n, db)
	case overlap(dst, db, codes, cb):
		return errorf(ErrOverlap, "kernels: dequantize %s: the %s destination and the codes overlap", f, to)
	case overlap(dst, db, scales, sb):
		return errorf(ErrOverlap, "kernels: dequantize %s: the %s destination and the scales overlap", f, to)
	}
	dst, codes, scales = dst[:db], codes[:cb], scales[:sb]
	whole := 0
	if k := blockDecoder(p, f, to); k != nil {
		whole = n / f.Block
		if whole > 0 {
			k(dst, codes, scales, whole)
		}
	}
	if done := whole * f.Block; done < n {
		decodeBlocksGeneric(dst[done*to.Bits()/8:], to, codes[done*f.Elem.Bits()/8:], scales[whole:], f, n-done)
	}
	return nil
}

// Quantize encodes n values of type from (f32, f16 or bf16) in src into format f, with the best
// path for this CPU (Converter.Quantize). See Converter.Quantize.
func Quantize(codes, scales []byte, f BlockFormat, src []byte, from element.Type, n int) error {
	return Converter{}.Quantize(codes, scales, f, src, from, n)
}

// Quantize encodes n values of type from (f32, f16 or bf16) in src into format f
// (docs/SEMANTICS.md §9.3): it writes the packed element codes to codes (f.Elem's bytes for n
// elements; an unused high nibble of a last f4e2m1 byte is written as zero) and one scale per
// block to scales (f.Scales(n) bytes). Bytes beyond those are not touched.
//
// With an f8e8m0 scale (the MX formats) a block's scale is 2^(floor(log2(amax)) − emax), amax
// being the block's largest magnitude and emax the exponent of the element type's largest
// power of two (2 for f4e2m1, 8 for f8e4m3, 15 for f8e5m2), clamped to f8e8m0's range
// 2^-127..2^127. With an f8e4m3 scale (NVFP4) the scale is amax / 6 (the element type's
// largest value) rounded to nearest, ties to even, in f8e4m3, and clamped to 448. Each element
// is its value divided by the scale, rounded once to nearest, ties to even, in the element type
// and clamped to the element type's largest finite magnitude.
//
// Special cases are:
//
//	a block of zeros: scale 2^-127 (f8e8m0 0x00) or 0 (f8e4m3 0x00), codes ±0 by the values'
//	signs; the same codes for every block whose NVFP4 scale rounds to zero
//	a block holding a NaN: scale NaN (f8e8m0 0xFF, f8e4m3 0x7F) and every code 0, so that the
//	whole block decodes as NaN
//	a block holding ±Inf: as a NaN for f4e2m1 and f8e4m3 elements, which have no infinity; for
//	f8e5m2 elements the scale comes from the finite values and ±Inf is encoded as ±Inf
//	−0 and negative values that round to zero: the code of −0
//
// A format the package does not handle, a source type other than f32, f16 or bf16, a path the
// CPU lacks, a negative n, a short buffer, or buffers that share memory are an error, and
// nothing is written. Quantize runs on the calling goroutine and does not allocate.
func (c Converter) Quantize(codes, scales []byte, f BlockFormat, src []byte, from element.Type, n int) error {
	p := c.Path.resolve()
	if !pathAvailable(p) {
		return errorf(ErrUnsupported, "kernels: path %s is not available on this CPU", p)
	}
	cb, sb, vb, err := blockSizes(f, from, n, "quantize")
	if err != nil {
		return err
	}
	switch {
	case len(src) < vb:
		return errorf(ErrShortBuffer, "kernels: quantize %s: the %s source holds %d bytes, %d elements need %d", f, from, len(src), n, vb)
	case len(codes) < cb:
		return errorf(ErrShortBuffer, "kernels: quantize %s: codes hold %d bytes, %d elements need %d", f, len(codes), n, cb)
	case len(scales) < sb:
		return errorf(ErrShortBuffer, "kernels: quantize %s: scales hold %d bytes, %d elements need %d (one per block of %d)", f, len(scales), n, sb, f.Block)
	case overlap(codes, cb, src, vb):
		return errorf(ErrOverlap, "kernels: quantize %s: the codes and the %s source overlap", f, from)
	case overlap(scales, sb, src, vb):
		return errorf(ErrOverlap, "kernels: quantize %s: the scales and the %s source overlap", f, from)
	case overlap(codes, cb, scales, sb):
		return errorf(ErrOverlap, "kernels: quantize %s: the codes and the scales overlap", f)
	}
	codes, scales, src = codes[:cb], scales[:sb], src[:vb]
	whole := 0
	if k := blockEncoder(p, f, from); k != nil {
		whole = n / f.Block
		if whole > 0 {
			k(codes, scales, src, whole)
		}
	}
	if done := whole * f.Block; done < n {
		encodeBlocksGeneric(codes[done*f.Elem.Bits()/8:], scales[whole:], f, src[done*from.Bits()/8:], from, n-done)
	}
	return nil
}

// blockDecodeFunc decodes nb whole blocks; the caller has checked every length.
type blockDecodeFunc func(dst, codes, scales []byte, nb int)

// blockEncodeFunc encodes nb whole blocks; the caller has checked every length.
type blockEncodeFunc func(codes, scales, src []byte, nb int)

// HasBlockKernel reports whether path p has its own (SIMD) kernel for decoding format f to type
// to (decode true) or encoding type to into f (decode false), rather than the pure-Go loop.
func HasBlockKernel(p Path, f BlockFormat, to element.Type, decode bool) bool {
	if decode {
		return blockDecoder(p, f, to) != nil
	}
	return blockEncoder(p, f, to) != nil
}

// DequantizeF32s decodes len(dst) elements of format f into float32 (Dequantize with
// element.F32). codes and scales must hold exactly the bytes len(dst) elements need; otherwise
// the error wraps ErrLengthMismatch.
func DequantizeF32s[D ~float32](dst []D, codes, scales []byte, f BlockFormat) error {
	if err := blockLengths(f, len(dst), codes, scales); err != nil {
		return err
	}
	return Dequantize(bytesOf(dst), element.F32, codes, scales, f, len(dst))
}

// QuantizeF32s encodes the float32 values of src into format f (Quantize with element.F32).
// codes and scales must hold exactly the bytes len(src) elements need; otherwise the error
// wraps ErrLengthMismatch.
func QuantizeF32s[S ~float32](codes, scales []byte, f BlockFormat, src []S) error {
	if err := blockLengths(f, len(src), codes, scales); err != nil {
		return err
	}
	return Quantize(codes, scales, f, bytesOf(src), element.F32, len(src))
}

// blockLengths checks a typed helper's codes and scales against its element count.
func blockLengths(f BlockFormat, n int, codes, scales []byte) error {
	if err := f.check(); err != nil {
		return err
	}
	cb := (n*f.Elem.Bits() + 7) / 8
	if len(codes) != cb || len(scales) != f.Scales(n) {
		return errorf(ErrLengthMismatch, "kernels: %s: %d elements need %d code bytes and %d scales, have %d and %d", f, n, cb, f.Scales(n), len(codes), len(scales))
	}
	return nil
}
