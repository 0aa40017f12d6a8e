package main

import (
	"io"

	"github.com/convertpromote/convertpromote/checkpoint"
	"github.com/convertpromote/convertpromote/element"
)

const safetensorsConvertUsage = `Usage: convertpromote safetensors convert PATH --to bf16|f16|f32 -o OUTDIR [--skip GLOB]... [--threads N] [--quiet]

Writes the checkpoint PATH into OUTDIR with every float tensor (F64, F32, F16, BF16) cast to
--to and every quantized weight of its scheme dequantized to --to, exactly as the scheme's
reference code computes it (docs/SEMANTICS.md §9.7): DeepSeek FP8 blocks (weight_scale_inv),
compressed-tensors FP8 (tensor, channel, group or block scales) and NVFP4, gpt-oss MXFP4
(X_blocks and X_scales become X, its last two dims transposed as transformers lays it out) and
ModelOpt NVFP4. Scale tensors and activation scales are dropped; integer and bool tensors are
copied. A quantized tensor the scheme does not explain is an error: --skip copies it unchanged.

Each output shard has its input shard's file name and tensor order. The other files of the
input directory (tokenizer, generation config, ...) are copied; config.json loses
quantization_config and gets torch_dtype; hf_quant_config.json is dropped; the index, with
total_size recomputed, is written last. Every file is written to a temporary file and renamed
when complete, so an interrupted run leaves no index and no partial file. OUTDIR may not be
the input directory.

Tensors are converted in chunks straight from the input to the output: buffers take at most
16 MiB per thread and 64 MiB for transposes, besides the headers, whatever the size of the
checkpoint or of a tensor. --threads N converts with N goroutines (by default one per CPU, at
most 4); the output is the same for any N. A progress line is drawn on stderr when it is a
terminal, unless --quiet.

--skip GLOB (repeatable) copies the tensors whose names match GLOB (path.Match syntax)
unchanged; e.g. --skip '*.e_score_correction_bias' keeps DeepSeek's F32 router biases as its
own conversion script does.

Exit status: 0 ok; 1 when the checkpoint does not read or convert (the error names the file
and tensor); 2 for bad usage, or when OUTDIR is the input directory.

Examples:
  convertpromote safetensors convert testdata/safetensors/deepseek-fp8 --to bf16 -o /tmp/deepseek-bf16
  convertpromote safetensors convert testdata/safetensors/gpt-oss-mxfp4 --to bf16 -o /tmp/gpt-oss-bf16
  convertpromote safetensors convert testdata/safetensors/plain-f32 --to bf16 -o /tmp/plain-bf16 --threads 2

Flags:
`

func safetensorsConvert(args []string, stdout, stderr io.Writer) int {
	const cmd = "safetensors convert"
	fs := newFlags(cmd, safetensorsConvertUsage)
	to := fs.String("to", "", "output type of float tensors: bf16, f16 or f32")
	w := addWriteFlags(fs, "copy tensors whose names match this glob unchanged (repeatable)")
	flags, pos := interleaved(args, writeValueFlags)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	t, err := element.Parse(*to)
	if err != nil || t != element.F32 && t != element.F16 && t != element.BF16 {
		failf(stderr, cmd, "--to %q: give bf16, f16 or f32", *to)
		return exitUsage
	}
	return runWrite(cmd, pos, w, stdout, stderr, func(path string, progress checkpoint.Progress) (checkpoint.Report, error) {
		return checkpoint.Convert(path, *w.out, checkpoint.ConvertOptions{To: t, Skip: w.skip, Threads: *w.threads, Progress: progress})
	})
}
