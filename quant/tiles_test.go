package quant_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// tileCase builds the codes (every code in turn, then random) and scales (the scale type's
// special values, then random) of a tiled tensor.
func tileCase(t quant.Tiles, r *rand.Rand) (codes, scales []byte) {
	codes = make([]byte, t.Rows*t.Cols)
	for i := range codes {
		codes[i] = byte(i)
		if i >= 256 {
			codes[i] = byte(r.Uint32())
		}
	}
	sv := sweep(t.Scale, t.GridRows()*t.GridCols(), r)
	sb := t.Scale.Bits() / 8
	scales = make([]byte, t.GridRows()*t.GridCols()*sb)
	for i := range t.GridRows() * t.GridCols() {
		pack(scales, t.Scale, i, sv[i%len(sv)])
	}
	return codes, scales
}

func allPaths() []kernels.Path { return append([]kernels.Path{kernels.Generic}, kernels.Paths()...) }

// TestDequantizeTilesReference checks every element against the reference written from the
// formula (refElement: the code's and scale's values, their float32 product, the destination's
// rounding), on every path, for both code types, every scale type and destination, and tile
// shapes with partial edge tiles (DeepSeek's 128 × 128, a channel, a group and an odd block).
func TestDequantizeTilesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := [][4]int{{300, 200, 128, 128}, {5, 1100, 1, 1100}, {7, 96, 1, 32}, {33, 1030, 7, 50}}
	for _, sh := range shapes {
		for _, code := range []element.Type{element.F8E4M3, element.F8E5M2} {
			for _, sc := range []element.Type{element.F32, element.F16, element.BF16} {
				tl := quant.Tiles{Code: code, Scale: sc, Rows: sh[0], Cols: sh[1], TileRows: sh[2], TileCols: sh[3]}
				codes, scales := tileCase(tl, r)
				for _, to := range []element.Type{element.F32, element.F16, element.BF16} {
					for _, p := range allPaths() {
						db := to.Bits() / 8
						dst := bytes.Repeat([]byte{0xA5}, tl.Rows*tl.Cols*db+3)
						if err := (quant.Codec{Path: p}).DequantizeTiles(dst, to, codes, scales, tl, 0, tl.Rows); err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(dst[len(dst)-3:], []byte{0xA5, 0xA5, 0xA5}) {
							t.Fatalf("%+v → %s on %s: wrote past the values", tl, to, p)
						}
						checkTiles(t, tl, to, p, codes, scales, dst)
					}
				}
			}
		}
	}
}

func checkTiles(t *testing.T, tl quant.Tiles, to element.Type, p kernels.Path, codes, scales, dst []byte) {
	t.Helper()
	s := quant.Scheme{Code: tl.Code, Scale: tl.Scale, Group: tl.TileCols}
	sb := tl.Scale.Bits() / 8
	bad := 0
	for i := range tl.Rows * tl.Cols {
		row, col := i/tl.Cols, i%tl.Cols
		k := row/tl.TileRows*tl.GridCols() + col/tl.TileCols
		var scale uint32
		switch sb {
		case 4:
			scale = binary.LittleEndian.Uint32(scales[4*k:])
		default:
			scale = uint32(binary.LittleEndian.Uint16(scales[2*k:]))
		}
		w := refElement(s, uint32(codes[i]), 0, scale, 0)
		var got uint32
		if to == element.F32 {
			got = binary.LittleEndian.Uint32(dst[4*i:])
		} else {
			got = uint32(binary.LittleEndian.Uint16(dst[2*i:]))
		}
		ok := got == refBits(to, w)
		if math.IsNaN(float64(w)) {
			sign := math.Float32bits(w) >> 31
			ok = isNaNBits(to, got) && got>>(to.Bits()-1) == sign
			if math.Float32bits(w) == canonicalNaN {
				ok = got == refNaN(to)
			}
		}
		if !ok && bad < 5 {
			t.Errorf("%+v → %s on %s, row %d col %d (code %#x, scale %#x): %#x, want %#x (%g)", tl, to, p, row, col, codes[i], scale, got, refBits(to, w), w)
			bad++
		}
	}
}

