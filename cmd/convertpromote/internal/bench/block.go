package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// Block-scaled pairs name a scheme of package quant on one side ("mxfp4:f32" decodes MXFP4 to
// f32 with quant.Dequantize; "f32:mxfp4" quantizes with quant.Quantize). Their source or
// destination buffer is the codes followed by the scales, and their traffic counts both.

// blockBytes returns the bytes of n elements' codes plus their scales, and of their values.
func blockBytes(p benchcli.Pair, n int) (packed, values int64) {
	vt := p.To
	if !p.Decodes() {
		vt = p.From
	}
	f := p.Block
	return (int64(n)*int64(f.Code.Bits())+7)/8 + int64(f.ScaleBytes(n)), int64(n) * int64(vt.Bits()/8)
}

// blockTraffic is Traffic for a block-scaled pair.
func blockTraffic(p benchcli.Pair, n int) (bytesPerOp, buffers int64, err error) {
	if n < 0 || n > benchcli.MaxElements {
		return 0, 0, fmt.Errorf("%d elements of %s: out of range", n, p)
	}
	a, b := blockBytes(p, n)
	return a + b, a + b + 2*((a+b+1)/2), nil
}

// newBlockBuffers allocates and fills a block-scaled case's buffers: random codes under scales
// that keep the values in a realistic range (f8e8m0 2^-16..2^15, f8e4m3 0.5..2.75), or normal
// random values to quantize.
func newBlockBuffers(c Case, rng *rand.Rand) *buffers {
	p := c.pair()
	packed, values := blockBytes(p, c.N)
	half := (packed + values + 1) / 2
	b := &buffers{from: c.From, to: c.To, block: c.Block, n: c.N, csrc: alignedBytes(half), cdst: alignedBytes(half)}
	if p.Decodes() {
		b.src, b.dst = alignedBytes(packed), alignedBytes(values)
		cb := packed - int64(c.Block.ScaleBytes(c.N))
		fillBytes(b.src[:cb], rng)
		for i := range b.src[cb:] {
			if c.Block.Scale == element.F8E8M0 {
				b.src[cb+int64(i)] = 0x6F + byte(rng.IntN(32))
			} else {
				b.src[cb+int64(i)] = 0x30 + byte(rng.IntN(16))
			}
		}
	} else {
		b.src, b.dst = alignedBytes(values), alignedBytes(packed)
		Fill(b.src, c.From, c.From, c.N, rng)
	}
	fillBytes(b.csrc, rng)
	return b
}

// blockFunc returns the operation of a block-scaled case on path p.
func blockFunc(c Case, p kernels.Path) ConvertFunc {
	conv := quant.Codec{Path: p}
	f := c.Block
	return func(dst, src []byte, n int) error {
		if c.From == f.Code {
			cb := len(src) - f.ScaleBytes(n)
			return conv.Dequantize(dst, c.To, quant.Data{Codes: src[:cb], Scales: src[cb:]}, f, n)
		}
		cb := len(dst) - f.ScaleBytes(n)
		return conv.Quantize(quant.Data{Codes: dst[:cb], Scales: dst[cb:]}, f, src, c.From, n)
	}
}
