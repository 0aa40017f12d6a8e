package kernels

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// ruleKernelPaths returns the SIMD paths this CPU runs that have a kernel for the row: its own,
// or for an openvino row the registry's kernel of the pair.
func ruleKernelPaths(r ruleRow) []Path {
	own := r.paths
	if reg := registryRow(r.from, r.to); r.openvino && reg != nil {
		own |= reg.paths
	}
	var ps []Path
	for _, p := range Paths() {
		if p != Generic && own.has(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// TestRuleRegistryRows: every row of ruleRegistry is a pair that its rule set converts with a
// loop of its own (OwnLoop), under rules reduced for the pair, once; the Converter dispatches
// the row's kernel on every path that names it and the CPU runs (HasRuleKernel; for an openvino
// row whose pair has a registry row, the registry's paths), and its loop on the generic path,
// for every rule variant that reduces to the row's rules.
func TestRuleRegistryRows(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range ruleRegistry {
		key := fmt.Sprintf("%+v %v %v", r.rules, r.from, r.to)
		if seen[key] {
			t.Errorf("two rows for %s", key)
		}
		seen[key] = true
		if !r.rules.OwnLoop(r.from, r.to) {
			t.Errorf("%s: the pair does not run a loop of the rule set's own", key)
		}
		if r.rules.forPair(r.to) != r.rules {
			t.Errorf("%s: rules not reduced for the pair", key)
		}
		matched := 0
		for _, v := range ruleVariants {
			if v.forPair(r.to) != r.rules {
				if ruleRegistryRow(v, r.from, r.to) == &r {
					t.Errorf("%s: found for variant %+v", key, v)
				}
				continue
			}
			matched++
			for _, p := range Paths() {
				want := p != Generic && r.paths.has(p)
				if reg := registryRow(r.from, r.to); r.openvino && reg != nil {
					want = p != Generic && reg.paths.has(p)
				}
				if got := v.HasRuleKernel(p, r.from, r.to); got != want {
					t.Errorf("%s under %+v on %s: HasRuleKernel %v, want %v", key, v, p, got, want)
				}
			}
		}
		if matched == 0 {
			t.Errorf("%s: no rule variant reduces to the row's rules", key)
		}
	}
	if (Rules{}).HasRuleKernel(Best, element.F32, element.F16) {
		t.Error("OpenVINO's rules report a rule-set kernel")
	}
}

// TestRuleKernelsLengthsAndOffsets: every rule-set kernel gives its row's pure-Go loop's bytes
// at every length from 0 to 257 and some longer ones, at source and destination offsets 0 to
// 7, and writes nothing outside its destination (guard bytes around it), on random source
// bytes with the specials of the source type spread in.
func TestRuleKernelsLengthsAndOffsets(t *testing.T) {
	const maxN, guard = 2081, 256
	lengths := make([]int, 0, 270)
	for n := 0; n <= 257; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1023, 1024, 1025, 2047, 2081)
	offsets := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if testing.Short() {
		offsets = []int{0, 1, 3, 6}
	}
	r := rand.New(rand.NewPCG(5, 6))
	srcAll := make([]byte, 8*maxN+8)
	for i := range srcAll {
		srcAll[i] = byte(r.Uint32())
	}
	// Specials every 5th element of a 4-byte source (and the bytes of them for the narrower).
	for i, u := range specialF32s() {
		binary.LittleEndian.PutUint32(srcAll[4*(5*i%maxN):], u)
	}
	for _, row := range ruleRegistry {
		for _, p := range ruleKernelPaths(row) {
			t.Run(fmt.Sprintf("%v/%v-%v/%v", row.rules, row.from, row.to, p), func(t *testing.T) {
				want := make([]byte, maxN*8)
				buf := make([]byte, guard+8+maxN*8+guard)
				for _, so := range offsets {
					for _, n := range lengths {
						sb, _ := row.from.ByteSize(int64(n))
						db, _ := row.to.ByteSize(int64(n))
						src := srcAll[so : so+int(sb)]
						if err := (Converter{Path: Generic, Threads: 1, Rules: row.rules}).Convert(want[:db], row.to, src, row.from, n); err != nil {
							t.Fatal(err)
						}
						for _, do := range offsets {
							buf := buf[:guard+do+int(db)+guard]
							for i := range buf {
								buf[i] = 0xA5
							}
							dst := buf[guard+do : guard+do+int(db)]
							if err := (Converter{Path: p, Threads: 1, Rules: row.rules}).Convert(dst, row.to, src, row.from, n); err != nil {
								t.Fatal(err)
							}
							if !bytes.Equal(dst, want[:db]) {
								t.Fatalf("n=%d src+%d dst+%d: got %x, pure Go %x", n, so, do, dst, want[:db])
							}
							for i, c := range buf {
								if c != 0xA5 && (i < guard+do || i >= guard+do+int(db)) {
									t.Fatalf("n=%d src+%d dst+%d: guard byte %d changed to %#x", n, so, do, i-guard-do, c)
								}
							}
						}
					}
				}
			})
		}
	}
}

// TestRuleKernelsLoneValues: every rule-set kernel from f16 or bf16 gives its row's loop's
// bytes for each of the 2^16 inputs alone among ordinary ones (1.0): input v at element v%64 of
// a 64-element block of its own. Kernels that take a block another way when one of its elements
// needs it (a binary16 subnormal, a bfloat16 below binary16's normals) must notice the one
// element; an exhaustive test on consecutive inputs never puts such an element among others.
func TestRuleKernelsLoneValues(t *testing.T) {
	one := map[element.Type]uint16{element.F16: 0x3C00, element.BF16: 0x3F80}
	for _, row := range ruleRegistry {
		fill, ok := one[row.from]
		if !ok {
			continue
		}
		for _, p := range ruleKernelPaths(row) {
			t.Run(fmt.Sprintf("%v/%v-%v/%v", row.rules, row.from, row.to, p), func(t *testing.T) {
				t.Parallel()
				const n = 64 << 16
				src := make([]byte, 2*n)
				for i := range n {
					v := fill
					if i%64 == i>>6%64 {
						v = uint16(i >> 6)
					}
					binary.LittleEndian.PutUint16(src[2*i:], v)
				}
				db, _ := row.to.ByteSize(n)
				want, got := make([]byte, db), make([]byte, db)
				if err := (Converter{Path: Generic, Threads: 1, Rules: row.rules}).Convert(want, row.to, src, row.from, n); err != nil {
					t.Fatal(err)
				}
				if err := (Converter{Path: p, Threads: 1, Rules: row.rules}).Convert(got, row.to, src, row.from, n); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("element %d (input %#04x): got %#02x, pure Go %#02x", i, binary.LittleEndian.Uint16(src[2*i:]), got[i], want[i])
						}
					}
				}
			})
		}
	}
}

