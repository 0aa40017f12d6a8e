// Package ckfixture writes small Hugging Face checkpoints in the real layouts and tensor names
// of each scheme package checkpoint reads, with deterministic pseudo-random values, for tests
// and for the examples under testdata/safetensors.
package ckfixture

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/safetensors"
)

// Tensor is a tensor to write.
type Tensor struct {
	Name  string
	DType safetensors.DType
	Shape []int64
	Data  []byte
}

// Shard is a file of tensors.
type Shard struct {
	Name    string
	Tensors []Tensor
}

// Checkpoint is a checkpoint to write: its shards, whether it has an index, and its other files
// (name → contents; config.json among them).
type Checkpoint struct {
	Shards []Shard
	Index  bool
	Files  map[string]string
}

// Write writes c into dir (created if needed).
func (c Checkpoint) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	wm := map[string]string{}
	var total int64
	for _, s := range c.Shards {
		decls := make([]safetensors.Decl, len(s.Tensors))
		for i, t := range s.Tensors {
			decls[i] = safetensors.Decl{Name: t.Name, DType: t.DType, Shape: t.Shape}
			wm[t.Name] = s.Name
			total += int64(len(t.Data))
		}
		w, err := safetensors.Create(filepath.Join(dir, s.Name), decls, map[string]string{"format": "pt"})
		if err != nil {
			return err
		}
		for _, t := range s.Tensors {
			if _, err := w.Write(t.Data); err != nil {
				w.Abort()
				return err
			}
		}
		if err := w.Commit(); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(c.Files))
	for n := range c.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c.Files[n]), 0o644); err != nil {
			return err
		}
	}
	if c.Index {
		idx := map[string]any{"metadata": map[string]any{"total_size": total}, "weight_map": wm}
		b, _ := json.MarshalIndent(idx, "", "  ")
		return os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), append(b, '\n'), 0o644)
	}
	return nil
}

// gen makes deterministic values.
type gen struct{ r *rand.Rand }

func newGen(seed uint64) gen { return gen{rand.New(rand.NewPCG(seed, 0x5afe))} }

// floats returns n normal values × scale as dtype d (F32, F16, BF16).
func (g gen) floats(d safetensors.DType, n int, scale float64) []byte {
	var out []byte
	for range n {
		v := float32(g.r.NormFloat64() * scale)
		switch d {
		case safetensors.F32:
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		case safetensors.F16:
			out = binary.LittleEndian.AppendUint16(out, kernels.F16FromF32(v))
		default:
			out = binary.LittleEndian.AppendUint16(out, kernels.BF16FromF32(v))
		}
	}
	return out
}

// e4m3 returns n finite f8e4m3 codes (never the NaNs 0x7F, 0xFF).
func (g gen) e4m3(n int) []byte {
	out := make([]byte, n)
	for i := range out {
		c := byte(g.r.Uint32())
		if c&0x7F == 0x7F {
			c ^= 1
		}
		out[i] = c
	}
	return out
}

// bytes returns n random bytes in [lo, hi].
func (g gen) bytes(n int, lo, hi int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(lo + g.r.IntN(hi-lo+1))
	}
	return out
}

// f32s returns n positive float32 scales in [lo, hi).
func (g gen) f32s(n int, lo, hi float64) []byte {
	var out []byte
	for range n {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(lo+(hi-lo)*g.r.Float64())))
	}
	return out
}

func t(name string, d safetensors.DType, data []byte, shape ...int64) Tensor {
	return Tensor{Name: name, DType: d, Shape: shape, Data: data}
}

func ceil(a, b int64) int64 { return (a + b - 1) / b }

