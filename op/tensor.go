package op

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/promote"
)

// Tensor is a tensor value: an element type, a static shape and the elements in a packed byte
// buffer (little-endian; sub-byte types packed as docs/SEMANTICS.md §1.5 describes, complex types as
// real part then imaginary part). Build one with a constructor (FromFloat32, FromCodes, NewTensor,
// …), which validates the shape.
//
// The zero Tensor stands for no tensor: it has no element type (Type is element.Dynamic), no
// shape (Shape is nil, PartialShape of dynamic rank) and no elements (Len is 0, Bytes is
// empty); Valid reports false, String gives "op.Tensor{}", and every method that reads or
// converts its values, and every operator given it, returns an error.
type Tensor struct {
	typ   element.Type
	shape []int64
	data  []byte
}

// NewTensor returns a tensor of type t and shape, every element zero (all bits clear). The shape
// must be static: a negative dimension, an element count or byte size that overflows int64, or
// the type dynamic or string is an error.
func NewTensor(t element.Type, shape []int64) (Tensor, error) {
	_, size, err := checkShape(t, shape)
	if err != nil {
		return Tensor{}, err
	}
	if size > math.MaxInt {
		return Tensor{}, fmt.Errorf("op: %s tensor of shape %v needs %d bytes, more than this platform can address", t, shape, size)
	}
	return Tensor{typ: t, shape: append([]int64{}, shape...), data: make([]byte, size)}, nil
}

// FromBytes returns a tensor of type t and shape over a copy of data, which must hold exactly
// t.ByteSize(elements) bytes (packed as docs/SEMANTICS.md §1.5 for sub-byte types).
func FromBytes(t element.Type, shape []int64, data []byte) (Tensor, error) {
	x, err := View(t, shape, data)
	if err != nil {
		return Tensor{}, err
	}
	x.data = append([]byte{}, data...)
	return x, nil
}

// checkShape validates a tensor's type and shape and returns its element count and byte size.
func checkShape(t element.Type, shape []int64) (n, size int64, err error) {
	if !t.IsStatic() || t == element.String {
		return 0, 0, fmt.Errorf("op: a tensor cannot have element type %s", t)
	}
	n, err = promote.NumElements(shape)
	if err != nil {
		return 0, 0, fmt.Errorf("op: shape %v: %w", shape, err)
	}
	size, err = t.ByteSize(n)
	if err != nil {
		return 0, 0, fmt.Errorf("op: shape %v of %s: %w", shape, t, err)
	}
	return n, size, nil
}

// fromSlice builds a tensor of type t (whose elements have the memory layout of E) from v.
func fromSlice[E any](t element.Type, shape []int64, v []E) (Tensor, error) {
	n, _, err := checkShape(t, shape)
	if err != nil {
		return Tensor{}, err
	}
	if int64(len(v)) != n {
		return Tensor{}, fmt.Errorf("op: shape %v has %d elements, got %d values", shape, n, len(v))
	}
	var z E
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(z)))
	return Tensor{typ: t, shape: append([]int64{}, shape...), data: append([]byte{}, raw...)}, nil
}

// FromFloat32 returns an f32 tensor holding v (len(v) must equal the shape's element count).
func FromFloat32(shape []int64, v []float32) (Tensor, error) { return fromSlice(element.F32, shape, v) }

// FromFloat64 returns an f64 tensor holding v.
func FromFloat64(shape []int64, v []float64) (Tensor, error) { return fromSlice(element.F64, shape, v) }

// FromInt8 returns an i8 tensor holding v.
func FromInt8(shape []int64, v []int8) (Tensor, error) { return fromSlice(element.I8, shape, v) }

// FromInt16 returns an i16 tensor holding v.
func FromInt16(shape []int64, v []int16) (Tensor, error) { return fromSlice(element.I16, shape, v) }

// FromInt32 returns an i32 tensor holding v.
func FromInt32(shape []int64, v []int32) (Tensor, error) { return fromSlice(element.I32, shape, v) }

// FromInt64 returns an i64 tensor holding v.
func FromInt64(shape []int64, v []int64) (Tensor, error) { return fromSlice(element.I64, shape, v) }

// FromUint8 returns a u8 tensor holding v.
func FromUint8(shape []int64, v []uint8) (Tensor, error) { return fromSlice(element.U8, shape, v) }

// FromUint16 returns a u16 tensor holding v.
func FromUint16(shape []int64, v []uint16) (Tensor, error) { return fromSlice(element.U16, shape, v) }

// FromUint32 returns a u32 tensor holding v.
func FromUint32(shape []int64, v []uint32) (Tensor, error) { return fromSlice(element.U32, shape, v) }

// FromUint64 returns a u64 tensor holding v.
func FromUint64(shape []int64, v []uint64) (Tensor, error) { return fromSlice(element.U64, shape, v) }

// FromComplex64 returns a c64 tensor holding v.
func FromComplex64(shape []int64, v []complex64) (Tensor, error) {
	return fromSlice(element.C64, shape, v)
}

// FromComplex128 returns a c128 tensor holding v.
func FromComplex128(shape []int64, v []complex128) (Tensor, error) {
	return fromSlice(element.C128, shape, v)
}

