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
// catches reads. Its subtests are pair/neon, each with pages of its own.
func TestNEONGuardPages(t *testing.T) {
	if !hasASIMD {
		t.Skip("no Advanced SIMD")
	}
	const maxN = 2*32 + 1 // the 4-bit decoders' block is 32 elements, every other block 16 or 8
	eachNEONPair(t, func(t *testing.T, from, to element.Type) {
		srcPage, dstPage := guardedPages(t)
		page := len(srcPage)
		// SetPanicOnFault applies to the goroutine that calls it: this subtest's.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		rng := rand.New(rand.NewPCG(1, uint64(from)<<8|uint64(to)))
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
	})
}

// guardedPages maps five pages, guard | src | guard | dst | guard, with the guards inaccessible,
// and returns the src and dst pages; they are unmapped when t ends. It skips t when the system
// refuses the mapping.
func guardedPages(t *testing.T) (src, dst []byte) {
	page := unix.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 5*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { unix.Munmap(mem) })
	for _, g := range []int{0, 2, 4} {
		if err := unix.Mprotect(mem[g*page:(g+1)*page], unix.PROT_NONE); err != nil {
			t.Skip("mprotect:", err)
		}
	}
	return mem[page : 2*page], mem[3*page : 4*page]
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
