package kernels

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"
)

func TestTypedHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 1003
	f32 := make([]float32, n)
	for i := range f32 {
		f32[i] = math.Float32frombits(r.Uint32())
	}
	f32[0], f32[1] = 65520, float32(math.Inf(-1))

	// f16 into x448's named type: same bits as x448 and as the scalar codec.
	h := make([]float16.Float16, n)
	if err := F16sFromF32s(h, f32); err != nil {
		t.Fatal(err)
	}
	for i, x := range f32 {
		if h[i].Bits() != float16.Fromfloat32(x).Bits() {
			t.Fatalf("F16sFromF32s element %d: %#04x, x448 %#04x", i, h[i].Bits(), float16.Fromfloat32(x).Bits())
		}
	}
	back := make([]float32, n)
	if err := F32sFromF16s(back, h); err != nil {
		t.Fatal(err)
	}
	for i := range h {
		if math.Float32bits(back[i]) != math.Float32bits(h[i].Float32()) {
			t.Fatalf("F32sFromF16s element %d: %#08x, x448 %#08x", i, math.Float32bits(back[i]), math.Float32bits(h[i].Float32()))
		}
	}

	type bf16 uint16
	b := make([]bf16, n)
	if err := BF16sFromF32s(b, f32); err != nil {
		t.Fatal(err)
	}
	for i, x := range f32 {
		if uint64(b[i]) != refBF16FromF32(x) {
			t.Fatalf("BF16sFromF32s element %d: %#04x, want %#04x", i, b[i], refBF16FromF32(x))
		}
	}
	if err := F32sFromBF16s(back, b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		if math.Float32bits(back[i]) != uint32(b[i])<<16 {
			t.Fatalf("F32sFromBF16s element %d", i)
		}
	}
	hb := make([]uint16, n)
	if err := F16sFromBF16s(hb, b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		if uint64(hb[i]) != refF16FromF32(math.Float32frombits(uint32(b[i])<<16)) {
			t.Fatalf("F16sFromBF16s element %d", i)
		}
	}
	if err := BF16sFromF16s(b, hb); err != nil {
		t.Fatal(err)
	}
	for i := range hb {
		if want := refBF16FromF32(F32FromF16(hb[i])); uint64(b[i]) != want {
			t.Fatalf("BF16sFromF16s element %d (%#04x): %#04x, want %#04x", i, hb[i], b[i], want)
		}
	}

	f64 := make([]float64, n)
	if err := F64sFromF32s(f64, f32); err != nil {
		t.Fatal(err)
	}
	for i, x := range f32 {
		if x == x && f64[i] != float64(x) || x != x && f64[i] == f64[i] {
			t.Fatalf("F64sFromF32s element %d: %v, want %v", i, f64[i], x)
		}
	}
	if err := F32sFromF64s(back, f64); err != nil {
		t.Fatal(err)
	}
	for i := range f32 {
		if f32[i] == f32[i] && back[i] != f32[i] {
			t.Fatalf("f32 → f64 → f32 element %d changed", i)
		}
	}

	i32 := make([]int32, n)
	if err := I32sFromF32s(i32, f32); err != nil {
		t.Fatal(err)
	}
	for i, x := range f32 {
		var want int32
		switch {
		case x != x:
		case float64(x) >= 0x1p31:
			want = math.MaxInt32
		case float64(x) <= -0x1p31:
			want = math.MinInt32
		default:
			want = int32(math.Trunc(float64(x)))
		}
		if i32[i] != want {
			t.Fatalf("I32sFromF32s(%v) = %d, want %d", x, i32[i], want)
		}
	}
	i64 := make([]int64, n)
	if err := I64sFromI32s(i64, i32); err != nil {
		t.Fatal(err)
	}
	for i := range i32 {
		if i64[i] != int64(i32[i]) {
			t.Fatalf("I64sFromI32s element %d: %d, want %d", i, i64[i], i32[i])
		}
	}
	i64[0], i64[1] = 1<<40+5, -1<<40-7 // the low 32 bits: 5 and -7
	back32 := make([]int32, n)
	if err := I32sFromI64s(back32, i64); err != nil {
		t.Fatal(err)
	}
	for i := range i64 {
		if back32[i] != int32(i64[i]) {
			t.Fatalf("I32sFromI64s element %d: %d, want %d", i, back32[i], int32(i64[i]))
		}
	}
	if back32[0] != 5 || back32[1] != -7 {
		t.Errorf("I32sFromI64s(2^40+5, -2^40-7) = %d, %d, want 5, -7", back32[0], back32[1])
	}
	i8 := []int8{-128, -1, 0, 127}
	if err := F32sFromI8s(back[:4], i8); err != nil || !slices.Equal(back[:4], []float32{-128, -1, 0, 127}) {
		t.Errorf("F32sFromI8s = %v, %v", back[:4], err)
	}
	u8 := []uint8{0, 255}
	if err := F32sFromU8s(back[:2], u8); err != nil || !slices.Equal(back[:2], []float32{0, 255}) {
		t.Errorf("F32sFromU8s = %v, %v", back[:2], err)
	}
	if err := U8sFromF32s(u8, []float32{-5, 300.5}); err != nil || !slices.Equal(u8, []uint8{0, 255}) {
		t.Errorf("U8sFromF32s = %v, %v", u8, err)
	}
	if err := I8sFromF32s(i8[:2], []float32{-500, 3.9}); err != nil || !slices.Equal(i8[:2], []int8{-128, 3}) {
		t.Errorf("I8sFromF32s = %v, %v", i8[:2], err)
	}
	if err := F32sFromI16s(back[:1], []int16{-32768}); err != nil || back[0] != -32768 {
		t.Errorf("F32sFromI16s = %v, %v", back[0], err)
	}
	if err := F32sFromU16s(back[:1], []uint16{65535}); err != nil || back[0] != 65535 {
		t.Errorf("F32sFromU16s = %v, %v", back[0], err)
	}
	if err := F32sFromI32s(back[:1], []int32{1<<24 + 1}); err != nil || back[0] != 1<<24 {
		t.Errorf("F32sFromI32s = %v, %v", back[0], err)
	}
	e4 := make([]uint8, 2)
	if err := F8E4M3sFromF32s(e4, []float32{464, 465}); err != nil || !slices.Equal(e4, []uint8{0x7E, 0x7F}) {
		t.Errorf("F8E4M3sFromF32s = %#x, %v", e4, err)
	}
	if err := F32sFromF8E4M3s(back[:2], e4); err != nil || back[0] != 448 || back[1] == back[1] {
		t.Errorf("F32sFromF8E4M3s = %v, %v", back[:2], err)
	}
	if err := F8E5M2sFromF32s(e4, []float32{57344, 61440}); err != nil || !slices.Equal(e4, []uint8{0x7B, 0x7C}) {
		t.Errorf("F8E5M2sFromF32s = %#x, %v", e4, err)
	}
	if err := F32sFromF8E5M2s(back[:2], e4); err != nil || back[0] != 57344 || !math.IsInf(float64(back[1]), 1) {
		t.Errorf("F32sFromF8E5M2s = %v, %v", back[:2], err)
	}

	// Length mismatch: an error, nothing written.
	short := []uint16{0xAAAA, 0xAAAA}
	if err := F16sFromF32s(short, f32[:3]); err == nil || short[0] != 0xAAAA {
		t.Errorf("length mismatch: err %v, dst %#x", err, short)
	}
	if err := F32sFromF16s(back[:3], short); err == nil {
		t.Error("length mismatch accepted")
	}
	// Empty slices are fine.
	if err := F16sFromF32s([]uint16{}, []float32{}); err != nil {
		t.Error(err)
	}
}