// FromBool returns a boolean tensor holding v (one byte per element, 0 or 1).
func FromBool(shape []int64, v []bool) (Tensor, error) {
	b := make([]uint8, len(v))
	for i, x := range v {
		if x {
			b[i] = 1
		}
	}
	return fromSlice(element.Boolean, shape, b)
}

// FromBits returns an f16 or bf16 tensor from raw 16-bit patterns (a []float16.Float16 from
// github.com/x448/float16 converts to []uint16 without a copy); c32 takes two patterns per
// element, real then imaginary.
func FromBits(t element.Type, shape []int64, bits []uint16) (Tensor, error) {
	switch t {
	case element.F16, element.BF16:
		return fromSlice(t, shape, bits)
	case element.C32:
		if len(bits)%2 != 0 {
			return Tensor{}, fmt.Errorf("op: c32 needs two 16-bit patterns per element, got %d", len(bits))
		}
		return fromSlice(t, shape, unsafe.Slice((*[2]uint16)(unsafe.Pointer(unsafe.SliceData(bits))), len(bits)/2))
	}
	return Tensor{}, fmt.Errorf("op: FromBits takes f16, bf16 or c32, not %s", t)
}

// codeLayout returns the unsigned type with the same packed layout as t, for the types
// FromCodes and Codes handle.
func codeLayout(t element.Type) (layout element.Type, ok bool) {
	switch t {
	case element.U1, element.U2, element.U3, element.U4, element.U6:
		return t, true
	case element.I4, element.NF4, element.F4E2M1:
		return element.U4, true // packed like u4: low nibble first
	case element.F8E4M3, element.F8E5M2, element.F8E8M0, element.F8E4M3FNUZ, element.F8E5M2FNUZ,
		element.U8, element.I8, element.Boolean:
		return element.U8, true
	}
	return 0, false
}

// FromCodes returns a tensor of a sub-byte type (u1, u2, u3, u4, u6, i4, nf4, f4e2m1) or an
// 8-bit code type (f8e4m3, f8e5m2, f8e8m0, f8e4m3fnuz, f8e5m2fnuz; also u8, i8, boolean) from one code per element: the
// element's raw N-bit pattern (i4 −1 is code 15, nf4 code 0 is −1.0). Codes are packed as
// docs/SEMANTICS.md §1.5 describes. A code that does not fit in N bits is an error.
func FromCodes(t element.Type, shape []int64, codes []uint8) (Tensor, error) {
	layout, ok := codeLayout(t)
	if !ok {
		return Tensor{}, fmt.Errorf("op: FromCodes takes a sub-byte or 8-bit code type, not %s", t)
	}
	n, size, err := checkShape(t, shape)
	if err != nil {
		return Tensor{}, err
	}
	if int64(len(codes)) != n {
		return Tensor{}, fmt.Errorf("op: shape %v has %d elements, got %d codes", shape, n, len(codes))
	}
	if bits := t.Bits(); bits < 8 {
		for i, c := range codes {
			if c>>uint(bits) != 0 {
				return Tensor{}, fmt.Errorf("op: code %d (element %d) does not fit in %d bits of %s", c, i, bits, t)
			}
		}
	}
	data := make([]byte, size)
	if err := kernels.Convert(data, layout, codes, element.U8, len(codes)); err != nil {
		return Tensor{}, err
	}
	return Tensor{typ: t, shape: append([]int64{}, shape...), data: data}, nil
}

// Type returns the element type.
func (x Tensor) Type() element.Type { return x.typ }

// Shape returns a copy of the static shape ([] for a scalar, nil for the zero Tensor).
func (x Tensor) Shape() []int64 {
	if !x.Valid() {
		return nil
	}
	return append([]int64{}, x.shape...)
}

// PartialShape returns the shape as a promote.Shape; for the zero Tensor, which has no shape, a
// shape of dynamic rank.
func (x Tensor) PartialShape() promote.Shape {
	if !x.Valid() {
		return promote.Shape{DynamicRank: true}
	}
	return promote.StaticShape(x.shape...)
}

// Len returns the number of elements: 1 for a scalar, 0 for the zero Tensor.
func (x Tensor) Len() int {
	if !x.Valid() {
		return 0
	}
	n, _ := promote.NumElements(x.shape)
	return int(n)
}

// Bytes returns the packed buffer itself (not a copy).
func (x Tensor) Bytes() []byte { return x.data }

// Valid reports whether x was built by a constructor (it has a static element type).
func (x Tensor) Valid() bool { return x.typ.IsStatic() && x.typ != element.String }

func (x Tensor) check() error {
	if !x.Valid() {
		return fmt.Errorf("op: tensor has no element type (zero Tensor)")
	}
	return nil
}

// Convert returns x converted to type to with kernels.Convert (docs/SEMANTICS.md §3); the shape is
// kept. Converting to x's own type copies.
func (x Tensor) Convert(to element.Type) (Tensor, error) { return x.convert(to, kernels.Convert) }