// TestDequantizeTilesBands checks that any band of rows, starting anywhere in a tile row, gives
// the rows of the whole tensor, and that every path gives the pure-Go path's bits.
func TestDequantizeTilesBands(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: 300, Cols: 257, TileRows: 128, TileCols: 128}
	codes, scales := tileCase(tl, r)
	whole := make([]byte, tl.Rows*tl.Cols*2)
	if err := (quant.Codec{Path: kernels.Generic}).DequantizeTiles(whole, element.BF16, codes, scales, tl, 0, tl.Rows); err != nil {
		t.Fatal(err)
	}
	for _, p := range allPaths() {
		for row0 := 0; row0 < tl.Rows; row0 += 37 {
			n := min(61, tl.Rows-row0)
			s0, s1 := row0/tl.TileRows, (row0+n-1)/tl.TileRows
			band := make([]byte, n*tl.Cols*2)
			err := (quant.Codec{Path: p}).DequantizeTiles(band, element.BF16, codes[row0*tl.Cols:(row0+n)*tl.Cols], scales[s0*tl.GridCols()*4:(s1+1)*tl.GridCols()*4], tl, row0, n)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(band, whole[row0*tl.Cols*2:(row0+n)*tl.Cols*2]) {
				t.Fatalf("%s: rows %d..%d differ from the whole tensor's", p, row0, row0+n)
			}
		}
	}
}

// nearestE4M3 returns the f8e4m3 code nearest to q (ties to the even code), saturating at ±448,
// by searching every code's value: a reference independent of the library's encoder.
func nearestE4M3(q float32) byte {
	best, bestD := byte(0), math.Inf(1)
	for c := 0; c < 0x7F; c++ {
		v := refDecode(element.F8E4M3, uint32(c))
		d := math.Abs(math.Abs(float64(q)) - float64(v))
		if d < bestD || d == bestD && c%2 == 0 {
			best, bestD = byte(c), d
		}
	}
	if math.Signbit(float64(q)) {
		best |= 0x80
	}
	return best
}

// TestQuantizeTilesReference checks codes and scales against the reference of the formula, for
// f32, f16 and bf16 sources and partial edge tiles, and the round trip back through
// DequantizeTiles.
func TestQuantizeTilesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, from := range []element.Type{element.F32, element.F16, element.BF16} {
		tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: 140, Cols: 300, TileRows: 128, TileCols: 128}
		vals := make([]float32, tl.Rows*tl.Cols)
		src := make([]byte, len(vals)*from.Bits()/8)
		for i := range vals {
			v := float32(r.NormFloat64() * math.Exp2(float64(i/tl.Cols%9-4)))
			if i%tl.Cols >= 256 && i/tl.Cols >= 128 {
				v = 0 // the bottom-right tile is all zeros
			}
			switch from {
			case element.F32:
				binary.LittleEndian.PutUint32(src[4*i:], math.Float32bits(v))
			case element.F16:
				binary.LittleEndian.PutUint16(src[2*i:], kernels.F16FromF32(v))
				v = kernels.F32FromF16(kernels.F16FromF32(v))
			default:
				binary.LittleEndian.PutUint16(src[2*i:], kernels.BF16FromF32(v))
				v = kernels.F32FromBF16(kernels.BF16FromF32(v))
			}
			vals[i] = v
		}
		for _, p := range allPaths() {
			codes := make([]byte, len(vals))
			scales := make([]byte, tl.GridRows()*tl.GridCols()*4)
			if err := (quant.Codec{Path: p}).QuantizeTiles(codes, scales, tl, src, from, 0, tl.Rows); err != nil {
				t.Fatal(err)
			}
			for k := range tl.GridRows() * tl.GridCols() {
				tr, tc := k/tl.GridCols(), k%tl.GridCols()
				var amax float64
				for row := tr * 128; row < min(tl.Rows, tr*128+128); row++ {
					for col := tc * 128; col < min(tl.Cols, tc*128+128); col++ {
						amax = math.Max(amax, math.Abs(float64(vals[row*tl.Cols+col])))
					}
				}
				want := float32(amax) / 448
				if amax == 0 {
					want = 1
				}
				got := math.Float32frombits(binary.LittleEndian.Uint32(scales[4*k:]))
				if got != want {
					t.Fatalf("%s on %s: tile %d scale %g, want %g", from, p, k, got, want)
				}
				for row := tr * 128; row < min(tl.Rows, tr*128+128); row++ {
					for col := tc * 128; col < min(tl.Cols, tc*128+128); col++ {
						i := row*tl.Cols + col
						if c := nearestE4M3(vals[i] / want); codes[i] != c {
							t.Fatalf("%s on %s: row %d col %d (%g / %g): code %#x, want %#x", from, p, row, col, vals[i], want, codes[i], c)
						}
					}
				}
			}
			back := make([]byte, len(vals)*4)
			if err := quant.DequantizeTiles(back, element.F32, codes, scales, tl, 0, tl.Rows); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				k := i/tl.Cols/128*tl.GridCols() + i%tl.Cols/128
				s := float64(math.Float32frombits(binary.LittleEndian.Uint32(scales[4*k:])))
				y := float64(math.Float32frombits(binary.LittleEndian.Uint32(back[4*i:])))
				// Half a step of e4m3 (relative 2^-4, or 2^-10 among subnormals), times the scale.
				tol := math.Max(math.Abs(float64(v))/16, math.Exp2(-10)*s) * 1.0001
				if math.Abs(y-float64(v)) > tol {
					t.Fatalf("round trip of %g gives %g", v, y)
				}
			}
		}
	}
}

