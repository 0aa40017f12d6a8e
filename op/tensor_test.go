package op

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/x448/float16"
)

func TestTensorShapeValidation(t *testing.T) {
	for _, c := range []struct {
		shape []int64
		want  string
	}{
		{[]int64{2, -1}, "negative"},
		{[]int64{-3}, "negative"},
		{[]int64{1 << 40, 1 << 40}, "overflows"},
		{[]int64{math.MaxInt64, 2}, "overflows"},
	} {
		if _, err := NewTensor(element.F32, c.shape); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewTensor(f32, %v) error = %v, want one mentioning %q", c.shape, err, c.want)
		}
		if _, err := FromFloat32(c.shape, nil); err == nil {
			t.Errorf("FromFloat32(%v) accepted", c.shape)
		}
	}
	// Element count fits but the byte size of f64 does not.
	if _, err := NewTensor(element.F64, []int64{1 << 61}); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("f64[2^61]: error = %v", err)
	}
	for _, ty := range []element.Type{element.Dynamic, element.String} {
		if _, err := NewTensor(ty, []int64{2}); err == nil || !strings.Contains(err.Error(), ty.String()) {
			t.Errorf("NewTensor(%s) error = %v", ty, err)
		}
	}
	if _, err := FromFloat32([]int64{2, 3}, make([]float32, 5)); err == nil || !strings.Contains(err.Error(), "6 elements, got 5") {
		t.Errorf("length mismatch error = %v", err)
	}
	if _, err := FromBytes(element.U3, []int64{9}, make([]byte, 3)); err == nil || !strings.Contains(err.Error(), "needs 6 bytes") {
		t.Errorf("FromBytes short error = %v", err)
	}
	// Scalars have one element, a zero dimension none.
	s, err := FromFloat32([]int64{}, []float32{2.5})
	if err != nil || s.Len() != 1 || len(s.Shape()) != 0 || !s.PartialShape().IsScalar() {
		t.Errorf("scalar: %v %v", s, err)
	}
	z, err := NewTensor(element.U6, []int64{3, 0})
	if err != nil || z.Len() != 0 || len(z.Bytes()) != 0 {
		t.Errorf("empty tensor: %v %v", z, err)
	}
	var zero Tensor
	if _, err := zero.Float32s(); err == nil {
		t.Error("zero Tensor decoded without error")
	}
}

// TestZeroTensor: the zero Tensor is no tensor, consistently: no type, no shape, no elements,
// no bytes, and an error from everything that reads or converts values.
func TestZeroTensor(t *testing.T) {
	var z Tensor
	if z.Valid() || z.Type() != element.Dynamic || z.Len() != 0 || len(z.Bytes()) != 0 || z.Shape() != nil {
		t.Errorf("zero Tensor: valid %v, type %s, len %d, %d bytes, shape %v", z.Valid(), z.Type(), z.Len(), len(z.Bytes()), z.Shape())
	}
	if ps := z.PartialShape(); !ps.DynamicRank || ps.IsScalar() {
		t.Errorf("zero Tensor: partial shape %v, want dynamic rank", ps)
	}
	if s := z.String(); s != "op.Tensor{}" {
		t.Errorf("zero Tensor: String %q", s)
	}
	if _, err := z.Convert(element.F32); err == nil {
		t.Error("zero Tensor converted without error")
	}
	if _, err := z.Codes(); err == nil {
		t.Error("zero Tensor gave codes without error")
	}
	if _, err := z.Bits16(); err == nil {
		t.Error("zero Tensor gave bits without error")
	}
	if _, err := z.Bools(); err == nil {
		t.Error("zero Tensor decoded to booleans without error")
	}
	// A valid scalar differs from it: one element, an empty static shape.
	s, _ := FromInt8([]int64{}, []int8{3})
	if s.Len() != 1 || s.Shape() == nil || len(s.Shape()) != 0 || !s.PartialShape().IsScalar() {
		t.Errorf("scalar: len %d, shape %v", s.Len(), s.Shape())
	}
}

