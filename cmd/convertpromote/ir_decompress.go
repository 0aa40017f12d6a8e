package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/ir"
)

// irDecompressUsage is the help of ir decompress; its flags follow.
const irDecompressUsage = `Usage: convertpromote ir decompress [flags] MODEL.xml -o OUT.xml [--to f32|f16|bf16]

Replaces every compressed weight (the low-bit codes, scales and zero points NNCF writes, a
codebook, or an f16 Const with a Convert to f32: the forms ir check lists, docs/ir.md
"Compressed weights") by one Const holding exactly what its decompression subgraph computes,
bit for bit what ir run gives for the subgraph's last layer. The Const takes that layer's name
and its output's tensor names, so that consumers and Results see the same tensor. The layers
that fed only the weight are removed; OUT.bin holds the data of the Consts that remain.

--to converts each weight once more (round to nearest even; f16 overflows to ±inf) and stores it
in that type: a Const NAME_compressed of the --to type, then a Convert NAME back to the
weight's type, so that every consumer still receives the type it declares (f16 or bf16 to f32
carries the rt_info "decompression", as OpenVINO's compress-to-f16 writes it). When --to is the
weight's type, the weight is one Const NAME.

Memory: one weight is decompressed at a time and written to OUT.bin at once. Besides what
reading the model takes (ir check on it shows that), the command holds the weight being
written (its decompressed bytes, and its codes, scales and zero points; twice the decompressed
bytes when a Transpose ends its subgraph) and a 1 MiB buffer through which the other Consts'
data is copied, whatever the number of weights (docs/ir.md, "Decompressing weights").

A model without compressed weights is written to OUT.xml unchanged (with its .bin), as ir fold
writes a model with nothing to fold, and the command says so. OUT.xml and OUT.bin are written
atomically and may be neither MODEL.xml nor its .bin.

Exit status: 0 ok (also when the model has no compressed weights); 1 when the model does not
read, a subgraph is malformed (each problem on stderr as FILE:LINE: MESSAGE) or the output
cannot be written; 2 for bad usage.

Examples:
  convertpromote ir decompress testdata/ir/compressed/int_modes.xml -o /tmp/decompressed.xml
  convertpromote ir decompress testdata/ir/compressed/int_modes.xml -o /tmp/decompressed_f16.xml --to f16
  convertpromote ir decompress testdata/ir/eval_ops.xml -o /tmp/decompressed.xml --to bf16

Flags:
`

// decompressTo parses --to: f32, f16 or bf16 (as element.Parse spells them), or "" for the
// weights' own types.
func decompressTo(s string) (element.Type, error) {
	if s == "" {
		return element.Dynamic, nil
	}
	t, err := element.Parse(s)
	if err != nil || (t != element.F32 && t != element.F16 && t != element.BF16) {
		return 0, usageErrorf("--to %q: give f32, f16 or bf16", s)
	}
	return t, nil
}

func irDecompress(m *ir.Model, opts irOptions, stdout, _ io.Writer) error {
	to, err := decompressTo(opts.to)
	if err != nil {
		return err
	}
	ws, err := m.CompressedWeights()
	if err != nil {
		return err
	}
	// As saveModel does for decompose and fold: the output's directory is created.
	if err := os.MkdirAll(filepath.Dir(opts.out), 0o755); err != nil {
		return err
	}
	n, err := m.Decompress(opts.out, ir.DecompressOptions{To: to})
	if err != nil {
		return err
	}
	if n == 0 {
		fmt.Fprintf(stdout, "%s: no compressed weights; wrote %s unchanged\n", m.File, opts.out)
		return nil
	}
	var parts []string
	for _, s := range ir.SummarizeCompressed(ws) {
		parts = append(parts, fmt.Sprintf("%d %s", s.Count, s.Mode))
	}
	as := ""
	if to != element.Dynamic {
		as = " as " + to.String()
	}
	weights := "weights"
	if n == 1 {
		weights = "weight"
	}
	fmt.Fprintf(stdout, "%s: replaced %d compressed %s (%s) by Consts%s\n", opts.out, n, weights, strings.Join(parts, ", "), as)
	return nil
}
