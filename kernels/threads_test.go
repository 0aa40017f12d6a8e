package kernels

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
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

// hotPairs are the six pairs whose default thread count docs/perf/README.md (§10, §17) measures.
var hotPairs = [][2]element.Type{
	{element.F32, element.F16}, {element.F16, element.F32}, {element.F32, element.BF16},
	{element.BF16, element.F32}, {element.I8, element.F32}, {element.F8E4M3, element.F16},
}

// TestDefaultThreadsReported: the traffic from which the default policy splits follows the
// cache share of what sysfs reports, and whatever it reports, on two cores the policy splits the
// six hot pairs at 64 Mi elements (192–384 MiB of traffic, beyond any share a two-core process
// gets) and keeps them on one goroutine at 1 Mi (5–6 MiB, within every share).
func TestDefaultThreadsReported(t *testing.T) {
	defer func(old int64) { largeMinBytes = old }(largeMinBytes)
	defer func(old int64) { splitMinBytes = old }(splitMinBytes)
	splitMinBytes = 0 // splitMin follows largeMin, as outside the tests
	for _, c := range []struct {
		name   string
		caches []fakeCache
		split  int64 // MiB
	}{
		{"AMD VM, 32 MiB", vm2("32768K", "1024K"), 32},
		{"Intel VM, 260 MiB", vm2("266240K", "2048K"), 64},
		{"1 GiB without an L2", []fakeCache{{"3", "Unified", "1G", "0-1", ""}}, 128},
		{"260 MiB beside a 64 MiB L2", vm2("260M", "64M"), 128},
		{"none reported", nil, 32},
		{"only an L2 of 2 MiB", []fakeCache{{"2", "Unified", "2M", "0", ""}}, 8},
		{"unreadable", []fakeCache{{"3", "Unified", "260 MB", "0-1", ""}}, 32},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "missing")
			if c.caches != nil {
				root = fakeSysfs(t, c.caches)
			}
			largeMinBytes = ntMinFor(cacheShare(root, 2))
			if got := splitMin(); got != c.split<<20 {
				t.Errorf("splits from %d MiB, want %d MiB", got>>20, c.split)
			}
			for _, pr := range hotPairs {
				for _, k := range []struct{ n, want int }{{1 << 20, 1}, {64 << 20, 2}} {
					sb, _ := pr[0].ByteSize(int64(k.n))
					db, _ := pr[1].ByteSize(int64(k.n))
					if got := defaultThreads(sb+db, 2, splitMin()); got != k.want {
						t.Errorf("%s→%s, %d Mi elements (%d MiB): %d goroutines, want %d (split from %d MiB)",
							pr[0], pr[1], k.n>>20, (sb+db)>>20, got, k.want, splitMin()>>20)
					}
				}
			}
		})
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

// TestParallelSplit converts buffers large enough to be split across goroutines with 2, 3 and 7
// threads and compares with one thread, on every path; counts that are not multiples of the
// split granularity (and an odd count of a packed source) exercise the piece boundaries. Run it
// with -race to check that the pieces do not overlap. Its subtests are pair/path.
func TestParallelSplit(t *testing.T) {
	e := element.MustParse
	cases := []struct {
		from, to element.Type
		n        int
	}{
		{e("f32"), e("f16"), 1<<19 + 13},
		{e("f16"), e("f32"), 1 << 19},
		{e("u4"), e("f32"), 1<<20 + 37},
		{e("f8e4m3"), e("f16"), 1<<20 + 63},
		{e("f64"), e("f32"), 1<<17 + 5},
	}
	r := rand.New(rand.NewPCG(3, 3))
	for _, c := range cases {
		sb, _ := c.from.ByteSize(int64(c.n))
		db, _ := c.to.ByteSize(int64(c.n))
		if sb+db < 2*ParallelMinBytes {
			t.Fatalf("%s→%s n=%d: %d bytes is too small to be split", c.from, c.to, c.n, sb+db)
		}
		src := make([]byte, sb) // read-only in the subtests
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		t.Run(pairName(c.from, c.to), func(t *testing.T) {
			t.Parallel()
			for _, p := range Paths() {
				t.Run(p.String(), func(t *testing.T) {
					t.Parallel()
					want := make([]byte, db)
					if err := WithPath(p, 1).Convert(want, c.to, src, c.from, c.n); err != nil {
						t.Fatal(err)
					}
					for _, threads := range []int{2, 3, 7} {
						if g := WithPath(p, threads).Goroutines(c.from, c.to, c.n); g < 2 {
							t.Errorf("%s %s→%s n=%d threads=%d: %d goroutines", p, c.from, c.to, c.n, threads, g)
						}
						got := make([]byte, db+16)
						for i := range got {
							got[i] = 0xA5
						}
						if err := WithPath(p, threads).Convert(got[:db], c.to, src, c.from, c.n); err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got[:db], want) {
							i := 0
							for got[i] == want[i] {
								i++
							}
							t.Errorf("%s %s→%s n=%d threads=%d: byte %d differs from one thread (%#x, want %#x)",
								p, c.from, c.to, c.n, threads, i, got[i], want[i])
						}
						if !bytes.Equal(got[db:], bytes.Repeat([]byte{0xA5}, 16)) {
							t.Errorf("%s %s→%s threads=%d: wrote past the destination", p, c.from, c.to, threads)
						}
					}
				})
			}
		})
	}
}

