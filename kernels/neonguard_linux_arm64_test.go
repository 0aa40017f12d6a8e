//go:build gc && !purego

package kernels

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/convertpromote/convertpromote/element"
)

// TestNEONGuardPages runs every NEON kernel on buffers that end where an inaccessible page
// begins and on buffers that start where one ends, for every length up to two of the largest
// blocks and one more: a kernel that reads or writes one byte outside src or dst faults, which
// the test reports as a failure. TestNEONLengthsOffsets checks the bytes written; this test also
// catches reads.
func TestNEONGuardPages(t *testing.T) {
	if !hasASIMD {
		t.Skip("no Advanced SIMD")
	}
	page := unix.Getpagesize()
	// guard | src | guard | dst | guard
	mem, err := unix.Mmap(-1, 0, 5*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer unix.Munmap(mem)
	for _, g := range []int{0, 2, 4} {
		if err := unix.Mprotect(mem[g*page:(g+1)*page], unix.PROT_NONE); err != nil {
			t.Skip("mprotect:", err)
		}
	}
	srcPage, dstPage := mem[page:2*page], mem[3*page:4*page]
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	const maxN = 2*32 + 1 // the 4-bit decoders' block is 32 elements, every other block 16 or 8
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range neonPairs {
		from, to := p[0], p[1]
		ref := refKernel(from, to)
		for _, bfc := range bf16Branches() {
			if bfc && !(from == element.F32 && to == element.BF16) {
				continue
			}
			withBFCVTN(bfc, func() {
				k := archKernel(NEON, from, to)
				for n := 0; n <= maxN; n++ {
					sb, db := outBytes(from, n), outBytes(to, n)
					for i := range srcPage {
						srcPage[i] = byte(rng.Uint32())
					}
					want := make([]byte, db)
					for _, atEnd := range []bool{true, false} {
						src, dst := srcPage[:sb:sb], dstPage[:db:db]
						if atEnd {
							src, dst = srcPage[page-sb:], dstPage[page-db:]
						}
						ref(want, src, n)
						if err := runGuarded(k, dst, src, n); err != nil {
							t.Fatalf("%s → %s (BFCVTN %v) n=%d, buffers at the end of their pages %v: %v",
								from, to, bfc, n, atEnd, err)
						}
						if d := firstDiff(from, to, src, dst, want); d != "" {
							t.Fatalf("%s → %s (BFCVTN %v) n=%d, buffers at the end of their pages %v: %s",
								from, to, bfc, n, atEnd, d)
						}
					}
				}
			})
		}
	}
}

// runGuarded runs k and returns the fault it caused, if any (debug.SetPanicOnFault must be on).
func runGuarded(k loopFunc, dst, src []byte, n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fault: %v", r)
		}
	}()
	k(dst, src, n)
	return nil
}
