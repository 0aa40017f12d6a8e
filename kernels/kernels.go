// Package kernels converts tensor buffers between element types: every pair of the types in
// package element except string and dynamic, bit-exact with docs/SEMANTICS.md §3.
//
// Each conversion has a pure-Go implementation (the files *_generic.go), which is the
// specification in code. Hot pairs also have SIMD implementations (kernels_avx2_amd64.s: AVX2 +
// F16C; kernels_avx512_amd64.s: AVX-512; the *_arm64.s files: NEON), chosen at run time from
// the CPU's features and tested to give the same bits as the pure-Go path for every input. Build
// with the tag purego to leave all assembly out.
//
// The rules are OpenVINO's by default; a Converter can follow ONNX's Cast or ml_dtypes' casts
// instead (Rules, RuleSet). Pairs those rule sets convert like OpenVINO keep the SIMD kernels;
// the others run the rule set's pure-Go loop.
//
// Buffers are raw bytes in the machine's (little-endian) byte order; packed sub-byte types use
// the layouts of package element. Large conversions are split across goroutines; see SetThreads.
package kernels

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

// Path names a family of implementations.
type Path uint8

// The implementation paths. Generic is always available; the others only on CPUs that have the
// features they need (see Paths).
const (
	Generic Path = iota // pure Go, the reference
	AVX2                // amd64 AVX2 + F16C (+ FMA, BMI2 where used)
	AVX512              // amd64 AVX-512 F, BW, VL, DQ (+ VBMI where used)
	NEON                // arm64 Advanced SIMD (+ FP16/BF16 conversions where the CPU has them)
	numPaths
)

var pathNames = [numPaths]string{"generic", "avx2", "avx512", "neon"}

// String returns the path's name: "generic", "avx2", "avx512" or "neon".
func (p Path) String() string {
	if p < numPaths {
		return pathNames[p]
	}
	return fmt.Sprintf("kernels.Path(%d)", uint8(p))
}

// ParsePath reads a path name as String writes it.
func ParsePath(s string) (Path, error) {
	for i, n := range pathNames {
		if n == s {
			return Path(i), nil
		}
	}
	return 0, fmt.Errorf("unknown kernel path %q (valid: generic, avx2, avx512, neon)", s)
}

// Paths returns the paths this CPU can run, best first; Generic is always last.
func Paths() []Path {
	ps := archPaths()
	return append(ps, Generic)
}

// loopFunc converts n elements from src to dst. The caller has checked that src and dst hold n
// elements of their types. For packed types the caller only passes n and slices that start at a
// multiple of 64 elements, so every slice starts on a whole byte (and on a 3-byte u3/u6 group).
type loopFunc func(dst, src []byte, n int)

// kernel returns the loop for the pair on path p, falling back to the pure-Go loop when p has no
// kernel for the pair. It returns nil only for an unsupported pair.
func kernel(p Path, from, to element.Type) loopFunc {
	if p != Generic {
		if f := archKernel(p, from, to); f != nil {
			return f
		}
	}
	return genericKernel(from, to)
}

// HasKernel reports whether path p has its own (SIMD) kernel for the pair, rather than falling
// back to the pure-Go loop. HasKernel(Generic, …) reports whether the pair is supported at all.
func HasKernel(p Path, from, to element.Type) bool {
	if p == Generic {
		return genericKernel(from, to) != nil
	}
	return archKernel(p, from, to) != nil
}

// Supported reports whether Convert accepts the pair: every pair of static types except string.
func Supported(from, to element.Type) bool { return genericKernel(from, to) != nil }

// best is the path Convert uses: the first of Paths(), fixed at start-up (tests run the other
// paths through WithPath).
var best = Paths()[0]

var threads atomic.Int32

