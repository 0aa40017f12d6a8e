package kernels

import "github.com/convertpromote/convertpromote/element"

// NF4FromF32 returns the nf4 code (0..15) nearest to f by OpenVINO's threshold tree: f, widened
// to float64, moves above code i when it is strictly greater than element.NF4Midpoints[i]; a
// value exactly on a midpoint takes the lower code.
//
// Special cases are:
//
//	NF4FromF32(±0) = 7 (the code of 0.0)
//	NF4FromF32(x) = 0 for x ≤ -0.8480964004993439, including -Inf
//	NF4FromF32(x) = 15 for x > 0.8614784181118011, including +Inf
//	NF4FromF32(NaN) = 0
func NF4FromF32(f float32) uint8 { return nf4FromF64(float64(f)) }

// nf4FromF64 counts the midpoints below x: a NaN compares false with all of them, giving 0.
func nf4FromF64(x float64) uint8 {
	m := &element.NF4Midpoints
	var c uint8
	if x > m[7] {
		c = 8
	}
	if x > m[c+3] {
		c += 4
	}
	if x > m[c+1] {
		c += 2
	}
	if x > m[c] {
		c++
	}
	return c
}

// F32FromNF4 decodes the low 4 bits of c as an nf4 code: element.NF4Codes[c&0xF], exact. The high
// bits are ignored.
func F32FromNF4(c uint8) float32 { return element.NF4Codes[c&0xF] }