// specialF32s are float32 bits at the edges of the float8 formats: zeros, the subnormal and
// normal boundaries of every target, the midpoints around their largest values, Inf and NaNs.
func specialF32s() []uint32 {
	var us []uint32
	for _, f := range []float32{0, 1, 448, 464, 465, 480, 57344, 61440, 61441, 240, 248, 0x1p-6, 0x1p-7, 0x1p-9, 0x1p-10,
		0x1p-11, 0x1p-14, 0x1p-15, 0x1p-16, 0x1p-17, 0x1p-18, 0x1.8p-17, 0x1.8p-18, 0x1p-126, 0x1p-149, 3.4e38} {
		u := math.Float32bits(f)
		us = append(us, u, u|0x80000000, u+1, u-1, (u+1)|0x80000000)
	}
	return append(us, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF)
}

// TestRuleKernelsAllF32 converts all 2^32 float32 patterns with every f32 row's kernels, the
// non-temporal one included where the CPU runs it, and compares them with the row's pure-Go
// loop. The rows of one encoder constant share their kernels' computation, so one row for each
// encoder runs: sixteen passes over 2^32 inputs and a pass for each non-temporal kernel, some
// ten minutes of CPU, so it runs only when CONVERTPROMOTE_RULES_ALL_F32 is set (the f32 sweep
// of TestRulesNarrowExhaustive runs always):
//
//	CONVERTPROMOTE_RULES_ALL_F32=1 go test -run TestRuleKernelsAllF32 ./kernels
func TestRuleKernelsAllF32(t *testing.T) {
	if os.Getenv("CONVERTPROMOTE_RULES_ALL_F32") == "" {
		t.Skip("all 2^32 float32 patterns for every rule-set encoder: set CONVERTPROMOTE_RULES_ALL_F32 to run")
	}
	var done []string
	for _, row := range ruleRegistry {
		if row.from != element.F32 || slices.Contains(done, row.loop) || len(ruleKernelPaths(row)) == 0 {
			continue
		}
		done = append(done, row.loop)
		t.Run(fmt.Sprintf("%v/%v", row.rules, row.to), func(t *testing.T) {
			allF32(t, func() func(src []byte) string {
				want, got := make([]byte, allF32Chunk), make([]byte, allF32Chunk)
				return func(src []byte) string {
					rulesTable[row.rules.variant()][row.from][row.to](want, src, allF32Chunk)
					for _, p := range ruleKernelPaths(row) {
						ruleSIMD[p][row.rules.variant()][row.from][row.to](got, src, allF32Chunk)
						if i := firstByteDiff(want, got); i >= 0 {
							return fmt.Sprintf("%s %#08x: got %#x, pure Go %#x", p, binary.LittleEndian.Uint32(src[4*i:]), got[i], want[i])
						}
					}
					if nt := ruleNT[row.rules.variant()][row.from][row.to]; nt != nil {
						nt(got, src, allF32Chunk)
						if i := firstByteDiff(want, got); i >= 0 {
							return fmt.Sprintf("non-temporal %#08x: got %#x, pure Go %#x", binary.LittleEndian.Uint32(src[4*i:]), got[i], want[i])
						}
					}
					return ""
				}
			})
		})
	}
}

