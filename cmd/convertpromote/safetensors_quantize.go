package main

import (
	"fmt"
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
	out := fs.String("o", "", "output directory (created if missing)")
	threads := fs.Int("threads", 1, "goroutines quantizing at once")
	quiet := fs.Bool("quiet", false, "no progress line")
	var skip skipFlags
	fs.Var(&skip, "skip", "leave tensors whose names match this glob unquantized (repeatable)")
	flags, pos := interleaved(args, map[string]bool{"scheme": true, "o": true, "threads": true, "skip": true})
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	if *scheme != checkpoint.DeepSeekFP8 {
		failf(stderr, cmd, "--scheme %q: give fp8-block", *scheme)
		return exitUsage
	}
	if len(pos) != 1 {
		failf(stderr, cmd, "give one checkpoint PATH; run 'convertpromote %s -h'", cmd)
		return exitUsage
	}
	if err := outputDir(*out); err != nil {
		return checkpointExit(stderr, cmd, err)
	}
	if *threads < 1 || *threads > 256 {
		failf(stderr, cmd, "--threads %d: give 1 to 256", *threads)
		return exitUsage
	}
	progress, end := progressFor(stderr, *quiet, isTerminal)
	rep, err := checkpoint.Quantize(pos[0], *out, checkpoint.QuantizeOptions{Scheme: *scheme, Skip: skip, Threads: *threads, Progress: progress})
	end()
	if err != nil {
		return checkpointExit(stderr, cmd, err)
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %s (%s of tensor data from %s), %s\n", *out, count(rep.Shards, "shard"), count(rep.Tensors, "tensor"), humanBytes(rep.OutBytes), humanBytes(rep.InBytes), count(len(rep.Files), "file"))
	return exitOK
}
