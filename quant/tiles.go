package quant

import (
	"math"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// Tiles describes a 2-D tensor of Rows × Cols values stored as 8-bit float codes of type Code
// (row-major, one byte an element) with one scale of type Scale for each tile of TileRows ×
// TileCols values (docs/SEMANTICS.md §9.7). The scales form a grid of ceil(Rows/TileRows) ×
// ceil(Cols/TileCols), row-major; tiles at the bottom and right edges are partial.
//
// Tiles covers the block-scaled FP8 checkpoints: DeepSeek-V3's weights (f8e4m3 codes, f32
// scales, 128 × 128 tiles) and compressed-tensors' float-quantized FP8 weights, whose
// strategies are tiles too: tensor (Rows × Cols), channel (1 × Cols), group (1 × g) and block.
type Tiles struct {
	// Code is the code type: f8e4m3 or f8e5m2.
	Code element.Type
	// Scale is the scale type: f32, f16 or bf16.
	Scale                          element.Type
	Rows, Cols, TileRows, TileCols int
}

// GridRows returns the number of scale rows: ceil(Rows/TileRows).
func (t Tiles) GridRows() int { return (t.Rows + t.TileRows - 1) / t.TileRows }

// GridCols returns the number of scales a scale row holds: ceil(Cols/TileCols).
func (t Tiles) GridCols() int { return (t.Cols + t.TileCols - 1) / t.TileCols }

// check reports a Tiles the package does not take, and a band outside it.
func (t Tiles) check(op string, row0, nrows int) error {
	switch {
	case t.Code != element.F8E4M3 && t.Code != element.F8E5M2:
		return errorf(kernels.ErrUnsupported, "quant: %s: code type %s (valid: f8e4m3, f8e5m2)", op, t.Code)
	case t.Scale != element.F32 && t.Scale != element.F16 && t.Scale != element.BF16:
		return errorf(kernels.ErrUnsupported, "quant: %s: scale type %s (valid: f32, f16, bf16)", op, t.Scale)
	case t.Rows < 0 || t.Cols < 0 || t.TileRows <= 0 || t.TileCols <= 0 || int64(t.Rows)*int64(t.Cols) >= maxCount:
		return errorf(kernels.ErrInvalid, "quant: %s: %d × %d values in tiles of %d × %d", op, t.Rows, t.Cols, t.TileRows, t.TileCols)
	case row0 < 0 || nrows < 0 || row0 > t.Rows || nrows > t.Rows-row0:
		return errorf(kernels.ErrInvalid, "quant: %s: rows %d..%d of %d", op, row0, row0+nrows, t.Rows)
	}
	return nil
}

// bandScales returns the number of scales of the scale rows that rows [row0, row0+nrows) touch.
func (t Tiles) bandScales(row0, nrows int) int {
	if nrows == 0 {
		return 0
	}
	return ((row0+nrows-1)/t.TileRows - row0/t.TileRows + 1) * t.GridCols()
}

// DequantizeTiles decodes rows [row0, row0+nrows) of t into dst as type to, with the best path
// for this CPU. See Codec.DequantizeTiles.
func DequantizeTiles(dst []byte, to element.Type, codes, scales []byte, t Tiles, row0, nrows int) error {
	return Codec{}.DequantizeTiles(dst, to, codes, scales, t, row0, nrows)
}

// DequantizeTiles decodes rows [row0, row0+nrows) of t into dst as type to (f32, f16 or bf16):
// codes holds exactly those rows' codes (nrows × Cols bytes), scales the scale rows they touch,
// from scale row row0/TileRows to (row0+nrows−1)/TileRows, and dst receives nrows × Cols values.
//
// Each value is the code's value times its tile's scale, both as float32, the product rounded
// to float32 and then to type to, to nearest, ties to even (docs/SEMANTICS.md §9.7): DeepSeek's
// bf16(f32(x) × s), and, for a scale of type to, PyTorch's x.to(s.dtype) × s, whose product of
// an 8-bit float code and an f16 or bf16 scale is exact in float32 and rounded once. This is
// Dequantize's arithmetic for the scheme of Code and Scale with groups of TileCols, row by row.
//
// Special cases are:
//
//	a NaN scale: every value of the tile is the quiet NaN 0x7FC00000 (f16 0x7E00, bf16 0x7FC0)
//	a NaN code (f8e4m3 0x7F, 0xFF; the f8e5m2 NaNs) with a finite scale: the code's NaN, sign kept
//	an infinite scale or f8e5m2 code: ±Inf, but ∞ × 0 is the quiet NaN 0x7FC00000
//	a product beyond the destination's largest finite value: ±Inf
//
// An unsupported code, scale or destination type is an error wrapping kernels.ErrUnsupported;
// a band outside the tensor kernels.ErrInvalid; short buffers kernels.ErrShortBuffer. On an
// error nothing is written. It does not allocate once warm (its 4 KiB float32 scratch is kept
// between calls, one for each call that runs at the same time, up to 16).
func (c Codec) DequantizeTiles(dst []byte, to element.Type, codes, scales []byte, t Tiles, row0, nrows int) error {
	if _, err := c.path(); err != nil {
		return err
	}
	if err := t.check("dequantize tiles", row0, nrows); err != nil {
		return err
	}
	if to != element.F32 && to != element.F16 && to != element.BF16 {
		return errorf(kernels.ErrUnsupported, "quant: dequantize tiles: destination type %s (valid: f32, f16, bf16)", to)
	}
	n := nrows * t.Cols
	sb := t.bandScales(row0, nrows) * t.Scale.Bits() / 8
	switch {
	case len(codes) < n:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize tiles: codes hold %d bytes, %d rows of %d need %d", len(codes), nrows, t.Cols, n)
	case len(scales) < sb:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize tiles: scales hold %d bytes, rows %d..%d need %d", len(scales), row0, row0+nrows, sb)
	case len(dst) < n*to.Bits()/8:
		return errorf(kernels.ErrShortBuffer, "quant: dequantize tiles: the %s destination holds %d bytes, %d values need %d", to, len(dst), n, n*to.Bits()/8)
	case overlap(dst, n*to.Bits()/8, codes, n) || overlap(dst, n*to.Bits()/8, scales, sb):
		return errorf(kernels.ErrOverlap, "quant: dequantize tiles: the %s destination overlaps the codes or scales", to)
	}
	gc, db := t.GridCols(), to.Bits()/8
	if s := (Scheme{Code: t.Code, Scale: element.F32, Group: t.TileCols}); HasDequantizer(c.Path, s, to) && (t.Scale == element.F32 || gc <= 1024) {
		// A group kernel of the 1-D path takes a row whole, with its scale row. A bf16 or f16
		// scale is widened to f32 first: exactly, and its product with an 8-bit code is exact
		// in float32 either way, so the kernel's one rounding is the scheme's.
		sb := t.Scale.Bits() / 8
		wide := getTileBuf()
		defer putTileBuf(wide)
		last := -1
		for r := 0; r < nrows; r++ {
			srow := ((row0+r)/t.TileRows - row0/t.TileRows) * gc
			sc := scales[srow*sb : (srow+gc)*sb]
			if t.Scale != element.F32 {
				if srow != last {
					for g := range gc {
						wide[g] = valueAt(sc, t.Scale, g)
					}
					last = srow
				}
				sc = kernels.AsBytes(wide[:gc])
			}
			q := Data{Codes: codes[r*t.Cols : (r+1)*t.Cols], Scales: sc}
			if err := c.Dequantize(dst[r*t.Cols*db:(r+1)*t.Cols*db], to, q, s, t.Cols); err != nil {
				return err
			}
		}
		return nil
	}
	conv := kernels.WithPath(c.Path, 1)
	buf := getTileBuf()
	defer putTileBuf(buf)
	fb := kernels.AsBytes(buf[:])
	for r := 0; r < nrows; r++ {
		srow := ((row0+r)/t.TileRows - row0/t.TileRows) * gc
		rc, rd := codes[r*t.Cols:(r+1)*t.Cols], dst[r*t.Cols*db:(r+1)*t.Cols*db]
		for j0 := 0; j0 < t.Cols; j0 += len(buf) {
			m := min(len(buf), t.Cols-j0)
			ys := buf[:m]
			// The codes' values, exactly (kernels' decoders), then the products with one
			// rounding to float32 each, then one rounding to the destination: Dequantize's
			// arithmetic, written as three passes so that two of them run on SIMD kernels.
			if err := conv.Convert(fb, element.F32, rc[j0:j0+m], t.Code, m); err != nil {
				return err
			}
			for a := j0; a < j0+m; {
				g := a / t.TileCols
				b := min(j0+m, (g+1)*t.TileCols)
				sv := valueAt(scales, t.Scale, srow+g)
				seg := ys[a-j0 : b-j0]
				if isFinite(sv) && t.Code == element.F8E4M3 {
					// f8e4m3 has no infinity: with a finite scale only a NaN code makes a
					// NaN, and the product keeps that code's NaN, as groupValue does.
					for k, cv := range seg {
						seg[k] = cv * sv
					}
				} else {
					for k, cv := range seg {
						seg[k] = groupValue(cv, 0, sv, false)
					}
				}
				a = b
			}
			if err := conv.Convert(rd[j0*db:(j0+m)*db], to, fb, element.F32, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// tileBufs holds the float32 scratch of the tile calls between calls: kept rather than on the
// stack, which the kernels' indirect calls would make the compiler move to the heap each time.
// A buffered channel rather than a sync.Pool, which the garbage collector empties and which
// misses when a goroutine moves between Ps: with one buffer a concurrent call kept, the calls
// allocate nothing once warm, and at most tileBufsKept buffers (4 KiB each) stay allocated.
var tileBufs = make(chan *[1024]float32, tileBufsKept)

// tileBufsKept is how many scratch buffers tileBufs keeps.
const tileBufsKept = 16

// getTileBuf returns a scratch buffer from tileBufs, or a new one when it holds none.
func getTileBuf() *[1024]float32 {
	select {
	case b := <-tileBufs:
		return b
	default:
		return new([1024]float32)
	}
}

// putTileBuf returns b to tileBufs, or drops it when tileBufs is full.
func putTileBuf(b *[1024]float32) {
	select {
	case tileBufs <- b:
	default:
	}
}

func isFinite(f float32) bool { return math.Float32bits(f)&0x7F800000 != 0x7F800000 }

// QuantizeTiles encodes rows [row0, row0+nrows) of t from src, of type from, with the best path
// for this CPU. See Codec.QuantizeTiles.
func QuantizeTiles(codes, scales []byte, t Tiles, src []byte, from element.Type, row0, nrows int) error {
	return Codec{}.QuantizeTiles(codes, scales, t, src, from, row0, nrows)
}

// QuantizeTiles encodes rows [row0, row0+nrows) of t from src, nrows × Cols values of type from
// (f32, f16 or bf16): it writes those rows' codes to codes (nrows × Cols bytes) and the scales
// of their tile rows to scales (one scale row per tile row). The band must start at a tile row,
// row0 a multiple of TileRows, and hold whole tile rows, or reach the last row. The scale type
// must be f32.
//
// A tile's scale is the largest magnitude of its values divided by the code type's largest
// finite value (448 for f8e4m3, 57344 for f8e5m2), in float32, as DeepSeek-V3's quantizer
// computes it; each code is the value divided by the scale in float32, rounded once to
// nearest, ties to even, in the code type, and clamped to its largest finite magnitude
// (docs/SEMANTICS.md §9.7).
//
// Special cases are:
//
//	a tile of zeros: scale 1, codes ±0 by the values' signs
//	a largest magnitude whose quotient underflows to zero (below 2^-149 × 448): the scale is
//	the largest magnitude itself
//	a NaN or an infinite value: an error wrapping kernels.ErrInvalid naming its row and column,
//	since the format has no scale that keeps it
//
// Other errors are DequantizeTiles's. On an error the buffers may have been partly written. Like
// DequantizeTiles, it does not allocate once warm.
func (c Codec) QuantizeTiles(codes, scales []byte, t Tiles, src []byte, from element.Type, row0, nrows int) error {
	if _, err := c.path(); err != nil {
		return err
	}
	if err := t.check("quantize tiles", row0, nrows); err != nil {
		return err
	}
	n := nrows * t.Cols
	sb := t.bandScales(row0, nrows) * 4
	switch {
	case t.Scale != element.F32:
		return errorf(kernels.ErrUnsupported, "quant: quantize tiles: scale type %s (valid: f32)", t.Scale)
	case from != element.F32 && from != element.F16 && from != element.BF16:
		return errorf(kernels.ErrUnsupported, "quant: quantize tiles: source type %s (valid: f32, f16, bf16)", from)
	case row0%t.TileRows != 0 || nrows%t.TileRows != 0 && row0+nrows != t.Rows:
		return errorf(kernels.ErrInvalid, "quant: quantize tiles: rows %d..%d are not whole tile rows of %d", row0, row0+nrows, t.TileRows)
	case len(src) < n*from.Bits()/8:
		return errorf(kernels.ErrShortBuffer, "quant: quantize tiles: the %s source holds %d bytes, %d values need %d", from, len(src), n, n*from.Bits()/8)
	case len(codes) < n:
		return errorf(kernels.ErrShortBuffer, "quant: quantize tiles: codes hold %d bytes, %d values need %d", len(codes), n, n)
	case len(scales) < sb:
		return errorf(kernels.ErrShortBuffer, "quant: quantize tiles: scales hold %d bytes, rows %d..%d need %d", len(scales), row0, row0+nrows, sb)
	}
	conv := kernels.WithPath(c.Path, 1)
	e5m2 := t.Code == element.F8E5M2
	codeMax := float32(448)
	if e5m2 {
		codeMax = 57344
	}
	vb, gc := from.Bits()/8, t.GridCols()
	buf := getTileBuf()
	defer putTileBuf(buf)
	fb := kernels.AsBytes(buf[:])
	// values converts a row's values [j0, j0+m) to float32 in buf.
	values := func(r, j0, m int) ([]float32, error) {
		off := (r*t.Cols + j0) * vb
		return buf[:m], conv.Convert(fb, element.F32, src[off:off+m*vb], from, m)
	}
	for tr := 0; tr*t.TileRows < nrows; tr++ {
		ra, rb := tr*t.TileRows, min(nrows, (tr+1)*t.TileRows)
		srow := scales[tr*gc*4 : (tr+1)*gc*4]
		for g := 0; g < gc; g++ {
			ca, cb := g*t.TileCols, min(t.Cols, (g+1)*t.TileCols)
			var amax float32
			for r := ra; r < rb; r++ {
				for j0 := ca; j0 < cb; j0 += len(buf) {
					ys, err := values(r, j0, min(len(buf), cb-j0))
					if err != nil {
						return err
					}
					for _, y := range ys {
						// max keeps a NaN and ±Inf gives +Inf: one test of amax below finds both.
						amax = max(amax, math.Float32frombits(math.Float32bits(y)&^(1<<31)))
					}
					if !isFinite(amax) {
						for k, y := range ys {
							if !isFinite(y) {
								return errorf(kernels.ErrInvalid, "quant: quantize tiles: the value at row %d, column %d is %v", row0+r, j0+k, y)
							}
						}
					}
				}
			}
			sv := amax / codeMax
			switch {
			case amax == 0:
				sv = 1
			case sv == 0:
				sv = amax
			}
			putF32(srow, g, sv)
			for r := ra; r < rb; r++ {
				for j0 := ca; j0 < cb; j0 += len(buf) {
					ys, err := values(r, j0, min(len(buf), cb-j0))
					if err != nil {
						return err
					}
					out := codes[r*t.Cols+j0:]
					for k, y := range ys {
						out[k] = f8FromF32Sat(y/sv, e5m2)
					}
				}
			}
		}
	}
	return nil
}

func putF32(b []byte, i int, f float32) {
	u := math.Float32bits(f)
	b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
}
