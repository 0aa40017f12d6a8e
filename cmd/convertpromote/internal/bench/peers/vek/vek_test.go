// Package vek measures convertpromote's kernels against github.com/viterin/vek on the pairs
// both have (f64 ↔ f32, i32 → f32, f32 → i32). It is a module of its own so that vek never
// becomes a dependency of convertpromote; run it from this directory:
//
//	go test -run XXX -bench Ratio -benchtime 40x
//	go test -run XXX -bench Peers -count 5
//
// BenchmarkRatio gives the ratio directly (ours/vek_speed, from alternating batches in one run),
// which is what to compare: separate runs of the two sides differ more than the gap between them
// on a shared machine, with the buffers' placement and the order of the runs (results and
// figures: docs/perf/README.md §7). BenchmarkPeers reports bytes
// read + bytes written per second of each side (b.SetBytes), like the kernels' own benchmarks.
package vek

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
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
		ours, theirs, traffic := prepare(from, to, n, fill, viaVek)
		b.Run(fmt.Sprintf("%s/n=%d/ours", name, n), func(b *testing.B) {
			b.SetBytes(traffic)
			for b.Loop() {
				ours()
			}
		})
		b.Run(fmt.Sprintf("%s/n=%d/vek", name, n), func(b *testing.B) {
			b.SetBytes(traffic)
			for b.Loop() {
				theirs()
			}
		})
	}
}

// prepare allocates and fills the buffers of one size and returns the two conversions over
// them and their traffic (bytes read + bytes written).
func prepare[S, D any](from, to element.Type, n int, fill func(int) S, viaVek func(dst []D, src []S)) (ours, theirs func(), traffic int64) {
	src := make([]S, n)
	for i := range src {
		src[i] = fill(i)
	}
	dst := make([]D, n)
	traffic = int64(len(bytesOf(src)) + len(bytesOf(dst)))
	ours = func() {
		if err := kernels.Convert(bytesOf(dst), to, bytesOf(src), from, n); err != nil {
			panic(err)
		}
	}
	theirs = func() { viaVek(dst, src) }
	ours() // write dst once, so that neither side pays its page faults
	return ours, theirs, traffic
}

// ratio is one BenchmarkRatio case: each b.Loop iteration times a batch of ours and a batch of
// vek's on the same buffers, in alternating order (so that neither always runs first after the
// other has warmed or cooled the caches), and the reported metric is vek's median batch time
// over ours: the speed of ours relative to vek, measured in one run.
func ratio[S, D any](b *testing.B, name string, from, to element.Type, fill func(int) S, viaVek func(dst []D, src []S)) {
	defer kernels.SetThreads(kernels.SetThreads(1))
	for _, n := range sizes {
		ours, theirs, _ := prepare(from, to, n, fill, viaVek)
		calls := max(1, (1<<20)/n) // a batch moves at least 4 MiB of traffic
		batch := func(f func()) time.Duration {
			start := time.Now()
			for range calls {
				f()
			}
			return time.Since(start)
		}
		b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
			var to, tv []time.Duration
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					to = append(to, batch(ours))
					tv = append(tv, batch(theirs))
				} else {
					tv = append(tv, batch(theirs))
					to = append(to, batch(ours))
				}
			}
			b.ReportMetric(float64(median(tv))/float64(median(to)), "ours/vek_speed")
		})
	}
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[(len(d)-1)/2]
}

func BenchmarkPeers(b *testing.B) { peers(b, pairBench) }

// BenchmarkRatio measures ours against vek for each pair and size in one run, alternating
// batches (see ratio); ours/vek_speed above 1 means ours is faster. Run it with e.g.
// -benchtime 100x: each iteration is one batch of each.
func BenchmarkRatio(b *testing.B) { peers(b, ratioBench) }

// The two ways of running a pair, as values so that peers can list the pairs once.
type runner int

const (
	pairBench runner = iota
	ratioBench
)

func run[S, D any](b *testing.B, how runner, name string, from, to element.Type, fill func(int) S, viaVek func(dst []D, src []S)) {
	if how == ratioBench {
		ratio(b, name, from, to, fill, viaVek)
	} else {
		pair(b, name, from, to, fill, viaVek)
	}
}

// peers runs the four pairs both libraries have.
func peers(b *testing.B, how runner) {
	r := rand.New(rand.NewPCG(1, 2))
	run(b, how, "f64-f32", element.F64, element.F32, func(int) float64 { return r.NormFloat64() * 1000 },
		func(d []float32, s []float64) { vek32.FromFloat64_Into(d, s) })
	run(b, how, "f32-f64", element.F32, element.F64, func(int) float32 { return float32(r.NormFloat64() * 1000) },
		func(d []float64, s []float32) { vek.FromFloat32_Into(d, s) })
	run(b, how, "i32-f32", element.I32, element.F32, func(int) int32 { return int32(r.Uint32()) },
		func(d []float32, s []int32) { vek32.FromInt32_Into(d, s) })
	run(b, how, "f32-i32", element.F32, element.I32, func(int) float32 { return float32(r.NormFloat64() * 1e6) },
		func(d []int32, s []float32) { vek32.ToInt32_Into(d, s) })
}
