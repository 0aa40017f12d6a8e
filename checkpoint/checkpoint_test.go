package checkpoint_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/convertpromote/convertpromote/checkpoint"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/ckfixture"
	"github.com/convertpromote/convertpromote/safetensors"
)

// The references below are written from the published formulas (docs/SEMANTICS.md §9.7), in
// float64 with one explicit rounding each, independently of packages quant and kernels.

func e4m3(c byte) float64 {
	e, m := int(c>>3&0xF), float64(c&7)
	v := math.Ldexp(1+m/8, e-7)
	if e == 0 {
		v = math.Ldexp(m, -9)
	}
	if c&0x80 != 0 {
		v = -v
	}
	return v
}

var e2m1 = [16]float64{0, .5, 1, 1.5, 2, 3, 4, 6, math.Copysign(0, -1), -.5, -1, -1.5, -2, -3, -4, -6}

// bf16 rounds a float32 to bfloat16 bits, to nearest, ties to even (finite inputs).
func bf16(f float32) uint16 {
	b := math.Float32bits(f)
	r := b >> 16
	rest := b & 0xFFFF
	if rest > 0x8000 || rest == 0x8000 && r&1 == 1 {
		r++
	}
	return uint16(r)
}

func bits(to element.Type, f float32) uint32 {
	switch to {
	case element.F32:
		return math.Float32bits(f)
	case element.F16:
		return uint32(float16.Fromfloat32(f).Bits())
	}
	return uint32(bf16(f))
}

func f32at(b []byte, i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])) }
func bf16at(b []byte, i int) float32 {
	return math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
}

// ckpt is an open output checkpoint.
type ckpt struct {
	t    *testing.T
	c    *checkpoint.Checkpoint
	path string
}

func open(t *testing.T, path string) ckpt {
	t.Helper()
	c, err := checkpoint.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return ckpt{t, c, path}
}

func (k ckpt) tensor(name string) (safetensors.Tensor, []byte) {
	k.t.Helper()
	r, ok := k.c.Lookup(name)
	if !ok {
		k.t.Fatalf("%s: no tensor %q", k.path, name)
	}
	b := make([]byte, r.Bytes())
	if err := r.Shard.ReadTensorAt(r.Tensor, b, 0); err != nil {
		k.t.Fatal(err)
	}
	return r.Tensor, b
}

func (k ckpt) absent(names ...string) {
	k.t.Helper()
	for _, n := range names {
		if _, ok := k.c.Lookup(n); ok {
			k.t.Errorf("%s: tensor %q should have been dropped", k.path, n)
		}
	}
}

func fixture(t *testing.T, c ckfixture.Checkpoint) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "in")
	if err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func convert(t *testing.T, in string, opt checkpoint.ConvertOptions) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	if _, err := checkpoint.Convert(in, out, opt); err != nil {
		t.Fatal(err)
	}
	return out
}