func TestTilesErrors(t *testing.T) {
	tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: 4, Cols: 4, TileRows: 2, TileCols: 2}
	b := make([]byte, 64)
	nan := make([]byte, 64)
	binary.LittleEndian.PutUint32(nan[4*5:], 0x7FC00000)
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"code type", quant.DequantizeTiles(b, element.F32, b, b, quant.Tiles{Code: element.U8, Scale: element.F32, Rows: 1, Cols: 1, TileRows: 1, TileCols: 1}, 0, 1), kernels.ErrUnsupported},
		{"scale type", quant.DequantizeTiles(b, element.F32, b, b, quant.Tiles{Code: element.F8E4M3, Scale: element.F8E8M0, Rows: 1, Cols: 1, TileRows: 1, TileCols: 1}, 0, 1), kernels.ErrUnsupported},
		{"destination", quant.DequantizeTiles(b, element.I8, b, b, tl, 0, 1), kernels.ErrUnsupported},
		{"tile size", quant.DequantizeTiles(b, element.F32, b, b, quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: 1, Cols: 1}, 0, 1), kernels.ErrInvalid},
		{"band", quant.DequantizeTiles(b, element.F32, b, b, tl, 3, 2), kernels.ErrInvalid},
		{"short codes", quant.DequantizeTiles(b, element.F32, b[:7], b, tl, 0, 2), kernels.ErrShortBuffer},
		{"short scales", quant.DequantizeTiles(b, element.F32, b, b[:7], tl, 0, 2), kernels.ErrShortBuffer},
		{"short dst", quant.DequantizeTiles(b[:31], element.F32, b, b, tl, 0, 2), kernels.ErrShortBuffer},
		{"overlap", quant.DequantizeTiles(b, element.F32, b, b[40:], tl, 0, 2), kernels.ErrOverlap},
		{"quantize scale type", quant.QuantizeTiles(b, b, quant.Tiles{Code: element.F8E4M3, Scale: element.BF16, Rows: 1, Cols: 1, TileRows: 1, TileCols: 1}, b, element.F32, 0, 1), kernels.ErrUnsupported},
		{"quantize band start", quant.QuantizeTiles(b, b, tl, b, element.F32, 1, 2), kernels.ErrInvalid},
		{"quantize band length", quant.QuantizeTiles(b, b, tl, b, element.F32, 0, 1), kernels.ErrInvalid},
		{"quantize short source", quant.QuantizeTiles(b, b, tl, b[:31], element.F32, 0, 2), kernels.ErrShortBuffer},
		{"quantize NaN", quant.QuantizeTiles(make([]byte, 16), make([]byte, 16), tl, nan, element.F32, 0, 4), kernels.ErrInvalid},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	if err := quant.QuantizeTiles(make([]byte, 16), make([]byte, 16), tl, nan, element.F32, 0, 4); !strings.Contains(fmt.Sprint(err), "row 1, column 1") {
		t.Errorf("NaN error %q does not name row 1, column 1", err)
	}
}

