package kernels

import (
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

// TestRunPieces checks the split itself: every element converted exactly once, in pieces that
// start on 64-element boundaries, one piece when the conversion is too small to split.
func TestRunPieces(t *testing.T) {
	for _, n := range []int{128, 193, 1000, 4097, 2<<16 + 1, 3<<16 + 1, 1 << 20} {
		for _, threads := range []int{2, 3, 4, 7} {
			// Buffers large enough that the split is not skipped for size.
			size := max(n*4, ParallelMinBytes*threads)
			src, dst := make([]byte, size), make([]byte, size)
			base := uintptr(unsafe.Pointer(&src[0]))
			var mu sync.Mutex
			pieces, seen := 0, make([]int, n)
			f := func(dst, src []byte, cnt int) {
				mu.Lock()
				defer mu.Unlock()
				pieces++
				start := int(uintptr(unsafe.Pointer(&src[0]))-base) / 4
				if len(src) != cnt*4 || len(dst) != cnt*4 || start%chunkAlign != 0 {
					t.Errorf("n=%d: piece of %d elements at %d has %d/%d bytes", n, cnt, start, len(src), len(dst))
				}
				for i := start; i < start+cnt; i++ {
					seen[i]++
				}
			}
			run(f, dst[:n*4], element.F32, src[:n*4], element.I32, n, threads)
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("n=%d threads=%d: element %d converted %d times", n, threads, i, c)
				}
			}
			if 2*n*4 < 2*ParallelMinBytes && pieces != 1 {
				t.Errorf("n=%d threads=%d: %d pieces for a conversion too small to split", n, threads, pieces)
			}
		}
	}
}

