package kernels_test

// Cross-path equivalence: every SIMD path this CPU has (kernels.Paths()) must give the same bytes
// as the pure-Go path (kernels.Generic, the specification in code) for every input, docs/SEMANTICS.md
// §3.10. The tests use only the exported API, so they run unchanged on amd64 and arm64.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// simdPairs are the pairs with SIMD kernels: the registry's rows (kernels/registry.go). A path
// that lacks one of them is reported by TestSIMDPairsHaveKernels and skipped elsewhere.
var simdPairs = kernels.RegistryPairs()

// simdPaths returns the non-generic paths of this CPU.
func simdPaths() []kernels.Path {
	var ps []kernels.Path
	for _, p := range kernels.Paths() {
		if p != kernels.Generic {
			ps = append(ps, p)
		}
	}
	return ps
}

func TestSIMDPairsHaveKernels(t *testing.T) {
	t.Logf("paths on this CPU: %v", kernels.Paths())
	if len(simdPaths()) == 0 {
		t.Skip("no SIMD path on this CPU (or built with -tags purego)")
	}
	for _, p := range simdPaths() {
		var missing []string
		for _, pr := range simdPairs {
			if !kernels.Supported(pr[0], pr[1]) {
				t.Errorf("pair %s→%s is not supported by the generic path", pr[0], pr[1])
			}
			if kernels.RegistryNames(p, pr[0], pr[1]) && !kernels.HasKernel(p, pr[0], pr[1]) {
				missing = append(missing, pr[0].String()+"→"+pr[1].String())
			}
		}
		if len(missing) > 0 {
			t.Errorf("path %s has no kernel for pairs whose registry rows name it: %s", p, strings.Join(missing, " "))
		}
	}
}

// convertBoth converts n elements of src on the generic path and on p, and reports the first
// differences.
func convertBoth(t *testing.T, p kernels.Path, from, to element.Type, src []byte, n int, describe func(i int) string) {
	t.Helper()
	db, err := to.ByteSize(int64(n))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, db)
	got := make([]byte, db)
	if err := kernels.WithPath(kernels.Generic, 1).Convert(want, to, src, from, n); err != nil {
		t.Fatal(err)
	}
	if err := kernels.WithPath(p, 1).Convert(got, to, src, from, n); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(want, got) {
		return
	}
	dsz := max(to.Bits()/8, 1)
	bad := 0
	for i := 0; i < n && bad < 10; i++ {
		w, g := want[i*dsz:(i+1)*dsz], got[i*dsz:(i+1)*dsz]
		if !bytes.Equal(w, g) {
			t.Errorf("%s %s→%s element %d (%s): got %x, generic %x", p, from, to, i, describe(i), rev(g), rev(w))
			bad++
		}
	}
	if bad == 0 {
		t.Errorf("%s %s→%s: outputs differ outside the elements", p, from, to)
	}
}

// rev returns b reversed, so that little-endian elements print as numbers.
func rev(b []byte) []byte {
	r := make([]byte, len(b))
	for i := range b {
		r[len(b)-1-i] = b[i]
	}
	return r
}

func srcDescriber(from element.Type, src []byte) func(i int) string {
	return func(i int) string {
		switch b := from.Bits(); {
		case b == 4:
			return fmt.Sprintf("source byte %#02x nibble %d", src[i/2], i%2)
		default:
			return fmt.Sprintf("source bits %#x", rev(src[i*b/8:(i+1)*b/8]))
		}
	}
}

