package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/convertpromote/convertpromote/internal/regfile"
	"github.com/convertpromote/convertpromote/safetensors"
)

// The quantization schemes a checkpoint can use, as Checkpoint.Scheme and Info name them
// (docs/SEMANTICS.md §9.7 gives each one's arithmetic).
const (
	// Plain: no quantization; float tensors are cast.
	Plain = "none"
	// DeepSeekFP8: quantization_config.quant_method "fp8" with weight_block_size (DeepSeek-V3
	// and R1): X.weight F8_E4M3 with X.weight_scale_inv F32, one scale per block.
	DeepSeekFP8 = "fp8-block"
	// CompressedFP8: compressed-tensors' "float-quantized" format: X.weight F8_E4M3 with
	// X.weight_scale in the original dtype, per tensor, channel, group or block.
	CompressedFP8 = "compressed-tensors-fp8"
	// GptOssMXFP4: quant_method "mxfp4" (gpt-oss): X_blocks U8 [..., G, 16] with X_scales U8
	// [..., G], E8M0 scales of groups of 32.
	GptOssMXFP4 = "mxfp4"
	// ModelOptNVFP4: NVIDIA ModelOpt's NVFP4 (hf_quant_config.json quant_algo "NVFP4"): X.weight
	// U8 [out, in/2], X.weight_scale F8_E4M3 [out, in/16], X.weight_scale_2 F32 scalar.
	ModelOptNVFP4 = "nvfp4-modelopt"
	// CompressedNVFP4: compressed-tensors' "nvfp4-pack-quantized": X.weight_packed,
	// X.weight_scale, X.weight_global_scale.
	CompressedNVFP4 = "compressed-tensors-nvfp4"
)

// IndexName is the file name of a sharded checkpoint's index.
const IndexName = "model.safetensors.index.json"

// ErrSameDir is the error (wrapped) of a conversion whose output would be written into the
// input directory or onto an input file.
var ErrSameDir = errors.New("the output would overwrite the input")

// Checkpoint is an open Hugging Face checkpoint: one or more safetensors shards, with the
// configuration beside them.
type Checkpoint struct {
	// Dir is the directory holding the shards (and config.json, if any).
	Dir string
	// Index is the path of the index, "" when the checkpoint has none.
	Index string
	// Shards are the open shard files, in the order of their file names.
	Shards []*safetensors.File
	// Scheme is the quantization scheme (Plain, DeepSeekFP8, ...).
	Scheme string
	// single is set when the checkpoint was opened as one .safetensors file.
	single bool
	// config is config.json as its top-level entries, in order (nil when absent).
	config []entry
	// quant is quantization_config from config.json, or hf_quant_config.json's "quantization".
	quant map[string]any
	// indexMeta is the index's "metadata" object.
	indexMeta map[string]any
	where     map[string]int // tensor name → shard
}

// entry is a top-level entry of a JSON object, in order.
type entry struct {
	key string
	val json.RawMessage
}

// TensorRef is a tensor of a checkpoint and the shard that holds it.
type TensorRef struct {
	safetensors.Tensor
	Shard *safetensors.File
}

