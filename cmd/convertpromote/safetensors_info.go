package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/convertpromote/convertpromote/checkpoint"
	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/safetensors"
)

const safetensorsInfoUsage = `Usage: convertpromote safetensors info PATH [--tensors] [--json]

Prints a checkpoint's shards, tensor count, bytes per dtype (tensor data, headers excluded, as
an index's total_size counts them) and quantization scheme: none, fp8-block (DeepSeek),
compressed-tensors-fp8, mxfp4 (gpt-oss), nvfp4-modelopt or compressed-tensors-nvfp4. Every
shard's header is validated as the safetensors reader does (docs/safetensors.md).

--tensors lists each tensor: name, dtype, shape, bytes and shard. --json prints one object:
{"path", "scheme", "shards": [file names], "tensors": count, "bytes": total,
"bytes_by_dtype": {DTYPE: bytes}}, with "tensor_list": [{"name", "dtype", "shape", "bytes",
"shard"}] when --tensors is given.

Exit status: 0 ok; 1 when the checkpoint does not read (the error names the file and tensor);
2 for bad usage.

Examples:
  convertpromote safetensors info testdata/safetensors/deepseek-fp8
  convertpromote safetensors info testdata/safetensors/gpt-oss-mxfp4 --tensors
  convertpromote safetensors info testdata/safetensors/plain-f32/model.safetensors.index.json --json

Flags:
`

func safetensorsInfo(args []string, stdout, stderr io.Writer) int {
	const cmd = "safetensors info"
	fs := newFlags(cmd, safetensorsInfoUsage)
	tensors := fs.Bool("tensors", false, "list every tensor")
	asJSON := fs.Bool("json", false, "print JSON")
	flags, pos := interleaved(args, nil)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	if len(pos) != 1 {
		failf(stderr, cmd, "give one checkpoint PATH; run 'convertpromote %s -h'", cmd)
		return exitUsage
	}
	c, err := checkpoint.Open(pos[0])
	if err != nil {
		failf(stderr, cmd, "%v", err)
		return exitFail
	}
	defer c.Close()
	info := c.Info()
	var shards []string
	for _, f := range c.Shards {
		shards = append(shards, filepath.Base(f.Name()))
	}
	dtypes := make([]string, 0, len(info.BytesByDType))
	for d := range info.BytesByDType {
		dtypes = append(dtypes, string(d))
	}
	sort.Strings(dtypes)
	if *asJSON {
		type tensor struct {
			Name  string  `json:"name"`
			DType string  `json:"dtype"`
			Shape []int64 `json:"shape"`
			Bytes int64   `json:"bytes"`
			Shard string  `json:"shard"`
		}
		out := struct {
			Path    string           `json:"path"`
			Scheme  string           `json:"scheme"`
			Shards  []string         `json:"shards"`
			Tensors int              `json:"tensors"`
			Bytes   int64            `json:"bytes"`
			ByDType map[string]int64 `json:"bytes_by_dtype"`
			List    []tensor         `json:"tensor_list,omitempty"`
		}{pos[0], info.Scheme, shards, info.Tensors, info.Bytes, map[string]int64{}, nil}
		for d, n := range info.BytesByDType {
			out.ByDType[string(d)] = n
		}
		if *tensors {
			for _, t := range c.Tensors() {
				out.List = append(out.List, tensor{t.Name, string(t.DType), shapeOrEmpty(t.Shape), t.Bytes(), filepath.Base(t.Shard.Name())})
			}
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return exitOK
	}
	fmt.Fprintf(stdout, "checkpoint  %s\n", pos[0])
	fmt.Fprintf(stdout, "scheme      %s\n", info.Scheme)
	fmt.Fprintf(stdout, "shards      %d\n", info.Shards)
	fmt.Fprintf(stdout, "tensors     %d\n", info.Tensors)
	fmt.Fprintf(stdout, "bytes       %d (%s)\n", info.Bytes, benchcli.FormatBytes(info.Bytes))
	for _, d := range dtypes {
		n := info.BytesByDType[safetensors.DType(d)]
		fmt.Fprintf(stdout, "  %-12s %d (%s)\n", d, n, benchcli.FormatBytes(n))
	}
	if *tensors {
		fmt.Fprintln(stdout)
		for _, t := range c.Tensors() {
			fmt.Fprintf(stdout, "%s\t%s\t%v\t%d\t%s\n", t.Name, t.DType, shapeOrEmpty(t.Shape), t.Bytes(), filepath.Base(t.Shard.Name()))
		}
	}
	return exitOK
}

func shapeOrEmpty(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}
