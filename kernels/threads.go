package kernels

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/convertpromote/convertpromote/element"
)

var threads atomic.Int32

// SetThreads sets how many goroutines a large conversion may use; n ≤ 0 restores the default
// policy, which splits a conversion only when its traffic (bytes read plus written) exceeds the
// share of the last-level cache that the process's CPUs can count on (on a virtual machine, a
// bounded part of the host's cache that the VM reports), across up to runtime.GOMAXPROCS(0)
// goroutines at the time of each call, and which checks each split against the calling
// goroutine's speed on the first chunk, converted alone: after a split that was not faster than
// one goroutine would have been (the other cores busy with other work, or the memory bandwidth
// already drawn by one core), the next eight such conversions run on one goroutine (see
// Converter.Goroutines). A count beyond math.MaxInt32 is stored as math.MaxInt32. It returns
// the previous setting (0 for the default). Conversions of less than 2·ParallelMinBytes always
// run on the calling goroutine.
func SetThreads(n int) int {
	// Clamped, not truncated: int32(1<<32+1) would be 1, and int32(1<<31) negative.
	n = min(max(n, 0), math.MaxInt32)
	return int(threads.Swap(int32(n)))
}

// ParallelMinBytes is the size (bytes read plus bytes written) below which a conversion is not
// split across goroutines; each goroutine gets at least this much work.
const ParallelMinBytes = 512 << 10

// Goroutines returns how many goroutines c.Convert uses at most to convert n elements from → to
// (Converter{}.Goroutines is Convert's): 1 below 2·ParallelMinBytes of traffic, the setting of
// c.Threads or SetThreads capped at one goroutine per ParallelMinBytes when either is set, and
// the default policy's choice otherwise: 1 within the process's share of the last-level cache,
// and beyond it up to GOMAXPROCS, or 1 for the next few calls after a split that did not pay
// (see SetThreads). It returns 0 for an unsupported pair or a negative or overflowing n.
func (c Converter) Goroutines(from, to element.Type, n int) int {
	if !Supported(from, to) || n < 0 {
		return 0
	}
	sb, err1 := from.ByteSize(int64(n))
	db, err2 := to.ByteSize(int64(n))
	if err1 != nil || err2 != nil {
		return 0
	}
	t, _ := c.threads(sb+db, false)
	return pieces(t, sb+db, n)
}

// pieces caps a conversion's goroutines t: one below 2·ParallelMinBytes of traffic or 2·64
// elements, otherwise at most one per ParallelMinBytes.
func pieces(t int, total int64, n int) int {
	if t <= 1 || total < 2*ParallelMinBytes || n < 2*chunkAlign {
		return 1
	}
	return int(min(int64(t), total/ParallelMinBytes))
}

// threads returns the goroutines c asks for a conversion of total bytes (read plus written):
// its Threads, else the package setting, else the default policy's count, and whether the
// default policy chose it. pieces caps it. take says the count is for a conversion about to run,
// which uses up one call of a back-off (see splitBackoff).
func (c Converter) threads(total int64, take bool) (t int, policy bool) {
	t = c.Threads
	if t <= 0 {
		t = int(threads.Load())
	}
	if t > 0 {
		return t, false
	}
	t = defaultThreads(total, runtime.GOMAXPROCS(0), splitMin())
	if t > 1 && splitBackoff.Load() > 0 {
		// A recent split did not pay: this call runs on one goroutine, and the count runs down
		// so that a later call tries the split again.
		if take {
			splitBackoff.Add(-1)
		}
		return 1, true
	}
	return t, t > 1
}

// splitBackoff counts the conversions the default policy still runs on one goroutine after a
// split that did not pay (see splitStats.paid).
var splitBackoff atomic.Int32

// backoffCalls is how many large conversions run on one goroutine after a split that did not
// pay: on a machine whose other cores are busy, every split but one in backoffCalls+1 is
// avoided, and when the cores are free again the split returns after that many calls.
const backoffCalls = 8

// splitStats describes a split conversion: its number of chunks, the time the calling goroutine
// took for the first chunk, alone (the helpers start after it), and the whole call's time.
type splitStats struct {
	chunks       int
	first, total time.Duration
}

// paid reports whether the split was faster than one goroutine, whose time is estimated from
// the first chunk, which the caller converts before any helper starts: one goroutine would have
// taken chunks times as long. Two goroutines that share the memory bandwidth, or a helper that
// made the caller wait for a chunk it held while it waited for a core, make the split lose.
func (s splitStats) paid() bool {
	one := s.first * time.Duration(s.chunks)
	return s.total < one-one/32
}

