package benchcli

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// Block-scaled pairs name a scheme of package quant on one side: "mxfp4:f32" decodes MXFP4 to
// f32 (quant.Dequantize), "f32:mxfp4" quantizes (quant.Quantize).

// parseBlockPair reads a pair with a block format on one side (a and b are the two sides of s);
// ok reports whether either side names a block format.
func parseBlockPair(s, a, b string) (p Pair, ok bool, err error) {
	if f, err1 := quant.Parse(a); err1 == nil {
		to, err := element.Parse(b)
		if err != nil {
			return Pair{}, true, fmt.Errorf("pair %q: %w", s, err)
		}
		if to != element.F32 && to != element.F16 && to != element.BF16 {
			return Pair{}, true, fmt.Errorf("pair %q: %s decodes to f32, f16 or bf16, not %s", s, f, to)
		}
		return Pair{From: f.Code, To: to, Block: f}, true, nil
	}
	if f, err1 := quant.Parse(b); err1 == nil {
		from, err := element.Parse(a)
		if err != nil {
			return Pair{}, true, fmt.Errorf("pair %q: %w", s, err)
		}
		if from != element.F32 && from != element.F16 && from != element.BF16 {
			return Pair{}, true, fmt.Errorf("pair %q: %s quantizes f32, f16 or bf16, not %s", s, f, from)
		}
		return Pair{From: from, To: f.Code, Block: f}, true, nil
	}
	return Pair{}, false, nil
}

// Decodes reports whether a block-scaled pair decodes (rather than quantizes).
func (p Pair) Decodes() bool { return p.From == p.Block.Code }

// hasBlockKernel reports whether path p has a SIMD kernel for a block-scaled pair.
func hasBlockKernel(path kernels.Path, p Pair) bool {
	if p.Decodes() {
		return quant.HasDequantizer(path, p.Block, p.To)
	}
	return quant.HasQuantizer(path, p.Block, p.From)
}