// firstByteDiff returns the first index where a and b differ, or -1.
func firstByteDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestRulesString: Rules.String names the rule set and ONNX's attributes that are not their
// defaults.
func TestRulesString(t *testing.T) {
	for _, c := range []struct {
		r    Rules
		want string
	}{
		{Rules{}, "openvino"},
		{Rules{Set: MLDtypes, NoSaturate: true}, "ml_dtypes"},
		{Rules{Set: ONNX}, "onnx"},
		{Rules{Set: ONNX, NoSaturate: true}, "onnx saturate=0"},
		{Rules{Set: ONNX, E8M0Round: RoundNearest}, "onnx round_mode=nearest"},
		{Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundDown}, "onnx saturate=0 round_mode=down"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.r, got, c.want)
		}
	}
}

// TestRuleKernelsIntegerTies converts integers at, next to and between the bfloat16 and binary16
// rounding midpoints of every magnitude (ties to even, ties that the float32 rounding to odd must
// not turn into ties, values just past them) from every integer source that the rule sets round
// once, on every path, and compares each with the independent reference.
func TestRuleKernelsIntegerTies(t *testing.T) {
	var mags []uint64
	for e := 8; e < 64; e++ {
		for _, m := range []uint64{0x80, 0x81, 0xAB, 0xFF} {
			tie := (2*m + 1) << (e - 8) // halfway between two 8-bit significands at 2^e
			if e >= 9 {
				tie >>= 1
			}
			for _, d := range []int64{-2, -1, 0, 1, 2} {
				mags = append(mags, uint64(int64(tie)+d))
			}
			mags = append(mags, tie|1<<(e/2), tie+1<<(e-30+30*b2i(e < 30)))
		}
	}
	// Where float64 rounds up to 2^63 or 2^64, and the conversion back saturates.
	for _, top := range []uint64{1 << 63, 0} {
		for _, d := range []uint64{1, 2, 511, 512, 513, 1023, 1024, 1025, 2048} {
			mags = append(mags, top-d)
		}
	}
	mags = append(mags, 1<<63, 1<<63+1, 1<<63+1024, 1<<63+1025)
	for _, r := range []Rules{{Set: ONNX}, {Set: MLDtypes}} {
		for _, from := range []element.Type{element.I32, element.U32, element.I64, element.U64} {
			for _, to := range []element.Type{element.F16, element.BF16} {
				if !r.OwnLoop(from, to) {
					continue
				}
				w := from.Bits() / 8
				var src []byte
				var bits []uint64
				for _, m := range mags {
					for _, neg := range []bool{false, true} {
						v := m
						if neg {
							v = -m
						}
						if w == 4 && (m>>31 != 0 && from == element.I32 || m>>32 != 0) {
							continue
						}
						if neg && (from == element.U32 || from == element.U64) {
							continue
						}
						bits = append(bits, v)
						src = binary.LittleEndian.AppendUint64(src, v)[:len(src)+w]
					}
				}
				n := len(bits)
				for _, p := range Paths() {
					dst := make([]byte, 2*n)
					if err := (Converter{Path: p, Rules: r}).Convert(dst, to, src, from, n); err != nil {
						t.Fatal(err)
					}
					for i, b := range bits {
						got := uint64(binary.LittleEndian.Uint16(dst[2*i:]))
						if want := refRulesIEEE16(to, refDecode(from, b&(1<<(8*w)-1), 0)); got != want {
							t.Errorf("%v %v %v → %v %#x: got %#x, want %#x", p, r, from, to, b, got, want)
							break
						}
					}
				}
			}
		}
	}
}

