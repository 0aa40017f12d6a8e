package checkpoint_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// BenchmarkElementLoops compares the conversions Convert runs with the per-element loops Go
// converters use today (one value at a time through float32, x448/float16 for f16, math.Ldexp
// for FP8), on 16 Mi elements: bytes are input + output, as docs/perf §16 counts them.
func BenchmarkElementLoops(b *testing.B) {
	const n = 16 << 20
	src := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(src[4*i:], math.Float32bits(float32(i%1000-500)/256))
	}
	codes := make([]byte, n)
	for i := range codes {
		codes[i] = byte(i*37) &^ 0x40
	}
	const cols = 8192
	tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: n / cols, Cols: cols, TileRows: 128, TileCols: 128}
	scales := make([]byte, 4*tl.GridRows()*tl.GridCols())
	for i := range len(scales) / 4 {
		binary.LittleEndian.PutUint32(scales[4*i:], math.Float32bits(float32(i%9+1)/512))
	}
	dst := make([]byte, 2*n)
	b.Run("f32-bf16/kernels", func(b *testing.B) {
		b.SetBytes(6 * n)
		for range b.N {
			kernels.WithPath(kernels.Best, 1).Convert(dst, element.BF16, src, element.F32, n)
		}
	})
	b.Run("f32-bf16/element-loop", func(b *testing.B) {
		b.SetBytes(6 * n)
		for range b.N {
			for i := range n {
				f := math.Float32bits(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
				f += 0x7FFF + f>>16&1 // round to nearest even (finite values)
				binary.LittleEndian.PutUint16(dst[2*i:], uint16(f>>16))
			}
		}
	})
	b.Run("f32-f16/kernels", func(b *testing.B) {
		b.SetBytes(6 * n)
		for range b.N {
			kernels.WithPath(kernels.Best, 1).Convert(dst, element.F16, src, element.F32, n)
		}
	})
	b.Run("f32-f16/x448-loop", func(b *testing.B) {
		b.SetBytes(6 * n)
		for range b.N {
			for i := range n {
				f := math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
				binary.LittleEndian.PutUint16(dst[2*i:], float16.Fromfloat32(f).Bits())
			}
		}
	})
	b.Run("fp8-bf16/quant", func(b *testing.B) {
		b.SetBytes(3 * n)
		for range b.N {
			quant.DequantizeTiles(dst, element.BF16, codes, scales, tl, 0, tl.Rows)
		}
	})
	b.Run("fp8-bf16/ldexp-loop", func(b *testing.B) {
		b.SetBytes(3 * n)
		gc := tl.GridCols()
		for range b.N {
			for i := range n {
				v := e4m3(codes[i]) // math.Ldexp of the code's fields
				s := math.Float32frombits(binary.LittleEndian.Uint32(scales[4*(i/cols/128*gc+i%cols/128):]))
				f := math.Float32bits(float32(v) * s)
				f += 0x7FFF + f>>16&1
				binary.LittleEndian.PutUint16(dst[2*i:], uint16(f>>16))
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(2 * 2 * n)
		for range b.N {
			copy(dst, src[:2*n])
		}
	})
}