// Plain is an f32 checkpoint in two shards with an index, an I64 tensor and tokenizer files.
func Plain() Checkpoint {
	g := newGen(1)
	return Checkpoint{
		Shards: []Shard{
			{"model-00001-of-00002.safetensors", []Tensor{
				t("model.embed_tokens.weight", safetensors.F32, g.floats(safetensors.F32, 64*32, 1), 64, 32),
				t("model.layers.0.self_attn.q_proj.weight", safetensors.F32, g.floats(safetensors.F32, 32*32, 0.05), 32, 32),
				t("model.layers.0.input_layernorm.weight", safetensors.F32, g.floats(safetensors.F32, 32, 1), 32),
			}},
			{"model-00002-of-00002.safetensors", []Tensor{
				t("model.layers.0.mlp.down_proj.weight", safetensors.F32, g.floats(safetensors.F32, 32*48, 0.05), 32, 48),
				t("model.rotary.position_ids", safetensors.I64, make([]byte, 8*16), 16),
				t("lm_head.weight", safetensors.F32, g.floats(safetensors.F32, 64*32, 0.05), 64, 32),
			}},
		},
		Index: true,
		Files: map[string]string{
			"config.json":            `{"architectures": ["LlamaForCausalLM"], "hidden_size": 32, "torch_dtype": "float32", "vocab_size": 64}` + "\n",
			"tokenizer.json":         `{"version": "1.0"}` + "\n",
			"generation_config.json": `{"do_sample": false}` + "\n",
		},
	}
}