// TestF8EncSlots checks that f16EncTable's slots tell the rule sets' float8 encoders apart.
func TestF8EncSlots(t *testing.T) {
	seen := map[uint32]f8Enc{}
	for _, e := range []f8Enc{encE4M3Sat, encE4M3NoSat, encE5M2Sat, encE5M2NoSat, encE5M2ML,
		encE4M3FNUZSat, encE4M3FNUZNoSat, encE5M2FNUZSat, encE5M2FNUZNoSat} {
		s := e.slot()
		if s >= uint32(len(f16EncTables)) {
			t.Errorf("encoder %#x: slot %d beyond the %d tables", uint32(e), s, len(f16EncTables))
		}
		if o, ok := seen[s]; ok {
			t.Errorf("encoders %#x and %#x share slot %d", uint32(o), uint32(e), s)
		}
		seen[s] = e
	}
}

// openvinoOwnLoop is OpenVINO's pure-Go loop of a pair as it would be without ruleRegistry's
// openvino rows: the registry's loop, or the general decode/encode loop.
func openvinoOwnLoop(from, to element.Type) loopFunc {
	if f := directKernel(from, to); f != nil {
		return f
	}
	return blockLoop(Rules{}, from, to)
}

// TestOpenVINORows: each openvino row of ruleRegistry gives OpenVINO's codes (the loop that
// OpenVINO's rules would run without the row) for every input of a 16-bit source and for the
// float32 sweep of the rule tests (all 2^32 with CONVERTPROMOTE_RULES_ALL_F32 set, in
// TestOpenVINORowsAllF32); it names no path that its pair's registry row names; and under
// OpenVINO's rules the pair's generic loop and kernels give the same bytes.
func TestOpenVINORows(t *testing.T) {
	var f32s []uint32
	for _, row := range ruleRegistry {
		if !row.openvino {
			continue
		}
		t.Run(fmt.Sprintf("%v/%v-%v", row.rules, row.from, row.to), func(t *testing.T) {
			if reg := registryRow(row.from, row.to); reg != nil && reg.paths&row.paths != 0 {
				t.Errorf("names %v, which the registry's row of the pair names too", pathSetNames(reg.paths&row.paths))
			}
			var src []byte
			switch row.from.Bits() {
			case 16:
				src = make([]byte, 2<<16)
				for i := range 1 << 16 {
					binary.LittleEndian.PutUint16(src[2*i:], uint16(i))
				}
			case 32:
				if f32s == nil {
					f32s = f32RulePatterns(testing.Short())
				}
				src = make([]byte, 4*len(f32s))
				for i, u := range f32s {
					binary.LittleEndian.PutUint32(src[4*i:], u)
				}
			default:
				t.Fatalf("no inputs for a %v source", row.from)
			}
			n := len(src) / (row.from.Bits() / 8)
			want, got := make([]byte, n), make([]byte, n)
			openvinoOwnLoop(row.from, row.to)(want, src, n)
			rulesTable[row.rules.variant()][row.from][row.to](got, src, n)
			if i := firstByteDiff(want, got); i >= 0 {
				t.Fatalf("input %#x: row's loop %#02x, OpenVINO's %#02x", src[i*len(src)/n:(i+1)*len(src)/n], got[i], want[i])
			}
			for _, p := range Paths() {
				clear(got)
				if err := (Converter{Path: p, Threads: 1}).Convert(got, row.to, src, row.from, n); err != nil {
					t.Fatal(err)
				}
				if i := firstByteDiff(want, got); i >= 0 {
					t.Fatalf("%s, OpenVINO's rules: element %d: %#02x, want %#02x", p, i, got[i], want[i])
				}
			}
		})
	}
}