// SetThreads sets how many goroutines a large conversion may use; n ≤ 0 restores the default
// policy, which splits a conversion only when its traffic (bytes read plus written) exceeds the
// last-level cache, across up to runtime.GOMAXPROCS(0) goroutines at the time of each call, and
// which checks each split against the calling goroutine's speed on the first chunk, converted
// alone: after a split that was not faster than one goroutine would have been (the other cores
// busy with other work, or the memory bandwidth already drawn by one core), the next eight such
// conversions run on one goroutine (see Converter.Goroutines). A count beyond math.MaxInt32 is stored as math.MaxInt32. It returns the
// previous setting (0 for the default). Conversions of less than 2·ParallelMinBytes always run
// on the calling goroutine.
func SetThreads(n int) int {
	// Clamped, not truncated: int32(1<<32+1) would be 1, and int32(1<<31) negative.
	n = min(max(n, 0), math.MaxInt32)
	return int(threads.Swap(int32(n)))
}

// ParallelMinBytes is the size (bytes read plus bytes written) below which a conversion is not
// split across goroutines; each goroutine gets at least this much work.
const ParallelMinBytes = 512 << 10

// Converter runs conversions on a chosen path with a chosen number of goroutines. The zero value
// uses the best path and the default thread count, like Convert.
type Converter struct {
	// Path selects the implementation. A path the CPU lacks is an error; a pair the path has no
	// kernel for runs the pure-Go loop.
	Path Path
	// Threads is the number of goroutines; 0 means the package default (SetThreads).
	Threads int
	// Rules selects whose conversion rules apply; the zero value is OpenVINO's. Pairs that a
	// rule set converts like OpenVINO run OpenVINO's kernels on Path; the others run the pure-Go
	// loop of the rule set whatever Path is.
	Rules Rules
	// explicit is set by WithPath; the zero Converter uses the best path.
	explicit bool
}

// WithPath returns a Converter that uses path p and t goroutines (0: the package default).
func WithPath(p Path, t int) Converter { return Converter{Path: p, Threads: t, explicit: true} }

// Convert converts n elements of type from in src to type to in dst with the best path for this
// CPU. src must hold at least from.ByteSize(n) bytes and dst at least to.ByteSize(n) bytes;
// bytes of dst past to.ByteSize(n) are not touched, and unused bits of a packed last byte are
// written as zero. Converting a type to itself copies. dst and src must not overlap: kernels
// read a block of elements after they have stored the one before, and some read their source
// twice. An unsupported pair, a negative n, a short buffer or buffers that overlap is an error,
// and nothing is written; errors.Is tells them apart with ErrUnsupported, ErrShortBuffer and
// ErrOverlap.
func Convert(dst []byte, to element.Type, src []byte, from element.Type, n int) error {
	// Not through Converter.Convert: without the receiver, the nine words of arguments fit in
	// registers (twelve do not), which shortens every call. The fast path is written out
	// in both, since a shared function is too large to inline and costs its call.
	if uint(from)|uint(to) < numTypes && uint(n) < 1<<40 {
		k := &dispatch[best][from][to]
		sb, db := n*int(k.sw), n*int(k.dw)
		if k.f != nil && sb <= len(src) && db <= len(dst) && sb+db < 2*ParallelMinBytes && !overlap(dst, db, src, sb) {
			k.f(dst[:db], src[:sb], n)
			return nil
		}
	}
	return Converter{}.convertSlow(dst, to, src, from, n, best, nil)
}

// Convert is the package-level Convert on c's path and thread count, with c's rules. Rules with
// a field out of range are an error.
func (c Converter) Convert(dst []byte, to element.Type, src []byte, from element.Type, n int) error {
	// The common call, a pair of whole-byte types small enough for one goroutine, is decided here
	// from one table entry; everything else (errors included) is convertSlow's.
	p := best
	if c.explicit {
		p = c.Path
	}
	if c.Rules != (Rules{}) {
		if err := c.Rules.check(); err != nil {
			return err
		}
		if c.Rules.Set != OpenVINO && uint(from)|uint(to) < numTypes {
			if f := rulesTable[c.Rules.variant()][from][to]; f != nil {
				return c.convertSlow(dst, to, src, from, n, p, f)
			}
		}
	}
	if uint(p) < uint(numPaths) && uint(from)|uint(to) < numTypes && uint(n) < 1<<40 {
		k := &dispatch[p][from][to]
		sb, db := n*int(k.sw), n*int(k.dw)
		if k.f != nil && sb <= len(src) && db <= len(dst) && sb+db < 2*ParallelMinBytes && !overlap(dst, db, src, sb) {
			k.f(dst[:db], src[:sb], n)
			return nil
		}
	}
	return c.convertSlow(dst, to, src, from, n, p, nil)
}