// TestRunChunks: chunks cover [0, n) once, at most t workers take them, and when the helpers
// cannot run (one P, and the caller does not block until its loop is done) the caller converts
// every chunk itself rather than waiting for them.
func TestRunChunks(t *testing.T) {
	for _, c := range []struct{ n, t, chunk int }{{1000, 2, 64}, {1 << 16, 3, 1024}, {100, 4, 64}, {130, 7, 64}} {
		var mu sync.Mutex
		workers := map[int]bool{}
		seen := make([]int, c.n)
		runChunks(c.n, c.t, c.chunk, func(w, lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			workers[w] = true
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		if len(workers) > c.t || slices.ContainsFunc(seen, func(k int) bool { return k != 1 }) {
			t.Errorf("%+v: %d workers, coverage %v", c, len(workers), seen[:min(len(seen), 8)])
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	byWorker := map[int]int{}
	runChunks(1<<12, 2, 64, func(w, lo, hi int) { byWorker[w] += hi - lo })
	if byWorker[0] != 1<<12 {
		t.Errorf("with the helper unable to run, the caller converted %d of %d elements", byWorker[0], 1<<12)
	}
}

// TestChunkElems: chunks are whole multiples of 64 elements of about a quarter of a
// goroutine's share, within ParallelMinBytes and maxChunkBytes of traffic (give or take the
// rounding to 64 elements).
func TestChunkElems(t *testing.T) {
	for _, c := range []struct {
		n      int
		total  int64
		t      int
		lo, hi int64 // expected traffic of a chunk
	}{
		{1 << 26, 6 << 26, 2, maxChunkBytes, maxChunkBytes + 6*64}, // 384 MiB: capped
		{1 << 20, 6 << 20, 2, 6 << 20 / 8, 6<<20/8 + 6*64},         // 6 MiB on two: 768 KiB
		{1 << 18, 6 << 18, 2, ParallelMinBytes, ParallelMinBytes + 6*64},
	} {
		got := chunkElems(c.n, c.total, c.t)
		b := int64(got) * c.total / int64(c.n)
		if got%chunkAlign != 0 || b < c.lo || b > c.hi {
			t.Errorf("chunkElems(%d, %d, %d) = %d elements (%d bytes), want %d..%d bytes", c.n, c.total, c.t, got, b, c.lo, c.hi)
		}
	}
}

// TestDispatchTable checks Convert's table against the lookup it caches: for every path this CPU
// has and every pair of types, the entry holds kernel(p, from, to) with the element sizes of
// both types exactly when both are stored in whole bytes, and is empty otherwise.
func TestDispatchTable(t *testing.T) {
	for _, p := range Paths() {
		filled := 0
		for from := range element.Type(numTypes) {
			for to := range element.Type(numTypes) {
				e := dispatch[p][from][to]
				want := kernel(p, from, to)
				whole := from.Valid() && to.Valid() && from != element.String && to != element.String &&
					from.Bits() > 0 && from.Bits()%8 == 0 && to.Bits() > 0 && to.Bits()%8 == 0
				switch {
				case want == nil || !whole:
					if e.f != nil {
						t.Errorf("%s %s→%s: table entry for a pair Convert must decide slowly", p, from, to)
					}
				case e.f == nil:
					t.Errorf("%s %s→%s: no table entry", p, from, to)
				case reflect.ValueOf(e.f).Pointer() != reflect.ValueOf(want).Pointer():
					t.Errorf("%s %s→%s: table holds another loop than kernel()", p, from, to)
				case int(e.sw) != from.Bits()/8 || int(e.dw) != to.Bits()/8:
					t.Errorf("%s %s→%s: element sizes %d, %d", p, from, to, e.sw, e.dw)
				default:
					filled++
				}
			}
		}
		wholeTypes := 0 // every pair of supported whole-byte types is in the table
		for _, ty := range element.All() {
			if Supported(ty, ty) && ty.Bits()%8 == 0 {
				wholeTypes++
			}
		}
		if filled != wholeTypes*wholeTypes || wholeTypes < 19 {
			t.Errorf("%s: %d table entries for %d whole-byte types", p, filled, wholeTypes)
		}
	}
	for p := range numPaths {
		if !pathAvailable(p) {
			for from := range element.Type(numTypes) {
				for to := range element.Type(numTypes) {
					if dispatch[p][from][to].f != nil {
						t.Fatalf("%s is not available but has table entries", p)
					}
				}
			}
		}
	}
}

// TestStreams checks which conversions take the non-temporal kernels, with the threshold at
// 16 MiB: narrowing and same-size pairs from 16 MiB of traffic, widening pairs from 32 MiB.
func TestStreams(t *testing.T) {
	defer func(old int64) { largeMinBytes = old }(largeMinBytes)
	largeMinBytes = 16 << 20
	const mi = 1 << 20
	for _, c := range []struct {
		sb, db int64
		want   bool
	}{
		{8 * mi, 8*mi - 1, false},  // narrowing, just below the threshold
		{8 * mi, 8 * mi, true},     // same size, at it (i32 → f32, 2 Mi elements)
		{16 * mi, 8 * mi, true},    // f32 → f16, 4 Mi elements
		{32 * mi, 16 * mi, true},   // f64 → f32, 4 Mi elements
		{4 * mi, 16 * mi, false},   // i8 → f32, 4 Mi elements: 20 MiB
		{8 * mi, 16 * mi, false},   // f16 → f32, 4 Mi elements: 24 MiB
		{8 * mi, 24*mi - 1, false}, // widening, just below 32 MiB
		{8 * mi, 24 * mi, true},    // widening, at 32 MiB
		{8 * mi, 32 * mi, true},    // i8 → f32, 8 Mi elements: 40 MiB
		{mi, 4 * mi, false},        // small
	} {
		if got := streams(c.sb, c.db); got != c.want {
			t.Errorf("streams(%d, %d) = %v, want %v", c.sb, c.db, got, c.want)
		}
	}
}

// TestDefaultThreads: the default policy keeps a conversion within the split size on one
// goroutine whatever the core count, and beyond it uses one goroutine per half of that size,
// at most one per core.
func TestDefaultThreads(t *testing.T) {
	const m = 32 << 20
	for _, c := range []struct {
		total int64
		procs int
		want  int
	}{
		{m - 1, 2, 1}, {m - 1, 64, 1}, // within the cache: one goroutine
		{m, 1, 1}, {1 << 40, 1, 1}, // one core
		{m, 2, 2}, {m, 8, 2}, {3 * m / 2, 8, 3}, {1 << 40, 8, 8}, {384 << 20, 2, 2},
	} {
		if got := defaultThreads(c.total, c.procs, m); got != c.want {
			t.Errorf("defaultThreads(%d, %d procs) = %d, want %d", c.total, c.procs, got, c.want)
		}
	}
}

// TestGoroutines: Converter.Goroutines reports the default policy for the zero Converter, an
// explicit count capped at one goroutine per ParallelMinBytes, and 0 for what Convert refuses.
func TestGoroutines(t *testing.T) {
	defer func(old int64) { splitMinBytes = old }(splitMinBytes)
	splitMinBytes = 8 << 20
	defer SetThreads(SetThreads(0))
	defer splitBackoff.Store(splitBackoff.Swap(0))
	procs := runtime.GOMAXPROCS(0)
	const mi = 1 << 20
	for _, c := range []struct {
		conv     Converter
		from, to element.Type
		n, want  int
	}{
		{Converter{}, element.F32, element.F16, 1 << 10, 1},
		{Converter{}, element.F32, element.F16, mi, 1},                            // 6 MiB < 8 MiB
		{Converter{}, element.F32, element.F16, 2 * mi, min(procs, 12*mi/(4*mi))}, // 12 MiB
		{Converter{Threads: 2}, element.F32, element.F16, mi, min(2, 6*mi/ParallelMinBytes)},
		{Converter{Threads: 64}, element.F32, element.F16, mi, 6 * mi / ParallelMinBytes},
		{Converter{Threads: 2}, element.F32, element.F16, 1 << 10, 1},
		{Converter{}, element.F32, element.String, mi, 0},
		{Converter{}, element.F32, element.F16, -1, 0},
	} {
		if got := c.conv.Goroutines(c.from, c.to, c.n); got != c.want {
			t.Errorf("%+v.Goroutines(%s, %s, %d) = %d, want %d", c.conv, c.from, c.to, c.n, got, c.want)
		}
	}
	SetThreads(3)
	if got := (Converter{}).Goroutines(element.F32, element.F16, mi); got != 3 {
		t.Errorf("after SetThreads(3): %d goroutines, want 3", got)
	}
}

// TestSplitPaid: a split pays when the call took less than the first chunk's time (the caller
// alone) says one goroutine would have.
func TestSplitPaid(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		st   splitStats
		want bool
	}{
		{splitStats{chunks: 96, first: 100 * us, total: 4900 * us}, true},   // 1.96×
		{splitStats{chunks: 96, first: 100 * us, total: 6000 * us}, true},   // 1.6×
		{splitStats{chunks: 96, first: 100 * us, total: 9400 * us}, false},  // 1.02×
		{splitStats{chunks: 96, first: 100 * us, total: 13000 * us}, false}, // slower: waited for a helper
		{splitStats{chunks: 12, first: 1000 * us, total: 12000 * us}, false},
	} {
		if got := c.st.paid(); got != c.want {
			t.Errorf("%+v: paid = %v, want %v", c.st, got, c.want)
		}
	}
}

// TestSplitBackoff: after a split that did not pay, the default policy runs the next
// backoffCalls large conversions on one goroutine, Goroutines reports it without using one up,
// and the split returns afterwards.
func TestSplitBackoff(t *testing.T) {
	defer func(old int64) { splitMinBytes = old }(splitMinBytes)
	splitMinBytes = 2 << 20
	defer SetThreads(SetThreads(0))
	defer splitBackoff.Store(splitBackoff.Load())
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one P")
	}
	const n = 1 << 20 // f32 → f16: 6 MiB
	src, dst := make([]byte, 4*n), make([]byte, 2*n)
	splitBackoff.Store(backoffCalls)
	for i := range backoffCalls {
		if g := (Converter{}).Goroutines(element.F32, element.F16, n); g != 1 {
			t.Fatalf("call %d of the back-off: Goroutines = %d, want 1", i, g)
		}
		if err := Convert(dst, element.F16, src, element.F32, n); err != nil {
			t.Fatal(err)
		}
	}
	if left := splitBackoff.Load(); left != 0 {
		t.Errorf("after %d conversions %d back-off calls are left", backoffCalls, left)
	}
	if g := (Converter{}).Goroutines(element.F32, element.F16, n); g != 2 {
		t.Errorf("after the back-off: Goroutines = %d, want 2", g)
	}
	// An explicit count is not affected.
	splitBackoff.Store(backoffCalls)
	if g := (Converter{Threads: 2}).Goroutines(element.F32, element.F16, n); g != 2 {
		t.Errorf("Threads 2 during a back-off: %d goroutines", g)
	}
}
