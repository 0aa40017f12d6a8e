package onnxruntime

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

func TestSmoke(t *testing.T) {
	needORT(t)
	t.Log(Version())
	vals := []float32{0, 1, 465, 448, 464, 1e9, float32(math.Inf(1)), 1.5, 3, 0.75}
	src := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(src[4*i:], math.Float32bits(v))
	}
	for _, a := range []CastAttrs{{}, {NoSaturate: true}} {
		c, err := NewCast(element.F32, element.F8E4M3, a)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(vals))
		if err := c.Run(dst, src, len(vals)); err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v % x", a, dst)
		c.Close()
	}
	for _, m := range []string{"up", "down", "nearest"} {
		c, err := NewCast(element.F32, element.F8E8M0, CastAttrs{RoundMode: m})
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(vals))
		if err := c.Run(dst, src, len(vals)); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s % x", m, dst)
		c.Close()
	}
	c, err := NewCast(element.F4E2M1, element.F32, CastAttrs{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 16)
	if err := c.Run(out, []byte{0x21, 0xf7}, 4); err != nil {
		t.Fatal(err)
	}
	t.Logf("f4 % x", out)
}