// Open opens the checkpoint at path: a directory (with model.safetensors.index.json, or with
// *.safetensors files), an index file, or one .safetensors file. The shards named by an index
// are the files of its weight_map, whatever their names; every tensor of the map must be in
// its shard and every tensor of a shard in the map. The scheme is read from config.json's
// quantization_config, or from hf_quant_config.json (ModelOpt); a quantization method the
// package does not know is an error naming config.json.
func Open(path string) (*Checkpoint, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c := &Checkpoint{where: map[string]int{}}
	var shardNames []string
	switch {
	case fi.IsDir():
		c.Dir = path
		if _, err := os.Stat(filepath.Join(path, IndexName)); err == nil {
			c.Index = filepath.Join(path, IndexName)
		} else {
			shardNames, err = filepath.Glob(filepath.Join(path, "*.safetensors"))
			if err != nil {
				return nil, err
			}
			if len(shardNames) == 0 {
				return nil, fmt.Errorf("%s: no %s and no .safetensors file", path, IndexName)
			}
			for i, n := range shardNames {
				shardNames[i] = filepath.Base(n)
			}
		}
	case strings.HasSuffix(path, ".json"):
		c.Dir, c.Index = filepath.Dir(path), path
	default:
		c.Dir, c.single = filepath.Dir(path), true
		shardNames = []string{filepath.Base(path)}
	}
	var weightMap map[string]string
	if c.Index != "" {
		if weightMap, err = c.readIndex(); err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, f := range weightMap {
			if !seen[f] {
				seen[f] = true
				shardNames = append(shardNames, f)
			}
		}
		sort.Strings(shardNames)
	}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	for i, name := range shardNames {
		f, err := safetensors.Open(filepath.Join(c.Dir, name))
		if err != nil {
			return nil, err
		}
		c.Shards = append(c.Shards, f)
		for _, t := range f.Tensors() {
			if j, dup := c.where[t.Name]; dup {
				return nil, fmt.Errorf("%s: tensor %q is also in %s", f.Name(), t.Name, c.Shards[j].Name())
			}
			c.where[t.Name] = i
			if weightMap != nil && weightMap[t.Name] != name {
				return nil, fmt.Errorf("%s: tensor %q is not mapped to this shard by %s", f.Name(), t.Name, c.Index)
			}
		}
	}
	for t, f := range weightMap {
		if i, ok := c.where[t]; !ok || filepath.Base(c.Shards[i].Name()) != f {
			return nil, fmt.Errorf("%s: tensor %q is not in %s", c.Index, t, f)
		}
	}
	if err := c.readConfig(); err != nil {
		return nil, err
	}
	ok = true
	return c, nil
}

// readIndex reads the index's weight_map and metadata. Shard names must be plain file names in
// the index's directory.
func (c *Checkpoint) readIndex() (map[string]string, error) {
	b, err := readSmall(c.Index)
	if err != nil {
		return nil, err
	}
	var idx struct {
		Metadata  map[string]any    `json:"metadata"`
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("%s: %v", c.Index, err)
	}
	if len(idx.WeightMap) == 0 {
		return nil, fmt.Errorf("%s: no weight_map", c.Index)
	}
	for t, f := range idx.WeightMap {
		if f == "" || f != filepath.Base(f) || f == "." || f == ".." || strings.ContainsRune(f, '\\') {
			return nil, fmt.Errorf("%s: tensor %q: shard %q is not a file name in the index's directory", c.Index, t, f)
		}
	}
	c.indexMeta = idx.Metadata
	return idx.WeightMap, nil
}

// maxConfigBytes bounds the JSON files read whole (index, config.json, hf_quant_config.json).
const maxConfigBytes = 64 << 20

// readSmall reads a regular file of at most maxConfigBytes.
func readSmall(path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(b) > maxConfigBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxConfigBytes)
	}
	return b, nil
}

