package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/atomicfile"
	"github.com/convertpromote/convertpromote/internal/regfile"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
	"github.com/convertpromote/convertpromote/safetensors"
)

// torchNames are the names transformers writes for torch_dtype.
var torchNames = map[element.Type]string{element.F32: "float32", element.F16: "float16", element.BF16: "bfloat16"}

// Convert writes the checkpoint at src into outDir with every float tensor cast to opt.To and
// every quantized weight of the checkpoint's scheme dequantized to it (docs/safetensors.md):
// one output shard for each input shard, of the same file name and tensor order, scale
// tensors dropped and packed tensors renamed as the scheme's reference loader names them;
// then the other files of the input directory, config.json without quantization_config and
// with torch_dtype set, and the index last. Each file is written to a temporary file and
// renamed when complete, so an interrupted run leaves no index and no partial file.
//
// Tensors are converted in chunks read from the input and written to the output, with
// opt.Threads goroutines; the output is the same for any number of threads. Memory stays
// within MaxMemory(opt.Threads) plus the headers, whatever the size of a tensor.
//
// Writing into the input directory, or onto an input file, is an error wrapping ErrSameDir.
func Convert(src, outDir string, opt ConvertOptions) (Report, error) {
	if _, ok := torchNames[opt.To]; !ok {
		return Report{}, fmt.Errorf("convert: output type %s is not supported (valid: f32, f16, bf16)", opt.To)
	}
	c, err := Open(src)
	if err != nil {
		return Report{}, err
	}
	defer c.Close()
	return c.Convert(outDir, opt)
}

// Convert is the package's Convert on an open checkpoint.
func (c *Checkpoint) Convert(outDir string, opt ConvertOptions) (Report, error) {
	plans, err := c.planConvert(opt.To, opt.Skip)
	if err != nil {
		return Report{}, err
	}
	return c.write(plans, outDir, opt.Threads, opt.Progress, func(cfg []entry) []entry {
		if c.config == nil {
			return nil
		}
		var out []entry
		dt, _ := json.Marshal(torchNames[opt.To])
		for _, e := range cfg {
			switch e.key {
			case "quantization_config":
				continue
			case "torch_dtype", "dtype":
				e.val = dt
			}
			out = append(out, e)
		}
		if !hasKey(out, "torch_dtype") && !hasKey(out, "dtype") {
			out = append(out, entry{"torch_dtype", dt})
		}
		return out
	}, map[string]bool{"hf_quant_config.json": c.Scheme != Plain})
}

func hasKey(es []entry, k string) bool {
	for _, e := range es {
		if e.key == k {
			return true
		}
	}
	return false
}

// Quantize writes the checkpoint at src into outDir with its 2-D float weights quantized as
// opt.Scheme says. DeepSeekFP8 ("fp8-block") is the scheme supported: each X.weight of F32,
// F16 or BF16 becomes F8_E4M3 codes with X.weight_scale_inv F32 scales, one per 128 × 128
// block (quant.QuantizeTiles), written right after it; embeddings, norms, biases, lm_head, the
// MoE router (".mlp.gate.weight") and tensors matching opt.Skip stay as they are, and
// config.json gains DeepSeek's quantization_config. Files are written as Convert writes them.
func Quantize(src, outDir string, opt QuantizeOptions) (Report, error) {
	if opt.Scheme != DeepSeekFP8 {
		return Report{}, fmt.Errorf("quantize: scheme %q is not supported (valid: %s)", opt.Scheme, DeepSeekFP8)
	}
	c, err := Open(src)
	if err != nil {
		return Report{}, err
	}
	defer c.Close()
	if c.Scheme != Plain {
		return Report{}, fmt.Errorf("%s: the checkpoint is already quantized (%s); convert it first", c.configName(), c.Scheme)
	}
	var plans []shardPlan
	for _, f := range c.Shards {
		p := shardPlan{in: f, name: baseName(f)}
		for _, t := range f.Tensors() {
			ref := TensorRef{t, f}
			from, _ := t.DType.Element()
			if !quantizable(t, opt.Skip) {
				p.add(step{kind: opCopy, src: ref}, safetensors.Decl{Name: t.Name, DType: t.DType, Shape: t.Shape})
				continue
			}
			rows, cols := int(t.Shape[0]), int(t.Shape[1])
			tl := quant.Tiles{Code: element.F8E4M3, Scale: element.F32, Rows: rows, Cols: cols, TileRows: 128, TileCols: 128}
			p.add(step{kind: opQuantize, src: ref, from: from, tiles: tl, rows: rows, cols: cols},
				safetensors.Decl{Name: t.Name, DType: safetensors.F8E4M3, Shape: t.Shape})
			p.steps[len(p.steps)-1].out2 = len(p.decls)
			p.decls = append(p.decls, safetensors.Decl{Name: t.Name + "_scale_inv", DType: safetensors.F32, Shape: []int64{int64(tl.GridRows()), int64(tl.GridCols())}})
		}
		plans = append(plans, p)
	}
	qc := []byte(`{"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}`)
	return c.write(plans, outDir, opt.Threads, opt.Progress, func(cfg []entry) []entry {
		if c.config == nil {
			return nil
		}
		var out []entry
		for _, e := range cfg {
			if e.key != "quantization_config" {
				out = append(out, e)
			}
		}
		return append(out, entry{"quantization_config", qc})
	}, nil)
}

