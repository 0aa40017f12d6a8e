// Package vek measures convertpromote's kernels against github.com/viterin/vek on the pairs
// both have (f64 ↔ f32, i32 → f32, f32 → i32). It is a module of its own so that vek never
// becomes a dependency of convertpromote; run it from this directory:
//
//	go test -run XXX -bench . -count 5
//
// Each benchmark reports bytes read + bytes written per second (b.SetBytes), like the kernels'
// own benchmarks; compare the ours/... and vek/... lines of the same pair and size.
package vek

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
)

var sizes = []int{1 << 10, 16 << 10, 256 << 10, 4 << 20}

func bytesOf[T any](s []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// pair benchmarks one conversion both ways: convertpromote's package-level Convert (the best
// path) with one goroutine, and vek's function.
func pair[S, D any](b *testing.B, name string, from, to element.Type, fill func(int) S, viaVek func(dst []D, src []S)) {
	defer kernels.SetThreads(kernels.SetThreads(1))
	for _, n := range sizes {
		src := make([]S, n)
		for i := range src {
			src[i] = fill(i)
		}
		dst := make([]D, n)
		traffic := int64(len(bytesOf(src)) + len(bytesOf(dst)))
		b.Run(fmt.Sprintf("%s/n=%d/ours", name, n), func(b *testing.B) {
			b.SetBytes(traffic)
			for b.Loop() {
				if err := kernels.Convert(bytesOf(dst), to, bytesOf(src), from, n); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%s/n=%d/vek", name, n), func(b *testing.B) {
			b.SetBytes(traffic)
			for b.Loop() {
				viaVek(dst, src)
			}
		})
	}
}

func BenchmarkPeers(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	pair(b, "f64-f32", element.F64, element.F32, func(int) float64 { return r.NormFloat64() * 1000 },
		func(d []float32, s []float64) { vek32.FromFloat64_Into(d, s) })
	pair(b, "f32-f64", element.F32, element.F64, func(int) float32 { return float32(r.NormFloat64() * 1000) },
		func(d []float64, s []float32) { vek.FromFloat32_Into(d, s) })
	pair(b, "i32-f32", element.I32, element.F32, func(int) int32 { return int32(r.Uint32()) },
		func(d []float32, s []int32) { vek32.FromInt32_Into(d, s) })
	pair(b, "f32-i32", element.F32, element.I32, func(int) float32 { return float32(r.NormFloat64() * 1e6) },
		func(d []int32, s []float32) { vek32.ToInt32_Into(d, s) })
}
