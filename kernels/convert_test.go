package kernels_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestOverlap checks that Convert refuses a destination that shares memory with the source, on
// every path and on both sides of the size from which a conversion can be split across
// goroutines (2·ParallelMinBytes of traffic), and writes nothing; buffers that only touch end to
// end are accepted. Its subtests are pair/path.
func TestOverlap(t *testing.T) {
	e := element.MustParse
	for _, c := range []struct {
		from, to element.Type
		n        int
	}{
		{e("f32"), e("i32"), 100}, {e("f32"), e("f16"), 1000}, {e("f16"), e("f32"), 1000},
		{e("u4"), e("i4"), 33}, {e("f32"), e("f32"), 10}, {e("i8"), e("f32"), kernels.ParallelMinBytes / 4},
		{e("i8"), e("f32"), kernels.ParallelMinBytes / 2}, // 1.25 MiB: split across two goroutines
	} {
		sb, _ := c.from.ByteSize(int64(c.n))
		db, _ := c.to.ByteSize(int64(c.n))
		t.Run(kernels.PairName(c.from, c.to), func(t *testing.T) {
			t.Parallel()
			for _, p := range kernels.Paths() {
				t.Run(p.String(), func(t *testing.T) {
					t.Parallel()
					conv := kernels.WithPath(p, 2)
					if split := conv.Goroutines(c.from, c.to, c.n) > 1; split != (sb+db >= 2*kernels.ParallelMinBytes) {
						t.Fatalf("%s %s→%s n=%d: split across goroutines %v for %d bytes", p, c.from, c.to, c.n, split, sb+db)
					}
					buf := make([]byte, sb+2*db)
					for i := range buf {
						buf[i] = byte(i*7 + 1)
					}
					// dst starting at each of these offsets from the start of src overlaps src (or
					// src overlaps dst) in all but the last two cases.
					for _, off := range []int64{0, 1, sb / 2, sb - 1, -db + 1, -db / 2, sb, -db} {
						base := int64(db) // room for a destination in front of the source
						if base+off < 0 {
							continue
						}
						src := buf[base : base+sb]
						dst := buf[base+off : base+off+db]
						before := bytes.Clone(buf)
						err := conv.Convert(dst, c.to, src, c.from, c.n)
						apart := off >= sb || off <= -db
						switch {
						case apart && err != nil:
							t.Errorf("%s %s→%s n=%d offset %d: separate buffers refused: %v", p, c.from, c.to, c.n, off, err)
						case !apart && err == nil:
							t.Errorf("%s %s→%s n=%d offset %d: overlapping buffers accepted", p, c.from, c.to, c.n, off)
						case !apart && !errors.Is(err, kernels.ErrOverlap):
							t.Errorf("%s %s→%s n=%d offset %d: error %q is not ErrOverlap", p, c.from, c.to, c.n, off, err)
						case !apart && !strings.Contains(err.Error(), "overlap"):
							t.Errorf("%s %s→%s n=%d offset %d: error %q does not say overlap", p, c.from, c.to, c.n, off, err)
						case !apart && !bytes.Equal(buf, before):
							t.Errorf("%s %s→%s n=%d offset %d: the refused call wrote", p, c.from, c.to, c.n, off)
						}
						copy(buf, before)
					}
				})
			}
		})
	}
	// The package-level Convert takes its own fast path.
	b := make([]byte, 64)
	if err := kernels.Convert(b[4:], element.I32, b, element.F32, 8); !errors.Is(err, kernels.ErrOverlap) {
		t.Errorf("kernels.Convert on overlapping buffers: %v, want ErrOverlap", err)
	}
}

// TestTypedOverlap checks that the typed helpers pass Convert's refusal through.
func TestTypedOverlap(t *testing.T) {
	x := []uint16{0x3C00, 0x4000, 0x4200}
	if err := kernels.BF16sFromF16s(x, x); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("BF16sFromF16s(x, x) = %v, want an overlap error", err)
	}
	if x[0] != 0x3C00 || x[1] != 0x4000 || x[2] != 0x4200 {
		t.Errorf("the refused call wrote: %#x", x)
	}
}

// TestConvertDoesNotAllocate: a conversion that runs on the calling goroutine allocates nothing,
// for every supported pair on every path, through Convert and through an explicit Converter, also
// under the ONNX and ml_dtypes rule sets. Each call is first checked to succeed, so that an
// early error cannot pass for a conversion. Its subtests (pair/path) run one after another:
// testing.AllocsPerRun counts the whole program's allocations and sets GOMAXPROCS.
func TestConvertDoesNotAllocate(t *testing.T) {
	const n = 777 // odd, so packed tails and SIMD tails both run
	src := make([]byte, 16*n)
	dst := make([]byte, 16*n)
	for _, from := range element.All() {
		for _, to := range element.All() {
			if !kernels.Supported(from, to) {
				continue
			}
			t.Run(kernels.PairName(from, to), func(t *testing.T) {
				for _, p := range kernels.Paths() {
					t.Run(p.String(), func(t *testing.T) {
						c := kernels.WithPath(p, 1)
						if err := c.Convert(dst, to, src, from, n); err != nil {
							t.Fatalf("%v %v→%v: %v", p, from, to, err)
						}
						a := testing.AllocsPerRun(5, func() { _ = c.Convert(dst, to, src, from, n) })
						b := testing.AllocsPerRun(5, func() { _ = kernels.Convert(dst, to, src, from, n) })
						if a != 0 || b != 0 {
							t.Errorf("%v %v→%v: %v allocations per Converter.Convert, %v per Convert", p, from, to, a, b)
						}
						for _, set := range []kernels.RuleSet{kernels.ONNX, kernels.MLDtypes} {
							r := c
							r.Rules = kernels.Rules{Set: set, NoSaturate: true, E8M0Round: kernels.RoundNearest}
							if err := r.Convert(dst, to, src, from, n); err != nil {
								t.Fatalf("%v %v %v→%v: %v", p, set, from, to, err)
							}
							if a := testing.AllocsPerRun(5, func() { _ = r.Convert(dst, to, src, from, n) }); a != 0 {
								t.Errorf("%v %v %v→%v: %v allocations per Converter.Convert", p, set, from, to, a)
							}
						}
					})
				}
			})
		}
	}
}