// defaultThreads is the default policy: one goroutine for a conversion of less than minBytes of
// traffic, otherwise one per minBytes/2, at most procs. minBytes is the process's share of the
// last-level cache (see splitMin). A conversion that fits in the cache runs on one core at the
// cache's speed; a second goroutine must wake a thread (microseconds) and, on a machine whose
// other cores are busy, wait for a core, which can make the split slower than one goroutine.
// Beyond the cache one core is bound by the memory bandwidth it alone can draw, which a second
// core adds to, and the wake-up is small beside the conversion.
func defaultThreads(total int64, procs int, minBytes int64) int {
	if procs <= 1 || total < minBytes {
		return 1
	}
	return int(min(int64(procs), total/(minBytes/2)))
}

// splitMinBytes, when not zero, replaces splitMin's detected value (tests set it).
var splitMinBytes int64

// splitMin returns the traffic from which the default policy splits a conversion: the share of
// the last-level cache that the process's CPUs can count on (cacheShare), twice the
// non-temporal threshold (largeMin), which is half of it. The two thresholds rest on the same
// share because both ask the same question, whether source and result stay in the cache: a VM
// that reports its host's whole L3 would otherwise keep ordinary stores and one goroutine for
// conversions that come from memory.
func splitMin() int64 {
	if splitMinBytes != 0 {
		return splitMinBytes
	}
	return 2 * largeMin()
}

// chunkAlign is the element granularity of a split: 64 elements start on a whole byte for every
// packed type (and on a whole 3-byte group for u3 and u6).
const chunkAlign = 64

// run calls f on the whole buffer, or splits the conversion across up to t goroutines when it is
// large: the pieces are chunks that the calling goroutine and t-1 helpers take in turn from a
// shared counter, so a helper that waits for a core (the machine's other work) takes fewer
// chunks or none, and the caller converts the rest instead of waiting for it. The caller waits
// at most for the chunks helpers have started.
func run(f loopFunc, dst []byte, to element.Type, src []byte, from element.Type, n, t int) splitStats {
	total := int64(len(src) + len(dst))
	if t = pieces(t, total, n); t <= 1 {
		f(dst, src, n)
		return splitStats{}
	}
	return runChunks(n, t, chunkElems(n, total, t), func(_, lo, hi int) {
		s0, _ := from.ByteSize(int64(lo))
		s1, _ := from.ByteSize(int64(hi))
		d0, _ := to.ByteSize(int64(lo))
		d1, _ := to.ByteSize(int64(hi))
		f(dst[d0:d1], src[s0:s1], hi-lo)
	})
}

// maxChunkBytes bounds a chunk's traffic, and with it how long the caller can wait for a helper
// that took the last chunk and then lost its core.
const maxChunkBytes = 4 << 20

// chunkElems returns the chunk length in elements for n elements of total bytes of traffic on t
// goroutines: about a quarter of each goroutine's share, at least ParallelMinBytes and at most
// maxChunkBytes of traffic, a multiple of chunkAlign.
func chunkElems(n int, total int64, t int) int {
	b := min(max(total/int64(4*t), ParallelMinBytes), maxChunkBytes)
	c := int(b * int64(n) / total)
	return max(chunkAlign, (c+chunkAlign-1)/chunkAlign*chunkAlign)
}

// runChunks calls work on [0, n) in chunks of chunk elements (the last may be shorter), from the
// calling goroutine (worker 0) and up to t-1 helper goroutines (workers 1…), each taking the next
// chunk until none is left.
func runChunks(n, t, chunk int, work func(worker, lo, hi int)) splitStats {
	st := splitStats{chunks: (n + chunk - 1) / chunk}
	t = min(t, st.chunks)
	var next atomic.Int64
	loop := func(w int) {
		for {
			lo := next.Add(int64(chunk)) - int64(chunk)
			if lo >= int64(n) {
				return
			}
			work(w, int(lo), int(min(lo+int64(chunk), int64(n))))
		}
	}
	// The caller converts the first chunk before starting the helpers: its time alone is the
	// measure of one goroutine's speed that splitStats.paid needs.
	start := time.Now()
	next.Store(int64(chunk))
	work(0, 0, min(chunk, n))
	st.first = time.Since(start)
	var wg sync.WaitGroup
	for w := 1; w < t; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loop(w)
		}()
	}
	loop(0)
	wg.Wait()
	st.total = time.Since(start)
	return st
}
