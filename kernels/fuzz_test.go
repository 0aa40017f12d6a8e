package kernels_test

import (
	"bytes"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// FuzzConvert is a differential fuzz test: any pair of types, any count and any source bytes
// must give the same destination bytes on every path of this CPU as on the pure-Go path, never
// touch the destination past its size, and fail (without writing) exactly when the pure-Go path
// fails. Each input runs the subtests pair/path ("f32-f16/avx512") under its own name.
func FuzzConvert(f *testing.F) {
	f.Add(uint8(element.F32), uint8(element.F16), uint16(33), []byte("\x00\x00\xc0\x7f\x01\x00\x80\x7f\xff\xff\x7f\x7f"))
	f.Add(uint8(element.F16), uint8(element.F8E4M3), uint16(100), []byte{0x7c, 0x01, 0x5f, 0x40, 0x00, 0x80})
	f.Add(uint8(element.F32), uint8(element.I32), uint16(70), []byte{0x00, 0x00, 0x00, 0x4f, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint8(element.NF4), uint8(element.F16), uint16(129), []byte{0xbf, 0x12})
	f.Add(uint8(element.U3), uint8(element.F32), uint16(17), []byte{0xa5, 0x5a, 0xff})
	f.Fuzz(func(t *testing.T, fromB, toB uint8, count uint16, seed []byte) {
		from, to := element.Type(fromB%40), element.Type(toB%40)
		n := int(count % 300)
		sb, err := from.ByteSize(int64(n))
		if err != nil || len(seed) == 0 {
			sb = 0
		}
		src := make([]byte, sb)
		for i := range src {
			src[i] = seed[i%len(seed)] ^ byte(i/len(seed)*131)
		}
		db, _ := to.ByteSize(int64(n))
		const guard = 16
		want := bytes.Repeat([]byte{0xA5}, int(db)+guard)
		errG := kernels.WithPath(kernels.Generic, 1).Convert(want[:db], to, src, from, n)
		if errG != nil && kernels.Supported(from, to) && sb > 0 {
			t.Fatalf("%s→%s n=%d: generic failed on a well-sized buffer: %v", from, to, n, errG)
		}
		t.Run(kernels.PairName(from, to), func(t *testing.T) {
			for _, p := range kernels.Paths() {
				t.Run(p.String(), func(t *testing.T) {
					got := bytes.Repeat([]byte{0xA5}, int(db)+guard)
					err := kernels.WithPath(p, 1).Convert(got[:db], to, src, from, n)
					if (err == nil) != (errG == nil) {
						t.Fatalf("%s %s→%s n=%d: error %v, generic %v", p, from, to, n, err, errG)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s %s→%s n=%d: output differs from generic\nsrc %x\ngot  %x\nwant %x", p, from, to, n, src, got, want)
					}
				})
			}
		})
	})
}