// TestSIMDExhaustiveNarrowSources feeds every pattern of 4-, 8- and 16-bit sources: all 65,536
// patterns of a 16-bit type, all 256 of an 8-bit type, all 256 packed bytes of a 4-bit type.
func TestSIMDExhaustiveNarrowSources(t *testing.T) {
	eachSIMDPairPath(t, pairsWithSource(func(bits int) bool { return bits <= 16 }),
		func(t *testing.T, p kernels.Path, from, to element.Type) {
			var src []byte
			var n int
			switch from.Bits() {
			case 4:
				src, n = make([]byte, 256), 512
				for i := range src {
					src[i] = byte(i)
				}
			case 8:
				src, n = make([]byte, 256), 256
				for i := range src {
					src[i] = byte(i)
				}
			case 16:
				src, n = make([]byte, 2<<16), 1<<16
				for i := range n {
					binary.LittleEndian.PutUint16(src[2*i:], uint16(i))
				}
			default:
				t.Fatalf("no exhaustive source for %d-bit %s", from.Bits(), from)
			}
			convertBoth(t, p, from, to, src, n, srcDescriber(from, src))
		})
}

// specials32 are float32 bit patterns at the boundaries of the conversions' rules (each also
// tested with its neighbours one ulp away).
func specials32() []uint32 {
	f := []float32{0, 1, 0.5, 1.5, 2.5, 0x1p-149, 0x1p-126, 0x1.fffffcp-127, math.MaxFloat32,
		0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-14, 0x1.ff8p-15, 65504, 65519, 65520, 65536, // f16
		0x1p-133, 0x1p-134, 0x1.fep127, 0x1.ffp127, // bf16
		448, 464, 465, 480, 0x1p-6, 0x1p-9, 0x1p-10, 0x1.8p-10, 0x1.4p-9, // e4m3
		57344, 61440, 0x1p-16, 0x1p-17, 0x1.8p-17, // e5m2
		127, 127.5, 128, 128.5, 255, 255.9, 256, 32767, 32767.5, 32768, 2147483520, 2147483648,
		4294967296, 1e20, 0.9999, 16777216, 16777217,
	}
	var bits []uint32
	for _, v := range f {
		b := math.Float32bits(v)
		for _, s := range []uint32{0, 0x80000000} {
			bits = append(bits, b|s, (b|s)+1, (b|s)-1)
		}
	}
	bits = append(bits, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
		0x7FFFFFFF, 0xFFFFFFFF, 0x7FA00000, 0x7FC00001, 0x7F802000, 0x7F801FFF, 0xFFBFFFFF,
		0x7F8000FF, 0x7FE00000, 0x80000000, 0x00000001, 0x80000001)
	for i := range uint32(64) { // small integers and halves
		bits = append(bits, math.Float32bits(float32(i)/2), math.Float32bits(-float32(i)/2))
	}
	return bits
}

// randomF32 returns n float32 patterns: a third uniform bits (NaN payloads, huge and tiny
// values), a third with an exponent near the narrow formats' ranges, a third near integers.
func randomF32(r *rand.Rand, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		switch i % 3 {
		case 0:
			out[i] = r.Uint32()
		case 1: // |x| in [2^-30, 2^33)
			e := uint32(127-30) + r.Uint32N(63)
			out[i] = r.Uint32()&0x807FFFFF | e<<23
		default:
			v := float32(r.Int32N(140000)-70000) + []float32{0, 0.5, 0.25, 0.75, r.Float32()}[r.IntN(5)]
			out[i] = math.Float32bits(v)
		}
	}
	return out
}

func specialsI32() []uint32 {
	v := []int64{0, 1, 2, 127, 128, 255, 256, 32767, 32768, 65504, 65519, 65520, 65535, 65536,
		1 << 24, 1<<24 + 1, 1<<24 + 3, 1 << 30, math.MaxInt32}
	var bits []uint32
	for _, x := range v {
		for _, s := range []int64{x, -x} {
			bits = append(bits, uint32(s), uint32(s+1), uint32(s-1))
		}
	}
	return append(bits, 0x80000000, 0x80000001, 0xFFFFFFFF)
}

func randomI32(r *rand.Rand, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		switch i % 3 {
		case 0:
			out[i] = r.Uint32()
		case 1:
			out[i] = uint32(int32(r.Int32N(1<<18) - 1<<17))
		default:
			out[i] = uint32(int32(r.Int32N(1 << r.IntN(31))))
			if r.IntN(2) == 0 {
				out[i] = -out[i]
			}
		}
	}
	return out
}