func TestTensorRoundTrips(t *testing.T) {
	f, err := FromFloat32([]int64{2, 2}, []float32{1.5, -0, float32(math.Inf(1)), 3e38})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Float32s(); !slices.Equal(got, []float32{1.5, 0, float32(math.Inf(1)), 3e38}) {
		t.Errorf("Float32s = %v", got)
	}
	if got, _ := f.Float64s(); !slices.Equal(got, []float64{1.5, 0, math.Inf(1), float64(float32(3e38))}) {
		t.Errorf("Float64s = %v", got)
	}
	// f32 → i64: truncate, saturate (Inf and 3e38 → MaxInt64).
	if got, _ := f.Int64s(); !slices.Equal(got, []int64{1, 0, math.MaxInt64, math.MaxInt64}) {
		t.Errorf("Int64s = %v", got)
	}
	i8, _ := FromInt8([]int64{3}, []int8{-128, 0, 127})
	if got, _ := i8.Int64s(); !slices.Equal(got, []int64{-128, 0, 127}) {
		t.Errorf("i8 Int64s = %v", got)
	}
	if got, _ := i8.Codes(); !slices.Equal(got, []uint8{0x80, 0, 0x7F}) {
		t.Errorf("i8 Codes = %v", got)
	}
	u64, _ := FromUint64([]int64{2}, []uint64{math.MaxUint64, 1})
	if got, _ := u64.Uint64s(); !slices.Equal(got, []uint64{math.MaxUint64, 1}) {
		t.Errorf("u64 Uint64s = %v", got)
	}
	b, _ := FromBool([]int64{3}, []bool{true, false, true})
	if got := b.Bytes(); !bytes.Equal(got, []byte{1, 0, 1}) {
		t.Errorf("bool bytes = %v", got)
	}
	if got, _ := b.Bools(); !slices.Equal(got, []bool{true, false, true}) {
		t.Errorf("Bools = %v", got)
	}
	c, _ := FromComplex64([]int64{2}, []complex64{complex(1, 2), complex(-3, 0.5)})
	if got, _ := c.Complex128s(); !slices.Equal(got, []complex128{complex(1, 2), complex(-3, 0.5)}) {
		t.Errorf("Complex128s = %v", got)
	}
	if got, _ := c.Float32s(); !slices.Equal(got, []float32{1, -3}) {
		t.Errorf("c64 Float32s (real parts) = %v", got)
	}
	// f16 bits from x448 values, without a copy of type.
	hs := []float16.Float16{float16.Fromfloat32(1), float16.Fromfloat32(-2.5), float16.Frombits(0x7E00), float16.Frombits(0x0001)}
	h, err := FromBits(element.F16, []int64{4}, unsafeU16(hs))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := h.Bits16(); !slices.Equal(got, []uint16{0x3C00, 0xC100, 0x7E00, 0x0001}) {
		t.Errorf("Bits16 = %#x", got)
	}
	got, _ := h.Float32s()
	for i, x := range hs {
		if math.Float32bits(got[i]) != math.Float32bits(x.Float32()) {
			t.Errorf("f16 %#04x decodes to %v, x448 %v", x.Bits(), got[i], x.Float32())
		}
	}
	if _, err := FromBits(element.F32, []int64{1}, []uint16{1}); err == nil {
		t.Error("FromBits accepted f32")
	}
	if _, err := f.Bits16(); err == nil {
		t.Error("Bits16 accepted f32")
	}
}

func unsafeU16(h []float16.Float16) []uint16 {
	out := make([]uint16, len(h))
	for i, x := range h {
		out[i] = uint16(x)
	}
	return out
}