// readConfig reads config.json and hf_quant_config.json, when present, and decides the scheme.
func (c *Checkpoint) readConfig() error {
	c.Scheme = Plain
	cfgPath := filepath.Join(c.Dir, "config.json")
	if b, err := readSmall(cfgPath); err == nil {
		if c.config, err = objectEntries(b); err != nil {
			return fmt.Errorf("%s: %v", cfgPath, err)
		}
		for _, e := range c.config {
			if e.key == "quantization_config" && string(e.val) != "null" {
				if err := json.Unmarshal(e.val, &c.quant); err != nil {
					return fmt.Errorf("%s: quantization_config: %v", cfgPath, err)
				}
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	hfPath := filepath.Join(c.Dir, "hf_quant_config.json")
	var hf map[string]any
	if b, err := readSmall(hfPath); err == nil {
		if err := json.Unmarshal(b, &hf); err != nil {
			return fmt.Errorf("%s: %v", hfPath, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if c.quant == nil {
		if q, ok := hf["quantization"].(map[string]any); ok {
			c.quant = q
			c.quant["quant_method"] = "modelopt"
		} else if hf != nil {
			return fmt.Errorf("%s: no \"quantization\" object", hfPath)
		}
	}
	if c.quant == nil {
		return nil
	}
	method, _ := c.quant["quant_method"].(string)
	switch method {
	case "fp8":
		if _, err := c.blockSize(); err != nil {
			return err
		}
		c.Scheme = DeepSeekFP8
	case "mxfp4":
		c.Scheme = GptOssMXFP4
	case "modelopt":
		algo, _ := c.quant["quant_algo"].(string)
		if algo != "NVFP4" {
			return fmt.Errorf("%s: ModelOpt quant_algo %q is not supported (supported: NVFP4)", c.configName(), algo)
		}
		c.Scheme = ModelOptNVFP4
	case "compressed-tensors":
		format, _ := c.quant["format"].(string)
		switch format {
		case "float-quantized", "naive-quantized":
			c.Scheme = CompressedFP8
		case "nvfp4-pack-quantized":
			c.Scheme = CompressedNVFP4
		default:
			return fmt.Errorf("%s: compressed-tensors format %q is not supported (supported: float-quantized, nvfp4-pack-quantized)", c.configName(), format)
		}
	default:
		return fmt.Errorf("%s: quantization_config.quant_method %q is not supported (supported: fp8, mxfp4, compressed-tensors, modelopt NVFP4)", c.configName(), method)
	}
	return nil
}

func (c *Checkpoint) configName() string {
	if c.config == nil {
		return filepath.Join(c.Dir, "hf_quant_config.json")
	}
	return filepath.Join(c.Dir, "config.json")
}

// blockSize returns DeepSeek's weight_block_size.
func (c *Checkpoint) blockSize() ([2]int, error) {
	v, _ := c.quant["weight_block_size"].([]any)
	var b [2]int
	for i := range b {
		if len(v) != 2 {
			break
		}
		f, ok := v[i].(float64)
		if !ok || f < 1 || f > 1<<20 || f != float64(int(f)) {
			break
		}
		b[i] = int(f)
	}
	if b[0] == 0 || b[1] == 0 {
		return b, fmt.Errorf("%s: quantization_config.weight_block_size is not two positive integers", c.configName())
	}
	return b, nil
}

// objectEntries splits a JSON object into its top-level entries, in order.
func objectEntries(b []byte) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []entry
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, entry{t.(string), raw})
	}
	return out, nil
}

// Close closes the shards.
func (c *Checkpoint) Close() error {
	var errs []error
	for _, f := range c.Shards {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// Tensors returns every tensor, shard by shard, in data order.
func (c *Checkpoint) Tensors() []TensorRef {
	var out []TensorRef
	for _, f := range c.Shards {
		for _, t := range f.Tensors() {
			out = append(out, TensorRef{t, f})
		}
	}
	return out
}

// Lookup returns the tensor called name and its shard.
func (c *Checkpoint) Lookup(name string) (TensorRef, bool) {
	i, ok := c.where[name]
	if !ok {
		return TensorRef{}, false
	}
	t, _ := c.Shards[i].Lookup(name)
	return TensorRef{t, c.Shards[i]}, true
}

// Info summarises a checkpoint.
type Info struct {
	Shards  int
	Tensors int
	// Bytes is the tensors' data (headers excluded), as an index's total_size counts it.
	Bytes        int64
	BytesByDType map[safetensors.DType]int64
	Scheme       string
}

// Info returns the checkpoint's summary.
func (c *Checkpoint) Info() Info {
	in := Info{Shards: len(c.Shards), BytesByDType: map[safetensors.DType]int64{}, Scheme: c.Scheme}
	for _, t := range c.Tensors() {
		in.Tensors++
		in.Bytes += t.Bytes()
		in.BytesByDType[t.DType] += t.Bytes()
	}
	return in
}
