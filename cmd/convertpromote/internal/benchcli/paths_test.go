package benchcli

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// simdWithKernel lists, from package kernels directly, the SIMD paths of this CPU that have a
// kernel for the pair, best first.
func simdWithKernel(from, to element.Type) []string {
	var out []string
	for _, p := range kernels.Paths() {
		if p != kernels.Generic && kernels.HasKernel(p, from, to) {
			out = append(out, p.String())
		}
	}
	return out
}

func TestSelectPathsAutoAndAll(t *testing.T) {
	for _, pr := range []Pair{{From: element.F32, To: element.F16}, {From: element.F16, To: element.F32}, {From: element.I8, To: element.F32}, {From: element.U4, To: element.F32}} {
		simd := simdWithKernel(pr.From, pr.To)
		var peers []string
		if pr.From == element.F16 || pr.To == element.F16 {
			peers = []string{"generic", "x448"}
		} else {
			peers = []string{"generic"}
		}
		wantAuto := append(append([]string{}, simd[:min(1, len(simd))]...), peers...)
		wantAll := append(append([]string{}, simd...), peers...)
		if got, skipped, err := SelectPaths("auto", pr.From, pr.To); err != nil || !slices.Equal(got, wantAuto) || len(skipped) != 0 {
			t.Errorf("%s auto = %v (skipped %v), %v; want %v", pr, got, skipped, err, wantAuto)
		}
		if got, skipped, err := SelectPaths("all", pr.From, pr.To); err != nil || !slices.Equal(got, wantAll) || len(skipped) != 0 {
			t.Errorf("%s all = %v (skipped %v), %v; want %v", pr, got, skipped, err, wantAll)
		}
	}
}

func TestSelectPathsList(t *testing.T) {
	got, skipped, err := SelectPaths("x448,generic", element.F32, element.F16)
	if err != nil || !slices.Equal(got, []string{"generic", "x448"}) || len(skipped) != 0 {
		t.Errorf("x448,generic = %v %v %v; want report order generic, x448", got, skipped, err)
	}
	got, skipped, err = SelectPaths("generic,x448", element.I8, element.F32)
	if err != nil || !slices.Equal(got, []string{"generic"}) || !slices.Equal(skipped, []string{"x448"}) {
		t.Errorf("x448 for i8:f32 = %v, skipped %v, %v; want it skipped", got, skipped, err)
	}
	for _, p := range kernels.Paths() {
		if p == kernels.Generic {
			continue
		}
		// A SIMD path is kept for a pair it has a kernel for and skipped otherwise.
		for _, pr := range []Pair{{From: element.F32, To: element.F16}, {From: element.U3, To: element.F64}} {
			got, skipped, err := SelectPaths(p.String(), pr.From, pr.To)
			has := kernels.HasKernel(p, pr.From, pr.To)
			if err != nil || slices.Contains(got, p.String()) != has || slices.Contains(skipped, p.String()) == has {
				t.Errorf("%s for %s (kernel %v): %v skipped %v err %v", p, pr, has, got, skipped, err)
			}
		}
	}
}

func TestSelectPathsErrors(t *testing.T) {
	for spec, wantIn := range map[string]string{
		"sse":           `unknown path "sse"`,
		"":              `unknown path ""`,
		"generic,bogus": `unknown path "bogus"`,
		"auto,generic":  `"auto" cannot be combined`,
	} {
		if _, _, err := SelectPaths(spec, element.F32, element.F16); err == nil || !strings.Contains(err.Error(), wantIn) {
			t.Errorf("SelectPaths(%q) error %v, want %q", spec, err, wantIn)
		}
	}
	// Every SIMD name this CPU lacks is an error that says so.
	for _, name := range []string{"avx512", "avx2", "neon"} {
		p, _ := kernels.ParsePath(name)
		if slices.Contains(kernels.Paths(), p) {
			continue
		}
		_, _, err := SelectPaths(name, element.F32, element.F16)
		if err == nil || !strings.Contains(err.Error(), name+" is not available on this CPU") {
			t.Errorf("SelectPaths(%q) on %s error %v, want not available", name, runtime.GOARCH, err)
		}
	}
}

// TestSelectPathsRules: under a rule set, a pair the rule set converts with a loop of its own
// has the SIMD paths of the rule set's kernels (none for a pair left to pure Go), and a pair it
// converts like OpenVINO keeps OpenVINO's SIMD paths.
func TestSelectPathsRules(t *testing.T) {
	onnx := kernels.Rules{Set: kernels.ONNX}
	for _, pr := range [][2]element.Type{{element.F32, element.F8E4M3}, {element.F32, element.F4E2M1}} {
		var want []string
		for _, p := range kernels.Paths() {
			if onnx.HasRuleKernel(p, pr[0], pr[1]) {
				want = append(want, p.String())
			}
		}
		want = append(want, "generic")
		got, _, err := SelectPathsRules("all", onnx, pr[0], pr[1])
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("onnx %v:%v all = %v, %v; want %v", pr[0], pr[1], got, err, want)
		}
	}
	if got, _, _ := SelectPathsRules("all", onnx, element.F32, element.F4E2M1); !slices.Equal(got, []string{"generic"}) {
		t.Errorf("onnx f32:f4e2m1, a pair without rule-set kernels, all = %v; want [generic]", got)
	}
	want, _, _ := SelectPaths("all", element.F32, element.F16)
	got, _, err := SelectPathsRules("all", onnx, element.F32, element.F16)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("onnx f32:f16 all = %v, %v; want OpenVINO's %v", got, err, want)
	}
}
