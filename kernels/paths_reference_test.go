package kernels

// Every SIMD path of this CPU against the independent reference (refKernel, reference_test.go),
// for every registry pair the path has: the same oracle on every architecture.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// TestPathsMatchReference runs each path's kernel of every registry pair, and the pure-Go loop,
// on sourceFor's inputs (every 8- and 16-bit pattern, every packed 4-bit byte, structured and
// random 32- and 64-bit patterns) and compares the bytes with refKernel's; a kernel with
// branches that a switch selects (kernelBranches) runs on each. Its subtests are pair/path; a
// pair's subtest computes the reference once for all its paths, and runs in parallel unless it
// throws such a switch.
func TestPathsMatchReference(t *testing.T) {
	for _, r := range registry {
		t.Run(pairName(r.from, r.to), func(t *testing.T) {
			branches := map[Path][]kernelBranch{}
			for _, p := range Paths() {
				branches[p] = []kernelBranch{{"", func(f func()) { f() }}}
				if kernelBranches != nil && p != Generic {
					if bs := kernelBranches(p, r.from, r.to); len(bs) > 0 {
						branches[p] = bs
					}
				}
			}
			if !slices.ContainsFunc(Paths(), func(p Path) bool { return len(branches[p]) > 1 }) {
				t.Parallel()
			}
			src, n := sourceFor(r.from, randomCount())
			want := make([]byte, outBytes(r.to, n))
			refKernel(r.from, r.to)(want, src, n)
			for _, p := range Paths() {
				var k loopFunc
				switch {
				case p == Generic:
					k = genericKernel(r.from, r.to)
				case r.paths.has(p):
					k = archKernel(p, r.from, r.to)
				default:
					continue
				}
				t.Run(p.String(), func(t *testing.T) {
					if k == nil {
						t.Fatalf("%s %s → %s: no kernel", p, r.from, r.to)
					}
					for _, b := range branches[p] {
						b.run(func() {
							got := make([]byte, len(want))
							k(got, src, n)
							if d := firstDiff(r.from, r.to, src, got, want); d != "" {
								t.Errorf("%s%s %s → %s, %d elements: %s", p, b.name, r.from, r.to, n, d)
							}
						})
					}
				})
			}
		})
	}
}

// kernelBranch is one branch of a kernel that a switch selects: its name (for messages) and a
// function that runs its argument with the switch set for it.
type kernelBranch struct {
	name string
	run  func(func())
}

// kernelBranches, when an architecture's tests set it, returns the branches of path p's kernel
// for the pair that this CPU can run, or nil for a kernel with one (see neon_arm64_test.go:
// f32 → bf16 with and without BFCVTN).
var kernelBranches func(p Path, from, to element.Type) []kernelBranch

// structured32 returns 32-bit patterns: every high half with a set of low halves chosen around
// the rounding points of f16 (bit 13), bf16 (bit 16) and integer truncation, plus random ones.
func structured32(rng *rand.Rand, random int) []uint32 {
	lows := []uint32{0, 1, 0x0FFF, 0x1000, 0x1001, 0x2000, 0x3000, 0x7FFF, 0x8000, 0x8001, 0xFFFF}
	out := make([]uint32, 0, 65536*(len(lows)+1)+random)
	for h := range uint32(65536) {
		for _, l := range lows {
			out = append(out, h<<16|l)
		}
		out = append(out, h<<16|rng.Uint32()&0xFFFF)
	}
	for range random {
		out = append(out, rng.Uint32())
	}
	return out
}

// structured64 returns 64-bit patterns: every top 16 bits with low parts around the f32
// rounding point (bit 28 of the f64 mantissa) and the 32-bit boundary, plus random ones.
func structured64(rng *rand.Rand, random int) []uint64 {
	lows := []uint64{0, 1, 1<<28 - 1, 1 << 28, 1<<28 + 1, 3 << 28, 1 << 29, 0xFFFFFFFF, 0x80000000,
		0x7FFFFFFF, 1<<48 - 1, 0xFFFF_FFFF_0000}
	out := make([]uint64, 0, 65536*(len(lows)+1)+random)
	for h := range uint64(65536) {
		for _, l := range lows {
			out = append(out, h<<48|l)
		}
		out = append(out, h<<48|rng.Uint64()&(1<<48-1))
	}
	for range random {
		out = append(out, rng.Uint64())
	}
	return out
}

// sourceFor returns the test input for a source type and its element count: every pattern of
// 8- and 16-bit types, every byte of packed 4-bit types, structured and random patterns of
// 32- and 64-bit types.
func sourceFor(from element.Type, random int) ([]byte, int) {
	rng := rand.New(rand.NewPCG(uint64(from), 0x5eed))
	switch from.Bits() {
	case 4:
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		return b, 512
	case 8:
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		return b, 256
	case 16:
		b := make([]byte, 2*65536)
		for i := range 65536 {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(i))
		}
		return b, 65536
	case 32:
		xs := structured32(rng, random)
		b := make([]byte, 4*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
		return b, len(xs)
	case 64:
		xs := structured64(rng, random)
		b := make([]byte, 8*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		return b, len(xs)
	}
	panic("no source for " + from.String())
}

// firstDiff describes the first element where got and want differ, or returns "".
func firstDiff(from, to element.Type, src, got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	ob := to.Bits()
	for i := range got {
		if got[i] != want[i] {
			var e int
			if ob >= 8 {
				e = i / (ob / 8)
			} else {
				e = i * 8 / ob
			}
			ib := from.Bits()
			var in []byte
			if ib >= 8 {
				in = src[e*ib/8 : (e+1)*ib/8]
			} else {
				in = src[e*ib/8 : e*ib/8+1]
			}
			var g, w []byte
			if ob >= 8 {
				g, w = got[e*ob/8:(e+1)*ob/8], want[e*ob/8:(e+1)*ob/8]
			} else {
				g, w = got[i:i+1], want[i:i+1]
			}
			return fmt.Sprintf("element %d: source % x: got % x, want % x", e, in, g, w)
		}
	}
	return "lengths differ"
}

func outBytes(to element.Type, n int) int {
	b, err := to.ByteSize(int64(n))
	if err != nil {
		panic(err)
	}
	return int(b)
}
