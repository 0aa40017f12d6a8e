package kernels_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestParallelSplit converts buffers large enough to be split across goroutines with 2, 3 and 7
// threads and compares with one thread, on every path; counts that are not multiples of the
// split granularity (and an odd count of a packed source) exercise the piece boundaries. Run it
// with -race to check that the pieces do not overlap.
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
		if sb+db < 2*kernels.ParallelMinBytes {
			t.Fatalf("%s→%s n=%d: %d bytes is too small to be split", c.from, c.to, c.n, sb+db)
		}
		src := make([]byte, sb)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		for _, p := range kernels.Paths() {
			want := make([]byte, db)
			if err := kernels.WithPath(p, 1).Convert(want, c.to, src, c.from, c.n); err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{2, 3, 7} {
				got := make([]byte, db+16)
				for i := range got {
					got[i] = 0xA5
				}
				if err := kernels.WithPath(p, threads).Convert(got[:db], c.to, src, c.from, c.n); err != nil {
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
		}
	}
}

// TestSetThreads checks that SetThreads returns the previous setting, that a negative value
// restores the default, and that the package-level Convert agrees with one thread under each.
func TestSetThreads(t *testing.T) {
	defer kernels.SetThreads(kernels.SetThreads(0))
	if prev := kernels.SetThreads(3); prev != 0 {
		t.Fatalf("SetThreads(3) after SetThreads(0) returned %d", prev)
	}
	if prev := kernels.SetThreads(-5); prev != 3 {
		t.Fatalf("SetThreads(-5) returned %d, want 3", prev)
	}
	if prev := kernels.SetThreads(2); prev != 0 {
		t.Fatalf("SetThreads(2) after a negative value returned %d, want 0 (the default)", prev)
	}
	n := 1 << 20
	src := make([]byte, 4*n)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	want := make([]byte, 2*n)
	if err := kernels.WithPath(kernels.Generic, 1).Convert(want, element.F16, src, element.F32, n); err != nil {
		t.Fatal(err)
	}
	for _, th := range []int{1, 2, 0} {
		kernels.SetThreads(th)
		got := make([]byte, 2*n)
		if err := kernels.Convert(got, element.F16, src, element.F32, n); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("SetThreads(%d): Convert differs from the one-thread generic result", th)
		}
	}
}