// TestSetThreads checks that SetThreads returns the previous setting, that a negative value
// restores the default, and that the package-level Convert agrees with one thread under each.
func TestSetThreads(t *testing.T) {
	defer SetThreads(SetThreads(0))
	if prev := SetThreads(3); prev != 0 {
		t.Fatalf("SetThreads(3) after SetThreads(0) returned %d", prev)
	}
	if prev := SetThreads(-5); prev != 3 {
		t.Fatalf("SetThreads(-5) returned %d, want 3", prev)
	}
	if prev := SetThreads(2); prev != 0 {
		t.Fatalf("SetThreads(2) after a negative value returned %d, want 0 (the default)", prev)
	}
	n := 1 << 20
	src := make([]byte, 4*n)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	want := make([]byte, 2*n)
	if err := WithPath(Generic, 1).Convert(want, element.F16, src, element.F32, n); err != nil {
		t.Fatal(err)
	}
	for _, th := range []int{1, 2, 0} {
		SetThreads(th)
		got := make([]byte, 2*n)
		if err := Convert(got, element.F16, src, element.F32, n); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("SetThreads(%d): Convert differs from the one-thread generic result", th)
		}
	}
}

// TestSetThreadsClamps: a count beyond int32 is stored as the largest int32, not truncated (to
// 1 for 2^32+1, or to a negative number for 2^31).
func TestSetThreadsClamps(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("int has 32 bits")
	}
	old := SetThreads(0)
	defer SetThreads(old)
	for _, n := range []int64{1<<32 + 1, 1 << 31, math.MaxInt64} {
		SetThreads(int(n))
		if got := SetThreads(0); got != math.MaxInt32 {
			t.Errorf("SetThreads(%d) stored %d, want %d", n, got, math.MaxInt32)
		}
	}
	SetThreads(-5)
	if got := SetThreads(0); got != 0 {
		t.Errorf("SetThreads(-5) stored %d, want 0 (the default)", got)
	}
}

// BenchmarkThreadPolicy times the default thread policy ("default") against one goroutine ("1")
// and two ("2") for the six hot pairs on the best path, with the cache that sysfs reports ("llc=sysfs") and
// with its last-level cache replaced by 260 MiB, as a VM on a large host reports it
// ("llc=260MiB": cpu0's other entries and the CPUs sharing each cache as this machine reports
// them). "llc=260MiB-whole" applies the thresholds that 260 MiB gave when taken whole, before
// the cache share: non-temporal stores from 128 MiB, splits from 256 MiB. Filter with e.g.
// -bench 'ThreadPolicy/llc=260MiB/f8e4m3-f16/64Mi'; docs/perf/threads.sh runs it.
func BenchmarkThreadPolicy(b *testing.B) {
	defer func(old int64) { largeMinBytes = old }(largeMinBytes)
	defer func(old int64) { splitMinBytes = old }(splitMinBytes)
	defer splitBackoff.Store(splitBackoff.Load())
	scenarios := []struct {
		name  string
		large func(b *testing.B) int64 // the non-temporal threshold; splits from twice it
	}{
		{"sysfs", func(*testing.B) int64 { return ntMinBytes("/sys") }},
		{"260MiB", func(b *testing.B) int64 {
			caches := hostCaches(b)
			top, level := 0, 0
			for i, c := range caches {
				if l, _ := strconv.Atoi(c.level); l > level && c.typ != "Instruction" {
					top, level = i, l
				}
			}
			caches[top].size = "266240K"
			return ntMinBytes(fakeSysfs(b, caches))
		}},
		{"260MiB-whole", func(*testing.B) int64 { return 128 << 20 }},
	}
	sizes := []struct {
		name string
		n    int
	}{{"1Mi", 1 << 20}, {"4Mi", 4 << 20}, {"16Mi", 16 << 20}, {"64Mi", 64 << 20}}
	for _, sc := range scenarios {
		b.Run("llc="+sc.name, func(b *testing.B) {
			largeMinBytes, splitMinBytes = sc.large(b), 0
			for _, pr := range hotPairs {
				from, to := pr[0], pr[1]
				for _, sz := range sizes {
					sb, _ := from.ByteSize(int64(sz.n))
					db, _ := to.ByteSize(int64(sz.n))
					var src, dst []byte // allocated on first use: a filtered run only pays for what it runs
					for _, th := range []struct {
						name string
						c    Converter
					}{{"default", Converter{}}, {"1", Converter{Threads: 1}}, {"2", Converter{Threads: 2}}} {
						b.Run(pairName(from, to)+"/"+sz.name+"/threads="+th.name, func(b *testing.B) {
							if src == nil {
								src = benchSource(from, sz.n, rand.New(rand.NewPCG(7, uint64(sz.n))))
								dst = make([]byte, db)
								clear(dst)
							}
							splitBackoff.Store(0)
							b.SetBytes(sb + db)
							for b.Loop() {
								if err := th.c.Convert(dst, to, src, from, sz.n); err != nil {
									b.Fatal(err)
								}
							}
							b.ReportMetric(float64(th.c.Goroutines(from, to, sz.n)), "goroutines")
						})
					}
				}
			}
		})
	}
}

// hostCaches returns cpu0's cache entries as this machine's sysfs reports them; the benchmark
// skips without them.
func hostCaches(b *testing.B) []fakeCache {
	var out []fakeCache
	for i := range 8 {
		dir := "/sys/devices/system/cpu/cpu0/cache/index" + strconv.Itoa(i) + "/"
		var c fakeCache
		var err error
		for _, f := range []struct {
			name string
			v    *string
		}{{"level", &c.level}, {"type", &c.typ}, {"size", &c.size}} {
			if *f.v, err = readSmall(dir + f.name); err != nil {
				break
			}
		}
		if err != nil {
			continue
		}
		c.list, _ = readSmall(dir + "shared_cpu_list")
		out = append(out, c)
	}
	if len(out) == 0 {
		b.Skip("sysfs reports no cache")
	}
	return out
}
