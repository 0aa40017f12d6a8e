package membound_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/convertpromote/convertpromote/internal/membound"
)

// want computes Move's documented result with plain Go.
func want(dlen int, src []byte) []byte {
	out := make([]byte, 0, dlen)
	switch {
	case dlen == len(src)/2:
		for j := 0; j < len(src); j += 64 {
			for i := range 32 {
				out = append(out, src[j+i]^src[j+32+i])
			}
		}
	default:
		k := dlen / len(src)
		for j := 0; j < len(src); j += 32 {
			for range k {
				out = append(out, src[j:j+32]...)
			}
		}
	}
	return out
}

func TestMove(t *testing.T) {
	if !membound.Available() {
		t.Skip("no AVX2 on amd64")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 128, 256, 128 * 37} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		for _, dlen := range []int{n / 2, n, 2 * n, 4 * n} {
			buf := membound.Aligned(dlen + 64)
			type mover struct {
				name string
				f    func(dst, src []byte) error
			}
			moves := []mover{{"Move", membound.Move}}
			if dlen == 4*n {
				moves = append(moves, mover{"MoveCached", membound.MoveCached})
			}
			for _, m := range moves {
				for i := range buf {
					buf[i] = 0xA5
				}
				if err := m.f(buf[:dlen], src); err != nil {
					t.Fatalf("%s(%d bytes, %d bytes): %v", m.name, dlen, n, err)
				}
				if n > 0 && !bytes.Equal(buf[:dlen], want(dlen, src)) {
					t.Errorf("%s(%d bytes, %d bytes): wrong result", m.name, dlen, n)
				}
				if i := slices.IndexFunc(buf[dlen:], func(c byte) bool { return c != 0xA5 }); i >= 0 {
					t.Errorf("%s(%d bytes, %d bytes) wrote the guard byte %d", m.name, dlen, n, dlen+i)
				}
			}
		}
	}
}

func TestMoveErrors(t *testing.T) {
	if !membound.Available() {
		if err := membound.Move(make([]byte, 128), make([]byte, 128)); err == nil {
			t.Fatal("Move without AVX2 returned nil")
		}
		return
	}
	a := membound.Aligned(1024)
	for _, c := range []struct {
		dst, src []byte
	}{
		{a[:100], make([]byte, 100)},  // not a multiple of Block
		{a[:384], make([]byte, 128)},  // ratio 1:3
		{a[1:129], make([]byte, 128)}, // misaligned destination
	} {
		if err := membound.Move(c.dst, c.src); err == nil {
			t.Errorf("Move(%d bytes, %d bytes) returned nil", len(c.dst), len(c.src))
		}
	}
	for _, c := range []struct {
		dst, src []byte
	}{
		{a[:400], make([]byte, 100)},  // not a multiple of Block
		{a[:256], make([]byte, 128)},  // ratio 1:2
		{a[1:513], make([]byte, 128)}, // misaligned destination
	} {
		if err := membound.MoveCached(c.dst, c.src); err == nil {
			t.Errorf("MoveCached(%d bytes, %d bytes) returned nil", len(c.dst), len(c.src))
		}
	}
}

// BenchmarkMoveCached measures MoveCached (1:4, ordinary stores) against copy() of the same
// traffic, alternating, in batches of 64 calls (one call at these sizes is too short to time
// alone), at the traffic of decoding 16 Ki and 256 Ki elements of 4-bit codes to a 16-bit type:
// the most a decoder of that ratio can reach against copy() where its buffers stay in the
// caches (x_copy, as in BenchmarkMove). Run it with e.g.
//
//	go test -run XXX -bench MoveCached -benchtime 2000x ./internal/membound
func BenchmarkMoveCached(b *testing.B) {
	if !membound.Available() {
		b.Skip("no AVX2 on amd64")
	}
	for _, sz := range []struct {
		name string
		n    int
	}{{"16Ki", 16 << 10}, {"256Ki", 256 << 10}} {
		b.Run(sz.name, func(b *testing.B) {
			traffic := 5 * sz.n / 2 // half a byte read, two written, an element
			src, dst := random(sz.n/2), membound.Aligned(2*sz.n)
			csrc, cdst := random(traffic/2), membound.Aligned(traffic/2)
			move := func() {
				if err := membound.MoveCached(dst, src); err != nil {
					b.Fatal(err)
				}
			}
			againstCopy(b, traffic, 64, move, func() { copy(cdst, csrc) })
		})
	}
}

// BenchmarkMove measures Move in each ratio at the traffic of the ladder's two largest sizes for
// a pair of that ratio (4 Mi and 64 Mi elements), against copy() of the same traffic, in
// alternating batches in one run, on random data. The metric x_copy is copy()'s median batch
// time over Move's: the most a kernel of that ratio can reach against copy() at that size, when
// it stores non-temporally. ns/op is the time of one Move and one copy(). Run it with e.g.
//
//	go test -run XXX -bench Move -benchtime 20x ./internal/membound
func BenchmarkMove(b *testing.B) {
	if !membound.Available() {
		b.Skip("no AVX2 on amd64")
	}
	for _, c := range []struct {
		name     string
		src, dst int // bytes an element
	}{{"2:1", 4, 2}, {"1:1", 4, 4}, {"1:2", 2, 4}, {"1:4", 1, 4}} {
		for _, sz := range []struct {
			name string
			n    int
		}{{"4Mi", 4 << 20}, {"64Mi", 64 << 20}} {
			b.Run(c.name+"/"+sz.name, func(b *testing.B) {
				traffic := (c.src + c.dst) * sz.n
				src, dst := random(c.src*sz.n), membound.Aligned(c.dst*sz.n)
				csrc, cdst := random(traffic/2), membound.Aligned(traffic/2)
				move := func() {
					if err := membound.Move(dst, src); err != nil {
						b.Fatal(err)
					}
				}
				cp := func() { copy(cdst, csrc) }
				move() // page in the destinations
				cp()
				againstCopy(b, traffic, 1, move, cp)
			})
		}
	}
}

// againstCopy times batches of batch calls of move and of cp, alternating, once an iteration of
// b, and reports both speeds for traffic bytes a call and x_copy, cp's median over move's.
func againstCopy(b *testing.B, traffic, batch int, move, cp func()) {
	batched := func(f func()) func() {
		return func() {
			for range batch {
				f()
			}
		}
	}
	var tm, tc []time.Duration
	for b.Loop() {
		tm = append(tm, timed(batched(move)))
		tc = append(tc, timed(batched(cp)))
	}
	gbps := func(d time.Duration) float64 { return float64(batch*traffic) / float64(d.Nanoseconds()) }
	b.ReportMetric(gbps(median(tm)), "GB/s")
	b.ReportMetric(gbps(median(tc)), "copy_GB/s")
	b.ReportMetric(float64(median(tc))/float64(median(tm)), "x_copy")
}

func random(n int) []byte {
	r := rand.New(rand.NewPCG(3, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func timed(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// ExampleMove copies 256 bytes with non-temporal stores.
func ExampleMove() {
	if !membound.Available() {
		fmt.Println("equal: true")
		return
	}
	src := bytes.Repeat([]byte("convertpromote! "), 16)
	dst := membound.Aligned(len(src))
	if err := membound.Move(dst, src); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("equal:", bytes.Equal(dst, src))
	// Output: equal: true
}