// DeepSeekFP8 is a DeepSeek-V3-style FP8 checkpoint: F8_E4M3 weights with F32 weight_scale_inv
// of 128 × 128 blocks (partial edge blocks), one scale in the other shard, shards named as
// DeepSeek names them.
func DeepSeekFP8() Checkpoint {
	g := newGen(2)
	w := func(name string, rows, cols int64) []Tensor {
		return []Tensor{
			t(name+".weight", safetensors.F8E4M3, g.e4m3(int(rows*cols)), rows, cols),
			t(name+".weight_scale_inv", safetensors.F32, g.f32s(int(ceil(rows, 128)*ceil(cols, 128)), 1e-4, 4e-3), ceil(rows, 128), ceil(cols, 128)),
		}
	}
	qa := w("model.layers.0.self_attn.q_a_proj", 200, 300)
	kv := w("model.layers.0.self_attn.kv_a_proj_with_mqa", 130, 129)
	down := w("model.layers.0.mlp.down_proj", 64, 256)
	s1 := []Tensor{t("model.embed_tokens.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 1), 64, 32)}
	s1 = append(s1, qa...)
	s1 = append(s1, kv[0], t("model.layers.0.input_layernorm.weight", safetensors.BF16, g.floats(safetensors.BF16, 300, 1), 300))
	s2 := []Tensor{kv[1]}
	s2 = append(s2, down...)
	s2 = append(s2, t("model.layers.0.mlp.gate.e_score_correction_bias", safetensors.F32, g.floats(safetensors.F32, 8, 1), 8),
		t("lm_head.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 0.05), 64, 32))
	return Checkpoint{
		Shards: []Shard{{"model-00001-of-000163.safetensors", s1}, {"model-00002-of-000163.safetensors", s2}},
		Index:  true,
		Files: map[string]string{
			"config.json": `{"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}, "torch_dtype": "bfloat16"}` + "\n",
		},
	}
}

// GptOssMXFP4 is a gpt-oss-style checkpoint: experts' gate_up_proj and down_proj as MXFP4
// blocks and scales, the rest bf16.
func GptOssMXFP4() Checkpoint {
	g := newGen(3)
	const e, h, i2 = 2, 64, 128 // experts, hidden, 2 × intermediate
	p := "model.layers.0.mlp.experts."
	return Checkpoint{
		Shards: []Shard{{"model.safetensors", []Tensor{
			t("model.embed_tokens.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*h, 1), 64, h),
			t(p+"gate_up_proj_blocks", safetensors.U8, g.bytes(e*i2*h/32*16, 0, 255), e, i2, h/32, 16),
			t(p+"gate_up_proj_scales", safetensors.U8, g.bytes(e*i2*h/32, 118, 128), e, i2, h/32),
			t(p+"gate_up_proj_bias", safetensors.BF16, g.floats(safetensors.BF16, e*i2, 0.1), e, i2),
			t(p+"down_proj_blocks", safetensors.U8, g.bytes(e*h*(i2/2)/32*16, 0, 255), e, h, i2/2/32, 16),
			t(p+"down_proj_scales", safetensors.U8, g.bytes(e*h*(i2/2)/32, 118, 128), e, h, i2/2/32),
			t(p+"down_proj_bias", safetensors.BF16, g.floats(safetensors.BF16, e*h, 0.1), e, h),
			t("model.layers.0.mlp.router.weight", safetensors.BF16, g.floats(safetensors.BF16, e*h, 0.1), e, h),
			t("model.norm.weight", safetensors.BF16, g.floats(safetensors.BF16, h, 1), h),
		}}},
		Files: map[string]string{
			"config.json": `{"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"}, "torch_dtype": "bfloat16"}` + "\n",
		},
	}
}

// nvfp4 returns the packed codes and block scales of an NVFP4 weight [rows, cols].
func nvfp4(g gen, rows, cols int64) (codes, scales []byte) {
	return g.bytes(int(rows*cols/2), 0, 255), g.bytes(int(rows*ceil(cols, 16)), 0x20, 0x60)
}

// ModelOptNVFP4 is an NVIDIA ModelOpt NVFP4 checkpoint (hf_quant_config.json), down_proj
// quantized, lm_head excluded.
func ModelOptNVFP4() Checkpoint {
	g := newGen(4)
	p := "model.layers.0.mlp.down_proj."
	codes, scales := nvfp4(g, 64, 96)
	return Checkpoint{
		Shards: []Shard{{"model.safetensors", []Tensor{
			t("model.embed_tokens.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 1), 64, 32),
			t(p+"weight", safetensors.U8, codes, 64, 48),
			t(p+"weight_scale", safetensors.F8E4M3, scales, 64, 6),
			t(p+"weight_scale_2", safetensors.F32, g.f32s(1, 1e-4, 1e-3)),
			t(p+"input_scale", safetensors.F32, g.f32s(1, 1e-3, 1e-2)),
			t("lm_head.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 0.05), 64, 32),
		}}},
		Files: map[string]string{
			"config.json":          `{"architectures": ["LlamaForCausalLM"], "torch_dtype": "bfloat16"}` + "\n",
			"hf_quant_config.json": `{"producer": {"name": "modelopt", "version": "0.29.0"}, "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": null, "group_size": 16, "exclude_modules": ["lm_head"]}}` + "\n",
		},
	}
}

// CompressedNVFP4 is an llm-compressor (compressed-tensors nvfp4-pack-quantized) checkpoint.
func CompressedNVFP4() Checkpoint {
	g := newGen(5)
	p := "model.layers.0.self_attn.o_proj."
	codes, scales := nvfp4(g, 64, 96)
	return Checkpoint{
		Shards: []Shard{{"model.safetensors", []Tensor{
			t("model.embed_tokens.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 1), 64, 32),
			t(p+"weight_packed", safetensors.U8, codes, 64, 48),
			t(p+"weight_scale", safetensors.F8E4M3, scales, 64, 6),
			t(p+"weight_global_scale", safetensors.F32, g.f32s(1, 1e3, 1e4), 1),
			t(p+"input_global_scale", safetensors.F32, g.f32s(1, 1e2, 1e3), 1),
			t("lm_head.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 0.05), 64, 32),
		}}},
		Files: map[string]string{
			"config.json": `{"architectures": ["LlamaForCausalLM"], "quantization_config": {"config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "symmetric": true}}}, "format": "nvfp4-pack-quantized", "ignore": ["lm_head"], "quant_method": "compressed-tensors"}, "torch_dtype": "bfloat16"}` + "\n",
		},
	}
}

// CompressedFP8 is an llm-compressor FP8 checkpoint (float-quantized) with strategy "channel"
// (a BF16 scale [rows, 1]), "block" (128 × 128 blocks), "group" (groups of 64 along a row) or
// "tensor" (one scale).
func CompressedFP8(strategy string) Checkpoint {
	g := newGen(6)
	p := "model.layers.0.mlp.up_proj."
	const rows, cols = 200, 160
	weights := `{"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": true}`
	scale := t(p+"weight_scale", safetensors.BF16, g.floats(safetensors.BF16, rows, 1e-3), rows, 1)
	switch strategy {
	case "block":
		weights = `{"num_bits": 8, "type": "float", "strategy": "block", "block_structure": [128, 128], "symmetric": true}`
		scale = t(p+"weight_scale", safetensors.BF16, g.floats(safetensors.BF16, 2*2, 1e-3), 2, 2)
	case "group":
		weights = `{"num_bits": 8, "type": "float", "strategy": "group", "group_size": 64, "symmetric": true}`
		scale = t(p+"weight_scale", safetensors.BF16, g.floats(safetensors.BF16, rows*3, 1e-3), rows, 3)
	case "tensor":
		weights = `{"num_bits": 8, "type": "float", "strategy": "tensor", "symmetric": true}`
		scale = t(p+"weight_scale", safetensors.BF16, g.floats(safetensors.BF16, 1, 1e-3), 1)
	}
	return Checkpoint{
		Shards: []Shard{{"model.safetensors", []Tensor{
			t("model.embed_tokens.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 1), 64, 32),
			t(p+"weight", safetensors.F8E4M3, g.e4m3(rows*cols), rows, cols),
			scale,
			t("lm_head.weight", safetensors.BF16, g.floats(safetensors.BF16, 64*32, 0.05), 64, 32),
		}}},
		Files: map[string]string{
			"config.json": `{"architectures": ["LlamaForCausalLM"], "quantization_config": {"config_groups": {"group_0": {"targets": ["Linear"], "weights": ` + weights + `, "input_activations": {"num_bits": 8, "type": "float", "strategy": "token", "dynamic": true, "symmetric": true}}}, "format": "float-quantized", "ignore": ["lm_head"], "quant_method": "compressed-tensors"}, "torch_dtype": "bfloat16"}` + "\n",
		},
	}
}

// Examples are the checkpoints committed under testdata/safetensors, by directory name.
func Examples() map[string]Checkpoint {
	return map[string]Checkpoint{
		"plain-f32":                Plain(),
		"deepseek-fp8":             DeepSeekFP8(),
		"gpt-oss-mxfp4":            GptOssMXFP4(),
		"nvfp4-modelopt":           ModelOptNVFP4(),
		"nvfp4-compressed-tensors": CompressedNVFP4(),
		"fp8-compressed-tensors":   CompressedFP8("block"),
	}
}

// Large writes a checkpoint of one weight of rows × cols elements into dir, streamed in 4 MiB
// pieces: F32 values (kind "f32") or DeepSeek FP8 codes with their F32 128 × 128 block scales
// and config.json (kind "fp8"), for measuring conversions of real sizes.
func Large(dir, kind string, rows, cols int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	name := "model.layers.0.mlp.down_proj.weight"
	decls := []safetensors.Decl{{Name: name, DType: safetensors.F32, Shape: []int64{rows, cols}}}
	config := `{"torch_dtype": "float32"}` + "\n"
	if kind == "fp8" {
		decls[0].DType = safetensors.F8E4M3
		decls = append(decls, safetensors.Decl{Name: name + "_scale_inv", DType: safetensors.F32, Shape: []int64{ceil(rows, 128), ceil(cols, 128)}})
		config = `{"quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}, "torch_dtype": "bfloat16"}` + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
		return err
	}
	w, err := safetensors.Create(filepath.Join(dir, "model.safetensors"), decls, map[string]string{"format": "pt"})
	if err != nil {
		return err
	}
	defer w.Abort()
	g := newGen(7)
	piece := g.floats(safetensors.F32, 1<<20, 0.02) // 4 MiB, repeated
	if kind == "fp8" {
		piece = g.e4m3(4 << 20)
	}
	for _, t := range w.Tensors() {
		for off := int64(0); off < t.Bytes(); off += int64(len(piece)) {
			p := piece[:min(int64(len(piece)), t.Bytes()-off)]
			if t.DType == safetensors.F32 && kind == "fp8" {
				p = g.f32s(len(p)/4, 1e-4, 4e-3)
			}
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
	}
	return w.Commit()
}
