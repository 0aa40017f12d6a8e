package kernels

import (
	"reflect"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// TestConverterPathField: a Converter literal runs the path its Path field names, as WithPath
// does, and the zero Path (Best) runs the best path. Each table entry is replaced for the test
// by a loop that records its call.
func TestConverterPathField(t *testing.T) {
	from, to := element.F32, element.F16
	src, dst := make([]byte, 8), make([]byte, 4)
	for _, p := range append(Paths(), Best) {
		saved := dispatch
		ran := Path(numPaths)
		for q := range numPaths {
			dispatch[q][from][to].f = func(dst, src []byte, n int) { ran = q }
		}
		err := Converter{Path: p}.Convert(dst, to, src, from, 2)
		dispatch = saved
		want := p.resolve()
		if err != nil || ran != want {
			t.Errorf("Converter{Path: %s}: ran the table of %s, err %v; want %s", p, ran, err, want)
		}
	}
}

// TestBestPath: Best stands for the first of Paths(), is always available, and reads and
// writes as "best".
func TestBestPath(t *testing.T) {
	if Best.resolve() != Paths()[0] || !pathAvailable(Best) {
		t.Errorf("Best resolves to %s (available %v), Paths() = %v", Best.resolve(), pathAvailable(Best), Paths())
	}
	if p, err := ParsePath("best"); err != nil || p != Best || Best.String() != "best" {
		t.Errorf("ParsePath(best) = %v, %v", p, err)
	}
	var c Converter
	if c.Path != Best {
		t.Errorf("the zero Converter's path is %s", c.Path)
	}
	if HasKernel(Best, element.F32, element.F16) != HasKernel(Paths()[0], element.F32, element.F16) {
		t.Errorf("HasKernel(Best, f32, f16) differs from HasKernel(%s, …)", Paths()[0])
	}
}

// TestDispatchTable checks Convert's table against the lookup it caches: for every path this CPU
// has and every pair of types, the entry holds kernel(p, from, to) with the element sizes of
// both types exactly when both are stored in whole bytes, and is empty otherwise. Its subtests
// are pair/path.
func TestDispatchTable(t *testing.T) {
	filled := map[Path]int{}
	for from := range element.Type(numTypes) {
		for to := range element.Type(numTypes) {
			t.Run(pairName(from, to), func(t *testing.T) {
				for _, p := range Paths() {
					t.Run(p.String(), func(t *testing.T) {
						e := dispatch[p][from][to]
						want := kernel(p, from, to)
						whole := from.Valid() && to.Valid() && from != element.String && to != element.String &&
							from.Bits() > 0 && from.Bits()%8 == 0 && to.Bits() > 0 && to.Bits()%8 == 0
						switch {
						case want == nil || !whole:
							if e.f != nil {
								t.Errorf("%s %s→%s: table entry for a pair Convert must decide slowly", p, from, to)
							}
						case e.f == nil:
							t.Errorf("%s %s→%s: no table entry", p, from, to)
						case reflect.ValueOf(e.f).Pointer() != reflect.ValueOf(want).Pointer():
							t.Errorf("%s %s→%s: table holds another loop than kernel()", p, from, to)
						case int(e.sw) != from.Bits()/8 || int(e.dw) != to.Bits()/8:
							t.Errorf("%s %s→%s: element sizes %d, %d", p, from, to, e.sw, e.dw)
						default:
							filled[p]++ // the subtests run one after another
						}
					})
				}
			})
		}
	}
	wholeTypes := 0 // every pair of supported whole-byte types is in the table
	for _, ty := range element.All() {
		if Supported(ty, ty) && ty.Bits()%8 == 0 {
			wholeTypes++
		}
	}
	for _, p := range Paths() {
		if filled[p] != wholeTypes*wholeTypes || wholeTypes < 19 {
			t.Errorf("%s: %d table entries for %d whole-byte types", p, filled[p], wholeTypes)
		}
	}
	for p := range numPaths {
		if !pathAvailable(p) {
			for from := range element.Type(numTypes) {
				for to := range element.Type(numTypes) {
					if dispatch[p][from][to].f != nil {
						t.Fatalf("%s is not available but has table entries", p)
					}
				}
			}
		}
	}
}
