package kernels

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// convF32 converts one float32 under rules r to type to and returns the destination bytes.
func convF32(t *testing.T, r Rules, to element.Type, x float32) []byte {
	t.Helper()
	src := binary.LittleEndian.AppendUint32(nil, math.Float32bits(x))
	dst := make([]byte, 8)
	if err := (Converter{Rules: r}).Convert(dst, to, src, element.F32, 1); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRulesIssueExamples: the examples of the rule sets' description, which differ between the
// rule sets.
func TestRulesIssueExamples(t *testing.T) {
	for _, c := range []struct {
		r    Rules
		to   element.Type
		x    float32
		want byte
	}{
		{Rules{Set: ONNX}, element.F8E4M3, 465, 0x7E},
		{Rules{Set: ONNX, NoSaturate: true}, element.F8E4M3, 465, 0x7F},
		{Rules{}, element.F8E4M3, 465, 0x7F},
		{Rules{Set: MLDtypes}, element.F8E4M3, math.Float32frombits(0x3a8005f0), 0x01},
		{Rules{}, element.F8E4M3, math.Float32frombits(0x3a8005f0), 0x00},
		{Rules{Set: ONNX}, element.F8E4M3, float32(math.Inf(-1)), 0xFE},
		{Rules{Set: ONNX, NoSaturate: true}, element.F8E5M2, float32(math.Inf(-1)), 0xFC},
		{Rules{Set: ONNX, NoSaturate: true}, element.F8E4M3FNUZ, 1e6, 0x80},
		{Rules{Set: ONNX}, element.F8E4M3FNUZ, -1e6, 0xFF},
		{Rules{Set: MLDtypes}, element.F8E5M2FNUZ, float32(math.Copysign(0, -1)), 0x00},
		{Rules{Set: MLDtypes}, element.F8E8M0, 0, 0xFF},
		{Rules{Set: MLDtypes}, element.F8E8M0, 3, 0x81},
		{Rules{Set: ONNX}, element.F8E8M0, 3, 0x81},
		{Rules{Set: ONNX, E8M0Round: RoundDown}, element.F8E8M0, 3, 0x80},
		{Rules{Set: ONNX, E8M0Round: RoundNearest}, element.F8E8M0, 2.9, 0x80},
		{Rules{}, element.F8E8M0, 3, 0x80},
		{Rules{Set: MLDtypes}, element.F4E2M1, float32(math.NaN()), 0x08},
		{Rules{Set: ONNX}, element.F4E2M1, float32(math.NaN()), 0x07},
	} {
		if got := convF32(t, c.r, c.to, c.x); got[0] != c.want {
			t.Errorf("%+v %v → %v = %#02x, want %#02x", c.r, c.x, c.to, got[0], c.want)
		}
	}
}