// quantizable reports whether Quantize encodes t.
func quantizable(t safetensors.Tensor, skip []string) bool {
	n := t.Name
	switch {
	case len(t.Shape) != 2 || !floatTypes[t.DType] || t.DType == safetensors.F64 || !strings.HasSuffix(n, ".weight"),
		skipped(n, skip), strings.Contains(n, "embed"), strings.Contains(n, "norm"), strings.Contains(n, "lm_head"),
		strings.HasSuffix(n, ".mlp.gate.weight"), t.Shape[0] == 0 || t.Shape[1] == 0:
		return false
	}
	return true
}

// write writes the shards of plans, then the other files of the input directory (config.json
// through rewrite, which returns nil for none; dropped names left out), then the index.
func (c *Checkpoint) write(plans []shardPlan, outDir string, threads int, progress Progress, rewrite func([]entry) []entry, dropped map[string]bool) (Report, error) {
	var names []string
	for _, p := range plans {
		names = append(names, p.name)
	}
	others, err := c.otherFiles()
	if err != nil {
		return Report{}, err
	}
	names = append(names, others...)
	names = append(names, "config.json", IndexName)
	if err := c.checkOutput(outDir, names); err != nil {
		return Report{}, err
	}
	// An index an earlier run left would make a run that stops midway look complete.
	if err := atomicfile.Remove(filepath.Join(outDir, IndexName)); err != nil {
		return Report{}, err
	}
	var rep Report
	if err := runPlans(plans, outDir, threads, progress, kernels.Best, &rep); err != nil {
		return rep, err
	}
	for _, name := range others {
		if dropped[name] {
			continue
		}
		if err := copyFile(filepath.Join(c.Dir, name), filepath.Join(outDir, name)); err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, filepath.Join(outDir, name))
	}
	if cfg := rewrite(c.config); cfg != nil {
		p := filepath.Join(outDir, "config.json")
		if err := atomicfile.Write(p, func(w io.Writer) error { return writeObject(w, cfg) }); err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, p)
	}
	if c.Index != "" || len(plans) > 1 {
		p := filepath.Join(outDir, IndexName)
		if err := atomicfile.Write(p, func(w io.Writer) error { return c.writeIndex(w, plans) }); err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, p)
	}
	return rep, nil
}

// otherFiles lists the regular files of the input directory that are not the checkpoint's
// shards, index or config.json, nor hidden: the files a conversion copies (tokenizer,
// generation config, ...). A checkpoint opened as one .safetensors file has none, and
// subdirectories are not copied.
func (c *Checkpoint) otherFiles() ([]string, error) {
	if c.single {
		return nil, nil
	}
	ents, err := os.ReadDir(c.Dir)
	if err != nil {
		return nil, err
	}
	own := map[string]bool{"config.json": true, IndexName: true, filepath.Base(c.Index): true}
	for _, f := range c.Shards {
		own[baseName(f)] = true
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if own[n] || strings.HasPrefix(n, ".") || !e.Type().IsRegular() || strings.HasSuffix(n, ".safetensors") {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// copyFile copies the regular file src to dst atomically.
func copyFile(src, dst string) error {
	in, err := regfile.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.Write(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// writeObject writes the entries as an indented JSON object, in their order.
func writeObject(w io.Writer, es []entry) error {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, e := range es {
		k, _ := json.Marshal(e.key)
		var v bytes.Buffer
		if err := json.Indent(&v, e.val, "  ", "  "); err != nil {
			return err
		}
		fmt.Fprintf(&b, "  %s: %s", k, v.Bytes())
		if i < len(es)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// writeIndex writes the index of the output shards: the input index's metadata with
// total_size recomputed, and the weight map of the output tensors.
func (c *Checkpoint) writeIndex(w io.Writer, plans []shardPlan) error {
	meta := map[string]any{}
	for k, v := range c.indexMeta {
		meta[k] = v
	}
	var total int64
	wm := map[string]string{}
	for _, p := range plans {
		for _, d := range p.decls {
			total += declBytes(d)
			wm[d.Name] = p.name
		}
	}
	meta["total_size"] = total
	keys := make([]string, 0, len(wm))
	for k := range wm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	mb, err := json.MarshalIndent(meta, "  ", "  ")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"metadata\": %s,\n  \"weight_map\": {\n", mb)
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(wm[k])
		fmt.Fprintf(&b, "    %s: %s", kb, vb)
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  }\n}\n")
	_, err = w.Write(b.Bytes())
	return err
}

// declBytes returns the data bytes of a declared tensor.
func declBytes(d safetensors.Decl) int64 {
	return safetensors.Tensor{DType: d.DType, Shape: d.Shape}.Elements() * int64(d.DType.Bits()) / 8
}