func specials64(f64 bool) []uint64 {
	if !f64 { // i64
		v := []int64{0, 1, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 32, 1<<32 + 5}
		var bits []uint64
		for _, x := range v {
			bits = append(bits, uint64(x), uint64(x+1), uint64(x-1), uint64(-x))
		}
		return bits
	}
	f := []float64{0, 1, 0.1, math.MaxFloat32, 0x1.fffffefp127, 0x1.ffffffp127, 0x1p128, 0x1p-149,
		0x1p-150, 0x1.8p-150, 0x1p-126, 0x1.000001p0, 0x1.0000018p0, 0x1.0000008p0, 1e300, 5e-324,
		math.MaxFloat64, 0x1p-1022}
	var bits []uint64
	for _, v := range f {
		b := math.Float64bits(v)
		for _, s := range []uint64{0, 1 << 63} {
			bits = append(bits, b|s, (b|s)+1, (b|s)-1)
		}
	}
	return append(bits, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
		0x7FF0000000000001, 0xFFF4000000000000, 0x7FFFFFFFFFFFFFFF, 0x7FF80000000FFFFF,
		0x7FF0000020000000, 0x7FF000001FFFFFFF)
}

func random64(r *rand.Rand, n int, f64 bool) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		switch {
		case i%2 == 0:
			out[i] = r.Uint64()
		case f64: // exponents around float32's range, and float32 ties
			e := uint64(1023-160) + r.Uint64N(300)
			m := r.Uint64() & 0x800FFFFFFFFFFFFF
			if i%4 == 1 {
				m = m&^(1<<29-1) | 1<<28 // exactly half a float32 ulp
			}
			out[i] = m | e<<52
		default:
			out[i] = uint64(r.Int64N(1<<40) - 1<<39)
		}
	}
	return out
}

// pairPaths returns the SIMD paths of this CPU that have their own kernel for the pair.
func pairPaths(from, to element.Type) []kernels.Path {
	var paths []kernels.Path
	for _, p := range simdPaths() {
		if kernels.HasKernel(p, from, to) {
			paths = append(paths, p)
		}
	}
	return paths
}

// wideSpecials returns the special values of a 32- or 64-bit source type, one after another.
func wideSpecials(from element.Type) []byte {
	var src []byte
	switch from {
	case element.F32, element.I32:
		sp := specials32()
		if from == element.I32 {
			sp = specialsI32()
		}
		for _, b := range sp {
			src = binary.LittleEndian.AppendUint32(src, b)
		}
	default:
		for _, b := range specials64(from == element.F64) {
			src = binary.LittleEndian.AppendUint64(src, b)
		}
	}
	return src
}

// pairsWithSource returns the SIMD pairs whose source type's width in bits satisfies keep.
func pairsWithSource(keep func(bits int) bool) [][2]element.Type {
	var ps [][2]element.Type
	for _, pr := range simdPairs {
		if keep(pr[0].Bits()) {
			ps = append(ps, pr)
		}
	}
	return ps
}

// widePairs are the SIMD pairs with a 32- or 64-bit source.
var widePairs = pairsWithSource(func(bits int) bool { return bits >= 32 })

// eachSIMDPairPath runs f as the subtest pair/path of t (kernels.PairName: "f32-f16/avx512") for
// every pair of pairs and every SIMD path of this CPU that has a kernel for it; pairs no path
// has are left out. The subtests run in parallel: f must not change global state.
func eachSIMDPairPath(t *testing.T, pairs [][2]element.Type, f func(t *testing.T, p kernels.Path, from, to element.Type)) {
	t.Helper()
	for _, pr := range pairs {
		from, to := pr[0], pr[1]
		paths := pairPaths(from, to)
		if len(paths) == 0 {
			continue
		}
		t.Run(kernels.PairName(from, to), func(t *testing.T) {
			t.Parallel()
			for _, p := range paths {
				t.Run(p.String(), func(t *testing.T) {
					t.Parallel()
					f(t, p, from, to)
				})
			}
		})
	}
}