// BenchmarkDequantizeTiles decodes DeepSeek-shaped rows (7168 f8e4m3 codes, 128 × 128 tiles,
// f32 scales) to bf16, beside copy() of the same output bytes.
func BenchmarkDequantizeTiles(b *testing.B) {
	tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: 128, Cols: 7168, TileRows: 128, TileCols: 128}
	codes, scales := tileCase(tl, rand.New(rand.NewPCG(7, 8)))
	for i := range codes {
		codes[i] &^= 0x78 // finite codes
	}
	for i := range tl.GridCols() {
		binary.LittleEndian.PutUint32(scales[4*i:], math.Float32bits(float32(i+1)/512))
	}
	dst := make([]byte, len(codes)*2)
	src := make([]byte, len(dst))
	for _, p := range kernels.Paths() {
		b.Run(p.String(), func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			for range b.N {
				(quant.Codec{Path: p}).DequantizeTiles(dst, element.BF16, codes, scales, tl, 0, tl.Rows)
			}
		})
	}
	b.Run("generic", func(b *testing.B) {
		b.SetBytes(int64(len(dst)))
		for range b.N {
			(quant.Codec{Path: kernels.Generic}).DequantizeTiles(dst, element.BF16, codes, scales, tl, 0, tl.Rows)
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(len(dst)))
		for range b.N {
			copy(dst, src)
		}
	})
}

// TestTilesAllocations checks that DequantizeTiles and QuantizeTiles do not allocate, with each
// scale type, after a garbage collection too (their scratch must outlive one). Over 50 calls
// an allocation made by every call counts, while a stray one by another goroutine of the test
// binary does not (AllocsPerRun counts the whole process and divides with truncation).
func TestTilesAllocations(t *testing.T) {
	for _, sc := range []element.Type{element.F32, element.BF16, element.F16} {
		tl := quant.Tiles{Code: element.F8E4M3, Scale: sc, Rows: 256, Cols: 384, TileRows: 128, TileCols: 128}
		codes, scales := tileCase(tl, rand.New(rand.NewPCG(9, 9)))
		dst := make([]byte, tl.Rows*tl.Cols*2)
		call := func() { quant.DequantizeTiles(dst, element.BF16, codes, scales, tl, 0, tl.Rows) }
		if n := testing.AllocsPerRun(50, call); n != 0 {
			t.Errorf("DequantizeTiles with %s scales: %v allocations", sc, n)
		}
		if n := mallocsAfterGC(call); n != 0 {
			t.Errorf("DequantizeTiles with %s scales: %d allocations right after a garbage collection", sc, n)
		}
	}
	tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: 256, Cols: 384, TileRows: 128, TileCols: 128}
	src := make([]byte, tl.Rows*tl.Cols*4)
	codes, scales := make([]byte, tl.Rows*tl.Cols), make([]byte, 4*tl.GridRows()*tl.GridCols())
	call := func() { quant.QuantizeTiles(codes, scales, tl, src, element.F32, 0, tl.Rows) }
	if n := testing.AllocsPerRun(50, call); n != 0 {
		t.Errorf("QuantizeTiles: %v allocations", n)
	}
	if n := mallocsAfterGC(call); n != 0 {
		t.Errorf("QuantizeTiles: %d allocations right after a garbage collection", n)
	}
}

// mallocsAfterGC returns the fewest heap allocations, in three tries, that a call of f makes
// right after two garbage collections (the second empties what a sync.Pool keeps for one).
// The fewest, because the count is the whole process's.
func mallocsAfterGC(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		least = min(least, b.Mallocs-a.Mallocs)
	}
	return least
}