func config(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDeepSeekFP8(t *testing.T) {
	in := fixture(t, ckfixture.DeepSeekFP8())
	src := open(t, in)
	if src.c.Scheme != checkpoint.DeepSeekFP8 {
		t.Fatalf("scheme %q", src.c.Scheme)
	}
	out := convert(t, in, checkpoint.ConvertOptions{To: element.BF16, Skip: []string{"*.e_score_correction_bias"}})
	dst := open(t, out)
	for _, name := range []string{"model.layers.0.self_attn.q_a_proj", "model.layers.0.self_attn.kv_a_proj_with_mqa", "model.layers.0.mlp.down_proj"} {
		wt, codes := src.tensor(name + ".weight")
		_, scales := src.tensor(name + ".weight_scale_inv")
		ot, got := dst.tensor(name + ".weight")
		rows, cols := int(wt.Shape[0]), int(wt.Shape[1])
		gc := (cols + 127) / 128
		if ot.DType != safetensors.BF16 || ot.Shape[0] != int64(rows) || ot.Shape[1] != int64(cols) {
			t.Fatalf("%s: %s %v", name, ot.DType, ot.Shape)
		}
		for i := range rows * cols {
			r, c := i/cols, i%cols
			s := f32at(scales, r/128*gc+c/128)
			want := bf16(float32(e4m3(codes[i]) * float64(s))) // product rounded to f32, then bf16
			if g := binary.LittleEndian.Uint16(got[2*i:]); g != want {
				t.Fatalf("%s[%d, %d]: %#x, want %#x", name, r, c, g, want)
			}
		}
		dst.absent(name + ".weight_scale_inv")
	}
	// Other tensors: bf16 kept, the skipped f32 bias copied unchanged.
	for _, name := range []string{"model.embed_tokens.weight", "lm_head.weight", "model.layers.0.mlp.gate.e_score_correction_bias"} {
		it, a := src.tensor(name)
		ot, b := dst.tensor(name)
		if ot.DType != it.DType || !bytes.Equal(a, b) {
			t.Errorf("%s changed", name)
		}
	}
	cfg := config(t, out)
	if cfg["quantization_config"] != nil || cfg["torch_dtype"] != "bfloat16" || cfg["model_type"] != "deepseek_v3" {
		t.Errorf("config.json: %v", cfg)
	}
	checkIndex(t, dst)
	// Shard names and tensor order are kept.
	for i, f := range dst.c.Shards {
		if filepath.Base(f.Name()) != filepath.Base(src.c.Shards[i].Name()) {
			t.Errorf("shard %d is %s", i, f.Name())
		}
	}
}

// checkIndex compares the output index with the shards.
func checkIndex(t *testing.T, k ckpt) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(k.path, checkpoint.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Metadata  map[string]any    `json:"metadata"`
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, r := range k.c.Tensors() {
		total += r.Bytes()
		if idx.WeightMap[r.Name] != filepath.Base(r.Shard.Name()) {
			t.Errorf("index maps %q to %q, not %s", r.Name, idx.WeightMap[r.Name], r.Shard.Name())
		}
	}
	if len(idx.WeightMap) != len(k.c.Tensors()) || idx.Metadata["total_size"] != float64(total) {
		t.Errorf("index: %d entries, total_size %v; want %d, %d", len(idx.WeightMap), idx.Metadata["total_size"], len(k.c.Tensors()), total)
	}
}

// TestThreads checks that any number of threads writes the same bytes.
func TestThreads(t *testing.T) {
	for _, c := range []ckfixture.Checkpoint{ckfixture.DeepSeekFP8(), ckfixture.GptOssMXFP4(), ckfixture.Plain()} {
		in := fixture(t, c)
		a := convert(t, in, checkpoint.ConvertOptions{To: element.BF16, Threads: 1})
		b := convert(t, in, checkpoint.ConvertOptions{To: element.BF16, Threads: 3})
		for _, s := range c.Shards {
			x, _ := os.ReadFile(filepath.Join(a, s.Name))
			y, _ := os.ReadFile(filepath.Join(b, s.Name))
			if len(x) == 0 || !bytes.Equal(x, y) {
				t.Errorf("%s: 1 and 3 threads differ", s.Name)
			}
		}
	}
}

func TestGptOssMXFP4(t *testing.T) {
	fx := ckfixture.GptOssMXFP4()
	for i, x := range fx.Shards[0].Tensors {
		if strings.HasSuffix(x.Name, "down_proj_scales") {
			d := append([]byte{}, x.Data...)
			d[5] = 0xFF // 2^128 in transformers: ±Inf, and NaN for zero codes
			fx.Shards[0].Tensors[i].Data = d
		}
	}
	in := fixture(t, fx)
	src := open(t, in)
	for _, to := range []element.Type{element.BF16, element.F32} {
		out := convert(t, in, checkpoint.ConvertOptions{To: to})
		dst := open(t, out)
		for _, name := range []string{"model.layers.0.mlp.experts.gate_up_proj", "model.layers.0.mlp.experts.down_proj"} {
			bt, blocks := src.tensor(name + "_blocks")
			_, scales := src.tensor(name + "_scales")
			ot, got := dst.tensor(name)
			e, rows, groups := int(bt.Shape[0]), int(bt.Shape[1]), int(bt.Shape[2])
			cols := groups * 32
			if want := []int64{int64(e), int64(cols), int64(rows)}; !equalShape(ot.Shape, want) {
				t.Fatalf("%s: shape %v, want %v (the last two dims transposed)", name, ot.Shape, want)
			}
			for x := range e {
				for o := range rows { // output feature: the blocks' row
					for i := range cols { // input feature: the blocks' column
						b := blocks[((x*rows+o)*groups+i/32)*16+i%32/2]
						code := b & 0xF
						if i%2 == 1 {
							code = b >> 4
						}
						// transformers: the table value times 2^(scale−127) computed in float32.
						v := float32(e2m1[code] * float64(float32(math.Exp2(float64(int(scales[(x*rows+o)*groups+i/32])-127)))))
						k := (x*cols+i)*rows + o
						nan := code&7 == 0 && scales[(x*rows+o)*groups+i/32] == 0xFF
						var g uint32
						if to == element.F32 {
							g = binary.LittleEndian.Uint32(got[4*k:])
						} else {
							g = uint32(binary.LittleEndian.Uint16(got[2*k:]))
						}
						if nan {
							if g != map[element.Type]uint32{element.F32: 0x7FC00000, element.BF16: 0x7FC0}[to] {
								t.Fatalf("%s → %s [%d, %d, %d]: %#x, want the quiet NaN", name, to, x, i, o, g)
							}
						} else if g != bits(to, v) {
							t.Fatalf("%s → %s [%d, %d, %d]: %#x, want %#x", name, to, x, i, o, g, bits(to, v))
						}
					}
				}
			}
			dst.absent(name+"_blocks", name+"_scales")
		}
		if cfg := config(t, out); cfg["quantization_config"] != nil {
			t.Error("quantization_config kept")
		}
	}
}

func equalShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkNVFP4 checks an NVFP4 weight: scale2 combines with each f8e4m3 block scale (in float32)
// by combine; the value is the e2m1 value times it, rounded to f32, then bf16.
func checkNVFP4(t *testing.T, src, dst ckpt, prefix, codesName string, combine func(s, g float64) float32) {
	t.Helper()
	wt, codes := src.tensor(prefix + codesName)
	_, scales := src.tensor(prefix + "weight_scale")
	s2n := prefix + "weight_scale_2"
	if _, ok := src.c.Lookup(s2n); !ok {
		s2n = prefix + "weight_global_scale"
	}
	_, s2 := src.tensor(s2n)
	g := float64(f32at(s2, 0))
	ot, got := dst.tensor(prefix + "weight")
	rows, cols := int(wt.Shape[0]), 2*int(wt.Shape[1])
	if ot.Shape[0] != int64(rows) || ot.Shape[1] != int64(cols) || ot.DType != safetensors.BF16 {
		t.Fatalf("%s: %s %v", prefix, ot.DType, ot.Shape)
	}
	for i := range rows * cols {
		c := codes[i/2] >> (4 * (i % 2)) & 0xF
		s := combine(e4m3(scales[i/cols*(cols/16)+i%cols/16]), g)
		want := bf16(float32(e2m1[c] * float64(s)))
		if v := binary.LittleEndian.Uint16(got[2*i:]); v != want {
			t.Fatalf("%s[%d]: %#x, want %#x", prefix, i, v, want)
		}
	}
}

func TestModelOptNVFP4(t *testing.T) {
	in := fixture(t, ckfixture.ModelOptNVFP4())
	src := open(t, in)
	if src.c.Scheme != checkpoint.ModelOptNVFP4 {
		t.Fatalf("scheme %q", src.c.Scheme)
	}
	out := convert(t, in, checkpoint.ConvertOptions{To: element.BF16})
	dst := open(t, out)
	p := "model.layers.0.mlp.down_proj."
	checkNVFP4(t, src, dst, p, "weight", func(s, g float64) float32 { return float32(s * g) })
	dst.absent(p+"weight_scale", p+"weight_scale_2", p+"input_scale")
	if _, err := os.Stat(filepath.Join(out, "hf_quant_config.json")); err == nil {
		t.Error("hf_quant_config.json copied into a dequantized checkpoint")
	}
}

func TestCompressedNVFP4(t *testing.T) {
	in := fixture(t, ckfixture.CompressedNVFP4())
	src := open(t, in)
	out := convert(t, in, checkpoint.ConvertOptions{To: element.BF16})
	dst := open(t, out)
	p := "model.layers.0.self_attn.o_proj."
	checkNVFP4(t, src, dst, p, "weight_packed", func(s, g float64) float32 { return float32(s / g) })
	dst.absent(p+"weight_packed", p+"weight_scale", p+"weight_global_scale", p+"input_global_scale")
}

func TestCompressedFP8(t *testing.T) {
	for _, strategy := range []string{"channel", "block", "group", "tensor"} {
		in := fixture(t, ckfixture.CompressedFP8(strategy))
		src := open(t, in)
		p := "model.layers.0.mlp.up_proj."
		wt, codes := src.tensor(p + "weight")
		st, scales := src.tensor(p + "weight_scale")
		rows, cols := int(wt.Shape[0]), int(wt.Shape[1])
		for _, to := range []element.Type{element.BF16, element.F16} {
			dst := open(t, convert(t, in, checkpoint.ConvertOptions{To: to}))
			_, got := dst.tensor(p + "weight")
			for i := range rows * cols {
				r, c := i/cols, i%cols
				var k int
				switch strategy {
				case "channel":
					k = r
				case "block":
					k = r/128*int(st.Shape[1]) + c/128
				case "group":
					k = r*int(st.Shape[1]) + c/64
				}
				// The product in the scale's dtype (bf16), then the cast to the output type.
				v := math.Float32frombits(uint32(bf16(float32(e4m3(codes[i])*float64(bf16at(scales, k))))) << 16)
				g := uint32(binary.LittleEndian.Uint16(got[2*i:]))
				if g != bits(to, v) {
					t.Fatalf("%s → %s [%d, %d]: %#x, want %#x", strategy, to, r, c, g, bits(to, v))
				}
			}
			dst.absent(p + "weight_scale")
		}
	}
}

func TestPlainCast(t *testing.T) {
	in := fixture(t, ckfixture.Plain())
	src := open(t, in)
	out := convert(t, in, checkpoint.ConvertOptions{To: element.F16})
	dst := open(t, out)
	for _, r := range src.c.Tensors() {
		_, a := src.tensor(r.Name)
		ot, b := dst.tensor(r.Name)
		if r.DType != safetensors.F32 {
			if ot.DType != r.DType || !bytes.Equal(a, b) {
				t.Errorf("%s: not copied unchanged", r.Name)
			}
			continue
		}
		for i := range int(r.Elements()) {
			if g, w := binary.LittleEndian.Uint16(b[2*i:]), float16.Fromfloat32(f32at(a, i)).Bits(); g != w {
				t.Fatalf("%s[%d]: %#x, want %#x", r.Name, i, g, w)
			}
		}
	}
	for _, f := range []string{"tokenizer.json", "generation_config.json"} {
		x, _ := os.ReadFile(filepath.Join(in, f))
		y, err := os.ReadFile(filepath.Join(out, f))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s not copied: %v", f, err)
		}
	}
	if cfg := config(t, out); cfg["torch_dtype"] != "float16" || cfg["architectures"] == nil {
		t.Errorf("config.json: %v", cfg)
	}
	checkIndex(t, dst)
	info := src.c.Info()
	if info.Shards != 2 || info.Tensors != 6 || info.Scheme != checkpoint.Plain || info.BytesByDType[safetensors.I64] != 128 {
		t.Errorf("Info: %+v", info)
	}
}