// TestSIMDWideSources feeds special values and random patterns of 32- and 64-bit sources.
func TestSIMDWideSources(t *testing.T) {
	eachSIMDPairPath(t, widePairs, func(t *testing.T, p kernels.Path, from, to element.Type) {
		r := rand.New(rand.NewPCG(uint64(from)<<8|uint64(to), 4))
		src := wideSpecials(from)
		esz := from.Bits() / 8
		convertBoth(t, p, from, to, src, len(src)/esz, srcDescriber(from, src))
		const chunk = 1 << 20
		for done := 0; done < kernels.RandomCount() && !t.Failed(); done += chunk {
			m := min(chunk, kernels.RandomCount()-done)
			src = src[:0]
			switch from {
			case element.F32:
				for _, b := range randomF32(r, m) {
					src = binary.LittleEndian.AppendUint32(src, b)
				}
			case element.I32:
				for _, b := range randomI32(r, m) {
					src = binary.LittleEndian.AppendUint32(src, b)
				}
			default:
				for _, b := range random64(r, m, from == element.F64) {
					src = binary.LittleEndian.AppendUint64(src, b)
				}
			}
			convertBoth(t, p, from, to, src, m, srcDescriber(from, src))
		}
	})
}

// TestSIMDSparseSpecials puts one special value at each position of 128 ordinary ones, and one or
// two into 3000 ordinary ones at chosen places, for every 32- and 64-bit source pair: kernels that take a shorter route for a block without special
// lanes (f32 → i32, f32 → bf16 with AVX512_BF16) must take the full route for exactly the block
// that has one, and the random patterns of TestSIMDWideSources have a special in nearly every
// block.
func TestSIMDSparseSpecials(t *testing.T) {
	const n = 128
	eachSIMDPairPath(t, widePairs, func(t *testing.T, p kernels.Path, from, to element.Type) {
		esz := from.Bits() / 8
		r := rand.New(rand.NewPCG(uint64(from)<<8|uint64(to), 5))
		base := make([]byte, n*esz)
		var specials [][]byte
		for i := range n { // small ordinary values: in range of every destination
			v := float64(r.IntN(200)-100) + []float64{0, 0.5, 0.25, 0.75}[r.IntN(4)]
			switch from {
			case element.F32:
				binary.LittleEndian.PutUint32(base[i*esz:], math.Float32bits(float32(v)))
			case element.F64:
				binary.LittleEndian.PutUint64(base[i*esz:], math.Float64bits(v))
			case element.I32, element.U32:
				binary.LittleEndian.PutUint32(base[i*esz:], uint32(int32(v)))
			default:
				binary.LittleEndian.PutUint64(base[i*esz:], uint64(int64(v)))
			}
		}
		all := wideSpecials(from)
		for i := 0; i < len(all); i += esz {
			specials = append(specials, all[i:i+esz])
		}
		src := make([]byte, len(base))
		convertBoth(t, p, from, to, base, n, srcDescriber(from, base))
		for _, sp := range specials {
			for pos := 0; pos < n && !t.Failed(); pos++ {
				copy(src, base)
				copy(src[pos*esz:], sp)
				convertBoth(t, p, from, to, src, n, srcDescriber(from, src))
			}
		}
		// Longer runs with specials near the edges of f32 → i32's 1024-element blocks: in
		// the first block, in a later one, in the elements after the last whole step, and
		// in two blocks at once.
		const long = 3000
		lsrc := make([]byte, long*esz)
		for _, sp := range specials {
			for _, poss := range [][]int{{0}, {1023}, {1024}, {1500}, {2047}, {2048}, {2943}, {2999}, {5, 2100}} {
				for i := 0; i < long; i += n {
					copy(lsrc[i*esz:], base)
				}
				for _, pos := range poss {
					copy(lsrc[pos*esz:], sp)
				}
				convertBoth(t, p, from, to, lsrc, long, srcDescriber(from, lsrc))
			}
		}
	})
}

