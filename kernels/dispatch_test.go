package kernels

import (
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