// TestOpenVINORowsAllF32 is TestOpenVINORows' comparison of the loops over all 2^32 float32
// patterns, for each openvino row from f32 (some two minutes of CPU each):
//
//	CONVERTPROMOTE_RULES_ALL_F32=1 go test -run TestOpenVINORowsAllF32 ./kernels
func TestOpenVINORowsAllF32(t *testing.T) {
	if os.Getenv("CONVERTPROMOTE_RULES_ALL_F32") == "" {
		t.Skip("all 2^32 float32 patterns for the openvino rows from f32: set CONVERTPROMOTE_RULES_ALL_F32 to run")
	}
	var done []string
	for _, row := range ruleRegistry {
		if !row.openvino || row.from != element.F32 || slices.Contains(done, row.loop) {
			continue
		}
		done = append(done, row.loop)
		t.Run(fmt.Sprintf("%v/%v", row.rules, row.to), func(t *testing.T) {
			own := openvinoOwnLoop(row.from, row.to)
			allF32(t, func() func(src []byte) string {
				want, got := make([]byte, allF32Chunk), make([]byte, allF32Chunk)
				return func(src []byte) string {
					own(want, src, allF32Chunk)
					rulesTable[row.rules.variant()][row.from][row.to](got, src, allF32Chunk)
					if i := firstByteDiff(want, got); i >= 0 {
						return fmt.Sprintf("%#08x: row's loop %#x, OpenVINO's %#x", binary.LittleEndian.Uint32(src[4*i:]), got[i], want[i])
					}
					return ""
				}
			})
		})
	}
}

// allF32Chunk is the number of float32 patterns allF32 hands a check at once.
const allF32Chunk = 1 << 22

// allF32 runs a check on all 2^32 float32 patterns, allF32Chunk consecutive ones at a time (as
// bytes), on GOMAXPROCS goroutines, each with the check that newCheck returns; it reports every
// message a check returns.
func allF32(t *testing.T, newCheck func() func(src []byte) string) {
	var wg sync.WaitGroup
	next := make(chan uint64)
	go func() {
		for c := uint64(0); c < 1<<32; c += allF32Chunk {
			next <- c
		}
		close(next)
	}()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check := newCheck()
			src := make([]byte, 4*allF32Chunk)
			for c := range next {
				for i := range uint64(allF32Chunk) {
					binary.LittleEndian.PutUint32(src[4*i:], uint32(c+i))
				}
				if msg := check(src); msg != "" {
					t.Error(msg)
				}
			}
		}()
	}
	wg.Wait()
}
