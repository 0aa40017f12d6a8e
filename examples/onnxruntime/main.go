// Command onnxruntime runs a small ONNX model with f16 and bf16 inputs and outputs on ONNX
// Runtime's CPU provider, filling the input tensors from float32 data with convertpromote's
// typed helpers directly in the tensors' memory and converting the outputs back, then checks
// every output against a float64 computation. It exits 0 when every check holds, 1 when one
// fails and 2 when ONNX Runtime cannot be loaded or run.
//
// The ONNX Runtime shared library's path comes from ONNXRUNTIME_SHARED_LIBRARY_PATH; the npm
// package onnxruntime-node@1.30.0 ships it as
// node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1.
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/convertpromote/convertpromote/kernels"
	ort "github.com/yalue/onnxruntime_go"
)

const rows, cols = 3, 4

func main() {
	lib := os.Getenv("ONNXRUNTIME_SHARED_LIBRARY_PATH")
	if lib == "" {
		fmt.Fprintln(os.Stderr, "onnxruntime: set ONNXRUNTIME_SHARED_LIBRARY_PATH to the ONNX Runtime shared library (libonnxruntime.so)")
		os.Exit(2)
	}
	ok, err := run(lib)
	if err != nil {
		fmt.Fprintln(os.Stderr, "onnxruntime:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// inputs returns deterministic float32 data for X, W and B: values of both signs and several
// magnitudes, none of them exact in f16 or bf16, so the conversions round.
func inputs() (x, w, b []float32) {
	x, w, b = make([]float32, rows*cols), make([]float32, rows*cols), make([]float32, cols)
	for i := range x {
		x[i] = float32(math.Sin(float64(i)+0.3)) * float32(1+i%5) * 1.37
		w[i] = float32(math.Cos(float64(3*i)+0.7)) * 0.61
	}
	for i := range b {
		b[i] = float32(i)*0.173 - 0.29
	}
	return x, w, b
}

// tensor16 is a 16-bit input or output of the model: its bits live in a Go slice that is also
// the ONNX Runtime tensor's memory, so the typed helpers read and write the tensor directly.
type tensor16 struct {
	bits []uint16
	ort  *ort.CustomDataTensor
}

func newTensor16(typ ort.TensorElementDataType, dims ...int64) (tensor16, error) {
	shape := ort.NewShape(dims...)
	bits := make([]uint16, shape.FlattenedSize())
	t, err := ort.NewCustomDataTensor(shape, kernels.AsBytes(bits), typ)
	return tensor16{bits, t}, err
}

func run(lib string) (bool, error) {
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(); err != nil {
		return false, fmt.Errorf("loading %s: %w", lib, err)
	}
	defer ort.DestroyEnvironment()
	fmt.Println("ONNX Runtime", ort.GetVersion())

	// Inputs X, W, B and output Y, once as f16 and once as bf16.
	var t [2][4]tensor16
	for k, typ := range []ort.TensorElementDataType{ort.TensorElementDataTypeFloat16, ort.TensorElementDataTypeBFloat16} {
		for i, dims := range [][]int64{{rows, cols}, {rows, cols}, {cols}, {rows, cols}} {
			var err error
			if t[k][i], err = newTensor16(typ, dims...); err != nil {
				return false, err
			}
			defer t[k][i].ort.Destroy()
		}
	}
	x, w, b := inputs()
	for i, src := range [][]float32{x, w, b} {
		if err := kernels.F16sFromF32s(t[0][i].bits, src); err != nil {
			return false, err
		}
		if err := kernels.BF16sFromF32s(t[1][i].bits, src); err != nil {
			return false, err
		}
	}

	session, err := ort.NewAdvancedSessionWithONNXData(buildModel(rows, cols),
		[]string{"X16", "W16", "B16", "XBF", "WBF", "BBF"}, []string{"Y16", "YBF"},
		[]ort.Value{t[0][0].ort, t[0][1].ort, t[0][2].ort, t[1][0].ort, t[1][1].ort, t[1][2].ort},
		[]ort.Value{t[0][3].ort, t[1][3].ort}, nil)
	if err != nil {
		return false, err
	}
	defer session.Destroy()
	if err := session.Run(); err != nil {
		return false, err
	}

	ok := true
	for k, c := range []struct {
		name      string
		toF32     func(dst []float32, src []uint16) error
		roundings string
		// tol bounds |y − e| for the product p = x·w and the exact result e.
		tol func(p, e float64) float64
	}{
		// Mul and Add on f16 each round once to f16 (half an ulp, 2^-11 relative; 2^-25
		// absolute below the normal range).
		{"f16", kernels.F32sFromF16s[float32, uint16], "Mul and Add each round to f16",
			func(p, e float64) float64 {
				return 0x1p-11*(1+0x1p-11)*math.Abs(p) + 0x1p-11*math.Abs(e) + 0x1p-24
			}},
		// Mul and Add in f32 round twice to f32 (2^-24 relative each), then Cast rounds once
		// to bf16 (half an ulp, 2^-8 relative).
		{"bf16", kernels.F32sFromBF16s[float32, uint16], "Mul and Add in f32, Cast rounds to bf16",
			func(p, e float64) float64 {
				return 0x1p-8*(1+0x1p-22)*math.Abs(e) + 0x1p-23*(math.Abs(p)+math.Abs(e)) + 0x1p-133
			}},
	} {
		// The inputs as the model saw them (converted back exactly) and its output.
		var in [3][]float32
		for i := range in {
			in[i] = make([]float32, len(t[k][i].bits))
			if err := c.toF32(in[i], t[k][i].bits); err != nil {
				return false, err
			}
		}
		y := make([]float32, rows*cols)
		if err := c.toF32(y, t[k][3].bits); err != nil {
			return false, err
		}
		worst, fails := 0.0, 0
		for i := range y {
			p := float64(in[0][i]) * float64(in[1][i])
			e := p + float64(in[2][i%cols])
			d := math.Abs(float64(y[i]) - e)
			if tol := c.tol(p, e); !(d <= tol) {
				fails++
				fmt.Printf("  %s Y[%d] = %v, float64 %v: off by %.3g, tolerance %.3g\n", c.name, i, y[i], e, d, tol)
			}
			if e != 0 {
				worst = max(worst, d/math.Abs(e))
			}
		}
		status := "ok"
		if fails > 0 {
			status, ok = fmt.Sprintf("FAIL (%d of %d outside the tolerance)", fails, len(y)), false
		}
		fmt.Printf("%-4s Y = X·W + B, %d values (%s): largest relative error %.3g; %s\n", c.name, len(y), c.roundings, worst, status)
		fmt.Printf("     Y[0..3] = %v\n", y[:4])
	}
	return ok, nil
}
