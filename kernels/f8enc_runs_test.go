package kernels_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestSIMDF8EncodeNormalRuns converts float32 and binary16 → f8e4m3 and f8e5m2 on runs of
// ordinary values in ascending order, so that whole blocks of a kernel lie in the normal f8
// range: the AVX2 → f8e4m3 kernels take a shorter route for groups of values that are all normal
// f8e4m3 values, f16 → f8e5m2 for groups without infinities and NaNs (and the exact one for the
// others, and for a few groups after those), and random patterns hardly ever fill a group with
// such values. For every binary16 magnitude h from 0x1F00 to 0x7FFF (from below 2^-6, the
// smallest normal f8e4m3, past 464, where f8e4m3 saturates to NaN, to the infinity and the NaNs)
// the float32 run holds, with either sign, the exact value of h, the float32 halfway between
// h and h+1 (a tie of the first rounding step) and the float32 on either side of that, which
// cover every rounding case of both steps; the binary16 run holds h. Each run is converted whole,
// from its first value of 2^-6 or more (so that the short route starts on it), and both shifted
// by 1..3 elements so that the groups start at other values.
func TestSIMDF8EncodeNormalRuns(t *testing.T) {
	const lo, hi, normal = 0x1F00, 0x8000, 0x2400
	var f32s []uint32
	var f16s []uint16
	var f32Start, f16Start []int // where the values from 2^-6 up begin, for each sign
	for _, sign := range []uint16{0, 0x8000} {
		for h := uint16(lo); h < hi; h++ {
			if h == normal {
				f32Start, f16Start = append(f32Start, len(f32s)), append(f16Start, len(f16s))
			}
			x := math.Float32bits(kernels.F32FromF16(h))
			mid := x + 1<<12 // binary16 keeps 10 of the 23 mantissa bits: halfway is bit 12
			s := uint32(sign) << 16
			f32s = append(f32s, s|x, s|(mid-1), s|mid, s|(mid+1))
			f16s = append(f16s, sign|h)
		}
	}
	type run struct {
		from   element.Type
		src    []byte
		n      int
		starts []int
		desc   func(i int) string
	}
	r32 := run{from: element.F32, src: make([]byte, 4*len(f32s)), n: len(f32s), starts: f32Start,
		desc: func(i int) string { return fmt.Sprintf("float32 %#08x", f32s[i]) }}
	for i, v := range f32s {
		binary.LittleEndian.PutUint32(r32.src[4*i:], v)
	}
	r16 := run{from: element.F16, src: make([]byte, 2*len(f16s)), n: len(f16s), starts: f16Start,
		desc: func(i int) string { return fmt.Sprintf("binary16 %#04x", f16s[i]) }}
	for i, v := range f16s {
		binary.LittleEndian.PutUint16(r16.src[2*i:], v)
	}
	runs := map[element.Type]run{element.F32: r32, element.F16: r16}
	var pairs [][2]element.Type
	for _, from := range []element.Type{element.F32, element.F16} {
		for _, to := range []element.Type{element.F8E4M3, element.F8E5M2} {
			if len(pairPaths(from, to)) > 0 {
				pairs = append(pairs, [2]element.Type{from, to})
			}
		}
	}
	if len(pairs) == 0 {
		t.Skip("no SIMD kernel for f32, f16 → f8 on this CPU")
	}
	eachSIMDPairPath(t, pairs, func(t *testing.T, p kernels.Path, from, to element.Type) {
		r := runs[from]
		esz := r.from.Bits() / 8
		for _, start := range append([]int{0}, r.starts...) {
			for off := range 4 {
				first := start + off
				convertBoth(t, p, r.from, to, r.src[esz*first:], r.n-first,
					func(i int) string { return r.desc(first + i) })
			}
		}
	})
}
