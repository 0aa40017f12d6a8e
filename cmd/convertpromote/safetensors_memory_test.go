//go:build linux

package main

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/safetensors"
)

// bigCheckpoint writes a checkpoint of one tensor of rows × cols elements of dtype d (its bytes
// from fill, streamed in 4 MiB pieces) and, for F8_E4M3, its DeepSeek scale.
func bigCheckpoint(t *testing.T, dir string, d safetensors.DType, rows, cols int64, fill func(off int64, p []byte)) {
	t.Helper()
	decls := []safetensors.Decl{{Name: "model.layers.0.mlp.down_proj.weight", DType: d, Shape: []int64{rows, cols}}}
	config := `{"torch_dtype": "float32"}`
	if d == safetensors.F8E4M3 {
		decls = append(decls, safetensors.Decl{Name: "model.layers.0.mlp.down_proj.weight_scale_inv", DType: safetensors.F32, Shape: []int64{rows / 128, cols / 128}})
		config = `{"quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}, "torch_dtype": "bfloat16"}`
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := safetensors.Create(filepath.Join(dir, "model.safetensors"), decls, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	p := make([]byte, 4<<20)
	size := w.Tensors()[0].Bytes()
	for off := int64(0); off < size; off += int64(len(p)) {
		q := p[:min(int64(len(p)), size-off)]
		fill(off, q)
		if _, err := w.Write(q); err != nil {
			t.Fatal(err)
		}
	}
	if d == safetensors.F8E4M3 {
		s := make([]byte, rows/128*cols/128*4)
		for i := range len(s) / 4 {
			binary.LittleEndian.PutUint32(s[4*i:], math.Float32bits(float32(i%7+1)/256))
		}
		w.Write(s)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestSafetensorsConvertMemory converts a checkpoint whose one tensor takes 1.5 GiB (f32 → bf16,
// then DeepSeek FP8 → bf16) in a child process and checks that its peak RSS stays within
// 256 MiB and that sampled output values are right.
func TestSafetensorsConvertMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1.5 GiB checkpoints")
	}
	if raceEnabled {
		t.Skip("-race inflates memory use")
	}
	const limit = 256 << 20
	f32At := func(i int64) float32 { return float32(i%65521) / 64 }
	cases := []struct {
		name       string
		d          safetensors.DType
		rows, cols int64
		fill       func(off int64, p []byte)
		want       func(i int64) uint16
	}{
		{"f32", safetensors.F32, 24576, 16384, func(off int64, p []byte) {
			for j := 0; j < len(p); j += 4 {
				binary.LittleEndian.PutUint32(p[j:], math.Float32bits(f32At((off+int64(j))/4)))
			}
		}, func(i int64) uint16 { return kernels.BF16FromF32(f32At(i)) }},
		{"fp8", safetensors.F8E4M3, 32768, 49152, func(off int64, p []byte) {
			for j := range p {
				p[j] = byte((off + int64(j)) % 0x7E)
			}
		}, func(i int64) uint16 {
			row, col := i/49152, i%49152
			s := float32((row/128*(49152/128)+col/128)%7+1) / 256
			return kernels.BF16FromF32(kernels.F32FromF8E4M3(byte(i%0x7E)) * s)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
			os.Mkdir(in, 0o755)
			bigCheckpoint(t, in, c.d, c.rows, c.cols, c.fill)
			code, _, stderr, peak := childPeakRSS(t, "safetensors", "convert", in, "--to", "bf16", "-o", out, "--threads", "2")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			t.Logf("%s: %.1f GiB tensor, peak RSS %.1f MiB", c.name, float64(c.rows*c.cols*int64(c.d.Bits())/8)/(1<<30), float64(peak)/(1<<20))
			if peak > limit {
				t.Errorf("peak RSS %d MiB, more than %d MiB", peak>>20, limit>>20)
			}
			f, err := safetensors.Open(filepath.Join(out, "model.safetensors"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ot := f.Tensors()[0]
			if len(f.Tensors()) != 1 || ot.DType != safetensors.BF16 || ot.Elements() != c.rows*c.cols {
				t.Fatalf("output %+v", f.Tensors())
			}
			var b [2]byte
			for k := int64(0); k < 4096; k++ {
				i := (k * 2654435761) % (c.rows * c.cols)
				if k == 0 {
					i = c.rows*c.cols - 1
				}
				if err := f.ReadTensorAt(ot, b[:], 2*i); err != nil {
					t.Fatal(err)
				}
				if got := binary.LittleEndian.Uint16(b[:]); got != c.want(i) {
					t.Fatalf("element %d: %#x, want %#x", i, got, c.want(i))
				}
			}
		})
	}
}
