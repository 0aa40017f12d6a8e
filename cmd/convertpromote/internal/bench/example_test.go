package bench_test

import (
	"fmt"
	"os"
	"time"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/bench"
	"github.com/convertpromote/convertpromote/element"
)

// A Runner measures any conversion function: here a stand-in for the real kernels, timed by a
// scripted clock so that the output is exact. Real runs leave Resolve and Timer nil.
func ExampleRunner() {
	var lastWasCopy bool
	r := bench.Runner{
		Config: bench.Config{Budget: time.Second, Batch: time.Millisecond,
			// Every conversion batch takes 10µs per operation, every copy batch 5µs.
			Timer: func(op bench.Op, iters int) (time.Duration, error) {
				lastWasCopy = true
				if err := op(); err != nil {
					return 0, err
				}
				if lastWasCopy {
					return time.Duration(iters) * 5 * time.Microsecond, nil
				}
				return time.Duration(iters) * 10 * time.Microsecond, nil
			}},
		Resolve: func(c bench.Case) (bench.ConvertFunc, error) {
			return func(dst, src []byte, n int) error { lastWasCopy = false; return nil }, nil
		},
	}
	rs, err := r.Run([]bench.Case{{From: element.F32, To: element.F16, Path: "generic", N: 16384, Threads: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// 16384 f32 → f16 elements move 4+2 bytes each: 98304 bytes in 10µs = 9.83 GB/s; the copy
	// moves the same bytes in 5µs.
	bench.WriteTable(os.Stdout, rs)
	// Output:
	// pair     path        n  threads  bytes/op  GB/s   min   max  ns/elem  copy GB/s  ×copy  ×generic  spread
	// f32:f16  generic  16Ki        1    96 KiB  9.83  9.83  9.83    0.610      19.66   0.50         -      0%
}