// ConvertWith is Convert with converter c: its path, threads and rule set (kernels.Rules), for
// example ONNX's or ml_dtypes' casts.
func (x Tensor) ConvertWith(c kernels.Converter, to element.Type) (Tensor, error) {
	return x.convert(to, c.Convert)
}

func (x Tensor) convert(to element.Type, conv func(dst []byte, to element.Type, src []byte, from element.Type, n int) error) (Tensor, error) {
	if err := x.check(); err != nil {
		return Tensor{}, err
	}
	out, err := NewTensor(to, x.shape)
	if err != nil {
		return Tensor{}, err
	}
	if err := conv(out.data, to, x.data, x.typ, x.Len()); err != nil {
		return Tensor{}, fmt.Errorf("op: %w", err)
	}
	return out, nil
}

// decodeAs converts x to type t and returns the buffer.
func decodeAs[E any](x Tensor, t element.Type) ([]E, error) {
	y, err := x.Convert(t)
	if err != nil {
		return nil, err
	}
	n := x.Len()
	out := make([]E, n)
	if n > 0 {
		var z E
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), n*int(unsafe.Sizeof(z))), y.data)
	}
	return out, nil
}

// Float32s returns the elements converted to float32 with the conversion rules (exact for every
// narrow float; integers round to nearest even; complex gives the real part).
func (x Tensor) Float32s() ([]float32, error) { return decodeAs[float32](x, element.F32) }

// Float64s returns the elements converted to float64 (exact for every type except i64 and u64
// beyond 2^53, which round to nearest even; complex gives the real part).
func (x Tensor) Float64s() ([]float64, error) { return decodeAs[float64](x, element.F64) }

// Int64s returns the elements converted to int64 (floats truncate toward zero, saturate, NaN →
// 0; u64 above 2^63-1 wraps).
func (x Tensor) Int64s() ([]int64, error) { return decodeAs[int64](x, element.I64) }

// Uint64s returns the elements converted to uint64.
func (x Tensor) Uint64s() ([]uint64, error) { return decodeAs[uint64](x, element.U64) }

// Bools returns the elements converted to boolean (non-zero, NaN included, is true).
func (x Tensor) Bools() ([]bool, error) {
	b, err := decodeAs[uint8](x, element.Boolean)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(b))
	for i, v := range b {
		out[i] = v != 0
	}
	return out, nil
}

// Complex128s returns the elements converted to complex128 (real types get imaginary part 0).
func (x Tensor) Complex128s() ([]complex128, error) { return decodeAs[complex128](x, element.C128) }

// Bits16 returns the raw 16-bit patterns of an f16 or bf16 tensor (two per element for c32).
func (x Tensor) Bits16() ([]uint16, error) {
	switch x.typ {
	case element.F16, element.BF16, element.C32:
	default:
		return nil, fmt.Errorf("op: Bits16 needs an f16, bf16 or c32 tensor, not %s", x.typ)
	}
	out := make([]uint16, len(x.data)/2)
	for i := range out {
		out[i] = uint16(x.data[2*i]) | uint16(x.data[2*i+1])<<8
	}
	return out, nil
}

// Codes returns one raw code per element of a sub-byte type (u1, u2, u3, u4, u6, i4, nf4,
// f4e2m1) or 8-bit code type (f8e4m3, f8e5m2, f8e8m0, f8e4m3fnuz, f8e5m2fnuz, u8, i8, boolean),
// unpacked.
func (x Tensor) Codes() ([]uint8, error) {
	if err := x.check(); err != nil {
		return nil, err
	}
	layout, ok := codeLayout(x.typ)
	if !ok {
		return nil, fmt.Errorf("op: Codes needs a sub-byte or 8-bit code tensor, not %s", x.typ)
	}
	out := make([]uint8, x.Len())
	if err := kernels.Convert(out, element.U8, x.data, layout, len(out)); err != nil {
		return nil, err
	}
	return out, nil
}

// String formats the tensor as "f32[2,3]" followed by its values (at most 16).
func (x Tensor) String() string {
	if !x.Valid() {
		return "op.Tensor{}"
	}
	// Decode only the values printed: the first k elements start at byte 0 for every type.
	k := min(x.Len(), 16)
	nb, _ := x.typ.ByteSize(int64(k))
	head := Tensor{typ: x.typ, shape: []int64{int64(k)}, data: x.data[:nb]}
	var vals []string
	switch {
	case x.typ.IsComplex():
		vals = sprintAll(head.Complex128s())
	case x.typ == element.F64:
		vals = sprintAll(head.Float64s())
	case x.typ.IsFloat():
		vals = sprintAll(head.Float32s())
	case x.typ == element.U64:
		vals = sprintAll(head.Uint64s())
	default:
		vals = sprintAll(head.Int64s())
	}
	if x.Len() > k {
		vals = append(vals, "…")
	}
	return fmt.Sprintf("%s%s %v", x.typ, x.PartialShape(), vals)
}

// sprintAll formats each value with fmt.Sprint.
func sprintAll[T any](v []T, _ error) []string {
	out := make([]string, len(v))
	for i, e := range v {
		out[i] = fmt.Sprint(e)
	}
	return out
}
