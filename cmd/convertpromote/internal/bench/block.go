package bench

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// Block-scaled pairs name a scheme of package quant on one side ("mxfp4:f32" decodes MXFP4 to
// f32 with quant.Dequantize; "f32:mxfp4" quantizes with quant.Quantize). Their source or
// destination buffer is the codes followed by the scales, and their traffic counts both.

// blockBytes returns the bytes of n elements' codes, scales, zero points and second-level
// scale (in that order in one buffer), and of their values.
func blockBytes(p benchcli.Pair, n int) (packed, values int64) {
	vt := p.To
	if !p.Decodes() {
		vt = p.From
	}
	f := p.Block
	return int64(f.CodeBytes(n) + f.ScaleBytes(n) + f.ZeroBytes(n) + f.Scale2Bytes()), int64(n) * int64(vt.Bits()/8)
}

// blockData views a packed buffer of n elements as its codes, scales, zero points and
// second-level scale.
func blockData(f quant.Scheme, b []byte, n int) quant.Data {
	cb, sb, zb := f.CodeBytes(n), f.ScaleBytes(n), f.ZeroBytes(n)
	return quant.Data{Codes: b[:cb], Scales: b[cb : cb+sb], Zeros: b[cb+sb : cb+sb+zb], Scale2: b[cb+sb+zb : cb+sb+zb+f.Scale2Bytes()]}
}

// blockTraffic is Traffic for a block-scaled pair.
func blockTraffic(p benchcli.Pair, n int) (bytesPerOp, buffers int64, err error) {
	if n < 0 || n > benchcli.MaxElements {
		return 0, 0, fmt.Errorf("%d elements of %s: out of range", n, p)
	}
	a, b := blockBytes(p, n)
	return a + b, a + b + 2*((a+b+1)/2), nil
}

// newBlockBuffers allocates and fills a block-scaled case's buffers: random codes and zero
// points under scales that keep the values in a realistic range (f8e8m0 2^-16..2^15, f8e4m3
// 0.5..2.75, f16, bf16 and f32 weight scales 2^-10..2^-4, a second-level scale of 1/2688), or
// normal random values to quantize.
func newBlockBuffers(c Case, rng *rand.Rand) *buffers {
	p := c.pair()
	packed, values := blockBytes(p, c.N)
	half := (packed + values + 1) / 2
	b := &buffers{from: c.From, to: c.To, block: c.Block, n: c.N, csrc: alignedBytes(half), cdst: alignedBytes(half)}
	if p.Decodes() {
		b.src, b.dst = alignedBytes(packed), alignedBytes(values)
		f := c.Block
		q := blockData(f, b.src, c.N)
		fillBytes(q.Codes, rng)
		fillBytes(q.Zeros, rng)
		for g := range f.Groups(c.N) {
			switch f.Scale {
			case element.F8E8M0:
				q.Scales[g] = 0x6F + byte(rng.IntN(32))
			case element.F8E4M3:
				q.Scales[g] = 0x30 + byte(rng.IntN(16))
			case element.F32:
				binary.LittleEndian.PutUint32(q.Scales[4*g:], math.Float32bits(float32(math.Ldexp(1+rng.Float64(), -10+rng.IntN(6)))))
			default: // f16, bf16: the top bits of such an f32 scale, for bf16; its f16 for f16
				v := float32(math.Ldexp(1+rng.Float64(), -10+rng.IntN(6)))
				h := uint16(math.Float32bits(v) >> 16)
				if f.Scale == element.F16 {
					h = kernels.F16FromF32(v)
				}
				binary.LittleEndian.PutUint16(q.Scales[2*g:], h)
			}
		}
		if len(q.Scale2) == 4 {
			binary.LittleEndian.PutUint32(q.Scale2, math.Float32bits(1.0/2688))
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
			return conv.Dequantize(dst, c.To, blockData(f, src, n), f, n)
		}
		return conv.Quantize(blockData(f, dst, n), f, src, c.From, n)
	}
}