// TestQuantizeRoundTrip quantizes a plain checkpoint to FP8 blocks, checks DeepSeek's layout,
// and converts it back.
func TestQuantizeRoundTrip(t *testing.T) {
	in := fixture(t, ckfixture.Plain())
	q := filepath.Join(t.TempDir(), "fp8")
	if _, err := checkpoint.Quantize(in, q, checkpoint.QuantizeOptions{Scheme: checkpoint.DeepSeekFP8, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	src, qc := open(t, in), open(t, q)
	if qc.c.Scheme != checkpoint.DeepSeekFP8 {
		t.Fatalf("scheme %q", qc.c.Scheme)
	}
	for _, name := range []string{"model.layers.0.self_attn.q_proj.weight", "model.layers.0.mlp.down_proj.weight"} {
		wt, _ := qc.tensor(name)
		st, _ := qc.tensor(name + "_scale_inv")
		if wt.DType != safetensors.F8E4M3 || st.DType != safetensors.F32 || st.Shape[0] != 1 || st.Shape[1] != 1 {
			t.Errorf("%s: %s, scale %s %v", name, wt.DType, st.DType, st.Shape)
		}
	}
	for _, name := range []string{"model.embed_tokens.weight", "lm_head.weight", "model.layers.0.input_layernorm.weight"} {
		if wt, _ := qc.tensor(name); wt.DType != safetensors.F32 {
			t.Errorf("%s quantized", name)
		}
	}
	back := open(t, convert(t, q, checkpoint.ConvertOptions{To: element.F32}))
	for _, name := range []string{"model.layers.0.self_attn.q_proj.weight", "model.layers.0.mlp.down_proj.weight"} {
		_, a := src.tensor(name)
		_, b := back.tensor(name)
		var amax float64
		for i := range len(a) / 4 {
			amax = math.Max(amax, math.Abs(float64(f32at(a, i))))
		}
		for i := range len(a) / 4 {
			x, y := float64(f32at(a, i)), float64(f32at(b, i))
			if math.Abs(x-y) > math.Max(math.Abs(x)/16, amax/448*math.Exp2(-10))*1.001 {
				t.Fatalf("%s[%d]: %g → %g", name, i, x, y)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	drop := func(c ckfixture.Checkpoint, name string) ckfixture.Checkpoint {
		for i := range c.Shards {
			var keep []ckfixture.Tensor
			for _, x := range c.Shards[i].Tensors {
				if x.Name != name {
					keep = append(keep, x)
				}
			}
			c.Shards[i].Tensors = keep
		}
		return c
	}
	reshape := func(c ckfixture.Checkpoint, name string, shape ...int64) ckfixture.Checkpoint {
		for i := range c.Shards {
			for j, x := range c.Shards[i].Tensors {
				if x.Name == name {
					c.Shards[i].Tensors[j].Shape = shape
				}
			}
		}
		return c
	}
	unknown := ckfixture.Plain()
	unknown.Files["config.json"] = `{"quantization_config": {"quant_method": "gptq"}}`
	cases := []struct {
		name string
		c    ckfixture.Checkpoint
		want []string
	}{
		{"missing scale", drop(ckfixture.DeepSeekFP8(), "model.layers.0.mlp.down_proj.weight_scale_inv"), []string{"model-00002-of-000163.safetensors", "down_proj.weight", "without its scale"}},
		{"scale shape", reshape(ckfixture.DeepSeekFP8(), "model.layers.0.mlp.down_proj.weight_scale_inv", 2, 1), []string{"down_proj.weight_scale_inv", "does not fit"}},
		{"mxfp4 scales shape", reshape(ckfixture.GptOssMXFP4(), "model.layers.0.mlp.experts.down_proj_scales", 2, 128, 1), []string{"down_proj_scales"}},
		{"nvfp4 scale shape", reshape(ckfixture.ModelOptNVFP4(), "model.layers.0.mlp.down_proj.weight_scale", 32, 12), []string{"down_proj.weight_scale"}},
		{"unknown scheme", unknown, []string{"config.json", "gptq"}},
	}
	for _, c := range cases {
		in := filepath.Join(t.TempDir(), "in")
		if err := c.c.Write(in); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		_, err := checkpoint.Convert(in, out, checkpoint.ConvertOptions{To: element.BF16})
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want one naming %q", c.name, err, w)
			}
		}
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%s: files written: %v", c.name, ents)
		}
	}
	// An index that maps a tensor to a shard without it.
	in := fixture(t, ckfixture.Plain())
	b, _ := os.ReadFile(filepath.Join(in, checkpoint.IndexName))
	b = bytes.Replace(b, []byte(`"lm_head.weight": "model-00002-of-00002.safetensors"`), []byte(`"lm_head.weight": "model-00001-of-00002.safetensors"`), 1)
	os.WriteFile(filepath.Join(in, checkpoint.IndexName), b, 0o644)
	if _, err := checkpoint.Open(in); err == nil || !strings.Contains(err.Error(), "lm_head.weight") {
		t.Errorf("index mismatch: %v", err)
	}
	// The output directory is the input directory.
	in = fixture(t, ckfixture.Plain())
	if _, err := checkpoint.Convert(in, in, checkpoint.ConvertOptions{To: element.BF16}); !errors.Is(err, checkpoint.ErrSameDir) {
		t.Errorf("same directory: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(in, link)
	if _, err := checkpoint.Convert(in, link, checkpoint.ConvertOptions{To: element.BF16}); !errors.Is(err, checkpoint.ErrSameDir) {
		t.Errorf("same directory through a symlink: %v", err)
	}
}

// TestInterrupted fails a conversion in its second shard: the first shard is complete, and
// there is no second shard, no index and no temporary file.
func TestInterrupted(t *testing.T) {
	in := fixture(t, ckfixture.Plain())
	c, err := checkpoint.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	second := filepath.Join(in, "model-00002-of-00002.safetensors")
	fi, _ := os.Stat(second)
	os.Truncate(second, fi.Size()-100) // the file shrinks under the open checkpoint
	out := filepath.Join(t.TempDir(), "out")
	// An index from an earlier run is removed before the first shard is written.
	os.Mkdir(out, 0o755)
	os.WriteFile(filepath.Join(out, checkpoint.IndexName), []byte("{}"), 0o644)
	if _, err := c.Convert(out, checkpoint.ConvertOptions{To: element.BF16}); err == nil || !strings.Contains(err.Error(), "model-00002-of-00002.safetensors") {
		t.Fatalf("error %v does not name the shard", err)
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 1 || ents[0].Name() != "model-00001-of-00002.safetensors" {
		t.Fatalf("output holds %v", ents)
	}
}
