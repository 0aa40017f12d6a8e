package bench

import (
	"sync"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/x448/float16"
)

// x448Func returns the per-element loop of github.com/x448/float16 for f32→f16 or f16→f32, over
// typed slices that alias the byte buffers (as code holding []float32 and []float16.Float16
// would run it), split across threads goroutines like the kernels split; nil for other pairs.
func x448Func(from, to element.Type, threads int) ConvertFunc {
	switch {
	case from == element.F32 && to == element.F16:
		return func(dst, src []byte, n int) error {
			s := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(src))), n)
			d := unsafe.Slice((*float16.Float16)(unsafe.Pointer(unsafe.SliceData(dst))), n)
			split(n, 6*n, threads, func(lo, hi int) {
				d := d[lo:hi]
				for i, v := range s[lo:hi] {
					d[i] = float16.Fromfloat32(v)
				}
			})
			return nil
		}
	case from == element.F16 && to == element.F32:
		return func(dst, src []byte, n int) error {
			s := unsafe.Slice((*float16.Float16)(unsafe.Pointer(unsafe.SliceData(src))), n)
			d := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(dst))), n)
			split(n, 6*n, threads, func(lo, hi int) {
				d := d[lo:hi]
				for i, v := range s[lo:hi] {
					d[i] = v.Float32()
				}
			})
			return nil
		}
	}
	return nil
}

// copyOp returns an Op that copies src into dst (equal lengths), split across threads
// goroutines by the same rule as the kernels' split.
func copyOp(dst, src []byte, threads int) Op {
	n := len(src)
	if threads <= 1 || 2*n < 2*kernels.ParallelMinBytes {
		// One piece: call copy directly, so the bound carries no closure overhead.
		return func() error {
			copy(dst, src)
			return nil
		}
	}
	return func() error {
		split(n, 2*n, threads, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
		return nil
	}
}

// split runs f over [0, n) in up to threads pieces, with package kernels' size rule for a
// conversion that moves total bytes: one piece below 2·kernels.ParallelMinBytes, otherwise at
// most one piece per ParallelMinBytes, each a multiple of 64 units long (except the last, which
// runs on the calling goroutine). The pieces are fixed, one a goroutine, where kernels hands out
// smaller chunks from a shared counter, so that on a busy machine its caller takes the chunks a
// helper waiting for a core has not started.
func split(n, total, threads int, f func(lo, hi int)) {
	t := threads
	if t > 1 && total >= 2*kernels.ParallelMinBytes {
		t = min(t, total/kernels.ParallelMinBytes)
	} else {
		t = 1
	}
	if t <= 1 || n < 2*64 {
		f(0, n)
		return
	}
	per := ((n+t-1)/t + 63) / 64 * 64 // ceil(n/t) rounded up to 64: never more than t pieces
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		if hi == n {
			f(lo, hi)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// alignedBytes returns a zeroed slice of n bytes that starts on a 64-byte boundary.
func alignedBytes(n int64) []byte {
	b := make([]byte, n+64)
	off := (64 - uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64) % 64
	return b[off : int64(off)+n : int64(off)+n]
}

// addr is the address of b's first element.
func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
