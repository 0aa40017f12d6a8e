package main

import (
	"io"

	"github.com/convertpromote/convertpromote/checkpoint"
)

const safetensorsQuantizeUsage = `Usage: convertpromote safetensors quantize PATH --scheme fp8-block -o OUTDIR [--skip GLOB]... [--threads N] [--quiet]

Writes the unquantized checkpoint PATH into OUTDIR with its linear weights quantized.
--scheme fp8-block is DeepSeek-V3's layout: each 2-D F32, F16 or BF16 tensor X.weight becomes
F8_E4M3 codes with X.weight_scale_inv, F32 [ceil(rows/128), ceil(cols/128)]: one scale per
128 × 128 block, the block's largest magnitude / 448, each code the value / scale rounded to
nearest even and saturated at ±448 (docs/SEMANTICS.md §9.7). Embeddings, norms, biases,
lm_head, the MoE router (*.mlp.gate.weight), tensors that are not 2-D and tensors matching
--skip stay as they are; config.json gets DeepSeek's quantization_config, so the output loads
wherever DeepSeek's FP8 checkpoint loads, and convert dequantizes it back.

Files are written as convert writes them (atomically, the index last), in the same bounded
memory; a NaN or infinite weight is an error naming the tensor, row and column.

Exit status: 0 ok; 1 when the checkpoint does not read or quantize; 2 for bad usage, or when
OUTDIR is the input directory.

Examples:
  convertpromote safetensors quantize testdata/safetensors/plain-f32 --scheme fp8-block -o /tmp/plain-fp8
  convertpromote safetensors quantize testdata/safetensors/plain-f32 --scheme fp8-block -o /tmp/plain-fp8 --skip '*.q_proj.weight'

Flags:
`

func safetensorsQuantize(args []string, stdout, stderr io.Writer) int {
	const cmd = "safetensors quantize"
	fs := newFlags(cmd, safetensorsQuantizeUsage)
	scheme := fs.String("scheme", "", "the scheme to write: fp8-block")
	w := addWriteFlags(fs, "leave tensors whose names match this glob unquantized (repeatable)")
	flags, pos := interleaved(args, writeValueFlags)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	if *scheme != checkpoint.DeepSeekFP8 {
		failf(stderr, cmd, "--scheme %q: give fp8-block", *scheme)
		return exitUsage
	}
	return runWrite(cmd, pos, w, stdout, stderr, func(path string, progress checkpoint.Progress) (checkpoint.Report, error) {
		return checkpoint.Quantize(path, *w.out, checkpoint.QuantizeOptions{Scheme: *scheme, Skip: w.skip, Threads: *w.threads, Progress: progress})
	})
}