// ordinary16 reports whether the f16 or bf16 pattern h is zero or a number in the binary16
// normal range, 2^-14 ≤ |x| ≤ 65504: the values real tensors hold, which the f16 ↔ bf16 kernels
// convert on a shorter route (docs/SEMANTICS.md §3.4: exact in both formats, or for f16 → bf16 a plain
// rounding of the significand). The rest are subnormal, too large, Inf or NaN.
func ordinary16(from element.Type, h uint16) bool {
	v := float64(kernels.F32FromBF16(h))
	if from == element.F16 {
		v = float64(kernels.F32FromF16(h))
	}
	a := math.Abs(v)
	return a == 0 || (a >= 0x1p-14 && a <= 65504)
}

// TestSIMDSparseSpecials16 is TestSIMDSparseSpecials for the f16 and bf16 sources: every
// ordinary pattern (ordinary16) in shuffled order, then every other pattern placed alone among
// ordinary ones, after runs of random length (long runs: a special in one block of otherwise
// ordinary blocks; short runs: specials in most steps), each run at a random place of the
// ordinary patterns, on every path and for every destination with a SIMD kernel.
func TestSIMDSparseSpecials16(t *testing.T) {
	var pairs [][2]element.Type
	for _, pr := range simdPairs {
		if pr[0] == element.F16 || pr[0] == element.BF16 {
			pairs = append(pairs, pr)
		}
	}
	eachSIMDPairPath(t, pairs, func(t *testing.T, p kernels.Path, from, to element.Type) {
		r := rand.New(rand.NewPCG(uint64(from)<<8|uint64(to), 16))
		var ord, spec []uint16
		for i := range 1 << 16 {
			if ordinary16(from, uint16(i)) {
				ord = append(ord, uint16(i))
			} else {
				spec = append(spec, uint16(i))
			}
		}
		r.Shuffle(len(spec), func(i, j int) { spec[i], spec[j] = spec[j], spec[i] })
		put := func(src []byte, vals []uint16) []byte {
			for _, v := range vals {
				src = binary.LittleEndian.AppendUint16(src, v)
			}
			return src
		}
		shuffled := append([]uint16(nil), ord...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		src := put(nil, shuffled)
		convertBoth(t, p, from, to, src, len(src)/2, srcDescriber(from, src))
		for _, maxRun := range []int{2100, 70} {
			const perCall = 256
			for k := 0; k < len(spec) && !t.Failed(); k += perCall {
				src = src[:0]
				for _, sp := range spec[k:min(k+perCall, len(spec))] {
					run := r.IntN(maxRun + 1)
					at := r.IntN(len(ord) - run + 1)
					src = put(src, ord[at:at+run])
					src = put(src, []uint16{sp})
				}
				src = put(src, ord[:r.IntN(maxRun+1)])
				convertBoth(t, p, from, to, src, len(src)/2, srcDescriber(from, src))
			}
		}
	})
}

// TestSIMDLengthsAndOffsets converts every length 0..257 at byte offsets 0..7 of the source and
// of the destination, with guard bytes before and after the destination that must stay untouched,
// and some longer lengths around the sizes where a kernel changes its loop (f32 → i32 checks
// 1024-element blocks, f64 → f32 switches to 256-bit steps from 2048 elements).
func TestSIMDLengthsAndOffsets(t *testing.T) {
	const maxN, guard = 4113, 256 // guard: a whole block of the widest kernel step (64 float32)
	lengths := make([]int, 0, 300)
	for n := 0; n <= 257; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1023, 1024, 1025, 1055, 2047, 2048, 2049, 2079, 2081, 4113)
	offsets := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if testing.Short() {
		offsets = []int{0, 1, 3, 6}
	}
	r := rand.New(rand.NewPCG(1, 2))
	srcAll := make([]byte, 8*maxN+8) // read-only in the subtests
	for i := range srcAll {
		srcAll[i] = byte(r.Uint32())
	}
	eachSIMDPairPath(t, simdPairs, func(t *testing.T, p kernels.Path, from, to element.Type) {
		dbMax, _ := to.ByteSize(maxN)
		want := make([]byte, dbMax)
		buf := make([]byte, guard+8+int(dbMax)+guard)
		for so := range offsets {
			for _, n := range lengths {
				sb, _ := from.ByteSize(int64(n))
				src := srcAll[offsets[so] : offsets[so]+int(sb)]
				db, _ := to.ByteSize(int64(n))
				if err := kernels.WithPath(kernels.Generic, 1).Convert(want[:db], to, src, from, n); err != nil {
					t.Fatal(err)
				}
				for _, do := range offsets {
					buf := buf[:guard+do+int(db)+guard] // the guards around this destination
					for i := range buf {
						buf[i] = 0xA5
					}
					dst := buf[guard+do : guard+do+int(db)]
					if err := kernels.WithPath(p, 1).Convert(dst, to, src, from, n); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(dst, want[:db]) {
						t.Fatalf("%s %s→%s n=%d src+%d dst+%d: got %x, generic %x", p, from, to, n, offsets[so], do, dst, want[:db])
					}
					for i, c := range buf {
						if c != 0xA5 && (i < guard+do || i >= guard+do+int(db)) {
							t.Fatalf("%s %s→%s n=%d src+%d dst+%d: guard byte %d changed to %#x", p, from, to, n, offsets[so], do, i-guard-do, c)
						}
					}
				}
			}
		}
	})
}

