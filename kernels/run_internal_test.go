package kernels

import (
	"sync"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// TestRunPieces checks the split itself: never more pieces than threads, every element covered
// exactly once, and pieces that start on 64-element boundaries.
func TestRunPieces(t *testing.T) {
	for _, n := range []int{128, 193, 1000, 4097, 2<<16 + 1, 3<<16 + 1, 1 << 20} {
		for _, threads := range []int{2, 3, 4, 7} {
			var mu sync.Mutex
			pieces, covered := 0, 0
			f := func(dst, src []byte, cnt int) {
				mu.Lock()
				defer mu.Unlock()
				pieces++
				covered += cnt
				if len(src) != cnt*4 || len(dst) != cnt*4 {
					t.Errorf("n=%d: piece of %d elements has %d/%d bytes", n, cnt, len(src), len(dst))
				}
			}
			// Buffers large enough that the split is not skipped for size.
			size := max(n*4, ParallelMinBytes*threads)
			src, dst := make([]byte, size), make([]byte, size)
			run(f, dst[:n*4], element.F32, src[:n*4], element.I32, n, threads)
			limit := threads
			if maxT := 2 * n * 4 / ParallelMinBytes; maxT < limit {
				limit = max(maxT, 1)
			}
			if pieces > limit || covered != n {
				t.Errorf("n=%d threads=%d: %d pieces (limit %d), %d elements covered", n, threads, pieces, limit, covered)
			}
		}
	}
}
