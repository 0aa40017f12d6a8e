package bench

import (
	"testing"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestRulesResolver: the resolved conversion follows the rule set (f32 465 to f8e4m3: ONNX
// saturates to 448, OpenVINO gives NaN).
func TestRulesResolver(t *testing.T) {
	c := Case{From: element.F32, To: element.F8E4M3, Path: "generic", N: 1, Threads: 1}
	src := []byte{0x00, 0x80, 0xE8, 0x43} // 465
	for _, r := range []struct {
		res  Resolver
		want byte
	}{{RulesResolver(kernels.Rules{Set: kernels.ONNX}), 0x7E}, {KernelResolver, 0x7F}} {
		f, err := r.res(c)
		if err != nil {
			t.Fatal(err)
		}
		dst := []byte{0}
		if err := f(dst, src, 1); err != nil || dst[0] != r.want {
			t.Errorf("got %#x, %v; want %#x", dst[0], err, r.want)
		}
	}
}

// TestX448PathName: the bench command selects the x448 path by the name and pairs of package
// benchcli; the resolver must serve exactly that name and those pairs.
func TestX448PathName(t *testing.T) {
	if PathX448 != benchcli.PathX448 {
		t.Errorf("bench.PathX448 = %q, benchcli.PathX448 = %q", PathX448, benchcli.PathX448)
	}
	for _, from := range element.All() {
		for _, to := range element.All() {
			if got, want := x448Func(from, to, 1) != nil, benchcli.HasX448(from, to); got != want {
				t.Errorf("%s:%s: the resolver has x448 %v, benchcli.HasX448 says %v", from, to, got, want)
			}
		}
	}
}