// TestSIMDAllF32 converts all 2^32 float32 patterns to f16, bf16, f8e4m3 and f8e5m2, and to i32,
// i16, i8, u8 and boolean (truncation, saturation, NaN → 0, every boundary), on every SIMD path.
// It takes a few minutes of CPU, so it is skipped under -short. Its subtests are pair/path; a
// pair's subtest converts each chunk of inputs on the generic path once for all its paths (see
// allF32), and the pair subtests run one after another, each on every core.
func TestSIMDAllF32(t *testing.T) {
	if testing.Short() {
		t.Skip("all 2^32 float32 patterns: skipped with -short")
	}
	if os.Getenv("CONVERTPROMOTE_SKIP_ALL_F32") != "" {
		t.Skip("CONVERTPROMOTE_SKIP_ALL_F32 is set")
	}
	for _, to := range []element.Type{element.F16, element.BF16, element.F8E4M3, element.F8E5M2,
		element.I32, element.I16, element.I8, element.U8, element.Boolean} {
		paths := pairPaths(element.F32, to)
		if len(paths) == 0 {
			continue
		}
		t.Run(kernels.PairName(element.F32, to), func(t *testing.T) {
			// The path subtests report what allF32 found for them. Each one that runs (-run
			// may leave some out) marks its path, then waits in t.Parallel until this function,
			// after comparing the marked paths in one pass, has returned.
			var selected []kernels.Path
			fails := map[kernels.Path][]string{}
			for _, p := range paths {
				t.Run(p.String(), func(t *testing.T) {
					selected = append(selected, p)
					t.Parallel()
					for i, f := range fails[p] {
						if i == 20 {
							t.Errorf("... and %d more chunks", len(fails[p])-20)
							break
						}
						t.Error(f)
					}
				})
			}
			if len(selected) > 0 {
				allF32(selected, to, fails)
			}
		})
	}
}

