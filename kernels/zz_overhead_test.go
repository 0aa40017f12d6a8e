//go:build amd64 && !purego

package kernels

import (
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

func BenchmarkZZOverhead(b *testing.B) {
	src := make([]byte, 1<<14)
	dst := make([]byte, 1<<14)
	for _, n := range []int{32, 1024} {
		f := avx512Table[element.F32][element.F16]
		g := avx512Table[element.F32][element.F8E4M3]
		b.Run("e4m3/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				g(dst, src, n)
			}
		})
		b.Run("direct/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				f(dst, src, n)
			}
		})
		b.Run("convert/"+itoa(n), func(b *testing.B) {
			c := WithPath(AVX512, 1)
			for b.Loop() {
				c.Convert(dst, element.F16, src, element.F32, n)
			}
		})
		b.Run("copy/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				copy(dst[:3*n], src[:3*n])
			}
		})
	}
}

func itoa(n int) string {
	s := "n"
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