func TestTensorCodes(t *testing.T) {
	// §3.1 layouts through FromCodes, and Codes back, for odd counts.
	for _, c := range []struct {
		ty    element.Type
		codes []uint8
		bytes []byte
	}{
		{element.U1, []uint8{1, 0, 1, 0, 0, 0, 0, 0}, []byte{0xA0}},
		{element.U1, []uint8{1, 1, 1}, []byte{0xE0}},
		{element.U2, []uint8{0, 1, 2, 3, 3}, []byte{0x1B, 0xC0}},
		{element.U4, []uint8{15, 11, 7}, []byte{0xBF, 0x07}},
		{element.I4, []uint8{15, 11}, []byte{0xBF}},
		{element.NF4, []uint8{0, 15, 7}, []byte{0xF0, 0x07}},
		{element.F4E2M1, []uint8{1, 8}, []byte{0x81}},
		{element.U3, []uint8{0, 1, 2, 3, 4, 5, 6, 7}, []byte{0x1B, 0x1B, 0x0F}},
		{element.U3, []uint8{5}, []byte{0x40, 0x00, 0x80}},
		{element.U6, []uint8{1, 18, 35, 63}, []byte{0x12, 0x3F, 0x1B}},
		{element.U6, []uint8{63}, []byte{0xF0, 0x00, 0xC0}},
		{element.F8E4M3, []uint8{0x7E, 0x7F}, []byte{0x7E, 0x7F}},
	} {
		x, err := FromCodes(c.ty, []int64{int64(len(c.codes))}, c.codes)
		if err != nil {
			t.Fatalf("%s: %v", c.ty, err)
		}
		if !bytes.Equal(x.Bytes(), c.bytes) {
			t.Errorf("FromCodes(%s, %v) = % x, want % x", c.ty, c.codes, x.Bytes(), c.bytes)
		}
		if got, err := x.Codes(); err != nil || !slices.Equal(got, c.codes) {
			t.Errorf("%s Codes = %v, %v; want %v", c.ty, got, err, c.codes)
		}
	}
	// Values: i4 sign-extends, nf4 and f4e2m1 decode through their tables.
	i4, _ := FromCodes(element.I4, []int64{3}, []uint8{15, 8, 7})
	if got, _ := i4.Int64s(); !slices.Equal(got, []int64{-1, -8, 7}) {
		t.Errorf("i4 values = %v", got)
	}
	nf4, _ := FromCodes(element.NF4, []int64{3}, []uint8{0, 8, 15})
	if got, _ := nf4.Float64s(); !slices.Equal(got, []float64{-1, float64(float32(0.07958029955625534)), 1}) {
		t.Errorf("nf4 values = %v", got)
	}
	f4, _ := FromCodes(element.F4E2M1, []int64{4}, []uint8{7, 15, 5, 1})
	if got, _ := f4.Float32s(); !slices.Equal(got, []float32{6, -6, 3, 0.5}) {
		t.Errorf("f4e2m1 values = %v", got)
	}
	if _, err := FromCodes(element.U3, []int64{1}, []uint8{8}); err == nil || !strings.Contains(err.Error(), "3 bits") {
		t.Errorf("u3 code 8 error = %v", err)
	}
	if _, err := FromCodes(element.F32, []int64{1}, []uint8{0}); err == nil {
		t.Error("FromCodes accepted f32")
	}
	f, _ := FromFloat32([]int64{1}, []float32{1})
	if _, err := f.Codes(); err == nil {
		t.Error("Codes accepted f32")
	}
}

func TestTensorConvertAndString(t *testing.T) {
	f, _ := FromFloat32([]int64{3}, []float32{1, 65520, 1e-8})
	h, err := f.Convert(element.F16)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := h.Bits16(); !slices.Equal(got, []uint16{0x3C00, 0x7C00, 0x0000}) {
		t.Errorf("f32 → f16 = %#x", got)
	}
	if !slices.Equal(h.Shape(), []int64{3}) || h.Type() != element.F16 {
		t.Errorf("converted tensor %v", h)
	}
	if _, err := f.Convert(element.String); err == nil {
		t.Error("Convert to string accepted")
	}
	if s := f.String(); s != "f32[3] [1 65520 1e-08]" {
		t.Errorf("String = %q", s)
	}
}

// TestStringPrintsTheHead: String decodes only the first 16 values, also of packed types, and
// marks the rest.
func TestStringPrintsTheHead(t *testing.T) {
	codes := make([]uint8, 33)
	for i := range codes {
		codes[i] = uint8(i % 16)
	}
	x, err := FromCodes(element.U4, []int64{3, 11}, codes)
	if err != nil {
		t.Fatal(err)
	}
	want := "u4[3,11] [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 …]"
	if s := x.String(); s != want {
		t.Errorf("String() = %q, want %q", s, want)
	}
	y, _ := FromCodes(element.I4, []int64{3}, []uint8{0xF, 0x8, 0x7})
	if s := y.String(); s != "i4[3] [-1 -8 7]" {
		t.Errorf("String() = %q", s)
	}
}

// TestConvertWithRules: ConvertWith applies the converter's rule set (ONNX saturates f32 465 to
// f8e4m3 448, OpenVINO's Convert gives NaN), and the FNUZ types are 8-bit code types.
func TestConvertWithRules(t *testing.T) {
	x, err := FromFloat32([]int64{1}, []float32{465})
	if err != nil {
		t.Fatal(err)
	}
	onnx, err := x.ConvertWith(kernels.Converter{Rules: kernels.Rules{Set: kernels.ONNX}}, element.F8E4M3)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := x.Convert(element.F8E4M3)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := onnx.Codes(); c[0] != 0x7E {
		t.Errorf("onnx: code %#x, want 0x7e", c[0])
	}
	if c, _ := ov.Codes(); c[0] != 0x7F {
		t.Errorf("openvino: code %#x, want 0x7f", c[0])
	}
	f, err := FromCodes(element.F8E4M3FNUZ, []int64{2}, []uint8{0x80, 0x7F})
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Float32s()
	if err != nil || v[0] == v[0] || v[1] != 240 {
		t.Errorf("f8e4m3fnuz codes 0x80, 0x7f decode to %v, %v; want NaN, 240", v, err)
	}
}