// allF32 compares each of paths with the generic path on all 2^32 float32 patterns converted to
// to, in chunks that runtime.GOMAXPROCS(0) goroutines take in turn, each chunk converted on the
// generic path once; it adds to fails[p] the first difference of each chunk where path p
// differs, and every error.
func allF32(paths []kernels.Path, to element.Type, fails map[kernels.Path][]string) {
	const chunk = 1 << 22
	var wg sync.WaitGroup
	var mu sync.Mutex
	fail := func(p kernels.Path, format string, args ...any) {
		mu.Lock()
		fails[p] = append(fails[p], fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	next := make(chan uint64)
	go func() {
		for c := uint64(0); c < 1<<32; c += chunk {
			next <- c
		}
		close(next)
	}()
	db := chunk * to.Bits() / 8
	esz := to.Bits() / 8
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := make([]byte, 4*chunk)
			want := make([]byte, db)
			got := make([]byte, db)
			for c := range next {
				for i := range uint64(chunk) {
					binary.LittleEndian.PutUint32(src[4*i:], uint32(c+i))
				}
				errG := kernels.WithPath(kernels.Generic, 1).Convert(want, to, src, element.F32, chunk)
				for _, p := range paths {
					err := kernels.WithPath(p, 1).Convert(got, to, src, element.F32, chunk)
					if errG != nil || err != nil {
						fail(p, "%s f32→%s chunk %#08x: error %v, generic %v", p, to, c, err, errG)
						continue
					}
					if bytes.Equal(want, got) {
						continue
					}
					for i := 0; i < chunk; i++ {
						if !bytes.Equal(want[i*esz:(i+1)*esz], got[i*esz:(i+1)*esz]) {
							fail(p, "%s f32→%s %#08x: got %x, generic %x",
								p, to, uint32(c)+uint32(i), rev(got[i*esz:(i+1)*esz]), rev(want[i*esz:(i+1)*esz]))
							break
						}
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestSIMDLarge converts destinations of 5 MiB at destination offsets that can and cannot be
// 64-byte aligned, with one thread and with three, comparing with the generic path and checking
// the guard bytes around. (TestAMD64NonTemporal covers the amd64 non-temporal kernels, which
// Convert uses from 32 MiB of traffic on.)
func TestSIMDLarge(t *testing.T) {
	eachSIMDPairPath(t, simdPairs, func(t *testing.T, p kernels.Path, from, to element.Type) {
		r := rand.New(rand.NewPCG(9, uint64(from)<<8|uint64(to)))
		dsize := max(to.Bits()/8, 1)
		n := (5<<20)/dsize + 37
		sb, _ := from.ByteSize(int64(n))
		db, _ := to.ByteSize(int64(n))
		src := make([]byte, sb)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		want := make([]byte, db)
		if err := kernels.WithPath(kernels.Generic, 1).Convert(want, to, src, from, n); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, int(db)+128+64)
		guards := func(off int) [2][]byte { return [2][]byte{buf[:off], buf[off+int(db):]} }
		for _, off := range []int{64, 65, 66, 68, 96, 126} {
			for _, threads := range []int{1, 3} {
				if g := kernels.WithPath(p, threads).Goroutines(from, to, n); g != threads {
					t.Fatalf("%s %s→%s n=%d: %d goroutines for Threads %d", p, from, to, n, g, threads)
				}
				for _, g := range guards(off) {
					for i := range g {
						g[i] = 0x5A
					}
				}
				clear(buf[off : off+int(db)])
				dst := buf[off : off+int(db)]
				if err := kernels.WithPath(p, threads).Convert(dst, to, src, from, n); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(dst, want) {
					i := 0
					for dst[i] == want[i] {
						i++
					}
					t.Errorf("%s %s→%s n=%d dst offset %d threads %d: byte %d is %#x, generic %#x",
						p, from, to, n, off, threads, i, dst[i], want[i])
					continue
				}
				for _, g := range guards(off) {
					if bytes.Count(g, []byte{0x5A}) != len(g) {
						t.Errorf("%s %s→%s dst offset %d threads %d: a guard byte changed", p, from, to, off, threads)
					}
				}
			}
		}
	})
}
