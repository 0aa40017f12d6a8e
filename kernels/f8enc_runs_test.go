package kernels_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestSIMDF8EncodeNormalRuns converts float32 → f8e4m3 and f8e5m2 on runs of ordinary values in
// ascending order, so that whole blocks of a kernel lie in the normal f8 range: the AVX2 f32 →
// f8e4m3 kernel takes a shorter route for blocks whose binary16 values are all normal f8e4m3
// values (and the exact one for the others), and the random patterns of the other tests hardly
// ever fill a block with such values. For every binary16 magnitude h from 0x1F00 to 0x63FF (from
// below 2^-6, the smallest normal f8e4m3, to above 464, where f8e4m3 saturates to NaN) it puts,
// with either sign, the exact value of h, the float32 halfway between h and h+1 (a tie of the
// first rounding step) and the float32 on either side of that, which cover every rounding case
// of both steps.
func TestSIMDF8EncodeNormalRuns(t *testing.T) {
	var vals []uint32
	for _, sign := range []uint32{0, 1 << 31} {
		for h := uint16(0x1F00); h < 0x6400; h++ {
			x := math.Float32bits(kernels.F32FromF16(h))
			mid := x + 1<<12 // binary16 keeps 10 of the 23 mantissa bits: halfway is bit 12
			vals = append(vals, sign|x, sign|(mid-1), sign|mid, sign|(mid+1))
		}
	}
	src := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(src[4*i:], v)
	}
	describe := func(i int) string { return fmt.Sprintf("float32 %#08x", vals[i]) }
	ran := 0
	for _, to := range []element.Type{element.F8E4M3, element.F8E5M2} {
		for _, p := range simdPaths() {
			if !kernels.HasKernel(p, element.F32, to) {
				continue
			}
			ran++
			// Whole, and shifted by 1..3 elements so that the blocks start at other values.
			for off := range 4 {
				convertBoth(t, p, element.F32, to, src[4*off:], len(vals)-off, func(i int) string { return describe(i + off) })
			}
		}
	}
	if ran == 0 {
		t.Skip("no SIMD kernel for f32 → f8 on this CPU")
	}
}