// convertSlow is Convert for the calls its table lookup does not decide: errors, packed types,
// conversions large enough to split across goroutines, and rule sets' own loops (a non-nil
// loop, which replaces the path's kernel).
func (c Converter) convertSlow(dst []byte, to element.Type, src []byte, from element.Type, n int, p Path, loop loopFunc) error {
	if c.explicit && !pathAvailable(p) {
		return errorf(ErrUnsupported, "kernels: path %s is not available on this CPU", p)
	}
	f := loop
	if f == nil {
		f = kernel(p, from, to)
	}
	if f == nil {
		return errorf(ErrUnsupported, "kernels: conversion from %s to %s is not supported", from, to)
	}
	if n < 0 {
		return fmt.Errorf("kernels: negative element count %d", n)
	}
	sb, db := fastByteSize(from, n), fastByteSize(to, n)
	if sb < 0 || db < 0 {
		var err error
		if sb, err = from.ByteSize(int64(n)); err != nil {
			return fmt.Errorf("kernels: %s source: %w", from, err)
		}
		if db, err = to.ByteSize(int64(n)); err != nil {
			return fmt.Errorf("kernels: %s destination: %w", to, err)
		}
	}
	if int64(len(src)) < sb {
		return errorf(ErrShortBuffer, "kernels: %s source holds %d bytes, %d elements need %d", from, len(src), n, sb)
	}
	if int64(len(dst)) < db {
		return errorf(ErrShortBuffer, "kernels: %s destination holds %d bytes, %d elements need %d", to, len(dst), n, db)
	}
	src, dst = src[:sb], dst[:db]
	if overlap(dst, int(db), src, int(sb)) {
		return errorf(ErrOverlap, "kernels: the %s destination (%d bytes) and the %s source (%d bytes) overlap; Convert needs separate buffers", to, db, from, sb)
	}
	if sb+db < 2*ParallelMinBytes {
		f(dst, src, n)
		return nil
	}
	if loop == nil && largeKernel != nil && streams(sb, db) {
		if g := largeKernel(p, from, to); g != nil {
			f = g
		}
	}
	t, policy := c.threads(sb+db, true)
	if !policy {
		run(f, dst, to, src, from, n, t)
		return nil
	}
	// The default policy's split: measured, and given up for the next calls when it did not pay.
	if st := run(f, dst, to, src, from, n, t); st.chunks > 1 && !st.paid() {
		splitBackoff.Store(backoffCalls)
	}
	return nil
}

// Goroutines returns how many goroutines c.Convert uses at most to convert n elements from → to
// (Converter{}.Goroutines is Convert's): 1 below 2·ParallelMinBytes of traffic, the setting of
// c.Threads or SetThreads capped at one goroutine per ParallelMinBytes when either is set, and
// the default policy's choice otherwise: 1 within the last-level cache, and beyond it up to
// GOMAXPROCS, or 1 for the next few calls after a split that did not pay (see SetThreads). It
// returns 0 for an unsupported pair or a negative or overflowing n.
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
// traffic, otherwise one per minBytes/2, at most procs. minBytes is the last-level cache's size
// (see splitMin). A conversion that fits in the cache runs on one core at the cache's speed; a
// second goroutine must wake a thread (microseconds) and, on a machine whose other cores are
// busy, wait for a core, which can make the split slower than one goroutine. Beyond the cache
// one core is bound by the memory bandwidth it alone can draw, which a second core adds to, and
// the wake-up is small beside the conversion.
func defaultThreads(total int64, procs int, minBytes int64) int {
	if procs <= 1 || total < minBytes {
		return 1
	}
	return int(min(int64(procs), total/(minBytes/2)))
}

// splitMinBytes, when not zero, replaces splitMin's detected value (tests set it).
var splitMinBytes int64

