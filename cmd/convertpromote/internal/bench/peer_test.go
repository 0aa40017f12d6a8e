package bench

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/x448/float16"
)

func TestSplitCoversEveryIndexOnce(t *testing.T) {
	big := kernels.ParallelMinBytes // bytes per element in the "total" argument below
	for _, tc := range []struct{ n, total, threads, pieces int }{
		{1000, 1000, 4, 1},                   // small: one piece
		{1000, 2 * big, 1, 1},                // one thread
		{100, 4 * big, 4, 1},                 // fewer than 128 units: one piece
		{100000, 2 * big, 4, 2},              // total allows 2 pieces
		{100000, 10 * big, 4, 4},             // 4 threads, plenty of work
		{100003, 10 * big, 3, 3},             // uneven
		{64*3 + 1, 10 * big, 3, 2},           // ceil(193/3) = 65 rounds up to 128: two pieces
		{1 << 20, 3*big - 1, 8, 2},           // total/ParallelMinBytes = 2
		{128, 100 * big, 100, 2},             // 64-unit pieces: only two
		{1<<20 + 7, 100 * big, 7, 7},         // 7 pieces
		{1 << 16, 2*big - 1, 2, 1},           // just under the threshold
		{4095, 16 * big, 16, 16},             // pieces of 256 (255.9 rounded up) and a short last
		{4096 - 64*15 + 1, 16 * big, 16, 13}, // rounding up to 64 leaves fewer pieces
	} {
		var mu sync.Mutex
		seen := make([]int, tc.n)
		pieces := 0
		split(tc.n, tc.total, tc.threads, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			pieces++
			if lo%64 != 0 {
				t.Errorf("%+v: piece starts at %d, not a multiple of 64", tc, lo)
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%+v: index %d covered %d times", tc, i, c)
			}
		}
		if pieces != tc.pieces {
			t.Errorf("%+v: %d pieces, want %d", tc, pieces, tc.pieces)
		}
	}
}

func TestCopyOp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, threads := range []int{1, 2, 3} {
		for _, n := range []int{1, 1000, 3 << 20} {
			src, dst := alignedBytes(int64(n)), alignedBytes(int64(n))
			fillBytes(src, rng)
			if err := copyOp(dst, src, threads)(); err != nil || !slices.Equal(dst, src) {
				t.Errorf("copyOp n=%d threads=%d: copy differs (err %v)", n, threads, err)
			}
		}
	}
}

func TestAlignedBytes(t *testing.T) {
	for _, n := range []int64{0, 1, 63, 64, 1000, 1 << 20} {
		b := alignedBytes(n)
		if int64(len(b)) != n || int64(cap(b)) != n {
			t.Errorf("alignedBytes(%d): len %d cap %d", n, len(b), cap(b))
		}
		if n > 0 && addr(b)%64 != 0 {
			t.Errorf("alignedBytes(%d) starts at %#x", n, addr(b))
		}
	}
}

func TestX448Paths(t *testing.T) {
	if x448Func(element.F32, element.BF16, 1) != nil || x448Func(element.F16, element.F64, 1) != nil ||
		x448Func(element.I8, element.F32, 1) != nil {
		t.Error("x448 offered for a pair other than f32:f16 and f16:f32")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, threads := range []int{1, 2} {
		n := 1<<18 + 5 // 1.5 MiB of traffic: split when threads = 2
		src := alignedBytes(int64(4 * n))
		dst := alignedBytes(int64(2 * n))
		for i := range n {
			binary.LittleEndian.PutUint32(src[4*i:], rng.Uint32()) // every bit pattern, NaNs included
		}
		if err := x448Func(element.F32, element.F16, threads)(dst, src, n); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			f := math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
			if got, want := binary.LittleEndian.Uint16(dst[2*i:]), float16.Fromfloat32(f).Bits(); got != want {
				t.Fatalf("threads %d: f32→f16 element %d (%#x): %#04x, want %#04x", threads, i, math.Float32bits(f), got, want)
			}
		}
		back := alignedBytes(int64(4 * n))
		if err := x448Func(element.F16, element.F32, threads)(back, dst, n); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			h := float16.Frombits(binary.LittleEndian.Uint16(dst[2*i:]))
			if got, want := binary.LittleEndian.Uint32(back[4*i:]), math.Float32bits(h.Float32()); got != want {
				t.Fatalf("threads %d: f16→f32 element %d (%#04x): %#x, want %#x", threads, i, h.Bits(), got, want)
			}
		}
	}
}