// splitMin returns the traffic from which the default policy splits a conversion: the
// last-level cache's size, twice the non-temporal threshold (largeMin), which is half of it.
func splitMin() int64 {
	if splitMinBytes != 0 {
		return splitMinBytes
	}
	return 2 * largeMin()
}

// numTypes bounds the element types the dispatch tables cover (every type of package element).
const numTypes = 32

// overlap reports whether the first db bytes of dst and the first sb bytes of src share memory.
func overlap(dst []byte, db int, src []byte, sb int) bool {
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	s := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return d < s+uintptr(sb) && s < d+uintptr(db)
}

// fastKernel is a dispatch table entry: the loop of a pair of whole-byte types on one path and
// the element sizes of its source and destination in bytes.
type fastKernel struct {
	f      loopFunc
	sw, dw uint8
}

// dispatch holds kernel(p, from, to) for every available path and every pair of types stored in
// whole bytes; other entries are zero, which sends Convert to convertSlow.
var dispatch [numPaths][numTypes][numTypes]fastKernel

func init() {
	archInit()
	for _, p := range Paths() {
		for from := range element.Type(numTypes) {
			for to := range element.Type(numTypes) {
				sw, dw := wholeBytes[from], wholeBytes[to]
				if f := kernel(p, from, to); f != nil && sw != 0 && dw != 0 {
					dispatch[p][from][to] = fastKernel{f, sw, dw}
				}
			}
		}
	}
}

// fastByteSize is t.ByteSize(n) without its overflow division for the common case, a type of
// whole bytes and a count far from overflowing, and small enough to be inlined into Convert; it
// returns -1 for the other cases.
func fastByteSize(t element.Type, n int) int64 {
	if int(t) < len(wholeBytes) && uint(n) < 1<<40 && wholeBytes[t] != 0 {
		return int64(n) * int64(wholeBytes[t])
	}
	return -1
}

// wholeBytes is the element size of each type stored in whole bytes (0 for the packed types,
// dynamic and string).
var wholeBytes = func() (w [numTypes]uint8) {
	for _, t := range element.All() {
		if b := t.Bits(); int(t) < len(w) && t != element.String && b > 0 && b%8 == 0 {
			w[t] = uint8(b / 8)
		}
	}
	return w
}()

func pathAvailable(p Path) bool { return p < numPaths && availablePaths&(1<<p) != 0 }

// availablePaths is the set of Paths() as a bit mask, computed once so that Convert on an
// explicit path does not allocate.
var availablePaths = func() (m uint32) {
	for _, p := range Paths() {
		m |= 1 << p
	}
	return m
}()

// largeKernel, when an architecture's init sets it, returns a kernel for the pair on path p meant
// for conversions of at least largeMinBytes, see streams (non-temporal stores, which bypass the
// caches as the runtime's memmove does from 1 MiB on), or nil to keep the ordinary kernel.
var largeKernel func(p Path, from, to element.Type) loopFunc

// largeMinBytes, when not zero, is the size (bytes read plus bytes written) from which Convert
// asks largeKernel; tests set it. When zero, largeMin reads half the last-level cache from sysfs
// (ntMinBytes) the first time a conversion is large enough to ask, not at start-up: programs
// that never convert a megabyte never open /sys.
var largeMinBytes int64

var (
	largeOnce     sync.Once
	largeDetected int64
)

// streams reports whether a conversion of sb source and db destination bytes takes largeKernel:
// from largeMin() bytes of traffic (half the last-level cache), or from 2·largeMin() (the whole
// cache) for a destination larger than its source. Below that, source and result can stay in
// the cache: ordinary stores leave the result there for its reader, and they are faster than
// non-temporal ones for the widening pairs, whose time the stores set, because a core writes
// into the L3 faster than it writes to memory. The measurements behind the two thresholds are
// in docs/perf/README.md ("Non-temporal stores and the cache size").
func streams(sb, db int64) bool {
	m := largeMin()
	if db > sb {
		m *= 2
	}
	return sb+db >= m
}

// largeMin returns the threshold of largeKernel.
func largeMin() int64 {
	if largeMinBytes != 0 {
		return largeMinBytes
	}
	largeOnce.Do(func() { largeDetected = ntMinBytes("/sys") })
	return largeDetected
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
